"""Abandonment claims (PROTOCOL.md §5): what one table knows of each claimed slot, and what follows from it.

A claim is about one *slot*: the sequence number `n` the table waits for, after the entry whose hash is `p`,
and the seat `a` whose entry it awaits. Nothing about it is on the chain until it ends, and its signed notes
travel between the peers:

- a **vote** (`abandon`): its signer's timer for the slot ran out;
- a **refusal** (`answered`): its signer took `a`'s entry before it voted, and carries that entry;
- a **stall** (`stall`): a voter that, a timeout after its vote, still lacks the votes of some seats.

How a slot stands is a function of its notes alone (`standing`), whatever the order they came in: a seat that
signed contradicting notes equivocated (a fault); a refusal makes the claim void; the votes of every seat but
`a` make a **certificate**; the votes and stalls of every seat that voted, all naming the same silent seats,
make a **stalled** ending. A vote whose signer has an entry after the slot on the chain is void: it took the
answer (a game every seat signed `end` on is sealed so), and when nobody could have released it, its
signer is named.

What an honest seat does on a slot is data too (`TRANSITIONS`: its role and each signal, to the next role and
the act). This module holds no reference to the table: it sees the chain through the narrow `ClaimView` and
returns what should happen (`Output`); the table applies it in one place (`abandonment.py`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from p2pspades import log
from p2pspades.checks import Check
from p2pspades.errors import RemoteError
from p2pspades.rules import RuleSet
from p2pspades.table import messages as msg
from p2pspades.table.events import DropKind, Dropped, Event, Rejected, Violation

#: how many notes ahead of our chain one seat may have us keep (an honest seat signs at most a vote or a
#: refusal and a stall or two for a slot; they come early only by a little)
EARLY_PER_SEAT = 16
#: how far behind our chain a quiet slot is kept (one with nothing of ours in it)
KEPT_BEHIND = 256


class Role(enum.Enum):
    """Where our own seat stands on a slot."""

    QUIET = "quiet"  # no vote seen, none of ours, and the awaited entry has not come
    OPEN = "open"  # others voted; we did not (an observer, the accused, or our timer still runs)
    VOTED = "voted"  # we voted: we hold the awaited entry off our chain, unless a refusal comes
    STALLED = "stalled"  # we voted and, a timeout later, stalled: still holding the awaited entry off
    ANSWERED = "answered"  # the awaited entry is on our chain: we took it before any vote of ours
    RELEASED = "released"  # a refusal released us: we take (took) the awaited entry after all


class Signal(enum.Enum):
    """What happens to us on a slot."""

    TIMER = "our timer for the slot ran out (first after the last progress, then after our vote)"
    VOTE = "another seat's vote"
    ANSWER = "the awaited entry arrives"
    REFUSAL = "a seat that took the awaited entry before it voted says so, carrying it"


class Act(enum.Enum):
    """What we do on a signal."""

    KEEP = "keep the note with the slot"
    VOTE = "sign our vote and send it"
    STALL = "sign our stall, naming the seats whose votes we lack, and send it"
    TAKE = "put the awaited entry on the chain"
    TAKE_AND_REFUSE = "put the awaited entry on the chain, and refuse the votes already out"
    HOLD = "keep the awaited entry off the chain"
    REFUSE = "sign a refusal carrying the entry we took, and send it"
    RELEASE = "put the awaited entry we hold (or that the refusal carries) on the chain"
    NOTHING = "nothing"


R, G, A = Role, Signal, Act

#: What an honest seat does: (role, signal) -> (next role, act). A pair that is missing does nothing.
TRANSITIONS: Mapping[tuple[Role, Signal], tuple[Role, Act]] = {
    (R.QUIET, G.VOTE): (R.OPEN, A.KEEP),
    (R.QUIET, G.TIMER): (R.VOTED, A.VOTE),
    (R.QUIET, G.ANSWER): (R.ANSWERED, A.TAKE),
    (R.QUIET, G.REFUSAL): (R.RELEASED, A.RELEASE),
    (R.OPEN, G.VOTE): (R.OPEN, A.KEEP),
    (R.OPEN, G.TIMER): (R.VOTED, A.VOTE),
    (R.OPEN, G.ANSWER): (R.ANSWERED, A.TAKE_AND_REFUSE),
    (R.OPEN, G.REFUSAL): (R.RELEASED, A.RELEASE),
    (R.VOTED, G.VOTE): (R.VOTED, A.KEEP),
    (R.VOTED, G.TIMER): (R.STALLED, A.STALL),
    (R.VOTED, G.ANSWER): (R.VOTED, A.HOLD),
    (R.VOTED, G.REFUSAL): (R.RELEASED, A.RELEASE),
    (R.STALLED, G.VOTE): (R.STALLED, A.STALL),  # a late vote: the seats we lack are fewer, stall again
    (R.STALLED, G.ANSWER): (R.STALLED, A.HOLD),
    (R.STALLED, G.REFUSAL): (R.RELEASED, A.RELEASE),
    (R.ANSWERED, G.VOTE): (R.ANSWERED, A.REFUSE),
    (R.ANSWERED, G.REFUSAL): (R.ANSWERED, A.KEEP),
    (R.RELEASED, G.ANSWER): (R.RELEASED, A.TAKE),
    (R.RELEASED, G.REFUSAL): (R.RELEASED, A.KEEP),
}


class Standing(enum.Enum):
    """How a slot's claim stands on the notes a table holds (`standing`)."""

    QUIET = "quiet"  # no vote
    OPEN = "open"  # votes, but no ending yet
    VOID = "void"  # a refusal: a seat took the awaited entry before it voted
    STALLED = "stalled"  # the votes and stalls of the seats still playing: contested, it ends the game
    CERTIFIED = "certified"  # the votes of every seat but the accused: it ends the game


