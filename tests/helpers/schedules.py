"""A simulated network of table machines: schedules of delays, reorderings, duplicates and one faulty seat.

The in-memory `Wire` delivers in order and at once; this one gives every delivery its own delay, may deliver
a frame twice, and runs one clock that every table ticks on. One seat may be faulty:

- `stall`: from its k-th entry on, nothing it writes leaves its machine (its table goes on alone);
- `withhold`: the same, but what it held back is released later, to some seats, at a chosen moment;
- `crash`: at its k-th entry its machine dies (the entry may or may not have left), and after a while it is
  rebuilt from its own records, syncs with the others (gets what they hold), and only then writes again.

Everything here is deterministic given the `Faults` and the delay stream: hypothesis draws both.
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from p2pspades import crypto
from p2pspades.bots.random_bot import RandomBot
from p2pspades.rules import RuleSet
from p2pspades.table import Accepted, Event, Noted, SecretCreated, Table, Wanted
from p2pspades.table.harness import new_game, seeded_entropy

TIMEOUTS = {"auto": 10.0, "decision": 20.0}
TICK = 1.0


@dataclass(frozen=True)
class Faults:
    """What goes wrong, and when. `at` counts the faulty seat's own entries (1 = its first)."""

    seat: int
    kind: str  # "none", "stall", "withhold", "crash"
    at: int
    release_after: float = 0.0  # withhold: seconds after the hold began; crash: the downtime
    release_to: tuple[int, ...] = ()  # withhold: who gets what was held back (empty: everybody)
    sent: bool = False  # crash: whether the entry it died on had left


@dataclass(order=True)
class _Delivery:
    time: float
    order: int
    dest: int = field(compare=False)
    raw: bytes = field(compare=False)


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
        self.ids = [crypto.Identity.from_seed(hashlib.sha256(seed + bytes([i])).digest()) for i in range(n)]
        self.genesis = new_game(rules, self.ids, game_id=hashlib.sha256(seed).digest()[:16], version=version)
        self._entropy = [seeded_entropy(seed + b"entropy" + bytes([i])) for i in range(n)]
        self.secrets: list[dict[int, bytes]] = [{} for _ in range(n)]
        self.tables: list[Table | None] = [
            Table(self.genesis, self.ids[i], entropy=self._entropy[i], timeouts=TIMEOUTS) for i in range(n)
        ]
        self.bots = list(players) if players is not None else [RandomBot(i) for i in range(n)]
        self.now = 0.0
        self._queue: list[_Delivery] = []
        self._order = 0
        self._own = 0  # entries the faulty seat wrote so far
        self._holding = False
        self._held: list[bytes] = []
        self._hold_since = 0.0
        self._down_until: float | None = None
        self._sync_at: float | None = None
        self.records: list[list[bytes]] = [[] for _ in range(n)]  # what each table took, across a crash
        for seat in range(n):
            self._handle(seat, [])

    # ------------------------------------------------------------------ the network
    def _send(self, dest: int, raw: bytes, delay: float | None = None) -> None:
        when = self.now + (self.delays() if delay is None else delay)
        self._order += 1
        heapq.heappush(self._queue, _Delivery(when, self._order, dest, raw))
        if self.duplicate():
            self._order += 1
            heapq.heappush(self._queue, _Delivery(when + self.delays(), self._order, dest, raw))

    def _broadcast(self, sender: int, raw: bytes) -> None:
        for dest in range(len(self.tables)):
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
            elif isinstance(ev, Wanted):
                for other in self.tables:
                    if other is not None and other is not table:
                        for raw in other.records[-64:]:
                            self._send(seat, raw)
        for out in table.take_outgoing():
            self._outgoing(seat, out.raw)
        self.records[seat] = list(table.records)

    def _outgoing(self, seat: int, raw: bytes) -> None:
        f = self.faults
        if seat != f.seat or f.kind == "none":
            self._broadcast(seat, raw)
            return
        self._own += 1
        if f.kind in ("stall", "withhold") and (self._holding or self._own >= f.at):
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

    # ------------------------------------------------------------------ the faulty seat's comeback
    def _faults_step(self) -> None:
        f = self.faults
        if f.kind == "withhold" and self._holding and self.now >= self._hold_since + f.release_after:
            to = f.release_to or tuple(s for s in range(len(self.tables)) if s != f.seat)
            for raw in self._held:
                for dest in to:
                    self._send(dest, raw)
            self._held, self._holding = [], False
            self.faults = Faults(f.seat, "none", 0)
        if f.kind == "crash" and self._down_until is not None and self.now >= self._down_until:
            self._down_until = None
            seat = f.seat
            table = Table(
                self.genesis, self.ids[seat], entropy=self._entropy[seat], secrets=self.secrets[seat],
                entries=self.records[seat], timeouts=TIMEOUTS, now=self.now, checked=True, syncing=True,
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
        if self._holding and self.faults.kind == "withhold":
            due.append(self._hold_since + self.faults.release_after)
        return due

    def _waiting(self) -> bool:
        release = self._holding and self.faults.kind == "withhold"
        return release or self._down_until is not None or self._sync_at is not None

    def run(self, horizon: float = 4000.0, max_steps: int = 400_000) -> None:
        """Run until every table is finished and nothing is in flight, or the clock reaches `horizon`."""
        steps = 0
        while self.now <= horizon and steps < max_steps:
            steps += 1
            self._faults_step()
            if self._queue and self._queue[0].time <= self.now:
                d = heapq.heappop(self._queue)
                table = self.tables[d.dest]
                if table is not None:
                    self._handle(d.dest, table.receive(d.raw, self.now))
                continue
            if self._decide():
                continue
            settled = not self._queue and not self._waiting() and all(t is not None for t in self.tables)
            if settled and all(t.finished for _, t in self._live()):
                return
            times = [self.now + TICK, *(d for d in self._due() if d > self.now)]
            if self._queue:
                times.append(self._queue[0].time)
            self.now = max(self.now + 0.001, min(times))
            for seat, table in list(self._live()):
                self._handle(seat, table.tick(self.now))
        raise AssertionError(f"the schedule did not settle: {steps} steps, clock {self.now:.0f}")
