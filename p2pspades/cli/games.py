"""`p2pspades games [--json] [--profile NAME]`: the games this profile played, newest first, each with the
verdict of its log."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from p2pspades import paths
from p2pspades.audit import Status, verify_file
from p2pspades.audit.history import Ending, GameRow, PlayedGame, game_rows
from p2pspades.audit.verdict import unreadable
from p2pspades.cli.common import fail, resume_command
from p2pspades.describe.findings import summary
from p2pspades.errors import LocalError
from p2pspades.exits import ExitCode
from p2pspades.net.store import our_logs
from p2pspades.printable import pad, plural, printable, width


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "games",
        help="list the games this profile played",
        description="The games this profile played (hosted, joined, or against bots), newest first: when "
        "its log was last written, the table, the players by side, the result, the verdict of the log and "
        "its path. Every log is verified; a game still being played or a log that does not read is said so.",
    )
    add_history_options(p)
    p.set_defaults(run=run)


def add_history_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--profile", metavar="NAME", help="the games of profile NAME (default: "
                   f"${paths.ENV_PROFILE}, else the default profile)")


def played_games(profile: str | None) -> list[PlayedGame]:
    """Every log of the profile's games, verified (a seat directory that cannot be read: an unreadable
    verdict saying why)."""
    found = []
    for entry in our_logs(paths.data_home(profile=profile)):
        verdict = unreadable(entry.problem) if entry.problem is not None else verify_file(entry.path)
        found.append(PlayedGame(str(entry.path), verdict, entry.seat, entry.when, entry.running))
    return found


VERDICT = {
    Status.VALID: "valid",
    Status.VIOLATION: "violation",
    Status.INCOMPLETE: "valid so far",
    Status.UNREADABLE: "unreadable",
}


def date(when: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(when)) if when > 0 else "?"


def sides_text(row: GameRow) -> str:
    sides: dict[int, list[str]] = {}
    for player in row.players:
        name = printable(player.name) + ("*" if player.seat == row.seat else "")
        sides.setdefault(player.side, []).append(name)
    return " vs ".join("+".join(names) for _, names in sorted(sides.items()))


def result_text(row: GameRow, profile: str | None) -> str:
    """Who won, or how the game stands, in a few words."""
    winners = " and ".join("+".join(printable(n) for n in side) for side in row.winners)
    us = "" if row.won is None else " (you won)" if row.won else " (you lost)"
    ending = row.ending
    if ending is Ending.COMPLETE:
        return f"{winners} won{us}" if winners else "nobody won"
    if ending in (Ending.ABANDONED, Ending.VIOLATION):
        return f"{ending}: " + (f"{winners} won by forfeit{us}" if winners else "nobody won")
    if ending is Ending.CONTESTED:
        return "abandoned, contested: nobody won"
    if ending is Ending.RUNNING:
        return f"still being played ({plural(row.hands, 'hand')} so far)"
    if ending is Ending.UNFINISHED:
        text = f"stopped after {plural(row.hands, 'hand')}"
        if row.game_id is not None and Path(row.path).is_relative_to(paths.games_dir(
                paths.data_home(profile=profile))):  # a seat directory: `resume` carries it on
            text += f"; carry on with: {resume_command(bytes.fromhex(row.game_id), profile)}"
        return text
    return f"log unreadable: {printable(summary(row.finding))}"


def row_record(row: GameRow, profile: str | None) -> dict[str, Any]:
    return {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(row.when)) if row.when > 0 else None,
        "game_id": row.game_id,
        "table": row.table,
        "seat": row.seat,
        "players": [{"seat": p.seat, "name": p.name, "fingerprint": p.fingerprint, "side": p.side}
                    for p in row.players],
        "result": str(row.ending),
        "winners": [list(side) for side in row.winners],
        "won": row.won,
        "hands": row.hands,
        "result_text": result_text(row, profile),
        "verdict": {"status": VERDICT[row.status], "summary": summary(row.finding)},
        "log": row.path,
    }


def table_lines(rows: list[GameRow], profile: str | None) -> list[str]:
    header = ["date", "table", "players (* you)", "result", "log verdict", "log"]
    cells = [[date(r.when), printable(r.table or "?"), sides_text(r) or "?", result_text(r, profile),
              VERDICT[r.status], printable(r.path)] for r in rows]
    widths = [max(width(line[i]) for line in [header, *cells]) for i in range(len(header) - 1)]
    return ["  ".join([*(pad(c, w) for c, w in zip(line, widths, strict=False)), line[-1]])
            for line in [header, *cells]]


def run(args: argparse.Namespace) -> int:
    try:
        rows = game_rows(played_games(args.profile))
    except (LocalError, OSError) as exc:
        return fail("games", str(exc))
    if args.json:
        print(json.dumps({"profile": paths.profile_name(args.profile),
                          "games": [row_record(r, args.profile) for r in rows]}, indent=2))
    elif not rows:
        print(f"no games yet for profile {paths.profile_name(args.profile)!r}")
    else:
        print("\n".join(table_lines(rows, args.profile)))
    return ExitCode.OK
