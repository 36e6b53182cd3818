"""A game's local seats, composed: host a table (with bot seats), join one, or resume after a crash.

Every seat this machine runs is a whole peer: its own identity (a key file, so it can resume), its own
ZeroMQ context and sockets, its own game directory. A host's bot seats are such peers too, run as asyncio
tasks in the host's process; nothing distinguishes them on the wire. `LocalGroup` runs the seats of one
process together: our seat (played by a person through the UI, or by the built-in bot) and the host's bots.

What each seat needs to be resumed is written next to its log (`local.json`: identity file, player, log
path, timeouts), so `resume` can rebuild the same group after a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from p2pspades import bots, crypto, log
from p2pspades.bots import DEFAULT_BOT, SEAT_NAMES, UnknownBot, thinking
from p2pspades.errors import LocalError, P2PSpadesError
from p2pspades.net import endpoints
from p2pspades.net.aio import settle
from p2pspades.net.auth import transport_keys
from p2pspades.net.discovery import Advertiser, DiscoveryError, TableAd, browse, local_address
from p2pspades.net.lobby import Confirm, LobbyHost, LobbyResult, TableInfo, join_table
from p2pspades.net.mesh import Mesh, announced
from p2pspades.net.peer import Peer, Player, Timing, resume_game, start_game
from p2pspades.net.store import GameStore, LocalSeat, StoreError, games_of, list_games
from p2pspades.rules import RuleSet
from p2pspades.table import GameEnded, read_genesis

logger = logging.getLogger(__name__)



class SessionError(P2PSpadesError):
    """A game cannot be started, joined or resumed here; the message says why and what to do."""


def make_bot(kind: str = DEFAULT_BOT, seed: int | bytes | None = None) -> Player:
    """The built-in bot of that level (`BOT_LEVELS`) for a peer, seeded from `seed` or at random. It thinks
    in a worker thread, so the peer's event loop keeps running meanwhile."""
    try:
        return thinking(bots.make_bot(kind, seed))
    except UnknownBot as exc:
        raise SessionError(str(exc)) from None


def identity_name(player_name: str) -> str:
    """The identity file name for a player name: letters, digits, '-', '_' ("Ann Smith" -> "ann-smith")."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", player_name.lower()).strip("-")[:48]
    return slug or "default"


def load_identity(name: str, home: str | os.PathLike[str] | None = None) -> tuple[crypto.Identity, Path]:
    """The persistent identity called `name` in the data home (created on first use), and its key file."""
    path = crypto.default_identity_path(name, home)
    try:
        return crypto.Identity.load_or_create(path), path
    except (OSError, ValueError) as exc:
        raise SessionError(f"cannot use the identity {path}: {exc}") from None


def parse_endpoint(text: str) -> str | None:
    """`HOST:PORT` or `tcp://HOST:PORT` as a ZeroMQ endpoint; None if `text` is not one (a table name)."""
    endpoint = endpoints.parse(text.strip(), scheme_optional=True)
    return None if endpoint is None else str(endpoint)


def address_towards(endpoint: str) -> str:
    """Our address as the host at `endpoint` sees it: the interface that routes there."""
    parsed = endpoints.parse(endpoint, scheme_optional=True)
    host = parsed.host if parsed is not None else "127.0.0.1"
    try:
        family, _, _, _, sockaddr = socket.getaddrinfo(host, 9, type=socket.SOCK_DGRAM)[0]
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(sockaddr)  # no packet is sent: this only picks the outgoing interface
            address: str = probe.getsockname()[0]
            return address
    except (OSError, IndexError):
        return local_address()


async def find_table(name: str, timeout: float = 3.0, interfaces: Sequence[str] | None = None) -> TableAd:
    """The one table on the LAN called `name` (or whose host fingerprint starts with it)."""
    found = await browse(timeout, interfaces)
    matches = [t for t in found if t.name == name]
    matches = matches or [t for t in found if t.host_fingerprint.startswith(name)]
    if not matches:
        seen = ", ".join(sorted({t.name for t in found})) or "none"
        raise SessionError(f"no table called {name!r} answered within {timeout:g} s (tables seen: {seen}); "
                           f"multicast may be blocked here: join with HOST:PORT instead")
    if len(matches) > 1:
        listed = "; ".join(f"{t.endpoint} host {t.host_fingerprint}" for t in matches)
        raise SessionError(f"several tables are called {name!r} ({listed}): join one with HOST:PORT")
    return matches[0]


@dataclass
class Settings:
    """What every local seat of a game shares: where games are kept, the step timeouts, the driver's pace."""

    home: str | os.PathLike[str] | None = None
    timeouts: dict[str, float] = field(default_factory=dict)
    timing: Timing = field(default_factory=Timing)


