"""Abandonment claims on one table (PROTOCOL.md §5): the table's narrow view for the claims machine
(`claims.py`, which knows nothing of the table), and the one place that carries out what it says.

The machine is told of notes, of the awaited entry, of our timers; it answers with outputs (`claims.Output`):
a note to keep and pass on, one of ours to send, an entry to take or to hold back, an ending, a fault. `apply`
is where they change the table: its records, its chain (cut back for an ending at an earlier slot), its
result (only ever to a stronger one, `endings.py`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from p2pspades import crypto, log
from p2pspades.table import messages as msg
from p2pspades.table.claims import (
    Awaited,
    End,
    Halt,
    Held,
    Note,
    Output,
    Reopen,
    Report,
    Role,
    Send,
    Slot,
    Standing,
    Take,
    ending_entry,
    outcome,
)
from p2pspades.table.endings import stronger
from p2pspades.table.events import (
    Accepted,
    Dropped,
    GameEnded,
    Noted,
    Outgoing,
    Rejected,
    Superseded,
    TableStatus,
    Violation,
)
from p2pspades.table.stages import ANY_SEAT, Stage, Step

if TYPE_CHECKING:
    from p2pspades.table.machine import Table


class TableView:
    """What the claims machine sees of table `t`: its seats, its slots, its signer, and how an entry fares
    there. Read only."""

    def __init__(self, t: Table) -> None:
        self._t = t

    @property
    def seats(self) -> int:
        return self._t.seats

    @property
    def seat(self) -> int | None:
        return self._t.seat

    @property
    def next_seq(self) -> int:
        return self._t.chain.next_seq

    @property
    def restoring(self) -> bool:
        return self._t.restoring

    def now(self) -> Awaited | None:
        t = self._t
        if t.finished:
            return None
        step = t.claimed_step()
        return None if step is None else self._awaited(t.chain.next_seq, t.head, step, t.hand_number)

    def passed(self, seq: int, prev: bytes) -> Awaited | None:
        t, chain = self._t, self._t.chain
        if not 0 < seq <= chain.next_seq or log.entry_hash(chain.entries[seq - 1]) != prev:
            return None
        if seq == chain.next_seq:  # the slot a fault ended the game at
            step = t.ended_step
            return None if step is None else self._awaited(seq, prev, step, t.hand_number)
        step = chain.steps[seq]
        if step is None:
            return None
        hand = log.validate_header(log.open_envelope(chain.entries[seq]).payload).hand
        if step.seat == ANY_SEAT:
            step = t.lead_step(hand)
        return self._awaited(seq, prev, step, hand)

    def _awaited(self, seq: int, prev: bytes, step: Step, hand: int) -> Awaited:
        t = self._t
        lead = step.types[0] is msg.Challenge  # rule "low_club": the first lead, or its challenge
        return Awaited(seq, prev, step.seat, hand, step.types[0].TYPE, round(t.wait_limit(step)), lead)

    def signed_after(self, seat: int, seq: int) -> bool:
        chain = self._t.chain  # (an ending's seat is the one it names, not a signer)
        return any(s == seat and _type(chain.entries[n]) not in msg.ENDINGS
                   for n, s in enumerate(chain.signers[seq + 1:], start=seq + 1))

    def entry_at(self, seq: int) -> bytes | None:
        entries = self._t.chain.entries
        return entries[seq] if seq < len(entries) else None

    def signed(self, env: log.Envelope, header: log.Header) -> bool:
        keys = self._t.public_keys
        return 0 <= header.seat < len(keys) and crypto.verify_signature(keys[header.seat], env.signature,
                                                                         env.payload_raw)

    def answer_problem(self, raw: bytes, at: Awaited) -> Violation | str | None:
        return self._t.answer_problem(raw, at.seq)

    def seal(self, m: msg.Message, at: Awaited) -> bytes:
        return self._t.seal(m, at.seq, at.prev, at.hand)


def apply(t: Table, outputs: Iterable[Output], now: float) -> bool:
    """Carry out what the claims machine said, in order. Whether the frame that caused it was taken: noted
    (even if its signer is named for it), or refused neither by a fault nor by a report."""
    outputs = list(outputs)
    noted = refused = False
    for out in outputs:
        if isinstance(out, Note | Send | Report):
            took, refusal = carry_out(t, out)
            noted, refused = noted or took, refused or refusal
        elif isinstance(out, Held):
            t.report(Noted(out.slot, out.raw, out.seat, _type(out.raw)))
        elif isinstance(out, Take):
            t.take(out.raw, now)
        elif isinstance(out, End):
            _end(t, out, now)
        elif isinstance(out, Reopen):
            _reopen(t, out, now)
        else:
            assert isinstance(out, Halt)
            t.halt(out.violation, out.at)
            refused = True
    return noted or not refused


def carry_out(t: Table, out: Note | Send | Report) -> tuple[bool, bool]:
    """What the machines of notes (the claims', the partings') all say: a note to keep in the records and pass
    on, one of ours to send, an event to report. Whether a note was taken, and whether the frame was
    refused."""
    if isinstance(out, Note):
        t.chain.note(out.raw)
        t.report(Noted(out.slot, out.raw, out.seat, out.type, out.own))
        return True, False
    if isinstance(out, Send):
        t.post(Outgoing(out.slot, out.raw))
        return False, False
    t.report(out.event)
    return False, isinstance(out.event, Dropped | Rejected)


def _type(raw: bytes) -> str:
    return str(log.validate_header(log.open_envelope(raw).payload).type)


def _end(t: Table, out: End, now: float) -> None:
    """The slot's notes end the game there: its certificate (or stalled ending) takes the slot on our chain,
    whatever we held from there on (the accused's own answer, on its table) is cut back, and the game is
    over, unless a stronger ending holds already."""
    slot = out.slot
    stalled = out.standing is Standing.STALLED
    if provisional(slot, stalled) and (t.seat == slot.accused or _answered(t, slot)):
        if slot.held:  # we voted and hold the awaited entry: it voids the ending, so we take it after all
            reopen(t, slot, min(slot.held.values()), now)
        return  # the awaited entry is there (or, ours, about to be): a provisional ending is void by it
    missing = out.missing if stalled else ()
    probe = GameEnded(TableStatus.ABANDONED, (), slot.accused, at=slot.seq, missing=missing)
    if not stronger(probe, t.result):
        return
    raw = ending_entry(t.game_id, slot, out.standing, out.missing)
    superseded: tuple[bytes, ...] = ()
    if slot.seq < t.chain.next_seq or t.finished:
        superseded = tuple(t.chain.entries[slot.seq:])
        t.cut_back(slot.seq)
        if superseded:
            t.report(Superseded(slot.seq, superseded))
    t.superseded = superseded
    kind = msg.Stalled.TYPE if stalled else msg.Certificate.TYPE
    t.chain.append(raw, log.entry_hash(raw), slot.accused, t.claimed_step())
    t.last_progress = now
    t.report(Accepted(slot.seq, raw, slot.accused, kind, False))
    t.certified, t.abandoned_by = slot, slot.accused
    scored = t.game is not None and t.game.outcome is not None  # an `end` slot: the result was decided
    t.enter(Stage.OVER)
    signers = slot.voters if not stalled else tuple(s for s in slot.voters if s not in out.missing)
    waits = tuple(slot.waits[v] for v in signers)
    common = {"seat": slot.accused, "signers": signers, "waits": waits, "at": slot.seq}
    if scored:
        assert t.game is not None and t.game.outcome is not None
        ended = GameEnded(TableStatus.ABANDONED, tuple(t.game.outcome.winners), scored=True,
                          missing=probe.missing, **common)  # type: ignore[arg-type]
    elif stalled:
        ended = GameEnded(TableStatus.ABANDONED, (), contested=True, missing=out.missing,
                          **common)  # type: ignore[arg-type]
    else:
        result = outcome(t.rules, slot.accused, signers, t.totals())
        ended = GameEnded(TableStatus.ABANDONED, result.winners, forfeit=result.forfeit,
                          contested=result.contested, **common)  # type: ignore[arg-type]
    t.finish(ended)


def provisional(slot: Slot, stalled: bool) -> bool:
    """Whether an ending of `slot` holds only until its awaited entry turns up: a stalled ending (the seats
    it names as silent may not be), or any ending of the first lead of rule "low_club" (nobody knows whose
    silence it is: the challenge, or the lead, answers it whenever it comes, and withholding it gains
    nothing, since the reveal names the holder)."""
    return stalled or slot.at.anyone


def _answered(t: Table, slot: Slot) -> bool:
    """Whether we hold an entry for `slot`: on our chain (its writer's, not an ending), or held back."""
    if slot.held:
        return True
    entry = t.chain.entries[slot.seq] if slot.seq < t.chain.next_seq else None
    return entry is not None and _type(entry) not in msg.ENDINGS


def end_again(t: Table, slot: Slot, standing: Standing, missing: tuple[int, ...], now: float) -> None:
    """The claim on `slot` ends the game once more: a stronger ending there was taken back (a goodbye whose
    signer signed on, PROTOCOL.md §5.10)."""
    _end(t, End(slot, standing, missing), now)


def _reopen(t: Table, out: Reopen, now: float) -> None:
    reopen(t, out.slot, out.raw, now)


def reopen(t: Table, slot: Slot, raw: bytes, now: float) -> None:
    """A provisional ending (`provisional`) is void: the awaited entry `raw` turned up (it came itself, or a
    refusal carried it). Such an ending says only that the seats still playing waited in vain, so the entry
    takes the slot, every seat takes it (a voter too), and the game goes on; a seat that never voted refuses
    the votes as usual."""
    result = t.result
    if result is not None and result.at == slot.seq and t.certified is slot:
        superseded = tuple(t.chain.entries[slot.seq:])
        t.cut_back(slot.seq)
        t.report(Superseded(slot.seq, superseded))
        slot.ended = None
    if slot.role in (Role.VOTED, Role.STALLED):
        slot.role = Role.RELEASED
    t.take(raw, now)
    t.parted_again(slot.seq, now)  # a goodbye for the slot, weaker than the void ending, ends it now
