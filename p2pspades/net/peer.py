"""The game driver: one peer's `Table` machine, fed from the mesh, persisted to its game directory.

The table decides everything about the game; this module only moves bytes and keeps promises about them:

- every frame the table takes (`table.records`: its chain's entries, and the votes and refusals of abandonment
  claims, in the order it took them) is appended to the log, and the log is fsync'd before any frame of ours
  that follows it is sent (frames from others are written as they come and fsync'd together, once, before
  our next send); a hand seed is saved (0600, fsync'd) before the commitment to it goes out;
- every entry, vote or refusal taken from a peer is forwarded, at the next tick and in batches, to the other
  peers that are not known to hold it already, so a peer cut off from one seat still gets its frames from
  the others (an equivocating seat is caught by whoever sees both versions: forwarded, or fetched when a
  later entry does not chain); a peer that connects or says HELLO also gets the open claim's votes and
  refusals;
- a peer that is behind (HELLO, or the table's `Wanted`) gets the entries it lacks, each of which its own
  table checks again before applying it;
- time goes into the table (`tick`) so a seat that stops answering is voted out, and the votes of every
  other seat make the certificate that ends the game (PROTOCOL.md §5);
- after a crash, `resume_game` rebuilds the table from the log and the saved secrets and rejoins the mesh;
  the table writes nothing (no entry, no vote) until it has heard every other seat's head and taken what
  they hold beyond its own (or, once a seat of another process answered, for `Timing.sync` seconds); if no
  seat of another process answers within `Timing.alone` seconds, the peer gives up (`gave_up`): the game
  may have ended without it, and only another seat's log can say how;
- after the end, the peer keeps answering HELLO and GET until every seat holds the final chain (a seat that
  was voted out included: if it comes back, it takes the certificate) or `Timing.linger` runs out;
- a flood costs next to nothing: an entry refused for what its bytes are (a bad signature, malformed bytes,
  another game's entry) is remembered by its hash, so no copy of it is checked again (an entry that is only
  early, not chained yet, stale or out of turn is not remembered: it may hold later); a seat whose entries
  keep failing their checks has its entries ignored for a while, with a logged reason, and the mesh does not
  even decode its entry frames meanwhile: the honest entries it may also have sent reach us forwarded by the
  others, or fetched once the penalty is over; and the mesh hands out HELLO and GET ahead of every queued
  entry frame, so a flood delays nobody's sync.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import inspect
import logging
import math
import os
import secrets
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from p2pspades import crypto, log
from p2pspades.describe import ending, failed
from p2pspades.errors import LocalError, RemoteError
from p2pspades.net.auth import transport_keys
from p2pspades.net.frames import MAX_BATCH, MAX_FRAME, PROTOCOL_VERSION, Entries, Entry, Get, Hello, Message
from p2pspades.net.lobby import peers_of
from p2pspades.net.lobby_seats import LobbyResult
from p2pspades.net.mesh import LinkDown, LinkUp, Mesh, MeshEvent, PeerAddress, Received, Refused
from p2pspades.net.store import GameStore, LocalSeat, PeersFile, StoreError
from p2pspades.rules import Action
from p2pspades.table import (
    Accepted,
    DropKind,
    Dropped,
    Event,
    GameEnded,
    Noted,
    Rejected,
    SecretCreated,
    Superseded,
    Table,
    TableStatus,
    Violation,
    Wanted,
)
from p2pspades.table import messages as msg
from p2pspades.table.players import AnyPlayer

logger = logging.getLogger(__name__)

Player = AnyPlayer
"""Decides for our seat: a bot (a plain function) or the UI (a coroutine that waits for a person)."""

ANSWERS_PER_SECOND = 20
"""How many GET answers (or pushes) one seat gets from us per second at most."""
_ENTRY_OVERHEAD = 8
"""Bytes the ENTRIES framing adds per entry at most (a bin 32 header), used to fit answers in one frame."""
FAILURE_BUDGET = 2 * MAX_BATCH
"""How many of one seat's entries may fail their checks within `FAILURE_WINDOW` seconds (an honest seat's
stale duplicates stay far below it) before its entries are ignored for a while."""
FAILURE_WINDOW = 2.0
PENALTY = 5.0
"""Seconds a seat's entries are first ignored for; each further penalty doubles it, up to `MAX_PENALTY`."""
MAX_PENALTY = 60.0
REFUSALS_KEPT = 4096
"""How many refused entries a peer remembers (by hash, the least recently seen forgotten first)."""
LASTING = frozenset({DropKind.OVERSIZED, DropKind.MALFORMED, DropKind.OTHER_GAME, DropKind.NO_SUCH_SEAT,
                     DropKind.BAD_SIGNATURE})
