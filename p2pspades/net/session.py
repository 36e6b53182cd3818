"""Hosting a table and joining one: the lobby, the local seats' game inboxes, discovery, and the start.

`HostedTable` runs the host's lobby with its bot seats (which its player may add, remove and move while the
lobby is open) and advertises the table; `join_game` takes a seat, with bots of our own if asked. Both give a
`net.group.LocalGroup` of started peers. From the moment a seat accepts the genesis, every local mesh lets the
other seats of it in, so nobody who starts on `go` is refused.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence

from p2pspades.errors import N_, P2PSpadesError, detail_of
from p2pspades.net import endpoints
from p2pspades.net.aio import settle
from p2pspades.net.discovery import Advertiser, DiscoveryError, address_towards
from p2pspades.net.group import LocalGroup, Settings, bind_for, open_mesh, start_group
from p2pspades.net.lobby import Confirm, LobbyHost, StartWhen, join_table, peers_of
from p2pspades.net.lobby_seats import NAME_LIMIT, LobbyError, LobbyResult, Sequel, TableInfo
from p2pspades.net.mesh import Mesh, announced
from p2pspades.net.seats import Seat, SessionError
from p2pspades.reasons import Closing, Trouble
from p2pspades.rules import RuleSet
from p2pspades.table.messages import PROTOCOL_VERSION

logger = logging.getLogger(__name__)


async def _ask(question: Callable[[object], bool | Awaitable[bool]] | None, value: object) -> bool:
    return True if question is None else bool(await settle(question(value)))


class HostedTable:
    """A table we host: seat 0 is ours, bot seats are our peers too, joiners (and their bots) fill the rest.

    `await open()` binds every socket and advertises the table; `add_bot`, `remove` and `move` manage the
    seats while the lobby is open; `await seat_everyone()` runs the lobby until every seat accepted the
    genesis and returns the started group; `await close()` at any point.
    """

    def __init__(
        self,
        main: Seat,
        *,
        table_name: str,
        rules: RuleSet,
        bots: Sequence[Seat] = (),
        settings: Settings | None = None,
        address: str | None = None,
        port: int = 0,
        advertise: bool = True,
        interfaces: Sequence[str] | None = None,
        start_when: StartWhen | None = None,
        on_change: Callable[[TableInfo], None] | None = None,
        compass_names: Sequence[str] = (),
        bot_name: str = "{owner}'s bot",
        version: int = PROTOCOL_VERSION,
        sequel: Sequel | None = None,
        on_wait: Callable[[dict[int, int]], None] | None = None,
    ) -> None:
        if len(bots) >= rules.players:
            raise SessionError(N_("a {seats}-seat table has room for at most {bots} bots"),
                               seats=rules.players, bots=rules.players - 1)
        if not 0 <= port <= 65535:
            raise SessionError(N_("port {port} is out of range"), port=port)
        self.main = main
        self.table_name = table_name
        self.rules = rules
        self.initial_bots = list(bots)
        self.settings = settings or Settings()
        self.address = address
        self.port = port
        self.advertise = advertise
        self.interfaces = interfaces
        self.start_when = start_when
        self.on_change = on_change
        self.compass_names = tuple(compass_names)
        """Names for our bots by seat (West, North, East, in the player's language): only where we alone
        watch, from seat 0 at the bottom of the screen, and no bot moves (`play`). Otherwise (none given) they
        are named after us, by `bot_name`."""
        self.bot_name_template = bot_name
        """Our bots' name after us: "{owner}'s bot" in the host's language (a name: every screen shows it as
        it is), with a number from the second on."""
        self.version = version
        """The protocol version of the genesis: the newest, unless the host's player asked for older."""
        self.sequel = sequel
        """The game this table's game follows (a rematch or a continuation), and who sat where in it."""
        self.on_wait = on_wait
        """The countdown of the joiners gone silent (`LobbyHost.on_wait`)."""
        self.lobby: LobbyHost | None = None
        self.endpoint = ""
        """Where joiners connect (tcp://ADDRESS:PORT)."""
        self.advertised: str | None = None
        """Why the table is not advertised, if it is not (None when it is, or was not asked to be)."""
        self._main_mesh: Mesh | None = None
        self._bots: dict[bytes, tuple[Seat, Mesh]] = {}
        self._advertiser: Advertiser | None = None
        self._updates: set[asyncio.Task[None]] = set()
        self._handed_over = False

    async def open(self) -> str:
        """Bind our game inbox, the bots' and the lobby; advertise the table. Returns the lobby endpoint."""
        try:
            self._main_mesh = await open_mesh(self.main.identity, self.address, self.settings)
            bind, announce = bind_for(self.address, self.port or "*")
            assert self.main.name is not None
            self.lobby = LobbyHost(self.main.identity, self.table_name, self.rules, self.main.name,
                                   self._main_mesh.endpoint, bind=bind, start_when=self._start_when,
                                   on_change=self._changed, version=self.version, sequel=self.sequel,
                                   on_wait=lambda silent: self.on_wait(silent) if self.on_wait else None)
            bound = await self.lobby.start()
            self.endpoint = announced(bound, announce)
            for bot in self.initial_bots:
                await self.add_bot(bot)
        except (P2PSpadesError, ValueError) as exc:
            await self.close()
            raise SessionError(detail_of(exc)) from None
        if self.advertise and self.lobby.info().free:
            await self._advertise()
        return self.endpoint

    def info(self) -> TableInfo:
        assert self.lobby is not None
        return self.lobby.info()

    async def add_bot(self, bot: Seat, seat: int | None = None) -> None:
        """Seat a bot peer this process runs: at `seat`, or on our side if a seat is free there."""
        assert self.lobby is not None
        seat = self.lobby.machine.seat_for_bot(bot.identity.public) if seat is None else seat
        mesh = await open_mesh(bot.identity, self.address, self.settings)
        try:
            name = bot.name or (self.compass_names[seat] if seat < len(self.compass_names)
                                else self.bot_name())
            self.lobby.add_bot(name, bot.identity.public, mesh.endpoint, seat)
        except BaseException:
            await mesh.close()
            raise
        self._bots[bot.identity.public] = (bot, mesh)

    async def remove(self, seat: int) -> None:
        """Empty `seat`: a bot of ours (its sockets close) or a joiner."""
        assert self.lobby is not None
        gone = self.lobby.remove(seat)
        entry = self._bots.pop(gone.public_key, None)
        if entry is not None:
            await entry[1].close()

    def move(self, seat: int, to: int) -> None:
        """Move the bot at `seat` to seat `to` (swapping with a bot sitting there)."""
        assert self.lobby is not None
        self.lobby.move(seat, to)

    def bot_name(self) -> str:
        """The name of our next bot: after us ("ana's bot", "ana's bot 2", ...), never after a seat (a
        compass name would match seat 0's screen only, as every screen shows its own seat at the bottom)."""
        assert self.lobby is not None
        taken = {s.name for s in self.lobby.info().seated}
        room = NAME_LIMIT - 3 - len(self.bot_name_template.format(owner=""))  # " 99" after it
        base = self.bot_name_template.format(owner=(self.main.name or "host")[:max(1, room)])
        names = (base + (f" {k}" if k > 1 else "") for k in range(1, 100))
        return next(name for name in names if name not in taken)

    def bot_level(self, public_key: bytes) -> str | None:
        """The level of our bot with that key (None: not one of ours)."""
        ours = self._bots.get(public_key)
        return None if ours is None else ours[0].bot

    def set_bot_level(self, seat: int, level: str) -> None:
        """Change the level of our bot at `seat` (its player is made when the game starts)."""
        assert self.lobby is not None
        placed = self.lobby.info().at(seat)
        ours = self._bots.get(placed.public_key) if placed is not None else None
        if ours is None:
            raise SessionError(N_("seat {seat} is not one of your bots"), seat=seat)
        ours[0].bot = level

    async def _start_when(self, info: TableInfo) -> bool:
        if not await _ask(self.start_when, info):  # type: ignore[arg-type]
            return False
        assert self._main_mesh is not None
        self._main_mesh.allow(0, peers_of(info))
        for key, (_, mesh) in self._bots.items():
            mesh.allow(info.seat_of(key) or 0, peers_of(info))
        return True

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
        assert self.lobby is not None and self._main_mesh is not None
        try:
            result = await self.lobby.run()
        except P2PSpadesError as exc:
            cancelled = isinstance(exc, LobbyError) and exc.reason.code is Trouble.CANCELLED
            await self.close(Closing.CANCELLED if cancelled else Closing.FAILED)
            raise SessionError(detail_of(exc)) from None
        try:
            group = await start_group(result, self.main, self._main_mesh, list(self._bots.values()),
                                      self.settings)
        except BaseException:
            await self.close()
            raise
        self._handed_over = True
        await self._close_lobby()  # after our peers started: the others connect as soon as they hear "go"
        return group

    async def _close_lobby(self, why: Closing | None = None) -> None:
        if self._advertiser is not None:
            advertiser, self._advertiser = self._advertiser, None
            await advertiser.close()
        if self.lobby is not None:
            lobby, self.lobby = self.lobby, None
            await lobby.close(why)

    async def close(self, why: Closing | None = None) -> None:
        """Close the lobby (telling the joiners `why`) and, unless a started game took them over, our
        sockets."""
        await self._close_lobby(why)
        if not self._handed_over:
            meshes = [m for _, m in self._bots.values()]
            if self._main_mesh is not None:
                meshes.insert(0, self._main_mesh)
            for mesh in meshes:
                await mesh.close()
            self._bots.clear()
            self._main_mesh = None


