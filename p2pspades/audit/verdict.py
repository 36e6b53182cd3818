"""A verifier's verdict on a log, and the plain words it uses for abandonments and forfeits."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from p2pspades import log
from p2pspades.audit.sequel import Change, broken, changes
from p2pspades.checks import Check
from p2pspades.describe import change_text, ending, failed, left_forfeit, seats_word
from p2pspades.exits import ExitCode
from p2pspades.rules import HandResult
from p2pspades.table import PassShown, Table, TableStatus, Violation


class Status(enum.IntEnum):
    """The verdict, valued as the `verify` command's exit code."""

    VALID = ExitCode.OK
    VIOLATION = ExitCode.VIOLATION
    UNREADABLE = ExitCode.FAILED
    INCOMPLETE = ExitCode.INCOMPLETE


@dataclass(frozen=True)
class Unattributed:
    """A frame of a log that no seat can be blamed for (nobody signed it as it is): its position in the
    file, the check it fails, and the frame itself."""

    check: Check
    detail: str
    frame: int
    raw: bytes


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
    #: a fault of the log that no seat can be named for (a bad signature, a broken chain, a repeated frame):
    #: its check, detail, the frame's position in the log and the frame
    unattributed: Unattributed | None = None
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
    return seats_word(seats)


def abandonment(table: Table) -> str:
    """What a log proves about an abandonment: who signed that which seat kept the table waiting, after how
    long by their clocks, and whether that made a certificate or a stalled ending (a claim of silence, never
    a proof of it), or a refusal voided it."""
    slot = table.claim
    if slot is None:
        return "no seat was claimed to have stopped answering"
    waits = sorted(set(slot.waits[v] for v in slot.voters)) or sorted(set(slot.waits.values()))
    after = " or ".join(f"{w} s" for w in waits)
    voters = slot.voters or tuple(sorted(slot.votes))
    said = (
        f"{_seats(voters)} signed that seat {slot.accused} kept the table waiting for its "
        f"{slot.awaited or 'entry'} (entry {slot.seq}) past the timeout in force ({after})"
    )
    result = table.result
    if table.certified is slot and result is not None and result.contested and not result.missing:
        them = "it" if len(voters) == 1 else "them"  # only seats that win by it signed: a claim, no more
        return (f"{_seats(voters)} claimed that seat {slot.accused} kept {them} waiting for its "
                f"{slot.awaited or 'entry'} (entry {slot.seq}) past the timeout in force ({after}): a "
                f"certificate at entry {slot.seq} that only seats who win by it signed")
    if table.certified is slot and result is not None and result.missing:
        return (said + f", and, a timeout later, that {_seats(result.missing)} signed nothing: a "
                f"stalled ending at entry {slot.seq} (the seats still playing ended it; a claim of silence, "
                "not a proof)")
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
    elif result.status is TableStatus.LEFT:
        why = left_forfeit()
    elif table.violation is not None:
        why = failed(table.violation.check, table.violation.detail)
    else:  # pragma: no cover - a fault is an abandonment or a violation
        why = ending(result)
    return f"forfeit by seat {result.seat}: {why}"


def answer_held(table: Table) -> log.Header | None:
    """The header of the accused's own answer that an ending took the slot from, if this log holds it (the
    accused's log, say): then a two-player or colluders' claim stands against a signed answer."""
    slot, result = table.certified, table.result
    if slot is None or result is None:
        return None
    for raw in table.superseded[:1]:
        header = log.validate_header(log.open_envelope(raw).payload)
        if header.seat == slot.accused and header.seq == slot.seq:
            return header
    return None


def forfeit_suffix(table: Table) -> str:
    result = table.result
    if result is None or result.seat is None:
        return ""
    if result.status is TableStatus.LEFT and not result.forfeit:
        return ""  # its words say it: the result stands, or nobody wins
    if result.scored:
        winners = " and ".join(f"side {w}" for w in result.winners) or "nobody"
        return f"; the game was decided before its end: the result stands, {winners} {_wins(result.winners)}"
    if result.missing:
        return f"; contested: {_seats(result.missing)} signed nothing, so nobody wins"
    if result.contested:
        text = "; contested: every seat that signed the certificate wins by it, so nobody wins"
        answer = answer_held(table)
        if answer is not None:
            digest = log.entry_hash(table.superseded[0]).hex()[:16]
            text += (f"; this log holds seat {result.seat}'s own {answer.type} for entry {answer.seq}, "
                     f"signed (hash {digest}…): a claim against a signed answer, a dispute, not a silence")
        return text
    if not result.forfeit:
        return "; the game is void (rule on_fault=void)"
    winners = " and ".join(f"side {w}" for w in result.winners)
    return f"; forfeit by seat {result.seat}: {winners} {_wins(result.winners)}"


def _wins(winners: tuple[int, ...]) -> str:
    return "wins" if len(winners) == 1 else "win"


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