"""Refusals that the bytes alone decide, whatever the state of the game: the same bytes are refused again
every time, so they are remembered instead of checked again. A stale, early or unchained entry is not among
them, nor one out of turn: the same bytes may hold later (after a sync, or once a timeout has run out)."""


class Refusals:
    """Entries refused for good (`LASTING`), by hash, with the reason, at most `kept` of them."""

    def __init__(self, kept: int = REFUSALS_KEPT) -> None:
        self._kept = kept
        self._why: OrderedDict[bytes, str] = OrderedDict()

    def __len__(self) -> int:
        return len(self._why)

    def why(self, digest: bytes) -> str | None:
        """Why the entry of this hash was refused, if it was."""
        why = self._why.get(digest)
        if why is not None:
            self._why.move_to_end(digest)
        return why

    def note(self, digest: bytes, events: Sequence[Event]) -> None:
        """Remember the entry if the table's answer to it (`events`) refuses it for good."""
        first = events[0] if events else None
        if isinstance(first, Dropped) and first.kind in LASTING:
            self._why[digest] = first.kind.value
            if len(self._why) > self._kept:
                self._why.popitem(last=False)


class Strikes:
    """Per seat: its entries that failed their checks lately, and until when its entries are ignored; and the
    entries refused for good, whoever sent them."""

    def __init__(self) -> None:
        self._failed: dict[int, deque[float]] = {}
        self._why: dict[int, Counter[str]] = {}
        self._until: dict[int, float] = {}
        self._next_penalty: dict[int, float] = {}
        self.refused = Refusals()

    def ignoring(self, seat: int, now: float) -> bool:
        return now < self._until.get(seat, 0.0)

    def until(self, seat: int) -> float:
        """Until when the seat's entries are ignored (event loop time; in the past if they are not)."""
        return self._until.get(seat, 0.0)

    def failed(self, seat: int, now: float, why: str) -> str | None:
        """Note one failed entry; when the seat goes over its budget, the reason its entries are now
        ignored (to log), else None."""
        recent = self._failed.setdefault(seat, deque())
        reasons = self._why.setdefault(seat, Counter())
        while recent and now - recent[0] > FAILURE_WINDOW:
            recent.popleft()
        if not recent:
            reasons.clear()
        recent.append(now)
        reasons[why] += 1
        if len(recent) <= FAILURE_BUDGET:
            return None
        penalty = self._next_penalty.get(seat, PENALTY)
        self._next_penalty[seat] = min(2 * penalty, MAX_PENALTY)
        self._until[seat] = now + penalty
        summary = ", ".join(f"{n} {reason}" for reason, n in reasons.most_common(3))
        recent.clear()
        reasons.clear()
        return (f"seat {seat} sent more than {FAILURE_BUDGET} entries that failed their checks within "
                f"{FAILURE_WINDOW:g} s ({summary}): its entries are ignored for {penalty:g} s")


class Phase(enum.Enum):
    """Where the game stands for our seat."""

    OVER = "over"  # the game ended (`Status.ended`)
    SYNCING = "syncing"  # resumed: nothing is written until every other seat answered (`heard` of `others`)
    GAVE_UP = "gave up"  # resumed, and no seat of another process answered within `Timing.alone`: stopped
    IDLE = "idle"  # nobody's entry is awaited
    OUR_TURN = "our turn"  # our player decides
    SENDING = "sending"  # our own automatic entry (`kind`) goes out
    WAITING = "waiting"  # for seat `waiting_for`'s entry (`kind`)


@dataclass(frozen=True)
class ClaimShown:
    """The open abandonment claim of the awaited slot: who voted, with which timeouts (seconds, each once,
    ascending), who refused by taking the entry first (the claim is then void), who did not vote yet."""

    voters: tuple[int, ...]
    waits: tuple[int, ...]
    refused: tuple[int, ...]
    missing: tuple[int, ...]


