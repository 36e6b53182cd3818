"""The expert's search: every option of a decision played out over many deals of the unseen cards.

`weigh_plays` searches a card to play, `weigh_bids` a bid (nil included), `weigh_blind` the blind-nil
question before the deal. Each returns a `Weighed`: every option's value deal by deal, whether the seat's
contract (its nil, for a nil bidder) held, and each deal's weight. Choosing among them is the bot's
(`ExpertBot.best`, with `confident_best`).

Each search runs a fixed number of playouts (`Effort.iterations`), the clock only a cap (`Effort.deadline`),
from a generator it is given, so that one view and one seed give one search. A search may also weigh
options the bot would not search (`also`: the bid a person made, for the review), in the same deals and
without changing the others' values.

Pure apart from the clock it reads as a cap.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from p2pspades.bots.bidding import blind_choice, choose_bid, estimate_mask, nil_danger_mask, nil_odds
from p2pspades.bots.play import choose_card
from p2pspades.bots.simulate import SUIT_MASKS, SUIT_OF, Contract, Playout, Relabel, bags_hurt
from p2pspades.bots.world import World
from p2pspades.rules import Action, Bid, BlindBid, BlindNil, Play, RuleSet, SeatView, SideTotal, is_nil
from p2pspades.rules.cards import mask_of

BAG_WEIGHT = 0.25
"""How much of a bag's long-run cost (its share of the bag penalty) the search charges, from 0 to 1; a
penalty that falls in the hand itself is always charged in full. At 1 the expert ducked tricks to save bags
and was set far more often than the PIMC yardstick: with the heuristic's bids and 2,000 playouts a card, it
lost 11.8 points a duplicate deal to the yardstick (1.8 with bags charged), set 12 times to its 0 in 40 deals;
at 0 it won by 6.8 (6.6 with bags charged), set 7 times to its 5. The playouts see every card, so a duck that
leaves the contract to later tricks looks safer in them than it is at the table. At 0.25 a bag costs 2.5
points in classic: a duck still pays where the contract is sure, and only there."""
SETTLE_FIRST = 30
"""A search may stop early (`Effort.settle`) only after this many deals."""
BID_COST = 3
"""A whole-hand playout (for a bid) costs about this many mid-hand ones."""
WIDE_BELOW, WIDE_ABOVE = 2, 3
"""Where bags cost nothing, the bids searched run this far below and above the heuristic count."""
NIL_BLEND = 0.0
"""How far a searched nil's chance is taken toward the bidding's odds of its nil danger (`nil_odds`): by
default not at all, the playouts' own chance. A nil taken toward the odds is charged the difference, its
swing (twice the nil's value) times the share it moves, before it is weighed against bidding the cards.
Halfway (0.5) was the default while the playouts' defence let a nil win a trick its partner was winning,
and so overrated nils (the expert's 71 nils of 100 duplicate deals of classic had 80% in its search and 59%
by the odds, and 68% were made against the PIMC yardstick). Once that defence played under a live nil over
its own partner's card, halfway bid too few: over 300 duplicate deals of classic against the yardstick the
expert bid 128 nils and made 85 of them; with the playouts' chance alone it bid 187, made 128, and gained
+3.3 [+0.1, +6.6] points a deal on the same deals (README, Benchmarks). Partnerships only, where it was
measured; with no partner to cover, the odds are far lower (27% at a nil danger of 0.44)."""


@dataclass
class Effort:
    """How one search runs: its generator, its playouts, the clock's cap, and how much of a bag's long-run
    cost it charges (`bag_weight`, see `Contract.value`)."""

    rng: random.Random
    iterations: int
    deadline: float = math.inf
    bag_weight: float = BAG_WEIGHT
    seen: int = 0  # the draw pile: stock cards the seat saw go by this hand
    #: stop early once the answer is known (`Weighed.settled`'s z and tolerance), checked every eighth of
    #: the deals from `SETTLE_FIRST` on; None: every planned deal
    settle: tuple[float, float] | None = None
    #: how much a deal's weight keeps for each reading of the cards played it breaks (`World`); 1: none
    infer: float = 1.0
    #: the playouts' policy (`Playout`, or a subclass of it)
    playout: type[Playout] = Playout
    #: how far a searched nil's chance is taken toward the bidding's odds (None: `NIL_BLEND`)
    nil_blend: float | None = None
    #: tricks the bid search's centre and default stand over the heuristic's count
    bid_lean: int = 0

    def done(self, weighed: Weighed, deals: int, rounds: int) -> bool:
        """After `deals` deals of `rounds`: may the search stop, its answer settled?"""
        if self.settle is None:
            return False
        step = max(1, rounds // 8)
        first = max(SETTLE_FIRST, step)
        if deals < first or (deals - first) % step or deals >= rounds:
            return False
        return weighed.settled(*self.settle)


@dataclass
class Weighed:
    """One searched decision: its options (an action each), each option's value deal by deal, whether the
    seat's contract held in that deal (its nil, for a nil bidder), each deal's weight, and which option is
    the heuristic's. `alike`: per option, every action searched with it (cards as good as each other).
    `own`: how many options (the first ones) the bot chooses from; the rest were weighed only to be shown.
    `playouts` were run; `capped`: the wall clock ended the search early."""

    actions: list[Action]
    values: list[list[float]]
    made: list[list[bool]]
    weights: list[float]
    default: int
    alike: list[tuple[Action, ...]] = field(default_factory=list)
    own: int = 0  # 0: every option
    playouts: int = 0
    capped: bool = False
    #: per nil option, its odds by the bidding (`nil_odds`), its swing (what holding it is worth) and the
    #: blend: the search counts on a chance that share (`NIL_BLEND` by default) of the way from its
    #: playouts' share to the odds, its values moved by the difference times the swing
    nil_odds: dict[int, tuple[float, float, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.own = self.own or len(self.actions)

    @classmethod
    def empty(cls, actions: Sequence[Action], default: int = 0, own: int | None = None) -> Weighed:
        """A search of `actions` with no deal yet."""
        k = len(actions)
        return cls(list(actions), [[] for _ in range(k)], [[] for _ in range(k)], [], default,
                   [(a,) for a in actions], k if own is None else own)

    def share(self, option: int) -> float:
        """The weighted share of the deals in which the seat's contract (its nil) held with the option."""
        total = sum(self.weights)
        return sum(w for w, held in zip(self.weights, self.made[option], strict=True) if held) / total

    def holds(self, option: int) -> float:
        """The chance that the seat's contract (its nil, for a nil bidder) holds with the option: its share of
        the deals, or for a nil the chance the search counts on (`nil_odds`)."""
        share = self.share(option)
        if option in self.nil_odds:
            odds, _, blend = self.nil_odds[option]
            return share + blend * (odds - share)
        return share

    def shift(self, option: int) -> float:
        """How far the search moves the option's values from its playouts' (a nil's, see `nil_odds`)."""
        if option not in self.nil_odds:
            return 0.0
        odds, swing, blend = self.nil_odds[option]
        return blend * (odds - self.share(option)) * swing

    def mean(self, option: int) -> float:
        """The option's weighted mean value over the deals, as the search counts it."""
        total = sum(self.weights)
        raw = sum(w * v for w, v in zip(self.weights, self.values[option], strict=True)) / total
        return raw + self.shift(option)

    def difference(self, option: int, base: int) -> tuple[float, float]:
        """The option's mean value less `base`'s over the same deals, and its standard error."""
        weights = self.weights
        total = sum(weights)
        ess = total * total / sum(w * w for w in weights)  # effective number of deals
        diffs = [a - b for a, b in zip(self.values[option], self.values[base], strict=True)]
        mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
        variance = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
        return mean + self.shift(option) - self.shift(base), math.sqrt(variance / max(1.0, ess - 1))

    def settled(self, z: float, tolerance: float) -> bool:
        """Is the search's answer known well enough to stop: the best of the bot's own options beats every
        other option by `z` standard errors of the paired difference over the same deals, or is known to
        within `tolerance` points of it?"""
        leader = max(range(self.own), key=self.mean)
        for i in range(len(self.values)):
            if i != leader:
                ahead, error = self.difference(leader, i)
                if error >= tolerance and ahead <= z * error:
                    return False
        return True

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

# ----- cards ----------------------------------------------------------------------------------------------


def weigh_plays(view: SeatView, legal: Sequence[Action], effort: Effort) -> Weighed | None:
    """The search of a card to play (None when the legal cards are all as good as each other): every group
    of equivalent cards played out in the same deals, each deal weighted by how well it explains the bids.
    It reads `view` alone, what the seat may know."""
    found = card_options(view, legal, effort)
    if found is None:
        return None
    contract, world, groups, weighed = found
    seat = view.seat
    rounds = max(2, effort.iterations // len(groups))
    # the hand's worth by the tricks each seat won: a search's playouts end in few distinct counts
    worth: dict[tuple[int, ...], tuple[float, bool]] = {}
    for r in range(rounds):
        hands = world.sample(effort.rng)
        weight = world.weight(hands)
        deal: list[tuple[float, bool]] = []
        start = effort.playout.from_view(contract, view, hands)
        for group in groups:
            if r >= 2 and time.perf_counter() > effort.deadline:
                break
            playout = start.copy()
            playout.play_card(group[0])
            won = tuple(playout.finish())
            known = worth.get(won)
            if known is None:
                known = worth[won] = scored(contract, seat, won, view.totals, effort.bag_weight)
            deal.append(known)
        weighed.playouts += len(deal)
        if not weighed.add(deal, weight) or effort.done(weighed, r + 1, rounds):
            break  # out of time (this deal, cut short, is left out), or settled
    return weighed


def card_options(
    view: SeatView, legal: Sequence[Action], effort: Effort
) -> tuple[Contract, World, list[list[int]], Weighed] | None:
    """What a search of a card to play starts from: the hand's contracts, the seat's world, the groups of
    equivalent cards (deck indexes; each searched by its first) and an empty search of them, the heuristic's
    card its default (None when the legal cards are all as good as each other)."""
    plays = {a.card.index: a for a in legal if isinstance(a, Play)}
    if len(plays) < 2:
        return None
    rules = view.rules
    bids = tuple(b if b is not None else 0 for b in view.bids)
    contract = Contract(rules, bids, view.blind)
    world = World(view, effort.seen, effort.infer)
    groups = equivalent(list(plays), rules.deck_mask & ~world.unseen, contract.relabel)
    if len(groups) < 2:
        return None
    usual = choose_card(view, legal)
    assert isinstance(usual, Play)
    default = next(i for i, group in enumerate(groups) if usual.card.index in group)
    actions: list[Action] = [plays[group[0]] for group in groups]
    actions[default] = usual
    weighed = Weighed.empty(actions, default)
    weighed.alike = [tuple(plays[c] for c in group) for group in groups]
    return contract, world, groups, weighed


def scored(
    contract: Contract, seat: int, won: Sequence[int], totals: Sequence[SideTotal], bag_weight: float
) -> tuple[float, bool]:
    """A played-out deal's worth to the seat, and whether its contract (its nil, for a nil bidder) held."""
    held = won[seat] == 0 if contract.nil[seat] else contract.need(contract.side_of[seat], won) <= 0
    return contract.value(seat, won, totals, bag_weight), held


def equivalent(cards: Sequence[int], gone: int, relabel: Relabel | None = None) -> list[list[int]]:
    """Cards (indexes) grouped where they are as good as each other: same suit, and every card of the suit
    between them is ours or gone. Each group is searched once, by its lowest card. Under deuces high the
    cards are compared as the simulator orders them (`relabel`)."""
    if relabel is not None:
        raised = equivalent([relabel.index[c] for c in cards], relabel.mask(gone))
        return [[relabel.card(c) for c in group] for group in raised]
    groups: list[list[int]] = []
    for card in sorted(cards):
        if groups:
            last = groups[-1][-1]
            between = SUIT_MASKS[SUIT_OF[card]] & ((1 << card) - 1) & ~((2 << last) - 1)
            if SUIT_OF[last] == SUIT_OF[card] and not between & ~gone:
                groups[-1].append(card)
                continue
        groups.append([card])
    return groups


# ----- bids -----------------------------------------------------------------------------------------------


def bid_options(view: SeatView, legal: Sequence[Action], lean: int = 0) -> tuple[list[int], int]:
    """The bids the search weighs (nil as 0), around the heuristic's count (`lean` tricks over it), and
    which is the heuristic's (so raised)."""
    rules = view.rules
    counted = sorted(a.tricks for a in legal if isinstance(a, Bid) and not (rules.nil and a.tricks == 0))
    centre, count = bid_centre(view, legal, counted, lean)
    # where bags cost nothing, all counted bids share a playout a deal (see `BidSearch`): search wider
    below, over = (1, 1) if bags_hurt(rules) else (WIDE_BELOW, WIDE_ABOVE)
    options = [b for b in counted if -below <= b - count <= over] or counted[:1]
    if rules.nil and Bid(0) in legal:
        options.append(0)
    usual = centre.tricks if isinstance(centre, Bid) else count
    default = options.index(usual) if usual in options else options.index(count) if count in options else 0
    return options, default


def bid_centre(
    view: SeatView, legal: Sequence[Action], counted: Sequence[int], lean: int
) -> tuple[Action, int]:
    """The heuristic's bid and the count the search goes around: the heuristic's count of tricks (the hand's
    quick count where it bids nil or blind), `lean` tricks over it within the `counted` bids (sorted), the
    heuristic's bid raised with it."""
    rules = view.rules
    centre = choose_bid(view, legal, 0.0)  # the heuristic bid, to search around
    counted_bid = isinstance(centre, Bid) and not (rules.nil and centre.tricks == 0)
    count = centre.tricks if isinstance(centre, Bid) and counted_bid else quick_bid(
        rules, mask_of(view.hand), True
    )
    if lean and counted:
        raised = min(counted[-1], max(counted[0], count + lean))
        centre = Bid(raised) if counted_bid else centre
        count = raised
    return centre, count


def weigh_bids(
    view: SeatView, legal: Sequence[Action], effort: Effort, also: Action | None = None
) -> Weighed:
    """The search of a bid: the bids around the heuristic's count, and nil, each played out from the first
    lead over the same deals (`also`, a legal bid outside them, is weighed too, but not chosen from)."""
    rules = view.rules
    options, default = bid_options(view, legal, effort.bid_lean)
    own = len(options)
    if isinstance(also, Bid) and also in legal and also.tricks not in options:
        options.append(also.tricks)
    actions: list[Action] = [Bid(b) for b in options]
    if len(options) == 1:
        return Weighed.empty(actions)
    world = World(view, effort.seen)
    nils = {}
    if rules.nil and rules.partnerships and 0 in options:
        odds = nil_odds(rules, nil_danger_mask(rules, mask_of(view.hand)))
        blend = NIL_BLEND if effort.nil_blend is None else effort.nil_blend
        nils[options.index(0)] = odds, 2.0 * rules.nil_value, blend
    weighed = BidSearch(view, world, [(b, False) for b in options], own, nils).run(effort)
    weighed.actions, weighed.alike = actions, [(a,) for a in actions]
    weighed.default, weighed.own = default, own
    return weighed


def weigh_blind(
    view: SeatView, legal: Sequence[Action], effort: Effort, also: Action | None = None
) -> Weighed:
    """The blind-nil question, before the deal: blind nil against the heuristic's other answer (no, or a
    blind bid where the rules offer one), over deals of our own cards too. The default is the heuristic's
    answer other than blind nil; `also` (another legal answer) is weighed too."""
    usual = blind_choice(view, [a for a in legal if a != BlindNil(True)])
    actions: list[Action] = [usual, BlindNil(True)]
    if isinstance(also, BlindBid | BlindNil) and also in legal and also not in actions:
        actions.append(also)
    options = [_blind_option(a) for a in actions]
    weighed = BidSearch(view, World(view, 0), options, 2).run(effort)
    weighed.actions, weighed.alike, weighed.own = actions, [(a,) for a in actions], 2
    return weighed


def _blind_option(action: Action) -> tuple[int, bool]:
    """A blind answer as the bid search's (bid, blind) option; a bid of -1 means "as the cards say"."""
    if isinstance(action, BlindBid):
        return action.tricks, True
    return (0, True) if isinstance(action, BlindNil) and action.declare else (-1, False)


class BidSearch:
    """The playouts of a seat's bid options (bid, blind), deal by deal: each deal's table bids it (the bids
    made, ours, and what each seat still to bid would bid on its cards in the deal) and plays from the
    first lead. Where bags cost nothing no seat's play depends on our counted bid (every side wants every
    trick), so one playout a deal scores every counted bid; nil and blind bids change the play and get their
    own. The first `own` options set how many deals the playouts buy."""

    def __init__(
        self,
        view: SeatView,
        world: World,
        options: Sequence[tuple[int, bool]],
        own: int,
        nils: dict[int, tuple[float, float, float]] | None = None,
    ) -> None:
        rules = view.rules
        self.own = own
        self.nils = nils or {}
        self.view = view
        self.world = world
        self.options = list(options)
        self.seat = view.seat
        self.order = bid_order(view)
        self.sharing = not bags_hurt(rules)
        alone = [mine < 0 or (rules.nil and mine == 0) or blind for mine, blind in options[:own]]
        self.per_deal = sum(alone) + (not all(alone)) if self.sharing else own

    def run(self, effort: Effort) -> Weighed:
        weighed = Weighed.empty([BlindNil(False)] * len(self.options), own=self.own)
        weighed.nil_odds = dict(self.nils)
        rounds = max(2, effort.iterations // (BID_COST * self.per_deal))
        for r in range(rounds):
            hands = self.world.sample(effort.rng)
            weight = self.world.weight(hands)
            deal: list[tuple[float, bool]] = []
            shared: list[int] | None = None
            runs = 0
            for mine, blind in self.options:
                if r >= 2 and time.perf_counter() > effort.deadline:
                    break
                contract = self.contract(hands, mine, blind)
                if self.sharing and shared is not None and not contract.nil[self.seat]:
                    won = shared
                else:
                    won = effort.playout.opening(contract, self.view.dealer, hands.copy()).finish()
                    runs += 1
                    if self.sharing and not contract.nil[self.seat]:
                        shared = won
                deal.append(scored(contract, self.seat, won, self.view.totals, effort.bag_weight))
            weighed.playouts += BID_COST * runs
            if not weighed.add(deal, weight) or effort.done(weighed, r + 1, rounds):
                break  # out of time (this deal, cut short, is left out), or settled
        return weighed

    def contract(self, hands: Sequence[int], mine: int, blind_bid: bool) -> Contract:
        """The deal's bids when we bid `mine` (-1: as our cards in the deal say), blind or not."""
        view = self.view
        rules = view.rules
        seat = self.seat
        bids = [b if b is not None else 0 for b in view.bids]
        blind = list(view.blind)
        decided = {s for s in range(rules.players) if view.bids[s] is not None}
        bids[seat] = mine if mine >= 0 else self._as_dealt(hands, bids, blind, decided)
        blind[seat] = blind_bid
        decided.add(seat)
        for other in self.order:
            if other in decided:
                continue
            partner = (other + 2) % 4 if rules.partnerships else -1
            if partner in decided:
                partner_nil = is_nil(rules, bids[partner], blind[partner])
                bids[other] = rule_bid(rules, hands[other], bids[partner], partner_nil)
            else:
                bids[other] = rule_bid(rules, hands[other], None, False)
            decided.add(other)
        return Contract(rules, bids, blind)

    def _as_dealt(self, hands: Sequence[int], bids: list[int], blind: list[bool], decided: set[int]) -> int:
        """Our bid as the cards we hold in the deal say (blind nil's alternative: cards not yet seen)."""
        rules = self.view.rules
        if rules.bid_mode == "free":
            return quick_bid(rules, hands[self.seat], None)
        partner = (self.seat + 2) % 4 if rules.partnerships else -1
        if partner not in decided:
            return rule_bid(rules, hands[self.seat], None, None)
        return rule_bid(rules, hands[self.seat], bids[partner], is_nil(rules, bids[partner], blind[partner]))


def bid_order(view: SeatView) -> list[int]:
    """The seats in the order they bid this hand."""
    rules = view.rules
    n = rules.players
    first = view.dealer if rules.first_bidder == "dealer" else (view.dealer + 1) % n
    return [(first + k) % n for k in range(n)]


@lru_cache(maxsize=1 << 12)
def quick_bid(rules: RuleSet, hand: int, partner_nil: bool | None) -> int:
    """What a seat holding `hand` is likely to bid (0 for nil): the heuristic count, nil when it is safe.
    `partner_nil` None: the partner's bid is not known. Remembered: the bid search asks it of every seat
    still to bid once for each bid it weighs, in the same deal."""
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


# ----- choosing -------------------------------------------------------------------------------------------


def confident_best(
    weighed: Weighed, default: int, confidence: float, margin: float = 0.0, among: Sequence[int] | None = None
) -> int:
    """The option (of `among`, default the bot's own) with the best weighted mean value, if it beats
    `default` (the heuristic's choice) by more than `margin` and by `confidence` standard errors of the
    paired difference over the same deals; else `default`. The search overrules the heuristic only where it
    is sure."""
    if sum(weighed.weights) <= 0:
        return default
    best, best_mean = default, 0.0
    for i in range(weighed.own) if among is None else among:
        if i == default:
            continue
        mean, error = weighed.difference(i, default)
        if mean > best_mean and mean > margin and mean - margin > confidence * error:
            best, best_mean = i, mean
    return best