@dataclass(frozen=True)
class BotSeat:
    """A bot seat the host runs as a peer of its own."""

    identity: crypto.Identity
    identity_path: Path
    kind: str = DEFAULT_BOT
    seed: int | bytes | None = None
    name: str | None = None
    """None: named after the seat it gets (West, North, East, ...)."""


def host_bots(count: int, owner: str, kind: str = DEFAULT_BOT, seed: int | None = None, *,
              home: str | os.PathLike[str] | None = None) -> list[BotSeat]:
    """`count` bot seats with persistent identities named after their owner's (`<owner>-bot1`, ...)."""
    bots = []
    for k in range(1, count + 1):
        identity, path = load_identity(f"{owner}-bot{k}", home)
        bot_seed = None if seed is None else seed * 10 + k
        bots.append(BotSeat(identity, path, kind, bot_seed))
    return bots


@dataclass
class Seat:
    """How we play our own seat: the player (None: nobody decides yet), and what `resume` must know."""

    identity: crypto.Identity
    identity_path: Path
    name: str
    player: Player | None
    person: bool = True
    """A person's seat (played through the UI, or by the bot with --auto), not a host's bot seat."""
    bot: str = DEFAULT_BOT
    log_path: str | None = None


class LocalGroup:
    """The peers one process runs: our seat first, then the host's bot seats."""

    def __init__(self, main: Peer, bots: Sequence[Peer] = ()) -> None:
        self.main = main
        self.bots = list(bots)
        self._closed = False

    @property
    def peers(self) -> list[Peer]:
        return [self.main, *self.bots]

    async def run(self) -> GameEnded | None:
        """Play until the game ends for our seat and every bot seat has done its part."""
        tasks = [asyncio.ensure_future(peer.run()) for peer in self.peers]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in tasks:
                if task.done() and not task.cancelled() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            return tasks[0].result()
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for peer in self.peers:
            with contextlib.suppress(Exception):
                await peer.close()


def _bind_for(address: str | None, port: int | str) -> tuple[str, str | None]:
    """The bind endpoint and the address to announce: every interface and the LAN address by default."""
    if address is None:
        return endpoints.tcp("*", port), local_address()
    return endpoints.tcp(address, port), None


async def _mesh(identity: crypto.Identity, address: str | None, settings: Settings) -> Mesh:
    bind, announce = _bind_for(address, "*")
    mesh = Mesh(transport_keys(identity), bind=bind, announce=announce, heartbeat=settings.timing.heartbeat)
    await mesh.start()
    return mesh


def _allowing(confirm: Confirm | None, meshes: Callable[[], list[tuple[Mesh, int]]]) -> Confirm:
    """`confirm`, then (if the table is accepted) the allow-list of every local mesh: from the moment we
    accept the genesis, every other seat of it may connect to us, so nobody who starts on "go" is refused."""

    async def confirm_and_allow(result: LobbyResult) -> bool:
        answer = True if confirm is None else await settle(confirm(result))
        if answer:
            for mesh, seat in meshes():
                mesh.allow(seat if seat >= 0 else result.seat, result.peers())
        return bool(answer)

    return confirm_and_allow


def _local(seat: Seat, leader: int, settings: Settings, log_path: str | None) -> LocalSeat:
    return LocalSeat(str(seat.identity_path), "person" if seat.person else "bot", seat.bot, leader,
                     log_path, dict(settings.timeouts))