@dataclass(frozen=True)
class Status:
    """What a player should see about the game's progress, pushed whenever it changes: data only, put into
    words by the CLI (`cli.play.status_text`)."""

    phase: Phase
    seat: int
    entries: int
    waiting_for: int | None = None
    away: Mapping[int, int] = field(default_factory=dict)
    """Seats we have not heard from for a while, and for how many whole seconds (-1: never heard from)."""
    kind: str = ""
    """The message type awaited (`SENDING`, `WAITING`)."""
    heard: int = 0
    others: int = 0
    ended: GameEnded | None = None
    outcome: TableStatus = TableStatus.RUNNING
    claim: ClaimShown | None = None
    vote_in: int | None = None
    """While we wait for another seat and nobody has voted yet: in how many whole seconds, by the timeout in
    force here, we vote that it stopped answering (None: no such vote ahead, e.g. our own turn)."""
    sync_in: int | None = None
    """While syncing (and after `GAVE_UP`: how long we waited): the whole seconds until we play on without the
    seats that have not answered, once a seat of another process has (`answered`), or else until we give
    up."""
    answered: bool = False
    """While syncing: a seat run by another process has answered (our own bot seats do not count)."""
    behind: tuple[int, ...] = ()
    """Once the game is over: the seats not known to hold its end yet, which we keep serving."""
    linger_in: int | None = None
    """Once the game is over, while some seat is `behind`: the whole seconds we still serve it."""

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER


@dataclass
class Timing:
    """How often the driver acts; the defaults suit a LAN, tests shorten them."""

    tick: float = 0.25
    hello: float = 2.0
    heartbeat: float = 1.0
    away_after: float = 3.0
    linger: float = 10.0
    """After the game ends, how long to keep serving peers that have not caught up yet."""
    sync: float = 5.0
    """After a resume, how long to wait for the seats that have not said HELLO yet, once a seat of another
    process has, before the table may write again."""
    alone: float = 60.0
    """After a resume, how long to wait for a first HELLO from a seat of another process before giving up:
    nobody is left to play with, and the game may have ended without us."""


