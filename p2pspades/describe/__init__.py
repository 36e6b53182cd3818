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

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from p2pspades.checks import Check
from p2pspades.i18n import N_, _, ngettext
from p2pspades.i18n import said as detail_words
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
    is not made printable. The check's name is the code the records carry (`Check`), said as it is; the
    detail in the reader's language where it is an `errors.Detail`."""
    detail = detail_words(detail)
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


def penalty(check: Check, renege: str) -> str:
    """What a violation found by the end-of-hand audit cost, by the rule set's `renege` option: "penalised:
    its side scored the hand as a failed contract". A false bid is always set (PROTOCOL.md §4.7)."""
    if renege == "stop":
        return _("the game stopped on it")
    if check is Check.BAD_BID or renege == "set":
        return _("penalised: its side scored the hand as a failed contract")
    return _("penalised: three of its side's tricks went to the other side")


def ending(ended: GameEnded) -> str:
    """Why the game ended, in a few words: "seat 2 failed the turn check: ...", "seat 1 stopped answering",
    or "" for a complete game."""
    if ended.violation is not None:
        v = ended.violation
        return failed(v.check, v.detail, v.seat)
    if ended.status == "abandoned" and ended.seat is not None:
        if ended.contested and not ended.missing:
            return _("{seats} claimed that seat {seat} stopped answering (contested)").format(
                seats=seats_word(ended.signers), seat=ended.seat)
        return _("seat {seat} stopped answering").format(seat=ended.seat)
    if ended.status == "left":
        return _("{seats} left the game").format(seats=seats_word(ended.leavers))
    if ended.status == "stopped":
        return _("stopped by agreement")
    return ""


def parted(ended: GameEnded, who: Callable[[int], str] | None = None) -> str:
    """A game ended by the players' own word, in words (PROTOCOL.md §5.10, §5.11): who left, by a signed
    goodbye, and what that did (a forfeit is said by the caller, as for an abandonment); or that every seat
    agreed to stop, the scores standing. `who` names a seat ("seat 2" by default)."""
    if ended.status == "stopped":
        if ended.scored:
            return _("stopped by agreement at its end: every seat signed to stop there, and as the game was "
                     "decided before, its result stands")
        return _("stopped by agreement: every seat signed to stop here, so the scores stand and nobody wins; "
                 "the game can be carried on from them another day")
    leavers = seats_word(ended.leavers, who)
    if ended.scored:
        return _("{leavers} left the game at its end (a signed goodbye): it was decided before, so its "
                 "result stands").format(leavers=leavers)
    if ended.forfeit:
        count = len(ended.leavers)
        return ngettext("{leavers} left the game (a signed goodbye)",
                        "{leavers} left the game (signed goodbyes)", count).format(leavers=leavers)
    return ngettext("{leavers} left the game (a signed goodbye): nobody wins",
                    "{leavers} left the game (signed goodbyes): nobody wins",
                    len(ended.leavers)).format(leavers=leavers)


def parting_note(kind: str, signer: str, first: bool = False, own: bool = False) -> str:
    """A goodbye, a stop or a decline in words (PROTOCOL.md §5.10, §5.11): `signer` is how the reader names
    its seat; `first`: the stop is the first for its slot, a proposal; `own`: the reader signed it."""
    if own:
        return _own_parting(kind, first)
    if kind == "leave":
        return _("{signer} left the game (a signed goodbye)").format(signer=signer)
    if kind == "stop" and first:
        return _("{signer} proposes to stop here: the scores stand, nobody wins, and the game can be carried "
                 "on another day").format(signer=signer)
    if kind == "stop":
        return _("{signer} agrees to stop here").format(signer=signer)
    return _("{signer} wants to play on: the proposal to stop lapses").format(signer=signer)


def _own_parting(kind: str, first: bool) -> str:
    if kind == "leave":
        return _("You left the game (a signed goodbye)")
    if kind == "stop" and first:
        return _("You propose to stop here: the scores stand, nobody wins, and the game can be carried on "
                 "another day")
    if kind == "stop":
        return _("You agree to stop here")
    return _("You want to play on: the proposal to stop lapses")


