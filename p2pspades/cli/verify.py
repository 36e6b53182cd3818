"""`p2pspades verify FILE... [--json] [--html PAGE] [--jobs N] [--after OLD_LOG]`: replay a signed log
offline; was the game sound? With the logs of several players of one game: do they agree, where do they fork,
and which branch stands? With `--after`: does the game follow OLD_LOG's as its genesis says?"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from p2pspades.audit import GameVisitor, Verdict, hand_record
from p2pspades.audit.dispute import dispute_record, settle
from p2pspades.audit.files import verify_log
from p2pspades.audit.parallel import available_jobs
from p2pspades.audit.verdict import follow_problem, sequel_changes
from p2pspades.cli.common import fail
from p2pspades.describe import change_text
from p2pspades.describe.dispute import dispute_lines
from p2pspades.describe.page import dispute_page, game_page
from p2pspades.describe.record import summary_lines
from p2pspades.exits import ExitCode
from p2pspades.i18n import DEFAULT, _, speaking
from p2pspades.printable import printable
from p2pspades.rules import HandResult
from p2pspades.table import HandAudited


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify",
        help=_("verify a game log offline"),
        description=_("Replay a game log through the rules engine and the deal audit. Exit codes: 0 valid "
                      "and complete; 1 a violation (tampering, cheating, bad signature, broken chain); 2 "
                      "unreadable or not a log; 3 valid so far but incomplete, abandoned, left or stopped by "
                      "agreement. Given the logs "
                      "of several players of one game, it verifies each, finds where they agree and where "
                      "they fork, and says which branch the rules uphold and its result, with the same exit "
                      "codes for that result, 2 if the files are not logs of one game, and 4 for a fork the "
                      "rules cannot settle."),
    )
    p.add_argument("file", nargs="+", metavar=_("FILE"),
                   help=_("the log file (.p2plog); several: the logs of one game's players"))
    p.add_argument("--json", action="store_true",
                   help=_("print the JSON hand record (several logs: the dispute record) instead of a "
                          "summary"))
    p.add_argument("--html", metavar=_("PAGE"),
                   help=_("also write the verdict as one self-contained HTML page (several logs: the "
                          "referee's report: the logs side by side, the fork, the branch upheld and why)"))
    p.add_argument("--after", metavar=_("OLD_LOG"),
                   help=_("also check that the game of FILE follows the game of OLD_LOG as its genesis says "
                          "(a rematch of it, or its continuation from its scores at its end); exit code 1 if "
                          "not"))
    add_jobs_option(p)
    p.set_defaults(run=run)


def write_page(path: str, text: str) -> str | None:
    """Write a page to `path`; None, or why it could not be written."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        return _("cannot write {path}: {why}").format(path=path, why=exc.strerror or exc)
    return None


def add_jobs_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help=_("worker processes that check the proofs of the deal (default: one per core; 1: none)"),
    )


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a whole number").format(text=text)) from None
    if not 1 <= jobs <= 256:
        raise argparse.ArgumentTypeError(_("{n} is not between 1 and 256").format(n=jobs))
    return jobs


class Counter(GameVisitor):
    """`verifying FILE: hand N` on a terminal, rewritten in place as the hands are verified, then erased."""

    def __init__(self, path: str, stream: TextIO) -> None:
        self.stream = stream
        self.shown = stream.isatty()
        self.label = _("verifying {path}:").format(path=path) + " "
        self._say(_("starting"))

    def on_hand(self, hand: HandResult, audit: HandAudited) -> None:
        self._say(_("hand {number} verified").format(number=hand.number))

    def on_verdict(self, verdict: Verdict) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def _say(self, text: str) -> None:
        if self.shown:
            self.stream.write(f"\r\x1b[K{self.label}{text}")
            self.stream.flush()


def verify_with_progress(args: argparse.Namespace, path: str | None = None) -> Verdict:
    """The verdict on `path` (default `args.file`) with `--jobs` workers, counting the hands on stderr if it
    is a terminal."""
    path = args.file if path is None else path
    return verify_log(path, Counter(printable(path), sys.stderr), jobs=available_jobs(args.jobs))


def run(args: argparse.Namespace) -> int:
    files: list[str] = args.file
    if args.after is not None and len(files) > 1:
        return fail("verify", _("--after checks one log against the old game's log: give one FILE"))
    if len(files) > 1:
        dispute = settle(files, lambda path: verify_with_progress(args, path))
        if args.html and (problem := write_page(args.html, dispute_page(dispute))):
            return fail("verify", problem)
        if args.json:
            with speaking(DEFAULT):  # a record for programs: its words in English, whatever the language
                print(json.dumps(dispute_record(dispute), indent=2))
        else:
            print("\n".join(dispute_lines(dispute)))
        return dispute.exit_code
    if args.after is not None:
        return run_after(args, files[0], args.after)
    args.file = files[0]
    verdict = verify_with_progress(args)
    if args.html and (problem := write_page(args.html, game_page(verdict, args.file))):
        return fail("verify", problem)
    if args.json:
        with speaking(DEFAULT):
            print(json.dumps(hand_record(verdict), indent=2))
    else:
        print("\n".join(summary_lines(verdict)))
    return verdict.exit_code


def run_after(args: argparse.Namespace, path: str, old_path: str) -> int:
    """`verify NEW --after OLD`: the verdict on NEW, then whether it follows OLD's game as it says."""
    if args.html:
        return fail("verify", _("--html and --after cannot be used together"))
    new = verify_with_progress(args, path)
    old = verify_with_progress(args, old_path)
    if args.json:
        with speaking(DEFAULT):
            problem = follow_problem(old, new)
            changed = [change_text(c) for c in sequel_changes(old, new)] if problem is None else []
            record = hand_record(new)
            record["follows"] = {"log": old_path, "ok": problem is None, "problem": problem,
                                 "changes": changed}
            print(json.dumps(record, indent=2))
    else:
        problem = follow_problem(old, new)
        changed = [change_text(c) for c in sequel_changes(old, new)] if problem is None else []
        lines = summary_lines(new)
        if problem is None:
            assert new.table is not None and new.table.setup.after is not None
            after = new.table.setup.after
            what = (_("its scores and bags at its end and its next dealer are where this game starts")
                    if after.continues else _("a rematch, which carries nothing over"))
            lines.append("  " + _("follows {path}: game {id}, {verdict}; {what}").format(
                path=printable(old_path), id=after.game_id.hex(), verdict=printable(old.summary), what=what))
            if changed:  # a rematch may change rules and seats: said, not refused
                since = after.game_id.hex()[:12]
                lines.append("  " + _("changed since game {id}: {changes}").format(
                    id=since, changes=printable("; ".join(changed))))
        else:
            lines.append("  " + _("does not follow {path}: {why}").format(path=printable(old_path),
                                                                          why=printable(problem)))
        print("\n".join(lines))
    return new.exit_code if problem is None else ExitCode.VIOLATION
