"""How a table plays its own seat: the honest peer's entries, and the public seam for a modified peer.

A `Table` asks its `Makers` for each of its own automatic entries (`make`), for how long it waits for the seat
it waits for before it votes that the seat stopped answering (`limit`), for the cards its engine is told
it holds (`own_cards`), and for its `pass` of the cards its player chose (`pass_cards`, rule `nil_pass`).
The default is the honest peer. A test builds a cheater by subclassing `Makers`, overriding one method and
calling the honest one for the rest, and gives it to `Table(..., makers=...)`:

    class Tampering(Makers):
        def make(self, table, kind):
            made = super().make(table, kind)
            ...  # alter `made`: the table signs it and sends it as its own

Everything a cheater needs of its own table is public: `Table.deal`, `Table.hand_secrets`,
`Table.position_of`, `Table.challenge_next`, and, for entries its own checks would refuse, `Table.sign`
and `Table.emit`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from p2pspades import crypto
from p2pspades.crypto import passing
from p2pspades.errors import RemoteError
from p2pspades.rules import Card
from p2pspades.table import messages as msg
from p2pspades.table.deal import DRAW_HAND
from p2pspades.table.stages import Step

if TYPE_CHECKING:
    from p2pspades.table.machine import Table

Maker = Callable[["Table"], "msg.Message | None"]
#: how the honest peer makes each of its automatic entries (None: a challenge is due instead)
MAKERS: dict[type[msg.Message], Maker] = {}


class Makers:
    """The honest peer's way of playing its seat."""

    def make(self, table: Table, kind: type[msg.Message]) -> msg.Message | None:
        """Our own automatic entry of type `kind`; None when a challenge is due instead (`challenge_next`)."""
        return MAKERS[kind](table)

    def limit(self, table: Table, step: Step) -> float:
        """How long we wait for the seat of `step` before we vote that it stopped answering."""
        return table.timeouts["decision" if step.decision else "auto"]

    def pass_cards(self, table: Table, cards: tuple[Card | None, ...]) -> msg.Message:
        """Our `pass` of these cards to our partner (rule `nil_pass`), as our player chose them."""
        return make_pass(table, cards)

    def own_cards(self, table: Table) -> tuple[Card | None, ...] | None:
        """The cards our engine is told we were dealt, in the order of our positions (None for a card it
        does not know); None if they do not open (a lock or a deal key is wrong: we challenge)."""
        assert table.seat is not None and table.hand_secrets is not None
        return table.hand_deal().own_cards(table.seat, table.hand_secrets)


def _maker(cls: type[msg.Message]) -> Callable[[Maker], Maker]:
    def register(fn: Maker) -> Maker:
        MAKERS[cls] = fn
        return fn

    return register


@_maker(msg.Accept)
def make_accept(t: Table) -> msg.Message:
    return msg.Accept()


@_maker(msg.DrawCommit)
def make_draw_commit(t: Table) -> msg.Message:
    assert t.seat is not None
    return msg.DrawCommit(crypto.draw_commitment(t.game_id, t.seat, t.secret(DRAW_HAND)))


@_maker(msg.DrawReveal)
def make_draw_reveal(t: Table) -> msg.Message:
    return msg.DrawReveal(t.secret(DRAW_HAND))


@_maker(msg.Commit)
def make_commit(t: Table) -> msg.Message:
    g, d = t.game_now(), t.hand_deal()
    assert t.seat is not None
    context, seed = d.context(t.seat), t.secret(g.hand_number)
    commitment = crypto.commitment(context, seed)
    if t.version == 1:
        return msg.Commit(commitment)
    big_s = crypto.shuffle_commitment(crypto.HandSecrets.derive(seed, context, d.n))
    if t.rules.nil_pass:
        return msg.CommitPass(commitment, big_s, passing.pass_public(seed, context))
    return msg.CommitV2(commitment, big_s)


