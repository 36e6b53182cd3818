"""`p2pspades export FILE --format json|text|html`: the hand record of a verified log, or its page for a
browser."""

from __future__ import annotations

import argparse
import json
import sys

from p2pspades.audit import Status, hand_record
from p2pspades.cli.common import fail
from p2pspades.cli.verify import add_jobs_option, verify_with_progress
from p2pspades.describe.page import game_page
from p2pspades.describe.record import text_record
from p2pspades.exits import ExitCode
from p2pspades.i18n import DEFAULT, _, speaking
from p2pspades.printable import printable


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("export", help=_("export a game log as a JSON or text hand record, or an HTML page"),
                       description=_("Export a game log as a hand record: JSON for tools, text for people, "
                                     "or one self-contained HTML page."))
    p.add_argument("file", metavar=_("FILE"), help=_("the log file (.p2plog)"))
    p.add_argument("--format", choices=("json", "text", "html"), default="text",
                   help=_("output format (default: text; html: one self-contained page for a browser)"))
    p.add_argument("-o", "--output", metavar=_("FILE"),
                   help=_("write to this file instead of standard output"))
    add_jobs_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    verdict = verify_with_progress(args)
    if verdict.status is Status.UNREADABLE:
        return fail("export", verdict.summary)
    if args.format == "html":
        text = game_page(verdict, args.file)
    elif args.format == "json":
        with speaking(DEFAULT):  # a record for programs: its words in English, whatever the language
            text = json.dumps(hand_record(verdict), indent=2) + "\n"
    else:
        text = text_record(verdict)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as exc:
            return fail("export", _("cannot write {path}: {why}").format(path=args.output,
                                                                          why=exc.strerror or exc))
    else:
        sys.stdout.write(text)
    if verdict.status is not Status.VALID:
        print("p2pspades export: " + _("note: {verdict}").format(verdict=printable(verdict.summary)),
              file=sys.stderr)
    return ExitCode.OK
