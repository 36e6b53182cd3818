"""`p2pspades join TABLE|HOST:PORT`: take a seat at a table on the LAN and play it.

`HOST:PORT` (what the host prints) always works; a table name is looked up with zeroconf, and then the host's
key must match the fingerprint the table advertised. Before the game starts, every seated player's name and
key fingerprint is shown (printed with --auto) and the genesis is only accepted after that.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import re
from collections.abc import Callable
from typing import Any

from p2pspades.cli.again import CheckAfter, again_lines, doubt_lines, doubts_heading, join_words, refusal
from p2pspades.cli.common import add_bot_option, default_name, fail, run_as_profile
from p2pspades.cli.echo import say
from p2pspades.cli.play import (
    add_seat_options,
    load_ui,
    lobby_printer,
    our_seat,
    run_group,
    settings_from,
    timeouts_from,
)
from p2pspades.describe.tables import advertised, proposal
from p2pspades.errors import LocalError
from p2pspades.exits import ExitCode, game_exit_help
from p2pspades.i18n import _, ngettext, said
from p2pspades.net.discovery import find_table, parse_endpoint
from p2pspades.net.endpoints import parse
from p2pspades.net.group import LocalGroup, Settings
from p2pspades.net.lobby_machine import CONNECT_TIMEOUT
from p2pspades.net.lobby_seats import LobbyError, LobbyResult, TableInfo, check_name
from p2pspades.net.seats import bot_seats
from p2pspades.net.session import join_game
from p2pspades.paths import PLAYER_IDENTITY
from p2pspades.reasons import Trouble
from p2pspades.table.messages import PROTOCOL_VERSION, SUPPORTED_VERSIONS


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "join",
        help=_("join a table on the LAN by name or HOST:PORT"),
        description=_("Take a seat at a table and play it.") + " " + game_exit_help(_("failed to join")),
    )
    p.add_argument("table", metavar=_("TABLE|HOST:PORT"),
                   help=_("the host's lobby address as it printed it, or a table name from 'p2pspades "
                          "tables'"))
    p.add_argument("--name", metavar=_("NAME"), help=_(
        "your name at the table (default: the profile's name, or your user name for the default profile; "
        "your key is the profile's, whatever the name)"))
    p.add_argument("--bots", type=int, default=0, metavar="N",
                   help=_("bring N bots of your own, seated on your side; they run on this machine, so you "
                          "can see their cards (and nobody else can)"))
    add_bot_option(p, _("for --bots and --auto"))
    p.add_argument("--fingerprint", metavar="FP", help=_("refuse the table unless the host's key has this "
                                                         "fingerprint (as the host's screen shows it)"))
    p.add_argument("--address", metavar=_("ADDR"),
                   help=_("our own address for the game (default: the one that routes to the host)"))
    p.add_argument("--interface", action="append", metavar=_("ADDR"),
                   help=_("look for the table on this interface only (repeatable)"))
    p.add_argument("--wait", type=float, default=3.0, metavar=_("S"),
                   help=_("how long to look for a table by name, in seconds (default 3)"))
    p.add_argument("--allow-protocol", type=int, choices=SUPPORTED_VERSIONS, default=PROTOCOL_VERSION,
                   metavar="V", help=_("also accept a table of protocol version V or newer (default: "
                                       "only {version}, the newest; version 1 proves no shuffle, lock or "
                                       "void claim as it is made, so a host proposing it is refused unless "
                                       "you allow it)").format(version=PROTOCOL_VERSION))
    add_seat_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.name is None:
            args.name = default_name(args.profile)
        check_name(args.name)
        if not 0 <= args.bots <= 7:
            raise LocalError(_("--bots must be 0..7, not {bots}").format(bots=args.bots))
        check_address(args.table)
        timeouts_from(args)
    except (LocalError, ValueError) as exc:
        return fail("join", said(exc))
    return run_as_profile("join", args, lambda: join(args, settings_from(args)))


def check_address(table: str) -> None:
    """`LocalError` with a hint for what is meant as an address but is not a whole `HOST:PORT` (an address
    without its port, a port that is not a number), rather than searching the LAN for a table so named."""
    text = table.strip()
    host, colon, port = text.removeprefix("tcp://").rpartition(":")
    if not colon:
        host, port = text.removeprefix("tcp://"), ""
    looks_like_address = text.startswith("tcp://") or _is_ip(host.strip("[]")) or host == "localhost" or (
        "." in host and re.fullmatch(r"[A-Za-z0-9.-]+", host) is not None)
    if not looks_like_address:
        return  # a table name
    if not colon or not port:
        raise LocalError(_("{address} is an address without the lobby's port: give HOST:PORT, as the host "
                           "printed it after 'others join with:'").format(address=text))
    if not port.isdigit():
        raise LocalError(_("{address}: {port!r} is not a port number: give HOST:PORT, as the host printed it "
                           "after 'others join with:'").format(address=text, port=port))
    if not 1 <= int(port) <= 65535:
        raise LocalError(_("{address}: {port} is not a port number (1..65535)").format(address=text,
                                                                                         port=port))


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


async def join(args: argparse.Namespace, settings: Settings) -> int:
    ui = load_ui(args)
    main = our_seat(args)
    lobby = parse_endpoint(args.table)
    fingerprint = args.fingerprint
    if lobby is None:
        say(_("looking for table {table!r} on the LAN ...").format(table=args.table))
        ad = await find_table(args.table, args.wait, args.interface)
        lobby = ad.endpoint
        if fingerprint is not None and fingerprint != ad.host_fingerprint:
            raise LocalError(_("table {table!r} is hosted by {found}, not {fingerprint}").format(
                table=args.table, found=ad.host_fingerprint, fingerprint=fingerprint))
        fingerprint = ad.host_fingerprint
        say(_("found {table}").format(table=advertised(ad)))
    bots = bot_seats(args.bots, PLAYER_IDENTITY, args.bot, home=args.home)
    main.lobby = host_port(lobby)
    main.again = join_words(args, main.lobby)  # kept for a resumed game too
    check = CheckAfter(args.home, auto=ui is None)
    screen = JoinScreen(check)
    say(_("connecting to {lobby} as {name}, key {fingerprint} (no answer within {seconds} s gives up) "
          "...").format(
        lobby=host_port(lobby), name=args.name, fingerprint=main.identity.fingerprint,
        seconds=f"{CONNECT_TIMEOUT:g}"))
    if bots:
        say(ngettext("bringing {n} bot of ours: it runs on this machine, so you can see its cards",
                     "bringing {n} bots of ours: they run on this machine, so you can see their cards",
                     len(bots)).format(n=len(bots)))
    joining = asyncio.ensure_future(join_game(
        lobby, main, bots=bots, settings=settings, address=args.address, host_fingerprint=fingerprint,
        allow_version=args.allow_protocol, check_after=check,
        confirm=auto_confirm(check) if ui is None else screen.ask,
        on_change=lobby_printer(main.identity.public) if ui is None else screen.show,
        on_wait=host_silence() if ui is None else screen.wait))
    if ui is None:
        group = await joining
    else:
        left = await screen.run(ui, joining, main.identity.public, color=not args.no_color)
        if left is None:
            say(_("you left the table before the game started"))
            return ExitCode.LEFT
        group = left
    return await run_group(group, ui, args, again=lambda table: again_lines(main.again, table, args))


def host_silence() -> Callable[[int | None], None]:
    """With --auto: a line each time the host's program goes silent, with when we give up on it."""
    silent = False

    def show(left: int | None) -> None:
        nonlocal silent
        if left is not None and not silent:
            say(_("the host's program has not answered for a while: we leave in {seconds} s unless it "
                  "answers").format(seconds=left))
        silent = left is not None

    return show


