"""`p2pspades play` with the full-screen UI: you against bots, the signed log written as you play.

This runs the bots' tables in memory, in this process. The network driver (bots as real peers over ZeroMQ)
plugs into the same `UiState`, `HumanPlayer` and `create_app`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from p2pspades import crypto
from p2pspades.audit import verify_file
from p2pspades.bots import DEFAULT_BOT
from p2pspades.describe.game import seat_names
from p2pspades.errors import LocalError
from p2pspades.exits import ExitCode
from p2pspades.i18n import _
from p2pspades.paths import default_log_path
from p2pspades.printable import printable
from p2pspades.rules import RuleSet
from p2pspades.table.harness import Player
from p2pspades.ui.app import create_app
from p2pspades.ui.local import LocalGame, default_bots
from p2pspades.ui.prefs import apply_screen_options


def _bots(rules: RuleSet, kind: str, seed: int) -> list[Player]:
    return default_bots(rules.players, seed, kind)


def run_play(rules: RuleSet, args: argparse.Namespace) -> int:
    """Play one game on the full screen. Options read from `args`: name, seed (bots only), bot, log,
    no_color. Exit code: 0 complete or left by the person, 1 violation, 3 abandoned, 2 no terminal."""
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print("p2pspades play: " + _("the game needs a terminal (or use --auto for a bots-only game)"),
              file=sys.stderr)
        return ExitCode.FAILED
    try:
        apply_screen_options(args)
    except ValueError as exc:
        print(f"p2pspades play: {exc}", file=sys.stderr)
        return ExitCode.FAILED
    seed = getattr(args, "seed", None)
    if seed is None:
        seed = int.from_bytes(crypto.new_seed()[:4], "big")
    bots = _bots(rules, getattr(args, "bot", DEFAULT_BOT), int(seed))
    game = LocalGame(
        rules, name=getattr(args, "name", None) or _("You"), bots=bots, bot_delay=0.3, table_name="p2pspades",
        names=seat_names(rules.players))
    home = getattr(args, "home", None)
    path = Path(args.log) if getattr(args, "log", None) else default_log_path(game.table.game_id, home)
    try:
        game.open_log(path)
    except (OSError, LocalError) as exc:
        print("p2pspades play: " + _("cannot write the log {path}: {why}").format(path=path, why=exc),
              file=sys.stderr)
        return ExitCode.FAILED
    app = create_app(game.state, color=not getattr(args, "no_color", False))
    code = asyncio.run(game.run(app))
    verdict = verify_file(path)
    print(_("game log written to {path}: {verdict}").format(path=path, verdict=printable(verdict.summary)))
    print(_("replay it with: {command}").format(command=f"p2pspades replay {path}"))
    return code
