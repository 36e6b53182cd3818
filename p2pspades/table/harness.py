"""In-memory wiring of N table machines: a whole game with no sockets.

Every entry a table sends is delivered to every other table, and every entry (and claim's note) a table
accepts is forwarded to the others, as the ZeroMQ peers do; that is what makes equivocation visible. A table
that says it lacks entries (`Wanted`) gets them from the others. Tests use this to run games and attacks
quickly; the same games run over ZeroMQ in `p2pspades.net`.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from p2pspades import crypto
from p2pspades.errors import LocalError
from p2pspades.rules import Action, RuleSet
from p2pspades.table.events import Accepted, Decision, Event, Noted, Wanted
from p2pspades.table.genesis import After, make_genesis
from p2pspades.table.machine import Table
from p2pspades.table.messages import PROTOCOL_VERSION
from p2pspades.table.players import Player

SEAT_NAMES = ("South", "West", "North", "East", "Centre", "Seat 5", "Seat 6", "Seat 7")
"""Default names by seat, clockwise from seat 0 (South): in a four-player game a seat's name says where it
sits, partners opposite (North and South), as seat 0's game screen places them."""

__all__ = ["SEAT_NAMES", "Player", "Wire", "new_game", "new_tables", "play_in_memory", "seeded_entropy"]


def seeded_entropy(seed: bytes) -> Callable[[int], bytes]:
    """A deterministic entropy source for tests and known-answer vectors (never for real games)."""
    counter = 0

    def entropy(n: int) -> bytes:
        nonlocal counter
        counter += 1
        return hashlib.shake_256(seed + counter.to_bytes(8, "big")).digest(n)

    return entropy


def new_game(
    rules: RuleSet,
    identities: Sequence[crypto.Identity],
    names: Sequence[str] | None = None,
    game_id: bytes | None = None,
    table_name: str = "in-memory table",
    version: int = PROTOCOL_VERSION,
    after: After | None = None,
) -> bytes:
    """The genesis for a table of these identities (seat 0 hosts), in protocol `version`, following the
    game `after` names (if any)."""
    names = list(names or [f"Seat {i}" for i in range(len(identities))])
    gid = game_id if game_id is not None else crypto.new_seed()[:16]
    return make_genesis(
        gid,
        rules,
        list(zip(names, (i.public for i in identities), strict=True)),
        identities[0],
        table_name,
        version,
        after,
    )


@dataclass
class Wire:
    """The in-memory network between tables, with a log of every event each table reported."""

    tables: list[Table]
    players: list[Player | None]
    events: list[list[Event]] = field(default_factory=list)
    now: float = 0.0
    #: a hook for attack tests: (sender seat, raw) -> list of (destination seat, raw) to deliver instead
    tamper: Callable[[int, bytes], list[tuple[int, bytes]]] | None = None
    #: called with (seat, events) after each batch of events a table reports (a UI, a log writer)
    on_events: Callable[[int, list[Event]], None] | None = None

    def __post_init__(self) -> None:
        self.events = [[] for _ in self.tables]
        self._queue: deque[tuple[int, bytes]] = deque()
        self._served: set[tuple[int, int, int]] = set()

    def _record(self, seat: int, events: list[Event]) -> None:
        self.events[seat].extend(events)
        table = self.tables[seat]
        for ev in events:
            if isinstance(ev, Accepted | Noted) and not ev.own:
                self._broadcast(seat, ev.raw, forward=True)  # peers forward what they take, notes too
            elif isinstance(ev, Wanted) and (seat, ev.first, len(table.entries)) not in self._served:
                # answer each request once, as the ZeroMQ peers cap the GETs they answer
                self._served.add((seat, ev.first, len(table.entries)))
                for other in self.tables:
                    if other is not table:
                        for raw in other.entries[ev.first : ev.first + 64]:
                            self._queue.append((seat, raw))
        for out in table.take_outgoing():
            self._broadcast(seat, out.raw, forward=False)
        if self.on_events is not None:
            self.on_events(seat, events)

    def _broadcast(self, sender: int, raw: bytes, forward: bool) -> None:
        if self.tamper is not None and not forward:
            for dest, data in self.tamper(sender, raw):
                self._queue.append((dest, data))
            return
        for dest in range(len(self.tables)):
            if dest != sender:
                self._queue.append((dest, raw))

    def start(self) -> None:
        """Send what the tables wrote before anything was delivered (the host's first entries)."""
        for seat in range(len(self.tables)):
            self._record(seat, [])

    def deliver(self) -> bool:
        """Deliver one queued entry. False if none is queued."""
        if not self._queue:
            return False
        dest, raw = self._queue.popleft()
        self._record(dest, self.tables[dest].receive(raw, self.now))
        return True

    def next_decision(self) -> tuple[int, Decision] | None:
        """The first seat with a player whose decision is pending, and that decision."""
        for seat, table in enumerate(self.tables):
            decision = table.pending_decision()
            if decision is not None and self.players[seat] is not None:
                return seat, decision
        return None

    def decide(self, seat: int, action: Action) -> None:
        """Give seat `seat`'s table its player's answer, and send what it writes."""
        self._record(seat, self.tables[seat].decide(action))

    def step(self) -> bool:
        """Deliver one queued entry, or let one player decide. False when nothing can happen any more."""
        if self.deliver():
            return True
        pending = self.next_decision()
        if pending is None:
            return False
        seat, decision = pending
        player = self.players[seat]
        assert player is not None
        self.decide(seat, player(decision))
        return True

    def run(self, max_steps: int = 2_000_000) -> int:
        """Run until nothing more happens. Returns the number of steps taken."""
        self.start()
        steps = 0
        while self.step():
            steps += 1
            if steps >= max_steps:
                raise LocalError(f"the in-memory game did not settle within {max_steps} steps")
        return steps

    def advance_time(self, seconds: float) -> None:
        """Let the clock run (for timeout tests) and give every table a tick."""
        self.now += seconds
        for seat, table in enumerate(self.tables):
            self._record(seat, table.tick(self.now))


def play_in_memory(
    rules: RuleSet,
    players: Sequence[Player],
    *,
    seed: bytes | None = None,
    names: Sequence[str] | None = None,
    version: int = PROTOCOL_VERSION,
) -> Wire:
    """Play a whole game in memory. With `seed`, identities and entropy are reproducible (tests, vectors)."""
    if len(players) != rules.players:
        raise LocalError(f"{rules.players} players needed, {len(players)} given")
    wire = Wire(new_tables(rules, seed=seed, names=names, version=version), list(players))
    wire.run()
    return wire


def new_tables(
    rules: RuleSet,
    *,
    seed: bytes | None = None,
    names: Sequence[str] | None = None,
    table_name: str = "in-memory table",
    version: int = PROTOCOL_VERSION,
    after: After | None = None,
) -> list[Table]:
    """One table per seat of a new game (following the game `after` names, if any). Fresh keys and entropy,
    or with `seed` reproducible ones (tests, vectors, a game replayed from its seed)."""
    n = rules.players
    if seed is None:
        identities = [crypto.Identity.generate() for _ in range(n)]
        entropies = [seeded_entropy(crypto.new_seed()) for _ in range(n)]
        gid = None
    else:
        identities = [crypto.Identity.from_seed(hashlib.sha256(seed + bytes([i])).digest()) for i in range(n)]
        entropies = [seeded_entropy(seed + b"entropy" + bytes([i])) for i in range(n)]
        gid = hashlib.sha256(seed + b"game").digest()[:16]
    genesis = new_game(rules, identities, names, gid, table_name, version, after)
    return [Table(genesis, identities[i], entropy=entropies[i]) for i in range(n)]
