"""The yardsticks the expert bot is measured against: two Perfect Information Monte Carlo searchers.

Neither is a product bot (neither is in `make_bot`). Each is a searcher as the literature describes it, so
that "better than a plain search" means something.

`PimcSearcher` (kind "pimc", the yardstick the README's figures are against) searches everything it decides,
with nothing of the expert's own but the bit-mask card play of `bots.simulate` (`Playout.play`, `legal`):

1. **Deals.** It deals the cards it cannot see at random to the other seats, in the sizes they hold, none of
   a suit a seat has shown void in (`World.sample`), and weights each deal by how well every seat's hand
   fits its bid (`bid_weight`: the plain trick count of the hand the seat bid on against its bid, and a nil
   bidder's nil danger), so a deal that explains the bids counts for more, and none is thrown away.
2. **Rollouts.** Every option is played out to the end of the hand by a nil-aware greedy policy of its own
   (`Rollout`): a live nil ducks, its partner covers it (high ahead of it, over it when it is winning), its
   opponents hunt it (lead low into the suits it still holds, stay under its card); otherwise a side takes
   tricks until its contract is made, then ducks where bags cost.
3. **Scores.** A rollout is scored with the rules' own `score_hand`: the seat's side's points less the mean
   of the other sides', every bag charged at its share of the bag penalty (`bags x penalty / limit` in
   place of the lump penalty, so a bag carried to a later hand costs what it will).
4. **Bids.** Every candidate bid (nil, and the counted bids from `BID_BELOW` under to `BID_ABOVE` over the
   plain trick count) is rolled out from the first lead over deals weighted as above, the seats still to
   bid bidding their trick count (nil where their nil danger is low). Blind nil is searched the same way,
   over deals of its own cards too.

It plays the option with the best weighted mean. The wall clock (`BUDGET`, 0.3 s a decision) ends a
decision, or, for a run that repeats exactly, a fixed count of rollouts (`playouts`). The draw pile's
keep-or-discard and the nil card pass are the heuristic bot's.

`PlainPimc` (kind "plain-pimc") is the yardstick of the figures before it: the heuristic bot's bids, deals
redrawn while a seat's hand is far from its bid (no weighting), rollouts with the expert's own policy
(`Playout.finish`), and the hand's points as the rules score them, bags at face value.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence

from p2pspades.bots import HeuristicBot
from p2pspades.bots.bidding import estimate_mask, nil_danger_mask
from p2pspades.bots.simulate import (
    RANK_OF,
    SPADES_MASK,
    SUIT_MASKS,
    SUIT_OF,
    Contract,
    Playout,
    above,
    discard,
    dump,
    highest_rank,
    low,
    lowest_rank,
    top,
    tops,
)
from p2pspades.bots.world import World
from p2pspades.rules import Action, Bid, BlindNil, Play, RuleSet, SeatView, is_nil, score_hand
from p2pspades.rules.cards import mask_of
from p2pspades.table.events import Decision, DecisionKind

BUDGET = 0.3
"""Seconds of wall clock per decision."""
BID_BELOW, BID_ABOVE = 2, 2
"""The counted bids searched run this far below and above the plain trick count of the hand."""
BID_SPREAD = 1.5
"""How far, in tricks, a seat's bid is taken to miss the plain trick count of its hand (the deal weights)."""
NIL_SPREAD = 1.2
"""How the weight of a deal falls with the nil danger of a nil bidder's hand."""
NIL_BID_DANGER = 1.0
"""In a rollout's bidding, a seat still to bid bids nil when its hand's nil danger is below this."""
BID_PLAYOUT_COST = 3
"""A whole-hand rollout (for a bid) counts as this many mid-hand ones against a `playouts` count."""


