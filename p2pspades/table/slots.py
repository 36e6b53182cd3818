"""Abandonment claims (PROTOCOL.md §5), as data: what one table knows of the claim on each slot, how a slot
stands on its notes, what an honest seat does there, and what the claims machine (`claims.py`) says.

A claim is about one *slot*: the sequence number `n` the table waits for, after the entry whose hash is `p`,
and the seat `a` whose entry it awaits (`Awaited`). Nothing about it is on the chain until it ends, and its
signed notes travel between the peers:

- a **vote** (`abandon`): its signer's timer for the slot ran out;
- a **refusal** (`answered`): its signer took `a`'s entry before it voted, and carries that entry;
- a **stall** (`stall`): a voter that, a timeout after its vote, still lacks the votes of some seats.

How a slot stands is a function of its notes alone (`standing`), whatever the order they came in: a refusal
makes the claim void; the votes of every seat but `a` make a **certificate**; the votes and stalls of every
seat that voted, all naming the same silent seats, make a **stalled** ending (`ending_entry`: its canonical
bytes; `outcome`: who wins by a certificate). What an honest seat does on a slot is data too
(`TRANSITIONS`: its role and each signal, to the next role and the act), and `Slot.fire` is the one place
its role changes.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from p2pspades import log
from p2pspades.errors import N_, Detail, RemoteError
from p2pspades.rules import RuleSet
from p2pspades.table import messages as msg
from p2pspades.table.endings import ranked_without
from p2pspades.table.events import DropKind, Dropped
from p2pspades.table.outputs import Halt, Report


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

    TIMER = "timer"  # our timer for the slot ran out (first after the last progress, then after our vote)
    VOTE = "vote"  # another seat's vote
    ANSWER = "answer"  # the awaited entry arrives
    REFUSAL = "refusal"  # a seat that took the awaited entry before it voted says so, carrying it
    OUR_VOTE = "our_vote"  # our own vote, read back from our log
    OUR_STALL = "our_stall"  # our own stall, read back from our log
    OUR_ENTRY = "our_entry"  # we made the awaited entry ourselves
    VOID = "void"  # a provisional ending of the slot is void: its awaited entry turned up


class Act(enum.Enum):
    """What we do on a signal."""

    KEEP = "keep"  # keep the note with the slot
    VOTE = "vote"  # sign our vote and send it
    STALL = "stall"  # sign our stall, naming the seats whose votes we lack, and send it
    TAKE = "take"  # put the awaited entry on the chain
    # put the awaited entry on the chain, and refuse the votes already out
    TAKE_AND_REFUSE = "take_and_refuse"
    HOLD = "hold"  # keep the awaited entry off the chain
    REFUSE = "refuse"  # sign a refusal carrying the entry we took, and send it
    RELEASE = "release"  # put the awaited entry we hold (or that the refusal carries) on the chain
    # take the entry a refusal carries as if it came: a copy of ours, or a second answer of its seat
    CHECK = "check"
    NOTHING = "nothing"


R, G, A = Role, Signal, Act

#: What an honest seat does: (role, signal) -> (next role, act). A pair that is missing does nothing.
TRANSITIONS: Mapping[tuple[Role, Signal], tuple[Role, Act]] = {
    (R.QUIET, G.VOTE): (R.OPEN, A.KEEP),
    (R.QUIET, G.TIMER): (R.VOTED, A.VOTE),
    (R.QUIET, G.ANSWER): (R.ANSWERED, A.TAKE),
    (R.QUIET, G.REFUSAL): (R.RELEASED, A.RELEASE),
    (R.QUIET, G.OUR_VOTE): (R.VOTED, A.KEEP),
    (R.QUIET, G.OUR_ENTRY): (R.ANSWERED, A.NOTHING),  # (it is on the chain)
    (R.QUIET, G.VOID): (R.QUIET, A.TAKE),
    (R.OPEN, G.VOTE): (R.OPEN, A.KEEP),
    (R.OPEN, G.TIMER): (R.VOTED, A.VOTE),
    (R.OPEN, G.ANSWER): (R.ANSWERED, A.TAKE_AND_REFUSE),
    (R.OPEN, G.REFUSAL): (R.RELEASED, A.RELEASE),
    (R.OPEN, G.OUR_VOTE): (R.VOTED, A.KEEP),
    (R.OPEN, G.OUR_ENTRY): (R.ANSWERED, A.NOTHING),
    (R.OPEN, G.VOID): (R.OPEN, A.TAKE),
    (R.VOTED, G.VOTE): (R.VOTED, A.KEEP),
    (R.VOTED, G.TIMER): (R.STALLED, A.STALL),
    (R.VOTED, G.ANSWER): (R.VOTED, A.HOLD),
    (R.VOTED, G.REFUSAL): (R.RELEASED, A.RELEASE),
    (R.VOTED, G.OUR_STALL): (R.STALLED, A.KEEP),
    (R.VOTED, G.VOID): (R.RELEASED, A.RELEASE),
    (R.STALLED, G.VOTE): (R.STALLED, A.STALL),  # a late vote: the seats we lack are fewer, stall again
    (R.STALLED, G.ANSWER): (R.STALLED, A.HOLD),
    (R.STALLED, G.REFUSAL): (R.RELEASED, A.RELEASE),
    (R.STALLED, G.VOID): (R.RELEASED, A.RELEASE),
    (R.ANSWERED, G.VOTE): (R.ANSWERED, A.REFUSE),
    (R.ANSWERED, G.REFUSAL): (R.ANSWERED, A.CHECK),
    (R.ANSWERED, G.VOID): (R.ANSWERED, A.TAKE),
    (R.RELEASED, G.ANSWER): (R.RELEASED, A.TAKE),
    (R.RELEASED, G.REFUSAL): (R.RELEASED, A.CHECK),
    (R.RELEASED, G.VOID): (R.RELEASED, A.TAKE),
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
class Slot:
    """What one table knows of the claim on one slot: each seat's signed notes, the awaited entries it holds
    off its chain (by hash), and our own role."""

    at: Awaited
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


def provisional(slot: Slot, stalled: bool) -> bool:
    """Whether an ending of `slot` holds only until its awaited entry turns up: a stalled ending (the seats
    it names as silent may not be), or any ending of the first lead of rule "low_club" (nobody knows whose
    silence it is: the challenge, or the lead, answers it whenever it comes, and withholding it gains
    nothing, since the reveal names the holder)."""
    return stalled or slot.at.anyone


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



# ================================================================= what the machines of notes see
class SlotView(Protocol):
    """What a machine of notes about slots (the claims', the partings') sees of its table: the seats, its own,
    the chain's slots, and its signer."""

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


# ================================================================= what the claims machine says
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


Output = Note | Send | Held | Take | End | Reopen | Halt | Report


def note_fault(raw: bytes, header: log.Header, kinds: Collection[str], another: Detail) -> Dropped | None:
    """Why a note in a bundle nobody signs (a certificate, a stalled ending, a `left` or `stopped` entry)
    drops the bundle with `header`: it does not open, or it is not a note of the bundle's slot of one of
    `kinds` (`another` says so); None where it is."""
    try:
        inner = log.validate_header(log.open_envelope(raw).payload)
    except RemoteError as exc:
        return Dropped(DropKind.MALFORMED, header.seat, header.seq,
                       detail=Detail(N_("a note: {detail}"), detail=exc.detail))
    if (inner.seq, inner.prev) != (header.seq, header.prev) or inner.type not in kinds:
        return Dropped(DropKind.REFUSED, header.seat, header.seq, detail=another)
    return None
