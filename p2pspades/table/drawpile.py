"""The draw pile of the two-player game (rule `deal = "draw"`, PROTOCOL.md §4.4): before the bidding, the
drawer sees the top card and keeps it or discards it for the one under it. For each card a drawer opens, the
other seats publish their keys of its position; a discarded card's drawer opens the next card too.

A machine that knows no table: it keeps where the pile is (`deal.DrawPile`), drives the rules engine
through the draws, sees only the narrow `PileView`, and returns where the table goes next (`outputs.py`).
"""

from __future__ import annotations

from typing import Protocol

from p2pspades import crypto
from p2pspades.errors import RemoteError
from p2pspades.rules import Card, Deal, Draw, Game, Phase, RuleSet
from p2pspades.table import messages as msg
from p2pspades.table.deal import DrawPile, HandDeal
from p2pspades.table.outputs import ChallengeDue, Enter
from p2pspades.table.stages import Stage, engine_stage

Outputs = list[Enter | ChallengeDue]


class PileView(Protocol):
    """What the draw pile reads of its table."""

    @property
    def seat(self) -> int | None: ...

    @property
    def seats(self) -> int: ...

    @property
    def rules(self) -> RuleSet: ...

    @property
    def game(self) -> Game: ...

    @property
    def deal(self) -> HandDeal: ...

    @property
    def pile(self) -> DrawPile: ...

    @property
    def hand_secrets(self) -> crypto.HandSecrets | None: ...


def dealt(view: PileView) -> Outputs:
    """Every lock is in: nothing is dealt yet, and the first drawer needs the top card's keys."""
    stock = tuple(None for _ in range(view.deal.n))
    view.game.apply(Deal(tuple(() for _ in range(view.seats)), stock))
    return next_draw(view)


def keys_in(view: PileView) -> Outputs:
    """Every other seat published its key of the pile's card: its drawer opens it."""
    pile = view.pile
    position = pile.position
    out = learn(view, position)
    if position % 2 == 1:  # the second card of a discard: the drawer took it, the next draw begins
        pile.position += 1
        return out + next_draw(view)
    return [*out, _to_engine(view)]  # the top card: its drawer decides


def next_draw(view: PileView) -> Outputs:
    """The next drawer needs the top card, so the other seats publish its keys; or the bidding begins."""
    g, d = view.game, view.deal
    if g.phase is not Phase.DRAW:
        return [_to_engine(view)]
    return [Enter(Stage.KEYS, tuple(s for s in d.order if s != g.current_seat))]


def learn(view: PileView, position: int) -> Outputs:
    """All other keys for a pile position are out: its drawer opens it."""
    g, d = view.game, view.deal
    drawer = g.current_seat if position % 2 == 0 else d.owner[position]
    if drawer is None or drawer != view.seat:
        return []
    opened = _open(view, d, drawer, position)
    if opened is None:
        return [ChallengeDue(f"stock card {position} does not open: a lock or a key is wrong")]
    g.learn(position, opened)
    return []


def _open(view: PileView, d: HandDeal, drawer: int, position: int) -> Card | None:
    my = view.hand_secrets
    assert my is not None
    try:
        opened = d.open_own(drawer, my, [position])
    except RemoteError:  # an invalid point in the stock: a lock was poisoned
        return None
    return None if opened is None else opened[position]


def _to_engine(view: PileView) -> Enter:
    return Enter(engine_stage(view.game, view.rules, view.deal))


def on_draw(view: PileView, m: msg.Draw, seat: int, seq: int) -> Outputs:
    g, d, pile = view.game, view.deal, view.pile
    g.apply(Draw(m.keep))
    d.owner[pile.position if m.keep else pile.position + 1] = seat
    if m.keep:
        pile.position += 2
        return next_draw(view)
    pile.position += 1
    return [Enter(Stage.KEYS, tuple(s for s in d.order if s != seat))]
