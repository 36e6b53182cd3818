"""`p2pspades stats [--json] [--profile NAME]`: this profile's record over the games it played, from what
their verified logs prove."""

from __future__ import annotations

import argparse
import json
from typing import Any

from p2pspades import paths
from p2pspades.audit.history import Stats, stats
from p2pspades.cli.common import fail
from p2pspades.cli.games import add_history_options, played_games
from p2pspades.errors import LocalError
from p2pspades.exits import ExitCode
from p2pspades.printable import plural, printable


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "stats",
        help="this profile's statistics over its games",
        description="Over the games this profile played, from its seat and side: games, wins, contracts "
        "made and set, nils made and failed, bags, points per hand, and each partner with the record "
        "together. Counted from the hands the verified logs prove; a game still being played or a log "
        "that does not read is left out, and said so.",
    )
    add_history_options(p)
    p.set_defaults(run=run)


def stats_record(s: Stats, profile: str | None) -> dict[str, Any]:
    return {
        "profile": paths.profile_name(profile),
        "games": s.games,
        "wins": s.wins,
        "losses": s.losses,
        "hands": s.hands,
        "contracts": {"made": s.contracts_made, "set": s.contracts_set},
        "nils": {"made": s.nils_made, "failed": s.nils_failed},
        "blind_nils": {"made": s.blind_nils_made, "failed": s.blind_nils_failed},
        "bags": s.bags,
        "points": s.points,
        "points_per_hand": s.points_per_hand,
        "partners": [{"name": p.name, "fingerprint": p.fingerprint, "games": p.games, "wins": p.wins,
                      "losses": p.losses} for p in s.partners],
        "unfinished": s.unfinished,
        "left_out": {"running": s.running, "unreadable": s.unreadable},
    }


def stats_lines(s: Stats, profile: str | None) -> list[str]:
    unfinished = f" ({s.unfinished} unfinished: no win or loss)" if s.unfinished else ""
    lines = [f"profile {paths.profile_name(profile)!r}: {plural(s.games, 'game')}{unfinished}, "
             f"{plural(s.wins, 'win')}, {plural(s.losses, 'loss', 'losses')}"]
    left = [f"{n} {what}" for n, what in ((s.running, "still being played"), (s.unreadable, "unreadable"))
            if n]
    if left:
        lines.append(f"  left out: {', '.join(left)} (see p2pspades games)")
    per_hand = "-" if s.points_per_hand is None else f"{s.points_per_hand:.1f}"
    lines += [
        f"  {plural(s.hands, 'hand')}: {per_hand} points per hand, {plural(s.bags, 'bag')}",
        f"  contracts: {s.contracts_made} made, {s.contracts_set} set",
        f"  nils: {s.nils_made} made, {s.nils_failed} failed; blind nils: {s.blind_nils_made} made, "
        f"{s.blind_nils_failed} failed",
    ]
    if s.partners:
        lines.append("  partners:")
        for p in s.partners:
            lines.append(f"    {printable(p.name)} ({p.fingerprint}): {plural(p.games, 'game')} together, "
                         f"{plural(p.wins, 'win')}, {plural(p.losses, 'loss', 'losses')}")
    return lines


def run(args: argparse.Namespace) -> int:
    try:
        totals = stats(played_games(args.profile))
    except (LocalError, OSError) as exc:
        return fail("stats", str(exc))
    if args.json:
        print(json.dumps(stats_record(totals, args.profile), indent=2))
    else:
        print("\n".join(stats_lines(totals, args.profile)))
    return ExitCode.OK
