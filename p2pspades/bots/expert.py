"""The expert bot: Perfect Information Monte Carlo search with knowledge.

For each decision it deals the cards it cannot see many times over (determinizations), each deal consistent
with everything public: the cards played, the suits each seat has shown void in, the hand sizes, and in the
draw-pile game the cards it saw go by. Each deal is weighted by how well it explains the bids already made
(the heuristic bot's own trick count and nil danger of the hand a seat held when it bid). In each deal every
choice is played out to the end of the hand by a quick greedy policy that knows the contracts
(`bots.simulate`: a live nil ducks, its partner covers it, its opponents play under it), and scored with the
rule set's own scoring: contracts, sets, bags (a quarter of their long-run cost by default, see
`BAG_WEIGHT`), nil and blind nil, and the game's end when the totals get there. The choice with the best
weighted mean wins. Bids are searched the same way, nil included, and so is blind nil where the rules offer
it. The draw pile's keep-or-discard is the heuristic bot's.

Determinism and the time budget: the work is counted, not timed. A decision runs a fixed number of playouts,
`iterations` (by default `PLAYOUTS_PER_SECOND x time_budget`, calibrated so that a decision takes well under
its budget on a slow machine), from a `random.Random` seeded by the bot's seed and the view, so one seed and
one view give one choice. The wall clock is only a hard cap: a decision that reaches 90% of `time_budget`
stops early with what it has. That cap keeps the budget on an overloaded machine, at the cost of
determinism in that case only; `clock=False` takes it away (the count alone ends a decision, however slow
the machine), for an exact replay.
"""

from __future__ import annotations

import hashlib
import math
import random
import time

from p2pspades.bots.bidding import blind_choice, keep_draw
from p2pspades.bots.cover import CoverPlayout
from p2pspades.bots.passing import choose_pass
from p2pspades.bots.play import choose_card
from p2pspades.bots.search import (
    BAG_WEIGHT,
    Effort,
    Weighed,
    confident_best,
    weigh_bids,
    weigh_blind,
    weigh_plays,
)
from p2pspades.bots.simulate import Contract, Playout
from p2pspades.bots.topsearch import weigh_top
from p2pspades.rules import Action, Bid, BlindNil, Draw, SeatView, is_nil
from p2pspades.table.events import Decision, DecisionKind

