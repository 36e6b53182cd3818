"""`p2pspades games [--json] [--profile NAME]`: the games this profile played, newest first, each with the
verdict of its log."""

from __future__ import annotations

import argparse
import json
import shlex
import time
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from p2pspades import paths
from p2pspades.audit import Status, verify_file
from p2pspades.audit.history import Ending, GameRow, PlayedGame, game_rows
from p2pspades.audit.verdict import unreadable
from p2pspades.cli.common import fail, resume_command
from p2pspades.describe.findings import summary
from p2pspades.errors import LocalError
from p2pspades.exits import ExitCode
from p2pspades.i18n import N_, _, moment, ngettext, said
from p2pspades.net.store import our_logs
from p2pspades.printable import pad, printable, width


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "games",
        help=_("list the games this profile played"),
        description=_("The games this profile played (hosted, joined, or against bots), newest first: when "
                      "its log was last written, the table, the players by side, the result, the verdict of "
                      "the log and its path. Every log is verified; a game still being played or a log that "
                      "does not read is said so."),
    )
    add_history_options(p)
    p.set_defaults(run=run)


def add_history_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help=_("print JSON instead of text"))
    p.add_argument("--profile", metavar=_("NAME"), help=_(
        "the games of profile NAME (default: ${env}, else the default profile)").format(
            env=paths.ENV_PROFILE))


def played_games(profile: str | None) -> list[PlayedGame]:
    """Every log of the profile's games, verified (a seat directory that cannot be read: an unreadable
    verdict saying why). `UnknownProfile` if the profile was never used here."""
    paths.known_profile(profile)
    found = []
    for entry in our_logs(paths.data_home(profile=profile)):
        verdict = unreadable(entry.problem) if entry.problem is not None else verify_file(entry.path)
        found.append(PlayedGame(str(entry.path), verdict, entry.seat, entry.when, entry.running,
                                entry.unanswered))
    return found


VERDICT: Mapping[Status, str] = MappingProxyType({
    Status.VALID: "valid",
    Status.VIOLATION: "violation",
    Status.INCOMPLETE: "valid so far",
    Status.UNREADABLE: "unreadable",
})
"""Each verdict's code in the JSON."""
VERDICT_WORDS: Mapping[Status, str] = MappingProxyType({
    # TRANSLATORS: the verdict of a game's log, in the list of `p2pspades games`
    Status.VALID: N_("valid"),
    Status.VIOLATION: N_("violation"),
    Status.INCOMPLETE: N_("valid so far"),
    Status.UNREADABLE: N_("unreadable"),
})


def date(when: float) -> str:
    """When a log was last written, as the reader's locale writes a date and time ("?" if unknown)."""
    return moment(when) if when > 0 else "?"


def sides_text(row: GameRow) -> str:
    sides: dict[int, list[str]] = {}
    for player in row.players:
        name = printable(player.name) + ("*" if player.seat == row.seat else "")
        sides.setdefault(player.side, []).append(name)
    # TRANSLATORS: between the sides of a game: "ana+bo vs cy+di"
    return _(" vs ").join("+".join(names) for _side, names in sorted(sides.items()))


#: the endings of a game that is over (someone won, or nobody will)
_OVER = (Ending.COMPLETE, Ending.ABANDONED, Ending.VIOLATION, Ending.LEFT, Ending.CONTESTED)
#: the endings of a game that stopped short of its end or is still played: it may go on
_NOT_OVER = (Ending.STOPPED, Ending.RUNNING, Ending.UNANSWERED, Ending.UNFINISHED)


def result_text(row: GameRow, profile: str | None) -> str:
    """Who won, or how the game stands, in a few words."""
    if row.ending in _OVER:
        return _over_text(row)
    if row.ending in _NOT_OVER:
        return _not_over_text(row, profile)
    return _("log unreadable: {why}").format(why=printable(summary(row.finding)))


def _over_text(row: GameRow) -> str:
    """Who won a game that is over: by playing to its end, or by forfeit; or that nobody did."""
    # TRANSLATORS: between the sides that won together: "ana and bo won"
    winners = _(" and ").join("+".join(printable(n) for n in side) for side in row.winners)
    ending = row.ending
    if ending is Ending.COMPLETE:
        return _won(row, winners) if winners else _("nobody won")
    if ending in (Ending.ABANDONED, Ending.VIOLATION):
        if not winners:
            return _("abandoned: nobody won") if ending is Ending.ABANDONED else _("violation: nobody won")
        return _won(row, winners, forfeit=_("abandoned") if ending is Ending.ABANDONED else _("violation"))
    if ending is Ending.LEFT:
        leavers = _(" and ").join(printable(n) for n in row.left_by)
        if not winners:
            return _("{names} left: nobody won").format(names=leavers)
        return _won(row, winners, forfeit=_("{names} left").format(names=leavers))
    # Ending.CONTESTED
    if not row.claimed_by:
        return _("abandoned, contested: nobody won")
    claimed = _(" and ").join(printable(n) for n in row.claimed_by)
    return _("abandoned, contested: nobody won (claimed by {names})").format(names=claimed)


