"""Blind bids: a seat whose side trails by `blind_bid_margin` may bid tricks before the deal, for a doubled
contract. Checked in the rule set, the questions the engine asks and the answers it refuses, the scoring
(docs/rules.md's score table is checked in test_rules_house.py), the bots, and random games of random mixes
of every new option."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rules_pass import run_passing
from test_rules_properties import phase, run_rules

from p2pspades.bots.bidding import blind_choice
from p2pspades.rules import (
    PRESETS,
    BadBid,
    Bid,
    BlindBid,
    BlindNil,
    Game,
    IllegalAction,
    Phase,
    RuleSet,
    RuleSetError,
    SideTotal,
    bid_notation,
    deal_from_order,
    is_nil,
    preset,
)

RULES = preset("classic", blind_bid=True)


def trailing(rules: RuleSet, scores: tuple[int, int]) -> Game:
    """A game at the start of a hand with these totals (dealer 3: seat 0 is asked first)."""
    game = Game(rules, 2)
    game.totals = (SideTotal(scores[0]), SideTotal(scores[1]))
    game._start_hand(3)
    return game


def test_the_options_are_left_out_at_their_defaults_and_checked() -> None:
    assert not {"blind_bid", "blind_bid_margin", "blind_bid_min"} & set(RuleSet().to_dict())
    assert RULES.to_dict()["blind_bid"] is True
    assert RuleSet.from_dict(RULES.replace(blind_bid_min=8).to_dict()).blind_bid_min == 8
    with pytest.raises(RuleSetError, match="blind_bid needs bid_mode 'free'"):
        RuleSet(blind_bid=True, bid_mode="suicide")
    with pytest.raises(RuleSetError, match="blind_bid_min must be between 1 and 13"):
        RuleSet(blind_bid=True, blind_bid_min=14)
    with pytest.raises(RuleSetError, match="blind_bid_margin must not be negative"):
        RuleSet(blind_bid_margin=-1)
    assert RuleSet(players=5, partnerships=False, blind_bid_min=11).blind_bid_min == 11  # off: no upper bound
    with pytest.raises(IllegalAction):
        BlindBid(0)


def test_only_a_trailing_side_is_asked_and_offered_blind_bids_from_the_minimum() -> None:
    game = trailing(RULES, (0, 150))  # side 0 trails by 150: blind nil (100) and blind bids (100)
    assert game.phase is Phase.BLIND and game.hand.blind_eligible == (0, 2)
    assert game.legal_actions() == (BlindNil(True), BlindNil(False), *(BlindBid(k) for k in range(6, 14)))
    with pytest.raises(BadBid, match="blind bids are 6 to 13"):
        game.apply(BlindBid(5))
    game.apply(BlindBid(7))
    assert game.hand.bids[0] == 7 and game.hand.blind[0]
    game.apply(BlindNil(False))
    assert phase(game) is Phase.DEAL
    level = trailing(RULES, (100, 100))
    assert level.phase is Phase.DEAL  # nobody trails


def test_the_margins_are_separate() -> None:
    rules = RULES.replace(blind_nil_margin=300, blind_bid_margin=100)
    game = trailing(rules, (0, 150))
    assert game.legal_actions() == (BlindNil(False), *(BlindBid(k) for k in range(6, 14)))
    with pytest.raises(BadBid, match="does not trail by 300"):
        game.apply(BlindNil(True))
    only_nil = trailing(RULES.replace(blind_bid_margin=300), (0, 150))
    assert only_nil.legal_actions() == (BlindNil(True), BlindNil(False))
    with pytest.raises(BadBid, match="does not trail by 300"):
        only_nil.apply(BlindBid(6))


def test_a_blind_bidder_bids_no_more_and_its_partner_bids_after_the_deal() -> None:
    game = trailing(RULES.replace(min_team_bid=9), (0, 150))
    game.apply(BlindBid(6))
    game.apply(BlindNil(False))
    cards = list(RULES.deck)
    game.apply(deal_from_order(RULES, 3, cards))
    assert game.phase is Phase.BID and game.current_seat == 1  # seat 0 is done
    game.apply(Bid(3))
    assert game.current_seat == 2 and Bid(2) not in game.legal_actions()  # 6 + 3 reaches min_team_bid 9
    game.apply(Bid(3))
    game.apply(Bid(6))  # seat 3 carries its side to 9 too
    assert phase(game) is Phase.PLAY and game.hand.bids == (6, 3, 3, 6)


def test_a_blind_bid_is_no_nil_and_reads_blind_6() -> None:
    assert not is_nil(RULES, 6, True) and is_nil(RULES, 0, True)
    assert bid_notation(6, True, RULES) == "blind 6" and bid_notation(6, True, RULES, short=True) == "b6"
    assert bid_notation(0, True, RULES) == "blind nil"


def test_the_bots_gamble_only_when_far_behind() -> None:
    game = trailing(RULES, (0, 150))
    view = game.view(0)
    assert blind_choice(view, game.legal_actions()) == BlindNil(False)
    desperate = trailing(RULES.replace(blind_nil=False), (0, 450))
    choice = blind_choice(desperate.view(0), desperate.legal_actions())
    assert choice == BlindBid(6)


@st.composite
def new_option_mixes(draw: st.DrawFn) -> RuleSet:
    """Any preset, made quick, with a random mix of deuces high, a bid mode and blind bids it allows."""
    name = draw(st.sampled_from(sorted(PRESETS)))
    base = PRESETS[name]
    options: dict[str, Any] = {"target": 150, "losing_threshold": -150, "deuces_high": draw(st.booleans())}
    modes = ["free", "mirror", "whiz"] + (["suicide"] if base.partnerships else [])
    mode = draw(st.sampled_from(modes)) if base.nil else base.bid_mode
    options["bid_mode"] = mode
    if mode in ("mirror", "whiz"):
        options.update(blind_nil=False, min_team_bid=0, double_nil=True, min_bid=1)
    if mode == "free":
        options["blind_bid"] = draw(st.booleans())
        options["blind_bid_margin"] = draw(st.sampled_from([0, 50, 100]))
        options["blind_bid_min"] = draw(st.integers(1, min(8, base.hand_size)))
    return base.replace(**options)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(new_option_mixes(), st.integers(0, 2**32 - 1))
def test_random_games_under_mixes_of_the_new_options_keep_every_invariant(rules: RuleSet, seed: int) -> None:
    run_rules(rules, seed)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.sampled_from(["free", "suicide"]), st.booleans(), st.booleans(), st.integers(1, 3),
       st.integers(0, 2**32 - 1))
def test_random_games_with_the_nil_pass_and_the_new_options(mode: str, deuces: bool, blind: bool, n: int,
                                                             seed: int) -> None:
    options: dict[str, Any] = {"bid_mode": mode, "deuces_high": deuces, "nil_pass": n,
                               "target": 150, "losing_threshold": -150}
    if mode == "free":
        options.update(blind_bid=blind, blind_bid_margin=0)
    run_passing(preset("classic", **options), seed)
