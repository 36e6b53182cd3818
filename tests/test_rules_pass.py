"""The nil card pass (rule `nil_pass`): the rule set, the pass phase of the engine (who passes to whom, how
many, which cards), the hands after it for following suit and the audit, and random whole games in which
every seat's engine knows only what its seat may know."""

from __future__ import annotations

import random

import pytest
from helpers.games import dealt
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rules_properties import MAX_HANDS, Table, check_hand, phase, play_hand

from p2pspades.rules import (
    PRESETS,
    Action,
    BadPass,
    Bid,
    BlindNil,
    Card,
    Deal,
    Game,
    IllegalAction,
    NotYourTurn,
    Pass,
    Phase,
    Play,
    Reveal,
    RuleSet,
    RuleSetError,
    WrongPhase,
    parse_cards,
    preset,
)

# seat 0 .. 3, dealer 3: seat 0 bids first and leads first
HANDS = (
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def passing_game(n: int = 2, bids: tuple[int, ...] = (0, 3, 4, 3)) -> Game:
    game = dealt(preset("classic", nil_pass=n), 3, HANDS)
    for tricks in bids:
        game.apply(Bid(tricks))
    return game


# ----- the rule set ---------------------------------------------------------------------------------------


def test_the_option_is_left_out_at_its_default_and_round_trips() -> None:
    assert "nil_pass" not in PRESETS["classic"].to_dict()
    rules = preset("classic", nil_pass=3)
    assert rules.to_dict()["nil_pass"] == 3
    assert RuleSet.from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"nil_pass": 4}, "0 to 3"),
        ({"nil_pass": -1}, "0 to 3"),
        ({"nil_pass": True}, "whole number"),
        ({"nil_pass": 2, "nil": False, "blind_nil": False}, "partnerships and nil"),
        ({"nil_pass": 2, "partnerships": False}, "partnerships and nil"),
    ],
)
def test_bad_options_are_refused(changes: dict[str, object], words: str) -> None:
    with pytest.raises(RuleSetError, match=words):
        preset("classic", **changes)


# ----- the pass phase -------------------------------------------------------------------------------------


def test_no_nil_no_pass_and_rule_off_no_pass() -> None:
    game = passing_game(bids=(2, 3, 4, 3))
    assert game.phase is Phase.PLAY and game.passing_seats() == ()
    game = dealt(preset("classic"), 3, HANDS)
    for tricks in (0, 3, 4, 3):
        game.apply(Bid(tricks))
    assert game.phase is Phase.PLAY and game.hand.passes == ()


def test_the_nil_side_passes_in_hand_order_and_the_cards_change_hands() -> None:
    game = passing_game()
    assert game.phase is Phase.PASS and game.passing_seats() == (0, 2)
    assert game.current_seat == 0
    offered = game.legal_actions()
    assert len(offered) == 78  # 13 choose 2
    assert Pass(cards("AS KS")) in offered
    game.apply(Pass(cards("AS KS")))
    assert game.current_seat == 2
    # seat 2 may pass only what it was dealt: not the spades it just received
    assert all(not {"AS", "KS"} & {c.code for c in a.cards if c} for a in game.legal_actions()
               if isinstance(a, Pass))
    with pytest.raises(BadPass, match="received"):
        game.apply(Pass(cards("AS 2D")))
    game.apply(Pass(cards("3D 2D")))
    assert phase(game) is Phase.PLAY and game.current_seat == 0
    assert set(game.hand.hand(0)) == set(cards("QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S 3D 2D"))
    assert set(game.hand.hand(2)) >= set(cards("AS KS"))
    assert game.hand.passes == ((0, 2, cards("KS AS")), (2, 0, cards("2D 3D")))
    start = game.initial_hands()
    assert start is not None and cards("3D")[0] in start[0]


def test_spade_lead_refused_once_the_pass_gave_another_suit() -> None:
    game = passing_game()
    game.apply(Pass(cards("AS KS")))
    game.apply(Pass(cards("3D 2D")))
    with pytest.raises(IllegalAction):
        game.apply(Play(cards("2S")[0]))
    game.apply(Play(cards("3D")[0]))
    game.apply(Play(cards("2H")[0]))
    with pytest.raises(IllegalAction):  # seat 2 holds diamonds and must follow
        game.apply(Play(cards("AS")[0]))
    game.apply(Play(cards("AD")[0]))


def test_a_bad_pass_is_refused_and_changes_nothing() -> None:
    game = passing_game()
    before = (game.hand.hand(0), game.hand.hand(2))
    with pytest.raises(BadPass, match="passes 1 cards"):
        game.apply(Pass(cards("AS")))
    with pytest.raises(BadPass, match="seat 1 holds"):
        game.apply(Pass(cards("AS AH")))
    with pytest.raises(NotYourTurn):
        game.apply(Pass(cards("AD KD")), seat=2)
    with pytest.raises(IllegalAction):
        Pass((cards("AS")[0], cards("AS")[0]))  # twice
    with pytest.raises(WrongPhase):
        game.apply(Play(cards("2S")[0]))
    assert (game.hand.hand(0), game.hand.hand(2)) == before and game.current_seat == 0


