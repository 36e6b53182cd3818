"""A simulated network of table machines: schedules of delays, reorderings, duplicates, clock jumps, and one
faulty seat (with, for some attacks, an accomplice).

The in-memory `Wire` delivers in order and at once; this one gives every delivery its own delay, may deliver
a frame twice, and runs one clock that every table ticks on. Every table forwards to the others what it takes
(entries, claims' notes, answers it holds back), as the real peer does, sends the evidence of a fault it
finds to every other table once, and gets what it asks for. A table
is told to treat a gap in its clock as a pause (`Table(pause=...)`), as the peer tells it.

The faulty seat (`Faults.kind`):

- `stall`: from its k-th entry on, nothing it writes leaves its machine (its table goes on alone);
- `withhold`: the same, but what it held back is released later, to some seats, at a chosen moment;
- `crash`: at its k-th entry its machine dies (the entry may or may not have left), and after a while it is
  rebuilt from its own records, syncs with the others (gets what they hold), and only then writes again;
- `twins`: it withholds from its k-th entry and, when it releases, gives the seats of `release_to` its entry
  and the others a second one for the same slot, signed too (two late answers);
- `split`: once it wrote k entries, it votes the moment another seat is awaited, sends the vote to the seats
  of `release_to`, and to the others a refusal carrying the answer it holds back (a vote and a refusal for
  one slot);
- `phantom`: its accomplice (`also`) walks out at its k-th entry; whenever it sees a vote against that
  seat it refuses it, carrying an entry that is not the accomplice's (a phantom refusal);
- `colluder`: its accomplice (`also`) walks out at its k-th entry, and it never votes;
- `junk`: at its k-th entry it also sends votes, signed, for 40 slots ahead;
- `impatient`: once it wrote k entries, it votes the moment another seat is awaited (once);
- `late-vote`: once its table has the game complete, it (and its accomplice `also`, if any) signs a vote
  against a winner's first bid;
- `jump`: at its k-th entry every clock jumps `release_after` seconds ahead (a machine that slept);
- `jump-one`: at its k-th entry its own clock jumps `release_after` seconds ahead (honest, but early);
- `hold-lead`: under rule `low_club`, the seat holding the lowest club never leads it (`seat` is ignored:
  the holder is found at the lead), and every clock jumps `release_after` seconds ahead as that begins. If
  the holder is the seat at the dealer's left, nobody challenges: the others' certificate against it is
  provisional, and its own table is left waiting for its lead once the others have ended.

The players' own word (PROTOCOL.md §5.10, §5.11), honest every one:

- `leave`: once it wrote k entries, the faulty seat says goodbye (at once);
- `leave-late`: from its k-th entry its player decides nothing more, and `release_after` seconds later it
  says goodbye: a goodbye that may cross the others' votes against it, or their certificate;
- `stop`: once it wrote k entries, it proposes to stop, and every table agrees as soon as it sees a proposal
  for the slot it waits for (as a bot's peer does);
- `stop-some`: the same, but only it and its accomplice (`also`) agree: the proposal lapses.

Everything here is deterministic given the `Faults` and the delay stream: hypothesis draws both.
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from p2pspades import crypto, log
from p2pspades.bots.random_bot import RandomBot
from p2pspades.rules import RuleSet
from p2pspades.table import Accepted, Event, Noted, SecretCreated, Table, TableStatus, Violation, Wanted
from p2pspades.table.harness import new_game, seeded_entropy
from p2pspades.table.makers import Makers, MakerView
from p2pspades.table.stages import Step

TIMEOUTS = {"auto": 10.0, "decision": 20.0, "stop": 30.0}
TICK = 1.0
PAUSE = 3.0
"""A gap in a table's clock longer than this is a pause (the peer uses a few of its ticks)."""

ATTACKS = ("twins", "split", "phantom", "colluder", "junk", "impatient", "late-vote", "jump", "jump-one",
           "hold-lead")
