"""Command-line entry point. Each command lives in its own module with `add_parser` and `run`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from p2pspades import __version__
from p2pspades.exits import ExitCode

#: command name -> module under p2pspades.cli
COMMANDS = {
    "play": "play",
    "host": "host",
    "join": "join",
    "tables": "tables",
    "resume": "resume",
    "verify": "verify",
    "export": "export",
    "replay": "replay",
    "games": "games",
    "stats": "stats",
    "rules": "rules",
    "review": "review",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="p2pspades",
        description="Serverless, cheat-proof Spades for one LAN. Run 'p2pspades play' to play three bots.",
    )
    parser.add_argument("--version", action="version", version=f"p2pspades {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for _name, module in COMMANDS.items():
        try:
            mod = importlib.import_module(f"p2pspades.cli.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"p2pspades.cli.{module}":
                raise
            continue
        mod.add_parser(sub)
    return parser


def interrupted() -> ExitCode:
    """What Ctrl-C says, wherever it strikes: one line (after the terminal's `^C`), exit code 130."""
    print("\ninterrupted", file=sys.stderr, flush=True)
    return ExitCode.INTERRUPTED


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a character the terminal cannot show: an escape, not a crash
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:  # Ctrl-C at any moment, even while the commands are still being imported, is one short line
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return ExitCode.FAILED
        if getattr(args, "think", None) is not None:
            from p2pspades.bots import set_think

            set_think(args.think)
        return int(args.run(args))
    except KeyboardInterrupt:
        return interrupted()
    except BrokenPipeError:  # the reader went away (e.g. `| head`): stop quietly, as other tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitCode.BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
