"""A plain Perfect Information Monte Carlo searcher: the yardstick the expert bot is measured against.

Not a product bot (it is not in `make_bot`): a straightforward searcher as the literature describes it, so
that "better than a plain search" means something. For each card to play it repeats, until its wall-clock
budget (0.3 s by default) is spent:

1. deal the cards it cannot see at random to the other seats, in the sizes they hold, none of a suit a seat
   has shown void in, and consistent with the bids: a deal is redrawn (up to `REDRAWS` times) while a seat
   that bid a number of tricks holds a hand the plain trick count puts more than `BID_SLACK` tricks away from
   its bid, or a nil bidder holds one whose nil danger is over `NIL_DANGER` (the counts of `bots.bidding`,
   on the hand the seat held when it bid);
2. for every legal card, play it, then roll the hand out to its end with a fast greedy policy (the one in
   `bots.simulate`, which every seat follows), and score the result with the real `score_hand`: the seat's
   side's points less the mean of the other sides' (bags as the rules count them, nothing more).

It plays the card with the best mean over the deals. Bids, the blind-nil question and the draw pile are the
heuristic bot's. The wall clock ends a decision, so it is not repeatable; it is a yardstick, not a player.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence

from p2pspades.bots import HeuristicBot
from p2pspades.bots.bidding import estimate_mask, nil_danger_mask
from p2pspades.bots.simulate import Contract, Playout
from p2pspades.bots.world import World
from p2pspades.rules import Action, Play, RuleSet, SeatView, is_nil, score_hand
from p2pspades.table.events import Decision, DecisionKind

BUDGET = 0.3
"""Seconds of wall clock per card decision."""
REDRAWS = 30
BID_SLACK = 2.0
NIL_DANGER = 1.5


class PimcSearcher:
    """`PimcSearcher(seed, budget=0.3)` is a player: `searcher(decision) -> action`."""

    name = "pimc"

    def __init__(self, seed: int | bytes = 0, budget: float = BUDGET) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.heuristic = HeuristicBot(seed)
        self.deals = 0  # deals sampled by the last decision

    def __call__(self, decision: Decision) -> Action:
        legal = decision.legal
        plays = [a for a in legal if isinstance(a, Play)]
        if decision.kind is not DecisionKind.PLAY or len(plays) < 2:
            return self.heuristic(decision)
        view = decision.view
        deadline = time.perf_counter() + self.budget
        contract = Contract(view.rules, [b if b is not None else 0 for b in view.bids], view.blind)
        world = World(view, 0)
        totals: list[list[float]] = [[] for _ in plays]
        self.deals = 0
        while self.deals < 2 or time.perf_counter() < deadline:
            hands = self._deal(world, view)
            start = Playout.from_view(contract, view, hands)
            for i, play in enumerate(plays):
                playout = start.copy()
                playout.play_card(play.card.index)
                totals[i].append(_worth(view, playout.finish()))
            self.deals += 1
        means = [statistics.fmean(t) for t in totals]
        return plays[max(range(len(plays)), key=means.__getitem__)]

    def _deal(self, world: World, view: SeatView) -> list[int]:
        """A deal of the unseen cards consistent with the voids and, if one turns up soon, with the bids."""
        hands = world.sample(self.rng)
        for _ in range(REDRAWS):
            if _fits_bids(view, world, hands):
                break
            hands = world.sample(self.rng)
        return hands


def _fits_bids(view: SeatView, world: World, hands: Sequence[int]) -> bool:
    rules: RuleSet = view.rules
    for seat, bid in enumerate(view.bids):
        if bid is None or seat == view.seat or view.blind[seat]:
            continue
        held = hands[seat] | world.played[seat]  # the hand it bid on
        if is_nil(rules, bid, False):
            if nil_danger_mask(rules, held) > NIL_DANGER:
                return False
        elif abs(estimate_mask(rules, held) - bid) > BID_SLACK:
            return False
    return True


def _worth(view: SeatView, won: Sequence[int]) -> float:
    """The hand's real score for the seat's side, less the mean of the other sides'."""
    rules = view.rules
    bids = [b if b is not None else 0 for b in view.bids]
    scores, _ = score_hand(rules, bids, view.blind, won, view.totals)
    mine = rules.side_of(view.seat)
    others = [s.points for i, s in enumerate(scores) if i != mine]
    return scores[mine].points - sum(others) / len(others)
