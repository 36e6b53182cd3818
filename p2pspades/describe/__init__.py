"""The sentences that every report shares: a failed check, how a game ended, how a game that follows another
differs from it.

The table and the peer report data (a `Check`, seats, a `GameEnded`); the CLI, the UI, the records, the
verdict and the replay put it into words with these, so the same fact reads the same everywhere. Nothing here
is made printable: a detail may come from a peer, so the caller escapes the text for a terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pspades.checks import Check

if TYPE_CHECKING:
    from p2pspades.audit.sequel import Change
    from p2pspades.rules import HandScore, RuleSet
    from p2pspades.table.events import GameEnded


def failed(check: Check, detail: str, seat: int | str | None = None) -> str:
    """A failed check in words, the one sentence every report uses: "seat 2 failed the turn check: <detail>"
    (`seat` a number, or how the reader names it, "you"), or "turn: <detail>" when no seat is named. The text
    is not made printable."""
    if seat is None:
        return f"{check}: {detail}"
    who = f"seat {seat}" if isinstance(seat, int) else seat
    return f"{who} failed the {check} check: {detail}"


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


def _totals(totals: object) -> str:
    """ "120–80 (bags 3, 1)" from the sides' totals (side 0 first)."""
    sides = [t for t in totals if isinstance(t, tuple)] if isinstance(totals, tuple) else []
    scores = "–".join(str(t[0]) for t in sides)
    return f"{scores} (bags {', '.join(str(t[1]) for t in sides)})"


def _value(change: Change, value: object) -> str:
    """An old or new value of a change, as its sentence writes it."""
    from p2pspades.audit.sequel import ChangeKind
    from p2pspades.rules.options import value_text

    if change.kind is ChangeKind.SCORES:
        return _totals(value)
    if change.kind is ChangeKind.OTHER_GAME and isinstance(value, bytes):
        return value.hex()
    if change.kind is ChangeKind.RULE and change.option != "target":
        return value_text(value)
    return f"{value}"


_CHANGE_WORDS = {
    "other game": "it follows game {new}, not {game} of the old log",
    "not over": "{game} has not ended",
    "not abandoned": "{game} was not abandoned ({old}): it cannot be carried on",
    "no scores": "{game} ended before its first hand: there are no scores to carry on",
    "no log": "you have no log of {game} here: nothing of it can be checked",
    "log unended": "your log of {game} stops before its end: the scores cannot be checked",
    "rule": "{option} is {new}, where {game} had {old}",
    "scores": "it starts from {new}, but {game} ended at {old}",
    "dealer": "seat {new} deals first, but seat {old} was to deal in {game}",
}
"""The sentence of each kind of change (`ChangeKind` by value) but a seat's."""


def change_text(change: Change, *, you: int | None = None, partners: tuple[int, ...] = (),
                short: bool = False) -> str:
    """A difference between a following game and the game it says it follows, in words, that game named
    by its id (`short`: its first 12 digits, and no key fingerprints, for a screen that shows them beside).
    `you`: the reader's seat in the new game and `partners` the other seats of its side, named as such. The
    text is not made printable: names come from peers."""
    gid = change.game_id.hex()[:12] if short else change.game_id.hex()
    game = f"game {gid}"
    words = _CHANGE_WORDS.get(change.kind.value)
    if words is None:
        return _seat_change(change, game, you, partners, short)
    option = "the target" if change.option == "target" else f"rule {change.option}"
    old, new = _value(change, change.old), _value(change, change.new)
    return words.format(game=game, option=option, old=old, new=new)


def _seat_change(change: Change, game: str, you: int | None, partners: tuple[int, ...], short: bool) -> str:
    """ "seat 3 (your partner's) is ana's bot 2 (66n9-…), who did not play game …; cy (…) sat there"."""
    seat, was = change.seat, change.was

    def who(info: object) -> str:
        name, fingerprint = getattr(info, "name", "?"), getattr(info, "fingerprint", "?")
        return name if short else f"{name} ({fingerprint})"

    if seat == you:
        moved = "you did not play it" if was is None else f"you sat at seat {was}"
        where = (f"where {who(change.old)} sat in {game}" if change.old is not None
                 else f"which {game} did not have")
        return f"you sit at seat {seat}, {where} ({moved})"
    whose = " (your partner's)" if seat in partners else ""
    then = f"{who(change.old)} sat there" if change.old is not None else f"{game} had no seat {seat}"
    if change.new is None:
        return f"seat {seat}{whose} is gone; {then}"
    played = f"who did not play {game}" if was is None else f"who sat at seat {was} in {game}"
    return f"seat {seat}{whose} is {who(change.new)}, {played}; {then}"
