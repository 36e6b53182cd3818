"""The coach: the expert's search, shown to the person it plays for.

`advise(decision)` runs the expert bot's own search (`ExpertBot.weigh`) for a bid, a card or the blind-nil
question, from the decision's view alone (what the seat may know: its own cards, the bids, the cards played,
the voids shown), and says what it expects of each option: the points the seat's side can expect from the
hand less the other sides' ("net"), and in what share of the sampled deals its contract holds (its nil, for
a nil bidder or a nil option). The choice it names is the one the expert bot would make in that seat with
the coach's playouts (`SHARE` of its own). The words are the screen's and the review's
(`describe/coaching.py`); this module gives numbers.

Nothing here sees hidden cards: the search deals the unseen cards many times over, consistently with the
view. One view gives one advice (the search's generator is seeded from the view), so a hint and a review of
the same position agree, whatever the other seats hold.

The search grows with the expert bots' (`--think`: fast, normal or deep).
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pspades.bots.expert import PLAYOUTS_PER_SECOND, ExpertBot
from p2pspades.bots.registry import think_budget
from p2pspades.rules import Action, Bid, BlindNil, SeatView, is_nil
from p2pspades.table.events import Decision, DecisionKind

COACH_SEED = b"p2pspades/coach"
"""The coach's search is seeded from this and the view, so one position always gets one advice."""
SHARE = 0.25
"""The coach searches a card with this share of the expert bot's playouts at the same `--think` level (500 at
normal, the bot's at fast): a hint comes at once, and a whole game is reviewed in seconds, and the two always
agree, for they are the same search."""
BID_SHARE = 0.5
"""A bid or the blind-nil question, one a hand, gets this share (1,000 playouts at normal): each of its deals
plays the whole hand for every bid searched, so a quarter would leave a bid some thirty deals."""
SETTLE = (2.5, 1.5)
"""The coach stops searching once its choice beats every other option by 2.5 standard errors, or is known to
within 1.5 points of it (`Weighed.settled`, from `SETTLE_FIRST` deals on). Measured on the 186 decisions of
two seats in a ten-hand game (`benchmarks/review.py`'s), against a search of 8,000 playouts a decision:
against stopping at 3.5 standard errors or a point from 60 deals, 14% fewer playouts, its choices giving up
148 points of the reference's in all where those gave up 143, and the costs it names 2.2 points from the
reference's on average where those were 2.1 (0.15 of the expert's playouts in place of a quarter gave up
220)."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option searched: the action (the lowest of cards that are as good as each other, or the
    heuristic's card among them), the points the seat's side can expect from the hand less the other sides'
    (their mean, in individual games), bags charged as the expert charges them, and the weighted share of
    sampled deals in which its contract (or its nil) held."""

    action: Action
    points: float
    holds: float
    alike: tuple[Action, ...]  # every action searched with it: cards as good as each other
    nil: bool = False  # `holds` is about a nil (the seat bid nil, or this option is a nil)


@dataclass(frozen=True, slots=True)
class Advice:
    """The expert's choice and every option it weighed, best expectation first. `nil`: the seat bid nil,
    so `holds` is about its nil, not its side's contract. `deals`: how many deals the search sampled."""

    kind: DecisionKind
    choice: Action
    options: tuple[Option, ...]
    deals: int
    nil: bool

    def option(self, action: Action) -> Option | None:
        """The option that `action` was searched as (a card as good as the one searched counts as it)."""
        return next((o for o in self.options if action in o.alike), None)

    @property
    def best(self) -> Option:
        """The expert's choice, as searched."""
        option = self.option(self.choice)
        assert option is not None
        return option


def advise(decision: Decision, think: str | None = None, also: Action | None = None) -> Advice | None:
    """The expert's advice for a bid, a card or the blind-nil question (None for any other decision, or
    where there is nothing to choose). It reads `decision.view` and `decision.legal` alone. `think`: how
    long it searches (default the process's `--think` level). `also`: a legal action to weigh with the
    others though the search would not look at it (the review's action taken); the other options' numbers
    and the choice are the same with it or without."""
    if len(decision.legal) < 2:
        return None
    budget = think_budget(think)
    # the coach's share of the playouts the expert runs at this level, with no clock cap: one view, one
    # advice, however loaded
    share = SHARE if decision.kind is DecisionKind.PLAY else BID_SHARE
    playouts = max(8, int(PLAYOUTS_PER_SECOND * budget * share))
    bot = ExpertBot(COACH_SEED, time_budget=budget, iterations=playouts, settle=SETTLE, clock=False)
    weighed = bot.weigh(decision, also)
    if weighed is None or not weighed.weights:
        return None
    view = decision.view
    mine = _bid_nil(view)
    options = []
    for i, (action, alike) in enumerate(zip(weighed.actions, weighed.alike, strict=True)):
        nil = mine or _nil_option(view, action)
        options.append(Option(action, weighed.mean(i), weighed.holds(i), alike, nil))
    choice = weighed.actions[bot.best(decision, weighed)]
    options.sort(key=lambda o: -o.points)
    return Advice(decision.kind, choice, tuple(options), len(weighed.weights), mine)


def _bid_nil(view: SeatView) -> bool:
    bid = view.bids[view.seat]
    return bid is not None and is_nil(view.rules, bid, view.blind[view.seat])


def _nil_option(view: SeatView, action: Action) -> bool:
    """Is the option a nil (a bid of nil, blind nil), so that its chance is its nil's?"""
    if isinstance(action, Bid):
        return is_nil(view.rules, action.tricks, False)
    return isinstance(action, BlindNil) and action.declare
