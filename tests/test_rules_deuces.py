"""Deuces high: the 2S and the 2D above the ace of spades (below the jokers), and the 2D a spade.

Checked in the card order, the rule set (its deck and its map), the engine's following and trick winners,
the audit, the bots' reading of the cards, and random games under every preset with deuces high.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rules_properties import run_rules

from p2pspades.bots.odds import Reading, beats, by_suit
from p2pspades.rules import (
    PRESETS,
    Bid,
    Card,
    Game,
    MustFollowSuit,
    Phase,
    Play,
    Reveal,
    RuleSet,
    RuleSetError,
    Suit,
    audit_hand,
    deal_from_order,
    parse_cards,
    trick_winner,
)
from p2pspades.rules.cards import DEUCES_HIGH_ORDER, STANDARD_ORDER
from p2pspades.rules.tricks import Trick

C = Card.parse
DEUCES = RuleSet(deuces_high=True)


def test_the_order_puts_2s_then_2d_above_the_ace_and_below_the_jokers() -> None:
    order = DEUCES_HIGH_ORDER
    top = sorted(parse_cards("BJ LJ 2D 2S AS KS 3S"), key=order.strength, reverse=True)
    assert [c.code for c in top] == ["BJ", "LJ", "2D", "2S", "AS", "KS", "3S"]
    assert order.suit(C("2D")) is Suit.SPADES and order.suit(C("3D")) is Suit.DIAMONDS
    assert STANDARD_ORDER.suit(C("2D")) is Suit.DIAMONDS
    assert bin(order.spades_mask).count("1") == 16 and bin(order.suit_masks[2]).count("1") == 12
    assert order.rank[C("AS").index] < order.rank[C("2S").index] < order.rank[C("2D").index]
    assert order.rank[C("2D").index] < order.rank[C("LJ").index]


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        ("AS 2S KS QS", 1),  # the 2S over the ace
        ("2S 2D AS 3S", 1),  # the 2D over the 2S
        ("AH 2D KH QH", 1),  # the 2D trumps a heart lead
        ("3D 2D AD KD", 1),  # the 2D is no diamond: on a diamond lead it is a ruff, and wins
    ],
)
def test_trick_winners_under_deuces_high(plays: str, winner: int) -> None:
    pairs = tuple(enumerate(parse_cards(plays)))
    assert trick_winner(pairs, DEUCES_HIGH_ORDER) == winner
    assert Trick(0, pairs, DEUCES_HIGH_ORDER).winner == winner


def test_with_jokers_the_jokers_stay_on_top() -> None:
    pairs = tuple(enumerate(parse_cards("2D LJ 2S AS")))
    assert trick_winner(pairs, DEUCES_HIGH_ORDER) == 1
    assert trick_winner(tuple(enumerate(parse_cards("LJ 2D BJ 2S"))), DEUCES_HIGH_ORDER) == 2
    # the standard order is unchanged: 2S is the lowest spade, 2D a diamond
    assert trick_winner(tuple(enumerate(parse_cards("AS 2S KS QS"))), STANDARD_ORDER) == 0
    assert Trick(0, tuple(enumerate(parse_cards("3D 2D AD KD")))).winner == 2


def test_the_rule_set_keeps_both_deuces_and_is_left_out_at_its_default() -> None:
    assert "deuces_high" not in RuleSet().to_dict()
    assert DEUCES.to_dict()["deuces_high"] is True
    assert RuleSet.from_dict(DEUCES.to_dict()) == DEUCES
    assert DEUCES.order is DEUCES_HIGH_ORDER and RuleSet().order is STANDARD_ORDER
    jokers = RuleSet(jokers=True, deuces_high=True)
    assert sorted(c.code for c in jokers.removed_cards) == ["2C", "2H"]  # the 2D and 2S stay
    assert C("2D") in jokers.deck and C("2S") in jokers.deck
    five = PRESETS["five"].replace(deuces_high=True)
    assert sorted(c.code for c in five.removed_cards) == ["2C", "2H", "3C", "3H"]
    assert len(five.deck) == 50
    with pytest.raises(RuleSetError, match="deuces_high needs the 2S and the 2D"):
        RuleSet(jokers=True, removed=("2D", "2C"), deuces_high=True)
    with pytest.raises(RuleSetError, match="deuces_high must be true or false"):
        RuleSet(deuces_high=1)  # type: ignore[arg-type]


def _hand(rules: RuleSet, hands: list[str]) -> Game:
    """Seat k gets hands[k] (dealer 3, so seat 0 leads)."""
    parsed = [parse_cards(h) for h in hands]
    cards = [parsed[k % 4][k // 4] for k in range(sum(len(h) for h in parsed))]
    game = Game(rules, 3)
    game.apply(deal_from_order(rules, 3, cards))
    return game


SPREAD = [
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]


def test_the_engine_treats_the_2d_as_a_spade_when_following_and_leading() -> None:
    game = _hand(DEUCES, SPREAD)
    for _ in range(4):
        game.apply(Bid(3))
    assert game.phase is Phase.PLAY
    game.apply(Play(C("AH")))
    # seat 1 holds no heart: every card is legal, and the 2D is a trump that wins the trick
    assert Play(C("2D")) in game.legal_actions()
    game.apply(Play(C("2D")))
    assert game.hand.spades_broken
    game.apply(Play(C("AS")))
    game.apply(Play(C("2C")))
    assert game.hand.tricks[-1].winner == 1 and game.hand.tricks[-1].led_suit is Suit.HEARTS
    # seat 1 leads a diamond: seat 2 (all spades) plays anything; a diamond lead is not followed by the 2S
    game.apply(Play(C("3D")))
    assert game.view(2).trick.led_suit is Suit.DIAMONDS


def test_a_seat_holding_the_2d_must_follow_a_spade_lead_with_it() -> None:
    rules = DEUCES.replace(spade_lead="always")
    hands = [
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH",
        "2D 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H",
        "2S 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    ]
    game = _hand(rules, hands)
    for _ in range(4):
        game.apply(Bid(3))
    game.apply(Play(C("AS")))
    assert game.legal_actions() == (Play(C("2D")),)
    with pytest.raises(MustFollowSuit):
        game.apply(Play(C("3H")))
    game.apply(Play(C("2D")))
    game.apply(Play(C("2S")))  # seat 2's only spade
    game.apply(Play(C("2C")))
    assert game.hand.tricks[-1].winner == 1  # the 2D tops the 2S and the ace


def test_the_audit_names_a_2d_kept_back_on_a_spade_lead() -> None:
    rules = DEUCES.replace(spade_lead="always")
    hands = [parse_cards(h) for h in (
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S AH",
        "2D 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2H",
        "2S 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    )]
    plays = parse_cards("AS 3H 2S 2C")
    found = audit_hand(rules, 3, hands, [3, 3, 3, 3], plays)
    assert found and found[0].seat == 1 and found[0].kind == "renege"
    standard = audit_hand(RuleSet(spade_lead="always"), 3, hands, [3, 3, 3, 3], plays)
    assert [v for v in standard if v.kind == "renege"] == []  # there the 2D is no spade


def test_the_bots_read_the_2d_as_a_high_spade() -> None:
    assert beats(C("2D"), C("AS"), DEUCES_HIGH_ORDER) and not beats(C("2D"), C("AS"))
    assert beats(C("2D"), C("AD"), DEUCES_HIGH_ORDER) and not beats(C("AD"), C("2D"), DEUCES_HIGH_ORDER)
    grouped = by_suit(parse_cards("2D AS 2S 9D"), DEUCES_HIGH_ORDER)
    assert [c.code for c in grouped[Suit.SPADES]] == ["2D", "2S", "AS"]
    assert [c.code for c in grouped[Suit.DIAMONDS]] == ["9D"]
    game = _hand(DEUCES, SPREAD)
    for _ in range(4):
        game.apply(Bid(3))
    reading = Reading(game.view(2))
    assert reading.suit(C("2D")) is Suit.SPADES and len(reading.unseen_by_suit[Suit.SPADES]) == 1


def test_a_whole_hand_reveals_and_scores_under_deuces_high() -> None:
    game = _hand(DEUCES, SPREAD)
    for _ in range(4):
        game.apply(Bid(3))
    while game.current_seat is not None:
        game.apply(game.legal_actions()[0])
    game.apply(Reveal(game.initial_hands() or ()))
    assert sum(game.history[-1].tricks_won) == 13


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32 - 1))
def test_random_games_under_deuces_high_keep_every_invariant(name: str, seed: int) -> None:
    run_rules(PRESETS[name].replace(deuces_high=True, target=150, losing_threshold=-150), seed)


def test_a_hand_is_shown_with_the_2d_among_the_spades() -> None:
    from p2pspades.rules.cards import sort_hand

    cards = parse_cards("3D 2D AS 2S KH 4C")
    assert [c.code for c in sort_hand(cards)] == ["AS", "2S", "KH", "4C", "3D", "2D"]
    assert [c.code for c in sort_hand(cards, DEUCES_HIGH_ORDER)] == ["2D", "2S", "AS", "KH", "4C", "3D"]
