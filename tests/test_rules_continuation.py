"""A game that continues another (PROTOCOL.md §4.1 "after"): the engine starts from given scores and bags.

The property: a game cut after any number of hands and carried on from its totals and its next dealer plays
on exactly as the whole game does (the same hands scored, the same totals, the same end), whatever the preset.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades.rules import (
    MAX_START_SCORE,
    PRESETS,
    Game,
    IllegalAction,
    Phase,
    Reveal,
    RuleSet,
    SideTotal,
    deal_from_order,
    ending_at,
    start_problem,
)

MAX_HANDS = 60


def quick(name: str) -> RuleSet:
    return PRESETS[name].replace(target=150, losing_threshold=-150)


def phase(game: Game) -> Phase:
    """The game's phase, read afresh (mypy would otherwise keep a phase narrowed by an earlier test)."""
    return game.phase


def play_hand(games: list[Game], rng: random.Random) -> None:
    """One random hand, every action applied to every engine in `games` (each knows every card)."""
    lead = games[0]
    rules = lead.rules
    while lead.phase is Phase.BLIND:
        action = rng.choice(lead.legal_actions())
        seat = lead.current_seat
        for game in games:
            game.apply(action, seat=seat)
    cards = list(rules.deck)
    rng.shuffle(cards)
    deal = deal_from_order(rules, lead.dealer, cards)
    for game in games:
        game.apply(deal)
    while lead.current_seat is not None:
        options = lead.legal_actions()
        low = rng.random() < 0.4
        action = min(options, key=lambda a: getattr(a, "tricks", 0)) if low else rng.choice(options)
        seat = lead.current_seat
        for game in games:
            game.apply(action, seat=seat)
    hands = lead.initial_hands()
    assert hands is not None
    for game in games:
        game.apply(Reveal(hands))


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_a_game_carried_on_from_its_totals_plays_on_as_the_whole_game(name: str, seed: int, cut: int) -> None:
    rules = quick(name)
    rng = random.Random(seed)
    whole = Game(rules, rng.randrange(rules.players))
    while len(whole.history) < cut and phase(whole) is not Phase.GAME_OVER:
        play_hand([whole], rng)
    if phase(whole) is Phase.GAME_OVER:
        return  # over before the cut: nothing to carry on
    assert start_problem(rules, whole.totals) is None
    carried = Game(rules, whole.dealer, whole.totals)
    assert carried.totals == whole.totals and carried.dealer == whole.dealer
    assert carried.phase == whole.phase and carried.legal_actions() == whole.legal_actions()
    before = len(whole.history)
    while phase(whole) is not Phase.GAME_OVER and len(whole.history) < MAX_HANDS:
        play_hand([whole, carried], rng)
        assert carried.totals == whole.totals
    assert [h.scores for h in carried.history] == [h.scores for h in whole.history[before:]]
    assert [h.dealer for h in carried.history] == [h.dealer for h in whole.history[before:]]
    assert carried.outcome == whole.outcome


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 3))
def test_zero_totals_are_a_new_game(name: str, dealer: int) -> None:
    rules = PRESETS[name]
    dealer %= rules.players
    zero = [SideTotal()] * len(rules.sides)
    fresh, started = Game(rules, dealer), Game(rules, dealer, zero)
    assert started.totals == fresh.totals and started.phase == fresh.phase
    assert started.legal_actions() == fresh.legal_actions()


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(PRESETS)),
       st.lists(st.tuples(st.integers(-2 * MAX_START_SCORE, 2 * MAX_START_SCORE), st.integers(-5, 30)),
                min_size=0, max_size=6))
def test_start_problem_is_exactly_the_rule(name: str, pairs: list[tuple[int, int]]) -> None:
    """`start_problem` accepts exactly: one total per side, scores within the bound, bags below the limit,
    and scores at which the game is not over; `Game` refuses exactly what it refuses."""
    rules = PRESETS[name]
    totals = [SideTotal(score, bags) for score, bags in pairs]
    most_bags = MAX_START_SCORE if rules.bag_limit is None else rules.bag_limit - 1
    fine = (len(totals) == len(rules.sides)
            and all(abs(t.score) <= MAX_START_SCORE and 0 <= t.bags <= most_bags for t in totals)
            and ending_at(rules, [t.score for t in totals]) is None)
    assert (start_problem(rules, totals) is None) == fine
    if fine:
        assert Game(rules, 0, totals).totals == tuple(totals)
    else:
        with pytest.raises(IllegalAction):
            Game(rules, 0, totals)


def test_a_side_at_the_target_cannot_start_but_a_tie_there_plays_on() -> None:
    rules = PRESETS["classic"]
    over = start_problem(rules, [SideTotal(500, 0), SideTotal(20, 0)])
    assert over == "a game at these scores is already over"
    assert start_problem(rules, [SideTotal(510, 3), SideTotal(510, 4)]) is None  # ties play another hand
    assert "bags" in (start_problem(rules, [SideTotal(0, 10), SideTotal(0, 0)]) or "")
    assert "2 sides" in (start_problem(rules, [SideTotal()]) or "")


def test_the_blind_nil_offer_counts_the_starting_scores() -> None:
    """Blind nil is offered to a side down by the margin, counting the scores a continued game starts from."""
    rules = PRESETS["classic"]
    behind = Game(rules, 3, [SideTotal(0, 0), SideTotal(150, 0)])
    level = Game(rules, 3)
    assert behind.phase is Phase.BLIND and level.phase is not Phase.BLIND
