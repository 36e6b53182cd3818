"""The describer: every sentence a person reads about the game, made from data at the edge.

The layers below the UI and the CLI report data (a `Check`, seats, cards, numbers, a `GameEnded`, a
`reasons.Reason`); the CLI, the UI, the records, the verdict and the replay put it into words with these, so
the same fact reads the same everywhere, and the words have one place to be translated. Here: a failed
check, how a game ended, the bonuses of a hand score and why an entry was dropped. Beside it: `lobby` (the
lobby's refusals, closings and troubles), `findings` (what a log proves, a game that follows another, a
dispute), `tables` (a networked table's seat map). Nothing here is made printable: a detail may come from a
peer, so the caller escapes the text for a terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pspades.checks import Check

if TYPE_CHECKING:
    from p2pspades.rules import HandScore, RuleSet
    from p2pspades.table.events import Dropped, GameEnded, Violation

#: why an entry was dropped without blaming a seat, by `table.DropKind` value
DROPS = {
    "oversized": "oversized entry ({size} bytes)",
    "malformed": "malformed entry: {detail}",
    "other game": "an entry of another game",
    "no such seat": "an entry from seat {seat}, which does not exist",
    "bad signature": "an entry claiming seat {seat} with a bad signature",
    "stale": "stale entry {seq} from seat {seat}",
    "too far ahead": "entry {seq} is too far ahead",
    "not chained": "entry {seq} does not chain to our entry {previous}",
    "game over": "the game is over",
    "refused": "refused: {detail}",
}


def failed(check: Check, detail: str, seat: int | str | None = None) -> str:
    """A failed check in words, the one sentence every report uses: "seat 2 failed the turn check: <detail>"
    (`seat` a number, or how the reader names it, "you"), or "turn: <detail>" when no seat is named. The text
    is not made printable."""
    if seat is None:
        return f"{check}: {detail}"
    who = f"seat {seat}" if isinstance(seat, int) else seat
    return f"{who} failed the {check} check: {detail}"


def violation(v: Violation) -> str:
    """A violation with its entry: "entry 12: seat 2 failed the turn check: <detail>"."""
    return f"entry {v.seq}: {failed(v.check, v.detail, v.seat)}"


def ending(ended: GameEnded) -> str:
    """Why the game ended, in a few words: "seat 2 failed the turn check: ...", "seat 1 stopped answering",
    or "" for a complete game."""
    if ended.violation is not None:
        v = ended.violation
        return failed(v.check, v.detail, v.seat)
    if ended.status == "abandoned" and ended.seat is not None:
        return f"seat {ended.seat} stopped answering"
    return ""


def bonuses(rules: RuleSet, score: HandScore) -> list[str]:
    """The bonuses and penalties in one side's hand score, named as the score sheet names them:
    "bag penalty -100", "10 for 200 +200", "Boston +200", or "Boston: wins the game" where taking every
    trick wins."""
    out = []
    if score.penalty_points:
        out.append(f"bag penalty {score.penalty_points:+d}")
    if score.ten_for_200_points:
        out.append(f"10 for 200 {score.ten_for_200_points:+d}")
    if score.boston_points:
        out.append(f"Boston {score.boston_points:+d}")
    if score.boston and rules.boston == "win":
        out.append("Boston: wins the game")
    return out


def dropped(ev: Dropped) -> str:
    """Why the table dropped an entry without blaming a seat (`Dropped.kind` and its data)."""
    words = DROPS[ev.kind.value]
    return words.format(size=ev.size, detail=ev.detail, seat=ev.seat, seq=ev.seq, previous=(ev.seq or 0) - 1)
