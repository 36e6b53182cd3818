"""`p2pspades host`: open a table on the LAN, seat joiners and bot seats, and play our seat (seat 0).

The table is advertised with zeroconf while seats are free; `p2pspades join HOST:PORT` works without it. Each
bot seat is a peer of its own (own identity, sockets, log) that this process runs, so a game with bots is
the same protocol as a game of people, and `resume` can bring the bots back after a crash.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
from collections.abc import Callable
from pathlib import Path

from p2pspades.cli.again import Again, again_lines, carry_on, host_words, our_bot_keys, our_game, rematch
from p2pspades.cli.common import (
    add_bot_option,
    add_game_options,
    default_name,
    fail,
    rules_from_args,
    run_as_profile,
)
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
from p2pspades.describe import after_text
from p2pspades.describe.game import bot_name
from p2pspades.describe.rules import described
from p2pspades.errors import LocalError
from p2pspades.exits import ExitCode, game_exit_help
from p2pspades.i18n import _, ngettext, said
from p2pspades.net.endpoints import parse
from p2pspades.net.group import Settings
from p2pspades.net.lobby_seats import NAME_LIMIT, Sequel, TableInfo, check_name
from p2pspades.net.seats import Seat, bot_seats
from p2pspades.net.session import HostedTable
from p2pspades.paths import PLAYER_IDENTITY
from p2pspades.reasons import Closing
from p2pspades.rules import RuleSet
from p2pspades.table.messages import PROTOCOL_VERSION, SUPPORTED_VERSIONS


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "host",
        help=_("host a table on the LAN (joiners and bots fill the seats)"),
        description=_("Open a table: advertise it on the LAN, seat the players who join and the bot seats "
                      "you ask for, then play.") + " " + game_exit_help(),
    )
    p.add_argument("--name", metavar=_("NAME"), help=_(
        "your name at the table (default: the profile's name, or your user name for the default profile; "
        "your key is the profile's, whatever the name)"))
    p.add_argument("--table", metavar=_("TABLE_NAME"),
                   help=_("the table's name on the LAN (default: after you, \"ana's table\")"))
    add_game_options(p)
    p.add_argument("--bots", type=int, default=0, metavar="K", help=_("seats played by bots this host runs"))
    add_bot_option(p, _("for --bots and --auto"))
    p.add_argument("--port", type=int, default=0, metavar=_("PORT"),
                   help=_("the lobby's port, what joiners give as HOST:PORT (default: any free port)"))
    p.add_argument("--address", metavar=_("ADDR"),
                   help=_("listen and announce on this address only (default: every interface, announcing "
                          "this machine's LAN address)"))
    p.add_argument("--no-advertise", action="store_true", help=_("do not announce the table with zeroconf"))
    p.add_argument("--protocol", type=int, choices=SUPPORTED_VERSIONS, default=PROTOCOL_VERSION, metavar="V",
                   help=_("the game's protocol version (default {version}, the newest; 1 proves no shuffle, "
                          "lock or void claim as it is made, and joiners refuse it unless they pass "
                          "--allow-protocol 1)").format(version=PROTOCOL_VERSION))
    again = p.add_mutually_exclusive_group()
    again.add_argument("--rematch", metavar=_("GAME_ID"),
                       help=_("a new game after game GAME_ID (which you played with this profile) ended: "
                              "the same table, rules and bots, each player back in their seat if they join "
                              "again; its genesis names the game it follows"))
    again.add_argument("--carry-on", metavar=_("GAME_ID"),
                       help=_("carry game GAME_ID on after a player was dropped (its abandonment) or left, "
                              "or everybody agreed to stop: a new game from its scores and bags, the same "
                              "players in the same seats and a bot of yours in each empty one; you must have "
                              "hosted it"))
    add_seat_options(p)
    p.set_defaults(run=run)


def check_host_args(args: argparse.Namespace) -> RuleSet:
    rules = rules_from_args(args)
    if args.name is None:
        args.name = default_name(args.profile)
    if args.rematch or args.carry_on:
        option = "--rematch" if args.rematch else "--carry-on"
        if args.players is not None or args.target is not None or args.rules != "classic" or args.bots:
            raise LocalError(_("{option} plays the old game's rules with its bots: leave out --rules, "
                               "--players, --target and --bots").format(option=option))
        check_name(args.name)
        if args.table is not None:
            check_name(args.table)
        return rules
    if args.table is None:
        args.table = f"{args.name[:NAME_LIMIT - 8]}'s table"
    try:
        check_name(args.name)
        check_name(args.table)
    except ValueError as exc:
        raise LocalError(said(exc)) from None
    if not 0 <= args.bots < rules.players:
        raise LocalError(_("--bots must be 0..{most} for {players} players").format(
            most=rules.players - 1, players=rules.players))
    if not 0 <= args.port <= 65535:
        raise LocalError(_("--port {port} is not a port number").format(port=args.port))
    return rules


def run(args: argparse.Namespace) -> int:
    try:
        rules = check_host_args(args)
        timeouts_from(args)
    except LocalError as exc:
        return fail("host", said(exc))
    return run_as_profile("host", args, lambda: host(rules, args, settings_from(args)),
                          reads=bool(args.rematch or args.carry_on))


def play_again(args: argparse.Namespace, me: bytes) -> Again | None:
    """The old game `--rematch` or `--carry-on` names, from this profile's own log of it (None: neither)."""
    game_id = args.rematch or args.carry_on
    if not game_id:
        return None
    _verdict, old = our_game(args.home, game_id, args.profile)
    keys = our_bot_keys(args.home, PLAYER_IDENTITY)
    again = rematch(old, me, keys) if args.rematch else carry_on(old, me, keys)
    if args.table is None:
        args.table = old.setup.name
    return again


