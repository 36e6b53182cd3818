"""`p2pspades join TABLE|HOST:PORT`: take a seat at a table on the LAN and play it.

`HOST:PORT` (what the host prints) always works; a table name is looked up with zeroconf, and then the host's
key must match the fingerprint the table advertised. Before the game starts, every seated player's name and
key fingerprint is shown (printed with --auto) and the genesis is only accepted after that.
"""

from __future__ import annotations

import argparse

from p2pspades.bots import BOT_KINDS, DEFAULT_BOT
from p2pspades.cli.common import default_name, fail, run_as_profile
from p2pspades.cli.play import (
    add_seat_options,
    confirmer,
    load_ui,
    lobby_printer,
    our_seat,
    run_group,
    say,
    settings_from,
    timeouts_from,
)
from p2pspades.errors import LocalError
from p2pspades.exits import game_exit_help
from p2pspades.net.lobby import check_name
from p2pspades.net.session import Settings, find_table, join_game, parse_endpoint


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "join",
        help="join a table on the LAN by name or HOST:PORT",
        description="Take a seat at a table and play it. " + game_exit_help("failed to join"),
    )
    p.add_argument("table", metavar="TABLE|HOST:PORT",
                   help="the host's lobby address as it printed it, or a table name from 'p2pspades tables'")
    p.add_argument("--name", default=default_name(),
                   help="your name at the table (default: your user name; your identity is kept under it)")
    p.add_argument("--bot", choices=BOT_KINDS, default=DEFAULT_BOT, metavar="LEVEL",
                   help="bot level with --auto: easy, normal or expert (default normal)")
    p.add_argument("--fingerprint", metavar="FP", help="refuse the table unless the host's key has this "
                   "fingerprint (as the host's screen shows it)")
    p.add_argument("--address", metavar="ADDR",
                   help="our own address for the game (default: the one that routes to the host)")
    p.add_argument("--interface", action="append", metavar="ADDR",
                   help="look for the table on this interface only (repeatable)")
    p.add_argument("--wait", type=float, default=3.0, metavar="S",
                   help="how long to look for a table by name (default 3)")
    add_seat_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        check_name(args.name)
        timeouts_from(args)
    except (LocalError, ValueError) as exc:
        return fail("join", str(exc))
    return run_as_profile("join", args, lambda: join(args, settings_from(args)))


async def join(args: argparse.Namespace, settings: Settings) -> int:
    ui = load_ui(args)
    main = our_seat(args)
    lobby = parse_endpoint(args.table)
    fingerprint = args.fingerprint
    if lobby is None:
        say(f"looking for table {args.table!r} on the LAN ...")
        ad = await find_table(args.table, args.wait, args.interface)
        lobby = ad.endpoint
        if fingerprint is not None and fingerprint != ad.host_fingerprint:
            raise LocalError(f"table {args.table!r} is hosted by {ad.host_fingerprint}, not {fingerprint}")
        fingerprint = ad.host_fingerprint
        say(f"found {ad}")
    say(f"joining {lobby} as {args.name}, key {main.identity.fingerprint}")
    group = await join_game(lobby, main, settings=settings, address=args.address,
                            host_fingerprint=fingerprint, confirm=confirmer(ui, not args.no_color),
                            on_change=lobby_printer())
    return await run_group(group, ui, color=not args.no_color)
