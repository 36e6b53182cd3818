"""House rules: minimum team bid, double nil, 10 for 200, Boston and nil bags.

Each is checked in the rule set (validation, left out of the rule-set map at its default), in the bids the
engine offers and refuses, in the audit, in the hand-computed score table of docs/rules.md, and in random
games under random mixes of the options over every preset.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from helpers.hands import every_trick_to_seat_0
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rules_properties import run_rules

from p2pspades.bots.bidding import choose_bid
from p2pspades.bots.heuristic import HeuristicBot
from p2pspades.rules import (
    PRESETS,
    BadBid,
    Bid,
    BlindNil,
    Card,
    Game,
    Phase,
    Reveal,
    RuleSet,
    RuleSetError,
    SideTotal,
    Termination,
    audit_hand,
    deal_from_order,
    preset,
    score_hand,
)
from p2pspades.rules.ruleset import _OPTIONAL
from p2pspades.table.events import Decision, DecisionKind

HOUSE_RULES = ("min_team_bid", "double_nil", "ten_for_200", "ten_for_200_value", "boston", "boston_value",
               "nil_bags")
RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


# ----- the rule set ---------------------------------------------------------------------------------------


def test_every_house_rule_is_left_out_at_its_default() -> None:
    assert set(HOUSE_RULES) <= set(_OPTIONAL)
    for name, rules in PRESETS.items():
        written = rules.to_dict()
        for key in HOUSE_RULES:
            assert (key in written) == (getattr(rules, key) != _OPTIONAL[key]), (name, key)
    assert not set(HOUSE_RULES) & set(PRESETS["classic"].to_dict())


def test_the_house_preset_is_classic_with_three_house_rules() -> None:
    house = PRESETS["house"]
    plain = house.replace(preset="classic", min_team_bid=0, ten_for_200=False, boston="none")
    assert plain == PRESETS["classic"]
    written = house.to_dict()
    assert {key: written[key] for key in HOUSE_RULES if key in written} == {
        "min_team_bid": 4, "ten_for_200": True, "boston": "bonus"}
    assert RuleSet.from_dict(written) == house


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"min_team_bid": 14}, "min_team_bid must be between 0 and 13"),
        ({"min_team_bid": -1}, "min_team_bid must be between 0 and 13"),
        ({"min_team_bid": "4"}, "min_team_bid must be a whole number"),
        ({"min_team_bid": True}, "min_team_bid must be a whole number"),
        ({"min_team_bid": 4, "partnerships": False}, "min_team_bid needs partnerships"),
        ({"double_nil": False, "partnerships": False}, "double_nil false needs partnerships"),
        ({"double_nil": 0}, "double_nil must be true or false"),
        ({"ten_for_200": 1}, "ten_for_200 must be true or false"),
        ({"ten_for_200_value": -200}, "ten_for_200_value must not be negative"),
        ({"boston": "moon"}, "boston must be one of none, bonus, win"),
        ({"boston_value": None}, "boston_value must be a whole number"),
        ({"boston_value": -1}, "boston_value must not be negative"),
        ({"nil_bags": "no"}, "nil_bags must be true or false"),
        ({"players": 5, "partnerships": False, "ten_for_200": True,
          "removed": ["2S", "2H", "2D", "2C", "3H", "3D", "3C"]},
         "ten_for_200 needs hands of at least 10 tricks, these have 9"),
    ],
)
def test_a_bad_house_rule_is_refused_with_the_reason(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleSetError, match=re.escape(message)):
        RuleSet(**options)
    with pytest.raises(RuleSetError, match=re.escape(message)):  # the same from a genesis map
        RuleSet.from_dict({**PRESETS["classic"].to_dict(), **options})


# ----- bids -----------------------------------------------------------------------------------------------


def dealt(rules: RuleSet, dealer: int = 3, seed: int = 1) -> Game:
    """A game at its first bid (seat 0 bids first with dealer 3), every card known."""
    game = Game(rules, dealer)
    cards = list(rules.deck)
    random.Random(seed).shuffle(cards)
    game.apply(deal_from_order(rules, dealer, cards))
    assert game.phase is Phase.BID and game.current_seat == (dealer + 1) % 4
    return game


def bid_values(game: Game) -> list[int]:
    return [action.tricks for action in game.legal_actions() if isinstance(action, Bid)]


def test_the_last_bidder_of_a_side_is_offered_only_bids_that_reach_the_minimum() -> None:
    game = dealt(preset("classic", min_team_bid=4))
    assert bid_values(game) == list(range(14))  # seat 0 bids first for its side: anything
    game.apply(Bid(1))
    assert bid_values(game) == list(range(14))  # seat 1, first of side 1
    game.apply(Bid(2))
    assert bid_values(game) == [0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]  # seat 2: nil, or 3 and up with the 1
    with pytest.raises(BadBid, match="with its partner's 1 the side must bid at least 4"):
        game.apply(Bid(2))
    assert game.current_seat == 2  # the refused bid changed nothing
    game.apply(Bid(3))
    assert bid_values(game) == [0, *range(2, 14)]  # seat 3, with its partner's 2
    game.apply(Bid(0))  # nil: side 1 has a nil and is exempt
    assert game.phase is Phase.PLAY


def test_a_partner_of_a_nil_may_bid_anything() -> None:
    game = dealt(preset("classic", min_team_bid=4))
    game.apply(Bid(0))
    game.apply(Bid(4))
    assert bid_values(game) == list(range(14))
    game.apply(Bid(1))  # side 0: nil and 1, exempt from the minimum


def test_a_partner_who_bid_the_minimum_alone_leaves_the_other_free() -> None:
    game = dealt(preset("classic", min_team_bid=4))
    game.apply(Bid(5))
    game.apply(Bid(1))
    assert bid_values(game) == list(range(14))


def test_double_nil_refused_takes_nil_from_the_second_partner() -> None:
    game = dealt(preset("classic", double_nil=False))
    game.apply(Bid(0))
    game.apply(Bid(3))
    assert bid_values(game) == list(range(1, 14))
    with pytest.raises(BadBid, match="its partner, seat 0, bid nil"):
        game.apply(Bid(0))
    game.apply(Bid(2))
    assert bid_values(game) == list(range(14))  # seat 3's partner bid 3: nil is open


def test_double_nil_allowed_by_default() -> None:
    game = dealt(PRESETS["classic"])
    game.apply(Bid(0))
    game.apply(Bid(3))
    assert 0 in bid_values(game)


def test_double_nil_refused_also_for_blind_nil() -> None:
    rules = preset("classic", double_nil=False)
    game = Game(rules, 3)
    game.totals = (SideTotal(0, 0), SideTotal(300, 0))  # side 0 trails: seats 0 and 2 are asked
    game._start_hand(3)
    assert game.phase is Phase.BLIND and game.current_seat == 0
    assert game.legal_actions() == (BlindNil(True), BlindNil(False))
    game.apply(BlindNil(True))
    assert game.current_seat == 2 and game.legal_actions() == (BlindNil(False),)
    with pytest.raises(BadBid, match="its partner bid nil"):
        game.apply(BlindNil(True))
    game.apply(BlindNil(False))
    cards = list(rules.deck)
    random.Random(3).shuffle(cards)
    game.apply(deal_from_order(rules, 3, cards))
    game.apply(Bid(4))  # seat 1
    assert game.current_seat == 2 and 0 not in bid_values(game)


def test_a_partner_of_a_blind_nil_is_exempt_from_the_minimum() -> None:
    rules = preset("classic", min_team_bid=4)
    game = Game(rules, 3)
    game.totals = (SideTotal(0, 0), SideTotal(300, 0))
    game._start_hand(3)
    game.apply(BlindNil(True))
    game.apply(BlindNil(False))
    cards = list(rules.deck)
    random.Random(4).shuffle(cards)
    game.apply(deal_from_order(rules, 3, cards))
    game.apply(Bid(2))  # seat 1
    assert game.current_seat == 2 and bid_values(game) == list(range(14))


def test_the_audit_reports_team_bids_that_break_the_house_rules() -> None:
    rules = preset("classic", min_team_bid=4, double_nil=False)
    hands: list[list[Card]] = [[], [], [], []]  # the hands do not matter for the bids
    found = [v for v in audit_hand(rules, 3, hands, [1, 0, 2, 0], []) if v.kind.value == "bad_bid"]
    assert len(found) == 2
    assert {v.seat for v in found} == {2, 3}  # the later bidder of each side (seat 0 bids first)
    assert "below the minimum team bid of 4" in found[0].detail and "double nil is off" in found[1].detail
    ok = [v for v in audit_hand(rules, 3, hands, [1, 0, 3, 5], []) if v.kind.value == "bad_bid"]
    assert ok == []
    charged = [v.seat for v in audit_hand(rules, 0, hands, [1, 0, 2, 5], []) if v.kind.value == "bad_bid"]
    assert charged == [0]  # dealer 0: seat 1 bids first, so seat 0 is side 0's later bidder


def test_the_heuristic_bot_bids_only_what_the_minimum_allows() -> None:
    rules = PRESETS["house"]
    raised = 0
    for seed in range(16):
        game = dealt(rules, seed=seed)
        bot = HeuristicBot(seed)
        while game.phase is Phase.BID:
            seat = game.current_seat
            assert seat is not None
            view, legal = game.view(seat), game.legal_actions()
            assert choose_bid(view, legal, 0.0) in legal  # the bidding itself picks a legal bid, no fallback
            choice = bot(Decision(DecisionKind.BID, view, legal))
            assert choice in legal
            if len(legal) < rules.tricks_per_hand + 1:
                raised += 1
            game.apply(choice)
        bids = game.hand.bids
        for first, second in rules.sides:
            if 0 not in (bids[first], bids[second]):
                assert (bids[first] or 0) + (bids[second] or 0) >= 4
    assert raised > 0  # some of these deals did restrict a last bidder


# ----- scoring: the table of docs/rules.md ----------------------------------------------------------------


def _score_rows() -> list[list[str]]:
    lines = RULES_MD.read_text(encoding="utf-8").splitlines()
    start = lines.index("| options | bids | tricks | side 0 | side 1 | Boston | why |")
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _options(text: str) -> dict[str, object]:
    options: dict[str, object] = {}
    for item in re.findall(r"`([^`]*)`", text):
        key, _, value = item.partition("=")
        if not value:
            options[key] = True
        elif value in ("true", "false"):
            options[key] = value == "true"
        elif re.fullmatch(r"-?\d+", value):
            options[key] = int(value)
        else:
            options[key] = value
    return options


SCORE_ROWS = _score_rows()


def test_the_score_table_has_rows_for_every_scoring_house_rule() -> None:
    named = {key for row in SCORE_ROWS for key in _options(row[0])}
    assert {"ten_for_200", "ten_for_200_value", "boston", "nil_bags", "bag_limit", "bag_penalty",
            "blind_bid"} <= named
    assert len(SCORE_ROWS) >= 12


@pytest.mark.parametrize("row", SCORE_ROWS, ids=lambda row: f"{row[0]} {row[1]}")
def test_the_hand_computed_score_table_is_the_engine_s(row: list[str]) -> None:
    options, bids_text, tricks_text, side0, side1, boston, _ = row
    rules = preset("classic", **_options(options))
    words = bids_text.split()
    bids = [0 if word in ("n", "bn") else int(word.removeprefix("b")) for word in words]
    blind = [word.startswith("b") for word in words]  # "bn" blind nil, "b6" a blind bid of 6
    tricks = [int(word) for word in tricks_text.split()]
    assert sum(tricks) == rules.tricks_per_hand
    scores, totals = score_hand(rules, bids, blind, tricks, (SideTotal(), SideTotal()))
    assert [score.points for score in scores] == [int(side0), int(side1)]
    assert [total.score for total in totals] == [int(side0), int(side1)]
    assert [score.side for score in scores if score.boston] == ([] if boston == "—" else [int(boston)])


def test_boston_win_ends_the_game_at_once_for_the_side_that_took_every_trick() -> None:
    rules = preset("classic", boston="win")
    game = Game(rules, 3)
    scores, totals = score_hand(rules, [4, 1, 4, 1], [False] * 4, [13, 0, 0, 0], game.totals)
    game.totals = totals  # 85 and -20: far from the target, yet the game is over
    outcome = game._game_end(scores)
    assert outcome is not None and outcome.winners == (0,) and outcome.termination is Termination.BOSTON
    assert game._game_end(score_hand(rules, [4, 1, 4, 1], [False] * 4, [12, 1, 0, 0], game.totals)[0]) is None
    bonus = preset("classic", boston="bonus")
    assert Game(bonus, 3)._game_end(score_hand(bonus, [4, 1, 4, 1], [False] * 4, [13, 0, 0, 0],
                                               (SideTotal(), SideTotal()))[0]) is None


def boston_hand(rules: RuleSet) -> Game:
    return every_trick_to_seat_0(rules, (13, 1, 0, 1))


def test_boston_played_out_wins_the_game_or_scores_the_bonus() -> None:
    won = boston_hand(preset("classic", boston="win"))
    assert won.phase is Phase.GAME_OVER and won.outcome is not None
    assert won.outcome.winners == (0,) and won.outcome.termination is Termination.BOSTON
    assert won.totals[0].score == 130 + 100  # 13 bid and made, the nil of seat 2 made: short of 500
    bonus = boston_hand(preset("classic", boston="bonus", ten_for_200=True, target=1000))
    assert bonus.phase is not Phase.GAME_OVER
    score = bonus.history[-1].scores[0]
    assert (score.boston, score.boston_points, score.ten_for_200_points, score.points) == (
        True, 200, 200, 130 + 100 + 200 + 200)
    assert boston_hand(PRESETS["classic"]).history[-1].scores[0].points == 230  # no house rules: no bonus


def test_each_bonus_is_its_own_part_of_the_score() -> None:
    rules = preset("classic", ten_for_200=True, boston="bonus", boston_value=300)
    scores, _ = score_hand(rules, [6, 1, 5, 1], [False] * 4, [13, 0, 0, 0], (SideTotal(), SideTotal()))
    side = scores[0]
    parts = (side.contract_points, side.bag_points, side.ten_for_200_points, side.boston_points)
    assert parts == (110, 2, 200, 300)
    assert side.points == 612 and side.boston and not scores[1].boston


def test_a_set_side_earns_no_house_bonus() -> None:
    rules = preset("classic", ten_for_200=True, boston="bonus")
    scores, _ = score_hand(rules, [6, 1, 5, 1], [False] * 4, [13, 0, 0, 0], (SideTotal(), SideTotal()),
                           set_sides={0})
    assert scores[0].ten_for_200_points == scores[0].boston_points == 0
    assert not scores[0].boston and scores[0].points == -110


# ----- random games under random mixes of the options -----------------------------------------------------


@st.composite
def house_mixes(draw: st.DrawFn) -> RuleSet:
    """Any preset, made quick, with a random mix of the house rules its table allows."""
    name = draw(st.sampled_from(sorted(PRESETS)))
    base = PRESETS[name]
    options: dict[str, Any] = {
        "target": 150, "losing_threshold": -150,
        "ten_for_200": draw(st.booleans()) and base.tricks_per_hand >= 10,
        "ten_for_200_value": draw(st.sampled_from([0, 100, 200])),
        "boston": draw(st.sampled_from(["none", "bonus", "win"])),
        "boston_value": draw(st.sampled_from([0, 200, 500])),
        "nil_bags": draw(st.booleans()),
        "bag_limit": draw(st.sampled_from([None, 5, 7, 10])),
        "bag_penalty": draw(st.sampled_from([50, 100])),
    }
    if base.partnerships and base.bid_mode not in ("mirror", "whiz"):  # those fix the bids to the hand
        options["min_team_bid"] = draw(st.sampled_from([0, 2, 4, 6, 13]))
        options["double_nil"] = draw(st.booleans())
    return base.replace(**options)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(house_mixes(), st.integers(0, 2**32 - 1))
def test_random_games_under_house_rules_keep_every_invariant(rules: RuleSet, seed: int) -> None:
    run_rules(rules, seed)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_played_with_every_house_rule_it_allows(name: str) -> None:
    base = PRESETS[name]
    extra: dict[str, Any] = {"ten_for_200": base.tricks_per_hand >= 10, "boston": "bonus", "nil_bags": False,
                             "bag_limit": 5, "target": 150, "losing_threshold": -150}
    if base.partnerships and base.bid_mode not in ("mirror", "whiz"):  # those fix the bids to the hand
        extra.update(min_team_bid=6, double_nil=False)
    run_rules(base.replace(**extra), 2026)
    run_rules(base.replace(**{**extra, "boston": "win"}), 2027)


def test_a_played_house_game_reveals_to_the_same_scores_for_every_peer() -> None:
    """The shipped preset through whole hands: what each hand scored is what score_hand says of it."""
    rules = PRESETS["house"]
    rng = random.Random(5)
    game = Game(rules, 0)
    for _ in range(6):
        if game.phase is Phase.GAME_OVER:
            break
        while game.phase is Phase.BLIND:
            game.apply(rng.choice(game.legal_actions()))
        cards = list(rules.deck)
        rng.shuffle(cards)
        game.apply(deal_from_order(rules, game.dealer, cards))
        while game.current_seat is not None:
            game.apply(rng.choice(game.legal_actions()))
        before = game.totals
        game.apply(Reveal(game.initial_hands() or ()))
        result = game.history[-1]
        scores, totals = score_hand(rules, result.bids, result.blind, result.tricks_scored, before)
        assert scores == result.scores and totals == result.totals