def test_both_sides_with_a_nil_pass_in_hand_order() -> None:
    game = passing_game(n=1, bids=(0, 0, 4, 3))
    assert game.passing_seats() == (0, 1, 2, 3)
    for seat, text in enumerate(("AS", "AH", "AD", "AC")):
        assert game.current_seat == seat
        game.apply(Pass(cards(text)))
    assert cards("AD")[0] in game.hand.hand(0) and cards("AC")[0] in game.hand.hand(1)
    assert cards("AS")[0] in game.hand.hand(2) and cards("AH")[0] in game.hand.hand(3)


def test_a_blind_nil_passes_too() -> None:
    rules = preset("classic", nil_pass=3, target=300, blind_nil_margin=100)
    game = Game(rules, 3)
    game.totals = (game.totals[0].__class__(-200), game.totals[1])  # side 0 trails by 200
    game._start_hand(3)  # the hand again, now with blind nil on offer
    assert game.phase is Phase.BLIND
    while game.phase is Phase.BLIND:
        game.apply(BlindNil(game.current_seat == 0))
    game.apply(Deal(tuple(cards(text) for text in HANDS)))
    while game.phase is Phase.BID:
        game.apply(Bid(3))
    assert game.phase is Phase.PASS and game.passing_seats() == (0, 2)


def test_an_observer_and_the_partner_learn_what_they_may() -> None:
    rules = preset("classic", nil_pass=2)
    deal = Deal(tuple(cards(text) for text in HANDS))
    seat0, seat2, seat1 = Game(rules, 3), Game(rules, 3), Game(rules, 3)
    for seat, game in ((0, seat0), (2, seat2), (1, seat1)):
        game.apply(deal.seen_by(seat))
        for tricks in (0, 3, 4, 3):
            game.apply(Bid(tricks))
    passed = cards("AS KS")
    seat0.apply(Pass(passed))
    seat2.apply(Pass(passed))  # the partner opened the positions: it knows the cards
    seat1.apply(Pass((None, None)))  # an opponent does not
    assert set(passed) <= set(seat2.hand.hand(2)) and seat2.hand.unknown(0) == 11
    assert seat1.hand.hand(2) == () and seat1.hand.unknown(2) == 15 and seat1.hand.unknown(0) == 11
    assert seat1.hand.passes == ((0, 2, (None, None)),)
    # the public clone of the partner's engine forgets the passed cards
    public = seat2.public_clone()
    assert public.hand.hand(2) == () and public.hand.passes == ((0, 2, (None, None)),)
    # seat 2 passes two of its own; seat 0 learns them, the opponent does not
    back = cards("2D 3D")
    assert Pass(back) in seat2.legal_actions()
    for game, action in ((seat0, Pass(back)), (seat2, Pass(back)), (seat1, Pass((None, None)))):
        game.apply(action)
        assert game.phase is Phase.PLAY
    # an opponent's engine takes a named card from a hand it does not know, never one of its own
    other = Game(rules, 3)
    other.apply(deal.seen_by(1))
    for tricks in (0, 3, 4, 3):
        other.apply(Bid(tricks))
    with pytest.raises(BadPass, match="seat 1 holds"):
        other.apply(Pass(cards("AS AH")))
    other.apply(Pass(cards("AS AD")))
    assert other.hand.unknown(0) == 11 and set(other.hand.hand(2)) == set(cards("AS AD"))
    with pytest.raises(BadPass, match="received"):
        other.apply(Pass(cards("AD 2D")))


# ----- random games -----------------------------------------------------------------------------------------


class PassingTable(Table):
    """Every seat's engine is told a pass as its seat may know it: the two partners see the cards, the
    opponents only that cards moved."""

    def act(self, action: Action) -> None:
        if not isinstance(action, Pass):
            super().act(action)
            return
        seat = self.truth.current_seat
        assert seat is not None
        self.truth.apply(action, seat=seat)
        hidden = Pass((None,) * len(action.cards))
        for peer, game in enumerate(self.peers):
            game.apply(action if peer in (seat, (seat + 2) % 4) else hidden, seat=seat)


def run_passing(rules: RuleSet, seed: int) -> int:
    rng = random.Random(seed)
    table = PassingTable(rules, rng.randrange(rules.players))
    truth = table.truth
    passes = 0
    while truth.phase is not Phase.GAME_OVER and len(truth.history) < MAX_HANDS:
        result = play_hand(table, rng)
        check_hand(rules, result)
        for game in table.peers:
            assert game.history == truth.history and game.totals == truth.totals
        passes += 0 in result.bids
    assert truth.phase is Phase.GAME_OVER
    return passes


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_random_games_with_the_pass(n: int, seed: int) -> None:
    rules = preset("classic", nil_pass=n, target=150, losing_threshold=-150)
    run_passing(rules, seed)


def test_one_random_game_with_the_pass_has_passes() -> None:
    rules = preset("classic", nil_pass=2, target=150, losing_threshold=-150)
    assert run_passing(rules, 7) > 0


def test_the_reveal_holds_the_hands_after_the_pass() -> None:
    game = passing_game()
    game.apply(Pass(cards("AS KS")))
    game.apply(Pass(cards("3D 2D")))
    start = game.initial_hands()
    assert start is not None
    rng = random.Random(1)
    while game.phase is Phase.PLAY:
        game.apply(rng.choice(game.legal_actions()))
    dealt_hands = tuple(cards(text) for text in HANDS)
    game_copy = game.clone()
    with pytest.raises(IllegalAction):
        game_copy.apply(Reveal(dealt_hands))  # the dealt hands are not the hands play started with
    game.apply(Reveal(start))
    assert game.history[-1].hands == start and game.history[-1].violations == ()
