"""Settling a dispute from the logs of several players of one game.

Each log is first verified alone, exactly as `verify` does with one. Then the logs are compared entry by
entry, by hash: the entries they all agree on, the logs that only lag behind (a log that is a prefix of
another is behind, not forked), and the first entry where two logs hold different signed entries: the fork.

Which branch stands is decided by the protocol's own rules, not by a rule of this module: one observer table
is given every frame that every log holds (the entries of each chain and whatever else a log keeps), and
the fork is settled by the entry that observer's chain holds at the forked slot and by the result it reaches.
That is "the observer that has seen everything every log holds". The rules are meant not to depend on the
order in which an observer sees entries, so the logs are read once with each of them first (then the others
in the order given). If the result, or the entry that stands at the fork, depends on that order, or if no
forked entry stands and no violation settles it, the fork is one the rules cannot settle.
"""

from __future__ import annotations

import enum
import itertools
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from p2pspades import crypto, log
from p2pspades.audit.files import verify_log
from p2pspades.audit.reader import judge_end, not_ending
from p2pspades.audit.record import hand_record
from p2pspades.audit.verdict import Status, Verdict, violation_data
from p2pspades.describe.findings import said
from p2pspades.errors import LocalError, RemoteError
from p2pspades.exits import ExitCode
from p2pspades.reasons import Reason, Settled
from p2pspades.rules import VIOLATION_KINDS as AUDIT_KINDS
from p2pspades.table import Accepted, Dropped, Event, Rejected, Table, Violation

__all__ = [
    "FORMAT",
    "Branch",
    "Dispute",
    "Entry",
    "Fork",
    "LogCase",
    "Reading",
    "Ruling",
    "dispute_record",
    "settle",
]

FORMAT = "p2pspades-dispute/1"


@dataclass(frozen=True)
class Entry:
    """A signed entry one or more logs hold at a slot of the chain."""

    seq: int
    seat: int
    type: str
    hash: bytes
    raw: bytes

    @classmethod
    def of(cls, raw: bytes) -> Entry | None:
        """The entry `raw`, or None if its envelope or header cannot be read."""
        try:
            header = log.validate_header(log.open_envelope(raw).payload)
        except RemoteError:
            return None
        return cls(header.seq, header.seat, header.type, log.entry_hash(raw), raw)


@dataclass
class LogCase:
    """One log of the dispute: its file, its own verdict, every frame it holds, and its chain."""

    path: str
    verdict: Verdict
    frames: list[bytes] = field(default_factory=list)
    #: the entries its own replay holds, slot by slot, and last the signed entry that stopped it, if any
    chain: list[bytes] = field(default_factory=list)

    @property
    def readable(self) -> bool:
        """Whether the file is a log whose genesis could be read (else it takes no part in the comparison)."""
        return self.verdict.table is not None


@dataclass(frozen=True)
class Branch:
    """The logs (indexes in `Dispute.logs`) that hold `entry` at the forked slot."""

    entry: Entry
    logs: tuple[int, ...]


@dataclass(frozen=True)
class Fork:
    """The first slot at which two logs hold different entries, and each entry held there."""

    seq: int
    branches: tuple[Branch, ...]


@dataclass
class Reading:
    """The observer that read every log, log `first` first: its verdict, the hash of the entry its chain holds
    at the forked slot (None if none), and why it refused each forked entry it did not take when it came."""

    first: int
    verdict: Verdict
    at_fork: bytes | None = None
    refused: dict[bytes, Reason] = field(default_factory=dict)


class Ruling(enum.Enum):
    NO_FORK = "no fork"
    """Every log is a prefix of the longest: nothing to settle, the observer's result stands."""
    BRANCH = "branch"
    """One branch stands, whichever log the observer reads first."""
    NEITHER = "neither"
    """The fork itself is a violation (two entries one seat signed for one slot, say): it names the seat."""
    UNSETTLED = "unsettled"
    """A fork the rules cannot settle: the outcome depends on the order, or no entry stands at the fork."""


