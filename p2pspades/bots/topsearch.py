"""Information-set search at the top of the tree: the card to play chosen by a small search tree over what
every seat can see, in place of flat PIMC.

Flat PIMC plays each of our cards out in each sampled deal as if every seat, ours included, could see every
card: the seats after us answer our card knowing where all the cards are. Here the cards of the trick being
played, ours and the answers of the seats after us, are chosen in a tree whose nodes are the cards played so
far, shared by every deal (a seat's information: what it has seen played, not the hidden hands), each choice
by the bandit rule UCB1 among the cards the deal lets that seat play, from that seat's side's point of view.
The rest of the hand is the playouts' greedy policy, as in the flat search. One deal, one path down the tree;
each deal counts by its weight (how well it explains the bids, `World.weight`). The card with the best mean
at the root is played.

Pure: the randomness comes in with the `Effort`, the clock only caps.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from p2pspades.bots.search import Effort, equivalent, scored
from p2pspades.bots.simulate import Contract, Playout
from p2pspades.bots.world import World
from p2pspades.rules import Action, Play, SeatView

EXPLORE = 40.0
"""UCB1's exploration constant, in points of the hand's value (a hand's values spread over about this)."""


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


def choose_top(view: SeatView, legal: Sequence[Action], effort: Effort) -> Action | None:
    """The card the top search plays (None when the legal cards are all as good as each other)."""
    plays = {a.card.index: a for a in legal if isinstance(a, Play)}
    if len(plays) < 2:
        return None
    rules = view.rules
    contract = Contract(rules, tuple(b if b is not None else 0 for b in view.bids), view.blind)
    world = World(view, effort.seen, effort.infer)
    groups = equivalent(list(plays), rules.deck_mask & ~world.unseen, contract.relabel)
    if len(groups) < 2:
        return None
    relabel = contract.relabel
    ours = [g[0] if relabel is None else relabel.index[g[0]] for g in groups]
    tree: dict[tuple[int, ...], Node] = {}
    side = contract.side_of[view.seat]
    for k in range(max(2, effort.iterations)):
        if k >= 2 and time.perf_counter() > effort.deadline:
            break
        hands = world.sample(effort.rng)
        weight = world.weight(hands)
        playout = Playout.from_view(contract, view, hands)
        path: list[tuple[Node, list[int], int, bool]] = []
        key: tuple[int, ...] = ()
        while True:
            seat = (playout.leader + len(playout.plays)) % contract.n
            cards = ours if not key else _options(playout)
            node = tree.setdefault(key, Node())
            card = node.choose(cards)
            path.append((node, cards, card, contract.side_of[seat] == side))
            playout.play(card)
            key += (card,)
            if not playout.plays:  # the trick is over: the rest is the greedy policy's
                break
        value, _ = scored(contract, view.seat, playout.finish(), view.totals, effort.bag_weight)
        for node, cards, card, ours_side in path:
            node.update(cards, card, weight, value if ours_side else -value)
    root = tree.get((), Node())
    best = max(ours, key=lambda c: root.total.get(c, -math.inf) / max(root.visits.get(c, 0.0), 1e-9))
    return plays[best if relabel is None else relabel.card(best)]


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
