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
from p2pspades.audit.verdict import (
    Status,
    Unattributed,
    Verdict,
    claim_facts,
    end_facts,
    unreadable,
    violation_data,
)
from p2pspades.checks import Check
from p2pspades.describe import dropped
from p2pspades.errors import N_, Detail, LocalError, RemoteError, detail_of
from p2pspades.reasons import Finding, Reason
from p2pspades.rules import VIOLATION_KINDS as AUDIT_KINDS
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
from p2pspades.table.deal import check_now
from p2pspades.table.messages import Answered


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
        return Verdict(Status.UNREADABLE, Reason.of(Finding.NO_FILE, path=os.fspath(path)))
    except IsADirectoryError:
        return Verdict(Status.UNREADABLE, Reason.of(Finding.DIRECTORY, path=os.fspath(path)))
    except OSError as exc:
        error = exc.strerror or str(exc)
        return Verdict(Status.UNREADABLE, Reason.of(Finding.CANNOT_READ, path=os.fspath(path), error=error))
    except LocalError as exc:
        return unreadable(detail_of(exc))
    verdict = _replay(read.frames, visitors, jobs)
    verdict.torn = read.torn
    if read.torn is not None and verdict.status in (Status.VALID, Status.INCOMPLETE):
        verdict.status = Status.INCOMPLETE
        verdict.finding = verdict.finding.plus(torn=read.torn.offset)
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


def _earlier_refusal(raw: bytes) -> bool:
    """Whether `raw` is a refusal as releases before refusals carried their entry wrote it: the fields of an
    `answered`, well formed, its `e` the entry's hash (32 bytes, which no envelope is)."""
    try:
        payload = log.open_envelope(raw).payload
    except RemoteError:
        return False
    if payload.get("t") != "answered":
        return False
    try:  # the fields of a refusal, well formed: else the table judges it (a schema fault of its signer)
        refusal = Answered.from_payload(payload)
    except RemoteError:
        return False
    return len(refusal.entry) == log.HASH_SIZE


def _judge(frames: list[bytes], teller: _Teller, parallel: ParallelProofs | None) -> Verdict:
    if not frames:
        return Verdict(Status.INCOMPLETE, Reason.of(Finding.EMPTY))
    try:
        _, setup = read_genesis(frames[0])
    except log.DecodeError as exc:
        return Verdict(Status.UNREADABLE, Reason.of(Finding.NOT_GENESIS, detail=exc.detail))
    except RemoteError as exc:  # seat 0 signed (or failed to sign) a genesis no peer accepts
        refused = Violation(0, exc.check, exc.detail, 0, (frames[0],))
        found = Reason.of(Finding.BAD_GENESIS, check=exc.check, detail=exc.detail)
        return Verdict(Status.VIOLATION, found, violation=refused)
    table = Table(frames[0], proofs=check_now if parallel is None else parallel)
    teller.genesis(setup)
    faults: list[Violation] = []
    stopped = 0  # the frame that gave the table its fault, if one ended the game
    seen = {frames[0]}
    for index, raw in enumerate(frames[1:], start=1):
        carried = raw in table.chain.known and raw not in seen  # a refusal brought it: its copy is no repeat
        seen.add(raw)
        if _earlier_refusal(raw) and not table.finished:
            found = Reason.of(Finding.EARLIER_REFUSAL, last=len(table.entries) - 1)
            return Verdict(Status.INCOMPLETE, found, table, None, faults, index)
        before = len(table.entries)
        if parallel is not None:
            parallel.entry = index
        events = table.receive(raw)
        teller.tell(index, table, events)
        if parallel is not None:
            teller.flush(parallel.settled())
            if parallel.failed is not None:  # the serial replay will say what it was
                return Verdict(Status.VIOLATION, Reason.of(Finding.PROOF, entry=parallel.failed))
        faults += not_ending(events, raw)
        if table.violation is not None and any(ev is table.violation for ev in events):
            stopped = index
        if carried or _taken(table, raw, before, events):
            continue
        problem = None if table.finished else _problem(table, raw, events, index)
        if problem is not None:  # (after the end, a frame the table does not take changes nothing)
            problem.penalised = faults
            return problem
    return judge_end(table, faults, stopped)


def not_ending(events: list[Event], raw: bytes) -> list[Violation]:
    """The faults in `events` that do not end the game: a violation the rule set's penalty settled (a renege,
    a false bid), or a note its signer is named for that is no claim (a vote after taking the answer: at the
    slot the note names)."""
    found = [ev for ev in events if isinstance(ev, Violation) and not ev.halts]
    if any(isinstance(ev, Noted) and ev.raw == raw for ev in events):
        slot = log.validate_header(log.open_envelope(raw).payload).seq
        found += [Violation(ev.seat, ev.check, ev.detail, slot, (ev.raw,), halts=False)
                  for ev in events if isinstance(ev, Rejected)]
    else:  # a goodbye its signer's later entry makes void: named at the goodbye's slot, when the entry comes
        found += [Violation(ev.seat, ev.check, ev.detail, _seq(ev.raw), (ev.raw,), halts=False)
                  for ev in events if isinstance(ev, Rejected) and ev.check is Check.LEAVE and ev.raw != raw]
    return found


