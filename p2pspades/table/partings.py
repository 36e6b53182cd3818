"""Endings by the players' own word (PROTOCOL.md §5.10, §5.11): a signed goodbye, and a stop by agreement.

Silence can only be claimed (`claims.py`); a goodbye can be signed. Both travel as notes off the chain, each
about one *slot* (the entry the table waits for, as a claim's notes are), and end the game there:

- a **goodbye** (`leave`) is its signer's own statement that it leaves the game at that slot. It ends the game
  there on every table at once, with no timer and no vote: the `left` ending, in which the leaver's side
  forfeits. It is void when an entry its signer signed for that slot or a later one turns up (it did not
  leave there: an honest leaver signs nothing after its goodbye), and its signer is named for it;
- a **stop** (`stop`) is its signer's agreement to stop the game at that slot with the scores standing; the
  first stop for a slot proposes it. The stops of every seat make the `stopped` ending: nobody wins, the
  scores stand. It is provisional: the awaited entry of the slot voids it (the seat it waits for played on);
- a **decline** (`go`) says its signer will not stop there: the proposal lapses. No result depends on it.

While a proposal is open on the slot a table waits for, an honest table holds its own entry for that slot
and counts no time against anyone (a *pause*), for at most `wait` seconds on its own clock; a proposer whose
proposal lapsed so (its wait ran out, or a seat declined), or that played through its own proposal (the chain
moved past the slot by the proposer's own entry), pauses nobody again in that hand. A proposal that reached
some table only once it had passed its slot lapses there as the game goes on: each seat that signed it signs
again, at once, for the slot it waits for then (the scores are the same within a hand), so that an agreement
holds for the rest of the hand.

How a slot ends is a function of its notes and of the entries seen, not of their order (`standing`). This
module holds no reference to the table: it sees the chain through the narrow `PartingView` and returns what
should happen (`Output`); the table carries it out in one place (`machine.CARRY`).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from p2pspades import log
from p2pspades.checks import Check
from p2pspades.errors import N_, Detail, RemoteError
from p2pspades.rules import RuleSet
from p2pspades.table import messages as msg
from p2pspades.table.events import DropKind, Dropped, GameEnded, Rejected, TableStatus, Violation
from p2pspades.table.outputs import Known, Report
from p2pspades.table.slots import Awaited, Note, Send, SlotView, note_fault

#: how long, by default, a proposal to stop pauses a table that waits for the slot it names (seconds)
STOP_WAIT = 60.0
#: how far behind our chain a slot that ended nothing and holds nothing of ours is kept (as the claims do)
KEPT_BEHIND = 256


class Parted(enum.Enum):
    """How a slot ends by the players' word (`standing`)."""

    LEFT = "left"  # a goodbye (or several) that holds
    STOPPED = "stopped"  # the stops of every seat, the awaited entry not taken


@dataclass
class Parting:
    """What one table knows of the goodbyes, stops and declines about one slot (`at`)."""

    at: Awaited
    goodbyes: dict[int, bytes] = field(default_factory=dict)
    #: the leavers whose goodbye is void: they signed an entry for this slot or a later one
    void: set[int] = field(default_factory=set)
    stops: dict[int, bytes] = field(default_factory=dict)
    declines: dict[int, bytes] = field(default_factory=dict)
    #: who proposed (the first stop), and when its proposal began to pause us (our clock; None: it does not)
    proposer: int | None = None
    since: float | None = None
    lapsed: bool = False
    #: the ending its notes made last, as applied (the kind, and the leavers of a goodbye)
    ended: tuple[Parted, tuple[int, ...]] | None = None
    #: what that ending cut back from our chain (to take again if it turns out void)
    cut: tuple[bytes, ...] = ()

    @property
    def seq(self) -> int:
        return self.at.seq

    @property
    def prev(self) -> bytes:
        return self.at.prev

    @property
    def leavers(self) -> tuple[int, ...]:
        """The seats whose goodbye holds, ascending."""
        return tuple(sorted(s for s in self.goodbyes if s not in self.void))

    def notes(self) -> list[bytes]:
        """The goodbyes, stops and declines of this slot, in seat order: what a peer that lacks them needs."""
        return [raw for book in (self.goodbyes, self.stops, self.declines) for _, raw in sorted(book.items())]


