"""`p2pspades replay FILE [--browser]`: verify a game log, then step through it on the full screen, or in
the browser as the page `export --format html` writes."""

from __future__ import annotations

import argparse
import sys

from p2pspades.cli.common import fail
from p2pspades.i18n import _


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help=_("step through a verified game log (all hands shown)"),
        description=_("Verify a game log, then step through it hand by hand and trick by trick: every seat's "
                      "cards, the bids, each trick, the score and the audit's verdict. Keys: arrows, "
                      "PgUp/PgDn, Home/End, q. The exit code is the verdict's, as for 'verify'."),
    )
    p.add_argument("file", metavar=_("FILE"), help=_("the log file (.p2plog)"))
    p.add_argument("--no-color", action="store_true", help=_("monochrome display (also: NO_COLOR=1)"))
    p.add_argument("--ascii", action="store_true", help=_("ASCII only: suit letters and plain boxes"))
    p.add_argument("--browser", action="store_true",
                   help=_("write the game's HTML page to a temporary file and open it in the browser (the "
                          "path is printed if no browser opens); needs no terminal"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.browser:
        return _in_browser(args.file)
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return fail("replay", _("needs a terminal; use 'p2pspades verify FILE' for a text verdict"))
    from p2pspades.ui.prefs import PREFS
    from p2pspades.ui.replay import run_replay

    PREFS.ascii = PREFS.ascii or args.ascii

    return run_replay(args.file, color=not args.no_color)


def _in_browser(path: str) -> int:
    """Verify the log, write its page to a temporary file and open it with the platform's browser."""
    import tempfile
    import webbrowser
    from pathlib import Path

    from p2pspades.audit.files import verify_log
    from p2pspades.describe.page import game_page
    from p2pspades.printable import printable

    verdict = verify_log(path)
    if verdict.table is None:
        return fail("replay", verdict.summary)
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", prefix="p2pspades-", suffix=".html", delete=False
        ) as f:
            f.write(game_page(verdict, path))
    except OSError as exc:
        return fail("replay", _("cannot write the page: {why}").format(why=exc.strerror or exc))
    page = Path(f.name)
    try:
        opened = webbrowser.open(page.as_uri())
    except webbrowser.Error:
        opened = False
    if opened:
        print("p2pspades replay: " + _("opened {page} in the browser").format(page=printable(page)))
    else:
        print("p2pspades replay: " + _("no browser could be opened; the page is {page}").format(
            page=printable(page)))
    return verdict.exit_code
