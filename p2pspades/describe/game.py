"""The game's small words in the reader's language: a bid ("nil", "blind 5"), how a game stands or ended
("abandoned"), why it ended ("target"), what a renege costs ("the side is set").

The records for tools keep the codes (`rules.bid_notation`, `TableStatus`, `Termination`); what a person
reads goes through here.
"""

from __future__ import annotations

from p2pspades.i18n import N_, _, pgettext
from p2pspades.rules import Card, Rank, RuleSet
from p2pspades.rules.results import Termination


def bid_text(bid: int | None, blind: bool, rules: RuleSet, *, short: bool = False) -> str:
    """A bid as the score sheet writes it: "blind nil", "nil", "blind 4", "4", or "-" while not bid yet.
    `short`, for narrow columns and one-line summaries: "bn", "n", "b4" (in the reader's letters)."""
    if blind and bid:
        # TRANSLATORS: a blind bid of {n} tricks, short for a narrow column ("b5")
        return (pgettext("bid", "b{n}") if short else _("blind {n}")).format(n=bid)
    if blind:
        # TRANSLATORS: blind nil, short for a narrow column ("bn")
        return pgettext("bid", "bn") if short else _("blind nil")
    if bid is None:
        return "-"
    if bid == 0 and rules.nil:
        # TRANSLATORS: nil, short for a narrow column ("n")
        return pgettext("bid", "n") if short else _("nil")
    return str(bid)


_RENEGE = {
    "set": N_("the side is set"),
    "three_tricks": N_("3 tricks to the opponents"),
    "stop": N_("the game stops"),
}

_TERMINATION = {
    "target": N_("target"),
    "losing_threshold": N_("losing threshold"),
    "violation": N_("violation"),
    "boston": N_("Boston"),
}


def termination_words(termination: Termination) -> str:
    """Why the game ended, in a word or two: "target", "losing threshold"."""
    said = _TERMINATION.get(termination.value)
    return _(said) if said else termination.value.replace("_", " ")


_STATUS = {
    "running": N_("running"),
    "complete": N_("complete"),
    "abandoned": N_("abandoned"),
    "violation": N_("violation"),
    # TRANSLATORS: how a game ended: a player left it (a signed goodbye)
    "left": N_("left"),
    # TRANSLATORS: how a game ended: every player agreed to stop it, the scores standing
    "stopped": N_("stopped by agreement"),
}


def status_words(status: object) -> str:
    """How a table stands or ended (`TableStatus`), in a word: "abandoned"."""
    said = _STATUS.get(str(status))
    return _(said) if said else str(status)


def renege_words(rules: RuleSet) -> str:
    """What a renege costs under `rules`, in words: "the side is set"."""
    return _(_RENEGE[rules.renege])


SEAT_NAMES = (N_("South"), N_("West"), N_("North"), N_("East"), N_("Centre"), N_("Seat 5"), N_("Seat 6"),
              N_("Seat 7"))
"""The names a game against bots gives its seats, by seat (`table.harness.SEAT_NAMES`, in the player's
language: a name, signed into the game's genesis as it is)."""


def seat_names(n: int) -> list[str]:
    """The first `n` seats' names in the language spoken: "South", "West", "North", "East"; "Süd", ..."""
    return [_(name) for name in SEAT_NAMES[:n]]


def bot_name() -> str:
    """The name a host's bots take after it, in the host's language: "{owner}'s bot"."""
    # TRANSLATORS: the name of a host's bot at a table (a name: every player sees it as the host's language
    # writes it); at most 20 characters besides {owner}
    return _("{owner}'s bot")


_FACE_CODES = {Rank.JACK: "j", Rank.QUEEN: "q", Rank.KING: "k", Rank.ACE: "a", Rank.LITTLE_JOKER: "lj",
               Rank.BIG_JOKER: "bj"}
"""The English letters of the faces, as the catalogs' "card code" context holds them (`ui.cardinput`)."""


def card_glyph(card: Card) -> str:
    """A card as the reader's language writes it, in the letters it is typed with: "Q♥" in English, "D♥" in
    German, French and Polish; "B♠", "V♠", "W♠" for the jack of spades; the jokers "BJ", "GJ", "DJ"."""
    code = _FACE_CODES.get(card.rank)
    if code is None:
        return card.glyph
    letters = pgettext("card code", code).upper()  # the code a player types for this face
    return letters if card.is_joker else letters + card.suit.glyph


def rank_glyph(card: Card) -> str:
    """A card's rank alone, as `card_glyph` writes it ("10", "D"; a joker whole)."""
    glyph = card_glyph(card)
    return glyph if card.is_joker else glyph[:-1]