@dataclass(frozen=True)
class Proposal:
    """A proposal to stop the game at the slot the table waits for, as the screen shows it: who proposed, who
    agreed (the proposer first among them), who declined, and the seconds before it lapses here (None: it
    does not pause us, or lapsed)."""

    slot: int
    proposer: int
    agreed: tuple[int, ...]
    declined: tuple[int, ...]
    lapses_in: float | None
    totals: tuple[int, ...]

    @property
    def open(self) -> bool:
        return self.lapses_in is not None and not self.declined


# ================================================================= what the machine asks and says
class PartingView(SlotView, Protocol):
    """What the partings machine sees of its table: the seats, its own, the chain's slots (`SlotView`),
    whether a slot's awaited entry is on the chain, and the scores at a slot."""

    def answered(self, seq: int) -> bool:
        """Whether our chain holds the awaited entry of slot `seq` (an entry its seat signed, no ending)."""

    def totals_at(self, seq: int) -> tuple[int, ...]:
        """Every side's score after our chain's first `seq` entries."""

    def problem_of(self, raw: bytes, seq: int) -> Violation | str | None:
        """What `raw` earns at slot `seq` of our chain: None if it holds there."""


@dataclass(frozen=True)
class Part:
    """The game ends at `parting`'s slot by the players' word: `kind`, by the leavers `seats` (a goodbye)."""

    parting: Parting
    kind: Parted
    seats: tuple[int, ...] = ()


@dataclass(frozen=True)
class Revive:
    """The ending by `parting` is void (every goodbye in it is; or the awaited entry `answer` came, for a
    stop): take off the chain what it put there, take back what it cut, and go on."""

    parting: Parting
    answer: bytes | None = None


@dataclass(frozen=True)
class Lapse:
    """The proposal on `parting`'s slot no longer pauses us: declined by `by`, or its wait ran out (None)."""

    parting: Parting
    by: int | None = None


@dataclass(frozen=True)
class Early:
    """A note for a slot beyond our chain: kept with the claims' early notes (one allowance per signer)."""

    seat: int
    seq: int
    raw: bytes


Output = Note | Send | Report | Known | Part | Revive | Lapse | Early


