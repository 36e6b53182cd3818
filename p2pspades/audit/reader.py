"""Reading a game log once, with typed callbacks.

`read_game` replays a log through the table machine as an observer (the verifier: see `verify`) and tells a
`GameVisitor` what the log proves, in order: the genesis, the first dealer, every card played, every finished
and audited hand, every violation, the end, and last the verdict. `tell` gives a visitor the events of a
table being played live, so a game's progress is told the same way during play and from its log.

A visitor overrides only the callbacks it needs; the rest do nothing.
"""

from __future__ import annotations

import concurrent.futures
import functools
import os
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from p2pspades import log
from p2pspades.audit.parallel import ALL_SETTLED, ParallelProofs, available_jobs
from p2pspades.audit.verdict import Status, Verdict, abandonment, describe, forfeit_suffix
from p2pspades.describe import failed
from p2pspades.errors import LocalError, RemoteError
from p2pspades.rules import Card, HandResult
from p2pspades.table import (
    Accepted,
    CardVerified,
    ChallengeRaised,
    DropKind,
    Dropped,
    Event,
    FirstDealer,
    GameEnded,
    HandAudited,
    Noted,
    PassShown,
    Rejected,
    Setup,
    Superseded,
    Table,
    TableStatus,
    Violation,
    Wanted,
    read_genesis,
)
from p2pspades.table.hand import check_now


class GameVisitor:
    """Callbacks for one game, in the order the game happened."""

    def on_genesis(self, setup: Setup) -> None:
        """The genesis was read: the table, its rules and every seat's name and key."""

    def on_first_dealer(self, seat: int) -> None:
        """`seat` drew the highest card and deals the first hand."""

    def on_play(self, seat: int, card: Card) -> None:
        """`seat` played `card` (its key opened the card)."""

    def on_challenge(self, seat: int, why: str) -> None:
        """`seat` challenged the deal: every seat reveals its seed."""

    def on_hand(self, hand: HandResult, audit: HandAudited) -> None:
        """A hand is over and its deal audited: the deal, the bids, the tricks, the score and the verdict."""

    def on_violation(self, violation: Violation) -> None:
        """A seat broke a rule: the game stops if `violation.halts`, else a rule-set penalty settled it."""

    def on_end(self, ended: GameEnded) -> None:
        """The game is over: complete, abandoned or halted."""

    def on_verdict(self, verdict: Verdict) -> None:
        """The log is read (always called last, also for a file that is no log at all)."""


def tell(table: Table, events: Iterable[Event], visitor: GameVisitor) -> None:
    """Give `visitor` the events `table` reported, as typed callbacks (events it has none for are skipped)."""
    for call in _calls(table, events, visitor):
        call()


def _calls(table: Table, events: Iterable[Event], visitor: GameVisitor) -> list[Callable[[], None]]:
    """The callbacks `tell` makes, bound to their arguments now (the reader may deliver them later)."""
    calls: list[Callable[[], None]] = []
    for ev in events:
        if isinstance(ev, FirstDealer):
            calls.append(functools.partial(visitor.on_first_dealer, ev.seat))
        elif isinstance(ev, CardVerified):
            calls.append(functools.partial(visitor.on_play, ev.seat, ev.card))
        elif isinstance(ev, ChallengeRaised):
            calls.append(functools.partial(visitor.on_challenge, ev.seat, ev.why))
        elif isinstance(ev, HandAudited):
            history = table.game.history if table.game is not None else []
            hand = next((h for h in history if h.number == ev.hand), None)
            if hand is not None:
                calls.append(functools.partial(visitor.on_hand, hand, ev))
        elif isinstance(ev, Violation):
            calls.append(functools.partial(visitor.on_violation, ev))
        elif isinstance(ev, GameEnded):
            calls.append(functools.partial(visitor.on_end, ev))
    return calls


class _Teller:
    """Tells the visitors what each entry proves: at once, or (`hold`) once the entry is settled, that is once
    every proof check of it and of every earlier entry has passed. Entries before `skip` were told already."""

    def __init__(self, visitors: Sequence[GameVisitor], hold: bool = False, skip: int = 0) -> None:
        self.visitors = visitors
        self.hold = hold
        self.skip = skip
        self._held: deque[tuple[int, list[Callable[[], None]]]] = deque()
        #: every entry before this one has been told
        self.told = skip

    def tell(self, index: int, table: Table, events: Iterable[Event]) -> None:
        if index < self.skip:
            return
        events = list(events)
        calls = [c for v in self.visitors for c in _calls(table, events, v)]
        if self.hold:
            self._held.append((index, calls))
            return
        for call in calls:
            call()
        self.told = index + 1

    def genesis(self, setup: Setup) -> None:
        if self.skip == 0:
            for visitor in self.visitors:
                visitor.on_genesis(setup)
            self.told = 1

    def flush(self, settled: int) -> None:
        """Tell every held entry before `settled`."""
        while self._held and self._held[0][0] < settled:
            index, calls = self._held.popleft()
            for call in calls:
                call()
            self.told = index + 1