@dataclass
class Dispute:
    logs: list[LogCase]
    #: whether the readable logs are of one game (the same genesis entry)
    one_game: bool
    #: why not one game, or why nothing could be compared (a `Settled` code)
    problem: Reason | None = None
    #: the entries every log that holds them agrees on (entries 0 to agreed - 1)
    agreed: int = 0
    fork: Fork | None = None
    readings: list[Reading] = field(default_factory=list)
    ruling: Ruling = Ruling.UNSETTLED
    upheld: Branch | None = None
    #: why the ruling (a `Settled` code)
    why: Reason | None = None

    @property
    def verdict(self) -> Verdict | None:
        """The outcome the protocol upholds: the observer's verdict, reading the logs in the order given."""
        return self.readings[0].verdict if self.readings and self.ruling is not Ruling.UNSETTLED else None

    @property
    def longest(self) -> int:
        """The log with the longest chain (the first of them)."""
        return max(range(len(self.logs)), key=lambda i: len(self.logs[i].chain))

    @property
    def behind(self) -> list[int]:
        """The logs that stop before the fork (or before the longest log's end, if there is none)."""
        end = self.agreed if self.fork is None else self.fork.seq + 1
        return [i for i, case in enumerate(self.logs) if case.readable and len(case.chain) < end]

    @property
    def exit_code(self) -> int:
        """2 not one game or a file that is no readable log; 4 a fork the rules cannot settle; else the code
        `verify` gives the upheld outcome (0 valid and complete, 1 violation, 3 incomplete or abandoned)."""
        if not self.one_game or not all(case.readable for case in self.logs):
            return ExitCode.FAILED
        verdict = self.verdict
        return ExitCode.UNSETTLED if verdict is None else verdict.exit_code


def settle(
    paths: Sequence[str | os.PathLike[str]], verify: Callable[[str], Verdict] = verify_log
) -> Dispute:
    """Settle a dispute from the logs at `paths`, each verified alone by `verify` first. Never raises for a
    bad file: a file that is no log takes no part, and the dispute says so."""
    cases = [_case(os.fspath(p), verify) for p in paths]
    readable = [i for i, case in enumerate(cases) if case.readable]
    if not readable:
        return Dispute(cases, False, Reason.of(Settled.NO_LOG))
    geneses = {cases[i].chain[0] for i in readable}
    if len(geneses) > 1:
        return Dispute(cases, False, _not_one_game(cases, readable))
    agreed, fork = _align(cases, readable)
    agreement = _agreement(cases, readable, agreed, fork)
    readings = [_read(agreement, cases, readable, first) for first in readable]
    dispute = Dispute(cases, True, agreed=agreed, fork=fork, readings=readings)
    dispute.ruling, dispute.upheld, dispute.why = _rule(dispute)
    return dispute


def _case(path: str, verify: Callable[[str], Verdict]) -> LogCase:
    verdict = verify(path)
    case = LogCase(path, verdict)
    if verdict.table is None:
        return case
    try:
        case.frames = log.read_log(path).frames
    except (OSError, LocalError):  # changed since it was verified: its chain still counts
        case.frames = list(verdict.table.entries)
    case.chain = list(verdict.table.entries)
    stopped = _stopped_on(case)
    if stopped is not None:
        case.chain.append(stopped)
    return case


def _stopped_on(case: LogCase) -> bytes | None:
    """The signed entry its own replay stopped on, if that is the log's entry for the next slot of its
    chain: chained to its last entry and validly signed by the seat it names (out of turn, or a violation)."""
    table, index = case.verdict.table, case.verdict.entries
    if case.verdict.status is not Status.VIOLATION or table is None or not 0 < index < len(case.frames):
        return None
    raw = case.frames[index]
    try:
        env = log.open_envelope(raw)
        header = log.validate_header(env.payload)
    except RemoteError:
        return None
    chained = header.seq == len(case.chain) and header.prev == log.entry_hash(case.chain[-1])
    if not chained or not 0 <= header.seat < len(table.public_keys):
        return None
    key = table.public_keys[header.seat]
    return raw if crypto.verify_signature(key, env.signature, env.payload_raw) else None