def auto_confirm(check: CheckAfter) -> Callable[[LobbyResult], bool]:
    """With --auto: the proposal is printed, and accepted unless it follows another game in a way that needs
    a person's yes (`CheckAfter`): then it is refused, in one line."""

    def confirm(result: LobbyResult) -> bool:
        say(proposal(result))
        doubts = check.proposal(result)
        after = result.table.after
        if doubts and after is not None:
            raise LobbyError(Trouble.FOLLOWS, problem=refusal(after, doubt_lines(doubts, result.table.rules,
                                                                                  result.seat)))
        return True

    return confirm


def host_port(endpoint: str) -> str:
    parsed = parse(endpoint)
    return endpoint if parsed is None else parsed.host_port


class JoinScreen:
    """The joiner's lobby screen, shown from the host's first answer until the game starts; with the
    doubts about a game that follows another (`CheckAfter`), whose acceptance then needs an explicit yes."""

    def __init__(self, check: CheckAfter) -> None:
        self.check = check
        self.model: Any | None = None
        self.first: asyncio.Future[TableInfo] = asyncio.get_running_loop().create_future()
        self.you = b""

    def wait(self, left: int | None) -> None:
        """The countdown to giving up on a silent host, on its row."""
        if self.model is not None:
            self.model.set_waits({} if left is None else {0: left})

    def show(self, info: TableInfo) -> None:
        if self.model is None:
            if not self.first.done():
                self.first.set_result(info)
            return
        self.model.you = info.seat_of(self.you)
        self.model.set_seats(info.seated)

    async def ask(self, result: LobbyResult) -> bool:
        if self.model is None:
            return False
        self.model.you = result.seat
        self.model.set_seats(result.table.seated)
        doubts = self.check.proposal(result)
        self.model.set_doubts(doubt_lines(doubts, result.table.rules, result.seat), doubts_heading(doubts))
        answer: bool = await self.model.ask()
        return answer

    async def run(self, ui: Any, joining: asyncio.Future[LocalGroup], you: bytes, *,
                  color: bool) -> LocalGroup | None:
        """Wait for the host's first answer (or the failure to get one), then show the lobby."""
        self.you = you
        waits: list[asyncio.Future[Any]] = [joining, self.first]
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        if not self.first.done():
            return await joining  # raises why nobody answered
        info = self.first.result()
        self.model = ui.LobbyModel(info.name, info.rules, info.seated, you=info.seat_of(you),
                                   version=info.version, after=info.after)
        if info.after is not None:  # what can be checked before the seats are known: rules, scores, dealer
            doubts = self.check.doubts(info.after, info.rules)
            self.model.set_doubts(doubt_lines(doubts, info.rules, info.seat_of(you)), doubts_heading(doubts))
        self.show(info)
        group: LocalGroup | None = await ui.run_lobby(self.model, joining, color=color)
        return group