@dataclass(frozen=True)
class Awaited:
    """A slot as the chain gives it: the sequence number `seq` after the entry hashed `prev`, the seat
    `accused` whose entry it waits for, the hand number and the type awaited, and the timeout in force there
    (whole seconds). `anyone`: rule "low_club", the first lead, which any seat (its holder) may also make."""

    seq: int
    prev: bytes
    accused: int
    hand: int
    awaited: str
    wait: int
    anyone: bool = False


@dataclass
class OnSlot:
    """What a table knows about one slot (`at`): the claims' and the partings' records share it."""

    at: Awaited

    @property
    def seq(self) -> int:
        return self.at.seq

    @property
    def prev(self) -> bytes:
        return self.at.prev

    @property
    def accused(self) -> int:
        return self.at.accused

    @property
    def hand(self) -> int:
        return self.at.hand

    @property
    def awaited(self) -> str:
        return self.at.awaited


@dataclass
class Slot(OnSlot):
    """What one table knows of the claim on one slot: each seat's signed notes, the awaited entries it holds
    off its chain (by hash), and our own role."""

    role: Role = Role.QUIET
    votes: dict[int, bytes] = field(default_factory=dict)
    waits: dict[int, int] = field(default_factory=dict)  # each vote's stated timeout
    stalls: dict[int, dict[tuple[int, ...], bytes]] = field(default_factory=dict)  # seat -> missing -> raw
    refusals: dict[int, tuple[bytes, bytes]] = field(default_factory=dict)  # seat -> (raw, entry carried)
    held: dict[bytes, bytes] = field(default_factory=dict)
    void: set[int] = field(default_factory=set)  # voters with an entry after the slot on our chain
    named: set[int] = field(default_factory=set)  # void voters named already
    #: the ending its notes made last (CERTIFIED, or STALLED with the seats it names)
    ended: tuple[Standing, tuple[int, ...]] | None = None

    @property
    def voters(self) -> tuple[int, ...]:
        """The seats whose vote counts (not void), ascending."""
        return tuple(sorted(s for s in self.votes if s not in self.void))

    def missing(self, seats: int) -> tuple[int, ...]:
        """The seats whose vote the certificate still lacks."""
        return tuple(s for s in range(seats) if s != self.accused and s not in self.voters)

    def notes(self) -> list[bytes]:
        """The signed votes, stalls and refusals of this slot, in seat order (what a peer that lacks them
        needs)."""
        stalls = [raw for _, by in sorted(self.stalls.items()) for _, raw in sorted(by.items())]
        refusals = [raw for _, (raw, _) in sorted(self.refusals.items())]
        return [raw for _, raw in sorted(self.votes.items())] + stalls + refusals

    def fire(self, signal: Signal) -> Act:
        """Move our role on `signal`; the act to carry out (a pair `TRANSITIONS` does not list: nothing)."""
        nxt, act = TRANSITIONS.get((self.role, signal), (self.role, Act.NOTHING))
        self.role = nxt
        return act


