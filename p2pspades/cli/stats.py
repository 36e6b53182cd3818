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
from p2pspades.i18n import _, ngettext, number, said
from p2pspades.printable import printable


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "stats",
        help=_("this profile's statistics over its games"),
        description=_("Over the games this profile played, from its seat and side: games, wins, contracts "
                      "made and set, nils made and failed, tricks, bags, points per hand, and each partner "
                      "with the record together. Counted from the hands the verified logs prove; a game "
                      "still being played or a log that does not read is left out, and said so."),
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
        "tricks": s.tricks,
        "points": s.points,
        "points_per_hand": s.points_per_hand,
        "partners": [{"name": p.name, "fingerprint": p.fingerprint, "games": p.games, "wins": p.wins,
                      "losses": p.losses} for p in s.partners],
        "contested": {"claimed": s.contested_claimed, "claimed_against": s.contested_against},
        "unfinished": s.unfinished,
        "stopped": s.stopped,
        "left": {"by_you": s.left, "by_others": s.left_by_others},
        "left_out": {"running": s.running, "unreadable": s.unreadable},
    }


def _record(games: int, wins: int, losses: int) -> tuple[str, str, str]:
    return (ngettext("{n} game", "{n} games", games).format(n=number(games)),
            ngettext("{n} win", "{n} wins", wins).format(n=number(wins)),
            ngettext("{n} loss", "{n} losses", losses).format(n=number(losses)))


def stats_lines(s: Stats, profile: str | None) -> list[str]:
    games, wins, losses = _record(s.games, s.wins, s.losses)
    if s.unfinished:
        games = ngettext("{games} ({n} unfinished: no win or loss)",
                         "{games} ({n} unfinished: no win or loss)", s.unfinished).format(
                             games=games, n=number(s.unfinished))
    lines = [_("profile {name!r}: {games}, {wins}, {losses}").format(
        name=paths.profile_name(profile), games=games, wins=wins, losses=losses)]
    left = []
    if s.running:
        left.append(ngettext("{n} still being played", "{n} still being played", s.running).format(
            n=s.running))
    if s.unreadable:
        left.append(ngettext("{n} unreadable", "{n} unreadable", s.unreadable).format(n=s.unreadable))
    if left:
        lines.append("  " + _("left out: {games} (see p2pspades games)").format(games=_(", ").join(left)))
    per_hand = "-" if s.points_per_hand is None else number(s.points_per_hand, 1)
    hands = ngettext("{n} hand", "{n} hands", s.hands).format(n=number(s.hands))
    lines += [
        "  " + _("{hands}: {points} points a hand on average").format(hands=hands, points=per_hand),
        "  " + _(", ").join([
            ngettext("{n} trick taken", "{n} tricks taken", s.tricks).format(n=number(s.tricks)),
            ngettext("{n} bag", "{n} bags", s.bags).format(n=number(s.bags))]),
        "  " + _("contracts: {made} made, {set} set").format(made=number(s.contracts_made),
                                                            set=number(s.contracts_set)),
        "  " + _("nils: {made} made, {failed} failed; blind nils: {blind_made} made, {blind_failed} "
                 "failed").format(made=number(s.nils_made), failed=number(s.nils_failed),
                                  blind_made=number(s.blind_nils_made),
                                  blind_failed=number(s.blind_nils_failed)),
    ]
    if s.stopped:
        lines.append("  " + ngettext("{n} game stopped by agreement (nobody won: the scores stand)",
                                     "{n} games stopped by agreement (nobody won: the scores stand)",
                                     s.stopped).format(n=number(s.stopped)))
    if s.left or s.left_by_others:
        lines.append("  " + _("games ended by a goodbye (the leaver's side forfeits): {mine} left by you, "
                              "{others} by another player").format(mine=number(s.left),
                                                                   others=number(s.left_by_others)))
    if s.contested_claimed or s.contested_against:
        lines.append("  " + _("contested endings (nobody won): {claimed} claimed by you, {against} claimed "
                              "against you").format(claimed=number(s.contested_claimed),
                                                    against=number(s.contested_against)))
    if s.partners:
        lines.append("  " + _("partners:"))
        for p in s.partners:
            games, wins, losses = _record(p.games, p.wins, p.losses)
            lines.append("    " + _("{name} ({fingerprint}): {games} together, {wins}, {losses}").format(
                name=printable(p.name), fingerprint=p.fingerprint, games=games, wins=wins, losses=losses))
    return lines


def run(args: argparse.Namespace) -> int:
    try:
        totals = stats(played_games(args.profile))
    except (LocalError, OSError) as exc:
        return fail("stats", said(exc))
    if args.json:
        print(json.dumps(stats_record(totals, args.profile), indent=2))
    else:
        print("\n".join(stats_lines(totals, args.profile)))
    return ExitCode.OK