PARTINGS = ("leave", "leave-late", "stop", "stop-some")


@dataclass(frozen=True)
class Faults:
    """What goes wrong, and when. `at` counts the faulty seat's own entries (1 = its first)."""

    seat: int
    kind: str
    at: int
    release_after: float = 0.0  # withhold, twins: seconds after the hold began; crash: the downtime; jumps
    release_to: tuple[int, ...] = ()  # withhold, twins, split: who gets what (empty: everybody)
    sent: bool = False  # crash: whether the entry it died on had left
    also: int | None = None  # an accomplice: phantom, colluder, late-vote


@dataclass(order=True)
class _Delivery:
    time: float
    order: int
    dest: int = field(compare=False)
    raw: bytes = field(compare=False)


class OnceImpatient(Makers):
    """Once it wrote `after` entries, it votes against the next seat it waits for the moment that seat is
    awaited, once; otherwise it waits as the honest peer does."""

    def __init__(self, after: int) -> None:
        self.after, self.slot = after, -1
        self.table: Table | None = None  # the table it plays for (what it counts is no maker's business)

    def limit(self, view: MakerView, step: Step) -> float:
        table = self.table
        if table is None:
            return super().limit(view, step)
        mine = sum(1 for s in table.chain.signers if s == table.seat)
        if self.slot < 0 and mine >= self.after:
            self.slot = table.chain.next_seq
        claim = table.claims.slots.get((table.chain.next_seq, table.head))
        voted = claim is not None and table.seat in claim.votes
        if self.slot == table.chain.next_seq and not voted:
            return 0.0
        return super().limit(view, step)


class Stonewall(Table):
    """A colluder: it never votes on a claim (nor stalls)."""

    def tick(self, now: float) -> list[Event]:
        return []


