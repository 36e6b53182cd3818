"""The describer: every sentence a person reads about the game, made from data at the edge.

The layers below the UI and the CLI report data (a `Check`, seats, cards, numbers, a `GameEnded`, a
`reasons.Reason`, a `reasons.Change`); the CLI, the UI, the records, the verdict and the replay put it
into words with these, so the same fact reads the same everywhere, and the words have one place to be
translated. Here: a failed check, how a game ended, the bonuses of a hand score, why an entry was dropped,
and how a game that follows another differs from it. Beside it: `lobby` (the lobby's refusals, closings and
troubles), `findings` (what a log proves), `tables` (a networked table's seat map), `rules` (a rule set), and
the documents made of them: `record` (a game's text record), `dispute` (several logs of one game), `page`
(the page for a browser, its frame in `document`). Nothing here is made printable: a detail may come from a
peer, so the caller escapes the text for a terminal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pspades.checks import Check
from p2pspades.i18n import N_, _
from p2pspades.reasons import Change, ChangeKind
from p2pspades.rules.options import value_text

if TYPE_CHECKING:
    from p2pspades.rules import HandScore, RuleSet
    from p2pspades.table import After
    from p2pspades.table.events import Dropped, GameEnded, Violation

#: why an entry was dropped without blaming a seat, by `table.DropKind` value
DROPS = {
    "oversized": N_("oversized entry ({size} bytes)"),
    "malformed": N_("malformed entry: {detail}"),
    "other game": N_("an entry of another game"),
    "no such seat": N_("an entry from seat {seat}, which does not exist"),
    "bad signature": N_("an entry claiming seat {seat} with a bad signature"),
    "stale": N_("stale entry {seq} from seat {seat}"),
    "too far ahead": N_("entry {seq} is too far ahead"),
    "not chained": N_("entry {seq} does not chain to our entry {previous}"),
    "game over": N_("the game is over"),
    "refused": N_("refused: {detail}"),
}


def failed(check: Check, detail: str, seat: int | str | None = None) -> str:
    """A failed check in words, the one sentence every report uses: "seat 2 failed the turn check: <detail>"
    (`seat` a number, or how the reader names it, "you"), or "turn: <detail>" when no seat is named. The text
    is not made printable."""
    if seat is None:
        return f"{check}: {detail}"
    if isinstance(seat, int):
        said = _("seat {seat} failed the {check} check: {detail}")
        return said.format(seat=seat, check=check, detail=detail)
    # TRANSLATORS: {who} is how the reader is named ("you")
    return _("{who} failed the {check} check: {detail}").format(who=seat, check=check, detail=detail)


def violation(v: Violation) -> str:
    """A violation with its entry: "entry 12: seat 2 failed the turn check: <detail>"."""
    return _("entry {seq}: {failed}").format(seq=v.seq, failed=failed(v.check, v.detail, v.seat))


def ending(ended: GameEnded) -> str:
    """Why the game ended, in a few words: "seat 2 failed the turn check: ...", "seat 1 stopped answering",
    or "" for a complete game."""
    if ended.violation is not None:
        v = ended.violation
        return failed(v.check, v.detail, v.seat)
    if ended.status == "abandoned" and ended.seat is not None:
        return _("seat {seat} stopped answering").format(seat=ended.seat)
    return ""


def bonuses(rules: RuleSet, score: HandScore) -> list[str]:
    """The bonuses and penalties in one side's hand score, named as the score sheet names them:
    "bag penalty -100", "10 for 200 +200", "Boston +200", or "Boston: wins the game" where taking every
    trick wins."""
    out = []
    if score.penalty_points:
        out.append(_("bag penalty {points:+d}").format(points=score.penalty_points))
    if score.ten_for_200_points:
        out.append(_("10 for 200 {points:+d}").format(points=score.ten_for_200_points))
    if score.boston_points:
        out.append(_("Boston {points:+d}").format(points=score.boston_points))
    if score.boston and rules.boston == "win":
        out.append(_("Boston: wins the game"))
    return out


def dropped(ev: Dropped) -> str:
    """Why the table dropped an entry without blaming a seat (`Dropped.kind` and its data)."""
    words = _(DROPS[ev.kind.value])
    return words.format(size=ev.size, detail=ev.detail, seat=ev.seat, seq=ev.seq, previous=(ev.seq or 0) - 1)


def after_text(after: After, short: bool = False) -> str:
    """What a game follows, in one line: "a rematch of game 3f2a…" or "continues game 3f2a… from 120–80
    (bags 3, 1), seat 2 deals"; `short`: the game id's first 12 digits (as `games` and `resume` take it)."""
    game = after.game_id.hex()[:12] if short else after.game_id.hex()
    if not after.continues:
        return _("a rematch of game {game}").format(game=game)
    scores = "–".join(str(t.score) for t in after.totals)
    bags = ", ".join(str(t.bags) for t in after.totals)
    return _("continues game {game} from {scores} (bags {bags}), seat {dealer} deals").format(
        game=game, scores=scores, bags=bags, dealer=after.dealer)


def _totals(totals: object) -> str:
    """ "120–80 (bags 3, 1)" from the sides' totals (side 0 first)."""
    sides = [t for t in totals if isinstance(t, tuple)] if isinstance(totals, tuple) else []
    scores = "–".join(str(t[0]) for t in sides)
    return f"{scores} (bags {', '.join(str(t[1]) for t in sides)})"


def _value(change: Change, value: object) -> str:
    """An old or new value of a change, as its sentence writes it."""
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
