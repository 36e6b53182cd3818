"""A verifier's verdict on a log, and the facts it states about abandonments, forfeits and games that follow
others, as data (`reasons.Finding`, `ClaimFacts`, `EndFacts`, `Follows`): `describe.findings` words them."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from p2pspades import log
from p2pspades.audit.sequel import Change, broken, changes
from p2pspades.checks import Check
from p2pspades.describe import findings
from p2pspades.exits import ExitCode
from p2pspades.reasons import ClaimFacts, EndFacts, Finding, Follows, Reason
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
    #: what the log proves: a `Finding` and its data (`summary` is its words)
    finding: Reason
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

    @property
    def summary(self) -> str:
        """What the log proves, in one line (the describer's words for `finding`)."""
        return findings.summary(self.finding)


def unreadable(detail: str) -> Verdict:
    """The verdict on a file that is no log, `detail` saying why in the words of the layer that found it."""
    return Verdict(Status.UNREADABLE, Reason.of(Finding.UNREADABLE, detail=detail))


def violation_data(v: Violation) -> dict[str, object]:
    """The data of a finding about violation `v`: its entry, check, detail and seat."""
    return {"entry": v.seq, "check": v.check, "detail": v.detail, "seat": v.seat}


def claim_facts(table: Table) -> ClaimFacts | None:
    """The abandonment claim the table holds, as facts: who voted that which seat kept the table waiting for
    what, after how long by their clocks, and what came of it: a certificate (or one only seats who win by it
    signed, or a stalled ending), a refusal that voided it, or the seats yet to sign (None: no claim)."""
    slot = table.claim
    if slot is None:
        return None
    ended = table.result if table.certified is slot else None
    return ClaimFacts(
        voters=tuple(slot.voters) or tuple(sorted(slot.votes)), accused=slot.accused, awaited=slot.awaited,
        seq=slot.seq, waits=_waits(slot.waits, slot.voters), certified=table.certified is slot,
        refusers=tuple(sorted(slot.refusals)), missing=tuple(slot.missing(table.seats)),
        claimed=ended is not None and ended.contested and not ended.missing,
        stalled=() if ended is None else tuple(ended.missing),
    )


def _waits(waits: Mapping[int, int], voters: Sequence[int]) -> tuple[int, ...]:
    """The timeouts the voters stated (every seat's that stated one, where none voted), each once."""
    return tuple(sorted({waits[v] for v in voters}) or sorted(set(waits.values())))


def end_facts(table: Table) -> EndFacts | None:
    """How the game ended for the sides, when it ended on a seat's fault (None otherwise)."""
    result = table.result
    if result is None or result.seat is None:
        return None
    v = table.violation
    answer = answer_held(table)
    held = None
    if answer is not None:
        held = (answer.type, answer.seq, log.entry_hash(table.superseded[0]).hex()[:16])
    return EndFacts(
        seat=result.seat, contested=result.contested, forfeit=result.forfeit, winners=tuple(result.winners),
        abandoned=result.status is TableStatus.ABANDONED, signers=tuple(result.signers),
        left=result.status is TableStatus.LEFT,
        check=None if v is None else v.check, detail="" if v is None else v.detail,
        scored=result.scored, missing=tuple(result.missing),
        answer=held,
    )


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


def abandonment(table: Table) -> str:
    """What the log proves about an abandonment, in words."""
    return findings.abandonment(claim_facts(table))


def forfeit(table: Table) -> str | None:
    """'forfeit by seat X: reason' when the game ended on a fault and the rules make its side forfeit."""
    return findings.forfeit(end_facts(table))


def follows(old: Verdict, new: Verdict) -> Reason | None:
    """Why the game of `new` does not follow the game of `old` as its genesis `after` says, or None if it
    does (PROTOCOL.md §4.1.1): it names old's game id, old's game is over, and a continuation keeps old's
    rules and every seat's key but the abandoned one's, and starts where old ended (`sequel.changes`: each
    change that breaks the promise of `after`)."""
    if new.table is None:
        return Reason.of(Follows.NO_GENESIS)
    after = new.table.setup.after
    if after is None:
        return Reason.of(Follows.NO_AFTER, game=new.table.game_id.hex())
    if old.table is None:
        return Reason.of(Follows.OLD_UNREADABLE, old=old.finding)
    problems = tuple(c for c in sequel_changes(old, new) if broken(after, c))
    return Reason.of(Follows.CHANGES, changes=problems) if problems else None


def follow_problem(old: Verdict, new: Verdict) -> str | None:
    """`follows` in words."""
    problem = follows(old, new)
    return None if problem is None else findings.said(problem)


def sequel_changes(old: Verdict, new: Verdict) -> tuple[Change, ...]:
    """How the game of `new` differs from the game of `old` it says it follows (none if either log has no
    readable genesis, or `new` follows no game): what `verify --after` reports, and fails on where the
    change breaks the promise of `after` (`follows`)."""
    if new.table is None or old.table is None or new.table.setup.after is None:
        return ()
    setup = new.table.setup
    assert setup.after is not None
    return changes(old.table, setup.after, setup.rules, setup.seats)
