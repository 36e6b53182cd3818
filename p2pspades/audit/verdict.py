"""A verifier's verdict on a log, and the plain words it uses for abandonments and forfeits."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from p2pspades import log
from p2pspades.audit.sequel import Change, broken, changes
from p2pspades.describe import change_text, ending, failed
from p2pspades.exits import ExitCode
from p2pspades.rules import HandResult
from p2pspades.table import PassShown, Table, TableStatus, Violation


class Status(enum.IntEnum):
    """The verdict, valued as the `verify` command's exit code."""

    VALID = ExitCode.OK
    VIOLATION = ExitCode.VIOLATION
    UNREADABLE = ExitCode.FAILED
    INCOMPLETE = ExitCode.INCOMPLETE


@dataclass
class Verdict:
    status: Status
    summary: str
    table: Table | None = None
    #: the first violation: seat, sequence number, check and the evidence entries
    violation: Violation | None = None
    #: violations a rule-set penalty settled (reneges found by the end-of-hand audit)
    penalised: list[Violation] = field(default_factory=list)
    entries: int = 0
    torn: log.TornTail | None = None
    #: the hands the log proves were played and audited, in order (see `audit.reader`)
    hands: list[HandResult] = field(default_factory=list)
    #: rule `nil_pass`: the passes of each audited hand, by hand number, with the cards the reveal showed
    passes: dict[int, tuple[PassShown, ...]] = field(default_factory=dict)

    @property
    def exit_code(self) -> int:
        return int(self.status)


def describe(v: Violation) -> str:
    return f"entry {v.seq}: {failed(v.check, v.detail, v.seat)}"


def _seats(seats: tuple[int, ...] | list[int]) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


def abandonment(table: Table) -> str:
    """What a log proves about an abandonment: who signed that which seat kept the table waiting, after how
    long by their clocks, and whether that made a certificate (a claim of silence, never a proof of it)."""
    slot = table.claim
    if slot is None:
        return "no seat was claimed to have stopped answering"
    waits = sorted(set(slot.waits.values()))
    after = " or ".join(f"{w} s" for w in waits)
    said = (
        f"{_seats(slot.voters)} signed that seat {slot.accused} kept the table waiting for its "
        f"{slot.awaited or 'entry'} (entry {slot.seq}) past the timeout in force ({after})"
    )
    if table.certified is slot:
        return said + f": a certificate at entry {slot.seq} (a claim of silence, not a proof)"
    if slot.refusals:
        return said + f"; {_seats(sorted(slot.refusals))} took its entry first: the claim is void"
    return said + f"; no certificate: {_seats(slot.missing(table.seats))} signed nothing yet"


def forfeit(table: Table) -> str | None:
    """'forfeit by seat X: reason' when the game ended on a fault and the rules make its side forfeit."""
    result = table.result
    if result is None or not result.forfeit or result.seat is None:
        return None
    if result.status is TableStatus.ABANDONED:
        why = f"the certificate of {_seats(result.signers)} says it stopped answering"
    elif table.violation is not None:
        why = failed(table.violation.check, table.violation.detail)
    else:  # pragma: no cover - a fault is an abandonment or a violation
        why = ending(result)
    return f"forfeit by seat {result.seat}: {why}"


def forfeit_suffix(table: Table) -> str:
    result = table.result
    if result is None or result.seat is None:
        return ""
    if result.contested:
        return "; contested: every seat that signed the certificate wins by it, so nobody wins"
    if not result.forfeit:
        return "; the game is void (rule on_fault=void)"
    winners = " and ".join(f"side {w}" for w in result.winners)
    return f"; forfeit by seat {result.seat}: {winners} {'wins' if len(result.winners) == 1 else 'win'}"


def follow_problem(old: Verdict, new: Verdict) -> str | None:
    """Why the game of `new` does not follow the game of `old` as its genesis `after` says, or None if it
    does (PROTOCOL.md §4.1.1): it names old's game id, old's game is over, and a continuation keeps old's
    rules and every seat's key but the abandoned one's, and starts where old ended (`sequel.changes`, each
    change that breaks the promise of `after`, in words)."""
    if new.table is None:
        return "the new log has no readable genesis"
    after = new.table.setup.after
    if after is None:
        return f"game {new.table.game_id.hex()} follows no game: its genesis has no 'after'"
    if old.table is None:
        return f"the old log has no readable genesis: {old.summary}"
    problems = [change_text(c) for c in sequel_changes(old, new) if broken(after, c)]
    return "; ".join(problems) or None


def sequel_changes(old: Verdict, new: Verdict) -> tuple[Change, ...]:
    """How the game of `new` differs from the game of `old` it says it follows (none if either log has no
    readable genesis, or `new` follows no game): what `verify --after` reports, and fails on where the
    change breaks the promise of `after` (`follow_problem`)."""
    if new.table is None or old.table is None or new.table.setup.after is None:
        return ()
    setup = new.table.setup
    assert setup.after is not None
    return changes(old.table, setup.after, setup.rules, setup.seats)