# ================================================================= the machine
class Partings:
    """The goodbyes and stops of one table: every slot they concern, and the notes that came before it."""

    def __init__(self, seats: int, seat: int | None, version: int, wait: float = STOP_WAIT) -> None:
        self.seats, self.seat, self.version, self.wait = seats, seat, version, wait
        self.spots: dict[tuple[int, bytes], Parting] = {}
        #: the latest slot of a chain entry each seat signed that we have seen (any branch): a goodbye for
        #: that slot or an earlier one is void
        self.latest: dict[int, int] = {}
        #: (hand, seat) of the proposers whose pause lapsed here (its wait ran out, or a seat declined): one
        #: such pause per proposer and hand
        self.paused_by: set[tuple[int, int]] = set()

    # ----------------------------------------------------------------- the slots
    def _spot(self, at: Awaited) -> Parting:
        key = (at.seq, at.prev)
        found = self.spots.get(key)
        if found is None:
            found = self.spots[key] = Parting(at)
        return found

    def current(self, view: PartingView) -> Parting | None:
        """The partings of the slot the table waits for, if any note came for it."""
        at = view.now()
        return None if at is None else self.spots.get((at.seq, at.prev))

    def _slot_of(self, view: PartingView, seq: int, prev: bytes) -> Parting | None:
        now = view.now()
        if now is not None and (now.seq, now.prev) == (seq, prev):
            return self._spot(now)
        at = view.passed(seq, prev)
        return None if at is None else self._spot(at)

    def forget_behind(self, next_seq: int) -> None:
        """Forget the slots far behind the chain that ended nothing and hold nothing of ours."""
        for key in [k for k, p in self.spots.items() if k[0] < next_seq - KEPT_BEHIND and p.ended is None
                    and self.seat not in p.goodbyes and self.seat not in p.stops]:
            del self.spots[key]

    # ----------------------------------------------------------------- a note from a peer (or our log)
    def note(self, view: PartingView, env: log.Envelope, header: log.Header, now: float) -> list[Output]:
        """A goodbye, stop or decline, its signature checked: take it against its slot, or keep it for
        later."""
        seat, seq = header.seat, header.seq
        if seq > view.next_seq:
            return [Early(seat, seq, env.raw)]
        spot = self._slot_of(view, seq, header.prev)
        if spot is None:
            return [Report(Dropped(DropKind.STALE, seat, seq, signed=True))]
        try:
            m = self._read(view, env, header, spot)
        except RemoteError as exc:
            return [Report(Rejected(seat, exc.check, exc.detail, env.raw))]
        if isinstance(m, msg.Leave):
            return self._goodbye(view, spot, seat, env.raw)
        if isinstance(m, msg.Stop):
            return self._stop(view, spot, seat, env.raw, now)
        return self._decline(view, spot, seat, env.raw)

    def _read(self, view: PartingView, env: log.Envelope, header: log.Header, spot: Parting) -> msg.Message:
        seat = header.seat
        m = msg.decode(env.payload, seat, self.version)
        assert isinstance(m, msg.Leave | msg.Stop | msg.GoOn)
        check = Check.LEAVE if isinstance(m, msg.Leave) else Check.STOP
        if header.hand != spot.at.hand:
            why = Detail(N_("hand number {hand}, but slot {seq} is in hand {slot_hand}"), hand=header.hand,
                         seq=header.seq, slot_hand=spot.at.hand)
            raise RemoteError(check, why, seat)
        totals = view.totals_at(spot.seq) if isinstance(m, msg.Stop) else ()
        if isinstance(m, msg.Stop) and tuple(m.totals) != totals:
            why = Detail(N_("a stop at slot {seq} with the scores {signed}, but they are {totals} there"),
                         seq=spot.seq, signed=list(m.totals), totals=list(totals))
            raise RemoteError(check, why, seat)
        return m

    def _goodbye(self, view: PartingView, spot: Parting, seat: int, raw: bytes) -> list[Output]:
        if spot.goodbyes.get(seat) == raw:
            return []
        spot.goodbyes[seat] = raw
        out: list[Output] = [Note(spot.seq, raw, seat, msg.Leave.TYPE, seat == self.seat)]
        if self.latest.get(seat, -1) >= spot.seq:
            out += self._void(spot, seat)
        return out + self.judge(view, spot)

    def _void(self, spot: Parting, seat: int) -> list[Output]:
        """`seat` signed an entry for the slot of its goodbye or a later one: the goodbye is void, and named
        (an honest leaver signs nothing after it; a goodbye for a slot before its own entries changes
        nothing)."""
        spot.void.add(seat)
        why = Detail(N_("a goodbye at slot {seq}, but seat {seat} signed an entry for that slot or a later "
                        "one: it did not leave there, and the goodbye changes nothing"),
                     seq=spot.seq, seat=seat)
        return [Report(Rejected(seat, Check.LEAVE, why, spot.goodbyes[seat]))]

    def _stop(self, view: PartingView, spot: Parting, seat: int, raw: bytes, now: float) -> list[Output]:
        if spot.stops.get(seat) == raw:
            return []
        spot.stops[seat] = raw
        out: list[Output] = [Note(spot.seq, raw, seat, msg.Stop.TYPE, seat == self.seat)]
        if spot.proposer is None:
            spot.proposer = seat
            here = view.now()
            pause = (spot.at.hand, seat)
            current = here is not None and here.seq == spot.seq
            if current and not spot.declines and pause not in self.paused_by:
                spot.since = now
        return out + self.judge(view, spot)

    def _decline(self, view: PartingView, spot: Parting, seat: int, raw: bytes) -> list[Output]:
        if spot.declines.get(seat) == raw:
            return []
        spot.declines[seat] = raw
        out: list[Output] = [Note(spot.seq, raw, seat, msg.GoOn.TYPE, seat == self.seat)]
        if spot.since is not None and not spot.lapsed:
            spot.lapsed = True
            self._spent(spot)
            out.append(Lapse(spot, seat))
        return out

    def _spent(self, spot: Parting) -> None:
        """The proposal on `spot` paused us to no end: its proposer pauses nobody again in this hand."""
        if spot.proposer is not None:
            self.paused_by.add((spot.at.hand, spot.proposer))

    # ----------------------------------------------------------------- entries, our own notes, our clock
    def signed(self, seat: int, seq: int) -> list[Output]:
        """An entry validly signed by `seat` for slot `seq` was seen (on any branch): a goodbye of that seat
        for that slot or an earlier one is void."""
        if seq <= self.latest.get(seat, -1):
            return []
        self.latest[seat] = seq
        out: list[Output] = []
        for spot in self.spots.values():
            if seat in spot.goodbyes and seat not in spot.void and spot.seq <= seq:
                out += self._void(spot, seat)
                out += self._rejudge(spot)
        return out

    def behind(self, view: PartingView, parted: Parting | None, header: log.Header,
               raw: bytes) -> list[Output] | None:
        """A signed entry for a slot our chain holds, the players' word having ended the game at `parted`'s
        slot: one at or after that slot is stale, but the awaited entry of a slot whose stop ended the game
        voids the stop (the seat it waited for played on). None: it is not after such an ending (the judge of
        late entries, `late.competing`, has it)."""
        seat, seq = header.seat, header.seq
        if parted is None or seq < parted.seq:
            return None
        awaited = seat == parted.at.accused or parted.at.anyone
        stopped = parted.ended is not None and parted.ended[0] is Parted.STOPPED
        if seq == parted.seq and awaited and stopped and view.problem_of(raw, seq) is None:
            parted.ended = None
            return [Revive(parted, raw)]
        return [Known((raw,)), Report(Dropped(DropKind.STALE, seat, seq, signed=True))]

    def leave(self, view: PartingView) -> list[Output]:
        """Our goodbye, for the slot we wait for: it ends the game here at once."""
        at = view.now()
        if at is None or view.seat is None:
            return []
        raw = view.seal(msg.Leave(), at)
        spot = self._spot(at)
        return [Send(at.seq, raw), *self._goodbye(view, spot, view.seat, raw)]

    def stop(self, view: PartingView, now: float) -> list[Output]:
        """Our stop for the slot we wait for: a proposal, or our agreement to the one there."""
        at = view.now()
        if at is None or view.seat is None:
            return []
        spot = self._spot(at)
        if view.seat in spot.stops or view.seat in spot.declines:
            return []
        raw = view.seal(msg.Stop(view.totals_at(at.seq)), at)
        return [Send(at.seq, raw), *self._stop(view, spot, view.seat, raw, now)]

    def decline(self, view: PartingView) -> list[Output]:
        """Our decline of the proposal on the slot we wait for: the game goes on."""
        spot = self.current(view)
        if spot is None or view.seat is None or not spot.stops:
            return []
        if view.seat in spot.stops or view.seat in spot.declines:
            return []
        raw = view.seal(msg.GoOn(), spot.at)
        return [Send(spot.seq, raw), *self._decline(view, spot, view.seat, raw)]

    def tick(self, view: PartingView, now: float) -> list[Output]:
        """Our clock: the proposal that pauses us lapses once it has for `wait` seconds."""
        spot = self.current(view)
        if spot is None or spot.since is None or spot.lapsed or spot.ended is not None:
            return []
        if now - spot.since < self.wait:
            return []
        spot.lapsed = True
        self._spent(spot)
        return [Lapse(spot)]

    def moved(self, view: PartingView, now: float) -> list[Output]:
        """The chain grew past a slot whose proposal paused us (it reached a table only once it had passed
        that slot): the proposal lapsed there; if we signed it, we sign again for the slot we wait for now,
        as long as the scores there are the same: our agreement holds for the rest of the hand."""
        out: list[Output] = []
        here = view.now()
        for spot in list(self.spots.values()):
            if spot.since is None or spot.lapsed or spot.seq >= view.next_seq or spot.ended is not None:
                continue
            spot.lapsed = True
            out.append(Lapse(spot))
            if spot.proposer == spot.at.accused and not spot.at.anyone and view.answered(spot.seq):
                self._spent(spot)  # its proposer played through its own proposal
            same = here is not None and here.hand == spot.at.hand and not view.restoring
            if same and self.seat in spot.stops and view.totals_at(view.next_seq) == view.totals_at(spot.seq):
                out += self.stop(view, now)
        return out

    def pausing(self, view: PartingView) -> bool:
        """Whether a proposal to stop at the slot we wait for is open here: we write nothing for that slot and
        count no time against anyone, until it lapses."""
        spot = self.current(view)
        return spot is not None and spot.since is not None and not spot.lapsed and spot.ended is None

    def proposal(self, view: PartingView, now: float) -> Proposal | None:
        """The proposal to stop at the slot we wait for, as the screen shows it (None: there is none)."""
        spot = self.current(view)
        if spot is None or spot.proposer is None or spot.ended is not None:
            return None
        lapses = None
        if spot.since is not None and not spot.lapsed:
            lapses = max(0.0, spot.since + self.wait - now)
        agreed = (spot.proposer, *sorted(s for s in spot.stops if s != spot.proposer))
        return Proposal(spot.seq, spot.proposer, agreed, tuple(sorted(spot.declines)), lapses,
                        view.totals_at(spot.seq))

    def notes_now(self, view: PartingView) -> list[bytes]:
        """The notes of the slot we wait for: what a peer that comes back needs."""
        spot = self.current(view)
        return [] if spot is None else spot.notes()

    # ----------------------------------------------------------------- the standing, and its ending
    def judge(self, view: PartingView, spot: Parting) -> list[Output]:
        """The slot's ending, once its notes make one we have not applied yet."""
        now = standing(spot, self.seats, view.answered(spot.seq))
        if now is None or now == spot.ended:
            return []
        return [Part(spot, now[0], now[1])]

    def _rejudge(self, spot: Parting) -> list[Output]:
        """A goodbye in the ending we applied is void: take that ending back (the others of the slot, if any,
        are judged again by the table once it has)."""
        if spot.ended is None or spot.ended[0] is not Parted.LEFT or spot.ended[1] == spot.leavers:
            return []
        spot.ended = None
        return [Revive(spot)]

    def ending(self, view: PartingView, env: log.Envelope,
               header: log.Header) -> tuple[bool, list[bytes] | Report]:
        """A `left` or `stopped` entry from a peer: a bundle of notes nobody signs. The notes to take one by
        one (whether they make exactly these bytes, `parting_entry`, decides if it holds), or why it is
        dropped."""
        try:
            m = msg.decode(env.payload, None, self.version)
            assert isinstance(m, msg.Left | msg.Stopped)
        except RemoteError as exc:
            return False, Report(Dropped(DropKind.MALFORMED, header.seat, header.seq, detail=exc.detail))
        kind = msg.Leave.TYPE if isinstance(m, msg.Left) else msg.Stop.TYPE
        notes = m.goodbyes if isinstance(m, msg.Left) else m.stops
        for raw in notes:
            bad = note_fault(raw, header, (kind,), Detail(N_("a note of another slot or kind")))
            if bad is not None:
                return False, Report(bad)
        return True, list(notes)