def _seq(raw: bytes) -> int:
    return int(log.validate_header(log.open_envelope(raw).payload).seq)


def _taken(table: Table, raw: bytes, before: int, events: list[Event]) -> bool:
    """Whether the table took the frame: on its chain, as a note, as the ending its notes made, as evidence
    of a fault (or the cut back an ending made)."""
    if len(table.entries) > before or any(isinstance(ev, Noted | Superseded) for ev in events):
        return True
    if any(isinstance(ev, Violation) and ev.halts for ev in events):
        return True
    if table.parted is not None and raw == table.entries[table.parted.seq]:
        return True
    return table.certified is not None and raw == table.entries[table.certified.seq]


def _problem(table: Table, raw: bytes, events: list[Event], index: int) -> Verdict | None:
    """The verdict on a log with a frame the table did not take (a log holds only what its peer took)."""
    problem = next((ev for ev in events if isinstance(ev, Dropped | Rejected)), None)
    if isinstance(problem, Rejected) and _earlier_claim(raw):
        last = len(table.entries) - 1
        return Verdict(Status.INCOMPLETE, Reason.of(Finding.EARLIER_CLAIM, last=last, at=last + 1), table,
                       None, [], index)
    if isinstance(problem, Rejected):
        named = Violation(problem.seat, problem.check, problem.detail, index, (raw,), halts=False)
        found = Reason.of(Finding.REJECTED, entry=index, check=problem.check, detail=problem.detail,
                          seat=problem.seat)
        return Verdict(Status.VIOLATION, found, table, named, [], index)
    if isinstance(problem, Dropped):
        found = Reason.of(Finding.DROPPED, entry=index, drop=problem)
        if problem.kind is DropKind.MALFORMED:
            return Verdict(Status.UNREADABLE, found, table, None, [], index)
        check = Check.SIGNATURE if problem.kind is DropKind.BAD_SIGNATURE else Check.HEADER
        return _unattributed(table, index, raw, check, found, detail=dropped(problem))
    if any(isinstance(ev, Wanted) for ev in events):
        broken = Reason.of(Finding.BROKEN, entry=index)
        return _unattributed(table, index, raw, Check.CHAIN, broken,
                             detail=Detail(N_("out of sequence: the chain is broken")))
    if not any(isinstance(ev, Accepted) for ev in events):
        repeated = Reason.of(Finding.REPEATED, entry=index)
        return _unattributed(table, index, raw, Check.FRAME_REPEAT, repeated,
                             detail=Detail(N_("repeats an earlier entry")))
    return None


def _unattributed(table: Table, index: int, raw: bytes, check: Check, found: Reason, *,
                  detail: str) -> Verdict:
    """The verdict on a log with a frame no seat is named for: a violation of the log itself (its record
    names no seat, PROTOCOL.md §6), `detail` the failed check's."""
    return Verdict(Status.VIOLATION, found, table, None, [], index,
                   unattributed=Unattributed(check, detail, index, raw))


def judge_end(table: Table, penalised: list[Violation], stopped: int = 0) -> Verdict:
    """The verdict on an observer `table` that has taken every entry it was given, with the faults that did
    not end the game (a violation a rule-set penalty settled, a note its signer is named for): a halting
    violation (`stopped`: the frame that brought it), complete, abandoned, or valid so far. A fault that did
    not end the game still proves a tampered client whatever the ending: it is said, and the verdict is a
    violation."""
    n = len(table.entries)
    last = n - 1
    v = table.violation
    if v is not None and v.halts:
        found = Reason.of(Finding.HALTED, ended=end_facts(table), **violation_data(v))
        return Verdict(Status.VIOLATION, found, table, v, penalised, stopped or n)
    fault = _fault(penalised[0], table) if penalised else None
    if table.status is TableStatus.COMPLETE:
        if fault is not None:
            return Verdict(Status.VIOLATION, fault, table, penalised[0], penalised, n)
        return Verdict(Status.VALID, Reason.of(Finding.COMPLETE, entries=n), table, None, penalised, n)
    if table.status is TableStatus.ABANDONED:
        found = Reason.of(Finding.ABANDONED, last=last, claim=claim_facts(table), ended=end_facts(table))
    elif table.status in (TableStatus.LEFT, TableStatus.STOPPED) and table.result is not None:
        forfeit = end_facts(table) if table.result.forfeit else None  # (else its words say it)
        found = Reason.of(Finding.PARTED, last=last, parted=table.result, ended=forfeit)
    else:
        waiting = table.waiting_for()
        found = Reason.of(Finding.INCOMPLETE, last=last, waiting=waiting, claim=claim_facts(table))
    if fault is not None:
        return Verdict(Status.VIOLATION, found.plus(fault=fault), table, penalised[0], penalised, n)
    return Verdict(Status.INCOMPLETE, found, table, None, penalised, n)


def _fault(v: Violation, table: Table) -> Reason:
    """A fault that did not end the game, and what it cost: the audit's penalty under the rule set's
    `renege`, or (a named note) nothing but the name: it was no claim."""
    return Reason.of(Finding.PENALISED, audit=v.check in AUDIT_KINDS, renege=table.rules.renege,
                     **violation_data(v))