def lapsed(by: str | None) -> str:
    """A proposal to stop that lapsed: declined by `by` (how the reader names it), or not agreed in time."""
    if by is not None:
        return _("{who} declined to stop: the game goes on").format(who=by)
    return _("the proposal to stop lapsed (not every seat agreed in time): the game goes on")


def seat_word(seat: int) -> str:
    return _("seat {seat}").format(seat=seat)


def seats_word(seats: Iterable[int], who: Callable[[int], str] | None = None) -> str:
    """'seat 2', 'seats 1, 3' (or, with `who`, the names it gives: 'Ann and Bob')."""
    listed = sorted(seats)
    if who is not None:
        names = [who(s) for s in listed]
        # TRANSLATORS: the last of several names: "Ann, Bob and Cy"
        return names[0] if len(names) == 1 else _("{names} and {last}").format(
            names=", ".join(names[:-1]), last=names[-1])
    return ngettext("seat {seats}", "seats {seats}", len(listed)).format(seats=", ".join(map(str, listed)))


def abandoned(ended: GameEnded, who: Callable[[int], str] | None = None, *, you: int | None = None) -> str:
    """An abandonment in words, as the screens and the CLI say it: who signed what against whom, after which
    timeout, and what it proves (PROTOCOL.md §5.5). `who` names a seat ("seat 2" by default); `you`: the
    reader's seat, whom the sentence then addresses. Forfeits are said by the caller."""
    name = who or seat_word
    assert ended.seat is not None
    accused, mine = name(ended.seat), ended.seat == you
    signers = seats_word(ended.signers, who) if ended.signers else _("the other seats")
    waits = _(" or ").join(_("{seconds} s").format(seconds=w) for w in sorted(set(ended.waits)))
    if ended.contested and not ended.missing:
        said = (_("{signers} claimed that you stopped answering") if mine
                else _("{signers} claimed that {accused} stopped answering"))
        said = _timeout(said.format(signers=signers, accused=accused), waits)
        return _("{said}; a claim that only seats who win by it signed proves nothing: contested, nobody "
                 "wins").format(said=said)
    said = (_("{signers} signed that you stopped answering") if mine
            else _("{signers} signed that {accused} stopped answering"))
    said = _timeout(said.format(signers=signers, accused=accused), waits)
    if ended.scored:
        return _("{said}; the game was decided before, so its result stands").format(said=said)
    if ended.missing:
        return _("{said}, and a timeout later that {seats} signed nothing: the seats still playing ended the "
                 "game, contested: nobody wins").format(said=said, seats=seats_word(ended.missing, who))
    return said


def _timeout(said: str, waits: str) -> str:
    return _("{said} (the timeout in force: {waits})").format(said=said, waits=waits) if waits else said


def superseded(first: int, count: int) -> str:
    """Entries cut back from our chain: a certificate or a stalled ending took their slot, a fault found at
    it ended the game there, or a stalled ending was void and the awaited entry took the slot."""
    if count == 1:
        return _("entry {first} is off the chain now (it stays in the log): an ending, a fault, or the "
                 "awaited entry after all took that slot").format(first=first)
    return ngettext(
        "{count} entry from {first} on is off the chain now (it stays in the log): an ending, a fault, or "
        "the awaited entry after all took that slot",
        "the {count} entries from {first} on are off the chain now (they stay in the log): an ending, a "
        "fault, or the awaited entry after all took that slot", count).format(first=first, count=count)


