"""Typing a card: which keys may make a card code, and what a typed code means.

The screen writes a code as a rank and a suit in lower case, as a person says it: `qh`, `10s`, `as`, and the
jokers `bj` and `lj`. `t` for ten and upper case are taken too (the log and `export` write `TS`).
"""

from __future__ import annotations

from p2pspades.rules import Card, CardError

#: the one sentence that says how to type a card
CARD_CODES = "a card code is a rank (2-10, j, q, k, a) and a suit (s, h, d, c), like qh or 10s"
MAX_LENGTH = 3  # "10s"
_RANK_KEYS = frozenset("23456789tjqka1bl")
_SUIT_KEYS = frozenset("shdcj0")  # "j" ends "bj"/"lj", "0" continues "10"


def starts_code(key: str, *, jokers: bool) -> bool:
    """Whether `key` (lower case) can begin a card code: a rank, or a joker's `b`/`l` if jokers play."""
    return key in _RANK_KEYS and (jokers or key not in "bl")


def continues_code(key: str) -> bool:
    """Whether `key` (lower case) can follow the start of a card code."""
    return key in _SUIT_KEYS or key in _RANK_KEYS


def card_of(code: str) -> Card | None:
    """The card a typed code names, or None if it names none (yet)."""
    if len(code) < 2:
        return None
    try:
        return Card.parse(code)
    except CardError:
        return None


def why_not_a_card(code: str) -> str:
    """What to tell a person whose code names no card."""
    return f"{code} is not a card: {CARD_CODES}"


def typed_code(card: Card) -> str:
    """How a person types `card`, as the screen writes it: "qh", "10s", "bj"."""
    code = card.code.lower()
    return "10" + code[1:] if code.startswith("t") else code
