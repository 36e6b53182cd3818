"""Choosing the first dealer: the highest card deals, tied seats draw again, all from the given bytes."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades.rules import (
    ByteStream,
    Card,
    IllegalAction,
    RuleSet,
    choose_first_dealer,
    parse_cards,
    preset,
)


def seed(n: int) -> bytes:
    return hashlib.sha256(n.to_bytes(4, "big")).digest()


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=64), st.sampled_from(["classic", "cutthroat3", "five", "two", "individual"]))
def test_the_draw_is_deterministic_and_the_highest_card_deals(randomness: bytes, name: str) -> None:
    rules = preset(name)
    draw = choose_first_dealer(rules, randomness)
    assert draw == choose_first_dealer(rules, randomness)
    assert [seat for seat, _ in draw.rounds[0]] == list(range(rules.players))
    for before, after in zip(draw.rounds, draw.rounds[1:], strict=False):
        top = max(card.rank for _, card in before)
        tied = [seat for seat, card in before if card.rank == top]
        assert len(tied) > 1
        assert [seat for seat, _ in after] == tied  # only the tied seats draw again, in seat order
    last = draw.rounds[-1]
    top = max(card.rank for _, card in last)
    winners = [seat for seat, card in last if card.rank == top]
    assert winners == [draw.dealer]


def test_seats_draw_from_the_top_of_one_shuffled_deck() -> None:
    rules = preset("classic")
    for n in range(200):
        draw = choose_first_dealer(rules, seed(n))
        deck = list(rules.deck)
        ByteStream(seed(n)).shuffle(deck)
        drawn = [card for round_ in draw.rounds for _, card in round_]
        assert drawn == deck[: len(drawn)]


def test_a_tie_draws_again() -> None:
    rules = preset("classic")
    tied = [n for n in range(400) if len(choose_first_dealer(rules, seed(n)).rounds) > 1]
    assert tied, "ties happen about one draw in four with four seats"
    draw = choose_first_dealer(rules, seed(tied[0]))
    first = draw.rounds[0]
    top = max(card.rank for _, card in first)
    assert sum(card.rank == top for _, card in first) >= 2
    assert draw.dealer in [seat for seat, card in first if card.rank == top]


def test_jokers_draw_highest_and_suits_do_not_matter() -> None:
    rules = RuleSet(players=3, partnerships=False, jokers=True)
    for n in range(300):
        draw = choose_first_dealer(rules, seed(n))
        for _, card in draw.rounds[-1]:
            if card.is_joker:
                dealer_card = dict(draw.rounds[-1])[draw.dealer]
                assert dealer_card.rank >= card.rank


def test_deuces_high_does_not_change_the_draw_a_drawn_2d_is_a_two() -> None:
    """PROTOCOL.md §4.2: the draw compares plain ranks. Under deuces high the 2D is the second-best trump in
    play, but in the draw it is a 2: the same bytes pick the same dealer as without the rule."""
    plain, deuces = preset("classic"), preset("classic", deuces_high=True)
    assert plain.deck == deuces.deck
    two_drawn = 0
    for n in range(400):
        draw = choose_first_dealer(deuces, seed(n))
        assert draw == choose_first_dealer(plain, seed(n))
        last = dict(draw.rounds[-1])
        if any(card.code == "2D" for card in last.values()) and len(last) > 1:
            two_drawn += 1
            assert last[draw.dealer].code != "2D", "a 2D never wins a draw against a higher rank"
    assert two_drawn > 0


def test_the_deck_is_shuffled_again_when_it_runs_out() -> None:
    # four cards of two ranks: two seats tie one draw in three, and the deck lasts two rounds
    kept = parse_cards("AS AH 2S 2H")
    rules = RuleSet(players=2, partnerships=False,
                    removed=tuple(c.code for c in preset("classic").deck if c not in kept))
    assert len(rules.deck) == 4
    long_draws = [n for n in range(300) if len(choose_first_dealer(rules, seed(n)).rounds) >= 3]
    assert long_draws
    n = long_draws[0]
    draw = choose_first_dealer(rules, seed(n))
    stream = ByteStream(seed(n))
    expected: list[Card] = []
    while len(expected) < 2 * len(draw.rounds):
        deck = list(rules.deck)
        stream.shuffle(deck)
        expected.extend(deck)
    assert [card for round_ in draw.rounds for _, card in round_] == expected[: 2 * len(draw.rounds)]


def test_a_deck_of_one_rank_is_refused() -> None:
    rules = RuleSet(players=2, partnerships=False,
                    removed=tuple(c.code for c in preset("classic").deck if c not in parse_cards("AS AH")))
    with pytest.raises(IllegalAction, match="same rank"):
        choose_first_dealer(rules, b"x")
    with pytest.raises(IllegalAction, match="random bytes"):
        choose_first_dealer(preset("classic"), "abc")  # type: ignore[arg-type]
