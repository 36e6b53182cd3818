"""Scoring one hand, per side. One pure function, so that the engine, the verifier and the tests agree.

A side's contract is the sum of its members' bids that are not nil. Tricks won by a nil bidder do not count
toward it (unless `nil_tricks_count_for_partner`) but do count as bags. A made contract scores 10 per bid
trick plus `overtrick_points` per bag; a failed one scores 0 or -10 per bid trick. Bags accumulate in the
side's total; every `bag_limit` of them cost `bag_penalty` and the rest carry over. Each nil bid scores
+/- its value. The house rules add bonuses: `ten_for_200` for a made contract of 10 or more, and
`boston` "bonus" for a side that takes every trick (with "win", the engine ends the game instead).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import partial
from typing import NamedTuple

from p2pspades.rules.errors import IllegalAction
from p2pspades.rules.ruleset import TEN_FOR_200_CONTRACT, RuleSet


class SideTotal(NamedTuple):
    """A side's running total: its score and the bags it carries toward the next penalty."""

    score: int = 0
    bags: int = 0


class HandScore(NamedTuple):
    """What one side scored in one hand; `points` is the sum of the six `*_points` parts. (The house-rule
    fields come last, after `points`, so that a score written as a tuple of the first eleven still reads.)"""

    side: int
    contract: int  # sum of the side's bids that are not nil
    tricks: int  # tricks that count toward the contract
    made: bool
    contract_points: int  # 10 x contract if made, else 0 or -10 x contract
    bags: int  # overtricks taken this hand (including a nil bidder's tricks)
    bag_points: int  # overtrick_points x bags
    penalty_points: int  # -bag_penalty for each bag_limit reached (0 or negative)
    nil_points: int  # +/- nil and blind-nil values
    penalized: bool  # set by the renege penalty
    points: int
    ten_for_200_points: int = 0  # house rule ten_for_200: its value for a made contract of 10 or more
    boston_points: int = 0  # house rule boston "bonus": its value when the side took every trick
    boston: bool = False  # the side took every trick of the hand (and was not set), whatever the rules


# Named tuples made straight from a tuple: their generated __new__ is a Python function, this is not.
_new_score = partial(tuple.__new__, HandScore)
_new_total = partial(tuple.__new__, SideTotal)


def is_nil(rules: RuleSet, bid: int, blind: bool) -> bool:
    """A bid of 0 is nil only where the rules allow nil; a blind nil is always nil (a blind bid of tricks,
    house rule `blind_bid`, is not)."""
    return bid == 0 and (blind or rules.nil)


def bid_notation(bid: int | None, blind: bool, rules: RuleSet, *, short: bool = False) -> str:
    """A bid as the score sheet writes it: "blind nil", "nil", "4", or "-" while not bid yet. `short`, for
    narrow columns and one-line summaries: "bn" and "n"."""
    if blind and bid:
        return f"b{bid}" if short else f"blind {bid}"
    if blind:
        return "bn" if short else "blind nil"
    if bid is None:
        return "-"
    if bid == 0 and rules.nil:
        return "n" if short else "nil"
    return str(bid)


