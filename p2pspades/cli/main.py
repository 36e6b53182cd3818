"""Command-line entry point. Each command lives in its own module with `add_parser` and `run`.

The language is chosen before the parser is built, so `--help` and argparse's own errors speak it too:
`--lang` (anywhere on the line, on every command), else `$P2PSPADES_LANG`, else the profile's (`p2pspades
config lang`), else the locale's, else English (`i18n.choose`).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from types import FrameType

from p2pspades import __version__, i18n
from p2pspades.exits import ExitCode
from p2pspades.i18n import _

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
    "config": "config",
}


def build_parser() -> argparse.ArgumentParser:
    """The command line, in the language spoken (`i18n.use` first)."""
    parser = argparse.ArgumentParser(
        prog="p2pspades",
        description=_("Serverless, cheat-proof Spades for one LAN. Run 'p2pspades play' to play three bots."),
    )
    parser.add_argument("--version", action="version", version=f"p2pspades {__version__}",
                        help=_("show the program's version and exit"))
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    for _name, module in COMMANDS.items():
        try:
            mod = importlib.import_module(f"p2pspades.cli.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"p2pspades.cli.{module}":
                raise
            continue
        mod.add_parser(sub)
    for command in (parser, *sub.choices.values()):
        add_lang_option(command)
    return parser


def add_lang_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", metavar=_("LANG"), type=_language,
                   help=_("the language to speak: {languages} (default: ${env}, else the profile's, see "
                          "p2pspades config, else the locale's)").format(
                       languages=", ".join(i18n.LANGUAGES), env=i18n.ENV))


def _language(value: str) -> i18n.Choice:
    found = i18n.parse_tag(value, pseudo=os.environ.get(i18n.PSEUDO_ENV) == "1")
    if found is None:
        raise argparse.ArgumentTypeError(unknown_language(i18n.UnknownLanguage(value, "--lang")))
    return found


def unknown_language(exc: i18n.UnknownLanguage) -> str:
    return _("{where}: unknown language {asked!r}; the languages are: {languages}").format(
        where=exc.where, asked=exc.asked, languages=i18n.listing())


def given(argv: Sequence[str], option: str) -> str | None:
    """The value of `option` on the command line (`--lang de` or `--lang=de`; the last one wins, as with
    argparse), looked for before the line is parsed. Nothing after `--` counts."""
    found = None
    for k, word in enumerate(argv):
        if word == "--":
            break
        if word == option and k + 1 < len(argv):
            found = argv[k + 1]
        elif word.startswith(option + "="):
            found = word[len(option) + 1:]
    return found


def choose_language(argv: Sequence[str]) -> int | None:
    """Speak the language the command line, the environment, the profile or the locale chooses. An unknown
    language is one line, in the language the rest of that order gives, and exit code 2."""
    from p2pspades.cli.config import saved_language

    saved = saved_language(given(argv, "--profile"))
    try:
        i18n.use(i18n.choose(given(argv, "--lang"), os.environ, saved))
    except i18n.UnknownLanguage as exc:
        i18n.use(i18n.fallback(os.environ, saved))
        print(f"p2pspades: {unknown_language(exc)}", file=sys.stderr)
        return ExitCode.FAILED
    return None


def interrupted() -> ExitCode:
    """What Ctrl-C says, wherever it strikes: one line (after the terminal's `^C`), exit code 130."""
    print("\n" + _("interrupted"), file=sys.stderr, flush=True)
    return ExitCode.INTERRUPTED


def _interrupt_again(previous: Callable[[sys.UnraisableHookArgs], object],
                    unraisable: sys.UnraisableHookArgs) -> None:
    """A Ctrl-C that struck where Python cannot raise it (a callback of the import machinery, a finalizer)
    is neither lost nor printed as a traceback: it comes again, where the command stops on it with its one
    line. Anything else goes to the `previous` hook."""
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        sys.settrace(_interrupt)  # the next function called, once this hook is done, raises it
    else:
        previous(unraisable)


def _interrupt(frame: FrameType, event: str, arg: object) -> None:
    """A trace function that raises Ctrl-C in the first frame it sees, and with that is unset."""
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    previous = sys.unraisablehook
    sys.unraisablehook = functools.partial(_interrupt_again, previous)
    try:
        code = _command(argv)
    finally:
        sys.unraisablehook = previous
    if sys.gettrace() is _interrupt:  # a Ctrl-C taken again, and the command ended before it called anything
        sys.settrace(None)
        return interrupted()
    return code


def _command(argv: Sequence[str] | None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a character the terminal cannot show: an escape, not a crash
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    words = list(sys.argv[1:] if argv is None else argv)
    try:  # Ctrl-C at any moment, even while the commands are still being imported, is one short line
        failed = choose_language(words)
        if failed is not None:
            return failed
        parser = build_parser()
        args = parser.parse_args(words)
        if args.lang is not None and args.lang != i18n.current():  # given as an abbreviation (--lan de)
            i18n.use(args.lang)
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