def standing(slot: Slot, seats: int) -> tuple[Standing, tuple[int, ...]]:
    """How `slot` stands on its notes, and for a stalled ending the seats it names as silent. The notes'
    order plays no part: a refusal makes the claim void (its signer never voted, or it equivocated: a fault
    the machine reports first); the votes of every seat but the accused make a certificate; the votes and
    stalls of every seat that voted, all naming the others, make a stalled ending (the one naming the fewest
    seats, if several do)."""
    if slot.refusals:
        return Standing.VOID, ()
    voters = set(slot.voters)
    if not voters:
        return Standing.QUIET, ()
    others = set(range(seats)) - {slot.accused}
    if voters == others:
        return Standing.CERTIFIED, ()
    named = sorted({m for by in slot.stalls.values() for m in by}, key=lambda m: (len(m), m))
    for missing in named:
        still = others - set(missing)
        if still and still <= voters and all(missing in slot.stalls.get(s, {}) for s in still):
            return Standing.STALLED, missing
    return Standing.OPEN, ()


@dataclass(frozen=True)
class Outcome:
    """The result a certificate gives: who forfeits, and whether a signer vouches against its interest."""

    winners: tuple[int, ...]
    forfeit: bool
    contested: bool


def ranked_without(rules: RuleSet, loser: int, totals: list[int]) -> tuple[int, ...]:
    """The sides with the best total once side `loser` forfeited (all of them on equal totals)."""
    sides = range(len(rules.sides))
    top = max(totals[side] for side in sides if side != loser)
    return tuple(side for side in sides if side != loser and totals[side] == top)


def outcome(rules: RuleSet, accused: int, voters: tuple[int, ...], totals: list[int]) -> Outcome:
    """The result of a certificate against `accused`, signed by `voters`, with the sides' `totals` then.

    By rule `on_fault` "forfeit" the accused's side loses and the best of the other sides win, but only if
    some signer's own side is not among those winners (its partner, or a seat that does not gain by it):
    signers who all win by the certificate prove nothing, so the game ends contested, with no winner. With
    "void" nobody wins.
    """
    if rules.on_fault != "forfeit":
        return Outcome((), False, False)
    winners = ranked_without(rules, rules.side_of(accused), totals)
    if any(rules.side_of(v) not in winners for v in voters):
        return Outcome(winners, True, False)
    return Outcome((), False, True)


# ================================================================= what the machine asks and says
class SlotView(Protocol):
    """What a machine of notes about slots (the claims', the partings') sees of its table: the seats, its
    own, the chain's slots, and its signer."""

    @property
    def seats(self) -> int: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def next_seq(self) -> int: ...

    @property
    def restoring(self) -> bool:
        """Whether the table is replaying its own log: a note of ours it signed then is in the log after."""

    def now(self) -> Awaited | None:
        """The slot the table waits for (None: nobody is awaited, or the game is over before it)."""

    def passed(self, seq: int, prev: bytes) -> Awaited | None:
        """A slot our chain holds (or ended at), after the entry hashed `prev`; None if it does not."""

    def seal(self, m: msg.Message, at: Awaited) -> bytes:
        """Our signed envelope of the note `m` for slot `at`."""


class ClaimView(SlotView, Protocol):
    """What the claims machine sees of its table besides: who signed what on the chain, and how an entry
    fares at a slot."""

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


class EarlyNotes:
    """The notes that came before their slot: kept until the chain reaches it, a few per signer (the flood is
    its signer's: a seat that sends more is refused, and charged)."""

    def __init__(self) -> None:
        self.kept: dict[int, list[tuple[int, bytes]]] = {}  # slot -> [(signer, raw)]

    def keep(self, next_seq: int, seat: int, seq: int, raw: bytes) -> list[Report]:
        """Keep a note of `seat` for slot `seq`, beyond the chain of length `next_seq`; else why not."""
        mine = sum(1 for kept in self.kept.values() for s, _ in kept if s == seat)
        if seq - next_seq <= KEPT_BEHIND and mine < EARLY_PER_SEAT:
            self.kept.setdefault(seq, []).append((seat, raw))
            return []
        return [Report(Dropped(DropKind.TOO_FAR_AHEAD, seat, seq, signed=True))]

    def due(self, next_seq: int) -> list[bytes]:
        """The notes that came before the slot the chain has now reached (and those for slots passed)."""
        due = [seq for seq in self.kept if seq <= next_seq]
        return [raw for seq in sorted(due) for _, raw in self.kept.pop(seq)]