class Peer:
    """One seat's peer: the table machine, its mesh links, its log and secrets, and its player."""

    def __init__(
        self,
        table: Table,
        mesh: Mesh,
        store: GameStore,
        player: Player | None,
        *,
        timing: Timing | None = None,
        on_status: Callable[[Status], None] | None = None,
        on_event: Callable[[Event], None] | None = None,
        on_update: Callable[[Peer], None] | None = None,
    ) -> None:
        if table.seat is None:
            raise LocalError("a peer needs a seated table")
        self.table = table
        self.mesh = mesh
        self.store = store
        self.player = player
        self.timing = timing or Timing()
        self.on_status = on_status
        self.on_event = on_event
        self.on_update = on_update
        """Called after every batch of table events and after each of our player's choices (UI refresh)."""
        self.seat: int = table.seat
        self.ended: GameEnded | None = None
        on_disk = store.read_entries()
        records = table.records
        if on_disk and (on_disk[0] != records[0] or on_disk[: len(records)] != records[: len(on_disk)]):
            raise StoreError(f"{store.log_path} holds the log of another game (or a different chain): "
                             f"refusing to append to it")
        self._writer = store.open_log()
        self._recorded = min(len(on_disk), len(records))
        """How many of the table's records are in the log (it may hold more: evidence after a violation)."""
        self._from_disk = set(on_disk)
        """The frames the log held when we started (a resumed table reports them again): not forwarded."""
        self._heads: dict[int, int] = {}
        """How many entries each seat is known to hold (its HELLO, or the entries it sent us)."""
        self._heard: dict[int, tuple[int, bytes]] = {}
        """Each seat's last HELLO: how many entries it holds, and the hash of its last one."""
        self._sync_from: float | None = None
        """When a seat of another process first answered our resumed table."""
        self._resumed_at: float | None = None
        self.companions: frozenset[int] = frozenset()
        """The other seats this process runs (our bot seats, `LocalGroup`): their answer to a resumed table
        says nothing about whether anyone else is left."""
        self.gave_up = False
        """Resumed, we heard no seat of another process within `Timing.alone` seconds, and stopped."""
        self._finished_at: float | None = None
        """When the game ended here: we serve the seats that lack the end for `Timing.linger` from then."""
        self._forwards: list[Accepted | Noted] = []
        self._asked: dict[int, float] = {}
        self._served: dict[int, deque[float]] = {}
        self._strikes = Strikes()
        self._deciding: asyncio.Task[Action] | None = None
        self._status: Status | None = None
        self._write_records()  # the genesis the lobby agreed on, or what was restored beyond this log
        self._writer.sync()

    # ------------------------------------------------------------------------------------------ running

    async def run(self) -> GameEnded | None:
        """Play until the game ends and the others have our last entry (or `linger` runs out)."""
        loop = asyncio.get_running_loop()
        self._process(self.table.tick(loop.time()))  # entries the table wrote on start-up
        self._from_disk = set()
        self._hello_all()
        next_tick = next_hello = loop.time()
        self._resumed_at = next_tick if self.table.syncing else None
        while True:
            now = loop.time()
            if self._alone(now):
                self.gave_up = True
                logger.info("no other seat answered within %g s: stopped (the game may be over)",
                            self.timing.alone)
                self._mark_unanswered()
                self._publish_status(now)
                return None
            if self.table.finished:
                if self._finished_at is None:
                    self._finished_at = now
                    self._writer.sync()
                    self._mark_ended()
                    self._hello_all()  # tell the others at once that we hold the whole chain
                if self._everyone_caught_up() or now - self._finished_at > self.timing.linger:
                    self._publish_status()
                    return self.ended
            if now >= next_tick:
                self._flush_forwards()
                self._sync(now)
                self._process(self.table.tick(now))
                self._publish_status(now)
                next_tick = now + self.timing.tick
            if now >= next_hello:
                self._hello_all()
                next_hello = now + self.timing.hello
            await self._decide()
            event = await self._next_event(max(0.0, next_tick - loop.time()))
            if event is not None:
                self._on_mesh(event, loop.time())

    async def _next_event(self, timeout: float) -> MeshEvent | None:
        """The next mesh event; None after `timeout`, or as soon as our player has made up its mind."""
        await asyncio.sleep(0)  # let the mesh read what came meanwhile: a HELLO behind a flood goes first
        ready = self.mesh.poll_event()
        if ready is not None:
            return ready
        incoming = asyncio.ensure_future(self.mesh.next_event())
        waiting: set[asyncio.Future[Any]] = {incoming}
        if self._deciding is not None:
            waiting.add(self._deciding)
        try:
            await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not incoming.done():
                incoming.cancel()  # not awaited: awaiting it could swallow a cancellation of this task
        if incoming.done() and not incoming.cancelled():
            return incoming.result()
        return None

    def _alone(self, now: float) -> bool:
        """Resumed, still syncing, and `Timing.alone` seconds passed without a word from another process."""
        return (self._resumed_at is not None and self.table.syncing and not self.table.finished
                and not any(seat not in self.companions for seat in self._heard)
                and now - self._resumed_at >= self.timing.alone)

    def _mark_unanswered(self) -> None:
        try:
            self.store.mark_unanswered(self.timing.alone)
        except StoreError as exc:
            logger.warning("could not note that nobody answered: %s", exc)

    def _mark_ended(self) -> None:
        status = self.ended.status if self.ended is not None else self.table.status
        try:
            self.store.mark_ended(status)
        except StoreError as exc:
            logger.warning("could not note the end of the game: %s", exc)

    async def close(self) -> None:
        if self._deciding is not None:
            self._deciding.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._deciding
        await self.mesh.close()
        self._writer.close()

    # ------------------------------------------------------------------------------------------ the table

    def _process(self, events: list[Event]) -> None:
        """Act on the table's events in order, then send what it wrote: persist first, send after."""
        for event in events:
            if isinstance(event, SecretCreated):
                self.store.save_secret(event.hand, event.seed)
            elif isinstance(event, Accepted | Noted):
                if not event.own and event.raw not in self._from_disk:
                    self._forwards.append(event)  # passed on at the next tick; that needs no fsync first
            elif isinstance(event, Superseded):
                self._superseded(event)
            elif isinstance(event, Wanted):
                self._ask(event.first)
            elif isinstance(event, Violation):
                self._keep_evidence(event)
            elif isinstance(event, GameEnded):
                self.ended = event
                logger.info("game over (%s): %s", event.status, ending(event))
            if self.on_event is not None:
                self.on_event(event)
        self._write_records()
        outgoing = self.table.take_outgoing()
        if outgoing:
            self._writer.sync()  # everything before our entries is on disk before they leave
            for out in outgoing:
                self.mesh.broadcast(Entry(out.raw))
        if events and self.on_update is not None:
            self.on_update(self)

    def _write_records(self) -> None:
        """Append what the table took since the last time to the log (fsync'd once, before our next send)."""
        records = self.table.records
        while self._recorded < len(records):
            self._writer.append(records[self._recorded], sync=False)
            self._recorded += 1

    def _superseded(self, event: Superseded) -> None:
        """A certificate took slot `first`: what we held from there on is off the chain (it stays in the log,
        before the certificate); no seat is known to hold our chain beyond the slot any more."""
        logger.info("a certificate takes entry %d: the %d entries we held from there on are superseded",
                       event.first, len(event.raws))
        self._heads = {seat: min(held, event.first) for seat, held in self._heads.items()}
        self._forwards = [e for e in self._forwards if not (isinstance(e, Accepted) and e.seq >= event.first)]

    def _keep_evidence(self, violation: Violation) -> None:
        """A halting violation ends the chain: the signed entries that prove it go into the log after it."""
        logger.warning("%s", failed(violation.check, violation.detail, violation.seat))
        if not violation.halts:
            return
        self._write_records()
        taken = set(self.table.records)
        for raw in violation.evidence:
            if raw not in taken:
                try:
                    self._writer.append(raw)
                except LocalError as exc:  # not even an envelope: nothing a verifier could use
                    logger.warning("evidence not kept: %s", exc)
        # and to every peer: one that holds the offending entry off its chain (it voted on that slot), or
        # never got it, checks it too and halts with the same verdict
        signed = tuple(raw for raw in violation.evidence if _header(raw) is not None)
        if signed:
            for seat in self.mesh.peers:
                self.mesh.send(seat, Entries(violation.seq, signed))

    def _flush_forwards(self) -> None:
        """Pass on the frames taken from others since the last tick, to each seat not known to hold them.

        A seat that sent us its own entry n, or forwarded us entry n, holds every entry up to n: in a game
        that moves, most entries need no forwarding by the time the tick comes, which saves every peer two
        wake-ups per entry. What is sent goes in runs of consecutive entries, one ENTRIES frame per run. A
        certificate goes to the seat it names too (its table takes the slot from its own entry); a vote or a
        refusal goes to every seat but its signer.
        """
        pending, self._forwards = self._forwards, []
        if not pending:
            return
        entries = [e for e in pending if isinstance(e, Accepted)]
        notes = [(e.slot, e) for e in pending if isinstance(e, Noted)]
        for seat in self.mesh.peers:
            held = self._heads.get(seat, 0)
            wanted = [e for e in entries
                      if (e.seat != seat or e.type == msg.Certificate.TYPE) and e.seq >= held]
            run: list[tuple[int, bytes]] = []
            for event in wanted:
                if run and event.seq != run[-1][0] + 1:
                    self._send_run(seat, run)
                    run = []
                run.append((event.seq, event.raw))
            if run:
                self._send_run(seat, run)
            theirs = [(slot, e.raw) for slot, e in notes if e.seat != seat]
            if theirs:
                self._send_run(seat, theirs)

    def _send_run(self, seat: int, run: list[tuple[int, bytes]]) -> None:
        """Send frames (sequence number or slot, raw) to `seat` in as few ENTRIES frames as they fit in."""
        batch: list[bytes] = []
        size = 64
        start = run[0][0]
        for seq, raw in run:
            size += len(raw) + _ENTRY_OVERHEAD
            if batch and (size > MAX_FRAME or len(batch) >= MAX_BATCH):
                self.mesh.send(seat, Entries(start, tuple(batch)))
                batch, size, start = [], 64 + len(raw) + _ENTRY_OVERHEAD, seq
            batch.append(raw)
        self.mesh.send(seat, Entries(start, tuple(batch)))

    def _send_notes(self, seat: int) -> None:
        """The open claim's votes and refusals, to a seat that just connected or said HELLO (it may have
        missed them, or come back from a crash)."""
        slot = self.table.claim
        notes = self.table.claim_notes()
        if slot is not None and notes:
            self._send_run(seat, [(slot.seq, raw) for raw in notes])

    def _holds(self, seat: int, raw: bytes, seq: int | None) -> None:
        """`seat` sent us `raw`: if it is our entry `seq`, the seat holds the chain up to it."""
        entries = self.table.entries
        if seq is not None and seq < len(entries) and entries[seq] == raw and self._heads.get(seat, 0) <= seq:
            self._heads[seat] = seq + 1

    async def _decide(self) -> None:
        """Let our player decide when it is our turn (a coroutine player runs alongside the mesh)."""
        if self.player is None or self.table.finished:
            return
        if self._deciding is not None:
            if not self._deciding.done():
                if self.table.pending_decision() is None:  # the moment passed (e.g. the game was abandoned)
                    self._deciding.cancel()
                return
            task, self._deciding = self._deciding, None
            if not task.cancelled() and task.exception() is None:
                self._apply_decision(task.result())
            elif not task.cancelled():
                logger.error("the player failed: %r", task.exception())
            return
        decision = self.table.pending_decision()
        if decision is None:
            return
        try:
            choice = self.player(decision)
        except Exception:  # a broken bot must not take the peer (and its log) down with it
            logger.exception("our player failed to decide; its first legal choice is taken instead")
            choice = decision.legal[0]
        if inspect.isawaitable(choice):
            self._deciding = asyncio.ensure_future(choice)
        else:
            self._apply_decision(choice)

    def _apply_decision(self, action: Action) -> None:
        try:
            events = self.table.decide(action)
        except (LocalError, ValueError) as exc:
            logger.warning("our player's choice %s was not taken: %s", action, exc)
            return
        self._process(events)

    # ------------------------------------------------------------------------------------------ the mesh

    def _on_mesh(self, event: MeshEvent, now: float) -> None:
        if isinstance(event, LinkUp):
            self.mesh.send(event.seat, self._hello())
            self._send_notes(event.seat)
        elif isinstance(event, LinkDown):
            logger.info("lost the link to seat %d; reconnecting", event.seat)
        elif isinstance(event, Refused):
            logger.warning("seat %d refuses our connection (does it know our key?)", event.seat)
        elif isinstance(event, Received):
            self._on_message(event.seat, event.message, now)

    def _on_message(self, seat: int, message: Message, now: float) -> None:
        if isinstance(message, Entry | Entries) and self._strikes.ignoring(seat, now):
            return  # a seat over its budget of failed entries: not even read, until its penalty is over
        if isinstance(message, Entry):
            self._receive(seat, message.raw, now, own=True)
        elif isinstance(message, Entries):
            for raw in message.raws:
                if self._strikes.ignoring(seat, now):
                    break
                self._receive(seat, raw, now)
        elif isinstance(message, Get):
            self._answer(seat, message.start, message.stop)
        elif isinstance(message, Hello):
            self._on_hello(seat, message)

    def _receive(self, seat: int, raw: bytes, now: float, own: bool = False) -> None:
        """One entry `seat` sent us (`own`: as its own new entry), through the table unless the same bytes
        were refused for good before; what fails its checks counts against the seat."""
        digest = log.entry_hash(raw)
        refused = self._strikes.refused.why(digest)
        if refused is not None:
            self._strike(seat, now, refused)  # a copy of what we refused: a hash, not a check
            return
        header = _header(raw)
        if own and header is not None and header.seat != seat:  # (unreadable bytes: the table refuses them)
            logger.warning("dropped an entry from seat %d presented as its own but signed by seat %d",
                           seat, header.seat)
            self._strike(seat, now, "not its own")
            return
        events = self.table.receive(raw, now)
        self._strikes.refused.note(digest, events)
        for event in events:
            if isinstance(event, Rejected):
                self._strike(seat, now, f"{event.check} check failed")
            elif isinstance(event, Dropped) and event.kind is not DropKind.GAME_OVER:
                self._strike(seat, now, event.kind.value)
        self._process(events)
        self._holds(seat, raw, None if header is None else header.seq)

    def _strike(self, seat: int, now: float, why: str) -> None:
        penalty = self._strikes.failed(seat, now, why)
        if penalty is not None:
            logger.warning("%s", penalty)
            self.mesh.mute(seat, self._strikes.until(seat))  # its entry frames are not even decoded meanwhile

    def _on_hello(self, seat: int, hello: Hello) -> None:
        if hello.game_id != self.table.game_id or hello.version != PROTOCOL_VERSION:
            logger.warning("dropped a HELLO from seat %d for game %s, version %d", seat,
                           hello.game_id.hex()[:16], hello.version)
            return
        self._heads[seat] = hello.seq
        self._heard[seat] = (hello.seq, hello.head)
        ours = len(self.table.entries)
        if hello.seq > ours:
            self.mesh.send(seat, Get(ours, min(hello.seq, ours + MAX_BATCH)))
        elif not self._holds_chain_of(seat):
            # its last entry is not ours (a certificate, say, where we hold our own entry): let our table see
            # it, and let its table compare ours
            self.mesh.send(seat, Get(hello.seq - 1, hello.seq))
            self._answer(seat, hello.seq - 1, ours)
        elif hello.seq < ours:
            self._answer(seat, hello.seq, ours)  # push what it lacks rather than wait for its GET
        self._send_notes(seat)

    def _holds_chain_of(self, seat: int) -> bool:
        """Whether our chain holds everything the last HELLO of `seat` says it holds."""
        held, head = self._heard[seat]
        entries = self.table.entries
        return held == 0 or (held <= len(entries) and log.entry_hash(entries[held - 1]) == head)

    def _sync(self, now: float) -> None:
        """A resumed table writes again once every other seat said HELLO and we hold what each holds, or
        `Timing.sync` seconds after the first HELLO of a seat another process runs (a seat may be gone for
        good); never before one, unless every other seat is ours."""
        table = self.table
        if not table.syncing or table.finished or not self._heard:
            return
        if self._sync_from is None and any(seat not in self.companions for seat in self._heard):
            self._sync_from = now
        others = [seat for seat in range(table.seats) if seat != self.seat]
        everyone = all(seat in self._heard and self._holds_chain_of(seat) for seat in others)
        if everyone or (self._sync_from is not None and now - self._sync_from >= self.timing.sync):
            silent = [seat for seat in others if seat not in self._heard]
            logger.info("synced with the other seats%s: playing on",
                        f" (no word from seat {', '.join(map(str, silent))})" if silent else "")
            try:
                self.store.clear_unanswered()  # somebody answered (after all): the game is resumable again
            except StoreError as exc:
                logger.warning("%s", exc)
            self._process(table.synced())
            if self.on_update is not None:
                self.on_update(self)  # the screen stops saying "syncing", even if nothing else changed

    def _answer(self, seat: int, start: int, stop: int) -> None:
        """Send entries start..stop-1 that we hold, as many as fit in one frame.

        At most `ANSWERS_PER_SECOND` answers go to one seat each second, so a peer that floods us with GETs
        cannot make us queue hundreds of megabytes for it.
        """
        now = asyncio.get_running_loop().time()
        recent = self._served.setdefault(seat, deque())
        while recent and now - recent[0] > 1.0:
            recent.popleft()
        if len(recent) >= ANSWERS_PER_SECOND:
            logger.debug("seat %d asks too often; request dropped", seat)
            return
        recent.append(now)
        entries = self.table.entries
        batch: list[bytes] = []
        size = 64
        for raw in entries[start:min(stop, len(entries), start + MAX_BATCH)]:
            size += len(raw) + _ENTRY_OVERHEAD
            if size > MAX_FRAME:
                break
            batch.append(raw)
        if batch:
            self.mesh.send(seat, Entries(start, tuple(batch)))

    def _ask(self, first: int) -> None:
        """Ask every peer for the entries from `first` on (at most once a second for the same gap)."""
        now = asyncio.get_running_loop().time()
        if now - self._asked.get(first, -1e9) < 1.0:
            return
        self._asked = {k: v for k, v in self._asked.items() if now - v < 10.0}
        self._asked[first] = now
        for seat in self.mesh.peers:
            self.mesh.send(seat, Get(first, first + MAX_BATCH))

    def _hello(self) -> Hello:
        return Hello(self.table.game_id, self.seat, len(self.table.entries), self.table.head)

    def _hello_all(self) -> None:
        self.mesh.broadcast(self._hello())

    def _everyone_caught_up(self) -> bool:
        """Whether every other seat holds our whole chain: the one a certificate named too, since, if it comes
        back (resumed after a crash), its table takes the certificate from us and ends as ours did."""
        ours = len(self.table.entries)
        return all(self._heads.get(seat, 0) >= ours for seat in self.mesh.peers)

    # ------------------------------------------------------------------------------------------ status

    def status(self, now: float | None = None) -> Status:
        """The game's progress as the player should see it; `now` (the loop's clock) for the countdown to
        our vote that the awaited seat stopped answering."""
        table = self.table
        away = {}
        for seat in self.mesh.peers:
            silent = self.mesh.silent_for(seat)
            if silent is None or silent > self.timing.away_after:
                away[seat] = int(silent) if silent is not None else -1
        entries = len(table.entries)
        if table.finished:
            behind = tuple(seat for seat in sorted(self.mesh.peers) if self._heads.get(seat, 0) < entries)
            return Status(Phase.OVER, self.seat, entries, None, away, ended=self.ended, outcome=table.status,
                          behind=behind, linger_in=self._linger_in(now) if behind else None)
        if table.syncing:
            heard = sum(1 for seat in self._heard if seat != self.seat)
            phase = Phase.GAVE_UP if self.gave_up else Phase.SYNCING
            return Status(phase, self.seat, entries, None, away, heard=heard, others=table.seats - 1,
                          sync_in=self._sync_in(now), answered=self._sync_from is not None)
        waiting = table.waiting_for()
        if waiting is None:
            return Status(Phase.IDLE, self.seat, entries, None, away)
        seat, kind = waiting
        if seat == self.seat:
            phase = Phase.OUR_TURN if table.pending_decision() is not None else Phase.SENDING
        else:
            phase = Phase.WAITING
        claim = self._claim()
        return Status(phase, self.seat, entries, seat, away, kind, claim=claim,
                      vote_in=self._vote_in(now) if phase is Phase.WAITING and claim is None else None)

    def wait_longer(self) -> int:
        """Our player chooses to wait one more timeout for the seat we wait for before we vote that it stopped
        answering (`Table.wait_longer`); the whole seconds added (0: no vote is ahead)."""
        added = self.table.wait_longer()
        self._publish_status(asyncio.get_running_loop().time())
        return math.ceil(added)

    def _linger_in(self, now: float | None) -> int | None:
        """Whole seconds we still serve the seats that lack the end (None: no end while a screen is up)."""
        if now is None or self._finished_at is None or not math.isfinite(self.timing.linger):
            return None
        return max(0, math.ceil(self._finished_at + self.timing.linger - now))

    def _sync_in(self, now: float | None) -> int | None:
        """Whole seconds until a syncing table plays on without the silent seats (one answered) or gives up
        (none did); how long it waited once it gave up."""
        if self.gave_up:
            return math.ceil(self.timing.alone)
        if now is None or self._resumed_at is None:
            return None
        if self._sync_from is not None:
            return max(0, math.ceil(self._sync_from + self.timing.sync - now))
        return max(0, math.ceil(self._resumed_at + self.timing.alone - now))

    def _vote_in(self, now: float | None) -> int | None:
        """Whole seconds until our table votes that the seat it waits for stopped answering."""
        due = self.table.vote_due()
        return None if now is None or due is None else max(0, math.ceil(due - now))

    def _claim(self) -> ClaimShown | None:
        """The open abandonment claim: who voted, past which timeout, whose vote it still needs."""
        slot = self.table.claim
        if slot is None:
            return None
        return ClaimShown(slot.voters, tuple(sorted(set(slot.waits.values()))), tuple(sorted(slot.refusals)),
                          slot.missing(self.table.seats))

    def _publish_status(self, now: float | None = None) -> None:
        status = self.status(now)
        if status != self._status:
            self._status = status
            if self.on_status is not None:
                self.on_status(status)


