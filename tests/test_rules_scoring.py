"""Scoring a hand: the worked examples of RULES.md and a table of cases for every preset."""

from __future__ import annotations

import pytest

from p2pspades.rules import PRESETS, RuleSet, SideTotal, bid_notation, preset, score_hand
from p2pspades.rules.errors import IllegalAction


def individual_hand(bid: int, took: int, rules: RuleSet | None = None) -> int:
    """Seat 0's points when it bid `bid` and took `took` (the other seats bid 1 and share the rest)."""
    rules = rules or PRESETS["individual"]
    others = rules.tricks_per_hand - took
    tricks = [took, others // 3 + others % 3, others // 3, others // 3]
    scores, _ = score_hand(rules, [bid, 1, 1, 1], [False] * 4, tricks, [SideTotal()] * 4)
    return scores[0].points


# ----- the worked examples of RULES.md ---------------------------------------------------------------------


def test_individual_examples() -> None:
    assert individual_hand(7, 7) == 70  # "bid 7, took 7 -> 70"
    assert individual_hand(5, 8) == 53  # "bid 5, took 8 -> 53": 50 for the bid, 3 for the overtricks
    assert individual_hand(4, 3) == 0  # "bid 4, took 3 -> 0"


def partnership_hand(bids: tuple[int, int], took: tuple[int, int], bags_before: int = 0) -> tuple[int, int]:
    """Side 0's (points, bags carried) when its two seats bid and took as given; side 1 takes the rest."""
    rules = PRESETS["partnership"]
    rest = 13 - sum(took)
    tricks = [took[0], rest - rest // 2, took[1], rest // 2]
    scores, totals = score_hand(rules, [bids[0], 1, bids[1], 1], [False] * 4, tricks,
                                [SideTotal(0, bags_before), SideTotal()])
    return scores[0].points, totals[0].bags


def test_partnership_examples() -> None:
    assert partnership_hand((3, 2), (2, 2))[0] == -50  # "bid 5, took 4 -> -50"
    assert partnership_hand((3, 4), (4, 5))[0] == 50  # "bid 7, took 9 -> 70 - 20 = 50"
    # "a team with 9 sandbags that takes 2 more loses 20 for the two bags and 100 for completing ten; the
    # eleventh bag starts the next ten"
    points, bags = partnership_hand((3, 4), (4, 5), bags_before=9)
    assert points == 70 - 20 - 100
    assert bags == 1


def test_piki_nil_examples() -> None:
    rules = PRESETS["piki"]
    made, _ = score_hand(rules, [0, 3, 4, 3], [False] * 4, [0, 4, 5, 4], [SideTotal()] * 2)
    assert made[0].nil_points == 100  # "nil made -> +100 to the pair"
    assert made[0].points == 100 + 40 + 1  # the partner's 4 made with an overtrick
    failed, _ = score_hand(rules, [0, 3, 4, 3], [False] * 4, [1, 4, 4, 4], [SideTotal()] * 2)
    assert failed[0].nil_points == -100  # "nil failed -> -100"
    # the nil bidder's trick does not count for the partner's 4, but it is a bag
    assert failed[0].made and failed[0].bags == 1 and failed[0].points == -100 + 40 + 1


# ----- a table of cases per preset --------------------------------------------------------------------------

CASES = [
    # preset, bids, blind, tricks, bags before, expected points per side, expected bags after per side
    ("classic", [3, 4, 3, 3], [0, 0, 0, 0], [3, 4, 3, 3], [0, 0], [60, 70], [0, 0]),
    ("classic", [3, 4, 3, 3], [0, 0, 0, 0], [4, 4, 4, 1], [0, 0], [62, -70], [2, 0]),
    ("classic", [0, 4, 5, 3], [0, 0, 0, 0], [0, 5, 6, 2], [0, 0], [100 + 51, 70], [1, 0]),
    ("classic", [0, 4, 5, 3], [1, 0, 0, 0], [0, 5, 6, 2], [0, 0], [200 + 51, 70], [1, 0]),
    ("classic", [0, 4, 5, 3], [1, 0, 0, 0], [2, 4, 5, 2], [0, 0], [-200 + 52, -70], [2, 0]),
    ("classic", [2, 2, 2, 2], [0, 0, 0, 0], [4, 2, 5, 2], [8, 9], [45 - 100, 40], [3, 9]),
    ("classic", [0, 0, 0, 0], [0, 0, 0, 0], [5, 0, 8, 0], [0, 0], [-200 + 13 - 100, 200], [3, 0]),
    ("partnership", [3, 4, 3, 3], [0, 0, 0, 0], [5, 4, 3, 1], [0, 0], [40, -70], [2, 0]),
    ("partnership", [2, 4, 3, 3], [0, 0, 0, 0], [1, 5, 3, 4], [0, 0], [-50, 70 - 20], [0, 2]),
    ("piki", [3, 4, 3, 3], [0, 0, 0, 0], [3, 4, 5, 1], [0, 0], [62, -70], [2, 0]),
    ("individual", [3, 4, 3, 3], [0, 0, 0, 0], [3, 4, 5, 1], [0, 0, 0, 0], [30, 40, 32, 0], [0, 0, 2, 0]),
    ("individual", [3, 4, 3, 3], [0, 0, 0, 0], [2, 4, 6, 1], [0, 0, 9, 0], [0, 40, 33, 0], [0, 0, 12, 0]),
    ("cutthroat3", [5, 6, 4], [0, 0, 0], [5, 7, 5], [0, 0, 0], [50, 61, 41], [0, 1, 1]),
    ("cutthroat3", [0, 6, 4], [0, 0, 0], [1, 10, 6], [0, 0, 0], [-100 + 1, 64, 42], [1, 4, 2]),
    ("five", [2] * 5, [0] * 5, [3, 1, 2, 2, 2], [0] * 5, [21, 0, 20, 20, 20], [1, 0, 0, 0, 0]),
    ("two", [5, 0], [0, 0], [6, 7], [0, 0], [51, -100 + 7], [1, 7]),
    ("two", [5, 6], [0, 0], [4, 9], [0, 8], [-50, 63 - 100], [0, 1]),
]


@pytest.mark.parametrize(("name", "bids", "blind", "tricks", "bags", "points", "bags_after"), CASES)
def test_scoring_table(
    name: str, bids: list[int], blind: list[int], tricks: list[int], bags: list[int], points: list[int],
    bags_after: list[int],
) -> None:
    rules = PRESETS[name]
    assert sum(tricks) == rules.tricks_per_hand
    before = [SideTotal(100, b) for b in bags]
    scores, totals = score_hand(rules, bids, [bool(b) for b in blind], tricks, before)
    assert [score.points for score in scores] == points
    assert [total.bags for total in totals] == bags_after
    assert [total.score for total in totals] == [100 + p for p in points]
    for score in scores:
        parts = score.contract_points + score.bag_points + score.penalty_points + score.nil_points
        assert score.points == parts


def test_without_a_bag_limit_bags_only_accumulate() -> None:
    rules = preset("classic", bag_limit=None)
    before = [SideTotal(0, 95), SideTotal()]
    scores, totals = score_hand(rules, [1, 1, 1, 1], [False] * 4, [6, 1, 5, 1], before)
    assert scores[0].points == 20 + 9 and scores[0].penalty_points == 0
    assert totals[0].bags == 104


def test_nil_tricks_may_count_for_the_partner() -> None:
    counts = preset("classic", nil_tricks_count_for_partner=True)
    scores, _ = score_hand(counts, [0, 3, 5, 3], [False] * 4, [2, 4, 3, 4], [SideTotal()] * 2)
    assert scores[0].tricks == 5 and scores[0].made and scores[0].bags == 0
    assert scores[0].points == -100 + 50
    plain = PRESETS["classic"]
    scores, _ = score_hand(plain, [0, 3, 5, 3], [False] * 4, [2, 4, 3, 4], [SideTotal()] * 2)
    assert scores[0].tricks == 3 and not scores[0].made and scores[0].bags == 2
    assert scores[0].points == -100 - 50 + 2


def test_a_side_set_by_the_renege_penalty_fails_everything() -> None:
    rules = PRESETS["classic"]
    scores, totals = score_hand(rules, [0, 3, 4, 3], [False] * 4, [0, 3, 6, 4], [SideTotal()] * 2, {0})
    assert scores[0].penalized and not scores[0].made
    assert scores[0].points == -100 - 40 and scores[0].bags == 0
    assert scores[1].points == 61 and not scores[1].penalized
    assert totals[0] == SideTotal(-140, 0)


def test_failed_contract_scores_zero_or_minus() -> None:
    assert individual_hand(6, 2) == 0
    assert individual_hand(6, 2, preset("individual", failed_contract="minus")) == -60


def test_score_hand_refuses_short_input() -> None:
    with pytest.raises(IllegalAction, match="for each of the 4 seats"):
        score_hand(PRESETS["classic"], [1, 1, 1], [False] * 3, [1, 1, 1], [SideTotal()] * 2)
    with pytest.raises(IllegalAction, match="for each of the 2 sides"):
        score_hand(PRESETS["classic"], [1] * 4, [False] * 4, [3] * 4, [SideTotal()])


@pytest.mark.parametrize(
    ("bid", "blind", "nil_allowed", "long", "short"),
    [
        (None, False, True, "-", "-"),
        (4, False, True, "4", "4"),
        (0, False, True, "nil", "n"),
        (0, False, False, "0", "0"),  # without nil a 0 is a plain bid (where the rules allow it at all)
        (0, True, True, "blind nil", "bn"),
    ],
)
def test_a_bid_is_written_one_way_everywhere(bid: int | None, blind: bool, nil_allowed: bool, long: str,
                                             short: str) -> None:
    rules = preset("classic") if nil_allowed else preset("classic", nil=False, blind_nil=False)
    assert bid_notation(bid, blind, rules) == long
    assert bid_notation(bid, blind, rules, short=True) == short
