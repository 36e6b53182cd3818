"""What a finished hand and a finished game leave behind, and when a game ends (`ending_at`) or may start
(`start_problem`: the scores a continued game starts from)."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from p2pspades.errors import N_, Detail
from p2pspades.rules.audit import Violation
from p2pspades.rules.cards import Card
from p2pspades.rules.ruleset import RuleSet
from p2pspades.rules.scoring import HandScore, SideTotal
from p2pspades.rules.tricks import Trick


class Termination(enum.Enum):
    """Why the game ended."""

    TARGET = "target"  # a side reached the target score
    LOSING_THRESHOLD = "losing_threshold"  # a side fell to the losing threshold
    VIOLATION = "violation"  # the audit found a violation and the rules say `renege="stop"`
    BOSTON = "boston"  # a side took every trick of a hand and the rules say `boston="win"`


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winning sides (more than one for a shared win; none after a violation)."""

    winners: tuple[int, ...]
    termination: Termination


class HandResult(NamedTuple):
    """One finished hand: the score-sheet line plus everything needed to check it."""

    number: int  # 1-based
    dealer: int
    bids: tuple[int, ...]  # per seat; a blind nil is 0
    blind: tuple[bool, ...]
    hands: tuple[tuple[Card, ...], ...]  # every seat's cards when play started, as revealed
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]  # per seat, as played
    tricks_scored: tuple[int, ...]  # per seat, after the renege penalty moved tricks
    scores: tuple[HandScore, ...]  # per side
    totals: tuple[SideTotal, ...]  # per side, after this hand
    violations: tuple[Violation, ...]


MAX_START_SCORE = 1_000_000
"""The largest score (and, negated, the lowest) a continued game may start from; also the most bags it may
start with under rules that never reset them (`bag_limit` nil)."""


def ending_at(rules: RuleSet, scores: Sequence[int]) -> Outcome | None:
    """How a game of `rules` ends once the sides' scores are `scores` after a hand (no Boston this hand):
    a side reached the target or fell to the losing threshold, unless the leaders tie and ties play on.
    None: the game goes on."""
    reached = max(scores) >= rules.target
    fell = rules.losing_threshold is not None and min(scores) <= rules.losing_threshold
    if not (reached or fell):
        return None
    top = max(scores)
    leaders = tuple(side for side, score in enumerate(scores) if score == top)
    if len(leaders) > 1 and rules.tie == "another_hand":
        return None
    return Outcome(leaders, Termination.TARGET if reached else Termination.LOSING_THRESHOLD)


def start_problem(rules: RuleSet, totals: Sequence[SideTotal]) -> Detail | None:
    """Why a game of `rules` cannot start from `totals` (one per side, in side order), or None if it can:
    one total per side, each score a whole number within +-`MAX_START_SCORE`, each side's bags a whole
    number from 0 to below `bag_limit` (as a hand leaves them: every `bag_limit` bags are paid at once;
    up to `MAX_START_SCORE` if bags are never paid), and a game that `ending_at` these scores would not
    already be over."""
    sides = len(rules.sides)
    if len(totals) != sides:
        return Detail(N_("{totals} starting totals for rules with {sides} sides"), totals=len(totals),
                      sides=sides)
    for side, total in enumerate(totals):
        score, bags = total.score, total.bags
        if not isinstance(score, int) or isinstance(score, bool) or abs(score) > MAX_START_SCORE:
            return Detail(N_("side {side}'s starting score {score} is not a whole number within +-{most}"),
                          side=side, score=repr(score), most=MAX_START_SCORE)
        most = MAX_START_SCORE if rules.bag_limit is None else rules.bag_limit - 1
        if not isinstance(bags, int) or isinstance(bags, bool) or not 0 <= bags <= most:
            return Detail(N_("side {side}'s starting bags {bags} are not a whole number from 0 to {most}"),
                          side=side, bags=repr(bags), most=most)
    if ending_at(rules, [total.score for total in totals]) is not None:
        return Detail(N_("a game at these scores is already over"))
    return None