async def _start_group(result: LobbyResult, main: Seat, main_mesh: Mesh,
                       bots: Sequence[tuple[BotSeat, Mesh, int]], settings: Settings) -> LocalGroup:
    peers: list[Peer] = []
    try:
        peers.append(await start_game(
            result, main.identity, main_mesh, main.player, home=settings.home, timeouts=settings.timeouts,
            timing=settings.timing, local=_local(main, result.seat, settings, main.log_path)))
        for bot, mesh, seat in bots:
            bot_result = LobbyResult(seat, result.table, result.genesis, result.game_id)
            player = make_bot(bot.kind, bot.seed)
            name = bot.name or SEAT_NAMES[seat]
            spec = Seat(bot.identity, bot.identity_path, name, player, False, bot.kind)
            peers.append(await start_game(
                bot_result, bot.identity, mesh, spec.player, home=settings.home, timeouts=settings.timeouts,
                timing=settings.timing, local=_local(spec, result.seat, settings, None)))
    except BaseException:
        for peer in peers:
            await peer.close()
        raise
    return LocalGroup(peers[0], peers[1:])


def check_log_path(path: str | None) -> str | None:
    """A `--log` path we may create: absolute, not an existing file (it would mix two games)."""
    if path is None:
        return None
    target = Path(path).expanduser().absolute()
    if target.exists():
        raise SessionError(f"{target} already exists: give a new file for this game's log")
    if target.parent.exists() and not target.parent.is_dir():
        raise SessionError(f"{target.parent} is not a directory")
    return str(target)


class HostedTable:
    """A table we host: seat 0 is ours, bot seats are our peers too, joiners fill the rest.

    `await open()` binds every socket and advertises the table; `await seat_everyone()` runs the lobby until
    every seat accepted the genesis and returns the started group; `await close()` at any point.
    """

    def __init__(
        self,
        main: Seat,
        *,
        table_name: str,
        rules: RuleSet,
        bots: Sequence[BotSeat] = (),
        settings: Settings | None = None,
        address: str | None = None,
        port: int = 0,
        advertise: bool = True,
        interfaces: Sequence[str] | None = None,
        confirm: Confirm | None = None,
        on_change: Callable[[TableInfo], None] | None = None,
    ) -> None:
        if len(bots) >= rules.players:
            raise SessionError(f"a {rules.players}-seat table has room for at most {rules.players - 1} bots")
        if not 0 <= port <= 65535:
            raise SessionError(f"port {port} is out of range")
        self.main = main
        self.table_name = table_name
        self.rules = rules
        self.bot_seats = list(bots)
        self.settings = settings or Settings()
        self.address = address
        self.port = port
        self.advertise = advertise
        self.interfaces = interfaces
        self.confirm = confirm
        self.on_change = on_change
        self.lobby: LobbyHost | None = None
        self.endpoint = ""
        """Where joiners connect (tcp://ADDRESS:PORT)."""
        self.advertised: str | None = None
        """Why the table is not advertised, if it is not (None when it is, or was not asked to be)."""
        self._meshes: list[Mesh] = []
        self._bots: list[tuple[BotSeat, Mesh, int]] = []
        self._advertiser: Advertiser | None = None
        self._updates: set[asyncio.Task[None]] = set()
        self._handed_over = False

    async def open(self) -> str:
        """Bind our game inbox, the bots' and the lobby; advertise the table. Returns the lobby endpoint."""
        try:
            mesh = await _mesh(self.main.identity, self.address, self.settings)
            self._meshes.append(mesh)
            bind, announce = _bind_for(self.address, self.port or "*")
            confirm = _allowing(self.confirm, lambda: [(m, s) for _, m, s in [(None, mesh, 0), *self._bots]])
            self.lobby = LobbyHost(self.main.identity, self.table_name, self.rules, self.main.name,
                                   mesh.endpoint, bind=bind, confirm=confirm, on_change=self._changed)
            bound = await self.lobby.start()
            self.endpoint = announced(bound, announce)
            seats = range(self.rules.players - 1, self.rules.players - 1 - len(self.bot_seats), -1)
            for bot, seat in zip(self.bot_seats, seats, strict=True):  # bots take the highest seats
                bot_mesh = await _mesh(bot.identity, self.address, self.settings)
                self._meshes.append(bot_mesh)
                name = bot.name or SEAT_NAMES[seat]
                self.lobby.add_bot(name, bot.identity.public, bot_mesh.endpoint, seat=seat)
                self._bots.append((replace(bot, name=name), bot_mesh, seat))
        except (P2PSpadesError, ValueError) as exc:
            await self.close()
            raise SessionError(str(exc)) from None
        if self.advertise and self.lobby.info().free:
            await self._advertise()
        return self.endpoint

    async def _advertise(self) -> None:
        assert self.lobby is not None
        bound = endpoints.parse(self.endpoint)
        assert bound is not None, self.endpoint
        advertiser = Advertiser(self.lobby.info(), bound.port, bound.host, self.interfaces)
        try:
            await advertiser.start()
        except DiscoveryError as exc:
            self.advertised = str(exc)
            logger.warning("%s", exc)
            return
        self._advertiser = advertiser

    def _changed(self, info: TableInfo) -> None:
        if self._advertiser is not None:
            task = asyncio.get_running_loop().create_task(self._advertiser.update(info))
            self._updates.add(task)  # keep a reference until it is done
            task.add_done_callback(self._updates.discard)
        if self.on_change is not None:
            self.on_change(info)

    async def seat_everyone(self) -> LocalGroup:
        """Run the lobby until every seat accepted the genesis; then start every local seat's peer."""
        if self.lobby is None:
            await self.open()
        assert self.lobby is not None
        try:
            result = await self.lobby.run()
        except P2PSpadesError as exc:
            await self.close()
            raise SessionError(str(exc)) from None
        try:
            group = await _start_group(result, self.main, self._meshes[0], self._bots, self.settings)
        except BaseException:
            await self.close()
            raise
        self._handed_over = True
        await self._close_lobby()  # after our peers started: the others connect as soon as they hear "go"
        return group

    async def _close_lobby(self) -> None:
        if self._advertiser is not None:
            advertiser, self._advertiser = self._advertiser, None
            await advertiser.close()
        if self.lobby is not None:
            lobby, self.lobby = self.lobby, None
            await lobby.close()

    async def close(self, why: str = "") -> None:
        """Close the lobby and, unless a started game took them over, every socket."""
        if self.lobby is not None and why:
            await self.lobby.close(why)
            self.lobby = None
        await self._close_lobby()
        if not self._handed_over:
            for mesh in self._meshes:
                await mesh.close()
            self._meshes.clear()


