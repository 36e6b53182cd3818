"""The two transports the table protocol's conformance suite runs on (no tests here).

`memory` wires the table machines together in this process (`p2pspades.table.harness`); `zeromq` gives each
seat a whole peer (`p2pspades.net.Peer`: its own CURVE mesh on 127.0.0.1, its own game directory and log)
and runs them in one event loop. Both offer the same small interface, `Run`, so one test body checks both:

- `until_decision(test)`: play until some seat is asked for a decision that passes `test`, and hold it there;
  every other seat has then done all it can (the table is quiet), and that seat's table waits for it;
- `inject(dest, sender, raw)`: hand bytes to `dest`'s table as if `sender` had forwarded them;
- `crash(seat)` / `restore(seat)`: the seat's peer stops (it misses whatever is sent meanwhile) and is later
  rebuilt from its log and saved hand secrets;
- `play()`: release any held decision and play on until every live seat's table is finished.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from helpers.net import FAST
from p2pspades import crypto
from p2pspades.bots import RandomBot
from p2pspades.errors import LocalError
from p2pspades.net import (
    Entries,
    GameStore,
    Mesh,
    Peer,
    PeerAddress,
    PeersFile,
    SeatRecord,
    resume_game,
    transport_keys,
)
from p2pspades.rules import Action, RuleSet
from p2pspades.table import Decision, Event, SecretCreated, Table
from p2pspades.table.harness import Wire, new_game, seeded_entropy

WAIT = 60.0
"""Generous upper bound for a whole game on loopback; tests never assert on speed."""

Entropy = Callable[[int], bytes]
TableMaker = Callable[[int, bytes, crypto.Identity, Entropy, float], Table]
"""(seat, genesis, identity, entropy, now) -> that seat's table, its clock starting at `now`."""
Test = Callable[[Decision], bool]


def honest_table(seat: int, genesis: bytes, identity: crypto.Identity, entropy: Entropy, now: float) -> Table:
    return Table(genesis, identity, entropy=entropy, now=now)


class Run(Protocol):
    tables: list[Table]
    events: list[list[Event]]

    def entries_of(self, seat: int) -> list[bytes]: ...
    async def until_decision(self, test: Test) -> int: ...
    async def inject(self, dest: int, sender: int, raw: bytes) -> None: ...
    async def settle(self) -> None: ...
    async def advance(self) -> None: ...
    async def crash(self, seat: int) -> None: ...
    async def restore(self, seat: int) -> None: ...
    async def play(self, seats: Sequence[int] | None = None) -> None: ...
    async def close(self) -> None: ...


class Game:
    """What both transports start from: seeded identities and entropy, one genesis, a table per seat."""

    def __init__(self, rules: RuleSet, seed: bytes, make: TableMaker = honest_table) -> None:
        n = rules.players
        self.rules = rules
        self.seed = seed
        self.make = make
        self.identities = [crypto.Identity.from_seed(hashlib.sha256(seed + bytes([i])).digest())
                           for i in range(n)]
        self.genesis = new_game(rules, self.identities, game_id=hashlib.sha256(seed + b"game").digest()[:16])
        self.bots = [RandomBot(seed + b"bot" + bytes([i])) for i in range(n)]

    def tables(self, now: float) -> list[Table]:
        """A fresh table per seat; `now` is the transport's clock (table timeouts are measured on it)."""
        return [self.make(i, self.genesis, self.identities[i], seeded_entropy(self.seed + bytes([i])), now)
                for i in range(self.rules.players)]


# ------------------------------------------------------------------------------------------------ memory


