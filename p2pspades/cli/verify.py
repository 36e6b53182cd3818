"""`p2pspades verify FILE [--json]`: replay a signed log offline and say whether the game was sound."""

from __future__ import annotations

import argparse
import json

from p2pspades.audit import hand_record, summary_lines
from p2pspades.audit.files import verify_log


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verify",
        help="verify a game log offline",
        description="Replay a game log through the rules engine and the deal audit. Exit codes: 0 valid and "
        "complete; 1 a violation (tampering, cheating, bad signature, broken chain); 2 unreadable or not a "
        "log; 3 valid so far but incomplete or abandoned.",
    )
    p.add_argument("file", help="the log file (.p2plog)")
    p.add_argument("--json", action="store_true", help="print the JSON hand record instead of a summary")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    verdict = verify_log(args.file)
    if args.json:
        print(json.dumps(hand_record(verdict), indent=2))
    else:
        print("\n".join(summary_lines(verdict)))
    return verdict.exit_code