async def join_game(
    lobby: str,
    main: Seat,
    *,
    settings: Settings | None = None,
    address: str | None = None,
    host_fingerprint: str | None = None,
    confirm: Confirm | None = None,
    on_change: Callable[[TableInfo], None] | None = None,
    timeout: float = 10.0,
) -> LocalGroup:
    """Take a seat at the table whose lobby is at `lobby` (tcp://HOST:PORT) and start our peer."""
    settings = settings or Settings()
    mesh = await _mesh(main.identity, address or address_towards(lobby), settings)
    try:
        result = await join_table(lobby, main.identity, main.name, mesh.endpoint,
                                  host_fingerprint=host_fingerprint, on_change=on_change, timeout=timeout,
                                  confirm=_allowing(confirm, lambda: [(mesh, -1)]))
        return await _start_group(result, main, mesh, (), settings)
    except BaseException as exc:
        await mesh.close()
        if isinstance(exc, P2PSpadesError | ValueError) and not isinstance(exc, SessionError):
            raise SessionError(str(exc)) from None
        raise


# ------------------------------------------------------------------------------------------------ resume


@dataclass(frozen=True)
class Resumable:
    """The seats of one game that one process runs again: the leader (ours) and its bot seats."""

    leader: GameStore
    local: LocalSeat
    bots: tuple[tuple[GameStore, LocalSeat], ...]

    @property
    def game_id(self) -> bytes:
        return self.leader.game_id


def _seats_of(stores: Sequence[GameStore]) -> dict[bytes, list[GameStore]]:
    games: dict[bytes, list[GameStore]] = {}
    for store in stores:
        games.setdefault(store.game_id, []).append(store)
    return games


def _groups(stores: Sequence[GameStore]) -> tuple[list[Resumable], list[str]]:
    """The resumable groups among one game's seat directories, and why the other seats are not."""
    locals_: dict[int, tuple[GameStore, LocalSeat]] = {}
    why: list[str] = []
    for store in stores:
        try:
            local = store.load_local()
            ended = store.ended()
        except StoreError as exc:
            why.append(f"seat {store.seat}: {exc}")
            continue
        if ended is not None:
            why.append(f"seat {store.seat}: the game is over ({ended})")
        elif store.in_use():
            why.append(f"seat {store.seat}: a running p2pspades process is playing it")
        elif not store.read_entries():
            why.append(f"seat {store.seat}: its log holds nothing")
        else:
            locals_[store.seat] = (store, local)
    groups = []
    for seat, (store, local) in sorted(locals_.items()):
        if local.leader == seat:
            bots = tuple(v for s, v in sorted(locals_.items()) if s != seat and v[1].leader == seat)
            groups.append(Resumable(store, local, bots))
    return groups, why


