"""Typing a card: which keys may make a card code, and what a typed code means, in the player's language.

A code is a rank and a suit in lower case, as a person says the card. The letters are the language's own
(the catalogs give them, in the context "card code"): English `qh`, `10s`, `as`, the jokers `bj` and `lj`;
German `dh` (Dame Herz), `10p` (Pik), `kka` (König Karo), `bkr` (Bube Kreuz), `gj`, `kj`; French `dc`
(dame de cœur), `10p` (pique), `rk` (roi de carreau), `vt` (valet de trèfle), `gj`, `pj`; Polish `dki` (dama
kier), `10p` (pik), `kka` (król karo), `wt` (walet trefl), `dj`, `mj`. The English codes are taken too in
every language, and `t` for ten and upper case (the log and `export` write `TS`), except where a code names
another card in the player's language: there the player's language wins (French `ac` is the as de cœur).
"""

from __future__ import annotations

import functools

from p2pspades.i18n import _, current, pgettext
from p2pspades.rules import FULL_DECK, Card, Rank, Suit

MAX_LENGTH = 4
"""The longest code in any language ("10ka", "10kr"): a test holds every language to it."""


def rank_codes() -> dict[Rank, str]:
    """The letters of the court cards and the ace in the language spoken (the number cards are 2 to 10)."""
    return {
        # TRANSLATORS: the key a player types for a jack, queen, king, ace in a card code (lower case, one
        # letter, none a suit's letter): German b, d, k, a; French v, d, r, a; Polish w, d, k, a
        Rank.JACK: pgettext("card code", "j"),
        Rank.QUEEN: pgettext("card code", "q"),
        Rank.KING: pgettext("card code", "k"),
        Rank.ACE: pgettext("card code", "a"),
    }


def suit_codes() -> dict[Suit, str]:
    """The letters of the suits in the language spoken, spades first."""
    return {
        # TRANSLATORS: the keys a player types for spades, hearts, diamonds, clubs after the rank (lower case,
        # one or two letters, none the start of another): German p, h, ka, kr; French p, c, k, t
        Suit.SPADES: pgettext("card code", "s"),
        Suit.HEARTS: pgettext("card code", "h"),
        Suit.DIAMONDS: pgettext("card code", "d"),
        Suit.CLUBS: pgettext("card code", "c"),
    }


def _local_codes() -> dict[str, Card]:
    """Every code of the language spoken, with its card."""
    ranks, suits = rank_codes(), suit_codes()
    codes = {
        # TRANSLATORS: the code a player types for the big joker and the little joker (lower case)
        pgettext("card code", "bj"): Card.parse("BJ"),
        pgettext("card code", "lj"): Card.parse("LJ"),
    }
    for card in FULL_DECK:
        if not card.is_joker:
            codes[ranks.get(card.rank, str(int(card.rank))) + suits[card.suit]] = card
    return codes


@functools.cache
def _codes(lang: str) -> dict[str, Card]:
    english = {typed: card for card in FULL_DECK for typed in (card.code.lower(), _english(card))}
    return english | _local_codes()  # the player's language wins where the two name different cards


def _english(card: Card) -> str:
    code = card.code.lower()
    return "10" + code[1:] if code.startswith("t") else code


def codes() -> dict[str, Card]:
    """Every code a person may type in the language spoken, with the card it names."""
    return _codes(current().lang)


def starts_code(key: str, *, jokers: bool) -> bool:
    """Whether `key` (lower case) can begin a card code: a rank, or a joker's first letter if jokers play."""
    return any(code.startswith(key) and (jokers or not card.is_joker) for code, card in codes().items())


def continues_code(key: str) -> bool:
    """Whether `key` (lower case) can follow the start of a card code."""
    return any(key in code[1:] for code in codes())


def card_of(code: str) -> Card | None:
    """The card a typed code names, or None if it names none (yet)."""
    return codes().get(code.strip().lower())


def typed_code(card: Card) -> str:
    """How a person types `card` in the language spoken, as the help shows it: "qh", "10s", "bj"; in German
    "dh", "10p", "gj"."""
    local = _local_codes()
    return next((code for code, found in local.items() if found is card), _english(card))


def codes_help() -> str:
    """The one sentence that says how to type a card, in the language spoken."""
    return _("a card code is a rank (2-10, {ranks}) and a suit ({suits}), like {example} or {other}").format(
        ranks=", ".join(rank_codes().values()), suits=", ".join(suit_codes().values()),
        example=typed_code(Card(Rank.QUEEN, Suit.HEARTS)), other=typed_code(Card(Rank.TEN, Suit.SPADES)))


def why_not_a_card(code: str) -> str:
    """What to tell a person whose code names no card."""
    return _("{code} is not a card: {codes}").format(code=code, codes=codes_help())