DEFAULT_BUDGET = 0.5
"""Seconds per decision, at most."""
PLAYOUTS_PER_SECOND = 4000
"""Playouts a decision runs per second of budget (a whole-hand playout for a bid counts as `BID_COST`): 2,000
at the default budget. One idle core of the reference machine runs about 10,000 a second, so the count, not
the clock, ends a decision unless the machine is loaded (measured with four experts in one process, one
deal per core: 0.23 s a decision on average, 0.43 s at the 95th percentile)."""
CAP = 0.9
"""The share of the budget after which a decision stops starting new deals (the rest covers the deal in
progress and the choice itself)."""
CONFIDENCE = 1.5
"""How many standard errors a searched card must beat the heuristic's by to overrule it."""
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
    `clock=False`: the same count of playouts (`time_budget`'s, or `iterations`), and no cap.

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
        settle: tuple[float, float] | None = None,
        infer: float = 1.0,
        cover: bool = False,
        made_bag_weight: float | None = None,
        top: bool = False,
        bid_bag_weight: float | None = None,
        nil_blend: float | None = None,
        bid_lean: float = 0,
        bid_under: float = 1,
        nil_confidence: float | None = None,
        hunt_confidence: float | None = None,
        nil_effort: float = 1.0,
        bid_effort: float = 1.0,
        clock: bool = True,
    ) -> None:
        if time_budget <= 0:
            raise ValueError(f"time_budget must be positive, got {time_budget}")
        self._seed = seed if isinstance(seed, bytes) else b"expert-bot" + str(seed).encode()
        self.time_budget = time_budget
        self.clock = clock  # False: no wall-clock cap, the count alone ends a decision
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
        shares = {"bag_weight": bag_weight, "infer": infer, "made_bag_weight": made_bag_weight,
                  "bid_bag_weight": bid_bag_weight, "nil_blend": nil_blend}
        for name, share in shares.items():
            if share is not None and not 0.0 <= share <= 1.0:
                raise ValueError(f"{name} must be from 0 to 1, got {share}")
        for name, effort in (("nil_effort", nil_effort), ("bid_effort", bid_effort)):
            if not effort > 0:
                raise ValueError(f"{name} must be positive, got {effort}")
        self.bag_weight = bag_weight
        self.settle = settle
        self.infer = infer
        self.playout = CoverPlayout if cover else Playout
        #: the bag weight once the seat's side has made its contract (None: `bag_weight` all along)
        self.made_bag_weight = made_bag_weight
        #: cards chosen by the information-set search at the top of the tree (`topsearch`), not flat PIMC
        self.top = top
        #: the bag weight of the bid search (None: `bag_weight`)
        self.bid_bag_weight = bid_bag_weight
        self.nil_blend = nil_blend
        self.bid_lean = int(bid_lean)
        #: may the bid search bid under the heuristic's count (a counted bid below its default)? Off, a side
        #: of the expert took fewer bags on classic (178 to 200 over 50 deals) but scored no better against
        #: the yardstick (-4.5 [-12.6, +3.6] a deal on the same deals; README, Benchmarks), so it stays on
        self.bid_under = bool(bid_under)
        #: the card's bar while a nil bid is alive at the table (None: `confidence`). At 0.5 the expert's
        #: defence broke 3 more of the yardstick's 37 nils over 50 classic deals, but its own nils and
        #: contracts gave it back: -0.2 [-13.5, +13.0] a deal on the same deals (README, Benchmarks)
        self.nil_confidence = nil_confidence
        #: the card's bar while an opponent's nil is alive and no nil of the seat's side is (None: as above).
        #: At 0.5: +0.1 [-8.3, +8.5] a deal on the same 100 classic deals (2 more of the yardstick's 75 nils
        #: broken, the expert set 11 times to 8)
        self.hunt_confidence = hunt_confidence
        #: how many times `iterations` a card's search runs while a nil bid is alive at the table. At 2 the
        #: expert's CPU a decision went over the yardstick's (0.218 s to 0.197 s on 10 classic deals)
        self.nil_effort = nil_effort
        #: how many times `iterations` a bid's (and the blind-nil question's) search runs: a hand has one bid
        #: to its many cards, and the bid search splits its playouts among every bid it weighs. At 3: -0.8
        #: [-5.3, +3.8] a deal on the same 200 classic deals against the yardstick (README, Benchmarks)
        self.bid_effort = bid_effort
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
        self.playouts, self.capped = 0, False
        if decision.kind is DecisionKind.DRAW:
            if view.draw_card is not None:  # remember it, for this hand only
                seen = self._seen.get(view.hand_number, 0) | 1 << view.draw_card.index
                self._seen = {view.hand_number: seen}
            choice = Draw(keep_draw(view))
        elif decision.kind is DecisionKind.PASS:
            choice = choose_pass(view, legal)
        else:
            weighed = self.weigh(decision)
            if weighed is not None:
                choice = weighed.actions[self.best(decision, weighed)]
            elif decision.kind is DecisionKind.BLIND_NIL:  # blind bids alone: the heuristic's gamble
                choice = blind_choice(view, legal)
            else:  # every card as good as the others: the heuristic's
                choice = choose_card(view, legal)
        return choice if choice in legal else legal[0]

    def best(self, decision: Decision, weighed: Weighed) -> int:
        """Which of a search's options the bot takes: the heuristic's, unless another beats it by the
        confidence of the decision's kind (`bid_confidence` for a bid, `confidence` for a card; for blind nil,
        by `BLIND_MARGIN` points too). In the draw-pile game the bid is always the heuristic's: there the
        searched bid lost 10 points a deal to it (300 duplicate deals of `two`), for the search deals the
        other hand from a pile it cannot weigh."""
        kind = decision.kind
        if kind is DecisionKind.BLIND_NIL:
            return confident_best(weighed, weighed.default, self.confidence, BLIND_MARGIN, among=[1])
        if kind is DecisionKind.BID:
            if decision.view.rules.deal == "draw":
                return weighed.default
            among = self.bids_among(weighed, decision.view.rules.nil)
            return confident_best(weighed, weighed.default, self.bid_confidence, among=among)
        view = decision.view
        bar = self.confidence
        if self.nil_confidence is not None and nil_alive(view):
            bar = self.nil_confidence
        hunt = self.hunt_confidence
        if hunt is not None and nil_alive(view, theirs=True) and not nil_alive(view, ours=True):
            bar = hunt
        return confident_best(weighed, weighed.default, bar)

    def bids_among(self, weighed: Weighed, nil: bool) -> list[int] | None:
        """The searched bids the bot may choose (None: all its own): with `bid_under` off, no counted bid
        under the default's (nil, where the rules have it, still may be chosen)."""
        usual = weighed.actions[weighed.default]
        if self.bid_under or not isinstance(usual, Bid):
            return None
        bids = [(i, weighed.actions[i]) for i in range(weighed.own)]
        return [i for i, bid in bids if isinstance(bid, Bid) and allowed(bid.tricks, usual.tricks, nil)]

    def weigh(self, decision: Decision, also: Action | None = None) -> Weighed | None:
        """The search of a bid, a card to play or the blind-nil question, every option with its value deal
        by deal (None for other decisions, and where every legal choice is as good as the others). What
        `__call__` chooses from, and what the coach shows. `also`, a legal choice the search would not
        weigh (a bid far from the count), is weighed too, in the same deals, and never chosen. It reads the
        decision's view alone, what the seat may know."""
        view = decision.view
        effort = self._effort(decision)
        weighed: Weighed | None = None
        if decision.kind is DecisionKind.PLAY:
            weighed = (weigh_top if self.top else weigh_plays)(view, decision.legal, effort)
        elif decision.kind is DecisionKind.BID:
            weighed = weigh_bids(view, decision.legal, effort, also)
        elif decision.kind is DecisionKind.BLIND_NIL and BlindNil(True) in decision.legal:
            weighed = weigh_blind(view, decision.legal, effort, also)
        if weighed is not None:
            self.playouts, self.capped = weighed.playouts, weighed.capped
        return weighed

    def _effort(self, decision: Decision) -> Effort:
        """How this decision's search runs: its generator (from the seed and the view), playouts, clock."""
        view = decision.view
        deadline = time.perf_counter() + self.time_budget * CAP if self.clock else math.inf
        effort = Effort(random.Random(self._key(view)), self.iterations, deadline, self.bag_weight,
                        self._seen.get(view.hand_number, 0), self.settle, self.infer, self.playout)
        if self.made_bag_weight is not None and decision.kind is DecisionKind.PLAY and made(view):
            effort.bag_weight = self.made_bag_weight
        if self.bid_bag_weight is not None and decision.kind is not DecisionKind.PLAY:
            effort.bag_weight = self.bid_bag_weight
        scale = 1.0
        if decision.kind in (DecisionKind.BID, DecisionKind.BLIND_NIL):
            scale = self.bid_effort
        elif decision.kind is DecisionKind.PLAY and self.nil_effort != 1.0 and nil_alive(view):
            scale = self.nil_effort
        if scale != 1.0:
            effort.iterations = max(8, int(self.iterations * scale))
        effort.nil_blend = self.nil_blend
        effort.bid_lean = self.bid_lean
        return effort

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


def allowed(bid: int, floor: int, nil: bool) -> bool:
    """Is a bid of `bid` tricks no counted bid under `floor` (a nil, where the rules have it, is allowed)?"""
    return bid >= floor or (nil and bid == 0)


def nil_alive(view: SeatView, ours: bool = False, theirs: bool = False) -> bool:
    """Is some seat's nil (or blind nil) bid still unbroken: of the seat's side (`ours`), of another side
    (`theirs`), or of any seat?"""
    rules = view.rules
    side = rules.side_of(view.seat)
    return any(
        bid is not None and is_nil(rules, bid, blind) and not won
        and (not ours or rules.side_of(seat) == side) and (not theirs or rules.side_of(seat) != side)
        for seat, (bid, blind, won) in enumerate(zip(view.bids, view.blind, view.tricks_won, strict=True))
    )


def made(view: SeatView) -> bool:
    """Has the seat's side made its contract (a nil bidder: is its nil broken or its partner's contract
    made)?"""
    contract = Contract(view.rules, [b if b is not None else 0 for b in view.bids], view.blind)
    return contract.need(contract.side_of[view.seat], view.tricks_won) <= 0