def note(kind: str, signer: str, accused: str, fields: Mapping[str, Any], *, mine: bool = False,
         against_me: bool = False) -> str:
    """A claim's note in words: a vote, a stall or a refusal (PROTOCOL.md §5.2), its fields checked. `mine`:
    the reader signed it; `against_me`: it is about the reader (the sentence then addresses them)."""
    if kind == "abandon":
        if mine:
            said = _("You voted that {accused} stopped answering (after the timeout in force, {seconds} s)")
        elif against_me:
            said = _("{signer} voted that you stopped answering (after the timeout in force, {seconds} s)")
        else:
            said = _("{signer} voted that {accused} stopped answering (after the timeout in force, "
                     "{seconds} s)")
        return said.format(signer=signer, accused=accused, seconds=fields.get("w"))
    if kind == "stall":
        missing = ", ".join(map(str, fields.get("m", ())))
        if mine:
            said = _("You still lack a vote of seats {missing} a timeout after your own against {accused}: "
                     "the seats still playing may end the game")
        elif against_me:
            said = _("{signer} still lacks a vote of seats {missing} a timeout after its own against you: "
                     "the seats still playing may end the game")
        else:
            said = _("{signer} still lacks a vote of seats {missing} a timeout after its own against "
                     "{accused}: the seats still playing may end the game")
        return said.format(signer=signer, accused=accused, missing=missing)
    if mine:
        said = _("You took the entry of {accused} before voting: the claim against {accused} is void")
    elif against_me:
        said = _("{signer} took your entry before voting: the claim against you is void")
    else:
        said = _("{signer} took the entry of {accused} before voting: the claim against {accused} is void")
    return said.format(signer=signer, accused=accused)


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
    return words.format(size=ev.size, detail=detail_words(ev.detail), seat=ev.seat, seq=ev.seq,
                        previous=(ev.seq or 0) - 1)


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
    return _("{scores} (bags {bags})").format(scores=scores, bags=", ".join(str(t[1]) for t in sides))


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
    "other game": N_("it follows game {new}, not game {game} of the old log"),
    "not over": N_("game {game} has not ended"),
    "not abandoned": N_("game {game} was not abandoned, left or stopped ({old}): it cannot be carried on"),
    "no scores": N_("game {game} ended before its first hand: there are no scores to carry on"),
    "no log": N_("you have no log of game {game} here: nothing of it can be checked"),
    "log unended": N_("your log of game {game} stops before its end: the scores cannot be checked"),
    "rule": N_("{option} is {new}, where game {game} had {old}"),
    "scores": N_("it starts from {new}, but game {game} ended at {old}"),
    "dealer": N_("seat {new} deals first, but seat {old} was to deal in game {game}"),
}
"""The sentence of each kind of change (`ChangeKind` by value) but a seat's."""


def change_text(change: Change, *, you: int | None = None, partners: tuple[int, ...] = (),
                short: bool = False) -> str:
    """A difference between a following game and the game it says it follows, in words, that game named
    by its id (`short`: its first 12 digits, and no key fingerprints, for a screen that shows them beside).
    `you`: the reader's seat in the new game and `partners` the other seats of its side, named as such. The
    text is not made printable: names come from peers."""
    game = change.game_id.hex()[:12] if short else change.game_id.hex()
    words = _CHANGE_WORDS.get(change.kind.value)
    if words is None:
        return _seat_change(change, game, you, partners, short)
    option = _("the target") if change.option == "target" else _("rule {option}").format(option=change.option)
    old, new = _value(change, change.old), _value(change, change.new)
    return _(words).format(game=game, option=option, old=old, new=new)


def _seat_change(change: Change, game: str, you: int | None, partners: tuple[int, ...], short: bool) -> str:
    """ "seat 3 (your partner's) is ana's bot 2 (66n9-…), who did not play game …; cy (…) sat there"."""
    seat, was = change.seat, change.was

    def who(info: object) -> str:
        name, fingerprint = getattr(info, "name", "?"), getattr(info, "fingerprint", "?")
        return name if short else f"{name} ({fingerprint})"

    if seat == you:
        moved = _("you did not play it") if was is None else _("you sat at seat {seat}").format(seat=was)
        if change.old is not None:
            where = _("where {who} sat in game {game}").format(who=who(change.old), game=game)
        else:
            where = _("which game {game} did not have").format(game=game)
        return _("you sit at seat {seat}, {where} ({moved})").format(seat=seat, where=where, moved=moved)
    if change.old is not None:
        then = _("{who} sat there").format(who=who(change.old))
    else:
        then = _("game {game} had no seat {seat}").format(game=game, seat=seat)
    partner = seat in partners
    if change.new is None:
        gone = (_("seat {seat} (your partner's) is gone; {then}") if partner
                else _("seat {seat} is gone; {then}"))
        return gone.format(seat=seat, then=then)
    if was is None:
        played = _("who did not play game {game}").format(game=game)
    else:
        played = _("who sat at seat {seat} in game {game}").format(seat=was, game=game)
    is_ = (_("seat {seat} (your partner's) is {who}, {played}; {then}") if partner
           else _("seat {seat} is {who}, {played}; {then}"))
    return is_.format(seat=seat, who=who(change.new), played=played, then=then)
