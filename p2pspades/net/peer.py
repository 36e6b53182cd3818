"""The game driver: one peer's `Table` machine, fed from the mesh, persisted to its game directory.

The table decides everything about the game, the sync machine (`sync.py`) what we owe the other peers and
what we ask of them, the flood accounting (`flood.py`) what a failed check costs its seat; this module is the
event loop, and it moves the bytes and keeps the promises about them:

- every frame the table takes (`table.records`: its chain's entries, and the votes and refusals of abandonment
  claims, in the order it took them) is appended to the log, and the log is fsync'd before any frame of ours
  that follows it is sent (frames from others are written as they come and fsync'd together, once, before
  our next send); a hand seed is saved (0600, fsync'd) before the commitment to it goes out;
- what the sync machine says goes out on the mesh: HELLO every `Timing.hello` and on every new link, the
  answers to GETs and HELLOs, our asks, and at every tick what we took from others, passed on to the seats
  not known to hold it (an equivocating seat is caught by whoever sees both versions);
- time goes into the table (`tick`) so a seat that stops answering is voted out (PROTOCOL.md §5), less the
  pauses of our own loop (a gap between two ticks longer than `Timing.pause`), so waiting that nobody did is
  never counted against a seat;
- after a crash, `resume_game` rebuilds the table from the log and the saved secrets and rejoins the mesh;
  the table writes nothing until the sync machine says it may; if no seat of another process answers within
  `Timing.alone` seconds, the peer gives up (`gave_up`): the game may have ended without it, and only another
  seat's log can say how;
- after the end, the peer keeps answering HELLO and GET until every seat holds the final chain (a seat that
  was voted out included: if it comes back, it takes the certificate) or `Timing.linger` runs out;
- when its player leaves (`leave`), the table signs a goodbye, which ends the game at once on every table
  (PROTOCOL.md §5.10); the peer stays only until every seat holds it, or `Timing.farewell` runs out. A
  proposal to stop (`stop`) is signed the same way; a bot's peer (`agrees_to_stop`) agrees to every one;
- a flood costs next to nothing: bytes refused for what they are are remembered by their hash and never
  checked again, a seat over its budget of failed checks is muted at the mesh for a while (its entry frames
  not even decoded), and the mesh hands out HELLO and GET ahead of every queued entry frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import logging
import math
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from p2pspades import crypto, log
from p2pspades.describe import ending, failed
from p2pspades.errors import N_, LocalError, RemoteError
from p2pspades.net.auth import transport_keys
from p2pspades.net.flood import Strikes, charged
from p2pspades.net.frames import PROTOCOL_VERSION, Entries, Entry, Get, Hello, Message
from p2pspades.net.lobby import peers_of
from p2pspades.net.lobby_seats import LobbyResult
from p2pspades.net.mesh import LinkDown, LinkUp, Mesh, MeshEvent, PeerAddress, Received, Refused
from p2pspades.net.status import ClaimShown, Phase, Status
from p2pspades.net.store import GameStore, LocalSeat, PeersFile, StoreError
from p2pspades.net.sync import Send, Sync
from p2pspades.rules import Action
from p2pspades.table import (
    Accepted,
    Event,
    GameEnded,
    Noted,
    SecretCreated,
    Superseded,
    Table,
    Violation,
    Wanted,
)
from p2pspades.table import messages as msg
from p2pspades.table.players import AnyPlayer

logger = logging.getLogger(__name__)

Player = AnyPlayer
"""Decides for our seat: a bot (a plain function) or the UI (a coroutine that waits for a person)."""

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
    settle: float = 1.0
    """After the end (or a stronger ending), how long we keep listening at least, however soon the others
    hold our chain: the evidence of a fault found late is on its way, ours to the others as theirs to us."""
    pause: float = 5.0
    """A gap between two readings of the clock longer than this is a pause of our own (the process was
    stopped, the machine slept): the table's timers do not count it (`Table(pause=...)`)."""
    farewell: float = 5.0
    """After our player left (a signed goodbye), how long we stay at most for every seat to hold it."""


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
            raise StoreError(N_("{path} holds the log of another game (or a different chain): refusing to "
                                "append to it"), path=store.log_path)
        self._writer = store.open_log()
        self._recorded = min(len(on_disk), len(records))
        """How many of the table's records are in the log (it may hold more: evidence after a violation)."""
        self._from_disk = set(on_disk)
        """The frames the log held when we started (a resumed table reports them again): not forwarded."""
        self.sync = Sync(self.seat, self.timing.sync, self.timing.alone)
        """What we know of the other seats' chains, and what we owe them (pure: `sync.py`)."""
        self.gave_up = False
        """Resumed, we heard no seat of another process within `Timing.alone` seconds, and stopped."""
        self.agrees_to_stop = True
        """Whether we sign every proposal to stop that reaches us (a bot's peer, or `--auto`); a person's
        screen asks instead (`stop`)."""
        self._finished_at: float | None = None
        """When the game ended here: we serve the seats that lack the end for `Timing.linger` from then."""
        self._strikes = Strikes()
        self._deciding: asyncio.Task[Action] | None = None
        self._status: Status | None = None
        self._write_records()  # the genesis the lobby agreed on, or what was restored beyond this log
        self._writer.sync()

    # ------------------------------------------------------------------------------------------ running

    async def run(self) -> GameEnded | None:
        """Play until the game ends and the others have our last entry (or `linger` runs out). After the end
        we still listen for `Timing.settle` seconds at least: evidence that moves the ending (a fault another
        seat found) may still come, and ours must reach the others; a new ending starts that wait again."""
        loop = asyncio.get_running_loop()
        self._process(self.table.tick(loop.time()))  # entries the table wrote on start-up
        self._from_disk = set()
        self._hello_all()
        next_tick = next_hello = loop.time()
        self.sync.resumed_at = next_tick if self.table.syncing else None
        ended: GameEnded | None = None
        while True:
            now = loop.time()
            if self.sync.alone(self.table, now):
                self.gave_up = True
                logger.info("no other seat answered within %g s: stopped (the game may be over)",
                            self.timing.alone)
                self._mark_unanswered()
                self._publish_status(now)
                return None
            if self.table.finished:
                if self._finished_at is None or self.ended is not ended:
                    self._finished_at, ended = now, self.ended
                    self._writer.sync()
                    self._mark_ended()
                    self._hello_all()  # tell the others at once that we hold the whole chain
                settled = now - self._finished_at >= self.timing.settle
                caught_up = self.sync.caught_up(self.table, self.mesh.peers)
                if (settled and caught_up) or now - self._finished_at > self.timing.linger:
                    self._writer.sync()
                    self._publish_status()
                    return self.ended
            if now >= next_tick:
                self._send(self.sync.forwards(self.mesh.peers))
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
                    self.sync.forward_later(event)  # passed on at the next tick; that needs no fsync first
            elif isinstance(event, Superseded):
                self._superseded(event)
            elif isinstance(event, Wanted):
                self._send(self.sync.ask(event.first, self.mesh.peers, asyncio.get_running_loop().time()))
            elif isinstance(event, Violation):
                self._keep_evidence(event)
            elif isinstance(event, GameEnded):
                self.ended = event
                logger.info("game over (%s): %s", event.status, ending(event))
            if self.on_event is not None:
                self.on_event(event)
        if self.agrees_to_stop and any(isinstance(e, Noted) and e.type == msg.Stop.TYPE and not e.own
                                       for e in events):
            self._agree()
        self._write_records()
        outgoing = self.table.take_outgoing()
        if outgoing:
            self._writer.sync()  # everything before our entries is on disk before they leave
            for out in outgoing:
                self.mesh.broadcast(Entry(out.raw))
        if events and self.on_update is not None:
            self.on_update(self)

    def _agree(self) -> None:
        """A bot's peer agrees to the proposal to stop at the slot we wait for: the people decide."""
        proposal = self.table.stop_proposal()
        if proposal is not None and proposal.open and self.seat not in proposal.agreed:
            self._process(self.table.stop_here())

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
        self.sync.superseded(event.first)

    def _keep_evidence(self, violation: Violation) -> None:
        """A halting violation ends the chain (the table keeps its evidence in its records, the log): the
        signed entries and notes that prove it go to every peer, once each. One that holds the offending
        entry off its chain (it voted on that slot), or never got it, checks it too and ends the same way."""
        logger.warning("%s", failed(violation.check, violation.detail, violation.seat))
        self._send(self.sync.evidence(violation, self.mesh.peers))

    def _send(self, frames: list[Send]) -> None:
        """What the sync machine says to send, each frame to its seat."""
        for frame in frames:
            self.mesh.send(frame.seat, frame.message)

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
            self.mesh.send(event.seat, self.sync.hello(self.table))
            self._send(self.sync.notes_for(self.table, event.seat))
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
            self._send(self.sync.answer(self.table, seat, message.start, message.stop, now))
        elif isinstance(message, Hello):
            self._on_hello(seat, message, now)

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
        for culprit, why in charged(seat, events):
            self._strike(culprit, now, why)
        self._process(events)
        self.sync.holds(self.table, seat, raw, None if header is None else header.seq)

    def _strike(self, seat: int, now: float, why: str) -> None:
        penalty = self._strikes.failed(seat, now, why)
        if penalty is not None:
            logger.warning("%s", penalty)
            self.mesh.mute(seat, self._strikes.until(seat))  # its entry frames are not even decoded meanwhile

    def _on_hello(self, seat: int, hello: Hello, now: float) -> None:
        if hello.game_id != self.table.game_id or hello.version != PROTOCOL_VERSION:
            logger.warning("dropped a HELLO from seat %d for game %s, version %d", seat,
                           hello.game_id.hex()[:16], hello.version)
            return
        self._send(self.sync.on_hello(self.table, seat, hello, now))

    def _sync(self, now: float) -> None:
        """A resumed table writes again once the sync machine says so (`Sync.may_write`)."""
        silent = self.sync.may_write(self.table, now)
        if silent is None:
            return
        logger.info("synced with the other seats%s: playing on",
                    f" (no word from seat {', '.join(map(str, silent))})" if silent else "")
        try:
            self.store.clear_unanswered()  # somebody answered (after all): the game is resumable again
        except StoreError as exc:
            logger.warning("%s", exc)
        self._process(self.table.synced())
        if self.on_update is not None:
            self.on_update(self)  # the screen stops saying "syncing", even if nothing else changed

    def _hello_all(self) -> None:
        self.mesh.broadcast(self.sync.hello(self.table))

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
            behind = self.sync.behind(table, self.mesh.peers)
            return Status(Phase.OVER, self.seat, entries, None, away, ended=self.ended, outcome=table.status,
                          behind=behind, linger_in=self._linger_in(now) if behind else None)
        if table.syncing:
            heard = sum(1 for seat in self.sync.heard if seat != self.seat)
            phase = Phase.GAVE_UP if self.gave_up else Phase.SYNCING
            return Status(phase, self.seat, entries, None, away, heard=heard, others=table.seats - 1,
                          sync_in=self._sync_in(now), answered=self.sync.answered_at is not None)
        waiting = table.waiting_for()
        if waiting is None:
            return Status(Phase.IDLE, self.seat, entries, None, away)
        seat, kind = waiting
        if seat == self.seat:
            phase = Phase.OUR_TURN if table.pending_decision() is not None else Phase.SENDING
        else:
            phase = Phase.WAITING
        claim = self._claim()
        proposal = table.stop_proposal()
        if proposal is not None and proposal.lapses_in is not None:
            proposal = dataclasses.replace(proposal, lapses_in=math.ceil(proposal.lapses_in))
        return Status(phase, self.seat, entries, seat, away, kind, claim=claim,
                      vote_in=self._vote_in(now) if phase is Phase.WAITING and claim is None else None,
                      proposal=proposal)

    def leave(self) -> None:
        """Our player leaves: sign our goodbye, which ends the game here at once and on every table it
        reaches (our side forfeits); `run` then stays until every seat holds it, `Timing.farewell` at most."""
        self._process(self.table.leave())
        self.timing = dataclasses.replace(self.timing, linger=min(self.timing.linger, self.timing.farewell))

    def stop(self, agree: bool) -> None:
        """Our player proposes to stop here, agrees to the proposal there (`agree`), or declines it."""
        self._process(self.table.stop_here() if agree else self.table.decline_stop())
        self._publish_status(asyncio.get_running_loop().time())

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
        resumed, answered = self.sync.resumed_at, self.sync.answered_at
        if now is None or resumed is None:
            return None
        if answered is not None:
            return max(0, math.ceil(answered + self.timing.sync - now))
        return max(0, math.ceil(resumed + self.timing.alone - now))

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
    timing = timing or Timing()
    table = Table(result.genesis, identity, entropy=secrets.token_bytes, timeouts=timeouts, now=loop.time(),
                  pause=timing.pause)
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
        raise LocalError(N_("{path} holds no entries: nothing to resume"), path=store.log_path)
    own = peers.seats[peers.seat]
    if own.public_key != identity.public:
        raise LocalError(N_("seat {seat} of that game belongs to {key}, not to this identity ({ours})"),
                         seat=peers.seat, key=crypto.fingerprint(own.public_key), ours=identity.fingerprint)
    loop = asyncio.get_running_loop()
    # every entry of our own log was checked, proofs included, before we wrote it: the rebuild skips the
    # proofs (the rest, signatures, chain, rules and each hand's audit, is checked again); later entries are
    # checked in full
    timing = timing or Timing()
    table = Table(entries[0], identity, entropy=secrets.token_bytes, secrets=store.load_secrets(),
                  entries=entries, timeouts=timeouts, now=loop.time(), checked=True, syncing=True,
                  pause=timing.pause)
    mesh = Mesh(transport_keys(identity), bind=own.endpoint, heartbeat=timing.heartbeat)
    await mesh.start()
    mesh.admit(peers.seat, [PeerAddress(s.seat, s.endpoint, s.public_key) for s in peers.seats])
    return Peer(table, mesh, store, player, timing=timing, on_status=on_status, on_event=on_event)