@_maker(msg.Shuffle)
def make_shuffle(t: Table) -> msg.Message | None:
    d, my = t.hand_deal(), t.hand_secrets
    assert my is not None and t.seat is not None
    try:
        if t.version == 1:
            return msg.Shuffle(tuple(crypto.shuffle(d.shuffle_input(), my)))
        step = crypto.shuffle_step(len(d.shuffles))
        deck, proof = crypto.prove_shuffle(d.context(t.seat), step, d.shuffle_input(), my)
        return msg.ShuffleV2(tuple(deck), proof)
    except RemoteError:
        t.challenge_next("the deck I received for my shuffle holds invalid points")
        return None


@_maker(msg.Lock)
def make_lock(t: Table) -> msg.Message | None:
    d, my = t.hand_deal(), t.hand_secrets
    assert my is not None and t.seat is not None
    try:
        if t.version == 1:
            return msg.Lock(tuple(crypto.lock(d.lock_input(), my)))
        step = crypto.lock_step(t.seats, len(d.locks))
        deck, commitments, proof = crypto.prove_lock(d.context(t.seat), step, d.lock_input(), my)
        return msg.LockV2(tuple(deck), tuple(commitments), proof)
    except RemoteError:
        t.challenge_next("the deck I received for my lock holds invalid points")
        return None


@_maker(msg.Keys)
def make_keys(t: Table) -> msg.Message:
    d, my = t.hand_deal(), t.hand_secrets
    assert my is not None and t.seat is not None
    positions = d.keys_due(t.seat) if t.rules.deal == "all" else t.pile.keys_due()
    return msg.Keys(tuple(positions), tuple(my.lock_keys[j] for j in positions))


@_maker(msg.Reveal)
def make_reveal(t: Table) -> msg.Message:
    assert t.hand_secrets is not None
    return msg.Reveal(t.hand_secrets.seed)


@_maker(msg.End)
def make_end(t: Table) -> msg.Message:
    g = t.game_now()
    assert g.outcome is not None
    return msg.End(tuple(g.outcome.winners), tuple(side.score for side in g.totals))


def make_pass(t: Table, cards: tuple[Card | None, ...]) -> msg.Pass:
    """Our pass of `cards` (rule `nil_pass`): their positions, ascending, and our lock key of each sealed for
    our partner (crypto.md §20)."""
    d, my = t.hand_deal(), t.hand_secrets
    assert my is not None and t.seat is not None
    partner = (t.seat + 2) % 4
    positions = sorted(t.position_of(card) for card in cards if card is not None)
    keys = [my.lock_keys[j] for j in positions]
    own = passing.pass_key(my.seed, my.context)
    sealed = passing.seal_keys(keys, positions, own, d.pass_publics[partner], my.context, partner)
    return msg.Pass(tuple(positions), tuple(sealed))


def make_play(t: Table, card: Card) -> msg.Play:
    """Our play of `card`; in version 2 with its void proof when it does not follow the led suit. A card our
    partner passed us is played with its key, and proven in a void claim with it (PROTOCOL.md §7.6)."""
    g, d, my = t.game_now(), t.hand_deal(), t.hand_secrets
    j = t.position_of(card)
    assert my is not None and t.seat is not None
    if d.received_keys:
        keys = list(my.lock_keys)
        for position, key in d.received_keys.items():
            keys[position] = key
        my = dataclasses.replace(my, lock_keys=tuple(keys))
    key = my.lock_keys[j]
    if t.version == 1:
        return msg.Play(j, key)
    positions, cards = d.void_claim(t.seat, j, card, g.hand.trick.led_suit)
    if not (t.rules.void_proofs and positions and cards):
        return msg.PlayV2(j, key, b"")
    if t.seat not in d.key_commits:
        d.key_commits[t.seat] = tuple(crypto.lock_commitments(t.hand_secrets or my))
    step = crypto.void_step(t.seats, len(d.played))
    points = [crypto.card_point(c.code) for c in cards]
    claim = d.void_positions(t.seat, positions)
    return msg.PlayV2(j, key, crypto.prove_void(d.context(t.seat), step, my, claim, points))
