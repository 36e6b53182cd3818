"""The coach: the expert's search, shown to the person it plays for.

`advise(decision)` runs the expert bot's own search (`ExpertBot.weigh`) for a bid or a card, from the
decision's view alone (what the seat may know: its own cards, the bids, the cards played, the voids shown),
and says what it expects of each option: the points the seat's side can expect from the hand, and in how many
of the sampled deals its contract holds (its nil, for a nil bidder). The choice it names is the one the
expert bot would make in that seat.

Nothing here sees hidden cards: the search deals the unseen cards many times over, consistently with the
view. One view gives one advice (the search's generator is seeded from the view), so a hint and a review of
the same position agree, whatever the other seats hold.

The search is as long as the expert bots' (`--think`: fast, normal or deep).
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pspades.bots.expert import PLAYOUTS_PER_SECOND, ExpertBot
from p2pspades.bots.registry import think_budget
from p2pspades.rules import Action, Bid, Play, RuleSet, SeatView, bid_notation, is_nil
from p2pspades.table.events import Decision

COACH_SEED = b"p2pspades/coach"
"""The coach's search is seeded from this and the view, so one position always gets one advice."""
UNCAPPED = 50
"""The coach's clock cap, in budgets: far beyond the time its playouts take, so that the count of playouts,
never the clock, ends its search (the expert bot's cap is 0.9 of its budget)."""


@dataclass(frozen=True, slots=True)
class Option:
    """One option searched: the action (the lowest of cards that are as good as each other), the points the
    seat's side can expect from the hand, and the share of sampled deals in which its contract (or its nil)
    held."""

    action: Action
    label: str  # as the screen writes it: "Q♠", "bid 4", "bid nil"
    points: float
    holds: float
    alike: tuple[Action, ...]  # every action searched with it: cards as good as each other
    nil: bool = False  # `holds` is about the seat's nil (it bid nil, or this option is nil)


@dataclass(frozen=True, slots=True)
class Advice:
    """The expert's choice and every option it weighed, best expectation first. `nil`: the seat bid nil,
    so `holds` is about its nil, not its side's contract. `deals`: how many deals the search sampled."""

    choice: Action
    options: tuple[Option, ...]
    deals: int
    nil: bool

    def option(self, action: Action) -> Option | None:
        """The option that `action` was searched as (a card as good as the one searched counts as it)."""
        return next((o for o in self.options if action in o.alike), None)


def action_text(action: Action, rules: RuleSet) -> str:
    """A card as the screen shows it (Q♠), a bid as the score sheet writes it (bid 4, bid nil)."""
    if isinstance(action, Play):
        return action.card.glyph
    if isinstance(action, Bid):
        return "bid " + bid_notation(action.tricks, False, rules)
    return str(action)


def advise(decision: Decision, think: str | None = None) -> Advice | None:
    """The expert's advice for a bid or a card (None for any other decision, or where there is nothing to
    choose). It reads `decision.view` and `decision.legal` alone. `think`: how long it searches (default the
    process's `--think` level)."""
    if len(decision.legal) < 2:
        return None
    budget = think_budget(think)
    # the playouts the expert runs at this level, with no clock cap: one view, one advice, however loaded
    playouts = max(8, int(PLAYOUTS_PER_SECOND * budget))
    bot = ExpertBot(COACH_SEED, time_budget=budget * UNCAPPED, iterations=playouts)
    weighed = bot.weigh(decision)
    if weighed is None or not weighed.weights:
        return None
    total = sum(weighed.weights)
    rules = decision.view.rules
    mine = _bid_nil(decision.view)
    options = []
    rows = zip(weighed.actions, weighed.values, weighed.alike, strict=True)
    for i, (action, values, alike) in enumerate(rows):
        points = sum(w * v for w, v in zip(weighed.weights, values, strict=True)) / total
        nil = mine or (isinstance(action, Bid) and is_nil(rules, action.tricks, False))
        options.append(Option(action, action_text(action, rules), points, weighed.holds(i), alike, nil))
    best = bot.best(decision, weighed)
    choice = weighed.actions[best]
    options.sort(key=lambda o: -o.points)
    return Advice(choice, tuple(options), len(weighed.weights), mine)


def _bid_nil(view: SeatView) -> bool:
    bid = view.bids[view.seat]
    return bid is not None and is_nil(view.rules, bid, view.blind[view.seat])