def _header(raw: bytes) -> log.Header | None:
    try:
        return log.validate_header(log.open_envelope(raw).payload)
    except (RemoteError, TypeError):
        return None


# ------------------------------------------------------------------------------------------ start / resume


async def start_game(
    result: LobbyResult,
    identity: crypto.Identity,
    mesh: Mesh,
    player: Player | None,
    *,
    home: str | os.PathLike[str] | None = None,
    timeouts: Mapping[str, float] | None = None,
    timing: Timing | None = None,
    on_status: Callable[[Status], None] | None = None,
    on_event: Callable[[Event], None] | None = None,
    local: LocalSeat | None = None,
) -> Peer:
    """The peer for a game the lobby just agreed on. `mesh` is the one whose endpoint the lobby announced.

    `local` (how this machine runs the seat: identity file, player, log path) is saved for `resume`.
    """
    loop = asyncio.get_running_loop()
    table = Table(result.genesis, identity, entropy=secrets.token_bytes, timeouts=timeouts, now=loop.time())
    store = GameStore(result.game_id, result.seat, home)
    store.save_peers(PeersFile(result.game_id, result.seat, result.table.name, result.table.seated))
    if local is not None:
        store.save_local(local)
    mesh.admit(result.seat, peers_of(result.table))
    return Peer(table, mesh, store, player, timing=timing, on_status=on_status, on_event=on_event)