def score_hand(
    rules: RuleSet,
    bids: Sequence[int],
    blind: Sequence[bool],
    tricks_won: Sequence[int],
    before: Sequence[SideTotal],
    set_sides: Collection[int] = (),
    honest: Sequence[tuple[int, int]] = (),
) -> tuple[tuple[HandScore, ...], tuple[SideTotal, ...]]:
    """Score a hand: (per-side scores, per-side totals after the hand).

    `set_sides` are sides the renege penalty sets: their contract and every nil bid among them count as
    failed, and they take no bags this hand. `honest` holds (seat, bid) for each false mirror or whiz bid:
    the bid the seat's hand called for. A set side with one is scored at the worse of its bids as made and
    its bids with those in their place, so a caught false bid never scores more than the honest bid failed.
    """
    n, sides = rules.players, rules.sides
    if not len(bids) == len(blind) == len(tricks_won) == n:
        raise IllegalAction(f"scoring needs a bid, a blind flag and a trick count for each of the {n} seats")
    if len(before) != len(sides):
        raise IllegalAction(f"scoring needs a running total for each of the {len(sides)} sides")
    scores: list[HandScore] = []
    totals: list[SideTotal] = []
    called = list(bids)
    for seat, bid in honest:
        called[seat] = bid
    for index, side in enumerate(sides):
        penalized = index in set_sides
        score = _side_score(rules, index, side, bids, blind, tricks_won, before[index].bags, penalized)
        if penalized and called != bids:
            as_called = _side_score(rules, index, side, called, blind, tricks_won, before[index].bags, True)
            score = min(score, as_called, key=lambda s: s.points)
        scores.append(score)
        totals.append(_new_total((before[index].score + score.points, before[index].bags + score.bags
                                  - _bags_paid(rules, before[index].bags, score.bags))))
    return tuple(scores), tuple(totals)


def _bags_paid(rules: RuleSet, carried: int, bags: int) -> int:
    """How many of the carried bags a hand's `bags` turn into bag penalties (a multiple of `bag_limit`)."""
    limit = rules.bag_limit
    return 0 if limit is None else (carried + bags) // limit * limit


def _side_score(
    rules: RuleSet, index: int, side: Sequence[int], bids: Sequence[int], blind: Sequence[bool],
    tricks_won: Sequence[int], carried: int, penalized: bool,
) -> HandScore:
    """One side's hand score (`score_hand`)."""
    contract, counted, nil_tricks, nil_points, taken, doubled = _count_side(
        rules, side, bids, blind, tricks_won, penalized)
    made = counted >= contract and not penalized
    if not rules.nil_bags:
        nil_tricks = 0
    if made:
        contract_points = 10 * contract
        bags = counted - contract + nil_tricks
    else:
        contract_points = (0 if rules.failed_contract == "zero" else -10) * contract
        bags = 0 if penalized else nil_tricks
    if doubled:
        contract_points *= 2
    boston = taken == rules.tricks_per_hand and not penalized
    ten = rules.ten_for_200 and made and contract >= TEN_FOR_200_CONTRACT
    ten_points = rules.ten_for_200_value if ten else 0
    boston_points = rules.boston_value if boston and rules.boston == "bonus" else 0
    bag_points = rules.overtrick_points * bags
    penalty_points = -rules.bag_penalty * (_bags_paid(rules, carried, bags) // (rules.bag_limit or 1))
    points = contract_points + bag_points + penalty_points + nil_points + ten_points + boston_points
    return _new_score(
        (index, contract, counted, made, contract_points, bags, bag_points, penalty_points,
         nil_points, penalized, points, ten_points, boston_points, boston)
    )


def _count_side(
    rules: RuleSet, side: Sequence[int], bids: Sequence[int], blind: Sequence[bool],
    tricks_won: Sequence[int], penalized: bool,
) -> tuple[int, int, int, int, int, bool]:
    """One side's bids and tricks: its contract, the tricks that count toward it, its nil bidders' tricks,
    their nil points, every trick it took, and whether a blind bid (house rule blind_bid) doubles it."""
    contract = counted = nil_tricks = nil_points = taken = 0
    doubled = False  # a blind bid doubles the side's contract, made or failed
    for seat in side:
        taken += tricks_won[seat]
        if bids[seat] == 0 and (blind[seat] or rules.nil):  # is_nil(), inline
            value = rules.blind_nil_value if blind[seat] else rules.nil_value
            nil_points += value if tricks_won[seat] == 0 and not penalized else -value
            if rules.nil_tricks_count_for_partner:
                counted += tricks_won[seat]
            else:
                nil_tricks += tricks_won[seat]
        else:
            contract += bids[seat]
            counted += tricks_won[seat]
            doubled = doubled or blind[seat]
    return contract, counted, nil_tricks, nil_points, taken, doubled
