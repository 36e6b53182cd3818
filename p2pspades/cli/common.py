"""Options and helpers shared by the commands that start a game."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from p2pspades import paths
from p2pspades.errors import LocalError, P2PSpadesError
from p2pspades.exits import ExitCode
from p2pspades.files import FileLock
from p2pspades.printable import printable_lines
from p2pspades.rules import PRESETS, RuleSet, RuleSetError, bid_notation, preset
from p2pspades.table import FirstDealer, Table


def add_game_options(p: argparse.ArgumentParser, *, default_preset: str = "classic") -> None:
    p.add_argument(
        "--rules",
        default=default_preset,
        metavar="PRESET",
        help=f"rule preset: {', '.join(PRESETS)} (default: {default_preset})",
    )
    p.add_argument("--players", type=int, metavar="N", help="number of players (default: the preset's)")
    p.add_argument("--target", type=int, metavar="N", help="score that wins the game (default: the preset's)")


def rules_from_args(args: argparse.Namespace) -> RuleSet:
    """The rule set the options ask for. LocalError with a clear message if they make no sense."""
    if args.rules not in PRESETS:
        raise LocalError(f"unknown rule preset {args.rules!r}; choose one of: {', '.join(PRESETS)}")
    overrides: dict[str, object] = {}
    if args.players is not None:
        overrides["players"] = args.players
        if args.players != 4 and PRESETS[args.rules].partnerships:
            overrides["partnerships"] = False
        overrides["removed"] = None
        if args.players != 2 and PRESETS[args.rules].deal == "draw":
            overrides["deal"] = "all"
    if args.target is not None:
        overrides["target"] = args.target
    try:
        return preset(args.rules, **overrides)
    except (RuleSetError, TypeError, ValueError) as exc:
        raise LocalError(f"these options do not make a valid game: {exc}") from None


def add_profile_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--profile", metavar="NAME",
                   help="play as profile NAME: its own identity and data directory, for a second player on "
                   f"this machine (default: ${paths.ENV_PROFILE}, else the default profile)")


def run_as_profile(command: str, args: argparse.Namespace,
                   play: Callable[[], Coroutine[Any, Any, int]]) -> int:
    """Run `play()` while this process holds the profile the options name (see `hold_profile`). Any failure,
    the profile being in use among them, is one line on stderr and exit code 2."""
    try:
        profile = hold_profile(args)
    except LocalError as exc:
        return fail(command, str(exc))
    with profile:
        try:
            return asyncio.run(play())
        except (P2PSpadesError, ValueError, OSError) as exc:
            return fail(command, str(exc))


def hold_profile(args: argparse.Namespace) -> FileLock:
    """Take the profile the options name for this process, and put its data home in `args.home`.

    `ProfileError` (one line, naming --profile) if another running process holds it: its identity would
    then sign for two seats at once.
    """
    lock = paths.lock_profile(profile=args.profile)
    args.home = paths.data_home(profile=args.profile)
    return lock


def default_name() -> str:
    """A player's default name: the operating system's user name, as a printable name of at most 32
    characters ("Player" if there is none)."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError, ImportError):
        user = ""
    name = "".join(ch for ch in user if ch.isprintable()).strip()[:32]
    return name or "Player"


def fail(command: str, message: str) -> int:
    print(f"p2pspades {command}: {printable_lines(message)}", file=sys.stderr)
    return ExitCode.FAILED


def progress_line(table: Table, events: list[object]) -> list[str]:
    """Human progress lines from a table's events: one per finished hand, plus notable events."""
    lines: list[str] = []
    from p2pspades.table import GameEnded, HandAudited, Violation

    names = [s.name for s in table.setup.seats]
    for ev in events:
        if isinstance(ev, HandAudited) and table.game is not None and table.game.history:
            h = table.game.history[-1]
            totals = ", ".join(
                f"{'+'.join(names[i] for i in table.rules.sides[k])} {t.score}"
                for k, t in enumerate(h.totals)
            )
            bids = " ".join(bid_notation(h.bids[s], h.blind[s], table.rules, short=True)
                            for s in range(table.rules.players))
            verdict = "audit passed" if not ev.violations else f"{len(ev.violations)} violation(s) penalised"
            lines.append(
                f"hand {h.number:2d}: bids {bids}  tricks {' '.join(map(str, h.tricks_won))}  "
                f"totals: {totals}  ({verdict})"
            )
        elif isinstance(ev, Violation):
            lines.append(f"VIOLATION by seat {ev.seat} ({names[ev.seat]}): {ev.check}: {ev.detail}")
        elif isinstance(ev, GameEnded):
            lines.append(f"game over: {ev.status}" + (f" ({ev.detail})" if ev.detail else ""))
        elif isinstance(ev, FirstDealer):
            lines.append(f"{names[ev.seat]} drew the highest card and deals first")
    return lines
