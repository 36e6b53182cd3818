"""The opening of a game: every seat accepts the genesis, then the first-dealer draw (commitments, then
reveals) picks the first dealer, and the first hand begins (PROTOCOL.md §4.1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from p2pspades import crypto
from p2pspades.checks import Check
from p2pspades.errors import LocalError, RemoteError
from p2pspades.rules import Game, choose_first_dealer
from p2pspades.table import messages as msg
from p2pspades.table.effects import effect
from p2pspades.table.events import FirstDealer
from p2pspades.table.stages import Stage

if TYPE_CHECKING:
    from p2pspades.table.machine import Table

DRAW_HAND = 0  # the "hand number" of the first-dealer draw secret


@dataclass
class Opening:
    """The first-dealer draw: each seat's commitment, then its revealed seed."""

    commits: dict[int, bytes] = field(default_factory=dict)
    reveals: dict[int, bytes] = field(default_factory=dict)


@effect(msg.Accept)
def on_accept(t: Table, m: msg.Accept, seat: int, seq: int) -> None:
    if t.next_turn():
        t.enter(Stage.DRAW_COMMIT, range(t.seats))


@effect(msg.DrawCommit)
def on_draw_commit(t: Table, m: msg.DrawCommit, seat: int, seq: int) -> None:
    if seat == t.seat:
        r = t.secrets.get(DRAW_HAND)
        if r is None or crypto.draw_commitment(t.game_id, seat, r) != m.commitment:
            raise LocalError("the secret of the first-dealer draw is lost; this peer cannot go on")
    t.opening.commits[seat] = m.commitment
    if t.next_turn():
        t.enter(Stage.DRAW_REVEAL, range(t.seats))


@effect(msg.DrawReveal)
def on_draw_reveal(t: Table, m: msg.DrawReveal, seat: int, seq: int) -> None:
    if crypto.draw_commitment(t.game_id, seat, m.seed) != t.opening.commits[seat]:
        raise RemoteError(Check.REVEAL, "the draw reveal does not match its commitment", seat)
    t.opening.reveals[seat] = m.seed
    if t.next_turn():
        randomness = crypto.draw_randomness(t.game_id, [t.opening.reveals[s] for s in range(t.seats)])
        t.first_dealer = choose_first_dealer(t.rules, randomness).dealer
        after = t.setup.after
        if after is not None and after.continues:
            # a continuation: the draw is made as in every game, but the genesis names the first dealer
            t.first_dealer = after.dealer
            t.game = Game(t.rules, t.first_dealer, after.totals)
        else:
            t.game = Game(t.rules, t.first_dealer)
        t.report(FirstDealer(t.first_dealer, after is not None and after.continues))
        t.start_hand()
