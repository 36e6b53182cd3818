"""The expert bot: Perfect Information Monte Carlo search with knowledge.

For each decision it deals the cards it cannot see many times over (determinizations), each deal consistent
with everything public: the cards played, the suits each seat has shown void in, the hand sizes, and in the
draw-pile game the cards it saw go by. Each deal is weighted by how well it explains the bids already made
(the heuristic bot's own trick count and nil danger of the hand a seat held when it bid). In each deal every
choice is played out to the end of the hand by a quick greedy policy that knows the contracts
(`bots.simulate`), and scored with the rule set's own scoring: contracts, sets, bags (a quarter of their
long-run cost by default, see `BAG_WEIGHT`), nil and blind nil, and the game's end when the totals get
there. The choice with the best weighted mean wins. Bids are searched the same way, nil included, and so
is blind nil where the rules offer it. The draw pile's keep-or-discard is the heuristic bot's.

Determinism and the time budget: the work is counted, not timed. A decision runs a fixed number of playouts,
`iterations` (by default `PLAYOUTS_PER_SECOND x time_budget`, calibrated so that a decision takes well under
its budget on a slow machine), from a `random.Random` seeded by the bot's seed and the view, so one seed and
one view give one choice. The wall clock is only a hard cap: a decision that reaches 90% of `time_budget`
stops early with what it has. That cap keeps the budget on an overloaded machine, at the cost of
determinism in that case only.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from p2pspades.bots.bidding import (
    blind_choice,
    choose_bid,
    estimate_mask,
    keep_draw,
    nil_danger_mask,
    nil_odds,
)
from p2pspades.bots.passing import choose_pass
from p2pspades.bots.play import choose_card
from p2pspades.bots.simulate import SUIT_MASKS, SUIT_OF, Contract, Playout, Relabel, bags_hurt
from p2pspades.bots.world import World
from p2pspades.rules import Action, Bid, BlindBid, BlindNil, Draw, Play, RuleSet, SeatView, SideTotal, is_nil
from p2pspades.rules.cards import mask_of
from p2pspades.table.events import Decision, DecisionKind

DEFAULT_BUDGET = 0.5
"""Seconds per decision, at most."""
PLAYOUTS_PER_SECOND = 4000
"""Playouts a decision runs per second of budget (a whole-hand playout for a bid counts as `BID_COST`): 2,000
at the default budget. One idle core of the reference machine runs about 10,000 a second, so the count, not
the clock, ends a decision unless the machine is loaded (measured with four experts in one process, one
deal per core: 0.23 s a decision on average, 0.43 s at the 95th percentile)."""
BID_COST = 3
"""A whole-hand playout (for a bid) costs about this many mid-hand ones."""
CAP = 0.9
"""The share of the budget after which a decision stops starting new deals (the rest covers the deal in
progress and the choice itself)."""
CONFIDENCE = 1.5
"""How many standard errors a searched card must beat the heuristic's by to overrule it."""
BAG_WEIGHT = 0.25
"""How much of a bag's long-run cost (its share of the bag penalty) the search charges, from 0 to 1; a
penalty that falls in the hand itself is always charged in full. At 1 the expert ducked tricks to save bags
and was set far more often than the PIMC yardstick: with the heuristic's bids and 2,000 playouts a card, it
lost 11.8 points a duplicate deal to the yardstick (1.8 with bags charged), set 12 times to its 0 in 40 deals;
at 0 it won by 6.8 (6.6 with bags charged), set 7 times to its 5. The playouts see every card, so a duck that
leaves the contract to later tricks looks safer in them than it is at the table. At 0.25 a bag costs 2.5
points in classic: a duck still pays where the contract is sure, and only there."""

