"""Cards: suits, ranks, the two jokers, notation and the bit masks the engine computes with.

There are exactly 54 `Card` objects, made once at import: parsing, indexing `FULL_DECK` and calling
`Card(rank, suit)` all return the same instances, so cards compare by identity and hash by their index. A
card's `index` is its position in `FULL_DECK`, and `1 << index` is its bit in every hand mask.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from typing import Any, NoReturn

from p2pspades.errors import N_
from p2pspades.rules.errors import CardError


class Suit(enum.Enum):
    """The four suits. Spades are always trump."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def glyph(self) -> str:
        return _SUIT_GLYPHS[self.value]

    @property
    def index(self) -> int:
        """0..3 in the canonical order spades, hearts, diamonds, clubs."""
        return _SUIT_ORDER.index(self.value)

    @property
    def noun(self) -> str:
        """The plural name used in messages: "spades", "hearts", ..."""
        return self.name.lower()


class Rank(enum.IntEnum):
    """Ranks from low to high; the jokers rank above the ace."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    LITTLE_JOKER = 15
    BIG_JOKER = 16


_SUIT_ORDER = "SHDC"
_SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_GLYPH_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
_RANK_CHARS = "23456789TJQKA"
_RANK_BY_TEXT = {ch: Rank(i + 2) for i, ch in enumerate(_RANK_CHARS)} | {"10": Rank.TEN}
_RANK_GLYPH = {Rank(i + 2): ("10" if ch == "T" else ch) for i, ch in enumerate(_RANK_CHARS)}


class Card:
    """One playing card. Immutable, interned, ordered as in `FULL_DECK`."""

    __slots__ = ("_below", "_bit", "_power", "_suit_i", "code", "glyph", "index", "rank", "suit")

    rank: Rank
    suit: Suit
    index: int
    code: str
    glyph: str
    _bit: int  # 1 << index
    _below: int  # the bits of the cards before this one: (1 << index) - 1
    _suit_i: int  # suit index 0..3, jokers 0 (spades)
    _power: int  # trick strength: spades (and jokers) above every other card, then by rank

    def __new__(cls, rank: Rank, suit: Suit) -> Card:
        card = _BY_RANK_SUIT.get((rank, suit))
        if card is None:
            raise CardError(N_("no such card: {rank} of {suit} (jokers are spades)"), rank=repr(rank),
                            suit=repr(suit))
        return card

    @classmethod
    def _make(cls, index: int, rank: Rank, suit: Suit, code: str, glyph: str) -> Card:
        card = object.__new__(cls)
        put = object.__setattr__
        put(card, "rank", rank)
        put(card, "suit", suit)
        put(card, "index", index)
        put(card, "code", code)
        put(card, "glyph", glyph)
        put(card, "_bit", 1 << index)
        put(card, "_below", (1 << index) - 1)
        put(card, "_suit_i", suit.index)
        put(card, "_power", (64 + index) if suit is Suit.SPADES else index)
        return card

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card for a code such as "TS", "10s", "ah", "BJ"; also accepts suit glyphs ("A♠")."""
        if not isinstance(code, str):
            raise CardError(N_("bad card {code}: expected a code such as 'TS', 'AH' or 'BJ'"),
                            code=repr(code))
        text = code.strip().upper()
        card = _BY_CODE.get(text)
        if card is not None:
            return card
        if not text:
            raise CardError(N_("bad card '': empty (expected a code such as 'TS', 'AH' or 'BJ')"))
        if len(text) < 2:
            raise CardError(N_("bad card {code}: a card is a rank and a suit, such as 'TS' (or 'BJ', 'LJ')"),
                            code=repr(code))
        rank_text, suit_text = text[:-1], _GLYPH_SUITS.get(text[-1], text[-1])
        if rank_text not in _RANK_BY_TEXT:
            if rank_text in ("B", "L"):
                raise CardError(N_("bad card {code}: the jokers are written 'BJ' and 'LJ'"), code=repr(code))
            raise CardError(N_("bad card {code}: rank must be one of 2-9,T,J,Q,K,A"), code=repr(code))
        if suit_text not in _SUIT_ORDER:
            raise CardError(N_("bad card {code}: suit must be one of S,H,D,C"), code=repr(code))
        return _BY_CODE[rank_text.replace("10", "T") + suit_text]

    @property
    def is_joker(self) -> bool:
        return self.rank > Rank.ACE

    @property
    def bit(self) -> int:
        """This card's bit in a hand mask."""
        return self._bit

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("cards are immutable")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __hash__(self) -> int:
        # Equality stays object identity (cards are interned); the hash is the index so that sets and dicts
        # of cards iterate in the same order on every peer.
        return self.index

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index < other.index
        return NotImplemented

    def __le__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self.index >= other.index
        return NotImplemented

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


def _build_deck() -> tuple[Card, ...]:
    cards: list[Card] = []
    for suit_char in _SUIT_ORDER:
        suit = Suit(suit_char)
        for rank_char in _RANK_CHARS:
            rank = _RANK_BY_TEXT[rank_char]
            cards.append(
                Card._make(len(cards), rank, suit, rank_char + suit_char, _RANK_GLYPH[rank] + suit.glyph)
            )
    cards.append(Card._make(52, Rank.LITTLE_JOKER, Suit.SPADES, "LJ", "LJ"))
    cards.append(Card._make(53, Rank.BIG_JOKER, Suit.SPADES, "BJ", "BJ"))
    return tuple(cards)


