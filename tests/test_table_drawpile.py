"""The draw pile alone (`table/drawpile.py`): no table, no keys published, a fake view of a two-player hand
whose every lock is in, and the draws given by hand; what it says read back: whose keys are due, when the
drawer decides, and the bidding once the pile is gone.

- every draw takes two cards of the pile: the top card kept (the next one discarded unseen), or the top card
  discarded and the next one taken; each seat ends with thirteen;
- the other seat publishes its key of every card a drawer opens;
- a drawer whose card does not open challenges at its next turn.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from p2pspades import crypto
from p2pspades.rules import Game, Phase, RuleSet, preset
from p2pspades.table import drawpile
from p2pspades.table import messages as msg
from p2pspades.table.deal import DrawPile, HandDeal
from p2pspades.table.outputs import ChallengeDue, Enter
from p2pspades.table.stages import Stage

RULES = preset("two")


@dataclass
class FakeView:
    seat: int | None = None
    rules: RuleSet = RULES
    pile: DrawPile = field(default_factory=DrawPile)
    hand_secrets: crypto.HandSecrets | None = None
    game: Game = field(init=False)
    deal: HandDeal = field(init=False)

    def __post_init__(self) -> None:
        self.game = Game(self.rules, 1)
        self.deal = HandDeal(self.rules, hashlib.sha256(b"pile").digest()[:16], 1, 1)

    @property
    def seats(self) -> int:
        return self.rules.players


def test_once_every_lock_is_in_the_first_drawers_top_card_needs_the_other_seats_key() -> None:
    view = FakeView()
    (enter,) = drawpile.dealt(view)
    drawer = view.game.current_seat
    assert view.game.phase is Phase.DRAW and drawer is not None
    assert enter == Enter(Stage.KEYS, (1 - drawer,))
    assert drawpile.keys_in(view) == [Enter(Stage.DRAW)], "the top card's key is out: its drawer decides"
    assert view.pile.position == 0


def test_a_whole_pile_two_cards_a_draw_thirteen_for_each_seat_then_the_bidding() -> None:
    view = FakeView()
    out: list[Any] = drawpile.dealt(view)
    draws = 0
    while view.game.phase is Phase.DRAW:
        assert out[-1].stage is Stage.KEYS
        assert drawpile.keys_in(view) == [Enter(Stage.DRAW)]
        drawer = view.game.current_seat
        keep = draws % 3 != 0
        out = drawpile.on_draw(view, msg.Draw(keep), drawer if drawer is not None else -1, 10 + draws)
        if not keep:  # the next card is the drawer's: the other seat publishes its key too
            assert out == [Enter(Stage.KEYS, (1 - (drawer or 0),))]
            out = drawpile.keys_in(view)
        draws += 1
    assert out == [Enter(Stage.BID)] and draws == 26 and view.pile.position == 52
    owners = view.deal.owner
    assert sorted(owners.count(s) for s in (0, 1)) == [13, 13] and owners.count(None) == 26


def test_a_drawer_whose_card_does_not_open_challenges_at_its_next_turn() -> None:
    view = FakeView()
    drawpile.dealt(view)
    drawer = view.game.current_seat
    assert drawer is not None
    view.seat = drawer
    seed = hashlib.sha256(b"not the seed of this deck").digest()
    view.hand_secrets = crypto.HandSecrets.derive(seed, view.deal.context(drawer), view.deal.n)
    view.deal.locks.append((drawer, [crypto.card_point(c.code) for c in RULES.deck]))
    assert drawpile.keys_in(view) == [ChallengeDue("stock card 0 does not open: a lock or a key is wrong"),
                                      Enter(Stage.DRAW)]

