"""The claims machine (PROTOCOL.md §5): what follows, on one table, from each note of an abandonment claim.

It takes a claim's signed notes (votes, refusals, stalls: `slots.py` says what they are), the awaited
entry as it arrives, our own timers, and judges each slot from its notes alone: a seat that signed
contradicting notes equivocated (a fault); a refusal proves what it carries (a phantom is its signer's
fault); a vote whose signer has an entry after the slot on the chain is void (it took the answer: a game
every seat signed `end` on is sealed so), and when nobody could have released it, its signer is named.

It holds no reference to the table: it sees the chain through the narrow `ClaimView` and returns what should
happen (`slots.Output`), which the table carries out in one place (`machine.Table._carry`).
"""

from __future__ import annotations

from typing import Protocol

from p2pspades import log
from p2pspades.checks import Check
from p2pspades.errors import N_, Detail, RemoteError
from p2pspades.table import messages as msg
from p2pspades.table.events import TWICE, DropKind, Dropped, Rejected, Violation
from p2pspades.table.outputs import Halt, Report
from p2pspades.table.slots import (
    Act,
    Awaited,
    End,
    Held,
    Note,
    Output,
    Reopen,
    Role,
    Send,
    Signal,
    Slot,
    SlotView,
    Standing,
    Take,
    note_fault,
    standing,
)

#: how many notes ahead of our chain one seat may have us keep (an honest seat signs at most a vote or a
#: refusal and a stall or two for a slot; they come early only by a little)
EARLY_PER_SEAT = 16
#: how far behind our chain a quiet slot is kept (one with nothing of ours in it)
KEPT_BEHIND = 256


# ================================================================= what the machine sees
class ClaimView(SlotView, Protocol):
    """What the claims machine sees of its table: the seats, its own, and the chain's slots (`SlotView`), and
    who signed what on the chain."""

    def signed_after(self, seat: int, seq: int) -> bool:
        """Whether our chain holds an entry signed by `seat` after slot `seq`."""

    def entry_at(self, seq: int) -> bytes | None:
        """Our chain's entry at `seq` (None beyond it)."""

    def signed(self, env: log.Envelope, header: log.Header) -> bool:
        """Whether `env` is validly signed by the seat its header names."""

    def answer_problem(self, raw: bytes, at: Awaited) -> Violation | str | None:
        """What `raw`, an entry validly signed for slot `at`, is there, checked exactly as every peer checks
        an entry at that slot: None if it holds; the violation it earns its signer; or (a string) why it is
        not an entry the slot could take at all (out of turn, say)."""