def again_bots(again: Again | None, args: argparse.Namespace) -> tuple[list[Seat], Sequel | None, int]:
    """The bot seats of our table: for a table that plays again, the old game's bots of ours (the same
    keys, back in their seats) and, for a continuation, one more for each seat gone (abandoned, or left);
    else `--bots` new ones. With the lobby's sequel (each such bot's seat kept for it), and the number of the
    next bot the lobby screen would add."""
    if again is None:
        return bot_seats(args.bots, PLAYER_IDENTITY, args.bot, home=args.home), None, args.bots + 1
    ours = our_bot_keys(args.home, PLAYER_IDENTITY)
    held = {s.key: s.seat for s in again.old.setup.seats if s.key in ours}
    bots = [bot for key, seat in sorted(held.items(), key=lambda item: item[1]) if seat in again.bot_seats
            for bot in bot_seats(1, PLAYER_IDENTITY, args.bot, first=ours[key], home=args.home)]
    unused = (k for k in itertools.count(1) if k not in {ours[key] for key in held})
    sequel = again.sequel
    for seat in again.bots_for:
        (extra,) = bot_seats(1, PLAYER_IDENTITY, args.bot, first=next(unused), home=args.home)
        bots.append(extra)
        sequel = dataclasses.replace(sequel, places={**sequel.places, extra.identity.public: seat})
    return bots, sequel, next(unused)