@dataclass(frozen=True)
class Note:
    """A note we took: keep it in the log, and pass it on (ours is also in `Send`)."""

    slot: int
    raw: bytes
    seat: int
    type: str
    own: bool = False


@dataclass(frozen=True)
class Send:
    """A note of ours, for every peer."""

    slot: int
    raw: bytes


@dataclass(frozen=True)
class Held:
    """An awaited entry we hold off the chain (we voted): pass it on, so that whoever holds another one sees
    both."""

    slot: int
    raw: bytes
    seat: int


@dataclass(frozen=True)
class Take:
    """Put this entry on the chain: a refusal released it (or carried it to us)."""

    raw: bytes


@dataclass(frozen=True)
class End:
    """The claim on `slot` ends the game (a certificate, or a stalled ending naming `missing`)."""

    slot: Slot
    standing: Standing
    missing: tuple[int, ...] = ()


@dataclass(frozen=True)
class Reopen:
    """A stalled ending on `slot` is void: a seat it named as silent took the awaited entry, `raw`."""

    slot: Slot
    raw: bytes


@dataclass(frozen=True)
class Halt:
    """A fault proven by signed notes or entries: it ends the game at slot `at`."""

    violation: Violation
    at: int


@dataclass(frozen=True)
class Report:
    """An event for our caller (a note dropped or refused)."""

    event: Event


Output = Note | Send | Held | Take | End | Reopen | Halt | Report


# ================================================================= the machine
class Claims:
    """The claims of one table: every claimed slot it knows, and the notes that came before their slot."""

    def __init__(self, seats: int, seat: int | None, version: int) -> None:
        self.seats, self.seat, self.version = seats, seat, version
        self.slots: dict[tuple[int, bytes], Slot] = {}
        self.early = EarlyNotes()

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
        return None if at is None else self.slots.get((at.seq, at.prev))

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
            return list(self.early.keep(view.next_seq, seat, seq, env.raw))
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

    def take_early(self, next_seq: int) -> list[bytes]:
        """The notes that came before the slot the chain has now reached (and those for slots passed)."""
        return self.early.due(next_seq)

    def _read(self, env: log.Envelope, header: log.Header, slot: Slot) -> msg.Message:
        seat = header.seat
        m = msg.decode(env.payload, seat, self.version)
        assert isinstance(m, msg.Abandon | msg.Answered | msg.Stall)
        if m.seat != slot.accused or seat == slot.accused:
            why = f"names seat {m.seat}, but slot {header.seq} waits for seat {slot.accused}"
            raise RemoteError(Check.ABANDON, why, seat)
        if header.hand != slot.hand:
            why = f"hand number {header.hand}, but slot {header.seq} is in hand {slot.hand}"
            raise RemoteError(Check.ABANDON, why, seat)
        if isinstance(m, msg.Stall) and (seat in m.missing or slot.accused in m.missing
                                          or m.missing[-1] >= self.seats):
            why = f"a stall naming seats {list(m.missing)}: not the seats whose votes it can lack"
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
        detail = f"seat {seat} signed contradicting notes (a vote, a stall, a refusal) for slot {slot.seq}"
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
        if seat == self.seat:  # our own, restored from our log: it locks us out of the answer as it did
            slot.role = Role.VOTED if slot.role in (Role.QUIET, Role.OPEN) else slot.role
        elif slot.fire(Signal.VOTE) is Act.REFUSE:
            out += self._refuse(view, slot)
        elif slot.role is Role.STALLED:
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
                why = (f"a vote that seat {slot.accused} never answered slot {slot.seq}, but seat {v} "
                       "signed an entry after it on the chain: it had taken the answer, and no seat could "
                       "release it")
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
            slot.role = Role.STALLED if slot.role is Role.VOTED else slot.role
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
        if seat != self.seat:
            slot.fire(Signal.REFUSAL)  # a voter is released; whoever took the entry keeps it
        slot.held.pop(log.entry_hash(entry), None)
        return [*out, Take(entry)]  # the entry, as if it came itself: taken, a copy, or a second answer

    def _carried_problem(self, view: ClaimView, slot: Slot, seat: int, raw: bytes,
                         entry: bytes) -> Halt | None:
        """What is wrong with the entry a refusal carries: not a signed entry for the slot (a phantom: the
        refuser's fault), or one that breaks the rules (its signer's fault, whoever carries it)."""
        why = _not_an_answer(view, slot, entry)
        bad = view.answer_problem(entry, slot.at) if why is None else why
        if isinstance(bad, Violation):
            return Halt(bad, slot.seq)
        if bad is not None:
            detail = f"a refusal of slot {slot.seq} carrying {bad}: no such entry took that slot"
            return Halt(Violation(seat, Check.ABANDON, detail, slot.seq, (raw,)), slot.seq)
        return None

    # ----------------------------------------------------------------- the awaited entry, our timers
    def arriving(self, view: ClaimView, slot: Slot, raw: bytes) -> list[Output] | None:
        """The awaited entry of `slot` (the slot we wait for) arrives, checked for its turn: None to take it
        as usual, else what we do instead (we voted: hold it, after checking it as it would be checked)."""
        if slot.role not in (Role.VOTED, Role.STALLED):
            return None
        slot.fire(Signal.ANSWER)
        digest = log.entry_hash(raw)
        if digest in slot.held:
            return []
        fault = self._answer_fault(view, slot, raw)
        if fault is not None:
            return [fault]
        slot.held[digest] = raw
        return [Held(slot.seq, raw, _signer(raw))]

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
        detail = f"two different entries signed by seat {who} for sequence number {slot.seq}"
        evidence = tuple(sorted((other, raw)))
        return Halt(Violation(who, Check.EQUIVOCATION, detail, slot.seq, evidence), slot.seq)

    def late(self, view: ClaimView, slot: Slot, raw: bytes) -> list[Output]:
        """An answer for a slot whose ending (a certificate) took it: it changes nothing, unless it shows a
        fault (a second, different answer of the same seat; one that breaks the rules), stronger than the
        ending at that slot. Kept with the slot, so that a later twin of it is caught."""
        digest = log.entry_hash(raw)
        if digest in slot.held:
            return []
        fault = self._answer_fault(view, slot, raw)
        if fault is not None:
            return [fault]
        slot.held[digest] = raw
        return [Report(Dropped(DropKind.STALE, _signer(raw), slot.seq, signed=True))]

    def took(self, view: ClaimView, at: Awaited, raw: bytes, own: bool) -> list[Output]:
        """The entry `raw` took slot `at` on our chain: if votes are out, and we never voted, we refuse."""
        slot = self.slots.get((at.seq, at.prev))
        if slot is None:
            return []
        if own:
            slot.role = Role.ANSWERED if slot.role in (Role.QUIET, Role.OPEN) else slot.role
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
            try:
                inner = log.validate_header(log.open_envelope(raw).payload)
            except RemoteError as exc:
                bad = Dropped(DropKind.MALFORMED, header.seat, header.seq, detail=f"a note: {exc.detail}")
                return False, [*out, Report(bad)]
            if (inner.seq, inner.prev) != (header.seq, header.prev) or inner.type not in msg.NOTES:
                return False, [*out, Report(Dropped(DropKind.REFUSED, header.seat, header.seq,
                                                    detail="a note of another slot"))]
            out.append(Take(raw))
        return True, out