@dataclass
class _Hands(GameVisitor):
    """The reader's own visitor: the audited hands, which every verdict carries."""

    hands: list[HandResult] = field(default_factory=list)
    passes: dict[int, tuple[PassShown, ...]] = field(default_factory=dict)

    def on_hand(self, hand: HandResult, audit: HandAudited) -> None:
        self.hands.append(hand)
        if audit.passes:
            self.passes[hand.number] = audit.passes


def read_game(
    source: str | os.PathLike[str] | Sequence[bytes],
    *visitors: GameVisitor,
    jobs: int = 1,
    pool: concurrent.futures.Executor | None = None,
) -> Verdict:
    """Read a game log (a file's path, or its raw entries, genesis first) once, telling every visitor what
    it proves, and give the verdict. Never raises for a bad file: the verdict says what is wrong.

    With `jobs` > 1 the proofs of the deal are checked by that many worker processes while the replay goes on
    (`audit/parallel.py`, where available); with `pool`, by the caller's worker processes (`parallel.
    worker_pool`), which it leaves running. The verdict and the visitors' callbacks are the same."""
    hands = _Hands()
    everyone = (hands, *visitors)
    workers = pool if pool is not None else available_jobs(jobs)
    if isinstance(source, str | os.PathLike):
        verdict = _read_file(source, everyone, workers)
    else:
        verdict = _replay(list(source), everyone, workers)
    verdict.hands = hands.hands
    verdict.passes = hands.passes
    for visitor in everyone:
        visitor.on_verdict(verdict)
    return verdict


Workers = int | concurrent.futures.Executor
"""How the proofs are checked: by this many worker processes of the replay's own (1: in the replay), or by a
caller's pool."""


def _read_file(path: str | os.PathLike[str], visitors: Sequence[GameVisitor], jobs: Workers) -> Verdict:
    try:
        read = log.read_log(path)
    except FileNotFoundError:
        return Verdict(Status.UNREADABLE, f"{os.fspath(path)}: no such file")
    except IsADirectoryError:
        return Verdict(Status.UNREADABLE, f"{os.fspath(path)} is a directory, not a log file")
    except OSError as exc:
        return Verdict(Status.UNREADABLE, f"{os.fspath(path)}: cannot read: {exc.strerror or exc}")
    except LocalError as exc:
        return Verdict(Status.UNREADABLE, str(exc))
    verdict = _replay(read.frames, visitors, jobs)
    verdict.torn = read.torn
    if read.torn is not None and verdict.status in (Status.VALID, Status.INCOMPLETE):
        verdict.status = Status.INCOMPLETE
        verdict.summary += (
            f"; the last frame (at byte {read.torn.offset}) is cut short, as a crash during a write leaves it"
        )
    return verdict


def _replay(frames: list[bytes], visitors: Sequence[GameVisitor], jobs: Workers) -> Verdict:
    """Replay the entries through an observer table, telling the visitors, and judge the log. With workers,
    optimistically with the proofs checked aside, and again serially from the first entry not told if one
    fails (so the verdict is always the serial replay's)."""
    if not isinstance(jobs, int) or jobs > 1:
        with ParallelProofs(jobs) as parallel:
            teller = _Teller(visitors, hold=True)
            verdict = _judge(frames, teller, parallel)
            parallel.settled(wait=True)
            if parallel.failed is None:
                teller.flush(ALL_SETTLED)
                return verdict
        return _judge(frames, _Teller(visitors, skip=teller.told), None)
    return _judge(frames, _Teller(visitors), None)


def _earlier_claim(raw: bytes) -> bool:
    """Whether `raw` is an on-chain `abandon` claim as releases before certificates (§5) wrote it."""
    try:
        payload = log.open_envelope(raw).payload
    except RemoteError:
        return False
    return payload.get("t") == "abandon" and "why" in payload and "w" not in payload