def _not_over_text(row: GameRow, profile: str | None) -> str:
    """How a game that may go on stands, with the command that carries it on where this profile may."""
    ending = row.ending
    if ending is Ending.STOPPED:
        text = ngettext("stopped by agreement after {n} hand: nobody won, the scores stand",
                        "stopped by agreement after {n} hands: nobody won, the scores stand",
                        row.hands).format(n=row.hands)
        if row.seat == 0 and row.game_id is not None:  # the host carries it on
            words = ["p2pspades", "host", "--carry-on", row.game_id[:12]]
            if paths.profile_name(profile) != paths.DEFAULT_PROFILE:
                words += ["--profile", paths.profile_name(profile)]
            text = _("{stopped}; carry on with: {command}").format(stopped=text, command=shlex.join(words))
        return text
    if ending is Ending.RUNNING:
        return ngettext("still being played ({n} hand so far)", "still being played ({n} hands so far)",
                        row.hands).format(n=row.hands)
    if ending is Ending.UNANSWERED:
        return ngettext("stopped after {n} hand; nobody answered its resume on {date}: it may have ended "
                        "without you (verify with another player's log to know)",
                        "stopped after {n} hands; nobody answered its resume on {date}: it may have ended "
                        "without you (verify with another player's log to know)",
                        row.hands).format(n=row.hands, date=date(row.unanswered or 0))
    # Ending.UNFINISHED
    text = ngettext("stopped after {n} hand", "stopped after {n} hands", row.hands).format(n=row.hands)
    if row.game_id is not None and Path(row.path).is_relative_to(paths.games_dir(
            paths.data_home(profile=profile))):  # a seat directory: `resume` carries it on
        text = _("{stopped}; carry on with: {command}").format(
            stopped=text, command=resume_command(bytes.fromhex(row.game_id), profile))
    return text


def _won(row: GameRow, winners: str, forfeit: str = "") -> str:
    """"ana+bo won (you won)"; with `forfeit` (how the game ended): "abandoned: ana+bo won by forfeit"."""
    if forfeit:
        if row.won is None:
            return _("{ending}: {winners} won by forfeit").format(ending=forfeit, winners=winners)
        if row.won:
            return _("{ending}: {winners} won by forfeit (you won)").format(ending=forfeit, winners=winners)
        return _("{ending}: {winners} won by forfeit (you lost)").format(ending=forfeit, winners=winners)
    if row.won is None:
        return _("{winners} won").format(winners=winners)
    if row.won:
        return _("{winners} won (you won)").format(winners=winners)
    return _("{winners} won (you lost)").format(winners=winners)


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


OVER = frozenset({Ending.ABANDONED, Ending.CONTESTED, Ending.LEFT, Ending.STOPPED})
"""The endings of a game that stopped short and is over: its log is valid, not valid so far."""


def verdict_words(row: GameRow) -> str:
    """The verdict of a game's log in the list: a game that ended short (abandoned, left, stopped) has a
    valid log, though `verify` exits 3 for it as for one that stops mid-game."""
    status = Status.VALID if row.status is Status.INCOMPLETE and row.ending in OVER else row.status
    return _(VERDICT_WORDS[status])


def table_lines(rows: list[GameRow], profile: str | None) -> list[str]:
    # TRANSLATORS: the headings of the columns of `p2pspades games`
    header = [_("date"), _("table"), _("players (* you)"), _("result"), _("log verdict"), _("log")]
    cells = [[date(r.when), printable(r.table or "?"), sides_text(r) or "?", result_text(r, profile),
              verdict_words(r), printable(r.path)] for r in rows]
    widths = [max(width(line[i]) for line in [header, *cells]) for i in range(len(header) - 1)]
    return ["  ".join([*(pad(c, w) for c, w in zip(line, widths, strict=False)), line[-1]])
            for line in [header, *cells]]


def run(args: argparse.Namespace) -> int:
    try:
        rows = game_rows(played_games(args.profile))
    except (LocalError, OSError) as exc:
        return fail("games", said(exc))
    if args.json:
        print(json.dumps({"profile": paths.profile_name(args.profile),
                          "games": [row_record(r, args.profile) for r in rows]}, indent=2))
    elif not rows:
        print(_("no games yet for profile {name!r}").format(name=paths.profile_name(args.profile)))
    else:
        print("\n".join(table_lines(rows, args.profile)))
    return ExitCode.OK
