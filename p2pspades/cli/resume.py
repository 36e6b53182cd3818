"""`p2pspades resume [GAME_ID|LOG_PATH]`: carry on a game after a crash, a kill or a lost connection.

The peer is rebuilt from what it kept on disk: the log (every entry it ever sent is in it), the hand secrets
(saved before their commitments went out) and the seat map. It listens where it listened before, reconnects,
and syncs before it makes any move: it hears every other seat's head and fetches and checks what it missed
(if the game ended meanwhile, by a certificate that this seat stopped answering, say, it shows that end and
its log ends the same way). Then it plays on; a host's bot seats come back with it.
"""

from __future__ import annotations

import argparse

from p2pspades.cli.again import again_lines
from p2pspades.cli.common import add_bot_option, add_profile_option, fail, run_as_profile
from p2pspades.cli.echo import say
from p2pspades.cli.page import add_web_options
from p2pspades.cli.play import add_timeout_options, load_ui, run_group, timeouts_from
from p2pspades.errors import LocalError
from p2pspades.exits import game_exit_help
from p2pspades.i18n import _, ngettext, said
from p2pspades.net.group import Settings
from p2pspades.net.peer import Timing
from p2pspades.net.resume import Resumable, find_resumable, resume_seats
from p2pspades.net.seats import make_bot
from p2pspades.ui.prefs import add_screen_options


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "resume",
        help=_("resume an unfinished game after a crash"),
        description=_("Resume a game from its log, secrets and seat map: the most recent unfinished one, or "
                      "the one given by its id (a prefix will do) or its log file. It syncs with the other "
                      "seats before it moves; if no other player's program answers within --timeout-sync "
                      "seconds, the game may have ended without you: it says whose log tells how, and "
                      "stops.") + " " + game_exit_help(_("nothing to resume"), resumed=True),
    )
    p.add_argument("game", nargs="?", metavar=_("GAME_ID|LOG_PATH"),
                   help=_("which game (default: the most recent unfinished one)"))
    p.add_argument("--seat", type=int, metavar="N", help=_("which of our seats, if this machine has several"))
    p.add_argument("--auto", action="store_true", help=_("the built-in bot plays our seat from now on"))
    add_bot_option(p, _("for --auto"))
    add_timeout_options(p)
    p.add_argument("--timeout-sync", type=float, default=Timing.alone, metavar=_("S"),
                   help=_("seconds to wait for another player's program to answer before giving up (default "
                          "{seconds}): nobody left means the game may have ended without you").format(
                              seconds=f"{Timing.alone:g}"))
    add_screen_options(p)
    add_web_options(p)
    add_profile_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        timeouts = timeouts_from(args)
        if not 0.5 <= args.timeout_sync <= 86400:
            wrong = _("--timeout-{step} must be between 0.5 and 86400 seconds, not {seconds}")
            raise LocalError(wrong.format(step="sync", seconds=f"{args.timeout_sync:g}"))
    except LocalError as exc:
        return fail("resume", said(exc))
    return run_as_profile("resume", args, lambda: resume(args, timeouts), reads=True)


async def resume(args: argparse.Namespace, timeouts: dict[str, float]) -> int:
    found = find_resumable(args.game, seat=args.seat, home=args.home)
    ui = load_ui(args)
    player = make_bot(args.bot) if args.auto else None
    n = len(found.bots)
    line = ngettext("resuming game {id}, seat {seat} and its {n} bot seat",
                    "resuming game {id}, seat {seat} and its {n} bot seats", n) if n else _(
        "resuming game {id}, seat {seat}")
    say(line.format(id=found.game_id.hex(), seat=found.leader.seat, n=n))
    settings = Settings(home=args.home, timeouts=timeouts, timing=Timing(alone=args.timeout_sync))
    group = await resume_seats(found, player, settings=settings, timeouts=timeouts)
    entries = len(group.main.table.entries)
    say(ngettext("restored {n} entry from disk; syncing with the other seats before playing on (if nobody "
                 "answers, we give up in {seconds} s)",
                 "restored {n} entries from disk; syncing with the other seats before playing on (if nobody "
                 "answers, we give up in {seconds} s)", entries).format(n=entries,
                                                                       seconds=f"{args.timeout_sync:g}"))
    steps = {**found.local.timeouts, **timeouts}
    return await run_group(group, ui, args, again=lambda table: again_lines(table_words(found), table, args,
                                                                           steps))


def table_words(found: Resumable) -> tuple[str, ...]:
    """The table's part of the play-again commands of a resumed game, as the command that started it kept
    it; for a joiner's game kept before they were, its lobby (HOST:PORT) alone."""
    local = found.local
    if local.again or local.lobby is None:
        return local.again
    return ("join", local.lobby)
