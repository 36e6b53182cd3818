"""The offline verifier: replay a log through the table machine as an observer and give a verdict.

The observer holds no seat and no cards. It checks every entry exactly as a peer does (encoding, signature,
chain, turn, fields, cryptography, rules) and, at the end of every hand, recomputes the deal from the revealed
seeds and audits every play with all hands known. So a log verifies only if the game it records was played
honestly, by the rules, start to finish.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field

from p2pspades import log
from p2pspades.errors import LocalError, RemoteError
from p2pspades.exits import ExitCode
from p2pspades.table import (
    Accepted,
    DropKind,
    Dropped,
    Rejected,
    Table,
    TableStatus,
    Violation,
    Wanted,
    read_genesis,
)


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

    @property
    def exit_code(self) -> int:
        return int(self.status)


def verify_file(path: str | os.PathLike[str]) -> Verdict:
    """Verify the log file at `path`. Never raises for a bad file: the verdict says what is wrong."""
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
    verdict = verify_frames(read.frames)
    verdict.torn = read.torn
    if read.torn is not None and verdict.status in (Status.VALID, Status.INCOMPLETE):
        verdict.status = Status.INCOMPLETE
        verdict.summary += (
            f"; the last frame (at byte {read.torn.offset}) is cut short, as a crash during a write leaves it"
        )
    return verdict


def verify_frames(frames: list[bytes]) -> Verdict:
    """Verify a game given as its raw entries, genesis first."""
    if not frames:
        return Verdict(Status.INCOMPLETE, "the log holds no entry: nothing was recorded")
    try:
        read_genesis(frames[0])
    except log.DecodeError as exc:
        return Verdict(Status.UNREADABLE, f"entry 0 is not a genesis entry: {exc.detail}")
    except RemoteError as exc:
        return Verdict(Status.VIOLATION, f"entry 0 (the genesis) fails the {exc.check} check: {exc.detail}")
    table = Table(frames[0])
    penalised: list[Violation] = []
    for index, raw in enumerate(frames[1:], start=1):
        before = len(table.entries)
        events = table.receive(raw)
        for ev in events:
            if isinstance(ev, Violation):
                if ev.halts:
                    summary = _describe(ev) + _forfeit_suffix(table)
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
                "the game is complete, but " + _describe(first) + " (penalised)",
                table,
                first,
                penalised,
                n,
            )
        return Verdict(Status.VALID, f"valid and complete: {n} entries", table, None, penalised, n)
    if table.status is TableStatus.ABANDONED:
        return Verdict(
            Status.INCOMPLETE,
            f"valid, but abandoned at entry {n - 1}: {abandonment(table)}" + _forfeit_suffix(table),
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


def _describe(v: Violation) -> str:
    return f"entry {v.seq}: seat {v.seat} failed the {v.check} check: {v.detail}"


def abandonment(table: Table) -> str:
    """What a log proves about an abandonment: who claims it, after how long a silence, from whom."""
    claim = table.claim
    if claim is None:
        return "no seat was claimed to have stopped answering"
    who = ", ".join(str(s) for s in claim.signers)
    seats = "seat" if len(claim.signers) == 1 else "seats"
    if claim.answered is not None:
        return f"claimed by {seats} {who}, refuted: seat {claim.seat} answered in entry {claim.answered}"
    passed = ", ".join(str(s) for s in claim.passed)
    return (
        f"claimed by {seats} {who} after {claim.limit:.0f} s of silence from seat {claim.seat} "
        f"(the timeout for its {claim.step.types[0].TYPE}; a claim, not a proof)"
        + (f"; passed over without co-signing: seat {passed}" if passed else "")
    )


def forfeit(table: Table) -> str | None:
    """'forfeit by seat X: reason' when the game ended on a fault and the rules make its side forfeit."""
    result = table.result
    if result is None or not result.forfeit or result.seat is None:
        return None
    if result.status is TableStatus.ABANDONED:
        why = "it was claimed to have stopped answering"
    elif table.violation is not None:
        why = f"{table.violation.check}: {table.violation.detail}"
    else:  # pragma: no cover - a fault is an abandonment or a violation
        why = result.detail
    return f"forfeit by seat {result.seat}: {why}"


def _forfeit_suffix(table: Table) -> str:
    result = table.result
    if result is None or result.seat is None:
        return ""
    if not result.forfeit:
        return "; the game is void (rule on_fault=void)"
    winners = " and ".join(f"side {w}" for w in result.winners)
    return f"; forfeit by seat {result.seat}: {winners} {'wins' if len(result.winners) == 1 else 'win'}"
