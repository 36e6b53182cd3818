"""Cards: the 54 interned cards, notation, glyphs, ranking and the trick winner."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pspades.rules import (
    FULL_DECK,
    Card,
    CardError,
    Rank,
    Suit,
    Trick,
    cards_of,
    format_cards,
    mask_of,
    parse_cards,
    trick_winner,
)
from p2pspades.rules.errors import IllegalAction

RANKS = "23456789TJQKA"


def test_there_are_exactly_54_cards_in_canonical_order() -> None:
    assert len(FULL_DECK) == 54
    assert len(set(FULL_DECK)) == 54
    codes = [f"{rank}{suit}" for suit in "SHDC" for rank in RANKS] + ["LJ", "BJ"]
    assert [card.code for card in FULL_DECK] == codes
    assert [card.index for card in FULL_DECK] == list(range(54))
    assert Card.parse("2S").index == 0 and Card.parse("AS").index == 12
    assert Card.parse("2H").index == 13 and Card.parse("AC").index == 51
    assert Card.parse("LJ").index == 52 and Card.parse("BJ").index == 53


def test_cards_are_interned() -> None:
    for card in FULL_DECK:
        assert Card.parse(card.code) is card
        assert Card.parse(card.code.lower()) is card
        assert Card(card.rank, card.suit) is card
        assert copy.copy(card) is card
        assert copy.deepcopy(card) is card
        assert pickle.loads(pickle.dumps(card)) is card


def test_cards_are_immutable() -> None:
    card = Card.parse("QH")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING
    with pytest.raises(AttributeError):
        del card.code
    assert card.rank is Rank.QUEEN


@pytest.mark.parametrize(
    ("text", "code"),
    [("ts", "TS"), ("10S", "TS"), ("10s", "TS"), (" ah ", "AH"), ("bj", "BJ"), ("Lj", "LJ"), ("2c", "2C"),
     ("Q♥", "QH"), ("10♠", "TS"), ("9♦", "9D"), ("k♣", "KC")],
)
def test_parse_accepts_lower_case_ten_and_glyphs_and_prints_canonically(text: str, code: str) -> None:
    card = Card.parse(text)
    assert str(card) == card.code == code


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XS", "bad card 'XS': rank must be one of 2-9,T,J,Q,K,A"),
        ("1S", "bad card '1S': rank must be one of 2-9,T,J,Q,K,A"),
        ("AX", "bad card 'AX': suit must be one of S,H,D,C"),
        ("", "bad card '': empty"),
        ("A", "bad card 'A': a card is a rank and a suit"),
        ("BX", "bad card 'BX': the jokers are written 'BJ' and 'LJ'"),
        ("11S", "bad card '11S': rank must be one of 2-9,T,J,Q,K,A"),
    ],
)
def test_parse_explains_bad_input(text: str, message: str) -> None:
    with pytest.raises(CardError) as caught:
        Card.parse(text)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)


def test_parse_refuses_what_is_not_text() -> None:
    with pytest.raises(CardError, match="expected a code"):
        Card.parse(12)  # type: ignore[arg-type]
    with pytest.raises(CardError):
        Card(Rank.BIG_JOKER, Suit.HEARTS)


@given(st.lists(st.sampled_from(FULL_DECK), max_size=20), st.sampled_from([" ", ",", ", ", "  "]))
def test_card_lists_round_trip(cards: list[Card], separator: str) -> None:
    text = separator.join(card.code for card in cards)
    assert parse_cards(text) == cards
    assert parse_cards(format_cards(cards)) == cards


def test_glyphs() -> None:
    assert [suit.glyph for suit in Suit] == ["♠", "♥", "♦", "♣"]
    assert Card.parse("TS").glyph == "10♠"
    assert Card.parse("AH").glyph == "A♥"
    assert Card.parse("2C").glyph == "2♣"
    assert Card.parse("BJ").glyph == "BJ"
    assert Card.parse("LJ").glyph == "LJ"


def test_jokers_are_the_two_highest_spades() -> None:
    big, little, ace = Card.parse("BJ"), Card.parse("LJ"), Card.parse("AS")
    assert big.suit is Suit.SPADES and little.suit is Suit.SPADES
    assert big.is_joker and little.is_joker and not ace.is_joker
    assert big.rank > little.rank > ace.rank
    assert trick_winner([(0, ace), (1, little), (2, big)]) == 2
    assert trick_winner([(0, big), (1, little), (2, ace)]) == 0
    assert trick_winner([(0, Card.parse("2H")), (1, little), (2, Card.parse("AS"))]) == 1


def test_trick_winner_spades_trump_and_discards_never_win() -> None:
    cards = parse_cards("KH AD 2S QH")
    assert trick_winner(list(enumerate(cards))) == 2  # the only spade
    cards = parse_cards("KH AD 3C QH")
    assert trick_winner(list(enumerate(cards))) == 0  # ace of diamonds is a discard
    cards = parse_cards("5D 9D 2D TD")
    assert trick_winner([(3, cards[0]), (0, cards[1]), (1, cards[2]), (2, cards[3])]) == 2


@given(st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=5, unique=True))
def test_trick_winner_is_the_highest_spade_else_the_highest_of_the_led_suit(cards: list[Card]) -> None:
    plays = list(enumerate(cards))
    winner = trick_winner(plays)
    spades = [card for card in cards if card.suit is Suit.SPADES]
    followers = [card for card in cards if card.suit is cards[0].suit]
    best = max(spades or followers, key=lambda card: card.rank)
    assert cards[winner] is best
    assert Trick(0, tuple(plays)).winner == winner


def test_trick_needs_a_card() -> None:
    with pytest.raises(IllegalAction):
        trick_winner([])
    assert Trick(2, ()).winner is None and Trick(2, ()).led_suit is None
    assert Trick(0, ((0, Card.parse("LJ")),)).led_suit is Suit.SPADES


def test_order_hash_and_masks_follow_the_index() -> None:
    cards = parse_cards("BJ 2C AS 2S KH")
    assert sorted(cards) == parse_cards("2S AS KH 2C BJ")
    assert [hash(card) for card in cards] == [card.index for card in cards]
    assert cards_of(mask_of(cards)) == tuple(sorted(cards))
    assert Card.parse("2S") < Card.parse("3S") <= Card.parse("3S") < Card.parse("2H")