def standing(spot: Parting, seats: int, answered: bool) -> tuple[Parted, tuple[int, ...]] | None:
    """How a slot ends by its notes, whatever their order: the goodbyes that hold (each leaver's side
    forfeits), else the stops of every seat while the awaited entry is not taken (nobody wins), else
    nothing."""
    leavers = spot.leavers
    if leavers:
        return Parted.LEFT, leavers
    if len(spot.stops) == seats and not answered:
        return Parted.STOPPED, ()
    return None


def result(rules: RuleSet, spot: Parting, kind: Parted, leavers: tuple[int, ...], totals: Sequence[int],
           scored: tuple[int, ...] | None) -> GameEnded:
    """How the game ends by `spot`'s notes (`totals`: the sides' scores at the slot; `scored`: the game's own
    winners at an `end` slot, where the result was decided before). A goodbye: each leaver's side forfeits,
    the other sides ranked by their totals (nobody wins if every side has a leaver, or under rule `on_fault`
    "void"). A stop: the scores stand, nobody wins."""
    winners = () if scored is None else scored
    if kind is Parted.STOPPED:
        return GameEnded(TableStatus.STOPPED, winners, at=spot.seq, signers=tuple(sorted(spot.stops)),
                         scored=scored is not None)
    if scored is None and rules.on_fault == "forfeit":
        losing = {rules.side_of(s) for s in leavers}
        others = [side for side in range(len(rules.sides)) if side not in losing]
        top = max((totals[side] for side in others), default=0)
        winners = tuple(side for side in others if totals[side] == top)
    return GameEnded(TableStatus.LEFT, winners, leavers[0], forfeit=bool(winners) and scored is None,
                     at=spot.seq, scored=scored is not None, leavers=leavers)


def parting_entry(game_id: bytes, spot: Parting, kind: Parted, seats: Sequence[int]) -> bytes:
    """The canonical bytes of a slot's ending by the players' word: every peer that holds the same notes makes
    the same entry. `s` is the seat the slot awaits, as in a certificate."""
    header = {"g": game_id, "n": spot.seq, "p": spot.prev, "s": spot.at.accused, "h": spot.at.hand}
    if kind is Parted.LEFT:
        body = msg.Left(tuple(spot.goodbyes[s] for s in seats)).to_fields()
    else:
        body = msg.Stopped(tuple(spot.stops[s] for s in sorted(spot.stops))).to_fields()
    return log.seal({**header, **body}, log.UNSIGNED)


__all__ = [
    "STOP_WAIT",
    "Lapse",
    "Part",
    "Parted",
    "Parting",
    "PartingView",
    "Partings",
    "Proposal",
    "Revive",
    "parting_entry",
    "result",
    "standing",
]