def ending_entry(game_id: bytes, slot: Slot, standing_: Standing, missing: tuple[int, ...]) -> bytes:
    """The canonical bytes of a slot's ending: every peer that holds the same notes makes the same entry."""
    header = {"g": game_id, "n": slot.seq, "p": slot.prev, "s": slot.accused, "h": slot.hand}
    voters = [s for s in slot.voters]
    if standing_ is Standing.CERTIFIED:
        body = msg.Certificate(tuple(slot.votes[v] for v in voters)).to_fields()
    else:
        still = [s for s in voters if s not in missing]
        body = msg.Stalled(tuple(slot.votes[v] for v in still),
                           tuple(slot.stalls[v][missing] for v in still)).to_fields()
    return log.seal({**header, **body}, log.UNSIGNED)


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
        return "bytes that are no entry"
    kinds = (*msg.NOTES, *msg.PARTINGS, *msg.ENDINGS)
    if (header.seq, header.prev) != (slot.seq, slot.prev) or header.type in kinds:
        return f"an entry for another slot ({header.seq})"
    if header.seat != slot.accused and not slot.at.anyone:
        return f"an entry of seat {header.seat}, not of seat {slot.accused}"
    if not view.signed(env, header):
        return "an entry whose signature does not verify"
    return None


def seats_named(seats: Iterable[int]) -> str:
    """'seat 2' or 'seats 1, 3'."""
    listed = sorted(seats)
    return ("seat " if len(listed) == 1 else "seats ") + ", ".join(map(str, listed))
