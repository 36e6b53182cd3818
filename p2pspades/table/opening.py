"""The opening of a game: every seat accepts the genesis, then the first-dealer draw (commitments, then
reveals) picks the first dealer, and the first hand begins (PROTOCOL.md §4.1).

A machine that knows no table: each effect sees the narrow `OpeningView`, keeps the draw in its `Opening`
(`deal.py`), and returns what should happen (`outputs.py`).
"""

from __future__ import annotations

from typing import Protocol

from p2pspades import crypto
from p2pspades.checks import Check
from p2pspades.errors import N_, Detail, LocalError, RemoteError
from p2pspades.rules import Game, RuleSet, choose_first_dealer
from p2pspades.table import messages as msg
from p2pspades.table.deal import DRAW_HAND, Opening
from p2pspades.table.events import FirstDealer
from p2pspades.table.genesis import Setup
from p2pspades.table.outputs import Begin, Enter, NewHand, Report
from p2pspades.table.stages import Stage

Outputs = list[Enter | Begin | NewHand | Report]


class OpeningView(Protocol):
    """What the opening reads of its table."""

    @property
    def seat(self) -> int | None: ...

    @property
    def seats(self) -> int: ...

    @property
    def rules(self) -> RuleSet: ...

    @property
    def game_id(self) -> bytes: ...

    @property
    def setup(self) -> Setup: ...

    @property
    def opening(self) -> Opening: ...

    @property
    def last_turn(self) -> bool:
        """Whether the entry being applied is the last turn of its stage."""

    def seed(self, number: int) -> bytes | None:
        """The seed we committed to for hand `number` (`DRAW_HAND`: the draw), if we hold it."""


def on_accept(view: OpeningView, m: msg.Accept, seat: int, seq: int) -> Outputs:
    return [Enter(Stage.DRAW_COMMIT, tuple(range(view.seats)))] if view.last_turn else []


def on_draw_commit(view: OpeningView, m: msg.DrawCommit, seat: int, seq: int) -> Outputs:
    if seat == view.seat:
        r = view.seed(DRAW_HAND)
        if r is None or crypto.draw_commitment(view.game_id, seat, r) != m.commitment:
            raise LocalError(N_("the secret of the first-dealer draw is lost; this peer cannot go on"))
    view.opening.commits[seat] = m.commitment
    return [Enter(Stage.DRAW_REVEAL, tuple(range(view.seats)))] if view.last_turn else []


def on_draw_reveal(view: OpeningView, m: msg.DrawReveal, seat: int, seq: int) -> Outputs:
    opening = view.opening
    if crypto.draw_commitment(view.game_id, seat, m.seed) != opening.commits[seat]:
        raise RemoteError(Check.REVEAL, Detail(N_("the draw reveal does not match its commitment")), seat)
    opening.reveals[seat] = m.seed
    if not view.last_turn:
        return []
    randomness = crypto.draw_randomness(view.game_id, [opening.reveals[s] for s in range(view.seats)])
    dealer = choose_first_dealer(view.rules, randomness).dealer
    after = view.setup.after
    if after is not None and after.continues:
        # a continuation: the draw is made as in every game, but the genesis names the first dealer
        game = Game(view.rules, after.dealer, after.totals)
    else:
        game = Game(view.rules, dealer)
    continues = after is not None and after.continues
    return [Report(FirstDealer(game.dealer, continues)), Begin(game), NewHand()]
