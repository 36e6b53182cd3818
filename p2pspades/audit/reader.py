"""Reading a game log once, with typed callbacks.

`read_game` replays a log through the table machine as an observer (the verifier: see `verify`) and tells a
`GameVisitor` what the log proves, in order: the genesis, the first dealer, every card played, every finished
and audited hand, every violation, the end, and last the verdict. `tell` gives a visitor the events of a
table being played live, so a game's progress is told the same way during play and from its log.

A visitor overrides only the callbacks it needs; the rest do nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from p2pspades import log
from p2pspades.audit.verdict import Status, Verdict, abandonment, describe, forfeit_suffix
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
    Rejected,
    Setup,
    Table,
    TableStatus,
    Violation,
    Wanted,
    read_genesis,
)


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
    for ev in events:
        if isinstance(ev, FirstDealer):
            visitor.on_first_dealer(ev.seat)
        elif isinstance(ev, CardVerified):
            visitor.on_play(ev.seat, ev.card)
        elif isinstance(ev, ChallengeRaised):
            visitor.on_challenge(ev.seat, ev.why)
        elif isinstance(ev, HandAudited):
            history = table.game.history if table.game is not None else []
            hand = next((h for h in history if h.number == ev.hand), None)
            if hand is not None:
                visitor.on_hand(hand, ev)
        elif isinstance(ev, Violation):
            visitor.on_violation(ev)
        elif isinstance(ev, GameEnded):
            visitor.on_end(ev)


@dataclass
class _Hands(GameVisitor):
    """The reader's own visitor: the audited hands, which every verdict carries."""

    hands: list[HandResult] = field(default_factory=list)

    def on_hand(self, hand: HandResult, audit: HandAudited) -> None:
        self.hands.append(hand)


def read_game(source: str | os.PathLike[str] | Sequence[bytes], *visitors: GameVisitor) -> Verdict:
    """Read a game log (a file's path, or its raw entries, genesis first) once, telling every visitor what
    it proves, and give the verdict. Never raises for a bad file: the verdict says what is wrong."""
    hands = _Hands()
    everyone = (hands, *visitors)
    if isinstance(source, str | os.PathLike):
        verdict = _read_file(source, everyone)
    else:
        verdict = _replay(list(source), everyone)
    verdict.hands = hands.hands
    for visitor in everyone:
        visitor.on_verdict(verdict)
    return verdict


def _read_file(path: str | os.PathLike[str], visitors: Sequence[GameVisitor]) -> Verdict:
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
    verdict = _replay(read.frames, visitors)
    verdict.torn = read.torn
    if read.torn is not None and verdict.status in (Status.VALID, Status.INCOMPLETE):
        verdict.status = Status.INCOMPLETE
        verdict.summary += (
            f"; the last frame (at byte {read.torn.offset}) is cut short, as a crash during a write leaves it"
        )
    return verdict


def _replay(frames: list[bytes], visitors: Sequence[GameVisitor]) -> Verdict:
    """Replay the entries through an observer table, telling the visitors, and judge the log."""
    if not frames:
        return Verdict(Status.INCOMPLETE, "the log holds no entry: nothing was recorded")
    try:
        _, setup = read_genesis(frames[0])
    except log.DecodeError as exc:
        return Verdict(Status.UNREADABLE, f"entry 0 is not a genesis entry: {exc.detail}")
    except RemoteError as exc:
        return Verdict(Status.VIOLATION, f"entry 0 (the genesis) fails the {exc.check} check: {exc.detail}")
    table = Table(frames[0])
    for visitor in visitors:
        visitor.on_genesis(setup)
    penalised: list[Violation] = []
    for index, raw in enumerate(frames[1:], start=1):
        before = len(table.entries)
        events = table.receive(raw)
        for visitor in visitors:
            tell(table, events, visitor)
        for ev in events:
            if isinstance(ev, Violation):
                if ev.halts:
                    summary = describe(ev) + forfeit_suffix(table)
                    return Verdict(Status.VIOLATION, summary, table, ev, penalised, index)
                penalised.append(ev)
        if len(table.entries) > before:
            continue
        problem = next((ev for ev in events if isinstance(ev, Dropped | Rejected)), None)
        if isinstance(problem, Rejected):
            return Verdict(
                Status.VIOLATION,
                f"entry {index}: seat {problem.seat} failed the {problem.check} check: {problem.detail}",
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
    n = len(frames)
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
        return Verdict(Status.VALID, f"valid and complete: {n} entries", table, None, penalised, n)
    if table.status is TableStatus.ABANDONED:
        return Verdict(
            Status.INCOMPLETE,
            f"valid, but abandoned at entry {n - 1}: {abandonment(table)}" + forfeit_suffix(table),
            table,
            None,
            penalised,
            n,
        )
    waiting = table.waiting_for()
    where = f"; it waits for seat {waiting[0]}'s {waiting[1]}" if waiting else ""
    if table.claim is not None and waiting is not None:
        where = f"; {abandonment(table)}, and the claim waits for seat {waiting[0]} to co-sign it"
    return Verdict(
        Status.INCOMPLETE,
        f"valid so far, but incomplete: it stops after entry {n - 1}{where}",
        table,
        None,
        penalised,
        n,
    )