class Schedule:
    """N tables, one clock, a delay for every delivery (from `delays`, seconds), and `faults`."""

    def __init__(
        self,
        rules: RuleSet,
        faults: Faults,
        delays: Callable[[], float],
        duplicate: Callable[[], bool],
        *,
        seed: bytes = b"schedule",
        version: int = 1,
        players: Sequence[Callable[..., object] | None] | None = None,
    ) -> None:
        n = rules.players
        self.rules, self.faults, self.delays, self.duplicate = rules, faults, delays, duplicate
        #: the faults as drawn (`faults` moves on as they play out: a release, a comeback)
        self.drawn = faults
        self.ids = [crypto.Identity.from_seed(hashlib.sha256(seed + bytes([i])).digest()) for i in range(n)]
        self.genesis = new_game(rules, self.ids, game_id=hashlib.sha256(seed).digest()[:16], version=version)
        self._entropy = [seeded_entropy(seed + b"entropy" + bytes([i])) for i in range(n)]
        self.secrets: list[dict[int, bytes]] = [{} for _ in range(n)]
        self.tables: list[Table | None] = [self._table(i) for i in range(n)]
        self.bots: list[Callable[..., object] | None] = (
            list(players) if players is not None else [RandomBot(i) for i in range(n)]
        )
        self.now = 0.0
        self.offsets = [0.0] * n  # a clock of its own that jumped ahead
        self._queue: list[_Delivery] = []
        self._order = 0
        self._own = 0  # entries the faulty seat wrote so far
        self._holding = False
        self._held: list[bytes] = []
        self._hold_since = 0.0
        self._down_until: float | None = None
        self._sync_at: float | None = None
        self._done: set[str] = set()  # the one-off attacks made
        self._evidence: set[tuple[int, bytes]] = set()  # (seat, frame) of the evidence sent
        self._asked: dict[tuple[int, int], float] = {}  # (seat, first entry) -> when it last asked
        self.records: list[list[bytes]] = [[] for _ in range(n)]  # what each table took, across a crash
        for seat in range(n):
            self._handle(seat, [])

    @property
    def cheaters(self) -> set[int]:
        """The faulty seat and its accomplice (for `hold-lead`, the holder found at the lead)."""
        f = self.drawn
        return {f.seat} | ({f.also} if f.also is not None else set())

    def _table(self, seat: int) -> Table:
        f = self.faults
        kind: type[Table] = Table
        makers: Makers | None = None
        if seat == f.seat and f.kind in ("split", "impatient"):
            makers = OnceImpatient(f.at)
        if seat == f.seat and f.kind == "colluder":
            kind = Stonewall
        table = kind(self.genesis, self.ids[seat], entropy=self._entropy[seat], timeouts=TIMEOUTS,
                     makers=makers, pause=PAUSE)
        if isinstance(makers, OnceImpatient):
            makers.table = table
        return table

    def clock(self, seat: int) -> float:
        return self.now + self.offsets[seat]

    # ------------------------------------------------------------------ the network
    def _send(self, dest: int, raw: bytes, delay: float | None = None) -> None:
        when = self.now + (self.delays() if delay is None else delay)
        self._order += 1
        heapq.heappush(self._queue, _Delivery(when, self._order, dest, raw))
        if self.duplicate():
            self._order += 1
            heapq.heappush(self._queue, _Delivery(when + self.delays(), self._order, dest, raw))

    def _broadcast(self, sender: int, raw: bytes, to: Sequence[int] | None = None) -> None:
        for dest in range(len(self.tables)) if to is None else to:
            if dest != sender:
                self._send(dest, raw)

    def _handle(self, seat: int, events: list[Event]) -> None:
        table = self.tables[seat]
        assert table is not None
        for ev in events:
            if isinstance(ev, SecretCreated):
                self.secrets[seat][ev.hand] = ev.seed
            elif isinstance(ev, Accepted | Noted) and not ev.own:
                self._broadcast(seat, ev.raw)  # peers forward what they take
                self._saw(seat, ev)
                if isinstance(ev, Noted) and ev.type == "stop" and self._agrees(seat):
                    proposal = table.stop_proposal()
                    if proposal is not None and proposal.open and seat not in proposal.agreed:
                        self._handle(seat, table.stop_here())
            elif isinstance(ev, Wanted):
                self._want(seat, ev)
            elif isinstance(ev, Violation) and ev.halts:
                self._spread(seat, ev)
        for out in table.take_outgoing():
            self._outgoing(seat, out.raw)
        self.records[seat] = list(table.records)
        self._after(seat, table)

    def _want(self, seat: int, ev: Wanted) -> None:
        """What `seat` misses, asked at most once a second (as the peer does): every other table's last 64
        records."""
        if self.now - self._asked.get((seat, ev.first), -9.0) < 1.0:
            return
        self._asked[(seat, ev.first)] = self.now
        table = self.tables[seat]
        for other in self.tables:
            if other is not None and other is not table:
                for raw in other.records[-64:]:
                    self._send(seat, raw)

    def _spread(self, seat: int, ev: Violation) -> None:
        """A halting violation's evidence, to every peer once (as the peer)."""
        for raw in ev.evidence:
            for dest in range(len(self.tables)):
                if dest != seat and (dest, raw) not in self._evidence:
                    self._evidence.add((dest, raw))
                    self._send(dest, raw)

    def _agrees(self, seat: int) -> bool:
        """Whether `seat` agrees to a proposal to stop: every seat (`stop`), or the proposer's ally alone."""
        f = self.drawn
        return f.kind == "stop" or (f.kind == "stop-some" and seat in (f.seat, f.also))

    def _outgoing(self, seat: int, raw: bytes) -> None:
        f = self.faults
        walker = f.also if f.kind in ("phantom", "colluder") else f.seat  # the seat whose frames go astray
        if f.kind == "split" and seat == f.seat and _type(raw) == "abandon":
            self._broadcast(seat, raw, f.release_to)  # the vote to some; the refusal to the others, later
            return
        if seat != walker or f.kind in ("none", "split", "impatient", "late-vote", "hold-lead"):
            self._broadcast(seat, raw)
            return
        if f.kind in PARTINGS:
            self._broadcast(seat, raw)
            self._parting(seat, raw)
            return
        self._own += 1
        self._faulty_entry(seat, raw)

    def _faulty_entry(self, seat: int, raw: bytes) -> None:
        """The faulty seat's (or its walking-out accomplice's) own `_own`-th entry."""
        f = self.faults
        holding = f.kind in ("stall", "withhold", "twins", "phantom", "colluder")
        if holding and (self._holding or self._own >= f.at):
            if not self._holding:
                self._holding, self._hold_since = True, self.now
            self._held.append(raw)
            return
        if f.kind == "crash" and self._own == f.at and self._down_until is None:
            if f.sent:
                self._broadcast(seat, raw)
            self.tables[seat] = None  # dies here: what it had not sent is lost, its records are on disk
            self._down_until = self.now + f.release_after
            return
        self._broadcast(seat, raw)
        if self._own == f.at and f.kind == "junk":
            self._junk(seat, raw)
        if self._own == f.at and f.kind == "jump":
            self.now += f.release_after
        if self._own == f.at and f.kind == "jump-one":
            self.offsets[seat] += f.release_after

    def _parting(self, seat: int, raw: bytes) -> None:
        """The faulty seat's own entry `raw` went out: at its k-th, it leaves, proposes to stop, or stops
        deciding (and leaves later)."""
        f = self.faults
        if _type(raw) in ("leave", "stop", "go", "abandon", "answered", "stall"):
            return  # its notes are no entries of its own
        self._own += 1
        if self._own != f.at:
            return
        table = self.tables[seat]
        assert table is not None
        if f.kind == "leave":
            self._handle(seat, table.leave())
        elif f.kind == "leave-late":
            self.bots[seat] = None  # its player walked away from the screen
            self._holding, self._hold_since = True, self.now
        else:
            self._handle(seat, table.stop_here())

    # ------------------------------------------------------------------ the attacks' signed statements
    def _sign(self, seat: int, payload: dict[str, Any]) -> bytes:
        return log.seal(payload, self.ids[seat])

    def _saw(self, seat: int, ev: Accepted | Noted) -> None:
        """What the cheater does on seeing a frame: refuse a vote against its accomplice with a phantom
        (split: refuse the slot it voted on with the answer it holds)."""
        f = self.faults
        if seat != f.seat or not isinstance(ev, Noted):
            return
        fields = log.open_envelope(ev.raw).payload
        if f.kind == "phantom" and ev.type == "abandon" and fields["a"] == f.also:
            header = {k: fields[k] for k in ("g", "n", "p", "h")}
            phantom = self._sign(seat, {**header, "s": seat, "t": "bid", "b": 1})  # its own: not the answer
            self._broadcast(seat, self._sign(seat, {**header, "s": seat, "t": "answered", "a": f.also,
                                                    "e": phantom}))
        answer = ev.type not in ("abandon", "answered", "stall")
        if f.kind == "split" and answer and "split" not in self._done:
            # an answer it holds (it voted): a refusal carrying it, to the seats that did not get its vote
            self._done.add("split")
            header = {k: fields[k] for k in ("g", "n", "p", "h")}
            refusal = self._sign(seat, {**header, "s": seat, "t": "answered", "a": fields["s"], "e": ev.raw})
            others = [d for d in range(len(self.tables)) if d not in f.release_to]
            self._broadcast(seat, refusal, others)

    def _junk(self, seat: int, raw: bytes) -> None:
        """Signed votes for the next 40 slots but one, against every other seat in turn, to everyone."""
        fields = log.open_envelope(raw).payload
        others = [s for s in range(len(self.tables)) if s != seat]
        for k in range(2, 42):
            payload = {"g": fields["g"], "n": fields["n"] + k, "p": hashlib.sha256(bytes([k])).digest(),
                       "s": seat, "h": fields["h"], "t": "abandon", "a": others[k % len(others)], "w": 20}
            self._broadcast(seat, self._sign(seat, payload))

    def _after(self, seat: int, table: Table) -> None:
        """Attacks that wait for a state: a vote after the end; the low club never led."""
        f = self.faults
        complete = seat == f.seat and table.status is TableStatus.COMPLETE
        if f.kind == "late-vote" and complete and "late-vote" not in self._done:
            self._done.add("late-vote")
            self._late_votes(table)
        if f.kind == "hold-lead" and "hold-lead" not in self._done and table.waiting_for() == (-1, "play"):
            live = [(s, t) for s, t in enumerate(self.tables) if t is not None]
            holder = next((s for s, t in live if t.pending_decision()), None)
            if holder is not None:
                self._done.add("hold-lead")
                self.bots[holder] = None  # it never leads
                self.faults = self.drawn = Faults(holder, "hold-lead", f.at, f.release_after)
                self.now += f.release_after

    def _late_votes(self, table: Table) -> None:
        """The game is complete: every loser among the cheaters votes that a winner never made its first
        bid."""
        assert table.result is not None
        winner = next(s for s in range(table.seats) if table.rules.side_of(s) in table.result.winners)
        bids = [(n, log.open_envelope(raw).payload) for n, raw in enumerate(table.entries)]
        n, fields = next((n, p) for n, p in bids if p["t"] == "bid" and p["s"] == winner)
        prev = log.entry_hash(table.entries[n - 1])
        for voter in sorted(self.cheaters - {winner}):
            vote = {"g": fields["g"], "n": n, "p": prev, "s": voter, "h": fields["h"], "t": "abandon",
                    "a": winner, "w": 20}
            self._broadcast(voter, self._sign(voter, vote))

    # ------------------------------------------------------------------ the faulty seat's comeback
    def _faults_step(self) -> None:
        f = self.faults
        due = self._hold_since + f.release_after
        if f.kind in ("withhold", "twins") and self._holding and self.now >= due:
            self._release()
        if f.kind == "leave-late" and self._holding and self.now >= due:
            self._holding = False
            table = self.tables[f.seat]
            assert table is not None
            self._handle(f.seat, table.leave())  # it comes back to its screen, and leaves
        if f.kind == "crash" and self._down_until is not None and self.now >= self._down_until:
            self._down_until = None
            seat = f.seat
            table = Table(
                self.genesis, self.ids[seat], entropy=self._entropy[seat], secrets=self.secrets[seat],
                entries=self.records[seat], timeouts=TIMEOUTS, now=self.clock(seat), checked=True,
                syncing=True, pause=PAUSE,
            )
            self.tables[seat] = table
            latest = 0.0
            for other in self.tables:  # HELLO and GET: everything the others hold reaches it
                if other is not None and other is not table:
                    for raw in other.records:
                        delay = self.delays()
                        latest = max(latest, delay)
                        self._send(seat, raw, delay)
            self._sync_at = self.now + latest + 0.001
            self.faults = Faults(f.seat, "none", 0)
        if self._sync_at is not None and self.now >= self._sync_at:
            self._sync_at = None
            back = self.tables[f.seat]
            assert back is not None
            self._handle(f.seat, back.synced())

    def _release(self) -> None:
        f = self.faults
        to = f.release_to or tuple(s for s in range(len(self.tables)) if s != f.seat)
        for i, raw in enumerate(self._held):
            for dest in to:
                self._send(dest, raw)
            if f.kind == "twins" and i == 0:
                others = [s for s in range(len(self.tables)) if s not in to and s != f.seat]
                twin = _twin(raw, self.ids[f.seat])
                for dest in others:
                    self._send(dest, twin)
        self._held, self._holding = [], False
        self.faults = Faults(f.seat, "none", 0, also=f.also)

    # ------------------------------------------------------------------ running
    def _live(self) -> Iterator[tuple[int, Table]]:
        for seat, table in enumerate(self.tables):
            if table is not None:
                yield seat, table

    def _decide(self) -> bool:
        for seat, table in self._live():
            decision = table.pending_decision()
            bot = self.bots[seat]
            if decision is not None and bot is not None:
                self._handle(seat, table.decide(bot(decision)))  # type: ignore[arg-type]
                return True
        return False

    def _due(self) -> list[float]:
        """When the faulty seat next does something by itself (a release, a comeback, the end of its sync)."""
        due = [t for t in (self._down_until, self._sync_at) if t is not None]
        if self._holding and self.faults.kind in ("withhold", "twins", "leave-late"):
            due.append(self._hold_since + self.faults.release_after)
        return due

    def _waiting(self) -> bool:
        release = self._holding and self.faults.kind in ("withhold", "twins", "leave-late")
        return release or self._down_until is not None or self._sync_at is not None

    def _left_to_its_player(self, seat: int, table: Table) -> bool:
        """A table that waits for nothing but its player, who stopped playing (`hold-lead`, or no bot given):
        the accused's own table does not apply a provisional ending against itself (PROTOCOL.md §5.5), so
        while the others have ended, it leaves its player the answer, for as long as it takes."""
        return self.bots[seat] is None and table.pending_decision() is not None

    def run(self, horizon: float = 6000.0, max_steps: int = 600_000) -> None:
        """Run until every table is finished (or left to a player who stopped playing) and nothing is in
        flight, or the clock reaches `horizon`. A finished table still takes what comes (evidence that moves
        its ending), as a lingering peer does."""
        steps = 0
        while self.now <= horizon and steps < max_steps:
            steps += 1
            self._faults_step()
            if self._queue and self._queue[0].time <= self.now:
                d = heapq.heappop(self._queue)
                table = self.tables[d.dest]
                if table is not None:
                    self._handle(d.dest, table.receive(d.raw, self.clock(d.dest)))
                continue
            if self._decide():
                continue
            settled = not self._queue and not self._waiting() and all(t is not None for t in self.tables)
            if settled and all(t.finished or self._left_to_its_player(s, t) for s, t in self._live()):
                return
            times = [self.now + TICK, *(d for d in self._due() if d > self.now)]
            if self._queue:
                times.append(self._queue[0].time)
            self.now = max(self.now + 0.001, min(times))
            for seat, table in list(self._live()):
                self._handle(seat, table.tick(self.clock(seat)))
        raise AssertionError(f"the schedule did not settle: {steps} steps, clock {self.now:.0f}")