def find_resumable(target: str | None = None, *, seat: int | None = None,
                   home: str | os.PathLike[str] | None = None) -> Resumable:
    """Which seats to resume: of the game `target` names (a game id prefix or a log file), or of the most
    recent unfinished game. `SessionError` says clearly why there is nothing to resume."""
    if target is not None and Path(target).expanduser().is_file():
        path = Path(target).expanduser()
        try:
            frames = log.read_log(path).frames
            _, setup = read_genesis(frames[0]) if frames else (None, None)
        except (OSError, P2PSpadesError) as exc:
            raise SessionError(f"{path} is not a game log: {exc}") from None
        if setup is None:
            raise SessionError(f"{path} holds no entries: nothing to resume")
        stores = [s for s in games_of(home, setup.game_id.hex()) if _same_file(s.log_path, path)]
        if not stores:
            raise SessionError(f"no game directory on this machine writes {path} (game "
                               f"{setup.game_id.hex()}): it can be verified, not resumed")
        seat = stores[0].seat if seat is None else seat
        candidates = _seats_of(list(games_of(home, setup.game_id.hex())))
    elif target is not None:
        if not re.fullmatch(r"[0-9a-fA-F]{1,32}", target):
            raise SessionError(f"{target!r} is neither a game id nor a log file")
        candidates = _seats_of(list(games_of(home, target)))
        if not candidates:
            raise SessionError(f"no game with an id starting {target.lower()} on this machine")
        if len(candidates) > 1:
            ids = ", ".join(g.hex() for g in candidates)
            raise SessionError(f"several games start with {target.lower()}: {ids}; give more of the id")
    else:
        candidates = _seats_of(list_games(home))
        if not candidates:
            raise SessionError("there is no game on this machine to resume")
    reasons: list[str] = []
    for game_id in reversed(list(candidates)):  # the most recently changed game first
        groups, why = _groups(candidates[game_id])
        if seat is not None:
            groups = [g for g in groups if g.leader.seat == seat]
        if len(groups) == 1:
            return groups[0]
        if len(groups) > 1:
            seats = ", ".join(str(g.leader.seat) for g in groups)
            raise SessionError(f"game {game_id.hex()} has several seats to resume here ({seats}): "
                               f"say which with --seat")
        reasons.extend(f"game {game_id.hex()[:12]}, {w}" for w in why)
        if target is not None:
            break
    detail = "; ".join(reasons[-6:]) if reasons else "no seat was started here"
    raise SessionError(f"nothing to resume: {detail}")


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and os.path.samefile(a, b)
    except OSError:
        return False


async def resume_seats(
    found: Resumable,
    player: Player | None,
    *,
    settings: Settings | None = None,
    timeouts: Mapping[str, float] | None = None,
) -> LocalGroup:
    """Rebuild the peers of `found` from their logs and secrets, rebind their endpoints and reconnect."""
    settings = settings or Settings()
    peers: list[Peer] = []
    try:
        for store, local, who in [(found.leader, found.local, player),
                                  *((s, lo, make_bot(lo.bot)) for s, lo in found.bots)]:
            try:
                identity = crypto.Identity.load(local.identity)
            except FileNotFoundError:
                raise SessionError(f"seat {store.seat}: its identity file {local.identity} is gone; "
                                   f"nobody can sign for that seat any more") from None
            except (OSError, ValueError) as exc:
                raise SessionError(f"seat {store.seat}: {exc}") from None
            steps = dict(local.timeouts)
            steps.update(timeouts or {})
            try:
                peers.append(await resume_game(store, identity, who, timeouts=steps, timing=settings.timing))
            except (LocalError, ValueError) as exc:
                raise SessionError(f"seat {store.seat} cannot be resumed: {exc}") from None
    except BaseException:
        for peer in peers:
            await peer.close()
        raise
    return LocalGroup(peers[0], peers[1:])