def _judge(frames: list[bytes], teller: _Teller, parallel: ParallelProofs | None) -> Verdict:
    if not frames:
        return Verdict(Status.INCOMPLETE, "the log holds no entry: nothing was recorded")
    try:
        _, setup = read_genesis(frames[0])
    except log.DecodeError as exc:
        return Verdict(Status.UNREADABLE, f"entry 0 is not a genesis entry: {exc.detail}")
    except RemoteError as exc:  # seat 0 signed (or failed to sign) a genesis no peer accepts
        refused = Violation(0, exc.check, exc.detail, 0, (frames[0],))
        summary = f"entry 0 (the genesis) fails the {exc.check} check: {exc.detail}"
        return Verdict(Status.VIOLATION, summary, violation=refused)
    table = Table(frames[0], proofs=check_now if parallel is None else parallel)
    teller.genesis(setup)
    penalised: list[Violation] = []
    for index, raw in enumerate(frames[1:], start=1):
        before = len(table.entries)
        if parallel is not None:
            parallel.entry = index
        events = table.receive(raw)
        teller.tell(index, table, events)
        if parallel is not None:
            teller.flush(parallel.settled())
            if parallel.failed is not None:  # the serial replay will say what it was
                return Verdict(Status.VIOLATION, f"entry {parallel.failed}: a proof does not verify")
        for ev in events:
            if isinstance(ev, Violation):
                if ev.halts:
                    summary = describe(ev) + forfeit_suffix(table)
                    return Verdict(Status.VIOLATION, summary, table, ev, penalised, index)
                penalised.append(ev)
        if len(table.entries) > before or any(isinstance(ev, Noted | Superseded) for ev in events):
            continue
        if table.certified is not None and raw == table.entries[table.certified.seq]:
            continue  # the certificate its votes, logged before it, already made
        problem = next((ev for ev in events if isinstance(ev, Dropped | Rejected)), None)
        if isinstance(problem, Rejected) and _earlier_claim(raw):
            waiting = f" at entry {len(table.entries)}"
            return Verdict(
                Status.INCOMPLETE,
                f"valid up to entry {len(table.entries) - 1}, then an abandonment claim of an earlier release"
                f"{waiting} (on the chain, with `why`), which this verifier does not judge",
                table,
                None,
                penalised,
                index,
            )
        if isinstance(problem, Rejected):
            return Verdict(
                Status.VIOLATION,
                f"entry {index}: {failed(problem.check, problem.detail, problem.seat)}",
                table,
                None,
                penalised,
                index,
            )
        if isinstance(problem, Dropped) and problem.kind is DropKind.MALFORMED:
            return Verdict(
                Status.UNREADABLE, f"entry {index}: {problem.reason}", table, None, penalised, index
            )
        if problem is not None:
            return Verdict(
                Status.VIOLATION, f"entry {index}: {problem.reason}", table, None, penalised, index
            )
        if any(isinstance(ev, Wanted) for ev in events):
            return Verdict(
                Status.VIOLATION,
                f"entry {index} is out of sequence: the chain is broken",
                table,
                None,
                penalised,
                index,
            )
        if not any(isinstance(ev, Accepted) for ev in events):
            return Verdict(
                Status.VIOLATION, f"entry {index} repeats an earlier entry", table, None, penalised, index
            )
    return judge_end(table, penalised)


def judge_end(table: Table, penalised: list[Violation]) -> Verdict:
    """The verdict on an observer `table` that has taken every entry it was given, with the violations a
    rule-set penalty settled: a halting violation, complete, abandoned, or valid so far."""
    n = len(table.entries)
    v = table.violation
    if v is not None and v.halts:
        return Verdict(Status.VIOLATION, describe(v) + forfeit_suffix(table), table, v, penalised, n)
    if table.status is TableStatus.COMPLETE:
        if penalised:
            first = penalised[0]
            return Verdict(
                Status.VIOLATION,
                "the game is complete, but " + describe(first) + " (penalised)",
                table,
                first,
                penalised,
                n,
            )
        chain = len(table.entries)
        return Verdict(Status.VALID, f"valid and complete: {chain} entries", table, None, penalised, n)
    if table.status is TableStatus.ABANDONED:
        return Verdict(
            Status.INCOMPLETE,
            f"valid, but abandoned at entry {len(table.entries) - 1}: {abandonment(table)}"
            + forfeit_suffix(table),
            table,
            None,
            penalised,
            n,
        )
    waiting = table.waiting_for()
    where = f"; it waits for seat {waiting[0]}'s {waiting[1]}" if waiting else ""
    if table.claim is not None and waiting is not None:
        where = f"; it waits for seat {waiting[0]}'s {waiting[1]}, and {abandonment(table)}"
    return Verdict(
        Status.INCOMPLETE,
        f"valid so far, but incomplete: it stops after entry {len(table.entries) - 1}{where}",
        table,
        None,
        penalised,
        n,
    )