async def resume_game(
    store: GameStore,
    identity: crypto.Identity,
    player: Player | None,
    *,
    timeouts: Mapping[str, float] | None = None,
    timing: Timing | None = None,
    on_status: Callable[[Status], None] | None = None,
    on_event: Callable[[Event], None] | None = None,
) -> Peer:
    """Rebuild a peer after a crash from its game directory, listening where it listened before. Its table
    writes nothing until the peer has synced with the other seats (see `Peer._sync`)."""
    peers = store.load_peers()
    entries = store.read_entries()
    if not entries:
        raise LocalError(f"{store.log_path} holds no entries: nothing to resume")
    own = peers.seats[peers.seat]
    if own.public_key != identity.public:
        raise LocalError(f"seat {peers.seat} of that game belongs to {crypto.fingerprint(own.public_key)}, "
                         f"not to this identity ({identity.fingerprint})")
    loop = asyncio.get_running_loop()
    # every entry of our own log was checked, proofs included, before we wrote it: the rebuild skips the
    # proofs (the rest, signatures, chain, rules and each hand's audit, is checked again); later entries are
    # checked in full
    table = Table(entries[0], identity, entropy=secrets.token_bytes, secrets=store.load_secrets(),
                  entries=entries, timeouts=timeouts, now=loop.time(), checked=True, syncing=True)
    timing = timing or Timing()
    mesh = Mesh(transport_keys(identity), bind=own.endpoint, heartbeat=timing.heartbeat)
    await mesh.start()
    mesh.admit(peers.seat, [PeerAddress(s.seat, s.endpoint, s.public_key) for s in peers.seats])
    return Peer(table, mesh, store, player, timing=timing, on_status=on_status, on_event=on_event)