def _allowing(confirm: Confirm | None, meshes: Sequence[tuple[Mesh, bytes]]) -> Confirm:
    """`confirm`, then (if the table is accepted) the allow-list of every local mesh."""

    async def confirm_and_allow(result: LobbyResult) -> bool:
        if not await _ask(confirm, result):  # type: ignore[arg-type]
            return False
        for mesh, key in meshes:
            mesh.allow(result.table.seat_of(key) or 0, peers_of(result.table))
        return True

    return confirm_and_allow


async def join_game(
    lobby: str,
    main: Seat,
    *,
    bots: Sequence[Seat] = (),
    settings: Settings | None = None,
    address: str | None = None,
    host_fingerprint: str | None = None,
    confirm: Confirm | None = None,
    on_change: Callable[[TableInfo], None] | None = None,
    allow_version: int = PROTOCOL_VERSION,
    check_after: Callable[[TableInfo], str | None] | None = None,
    on_wait: Callable[[int | None], None] | None = None,
) -> LocalGroup:
    """Take a seat at the table whose lobby is at `lobby` (tcp://HOST:PORT), with `bots` of our own (seated
    on our side where the rules have sides, once we are seated), and start our peers. A game of a protocol
    version older than `allow_version` is refused (a downgrade), and a table whose game follows another in a
    way `check_after` refuses (see `GuestLobby.check_after`). `on_wait`: our seat's countdown to giving up on
    a silent host (see `join_table`)."""
    settings = settings or Settings()
    address = address or address_towards(lobby)
    meshes: list[Mesh] = []
    tasks: list[asyncio.Future[LobbyResult]] = []
    seated = asyncio.Event()

    def changed(info: TableInfo) -> None:
        if info.seat_of(main.identity.public) is not None:
            seated.set()
        if on_change is not None:
            on_change(info)

    try:
        mesh = await open_mesh(main.identity, address, settings)
        meshes.append(mesh)
        assert main.name is not None
        ours = asyncio.ensure_future(join_table(
            lobby, main.identity, main.name, mesh.endpoint, host_fingerprint=host_fingerprint,
            on_change=changed, confirm=_allowing(confirm, [(mesh, main.identity.public)]),
            allow_version=allow_version, check_after=check_after, on_wait=on_wait))
        tasks.append(ours)
        bot_meshes: list[tuple[Seat, Mesh]] = []
        if bots:
            waiting = asyncio.ensure_future(seated.wait())
            await asyncio.wait([ours, waiting], return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            if ours.done():
                ours.result()  # raises why we could not sit down
            for k, bot in enumerate(bots):
                bot_mesh = await open_mesh(bot.identity, address, settings)
                meshes.append(bot_mesh)
                bot_meshes.append((bot, bot_mesh))
                name = bot.name or f"{main.name}'s bot" + (f" {k + 1}" if len(bots) > 1 else "")
                tasks.append(asyncio.ensure_future(join_table(
                    lobby, bot.identity, name[:32], bot_mesh.endpoint, host_fingerprint=host_fingerprint,
                    owner=main.identity.public, confirm=_allowing(None, [(bot_mesh, bot.identity.public)]),
                    allow_version=allow_version)))
        results = await asyncio.gather(*tasks)
        if len({r.genesis for r in results}) != 1:
            raise SessionError(N_("our seats were given different games"))
        return await start_group(results[0], main, mesh, bot_meshes, settings)
    except BaseException as exc:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for m in meshes:
            await m.close()
        if isinstance(exc, P2PSpadesError | ValueError) and not isinstance(exc, SessionError):
            raise SessionError(detail_of(exc)) from None
        raise