async def host(rules: RuleSet, args: argparse.Namespace, settings: Settings) -> int:
    ui = load_ui(args)
    main = our_seat(args)
    owner = PLAYER_IDENTITY
    again = play_again(args, main.identity.public)
    if again is not None:
        rules = again.rules
    bots, sequel, next_bot = again_bots(again, args)
    hosted = HostedTable(main, table_name=args.table, rules=rules, bots=bots, settings=settings,
                         bot_name=bot_name(),
                         address=args.address, port=args.port, advertise=not args.no_advertise,
                         version=args.protocol,
                         start_when=starter if ui is None else None,
                         on_change=lobby_printer() if ui is None else None,
                         sequel=sequel)
    if ui is None:
        hosted.on_wait = silence_printer(hosted)
    endpoint = await hosted.open()
    lobby = parse(endpoint)
    host_port = endpoint if lobby is None else lobby.host_port
    main.again = host_words(args, 0 if lobby is None else lobby.port)  # kept for a resumed game too
    say(_("hosting table {table!r} ({rules}, {seats} seats, target {target}, protocol version {version}) as "
          "{name}, key {fingerprint}").format(table=args.table, rules=described(rules), seats=rules.players,
                                             target=rules.target, version=args.protocol, name=args.name,
                                             fingerprint=main.identity.fingerprint))
    if again is not None:
        after = again.sequel.after
        said = (_("the game at this table {after}") if after.continues
                else _("the game at this table is {after}"))
        say(said.format(after=after_text(after)))
    say(_("lobby: {endpoint}  (others join with: {command})").format(endpoint=endpoint,
                                                                     command=f"p2pspades join {host_port}"))
    if bots:
        n = len(bots)
        say(ngettext("{n} bot seat runs on this machine: you can see its cards",
                     "{n} bot seats run on this machine: you can see their cards", n).format(n=n))
    if hosted.advertised is not None:
        say(_("not advertised on the LAN: {why}").format(why=hosted.advertised))
    try:
        if ui is None:
            group = await hosted.seat_everyone()
        else:
            seats = HostSeats(hosted, owner, args.bot, first=next_bot, home=args.home)
            model = ui.LobbyModel(args.table, rules, hosted.info().seated, you=0, controls=seats,
                                  join_with=host_port, version=args.protocol,
                                  after=None if again is None else again.sequel.after)
            hosted.start_when = lambda info: model.ask()
            hosted.on_change = lambda info: model.set_seats(info.seated)
            hosted.on_wait = model.set_waits
            group = await ui.run_lobby(model, hosted.seat_everyone(), color=not args.no_color)
    except BaseException:
        await hosted.close(Closing.STOPPED)
        raise
    if group is None:
        await hosted.close(Closing.LEFT)
        say(_("you left the table before the game started"))
        return ExitCode.LEFT
    return await run_group(group, ui, args, again=lambda table: again_lines(main.again, table, args))


def silence_printer(hosted: HostedTable) -> Callable[[dict[int, int]], None]:
    """With --auto: a line for each joiner whose program goes silent, with when its seat is freed."""
    said: set[int] = set()

    def show(silent: dict[int, int]) -> None:
        seats = hosted.info()
        for seat in sorted(set(silent) - said):
            who = seats.at(seat)
            name = who.name if who is not None else _("seat {seat}").format(seat=seat)
            say(_("{who}'s program has not answered for a while: its seat is freed in {seconds} s unless it "
                  "answers").format(who=name, seconds=silent[seat]))
        said.intersection_update(silent)
        said.update(silent)

    return show


def starter(info: TableInfo) -> bool:
    """With --auto, the host starts the table as soon as every seat is taken."""
    say(_("every seat is taken; starting table {table!r}").format(table=info.name))
    return True


class HostSeats:
    """The lobby screen's seat keys on the host's side: bots come and go as peers of this process."""

    def __init__(self, hosted: HostedTable, owner: str, kind: str, first: int, home: Path | None) -> None:
        self.hosted = hosted
        self.home = home
        self.owner = owner
        self.level = kind
        """The level of the next bot (l on the lobby screen changes it)."""
        self.next = first

    async def add_bot(self, seat: int | None) -> None:
        (bot,) = bot_seats(1, self.owner, self.level, first=self.next, home=self.home)
        self.next += 1
        await self.hosted.add_bot(bot, seat)

    async def remove(self, seat: int) -> None:
        await self.hosted.remove(seat)

    def move(self, seat: int, to: int) -> None:
        self.hosted.move(seat, to)

    def level_of(self, public_key: bytes) -> str | None:
        return self.hosted.bot_level(public_key)

    def set_level(self, seat: int, level: str) -> None:
        self.hosted.set_bot_level(seat, level)
