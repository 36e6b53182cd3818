"""The draw pile of the two-player game (rule `deal = "draw"`, PROTOCOL.md §4.4): before the bidding, the
drawer sees the top card and keeps it or discards it for the one under it. For each card a drawer opens, the
other seats publish their keys of its position; a discarded card's drawer opens the next card too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pspades.errors import RemoteError
from p2pspades.rules import Card, Deal, Draw, Phase
from p2pspades.table import messages as msg
from p2pspades.table.effects import effect
from p2pspades.table.stages import Stage

if TYPE_CHECKING:
    from p2pspades.table.deal import HandDeal
    from p2pspades.table.machine import Table


class DrawPile:
    """Where the pile is: the position of the card the next keys are for."""

    def __init__(self) -> None:
        self.position = 0

    def keys_due(self) -> list[int]:
        """The positions each key holder publishes now: the pile's next card."""
        return [self.position]

    def dealt(self, t: Table) -> None:
        """Every lock is in: nothing is dealt yet, and the first drawer needs the top card's keys."""
        stock = tuple(None for _ in range(t.hand_deal().n))
        t.game_now().apply(Deal(tuple(() for _ in range(t.seats)), stock))
        self.next_draw(t)

    def keys_in(self, t: Table) -> None:
        """Every other seat published its key of the pile's card: its drawer opens it."""
        position = self.position
        self.learn(t, position)
        if position % 2 == 1:  # the second card of a discard: the drawer took it, the next draw begins
            self.position += 1
            self.next_draw(t)
        else:  # the top card: its drawer decides
            t.to_engine()

    def next_draw(self, t: Table) -> None:
        """The next drawer needs the top card, so the other seats publish its keys; or the bidding begins."""
        g, d = t.game_now(), t.hand_deal()
        if g.phase is not Phase.DRAW:
            t.to_engine()
            return
        t.enter(Stage.KEYS, [s for s in d.order if s != g.current_seat])

    def learn(self, t: Table, position: int) -> None:
        """All other keys for a pile position are out: its drawer opens it."""
        g, d = t.game_now(), t.hand_deal()
        drawer = g.current_seat if position % 2 == 0 else d.owner[position]
        if drawer is None or drawer != t.seat:
            return
        opened = _open(t, d, drawer, position)
        if opened is None:
            t.challenge_next(f"stock card {position} does not open: a lock or a key is wrong")
        else:
            g.learn(position, opened)


def _open(t: Table, d: HandDeal, drawer: int, position: int) -> Card | None:
    my = t.hand_secrets
    assert my is not None
    try:
        opened = d.open_own(drawer, my, [position])
    except RemoteError:  # an invalid point in the stock: a lock was poisoned
        return None
    return None if opened is None else opened[position]


@effect(msg.Draw)
def on_draw(t: Table, m: msg.Draw, seat: int, seq: int) -> None:
    g, d, pile = t.game_now(), t.hand_deal(), t.pile
    g.apply(Draw(m.keep))
    d.owner[pile.position if m.keep else pile.position + 1] = seat
    if m.keep:
        pile.position += 2
        pile.next_draw(t)
    else:
        pile.position += 1
        t.enter(Stage.KEYS, [s for s in d.order if s != seat])