def _not_one_game(cases: list[LogCase], readable: list[int]) -> Reason:
    first = cases[readable[0]]
    assert first.verdict.table is not None
    for i in readable[1:]:
        other = cases[i]
        assert other.verdict.table is not None
        if other.chain[0] == first.chain[0]:
            continue
        ids = first.verdict.table.game_id, other.verdict.table.game_id
        named = {"first": cases[readable[0]].path, "other": other.path, "game": ids[0].hex()}
        if ids[0] == ids[1]:
            return Reason.of(Settled.SAME_ID, **named)
        return Reason.of(Settled.OTHER_GAMES, **named, other_game=ids[1].hex())
    raise AssertionError("every genesis is the same")  # pragma: no cover


def _align(cases: list[LogCase], readable: list[int]) -> tuple[int, Fork | None]:
    """How many entries the logs agree on, and the first slot where two logs hold different ones."""
    longest = max(len(cases[i].chain) for i in readable)
    for slot in range(longest):
        held: dict[bytes, list[int]] = {}
        for i in readable:
            if slot < len(cases[i].chain):
                held.setdefault(cases[i].chain[slot], []).append(i)
        if len(held) > 1:
            branches = []
            for raw, logs in held.items():
                entry = Entry.of(raw)
                assert entry is not None  # every entry of a chain was read by its own replay
                branches.append(Branch(entry, tuple(logs)))
            return slot, Fork(slot, tuple(branches))
    return longest, None


@dataclass(frozen=True)
class _Agreement:
    """What every reading starts from: the entries the logs agree on, checked once already by a log's own
    replay, with the violations a penalty settled in them; and the forked entries, raw to hash."""

    entries: list[bytes]
    penalised: list[Violation]
    forked: dict[bytes, bytes]
    fork: Fork | None


def _agreement(cases: list[LogCase], readable: list[int], agreed: int, fork: Fork | None) -> _Agreement:
    longest = max((cases[i].verdict for i in readable), key=lambda v: len(v.table.entries) if v.table else 0)
    assert longest.table is not None
    entries = longest.table.entries[:agreed]
    penalised = [v for v in longest.penalised if v.seq < len(entries)]
    forked = {b.entry.raw: b.entry.hash for b in fork.branches} if fork is not None else {}
    return _Agreement(entries, penalised, forked, fork)


def _read(agreement: _Agreement, cases: list[LogCase], readable: list[int], first: int) -> Reading:
    """One observer given every frame of every log: round by round (the first frame of each log, then the
    second of each, and so on), log `first` first in each round and then the others in the order given; then
    once more every frame of every log in that order, for a frame that came too early the first time.

    Rounds put the entries that compete for one slot before the observer together, as a peer that takes the
    players' entries as they were written, so its state at the fork does not depend on which log is longer.
    Every frame is fed, not only the chain entries: whatever a log keeps beside its chain (votes, refusals)
    is evidence the rules may need. The entries every log agrees on are restored first, without checking
    their proofs again."""
    start = readable.index(first)
    order = [cases[i].frames for i in readable[start:] + readable[:start]]
    rounds = (frames[n] for n in range(1, max(map(len, order))) for frames in order if n < len(frames))
    again = (raw for frames in order for raw in frames[1:])
    forked, fork = agreement.forked, agreement.fork
    try:
        table = Table(agreement.entries[0], entries=agreement.entries, checked=True)
        restored, penalised = len(agreement.entries), list(agreement.penalised)
    except LocalError:  # pragma: no cover - every one of them applied in a log's own replay
        table, restored, penalised = Table(agreement.entries[0]), 0, []
    refused: dict[bytes, Reason] = {}
    for raw in itertools.chain(rounds, again):
        events = table.receive(raw)
        found = not_ending(events, raw)  # (an audit's penalty in the entries agreed on is counted already)
        penalised += [v for v in found if v.check not in AUDIT_KINDS or v.seq >= restored]
        taken = any(isinstance(ev, Accepted) and ev.raw == raw for ev in events)
        if raw in forked and forked[raw] not in refused and not taken:
            refused[forked[raw]] = _refusal(events)
    at_fork = None
    if fork is not None and fork.seq < len(table.entries):
        at_fork = log.entry_hash(table.entries[fork.seq])
    return Reading(first, judge_end(table, penalised), at_fork, refused)