WIDE_BELOW, WIDE_ABOVE = 2, 3
"""Where bags cost nothing, the bids searched run this far below and above the heuristic count."""
NIL_BLEND = 0.5
"""How far a searched nil's chance is taken toward the bidding's odds of its nil danger (`nil_odds`). The
playouts overstate the chance: each seat in them sees every card, so the nil bidder's partner covers it
without a miss (a playout defence that also hunts the nil moved a risky nil's 92% only to 89%). The odds,
measured against the heuristic's defence, understate it against the expert's cover. Against the PIMC
yardstick's card play the expert's 71 nils of 100 duplicate deals of classic had 80% in its search and 59%
by the odds, and 68% were made. A searched nil is charged the difference, its swing (twice the nil's value)
times the share it moves, before it is weighed against bidding the cards; a nil the odds like better gains
it. Partnerships only: that is where it was measured, and with no partner to cover the odds are far lower
(27% at a nil danger of 0.44)."""
BLIND_MARGIN = 30.0
"""Blind nil must beat bidding on the cards by this many points in the search (it is a one-way door)."""


class ExpertBot:
    """Search with knowledge: `ExpertBot(seed=..., time_budget=seconds)` is a `Player`.

    Determinism: the number of playouts, not the clock, is what ends a decision. Each decision runs
    `iterations` playouts (by default `PLAYOUTS_PER_SECOND x time_budget`, a count that an idle machine
    runs in a fraction of the budget), dealt from a generator seeded by `seed` and the view, so on an idle
    machine one seed replays a game exactly, choice for choice. The wall clock is only a safety cap: a
    decision that reaches `CAP` of `time_budget` (a heavily loaded machine) stops with the whole deals it
    has, keeping the budget but giving up determinism for that decision; `capped` says whether the last
    decision was cut short, and `playouts` how many playouts it ran. For an exact replay whatever the load,
    give a large `time_budget` and the `iterations` wanted.

    `iterations` overrides the playouts per decision (tests use a small count for speed). `confidence` is
    how many standard errors a searched choice must beat the heuristic bot's choice by to be taken instead
    (0: the best searched choice, whatever the heuristic says); `bid_confidence`, if given, is that bar for
    bids alone.
    """

    name = "expert"

    def __init__(
        self,
        seed: int | bytes = 0,
        time_budget: float = DEFAULT_BUDGET,
        iterations: int | None = None,
        confidence: float = CONFIDENCE,
        bid_confidence: float | None = None,
        bag_weight: float = BAG_WEIGHT,
    ) -> None:
        if time_budget <= 0:
            raise ValueError(f"time_budget must be positive, got {time_budget}")
        self._seed = seed if isinstance(seed, bytes) else b"expert-bot" + str(seed).encode()
        self.time_budget = time_budget
        self.iterations = (
            iterations if iterations is not None else max(8, int(PLAYOUTS_PER_SECOND * time_budget))
        )
        self.confidence = confidence
        # A bid's bar is the card's unless given. Against the heuristic's card play a lower one pays (the
        # searched bid gained 11.0 points a duplicate deal on classic over the heuristic's bid at 1.5, 12.7 at
        # 0.75 and 14.2 at 0, 300 deals each), but against the PIMC yardstick's card play the searched bids,
        # nil above all, are made far less often than the search expects: with bids at 0.75 (and 2,000
        # playouts a card) the expert lost 21.9 [6.5, 37.2] a deal to it over 40 deals, set 14 times to its 2
        # and making 14 of 27 nils. `benchmarks/bots.py --split` measures the bids and the cards apart.
        self.bid_confidence = confidence if bid_confidence is None else bid_confidence
        if not 0.0 <= bag_weight <= 1.0:
            raise ValueError(f"bag_weight must be from 0 to 1, got {bag_weight}")
        self.bag_weight = bag_weight
        self._seen: dict[int, int] = {}  # draw pile: hand number -> the stock cards we saw
        self.playouts = 0  # playouts run by the last decision (for tests and benchmarks)
        self.capped = False  # did the wall-clock cap end the last decision before its planned playouts?

    def __call__(self, decision: Decision) -> Action:
        legal = decision.legal
        if not legal:
            raise ValueError(f"a {decision.kind.value} decision with no legal choices")
        if len(legal) == 1:
            return legal[0]
        view = decision.view
        choice: Action
        if decision.kind is DecisionKind.DRAW:
            if view.draw_card is not None:  # remember it, for this hand only
                seen = self._seen.get(view.hand_number, 0) | 1 << view.draw_card.index
                self._seen = {view.hand_number: seen}
            choice = Draw(keep_draw(view))
        elif decision.kind is DecisionKind.PASS:
            choice = choose_pass(view, legal)
        elif decision.kind is DecisionKind.BLIND_NIL:
            self.playouts, self.capped = 0, False
            deadline = time.perf_counter() + self.time_budget * CAP
            choice = BlindNil(self._blind_nil(view, random.Random(self._key(view)), deadline))
            if not choice.declare and any(isinstance(a, BlindBid) for a in legal):
                # the search said no blind nil; a blind bid is the heuristic's gamble
                choice = blind_choice(view, [a for a in legal if a != BlindNil(True)])
        else:
            weighed = self.weigh(decision)
            if weighed is None:
                return legal[0]
            choice = weighed.actions[self.best(decision, weighed)]
        return choice if choice in legal else legal[0]

    def best(self, decision: Decision, weighed: Weighed) -> int:
        """Which of a search's options the bot takes: the heuristic's, unless another beats it by the
        confidence of the decision's kind (`bid_confidence` for a bid, `confidence` for a card). In the
        draw-pile game the bid is always the heuristic's: there the searched bid lost 10 points a deal to it
        (300 duplicate deals of `two`), for the search deals the other hand from a pile it cannot weigh."""
        if decision.kind is DecisionKind.BID:
            if decision.view.rules.deal == "draw":
                return weighed.default
            confidence = self.bid_confidence
        else:
            confidence = self.confidence
        return _confident_best(weighed.values, weighed.weights, weighed.default, confidence)

    def weigh(self, decision: Decision) -> Weighed | None:
        """The search of a bid or a card to play, every option with its value deal by deal (None for other
        decisions, and for a card where only one may be played). What `__call__` chooses from, and what the
        coach shows. It reads the decision's view alone, what the seat may know."""
        view = decision.view
        deadline = time.perf_counter() + self.time_budget * CAP
        rng = random.Random(self._key(view))
        self.playouts, self.capped = 0, False
        weighed: Weighed | None = None
        if decision.kind is DecisionKind.PLAY:
            weighed = weigh_plays(view, decision.legal, rng, deadline, self.iterations,
                                  self._seen.get(view.hand_number, 0), self.bag_weight)
        elif decision.kind is DecisionKind.BID:
            weighed = self._weigh_bids(view, decision.legal, rng, deadline)
        if weighed is not None:
            self.playouts, self.capped = weighed.playouts, weighed.capped
        return weighed

    def _key(self, view: SeatView) -> bytes:
        parts = (
            view.seat,
            view.hand_number,
            view.phase.value,
            len(view.tricks),
            len(view.trick.cards),
            view.stock_left,
            "".join(c.code for c in view.hand),
        )
        return hashlib.sha256(self._seed + b"/" + "|".join(map(str, parts)).encode()).digest()

    # ----- bidding ----------------------------------------------------------------------------------------

    def _weigh_bids(
        self, view: SeatView, legal: Sequence[Action], rng: random.Random, deadline: float
    ) -> Weighed:
        rules = view.rules
        centre = choose_bid(view, legal, 0.0)  # the heuristic bid, to search around
        count = (
            centre.tricks
            if isinstance(centre, Bid) and not (rules.nil and centre.tricks == 0)
            else (quick_bid(rules, mask_of(view.hand), True))
        )
        options = _bid_options(rules, legal, count)
        actions: list[Action] = [Bid(b) for b in options]
        if len(options) == 1:
            return Weighed(actions, [[]], [[]], [], 0, [(a,) for a in actions])
        world = World(view, self._seen.get(view.hand_number, 0))
        weighed = self._score_bids(view, world, [(b, False) for b in options], rng, deadline)
        if rules.nil and rules.partnerships and 0 in options and weighed.weights:
            _blend_nil(weighed, options.index(0), view)
        usual = centre.tricks if isinstance(centre, Bid) else count
        weighed.actions = actions
        weighed.alike = [(a,) for a in actions]
        weighed.default = (
            options.index(usual) if usual in options else options.index(count) if count in options else 0
        )
        return weighed

    def _blind_nil(self, view: SeatView, rng: random.Random, deadline: float) -> bool:
        """Blind nil against bidding on the cards, both searched over deals of our own cards too."""
        weighed = self._score_bids(view, World(view, 0), [(-1, False), (0, True)], rng, deadline)
        self.playouts, self.capped = weighed.playouts, weighed.capped
        return _confident_best(weighed.values, weighed.weights, 0, self.confidence, BLIND_MARGIN) == 1

    def _score_bids(
        self,
        view: SeatView,
        world: World,
        options: Sequence[tuple[int, bool]],
        rng: random.Random,
        deadline: float,
    ) -> Weighed:
        """The playout values of each (our bid, blind) option, deal by deal, and the deals' weights (the
        options' actions and the default are left for the caller). A bid of -1 means "as the cards say" (for
        blind nil, whose alternative is a bid on cards not yet seen)."""
        rules = view.rules
        seat = view.seat
        order = _bid_order(view)
        weighed = Weighed([], [[] for _ in options], [[] for _ in options], [], 0)
        # Where bags cost nothing, no seat's play depends on our counted bid (every side wants every trick),
        # so one playout a deal scores every counted bid; nil and blind nil change the play and get their own.
        sharing = not bags_hurt(rules)
        own = [mine < 0 or (rules.nil and mine == 0) or blind_bid for mine, blind_bid in options]
        per_deal = sum(own) + (not all(own)) if sharing else len(options)
        rounds = max(2, self.iterations // (BID_COST * per_deal))
        for r in range(rounds):
            hands = world.sample(rng)
            weight = world.weight(hands)
            deal: list[tuple[float, bool]] = []
            shared: list[int] | None = None
            runs = 0
            for mine, blind_bid in options:
                if r >= 2 and time.perf_counter() > deadline:
                    break
                contract = Contract(rules, *_deal_bids(view, order, hands, mine, blind_bid))
                if sharing and shared is not None and not contract.nil[seat]:
                    won = shared
                else:
                    won = Playout.opening(contract, view.dealer, hands.copy()).finish()
                    runs += 1
                    if sharing and not contract.nil[seat]:
                        shared = won
                deal.append(_scored(contract, seat, won, view.totals, self.bag_weight))
            weighed.playouts += BID_COST * runs
            if not weighed.add(deal, weight):
                break  # out of time: this deal, cut short, is left out
        return weighed


def _bid_options(rules: RuleSet, legal: Sequence[Action], count: int) -> list[int]:
    """The bids the expert searches: the counted bids around `count` (the heuristic's), and nil if legal."""
    counted = sorted(a.tricks for a in legal if isinstance(a, Bid) and not (rules.nil and a.tricks == 0))
    # where bags cost nothing, all counted bids share a playout a deal (see `_score_bids`): search wider
    low, high = (1, 1) if bags_hurt(rules) else (WIDE_BELOW, WIDE_ABOVE)
    options = [b for b in counted if -low <= b - count <= high] or counted[:1]
    if rules.nil and Bid(0) in legal:
        options.append(0)
    return options


def _blend_nil(weighed: Weighed, nil: int, view: SeatView) -> None:
    """A searched nil's chance taken `NIL_BLEND` of the way from its playouts' share to the bidding's odds of
    its nil danger, and its values charged the difference (see `NIL_BLEND`)."""
    rules = view.rules
    searched = weighed.holds(nil)
    odds = nil_odds(rules, nil_danger_mask(rules, mask_of(view.hand)))
    weighed.chances[nil] = chance = searched + NIL_BLEND * (odds - searched)
    charge = (searched - chance) * 2 * rules.nil_value
    weighed.values[nil] = [value - charge for value in weighed.values[nil]]


def _deal_bids(view: SeatView, order: Sequence[int], hands: Sequence[int], mine: int,
               blind_bid: bool) -> tuple[list[int], list[bool]]:
    """Every seat's bid in one sampled deal (`hands`): the bids made, ours (`mine`, blind or not; -1: as the
    cards say), and each other seat's, in bidding `order`, as the rule bid of its sampled cards."""
    rules = view.rules
    seat = view.seat
    bids = [b if b is not None else 0 for b in view.bids]
    blind = list(view.blind)
    decided = {s for s in range(rules.players) if view.bids[s] is not None}
    if mine < 0 and rules.bid_mode == "free":  # as the cards say
        mine = quick_bid(rules, hands[seat], None)
    elif mine < 0:  # as the cards say, under the bid mode
        partner = (seat + 2) % 4 if rules.partnerships else None
        known = partner if partner in decided else None
        mine = rule_bid(rules, hands[seat], None if known is None else bids[known],
                        None if known is None else is_nil(rules, bids[known], blind[known]))
    bids[seat] = mine
    blind[seat] = blind_bid
    decided.add(seat)
    for other in order:
        if other in decided:
            continue
        partner = (other + 2) % 4 if rules.partnerships else None
        partner_nil = partner in decided and is_nil(rules, bids[partner], blind[partner])
        partner_bid = bids[partner] if partner is not None and partner in decided else None
        bids[other] = rule_bid(rules, hands[other], partner_bid, partner_nil)
        decided.add(other)
    return bids, blind


@dataclass
class Weighed:
    """One searched decision: its options (an action each), each option's value deal by deal, whether the
    seat's contract held in that deal (its nil, for a nil bidder), each deal's weight, and which option is
    the heuristic's. `alike`: per option, every action searched with it (cards as good as each other).
    `playouts` were run; `capped`: the wall clock ended the search early."""

    actions: list[Action]
    values: list[list[float]]
    made: list[list[bool]]
    weights: list[float]
    default: int
    alike: list[tuple[Action, ...]] = field(default_factory=list)
    playouts: int = 0
    capped: bool = False
    #: an option's chance of holding where the search counts on another than its playouts' share (a nil bid)
    chances: dict[int, float] = field(default_factory=dict)

    def holds(self, option: int) -> float:
        """The chance that the seat's contract (its nil, for a nil bidder) holds with the option: the
        weighted share of deals where it held, unless the search counts on another (`chances`)."""
        if option in self.chances:
            return self.chances[option]
        total = sum(self.weights)
        return sum(w for w, held in zip(self.weights, self.made[option], strict=True) if held) / total

    def add(self, deal: Sequence[tuple[float, bool]], weight: float) -> bool:
        """Take one deal's (value, held) for every option. A deal cut short by the clock is left out:
        False, and `capped` is set."""
        if len(deal) < len(self.values):
            self.capped = True
            return False
        self.weights.append(weight)
        for row, made, (value, held) in zip(self.values, self.made, deal, strict=True):
            row.append(value)
            made.append(held)
        return True


def weigh_plays(
    view: SeatView,
    legal: Sequence[Action],
    rng: random.Random,
    deadline: float,
    iterations: int,
    seen: int = 0,
    bag_weight: float = BAG_WEIGHT,
) -> Weighed | None:
    """The expert's search of a card to play (None when fewer than two cards may be played): every group of
    equivalent cards played out in the same deals, each deal weighted by how well it explains the bids. It
    reads `view` alone, what the seat may know."""
    plays = {a.card.index: a for a in legal if isinstance(a, Play)}
    if len(plays) < 2:
        return None
    rules = view.rules
    bids = tuple(b if b is not None else 0 for b in view.bids)
    contract = Contract(rules, bids, view.blind)
    world = World(view, seen)
    groups = _equivalent(list(plays), rules.deck_mask & ~world.unseen, contract.relabel)
    usual = choose_card(view, legal)
    assert isinstance(usual, Play)
    default = next(i for i, group in enumerate(groups) if usual.card.index in group)
    actions: list[Action] = [plays[group[0]] for group in groups]
    actions[default] = usual
    alike: list[tuple[Action, ...]] = [tuple(plays[c] for c in group) for group in groups]
    weighed = Weighed(actions, [[] for _ in groups], [[] for _ in groups], [], default, alike)
    seat = view.seat
    rounds = max(2, iterations // len(groups))
    for r in range(rounds):
        hands = world.sample(rng)
        weight = world.weight(hands)
        deal: list[tuple[float, bool]] = []
        start = Playout.from_view(contract, view, hands)
        for group in groups:
            if r >= 2 and time.perf_counter() > deadline:
                break
            playout = start.copy()
            playout.play_card(group[0])
            deal.append(_scored(contract, seat, playout.finish(), view.totals, bag_weight))
        weighed.playouts += len(deal)
        if not weighed.add(deal, weight):
            break  # out of time: this deal, cut short, is left out
    return weighed


def _scored(
    contract: Contract, seat: int, won: Sequence[int], totals: Sequence[SideTotal], bag_weight: float
) -> tuple[float, bool]:
    """A played-out deal's worth to the seat, and whether its contract (its nil, for a nil bidder) held."""
    held = won[seat] == 0 if contract.nil[seat] else contract.need(contract.side_of[seat], won) <= 0
    return contract.value(seat, won, totals, bag_weight), held


def _equivalent(cards: Sequence[int], gone: int, relabel: Relabel | None = None) -> list[list[int]]:
    """Cards (indexes) grouped where they are as good as each other: same suit, and every card of the suit
    between them is ours or gone. Each group is searched once, by its lowest card. Under deuces high the
    cards are compared as the simulator orders them (`relabel`)."""
    if relabel is not None:
        groups = _equivalent([relabel.index[c] for c in cards], relabel.mask(gone))
        return [[relabel.card(c) for c in group] for group in groups]
    groups = []
    for card in sorted(cards):
        if groups:
            last = groups[-1][-1]
            between = SUIT_MASKS[SUIT_OF[card]] & ((1 << card) - 1) & ~((2 << last) - 1)
            if SUIT_OF[last] == SUIT_OF[card] and not between & ~gone:
                groups[-1].append(card)
                continue
        groups.append([card])
    return groups


def _confident_best(
    values: Sequence[Sequence[float]],
    weights: Sequence[float],
    default: int,
    confidence: float,
    margin: float = 0.0,
) -> int:
    """The option with the best weighted mean value, if it beats `default` (the heuristic's choice) by more
    than `margin` and by `confidence` standard errors of the paired difference over the same deals; else
    `default`. The search overrules the heuristic only where it is sure."""
    total = sum(weights)
    if total <= 0:
        return default
    ess = total * total / sum(w * w for w in weights)  # effective number of deals
    base = values[default]
    best, best_mean = default, 0.0
    for i, row in enumerate(values):
        if i == default:
            continue
        diffs = [a - b for a, b in zip(row, base, strict=True)]
        mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
        if mean <= best_mean or mean <= margin:
            continue
        variance = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
        if mean - margin > confidence * math.sqrt(variance / max(1.0, ess - 1)):
            best, best_mean = i, mean
    return best


def _bid_order(view: SeatView) -> list[int]:
    rules = view.rules
    n = rules.players
    first = view.dealer if rules.first_bidder == "dealer" else (view.dealer + 1) % n
    return [(first + k) % n for k in range(n)]


def quick_bid(rules: RuleSet, hand: int, partner_nil: bool | None) -> int:
    """What a seat holding `hand` is likely to bid (0 for nil): the heuristic count, nil when it is safe.
    `partner_nil` None: the partner's bid is not known."""
    estimate = estimate_mask(rules, hand)
    lowest = max(rules.min_bid, 1 if rules.nil else 0)
    bid = max(lowest, min(rules.tricks_per_hand, math.floor(estimate + 0.15)))
    if rules.nil and not partner_nil:
        success = nil_odds(rules, nil_danger_mask(rules, hand))
        if rules.nil_value * (2 * success - 1) > 10 * max(1, bid) + 10:
            return 0
    return bid


def rule_bid(rules: RuleSet, hand: int, partner_bid: int | None, partner_nil: bool | None) -> int:
    """`quick_bid` held to the rule set's bid mode, so the search deals the bids the rules would allow: the
    spades held (mirror; whiz keeps a nil), and under suicide the complement of the partner's bid."""
    mode = rules.bid_mode
    bid = quick_bid(rules, hand, partner_nil)
    if mode == "mirror" or (mode == "whiz" and bid):
        return (hand & rules.order.spades_mask).bit_count()
    if mode == "suicide":
        lowest = max(rules.min_bid, 1, rules.min_team_bid)
        if partner_bid is not None and not partner_nil:
            return 0
        if partner_nil:
            return max(bid, lowest)
        return bid if bid == 0 else max(bid, lowest)
    return bid