def _type(raw: bytes) -> str:
    return str(log.open_envelope(raw).payload.get("t"))


def _twin(raw: bytes, identity: crypto.Identity) -> bytes:
    """Another entry for the same slot, signed by the same seat: a bid of one more (or less), a draw the
    other way, or one bit of a key or point flipped (an entry the rules refuse, still its signature)."""
    fields = dict(log.open_envelope(raw).payload)
    if "b" in fields and not isinstance(fields["b"], bool):
        fields["b"] = fields["b"] + 1 if fields["b"] < 3 else fields["b"] - 1
    elif isinstance(fields.get("b"), bool) or ("x" in fields and isinstance(fields["x"], bool)):
        key = "b" if isinstance(fields.get("b"), bool) else "x"
        fields[key] = not fields[key]
    elif any(k in fields for k in ("k", "r", "c", "d")):
        key = next(k for k in ("k", "r", "c", "d") if k in fields)
        value = fields[key]
        if isinstance(value, list):
            value = [bytes([value[0][0] ^ 1]) + value[0][1:], *value[1:]]
        else:
            value = bytes([value[0] ^ 1]) + value[1:]
        fields[key] = value
    else:  # an entry with nothing to change (an `accept`): another hand number, a fault of its own
        fields["h"] += 1
    return log.seal(fields, identity)