# ================================================================= the machine
class Claims:
    """The claims of one table: every claimed slot it knows, and the notes that came before their slot."""

    def __init__(self, seats: int, seat: int | None, version: int) -> None:
        self.seats, self.seat, self.version = seats, seat, version
        self.slots: dict[tuple[int, bytes], Slot] = {}
        self.early: dict[int, list[tuple[int, bytes]]] = {}  # slot -> [(signer, raw)]

    # ----------------------------------------------------------------- the slots
    def slot(self, at: Awaited, passed: bool = False) -> Slot:
        """The claim on slot `at` (a new one if nobody voted on it yet: on a slot our chain `passed`, we took
        its entry before any vote of ours)."""
        key = (at.seq, at.prev)
        slot = self.slots.get(key)
        if slot is None:
            slot = self.slots[key] = Slot(at, Role.ANSWERED if passed else Role.QUIET)
        return slot

    def current(self, view: ClaimView) -> Slot | None:
        """The claim on the slot the table waits for, if one was made or noted."""
        at = view.now()
        return None if at is None else self.on(at)

    def on(self, at: Awaited) -> Slot | None:
        """The claim on slot `at`, if one was made or noted."""
        return self.slots.get((at.seq, at.prev))

    def forget_behind(self, next_seq: int) -> None:
        """Forget the slots far behind the chain that hold nothing of ours and ended nothing."""
        for key in [k for k, s in self.slots.items() if k[0] < next_seq - KEPT_BEHIND and s.ended is None
                    and s.role in (Role.QUIET, Role.OPEN) and not s.votes]:
            del self.slots[key]

    def _slot_of(self, view: ClaimView, seq: int, prev: bytes) -> Slot | None:
        now = view.now()
        if now is not None and (now.seq, now.prev) == (seq, prev):
            return self.slot(now)
        at = view.passed(seq, prev)
        if at is None:
            return None
        entry = view.entry_at(seq)  # an ending took the slot (a goodbye, say): we took no answer there
        return self.slot(at, passed=entry is not None and _type(entry) not in msg.ENDINGS)

    # ----------------------------------------------------------------- a note from a peer (or our log)
    def note(self, view: ClaimView, env: log.Envelope, header: log.Header) -> list[Output]:
        """A vote, refusal or stall, its signature checked: take it against its slot, or keep it for later."""
        seat, seq = header.seat, header.seq
        if seq > view.next_seq:
            return self.keep_early(view, seat, seq, env.raw)
        slot = self._slot_of(view, seq, header.prev)
        if slot is None:
            return [Report(Dropped(DropKind.STALE, seat, seq, signed=True))]
        try:
            m = self._read(env, header, slot)
        except RemoteError as exc:
            return [Report(Rejected(seat, exc.check, exc.detail, env.raw))]
        if isinstance(m, msg.Abandon):
            return self._vote(view, slot, seat, env.raw, m.wait)
        if isinstance(m, msg.Stall):
            return self._stall(view, slot, seat, env.raw, m.missing)
        assert isinstance(m, msg.Answered)
        return self._refusal(view, slot, seat, env.raw, m.entry)

    def keep_early(self, view: ClaimView, seat: int, seq: int, raw: bytes) -> list[Output]:
        """A note for a slot beyond our chain (a claim's, or a goodbye, a stop: `partings.py`): kept until we
        reach it, a few per signer (the flood is its signer's: a seat that sends more is refused, and
        charged)."""
        mine = sum(1 for kept in self.early.values() for s, _ in kept if s == seat)
        if seq - view.next_seq <= KEPT_BEHIND and mine < EARLY_PER_SEAT:
            self.early.setdefault(seq, []).append((seat, raw))
            return []
        return [Report(Dropped(DropKind.TOO_FAR_AHEAD, seat, seq, signed=True))]

    def take_early(self, next_seq: int) -> list[bytes]:
        """The notes that came before the slot the chain has now reached (and those for slots passed)."""
        due = [seq for seq in self.early if seq <= next_seq]
        return [raw for seq in sorted(due) for _, raw in self.early.pop(seq)]

    def _read(self, env: log.Envelope, header: log.Header, slot: Slot) -> msg.Message:
        seat = header.seat
        m = msg.decode(env.payload, seat, self.version)
        assert isinstance(m, msg.Abandon | msg.Answered | msg.Stall)
        if m.seat != slot.accused or seat == slot.accused:
            why = Detail(N_("names seat {named}, but slot {seq} waits for seat {accused}"), named=m.seat,
                         seq=header.seq, accused=slot.accused)
            raise RemoteError(Check.ABANDON, why, seat)
        if header.hand != slot.hand:
            why = Detail(N_("hand number {hand}, but slot {seq} is in hand {slot_hand}"), hand=header.hand,
                         seq=header.seq, slot_hand=slot.hand)
            raise RemoteError(Check.ABANDON, why, seat)
        if isinstance(m, msg.Stall) and (seat in m.missing or slot.accused in m.missing
                                          or m.missing[-1] >= self.seats):
            why = Detail(N_("a stall naming seats {seats}: not the seats whose votes it can lack"),
                         seats=list(m.missing))
            raise RemoteError(Check.ABANDON, why, seat)
        return m

    def _twice(self, slot: Slot, seat: int, raw: bytes, kind: str) -> Halt | None:
        """Whether `seat` signed a note for `slot` that contradicts `raw`: equivocation, a fault at the slot.
        A vote and a refusal, two different votes or refusals, a stall and a refusal contradict; a vote and
        the stalls of its signer do not (a seat may stall again as late votes come)."""
        signed: list[bytes] = []
        if seat in slot.refusals:
            signed.append(slot.refusals[seat][0])
        if kind != msg.Stall.TYPE and seat in slot.votes:
            signed.append(slot.votes[seat])
        if kind == msg.Answered.TYPE:
            signed += slot.stalls.get(seat, {}).values()
        other = next((r for r in signed if r != raw), None)
        if other is None:
            return None
        detail = Detail(N_("seat {seat} signed contradicting notes (a vote, a stall, a refusal) for slot "
                           "{slot}"), seat=seat, slot=slot.seq)
        evidence = tuple(sorted((other, raw)))
        return Halt(Violation(seat, Check.EQUIVOCATION, detail, slot.seq, evidence), slot.seq)

    def _vote(self, view: ClaimView, slot: Slot, seat: int, raw: bytes, wait: int) -> list[Output]:
        fault = self._twice(slot, seat, raw, msg.Abandon.TYPE)
        if fault is not None:
            return [fault]
        slot.votes[seat] = raw
        slot.waits[seat] = wait
        out: list[Output] = [Note(slot.seq, raw, seat, msg.Abandon.TYPE, seat == self.seat)]
        if view.signed_after(seat, slot.seq):
            slot.void.add(seat)  # it took the answer: its vote counts for nothing
            return out + self._name_void(slot)
        # our own, read back from our log, locks us out of the answer as it did
        act = slot.fire(Signal.OUR_VOTE if seat == self.seat else Signal.VOTE)
        if act is Act.REFUSE:
            out += self._refuse(view, slot)
        elif act is Act.STALL:
            out += self._own_stall(view, slot)
        return out + self._name_void(slot) + self.judge(view, slot)

    def _name_void(self, slot: Slot) -> list[Output]:
        """Name each void voter that nobody could have released: every other seat but the accused voted too,
        so a refusal (which only a seat that never voted may sign) cannot exist. Its vote is not a claim but
        its fault; the game's result stands."""
        out: list[Output] = []
        for v in sorted(slot.void - slot.named):
            if all(s in slot.votes for s in range(self.seats) if s not in (slot.accused, v)):
                slot.named.add(v)
                why = Detail(N_("a vote that seat {accused} never answered slot {seq}, but seat {seat} "
                                "signed an entry after it on the chain: it had taken the answer, and no seat "
                                "could release it"), accused=slot.accused, seq=slot.seq, seat=v)
                out.append(Report(Rejected(v, Check.ABANDON, why, slot.votes[v])))
        return out

    def _stall(self, view: ClaimView, slot: Slot, seat: int, raw: bytes,
               missing: tuple[int, ...]) -> list[Output]:
        fault = self._twice(slot, seat, raw, msg.Stall.TYPE)
        if fault is not None:
            return [fault]
        known = slot.stalls.setdefault(seat, {})
        if known.get(missing) == raw:
            return []
        known[missing] = raw
        out: list[Output] = [Note(slot.seq, raw, seat, msg.Stall.TYPE, seat == self.seat)]
        if seat == self.seat:
            slot.fire(Signal.OUR_STALL)  # (its act: keep the note, which `out` does)
        if view.signed_after(seat, slot.seq):
            slot.void.add(seat)
        return out + self.judge(view, slot)

    def _refusal(self, view: ClaimView, slot: Slot, seat: int, raw: bytes, entry: bytes) -> list[Output]:
        # what it carries first: a phantom is a fault by itself, whatever else its signer signed
        fault = self._carried_problem(view, slot, seat, raw, entry) or self._twice(slot, seat, raw,
                                                                                   msg.Answered.TYPE)
        if fault is not None:
            return [fault]
        slot.refusals[seat] = (raw, entry)
        out: list[Output] = [Note(slot.seq, raw, seat, msg.Answered.TYPE, seat == self.seat)]
        if slot.ended is not None and (slot.ended[0] is Standing.STALLED or slot.at.anyone):
            return [*out, Reopen(slot, entry)]  # the answer came: a provisional ending is void
        # a voter is released (RELEASE); whoever took the entry checks it against its own (CHECK), as our own
        # refusal, read back from our log, is checked against the entry we took
        act = Act.CHECK if seat == self.seat else slot.fire(Signal.REFUSAL)
        slot.held.pop(log.entry_hash(entry), None)
        return [*out, Take(entry)] if act in (Act.RELEASE, Act.CHECK) else out

    def _carried_problem(self, view: ClaimView, slot: Slot, seat: int, raw: bytes,
                         entry: bytes) -> Halt | None:
        """What is wrong with the entry a refusal carries: not a signed entry for the slot (a phantom: the
        refuser's fault), or one that breaks the rules (its signer's fault, whoever carries it)."""
        why = _not_an_answer(view, slot, entry)
        bad = view.answer_problem(entry, slot.at) if why is None else why
        if isinstance(bad, Violation):
            return Halt(bad, slot.seq)
        if bad is not None:
            detail = Detail(N_("a refusal of slot {seq} carrying {bad}: no such entry took that slot"),
                            seq=slot.seq, bad=bad)
            return Halt(Violation(seat, Check.ABANDON, detail, slot.seq, (raw,)), slot.seq)
        return None

    # ----------------------------------------------------------------- the awaited entry, our timers
    def arriving(self, view: ClaimView, slot: Slot, raw: bytes) -> list[Output] | None:
        """The awaited entry of `slot` (the slot we wait for) arrives, checked for its turn: None to take it
        as usual, else what we do instead (we voted: hold it, after checking it as it would be checked)."""
        if slot.role not in (Role.VOTED, Role.STALLED) or slot.fire(Signal.ANSWER) is not Act.HOLD:
            return None  # taken as usual (`took` moves our role once it is on the chain)
        kept = self._keep(view, slot, raw)
        return [Held(slot.seq, raw, _signer(raw))] if kept is None else kept

    def _keep(self, view: ClaimView, slot: Slot, raw: bytes) -> list[Output] | None:
        """Keep an answer of `slot` with it, off the chain: None once kept; [] if we hold it already; [its
        fault] if it proves one (`_answer_fault`)."""
        digest = log.entry_hash(raw)
        if digest in slot.held:
            return []
        fault = self._answer_fault(view, slot, raw)
        if fault is not None:
            return [fault]
        slot.held[digest] = raw
        return None

    def _answer_fault(self, view: ClaimView, slot: Slot, raw: bytes) -> Halt | None:
        """The fault an answer of `slot` proves: it breaks the rules (its signer's fault, whatever the claim
        says), or it is a second, different answer of a seat whose answer we hold (equivocation)."""
        bad = view.answer_problem(raw, slot.at)
        if isinstance(bad, Violation):
            return Halt(bad, slot.seq)
        who = _signer(raw)
        other = next((r for r in slot.held.values() if r != raw and _signer(r) == who), None)
        if other is None:
            return None
        detail = Detail(TWICE, seat=who, seq=slot.seq)
        evidence = tuple(sorted((other, raw)))
        return Halt(Violation(who, Check.EQUIVOCATION, detail, slot.seq, evidence), slot.seq)

    def late(self, view: ClaimView, slot: Slot, raw: bytes) -> list[Output]:
        """An answer for a slot whose ending (a certificate) took it: it changes nothing, unless it shows a
        fault (a second, different answer of the same seat; one that breaks the rules), stronger than the
        ending at that slot. Kept with the slot, so that a later twin of it is caught."""
        kept = self._keep(view, slot, raw)
        stale = Dropped(DropKind.STALE, _signer(raw), slot.seq, signed=True)
        return [Report(stale)] if kept is None else kept

    def took(self, view: ClaimView, at: Awaited, raw: bytes, own: bool) -> list[Output]:
        """The entry `raw` took slot `at` on our chain: if votes are out, and we never voted, we refuse."""
        slot = self.on(at)
        if slot is None:
            return []
        if own:
            slot.fire(Signal.OUR_ENTRY)  # (its act: nothing, the entry is on the chain)
            return []
        if slot.fire(Signal.ANSWER) is Act.TAKE_AND_REFUSE:
            return self._refuse(view, slot, raw)
        return []

    def timer(self, view: ClaimView, wait: int) -> list[Output]:
        """Our timer for the slot the table waits for ran out (`wait`: the timeout in force, whole seconds,
        with whatever our player chose to add): we vote, or, a timeout after our vote, stall."""
        at = view.now()
        if at is None or view.seat is None or at.accused == view.seat:
            return []
        slot = self.slot(at)
        if slot.role is Role.VOTED and standing(slot, self.seats)[0] is not Standing.OPEN:
            return []  # no stall: the claim is void, or complete
        act = slot.fire(Signal.TIMER)
        if act is Act.VOTE:
            raw = view.seal(msg.Abandon(at.accused, wait), at)
            return [Send(at.seq, raw), *self._vote(view, slot, view.seat, raw, wait)]
        if act is Act.STALL:
            return self._own_stall(view, slot, wait)
        return []

    def _own_stall(self, view: ClaimView, slot: Slot, wait: int | None = None) -> list[Output]:
        """Our stall: the seats whose votes we still lack (none: the certificate is complete, no stall)."""
        assert view.seat is not None
        missing = tuple(s for s in slot.missing(self.seats) if s != view.seat)
        if not missing or missing in slot.stalls.get(view.seat, {}):
            return []
        w = slot.waits.get(view.seat, slot.at.wait) if wait is None else wait
        raw = view.seal(msg.Stall(slot.accused, missing, w), slot.at)
        return [Send(slot.seq, raw), *self._stall(view, slot, view.seat, raw, missing)]

    def _refuse(self, view: ClaimView, slot: Slot, taken: bytes | None = None) -> list[Output]:
        """We took the awaited entry before any vote of ours, and votes are out: say so, once, carrying it."""
        seat = view.seat
        if seat is None or seat == slot.accused or seat in slot.refusals or seat in slot.votes:
            return []
        if view.restoring:
            return []  # our refusal, if we signed one, is in our log after this
        taken = view.entry_at(slot.seq) if taken is None else taken
        if taken is None:
            return []
        if not any(s not in slot.void for s in slot.votes):
            return []  # only void votes: not a claim, nothing to refuse
        raw = view.seal(msg.Answered(slot.accused, taken), slot.at)
        slot.refusals[seat] = (raw, taken)
        return [Send(slot.seq, raw), Note(slot.seq, raw, seat, msg.Answered.TYPE, True)]

    def void(self, slot: Slot, raw: bytes, ended_here: bool) -> list[Output]:
        """A provisional ending of `slot` (a stalled ending, or any ending of rule "low_club"'s first lead) is
        void: its awaited entry `raw` turned up (`ended_here`: that ending was our table's, and is undone).
        The entry takes the slot: a voter is released, and every other seat takes it as usual."""
        if ended_here:
            slot.ended = None
        act = slot.fire(Signal.VOID)
        return [Take(raw)] if act in (Act.TAKE, Act.RELEASE) else []

    # ----------------------------------------------------------------- the standing, and its ending
    def judge(self, view: ClaimView, slot: Slot) -> list[Output]:
        """The slot's ending, once its notes make one we have not applied yet."""
        now, missing = standing(slot, self.seats)
        if now not in (Standing.CERTIFIED, Standing.STALLED) or slot.ended == (now, missing):
            return []
        slot.ended = (now, missing)
        return [End(slot, now, missing)]

    def ending(self, view: ClaimView, env: log.Envelope, header: log.Header) -> tuple[bool, list[Output]]:
        """A certificate or a stalled ending from a peer: a bundle of notes nobody signs. We take each note;
        whether they make exactly these bytes (`ending_entry`) decides if it holds."""
        try:
            m = msg.decode(env.payload, None, self.version)
            assert isinstance(m, msg.Certificate | msg.Stalled)
        except RemoteError as exc:
            return False, [Report(Dropped(DropKind.MALFORMED, header.seat, header.seq, detail=exc.detail))]
        notes = m.votes if isinstance(m, msg.Certificate) else (*m.votes, *m.stalls)
        out: list[Output] = []
        for raw in notes:
            bad = note_fault(raw, header, msg.NOTES, Detail(N_("a note of another slot")))
            if bad is not None:
                return False, [*out, Report(bad)]
            out.append(Take(raw))
        return True, out



def _type(raw: bytes) -> str:
    return str(log.validate_header(log.open_envelope(raw).payload).type)


def _signer(raw: bytes) -> int:
    return int(log.validate_header(log.open_envelope(raw).payload).seat)


def _not_an_answer(view: ClaimView, slot: Slot, entry: bytes) -> str | None:
    """Why `entry`, carried by a refusal, is not a validly signed entry for `slot` (None if it is one)."""
    try:
        env = log.open_envelope(entry)
        header = log.validate_header(env.payload)
    except RemoteError:
        return Detail(N_("bytes that are no entry"))
    kinds = (*msg.NOTES, *msg.PARTINGS, *msg.ENDINGS)
    if (header.seq, header.prev) != (slot.seq, slot.prev) or header.type in kinds:
        return Detail(N_("an entry for another slot ({seq})"), seq=header.seq)
    if header.seat != slot.accused and not slot.at.anyone:
        return Detail(N_("an entry of seat {seat}, not of seat {accused}"), seat=header.seat,
                      accused=slot.accused)
    if not view.signed(env, header):
        return Detail(N_("an entry whose signature does not verify"))
    return None