_BY_RANK_SUIT: dict[tuple[Rank, Suit], Card] = {}
FULL_DECK: tuple[Card, ...] = _build_deck()
"""All 54 cards in canonical order: 2S..AS, 2H..AH, 2D..AD, 2C..AC, LJ, BJ."""
_BY_RANK_SUIT.update({(card.rank, card.suit): card for card in FULL_DECK})
_BY_CODE: dict[str, Card] = {card.code: card for card in FULL_DECK}

LITTLE_JOKER = FULL_DECK[52]
BIG_JOKER = FULL_DECK[53]
JOKERS_MASK = LITTLE_JOKER.bit | BIG_JOKER.bit
SUIT_MASKS: tuple[int, int, int, int] = (
    ((1 << 13) - 1) | JOKERS_MASK,  # spades, with the jokers
    ((1 << 13) - 1) << 13,
    ((1 << 13) - 1) << 26,
    ((1 << 13) - 1) << 39,
)
"""The bits of each suit, by suit index (jokers count as spades)."""
SPADES_MASK = SUIT_MASKS[0]
NON_SPADES_MASK = SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]
SUITS: tuple[Suit, Suit, Suit, Suit] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

_SEPARATORS = re.compile(r"[\s,]+")


def parse_cards(text: str) -> list[Card]:
    """Cards from text such as "AS KH 2C" or "AS,KH"; an empty text is no cards."""
    if not isinstance(text, str):
        raise CardError(N_("bad card list {text}: expected text such as 'AS KH 2C'"), text=repr(text))
    return [Card.parse(code) for code in _SEPARATORS.split(text) if code]


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of some cards."""
    mask = 0
    for card in cards:
        mask |= card._bit
    return mask


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a bit mask, in canonical order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(FULL_DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


class CardOrder:
    """Which suit each card counts as and how strong it is in a trick, for one rule set.

    The standard order makes spades (with the jokers above the ace) trump. "Deuces high" (RULES.md) puts the
    2S and then the 2D above the ace of spades and below the jokers: BJ, LJ, 2D, 2S, AS, KS, ... The 2D is
    then a spade for following suit, for trumping, for breaking spades and for the void proofs. `suit_of`
    and `power` are indexed by `Card.index`; the masks are those of `SUIT_MASKS` with the moved cards moved.
    """

    __slots__ = ("high", "name", "non_spades_mask", "power", "rank", "spades_mask", "suit_masks", "suit_of")

    name: str
    high: tuple[Card, ...]  # the cards raised above the ace of spades, low to high
    suit_of: tuple[int, ...]  # suit index by card index (0: spades)
    power: tuple[int, ...]  # trick strength by card index: every spade above every other card
    rank: tuple[float, ...]  # rank by card index, 2..16 as `Rank`; a raised deuce between the ace and LJ
    suit_masks: tuple[int, int, int, int]
    spades_mask: int
    non_spades_mask: int

    def __init__(self, name: str, high: tuple[Card, ...]) -> None:
        put = object.__setattr__
        suit_of = [card._suit_i for card in FULL_DECK]
        power = [card._power for card in FULL_DECK]
        rank = [float(card.rank) for card in FULL_DECK]
        masks = list(SUIT_MASKS)
        ace = _BY_CODE["AS"]._power
        for k, card in enumerate(high):
            masks[card._suit_i] &= ~card._bit
            masks[0] |= card._bit
            suit_of[card.index] = 0
            power[card.index] = ace + 1 + k  # the jokers stay above (64 + 52 and 64 + 53)
            rank[card.index] = Rank.ACE + (k + 1) / (len(high) + 1)
        put(self, "name", name)
        put(self, "high", high)
        put(self, "suit_of", tuple(suit_of))
        put(self, "power", tuple(power))
        put(self, "rank", tuple(rank))
        put(self, "suit_masks", (masks[0], masks[1], masks[2], masks[3]))
        put(self, "spades_mask", masks[0])
        put(self, "non_spades_mask", masks[1] | masks[2] | masks[3])

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("card orders are immutable")

    def suit(self, card: Card) -> Suit:
        """The suit `card` follows as (the 2D is a spade with deuces high)."""
        return SUITS[self.suit_of[card.index]]

    def is_trump(self, card: Card) -> bool:
        return self.suit_of[card.index] == 0

    def strength(self, card: Card) -> int:
        """A number that orders the cards of one suit as they win tricks (every spade above the rest)."""
        return self.power[card.index]

    def __repr__(self) -> str:
        return f"CardOrder({self.name!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (order_named, (self.name,))


STANDARD_ORDER = CardOrder("standard", ())
"""Spades trump, the jokers (when in play) above the ace of spades."""
DEUCES_HIGH_ORDER = CardOrder("deuces_high", (_BY_CODE["2S"], _BY_CODE["2D"]))
"""Deuces high: BJ, LJ, 2D, 2S, AS, KS, ...; the 2D is a spade."""


def order_named(name: str) -> CardOrder:
    """The card order of a name ("standard", "deuces_high")."""
    return DEUCES_HIGH_ORDER if name == "deuces_high" else STANDARD_ORDER


HOLDING_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""The suits left to right in a hand as a person holds it: black and red alternate."""


def sort_hand(cards: Iterable[Card], order: CardOrder = STANDARD_ORDER) -> list[Card]:
    """A hand as a person holds it: grouped by suit (spades, hearts, clubs, diamonds), high to low, under
    the rule set's card order (deuces high: the 2D with the spades, above the 2S)."""
    return sorted(cards, key=lambda c: (HOLDING_ORDER.index(order.suit(c)), -order.rank[c.index]))


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as codes separated by spaces; `parse_cards` reads it back."""
    return " ".join(card.code for card in cards)
