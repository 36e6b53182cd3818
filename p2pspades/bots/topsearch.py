"""Information-set search at the top of the tree: the cards the other seats answer ours with, in the trick
being played, chosen in a small search tree over what those seats can see, in place of flat PIMC's.

Flat PIMC plays each of our cards out in each sampled deal as if every seat could see every card: the seats
after us answer our card knowing where all the cards are, differently in each deal. Here each of our cards is
still played out in every deal (so that the options are compared over the same deals, as in the flat
search), but the answers of the seats after us in this trick are chosen in a tree whose nodes are the cards
played so far, shared by every deal (a seat's information: what it has seen played, not the hidden hands),
each answer by the bandit rule UCB1 among the cards the deal lets that seat play, from that seat's side's
point of view. The rest of the hand is the playouts' greedy policy, as in the flat search. Each deal counts
by its weight (how well it explains the bids, `World.weight`). What it returns is a `Weighed`, chosen from
as the flat search's is.

Pure: the randomness comes in with the `Effort`, the clock only caps.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from p2pspades.bots.search import Effort, Weighed, card_options, equivalent, scored
from p2pspades.bots.simulate import Contract, Playout
from p2pspades.rules import Action, SeatView

EXPLORE = 100.0
"""UCB1's exploration constant, in points of the hand's value (a set or a nil swings it by about this)."""


@dataclass
class Node:
    """One information set in the trick: per card (a playout index), its weighted visits and value sum from
    the point of view of the seat choosing here, and how often it could be played."""

    visits: dict[int, float] = field(default_factory=dict)
    total: dict[int, float] = field(default_factory=dict)
    offered: dict[int, float] = field(default_factory=dict)

    def choose(self, cards: Sequence[int]) -> int:
        """UCB1 among the cards this deal allows: an untried one first, else the best bound."""
        best, bound = cards[0], -math.inf
        for card in cards:
            seen = self.visits.get(card, 0.0)
            if seen <= 0.0:
                return card
            value = self.total[card] / seen + EXPLORE * math.sqrt(math.log(1.0 + self.offered[card]) / seen)
            if value > bound:
                best, bound = card, value
        return best

    def update(self, cards: Sequence[int], card: int, weight: float, reward: float) -> None:
        for other in cards:
            self.offered[other] = self.offered.get(other, 0.0) + weight
        self.visits[card] = self.visits.get(card, 0.0) + weight
        self.total[card] = self.total.get(card, 0.0) + weight * reward


def weigh_top(view: SeatView, legal: Sequence[Action], effort: Effort) -> Weighed | None:
    """The top search of a card to play (None when the legal cards are all as good as each other)."""
    found = card_options(view, legal, effort)
    if found is None:
        return None
    contract, world, groups, weighed = found
    tree: dict[tuple[int, ...], Node] = {}
    rounds = max(2, effort.iterations // len(groups))
    for r in range(rounds):
        hands = world.sample(effort.rng)
        weight = world.weight(hands)
        start = effort.playout.from_view(contract, view, hands)
        deal: list[tuple[float, bool]] = []
        for group in groups:
            if r >= 2 and time.perf_counter() > effort.deadline:
                break
            deal.append(_descend(start.copy(), group[0], tree, contract, view, effort, weight))
        weighed.playouts += len(deal)
        if not weighed.add(deal, weight) or effort.done(weighed, r + 1, rounds):
            break  # out of time (this deal, cut short, is left out), or settled
    return weighed


def _descend(
    playout: Playout,
    card: int,
    tree: dict[tuple[int, ...], Node],
    contract: Contract,
    view: SeatView,
    effort: Effort,
    weight: float,
) -> tuple[float, bool]:
    """Our `card` (a deck index), the trick's answers chosen in the tree, the rest greedy: the deal's worth
    to us and whether our contract held; the answers' nodes learn it."""
    playout.play_card(card)
    key: tuple[int, ...] = (card,)
    path: list[tuple[Node, list[int], int, bool]] = []
    side = contract.side_of[view.seat]
    while playout.plays:  # the trick goes on: the next seat answers from the tree
        seat = (playout.leader + len(playout.plays)) % contract.n
        options = _options(playout)
        node = tree.setdefault(key, Node())
        answer = node.choose(options) if len(options) > 1 else options[0]
        path.append((node, options, answer, contract.side_of[seat] == side))
        playout.play(answer)
        key += (answer,)
    value, held = scored(contract, view.seat, playout.finish(), view.totals, effort.bag_weight)
    for node, options, answer, friendly in path:
        if len(options) > 1:
            node.update(options, answer, weight, value if friendly else -value)
    return value, held


def _options(playout: Playout) -> list[int]:
    """The cards the seat to move may play in the deal, one of each run of touching cards."""
    legal = playout.legal()
    cards = [c for c in range(legal.bit_length()) if legal >> c & 1]
    if len(cards) < 2:
        return cards
    mover = (playout.leader + len(playout.plays)) % playout.contract.n
    others = 0
    for seat, hand in enumerate(playout.hands):
        if seat != mover:
            others |= hand
    return [group[0] for group in equivalent(cards, ~others)]
