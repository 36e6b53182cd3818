"""`p2pspades replay FILE`: verify a game log, then step through it on the full screen."""

from __future__ import annotations

import argparse
import sys

from p2pspades.cli.common import fail


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help="step through a verified game log (all hands shown)",
        description="Verify a game log, then step through it hand by hand and trick by trick: every seat's "
        "cards, the bids, each trick, the score and the audit's verdict. Keys: arrows, PgUp/PgDn, Home/End, "
        "q. The exit code is the verdict's, as for 'verify'.",
    )
    p.add_argument("file", help="the log file (.p2plog)")
    p.add_argument("--no-color", action="store_true", help="monochrome display (also: NO_COLOR=1)")
    p.add_argument("--ascii", action="store_true", help="ASCII only: suit letters and plain boxes")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return fail("replay", "needs a terminal; use 'p2pspades verify FILE' for a text verdict")
    from p2pspades.ui.prefs import PREFS
    from p2pspades.ui.replay import run_replay

    PREFS.ascii = PREFS.ascii or args.ascii

    return run_replay(args.file, color=not args.no_color)