class Searcher:
    """What both yardsticks hold: a generator from the seed, the budget (`budget` seconds of wall clock a
    decision, or `playouts` rollouts with no clock), and the heuristic bot for what they do not search."""

    def __init__(self, seed: int | bytes = 0, budget: float = BUDGET, playouts: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self.playouts = playouts
        self.heuristic = HeuristicBot(seed)
        self.deals = 0  # deals sampled by the last decision


class PimcSearcher(Searcher):
    """`PimcSearcher(seed, budget=0.3, playouts=None)` is a player: `searcher(decision) -> action`.

    `playouts`: rollouts per decision (a bid's whole-hand rollout counts `BID_PLAYOUT_COST`), with no clock;
    None: as many as `budget` seconds of wall clock allow."""

    name = "pimc"

    def __call__(self, decision: Decision) -> Action:
        legal = decision.legal
        if len(legal) < 2:
            return legal[0]
        view = decision.view
        if decision.kind is DecisionKind.PLAY:
            return self._play(view, legal)
        if decision.kind is DecisionKind.BID and view.rules.deal == "all":
            return self._bid(view, legal)
        if decision.kind is DecisionKind.BLIND_NIL and BlindNil(True) in legal:
            return self._blind(view, legal)
        return self.heuristic(decision)

    # ----- the search ------------------------------------------------------------------------------------

    def _rounds(self, options: int, cost: int) -> tuple[int, float]:
        """How many deals to sample at most, and the clock's deadline (infinite under a playout count)."""
        if self.playouts is not None:
            return max(2, self.playouts // (options * cost)), math.inf
        return 1 << 30, time.perf_counter() + self.budget

    def _best(self, values: list[list[float]], weights: list[float]) -> int:
        total = sum(weights)
        means = [sum(w * v for w, v in zip(weights, row, strict=True)) / total for row in values]
        return max(range(len(means)), key=means.__getitem__)

    def _play(self, view: SeatView, legal: Sequence[Action]) -> Action:
        plays = [a for a in legal if isinstance(a, Play)]
        contract = Contract(view.rules, [b if b is not None else 0 for b in view.bids], view.blind)
        world = World(view, 0)
        values: list[list[float]] = [[] for _ in plays]
        weights: list[float] = []
        rounds, deadline = self._rounds(len(plays), 1)
        self.deals = 0
        while self.deals < rounds and (self.deals < 2 or time.perf_counter() < deadline):
            hands = world.sample(self.rng)
            start = Rollout.from_view(contract, view, hands)
            for row, play in zip(values, plays, strict=True):
                rollout = start.copy()
                rollout.play_card(play.card.index)
                row.append(worth(contract, view, rollout.finish()))
            weights.append(bid_weight(view, world, hands))
            self.deals += 1
        return plays[self._best(values, weights)]

    def _bid(self, view: SeatView, legal: Sequence[Action]) -> Action:
        rules = view.rules
        count = round(estimate_mask(rules, mask_of(view.hand)))
        options = [
            a for a in legal
            if isinstance(a, Bid) and (
                (rules.nil and a.tricks == 0) or count - BID_BELOW <= a.tricks <= count + BID_ABOVE
            )
        ] or [a for a in legal if isinstance(a, Bid)][:1]
        if len(options) < 2:
            return options[0]
        world = World(view, 0)
        values: list[list[float]] = [[] for _ in options]
        weights: list[float] = []
        rounds, deadline = self._rounds(len(options), BID_PLAYOUT_COST)
        self.deals = 0
        while self.deals < rounds and (self.deals < 2 or time.perf_counter() < deadline):
            hands = world.sample(self.rng)
            for row, option in zip(values, options, strict=True):
                bids, blind = deal_bids(view, hands, option.tricks, False)
                row.append(opening_worth(view, hands, bids, blind))
            weights.append(bid_weight(view, world, hands))
            self.deals += 1
        return options[self._best(values, weights)]

    def _blind(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """Blind nil against bidding the count of the cards, over deals of our own cards too."""
        world = World(view, 0)
        values: list[list[float]] = [[], []]
        weights: list[float] = []
        rounds, deadline = self._rounds(2, BID_PLAYOUT_COST)
        self.deals = 0
        while self.deals < rounds and (self.deals < 2 or time.perf_counter() < deadline):
            hands = world.sample(self.rng)
            mine = count_bid(view.rules, hands[view.seat])
            for row, (bid, blind) in zip(values, ((mine, False), (0, True)), strict=True):
                bids, blinds = deal_bids(view, hands, bid, blind)
                row.append(opening_worth(view, hands, bids, blinds))
            weights.append(bid_weight(view, world, hands))
            self.deals += 1
        return BlindNil(self._best(values, weights) == 1)


def count_bid(rules: RuleSet, hand: int) -> int:
    """What a seat holding `hand` bids in a rollout: nil when its nil danger is low, else its trick count."""
    if rules.nil and nil_danger_mask(rules, hand) < NIL_BID_DANGER:
        return 0
    lowest = max(rules.min_bid, 1 if rules.nil else 0)
    return max(lowest, min(rules.tricks_per_hand, round(estimate_mask(rules, hand))))


def deal_bids(
    view: SeatView, hands: Sequence[int], mine: int, blind: bool
) -> tuple[list[int], list[bool]]:
    """Every seat's bid in a rollout of the hand: the bids made, ours, and the counted bid of each seat
    still to bid."""
    bids = [b if b is not None else count_bid(view.rules, hands[s]) for s, b in enumerate(view.bids)]
    blinds = list(view.blind)
    bids[view.seat] = mine
    blinds[view.seat] = blind
    return bids, blinds


def opening_worth(view: SeatView, hands: Sequence[int], bids: Sequence[int], blind: Sequence[bool]) -> float:
    """A rollout of the whole hand from its first lead, scored for the seat."""
    contract = Contract(view.rules, bids, blind)
    return worth(contract, view, Rollout.opening(contract, view.dealer, list(hands)).finish())


def bid_weight(view: SeatView, world: World, hands: Sequence[int]) -> float:
    """How well the deal fits the bids made: for every other seat that bid, the plain trick count of the hand
    it bid on against its bid, or, for a nil bidder, its hand's nil danger."""
    rules = view.rules
    weight = 1.0
    for seat, bid in enumerate(view.bids):
        if bid is None or seat == view.seat or view.blind[seat]:
            continue
        held = hands[seat] | world.played[seat]
        if is_nil(rules, bid, False):
            weight *= math.exp(-((nil_danger_mask(rules, held) / NIL_SPREAD) ** 2))
        else:
            miss = estimate_mask(rules, held) - bid
            weight *= math.exp(-miss * miss / (2 * BID_SPREAD * BID_SPREAD))
    return max(weight, 1e-9)


def worth(contract: Contract, view: SeatView, won: Sequence[int]) -> float:
    """The hand's score for the seat's side less the mean of the other sides', each bag charged at its share
    of the bag penalty (in place of the lump penalty)."""
    rules = view.rules
    scores, _ = score_hand(rules, contract.bids, contract.blind, won, view.totals)
    limit = rules.bag_limit
    share = rules.bag_penalty / limit if limit else 0.0
    points = [s.points - (s.penalty_points + share * s.bags if limit else 0.0) for s in scores]
    mine = rules.side_of(view.seat)
    others = [p for i, p in enumerate(points) if i != mine]
    return points[mine] - sum(others) / len(others)


class Rollout(Playout):
    """The yardstick's own rollout policy, on the simulator's card play: nil-aware and greedy."""

    __slots__ = ()

    def _nils(self, seat: int) -> tuple[bool, bool, list[int]]:
        """Is the seat's own nil alive, its partner's, and which opponents' nils are."""
        c = self.contract
        if not c.any_nil:
            return False, False, []
        alive = [c.nil[s] and self.won[s] == 0 for s in range(c.n)]
        partner = c.partner[seat]
        side = c.side_of[seat]
        hunted = [s for s in range(c.n) if alive[s] and c.side_of[s] != side]
        return alive[seat], partner >= 0 and alive[partner], hunted

    def _others(self, seat: int) -> int:
        mask = 0
        for s, hand in enumerate(self.hands):
            if s != seat:
                mask |= hand
        return mask

    def _hungry(self, seat: int) -> bool:
        """Does the seat's side still want tricks: short of its contract, bags cost nothing, or one or two
        more tricks would set a side that is short of its own."""
        c = self.contract
        side = c.side_of[seat]
        if not c.bags_hurt or c.need(side, self.won) > 0:
            return True
        left = self.hands[seat].bit_count()
        return any(0 < c.need(k, self.won) > left - 2 for k in range(len(c.sides)) if k != side)

    def _ruffed(self, seat: int, card: int) -> bool:
        """Could an opponent still to hold cards trump `card`, a side-suit lead (void in it, with a spade)?"""
        c = self.contract
        suit = SUIT_MASKS[SUIT_OF[card]]
        return SUIT_OF[card] != 0 and any(
            c.side_of[s] != c.side_of[seat] and hand and not hand & suit and hand & SPADES_MASK
            for s, hand in enumerate(self.hands)
        )

    def lead(self, seat: int, legal: int) -> int:
        mine, partner, hunted = self._nils(seat)
        if mine:
            return lowest_rank(legal)
        others = self._others(seat)
        standing = [x for x in tops(legal) if not others & SUIT_MASKS[SUIT_OF[x]] & above(x)]
        if partner:  # lead a card that stands, else our highest, for the nil to play under
            return max(standing or tops(legal), key=_rank)
        for nil in hunted:  # lead low into a suit the nil holds, under its lowest card if we can
            nil_hand = self.hands[nil]
            for mask in SUIT_MASKS[1:]:
                if legal & mask and nil_hand & mask and low(legal & mask) < low(nil_hand & mask):
                    return low(legal & mask)
        if self._hungry(seat):
            safe = [x for x in standing if not self._ruffed(seat, x)]
            side_winners = [x for x in safe if SUIT_OF[x] != 0]
            if side_winners or safe:
                return max(side_winners or safe, key=_rank)
        return lowest_rank(legal)

    def follow(self, seat: int, legal: int) -> int:
        led = SUIT_OF[self.plays[0][1]]
        win = self._winning(legal, led)
        lose = legal & ~win
        n = self.contract.n
        still = [(self.leader + i) % n for i in range(len(self.plays) + 1, n)]
        mine, partner, hunted = self._nils(seat)
        if mine:
            return dump(lose, led) if lose else (low(win) if still else highest_rank(win))
        if partner:
            card = self._cover(seat, legal, led, win, lose, still)
            if card >= 0:
                return card
        if hunted and (self.winner in hunted or any(s in still for s in hunted)) and lose:
            return dump(lose, led) if self.winner in hunted else discard(lose, led)
        if self._hungry(seat):
            return self._take(seat, led, win, lose, still)
        return dump(lose, led) if lose else (low(win) if still else highest_rank(win))

    def _cover(self, seat: int, legal: int, led: int, win: int, lose: int, still: list[int]) -> int:
        partner = self.contract.partner[seat]
        if self.winner == partner:
            return low(win) if win else -1
        if partner in still:
            following = legal & SUIT_MASKS[led]
            if following:
                return top(following)
            return low(win) if win else -1
        return -1

    def _take(self, seat: int, led: int, win: int, lose: int, still: list[int]) -> int:
        c = self.contract
        side = c.side_of[seat]
        threats = [s for s in still if c.side_of[s] != side]
        if self.winner >= 0 and c.side_of[self.winner] == side and not any(
            self.can_beat(s, self.best, led) for s in threats
        ):
            return discard(lose, led) if lose else low(win)
        rest = win
        while rest:
            card = (rest & -rest).bit_length() - 1
            if not any(self.can_beat(s, card, led) for s in threats):
                return card
            rest &= rest - 1
        return discard(lose, led) if lose else low(win)


def _rank(card: int) -> tuple[bool, int]:
    """A card's strength for choosing among cards of different suits: any spade above any side card."""
    return SUIT_OF[card] == 0, RANK_OF[card]


class PlainPimc(Searcher):
    """`PlainPimc(seed, budget=0.3)` is a player: the yardstick of the earlier figures (see the module)."""

    name = "plain-pimc"

    def __call__(self, decision: Decision) -> Action:
        legal = decision.legal
        plays = [a for a in legal if isinstance(a, Play)]
        if decision.kind is not DecisionKind.PLAY or len(plays) < 2:
            return self.heuristic(decision)
        view = decision.view
        deadline = time.perf_counter() + self.budget if self.playouts is None else math.inf
        rounds = 1 << 30 if self.playouts is None else max(2, self.playouts // len(plays))
        contract = Contract(view.rules, [b if b is not None else 0 for b in view.bids], view.blind)
        world = World(view, 0)
        totals: list[list[float]] = [[] for _ in plays]
        self.deals = 0
        while self.deals < rounds and (self.deals < 2 or time.perf_counter() < deadline):
            hands = self._deal(world, view)
            start = Playout.from_view(contract, view, hands)
            for i, play in enumerate(plays):
                playout = start.copy()
                playout.play_card(play.card.index)
                totals[i].append(_face_value(view, playout.finish()))
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


REDRAWS = 30
"""`PlainPimc` redraws a deal this many times at most while it does not fit the bids."""
BID_SLACK = 2.0
"""`PlainPimc`: a deal fits a bid when the plain trick count of the hand is this close to it..."""
NIL_DANGER = 1.5
"""...and a nil bid when the hand's nil danger is at most this."""


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


def _face_value(view: SeatView, won: Sequence[int]) -> float:
    """The hand's real score for the seat's side, less the mean of the other sides' (bags at face value)."""
    rules = view.rules
    bids = [b if b is not None else 0 for b in view.bids]
    scores, _ = score_hand(rules, bids, view.blind, won, view.totals)
    mine = rules.side_of(view.seat)
    others = [s.points for i, s in enumerate(scores) if i != mine]
    return scores[mine].points - sum(others) / len(others)