def _refusal(events: Iterable[Event]) -> Reason:
    """Why the observer did not take an entry, from the events it reported for it."""
    for ev in events:
        if isinstance(ev, Violation):
            return Reason.of(Settled.VIOLATION, **violation_data(ev))
        if isinstance(ev, Rejected):
            return Reason.of(Settled.REJECTED, check=ev.check, detail=ev.detail, seat=ev.seat)
        if isinstance(ev, Dropped):
            return Reason.of(Settled.DROPPED, drop=ev)
    return Reason.of(Settled.NOT_TAKEN)


def _outcome(verdict: Verdict) -> tuple[object, ...]:
    """What must not depend on the order the logs are read in: the status and the result."""
    table = verdict.table
    result = table.result if table is not None else None
    ended = None if result is None else (result.status, result.winners, result.seat, result.forfeit)
    return verdict.status, ended


def _rule(d: Dispute) -> tuple[Ruling, Branch | None, Reason]:
    readings = d.readings
    if len({_outcome(r.verdict) for r in readings}) > 1:
        orders = tuple((d.logs[r.first].path, r.verdict.finding) for r in readings)
        return Ruling.UNSETTLED, None, Reason.of(Settled.ORDER, orders=orders)
    if d.fork is None:
        return Ruling.NO_FORK, None, Reason.of(Settled.ONLY_LOG if len(readings) == 1 else Settled.PREFIX)
    fork = d.fork
    held = {r.at_fork for r in readings}
    upheld = next((b for b in fork.branches if held == {b.entry.hash}), None)
    verdict = readings[0].verdict
    if upheld is not None:
        by_first = {r.first: r for r in readings}
        refused = tuple(
            (tuple(d.logs[i].path for i in b.logs), by_first[b.logs[0]].refused.get(b.entry.hash))
            for b in fork.branches
            if b is not upheld
        )
        return Ruling.BRANCH, upheld, Reason.of(Settled.TAKEN, seq=fork.seq, refused=refused)
    if verdict.status is Status.VIOLATION and verdict.violation is not None:
        return Ruling.NEITHER, None, Reason.of(Settled.HALTS, **violation_data(verdict.violation))
    why = Settled.EITHER if len(held) > 1 else Settled.NONE_STANDS
    return Ruling.UNSETTLED, None, Reason.of(why, seq=fork.seq)


def dispute_record(d: Dispute) -> dict[str, Any]:
    """The same facts as `dispute_lines`, for tools (the fields are documented in docs/auditing.md)."""
    out: dict[str, Any] = {"format": FORMAT, "logs": [_log_record(case) for case in d.logs]}
    out["one_game"] = d.one_game
    if not d.one_game:
        out["problem"] = "" if d.problem is None else said(d.problem)
        out["exit"] = d.exit_code
        return out
    table = d.readings[0].verdict.table
    assert table is not None
    names = [case.path for case in d.logs]
    out["game_id"] = table.game_id.hex()
    out["agree_to"] = d.agreed - 1
    out["behind"] = [{"file": names[i], "last": len(d.logs[i].chain) - 1} for i in d.behind]
    out["fork"] = None if d.fork is None else {
        "entry": d.fork.seq,
        "branches": [
            {
                "logs": [names[i] for i in b.logs],
                "seq": b.entry.seq,
                "seat": b.entry.seat,
                "type": b.entry.type,
                "hash": b.entry.hash.hex(),
                "entry": b.entry.raw.hex(),
            }
            for b in d.fork.branches
        ],
    }
    out["upheld"] = {
        "ruling": d.ruling.value,
        "logs": _upheld_logs(d, names),
        "hash": None if d.upheld is None else d.upheld.entry.hash.hex(),
        "why": "" if d.why is None else said(d.why),
    }
    upheld = d.verdict
    out["result"] = None if upheld is None else hand_record(upheld)["result"]
    out["exit"] = d.exit_code
    return out


def _upheld_logs(d: Dispute, names: list[str]) -> list[str]:
    if d.ruling is Ruling.NO_FORK:
        return [names[d.longest]]
    return [] if d.upheld is None else [names[i] for i in d.upheld.logs]


def _log_record(case: LogCase) -> dict[str, Any]:
    result = hand_record(case.verdict)["result"]
    return {
        "file": case.path,
        "status": result["status"],
        "detail": case.verdict.summary,
        "exit": case.verdict.exit_code,
        "entries": len(case.chain),
        "head": log.entry_hash(case.chain[-1]).hex() if case.chain else None,
    }