class _HoldingWire(Wire):
    """The harness wire, with seats that can be down (deliveries to them are lost) or held at a decision."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.down: set[int] = set()
        self.hold: Test | None = None
        self.held: int | None = None

    def step(self) -> bool:
        if self._queue:
            dest, raw = self._queue.popleft()
            if dest not in self.down:
                self._record(dest, self.tables[dest].receive(raw, self.now))
            return True
        for seat, table in enumerate(self.tables):
            decision = table.pending_decision()
            player = self.players[seat]
            if decision is None or player is None or seat in self.down:
                continue
            if self.held == seat:
                continue
            if self.hold is not None and self.hold(decision):
                self.held, self.hold = seat, None
                return False
            self.decide(seat, player(decision))
            return True
        return False


class MemoryRun:
    name = "memory"

    def __init__(self, game: Game, home: Path) -> None:
        self.game = game
        self.wire = _HoldingWire(game.tables(0.0), list(game.bots))
        self.wire.start()
        self.tables = self.wire.tables
        self.events = self.wire.events
        self._saved: dict[int, list[bytes]] = {}

    def entries_of(self, seat: int) -> list[bytes]:
        return list(self.tables[seat].entries)

    def _run(self) -> None:
        steps = 0
        while self.wire.step():
            steps += 1
            if steps > 1_000_000:
                raise LocalError("the in-memory game did not settle")

    async def until_decision(self, test: Test) -> int:
        self.wire.hold, self.wire.held = test, None
        self._run()
        if self.wire.held is None:
            raise AssertionError("no seat was ever asked for such a decision")
        return self.wire.held

    async def inject(self, dest: int, sender: int, raw: bytes) -> None:
        self.wire._queue.append((dest, raw))

    async def settle(self) -> None:
        while self.wire._queue:
            self.wire.step()

    async def advance(self) -> None:
        """Release any held decision and let every live seat go as far as it can."""
        self.wire.hold, self.wire.held = None, None
        self._run()

    async def crash(self, seat: int) -> None:
        self.wire.down.add(seat)

    async def restore(self, seat: int) -> None:
        old = self.tables[seat]
        saved = {e.hand: e.seed for e in self.events[seat] if isinstance(e, SecretCreated)}
        self.tables[seat] = Table(self.game.genesis, self.game.identities[seat], secrets=saved,
                                  entropy=seeded_entropy(b"after the crash"), entries=old.entries)
        self.wire.down.discard(seat)
        self.wire._record(seat, [])
        self.wire._record(seat, self.tables[seat].tick(self.wire.now))
        # a restarted peer says hello: the others answer with what it lacks
        for other, table in enumerate(self.tables):
            if other != seat:
                self.wire._queue.extend((seat, raw) for raw in table.entries[len(old.entries):])

    async def play(self, seats: Sequence[int] | None = None) -> None:
        self.wire.hold, self.wire.held = None, None
        self._run()

    async def close(self) -> None:
        pass


# ------------------------------------------------------------------------------------------------ zeromq


class _Gate:
    """A seat's bot behind a gate: a decision that passes the run's test is held until released."""

    def __init__(self, run: ZmqRun, seat: int, bot: Callable[[Decision], Action]) -> None:
        self.run, self.seat, self.bot = run, seat, bot

    async def __call__(self, decision: Decision) -> Action:
        run = self.run
        if run.hold is not None and run.held is None and run.hold(decision):
            run.held = self.seat
            run.hold = None
            run.holding.set()
            await run.release.wait()
        return self.bot(decision)


class ZmqRun:
    name = "zeromq"

    def __init__(self, game: Game, home: Path) -> None:
        self.game = game
        self.home = home
        self.tables = game.tables(asyncio.get_running_loop().time())
        self.events: list[list[Event]] = [[] for _ in self.tables]
        self.peers: list[Peer | None] = []
        self.tasks: dict[int, asyncio.Task[Any]] = {}
        self.hold: Test | None = None
        self.held: int | None = None
        self.holding = asyncio.Event()
        self.release = asyncio.Event()
        self.received: list[list[bytes]] = [[] for _ in self.tables]
        """Every entry each seat's table was handed, in order."""
        self.injected: list[tuple[int, bytes, int]] = []
        """(dest, raw, how many times dest's table had been handed raw before) for each injection."""

    async def start(self) -> ZmqRun:
        game = self.game
        meshes = [Mesh(transport_keys(i), heartbeat=FAST.heartbeat) for i in game.identities]
        for mesh in meshes:
            await mesh.start()
        addresses = [PeerAddress(s, m.endpoint, i.public)
                     for s, (m, i) in enumerate(zip(meshes, game.identities, strict=True))]
        setup = self.tables[0].setup
        records = tuple(SeatRecord(a.seat, setup.seats[a.seat].name, a.public_key, a.endpoint)
                        for a in addresses)
        for seat, (mesh, table) in enumerate(zip(meshes, self.tables, strict=True)):
            self._count_receipts(seat, table)
            store = GameStore(setup.game_id, seat, self.home)
            store.save_peers(PeersFile(setup.game_id, seat, setup.name, records))
            mesh.admit(seat, addresses)
            self.peers.append(Peer(table, mesh, store, _Gate(self, seat, game.bots[seat]), timing=FAST,
                                   on_event=self.events[seat].append))
        return self

    def _count_receipts(self, seat: int, table: Table) -> None:
        """Note in `received` every entry handed to `table`, once its table has handled it."""
        receive = table.receive

        def counted(raw: bytes, now: float = 0.0) -> list[Event]:
            events = receive(raw, now)
            self.received[seat].append(raw)
            return events

        table.receive = counted  # type: ignore[method-assign]

    def _peer(self, seat: int) -> Peer:
        peer = self.peers[seat]
        assert peer is not None, f"seat {seat} is down"
        return peer

    def entries_of(self, seat: int) -> list[bytes]:
        """The chain in the seat's log on disk (checked against its table; after a halt, the signed
        evidence follows the chain in the log)."""
        on_disk = self._peer(seat).store.read_entries()
        table = self.tables[seat]
        chain = on_disk[: len(table.entries)]
        assert chain == table.entries, "the log on disk holds the table's chain"
        evidence = [e for e in table.violation.evidence if e not in chain] if table.violation else []
        assert on_disk[len(chain):] == evidence, "and after it, only the evidence of a violation"
        return chain

    def _go(self) -> None:
        for seat, peer in enumerate(self.peers):
            if peer is not None and seat not in self.tasks:
                self.tasks[seat] = asyncio.ensure_future(peer.run())

    async def until_decision(self, test: Test) -> int:
        self.hold, self.held = test, None
        self.holding.clear()
        self.release.clear()
        self._go()
        await asyncio.wait_for(self.holding.wait(), WAIT)
        await self.settle()
        assert self.held is not None
        return self.held

    def _settled(self) -> bool:
        """Whether every live seat has done all it can: each injected entry has been handled by its table,
        every live table holds the same chain (so no entry is on its way), and no seat but a held one has a
        decision to make (so none is about to write one)."""
        live = [(s, p.table) for s, p in enumerate(self.peers) if p is not None]
        if any(self.received[dest].count(raw) <= before for dest, raw, before in self.injected
               if self.peers[dest] is not None):
            return False
        if len({(len(t.entries), t.head) for _, t in live}) > 1:
            return False
        return all(t.pending_decision() is None for s, t in live if s != self.held)

    async def settle(self) -> None:
        """Wait until every live seat has done all it can (see `_settled`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while not self._settled():
            if loop.time() > deadline:
                raise AssertionError("the tables never settled")
            await asyncio.sleep(0.01)

    async def advance(self) -> None:
        """Release any held decision and let every live seat go as far as it can."""
        self.hold, self.held = None, None
        self.release.set()
        self._go()
        await self.settle()

    async def inject(self, dest: int, sender: int, raw: bytes) -> None:
        self.injected.append((dest, raw, self.received[dest].count(raw)))
        self._peer(sender).mesh.send(dest, Entries(len(self._peer(dest).table.entries), (raw,)))

    async def crash(self, seat: int) -> None:
        task = self.tasks.pop(seat, None)
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        await self._peer(seat).close()  # its sockets close as a killed process's do
        self.peers[seat] = None

    async def restore(self, seat: int) -> None:
        store = GameStore(self.tables[0].game_id, seat, self.home)
        peer = await resume_game(store, self.game.identities[seat], _Gate(self, seat, self.game.bots[seat]),
                                 timing=FAST)
        peer.on_event = self.events[seat].append
        self._count_receipts(seat, peer.table)
        self.peers[seat] = peer
        self.tables[seat] = peer.table
        self._go()

    async def play(self, seats: Sequence[int] | None = None) -> None:
        """Play on until the live seats (or `seats`) have finished and done their part."""
        self.hold, self.held = None, None
        self.release.set()
        self._go()
        wanted = [self.tasks[s] for s in (seats if seats is not None else list(self.tasks))]
        await asyncio.wait_for(asyncio.gather(*wanted), WAIT)

    async def close(self) -> None:
        self.release.set()
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)
        for peer in self.peers:
            if peer is not None:
                await peer.close()


TRANSPORTS = ("memory", "zeromq")


async def open_run(transport: str, game: Game, home: Path) -> Run:
    if transport == "memory":
        return MemoryRun(game, home)
    return await ZmqRun(game, home).start()
