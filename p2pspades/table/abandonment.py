"""Abandonment claims on one table (PROTOCOL.md §5): the votes and refusals off the chain, the entries held
back from a slot we voted on, and the certificate that ends the game. What a claim does on each signal is the
data of `claims.TRANSITIONS`; this is the machine that feeds it frames and carries out its acts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pspades import log
from p2pspades.checks import Check
from p2pspades.errors import RemoteError
from p2pspades.table import messages as msg
from p2pspades.table.chain import WINDOW, Frame
from p2pspades.table.claims import Act, ClaimState, Signal, Slot, outcome
from p2pspades.table.events import (
    Accepted,
    DropKind,
    Dropped,
    GameEnded,
    Noted,
    Outgoing,
    Rejected,
    Superseded,
    TableStatus,
    Violation,
    Wanted,
)
from p2pspades.table.stages import ANY_SEAT, Stage, Step

if TYPE_CHECKING:
    from p2pspades.table.machine import Table


class Claims:
    """The claims of table `t`, by slot (sequence number), and the votes that came before their slot."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.slots: dict[int, Slot] = {}
        self.early: dict[int, list[bytes]] = {}

    # ----------------------------------------------------------------- the slots
    def now(self, step: Step) -> Slot:
        """The claim on the slot the table waits for now (a new one if nobody voted on it yet)."""
        t = self.t
        seq = t.chain.next_seq
        slot = self.slots.get(seq)
        if slot is None or slot.prev != t.head:
            wait = round(t.makers.limit(t, step))
            slot = Slot(seq, t.head, step.seat, t.hand_number, wait, step.types[0].TYPE)
            self.slots[seq] = slot
            for old in [k for k in self.slots if k < seq - WINDOW]:
                del self.slots[old]
        return slot

    def past(self, seq: int, prev: bytes) -> Slot | None:
        """The claim on slot `seq` that our chain has passed already: its entry is on our chain, made by the
        seat awaited there. None if that slot is not on our chain after `prev`, or holds a certificate."""
        t, chain = self.t, self.t.chain
        if not 0 < seq < chain.next_seq or log.entry_hash(chain.entries[seq - 1]) != prev:
            return None
        if t.certified is not None and t.certified.seq == seq:
            return None
        step = chain.steps[seq]
        if step is None or step.seat != chain.signers[seq]:
            return None
        slot = self.slots.get(seq)
        if slot is None or slot.prev != prev:
            hand = log.validate_header(log.open_envelope(chain.entries[seq]).payload).hand
            wait, awaited = round(t.makers.limit(t, step)), step.types[0].TYPE
            slot = Slot(seq, prev, step.seat, hand, wait, awaited, ClaimState.ANSWERED)
            self.slots[seq] = slot
        return slot

    def awaiting(self, header: log.Header) -> Slot | None:
        """The claim that an entry of the accused for its slot answers, if there is one."""
        slot = self.slots.get(header.seq)
        if slot is None or slot.prev != header.prev or header.seat != slot.accused:
            return None
        return slot

    @property
    def open(self) -> Slot | None:
        """The claim on the slot the table waits for, if any seat has voted on it."""
        slot = self.slots.get(self.t.chain.next_seq)
        return slot if slot is not None and slot.prev == self.t.head and slot.votes else None

    # ----------------------------------------------------------------- the frames
    def receive_note(self, frame: Frame, now: float) -> bool:
        """A vote or a refusal, signed by its seat, off the chain: check it against its slot and take it."""
        t, header = self.t, frame.header
        seat, seq = header.seat, header.seq
        # a game that ended complete may still end by certificate: the last `end` was ours, made in time for
        # nobody else (a certificate beats any entry of the accused for its slot, §5.3)
        if t.finished and not (t.status is TableStatus.COMPLETE and seq < t.chain.next_seq):
            t.report(Dropped(DropKind.GAME_OVER, seat, seq))
            return False
        if seq > t.chain.next_seq:  # a slot we have not reached yet: kept until we do
            return self._keep_early(frame)
        slot = self._slot_of(header)
        if slot is None:
            t.report(Dropped(DropKind.STALE, seat, seq))
            return False
        try:
            m = self._read_note(frame, slot)
        except RemoteError as exc:
            t.report(Rejected(seat, exc.check, exc.detail, frame.raw))
            return False
        if isinstance(m, msg.Abandon):
            return self.take_vote(slot, seat, frame.raw, m.wait, now)
        return self._take_refusal(slot, seat, frame.raw, m.entry, now)

    def _keep_early(self, frame: Frame) -> bool:
        t, seq = self.t, frame.header.seq
        early = self.early.setdefault(seq, [])
        if seq - t.chain.next_seq <= WINDOW and sum(map(len, self.early.values())) < WINDOW:
            early.append(frame.raw)
            t.report(Wanted(t.chain.next_seq))
            return True
        t.report(Dropped(DropKind.TOO_FAR_AHEAD, frame.header.seat, seq))
        return False

    def take_early(self) -> list[bytes]:
        """The votes and refusals that came before the slot the chain has now reached."""
        return self.early.pop(self.t.chain.next_seq, [])

    def _slot_of(self, header: log.Header) -> Slot | None:
        t = self.t
        step = t.expected()
        if header.seq == t.chain.next_seq and header.prev == t.head and step is not None:
            return self.now(step) if step.seat != ANY_SEAT else None
        return self.past(header.seq, header.prev)

    def _read_note(self, frame: Frame, slot: Slot) -> msg.Abandon | msg.Answered:
        header, seat = frame.header, frame.header.seat
        m = msg.decode(frame.env.payload, seat, self.t.version)
        assert isinstance(m, msg.Abandon | msg.Answered)
        if m.seat != slot.accused or seat == slot.accused:
            why = f"names seat {m.seat}, but slot {header.seq} waits for seat {slot.accused}"
            raise RemoteError(Check.ABANDON, why, seat)
        if header.hand != slot.hand:
            why = f"hand number {header.hand}, slot {header.seq} is in hand {slot.hand}"
            raise RemoteError(Check.HEADER, why, seat)
        return m

    def _twice(self, slot: Slot, seat: int, raw: bytes) -> bool:
        """Whether `seat` already signed another vote or refusal for `slot`: equivocation, which halts."""
        signed = [v for s, v in slot.votes.items() if s == seat]
        signed += [r for s, (r, _) in slot.refusals.items() if s == seat]
        other = next((r for r in signed if r != raw), None)
        if other is None:
            return False
        detail = f"seat {seat} signed a vote and a refusal (or two of either) for slot {slot.seq}"
        self.t.halt(Violation(seat, Check.EQUIVOCATION, detail, slot.seq, (other, raw)))
        return True

    def _note(self, slot: Slot, seat: int, raw: bytes, kind: str, own: bool) -> None:
        self.t.chain.note(raw)
        self.t.report(Noted(slot.seq, raw, seat, kind, own))

    def take_vote(self, slot: Slot, seat: int, raw: bytes, wait: int, now: float, own: bool = False) -> bool:
        t = self.t
        if self._twice(slot, seat, raw):
            return False
        slot.votes[seat] = raw
        slot.waits[seat] = wait
        self._note(slot, seat, raw, msg.Abandon.TYPE, own)
        # our own vote, restored from our log on resume, locks us out of the answer as it did before
        if slot.fire(Signal.OWN_VOTE if seat == t.seat else Signal.VOTE) is Act.REFUSE:
            self.refuse(slot, log.entry_hash(t.chain.entries[slot.seq]))
        if slot.complete(t.seats) and slot.fire(Signal.COMPLETE) is Act.CERTIFY:
            self._certify(slot, now)
        return True

    def _take_refusal(self, slot: Slot, seat: int, raw: bytes, taken: bytes, now: float) -> bool:
        if self._twice(slot, seat, raw):
            return False
        slot.refusals[seat] = (raw, taken)
        self._note(slot, seat, raw, msg.Answered.TYPE, own=False)
        if slot.fire(Signal.REFUSAL) is Act.RELEASE:
            held = slot.held.pop(taken, None)
            if held is not None:
                self.t.chain.known.discard(held)
                self.t.take(held, now)
        return True

    def hold(self, slot: Slot, digest: bytes, raw: bytes) -> bool:
        """We voted on this slot: keep the accused's entry off the chain; a refusal may release it."""
        t = self.t
        other = next((r for h, r in slot.held.items() if h != digest), None)
        if other is not None:
            detail = f"two different entries signed by seat {slot.accused} for sequence number {slot.seq}"
            t.halt(Violation(slot.accused, Check.EQUIVOCATION, detail, slot.seq, (other, raw)))
            return False
        trial = t.trial(raw)
        if trial is not None:  # it breaks the rules: a violation by its signer, whatever the claim says
            t.halt(trial)
            return False
        slot.held[digest] = raw
        t.chain.known.add(raw)
        return True

    def vote(self, slot: Slot) -> None:
        """Our own timer for the slot ran out: sign our vote against the seat the table waits for."""
        t = self.t
        assert t.seat is not None
        step = t.expected()
        if step is not None:  # the timeout in force now, with what our player chose to wait longer
            slot.wait = round(t.wait_limit(step))
        raw = t.seal(msg.Abandon(slot.accused, slot.wait), slot.seq, slot.prev, slot.hand)
        t.post(Outgoing(slot.seq, raw))
        self.take_vote(slot, t.seat, raw, slot.wait, t.clock, own=True)

    def refuse(self, slot: Slot, taken: bytes) -> None:
        """We took the accused's entry before any vote of ours, and votes are out: say so, once."""
        t = self.t
        if t.seat is None or t.seat == slot.accused or slot.refused or t.seat in slot.votes:
            return
        if t.restoring:
            return  # our refusal, if we sent one, is in the log after this
        raw = t.seal(msg.Answered(slot.accused, taken), slot.seq, slot.prev, slot.hand)
        slot.refused = True
        slot.refusals[t.seat] = (raw, taken)
        self._note(slot, t.seat, raw, msg.Answered.TYPE, own=True)
        t.post(Outgoing(slot.seq, raw))

    # ----------------------------------------------------------------- the certificate
    def receive_certificate(self, frame: Frame, now: float) -> bool:
        """A certificate from a peer: a bundle of votes. We take each vote; once they make the certificate,
        we put it on the chain (the same bytes: it is canonical). Nobody signs the bundle itself."""
        t, env, header = self.t, frame.env, frame.header
        seat, seq = header.seat, header.seq
        if env.signature != log.NO_SIGNATURE:
            t.report(Dropped(DropKind.BAD_SIGNATURE, seat, seq))
            return False
        try:
            cert = msg.decode(env.payload, None, t.version)
            assert isinstance(cert, msg.Certificate)
        except RemoteError as exc:
            t.report(Dropped(DropKind.MALFORMED, seat, seq, detail=exc.detail))
            return False
        if seq > t.chain.next_seq:
            return t.keep_early(seq, env.raw, seat)
        if not self._take_votes(cert, header, now):
            return False
        if t.certified is not None and t.certified.seq == seq and t.chain.entries[seq] == env.raw:
            return True
        if not t.finished:
            detail = f"a certificate for slot {seq} whose votes do not all hold"
            t.report(Dropped(DropKind.REFUSED, seat, seq, detail=detail))
        return False

    def _take_votes(self, cert: msg.Certificate, header: log.Header, now: float) -> bool:
        t = self.t
        for vote in cert.votes:
            try:
                inner = log.validate_header(log.open_envelope(vote).payload)
            except RemoteError as exc:
                t.report(Dropped(DropKind.MALFORMED, header.seat, header.seq, detail=f"a vote: {exc.detail}"))
                return False
            if (inner.type, inner.seq, inner.prev) != (msg.Abandon.TYPE, header.seq, header.prev):
                t.report(Dropped(DropKind.REFUSED, header.seat, header.seq, detail="a vote of another slot"))
                return False
            t.take(vote, now)
            if t.finished:
                break
        return True

    def _certify(self, slot: Slot, now: float) -> None:
        """Every seat but the accused voted: the certificate goes on the chain at the slot and ends the game.
        Whatever our chain held from that slot on (the accused's own answer, on its table) is cut back."""
        t = self.t
        payload = {
            "g": t.game_id,
            "n": slot.seq,
            "p": slot.prev,
            "s": slot.accused,
            "h": slot.hand,
            **msg.Certificate(tuple(raw for _, raw in sorted(slot.votes.items()))).to_fields(),
        }
        raw = log.seal(payload, log.UNSIGNED)
        if slot.seq < t.chain.next_seq:
            superseded = tuple(t.chain.entries[slot.seq :])
            t.cut_back(slot.seq)
            t.report(Superseded(slot.seq, superseded))
        t.chain.append(raw, log.entry_hash(raw), slot.accused, t.expected())
        t.last_progress = now
        t.report(Accepted(slot.seq, raw, slot.accused, msg.Certificate.TYPE, False))
        t.certified, t.abandoned_by = slot, slot.accused
        t.enter(Stage.OVER)
        result = outcome(t.rules, slot.accused, slot.voters, t.totals())
        waits = tuple(slot.waits[v] for v in slot.voters)
        t.finish(
            GameEnded(
                TableStatus.ABANDONED, result.winners, seat=slot.accused, forfeit=result.forfeit,
                contested=result.contested, signers=slot.voters, waits=waits,
            )
        )
