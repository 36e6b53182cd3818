"""How a table plays its own seat: the honest peer's entries, and the public seam for a modified peer.

A `Table` asks its `Makers` for each of its own automatic entries (`make`), for how long it waits for the seat
it waits for before it votes that the seat stopped answering (`limit`), for the cards its engine is told
it holds (`own_cards`), for the entry of its player's choice (`entry_for`), and for its `pass` of the cards
its player chose (`pass_cards`, rule `nil_pass`).
Makers know no table: they read the narrow `MakerView` and return the entry to sign (a `challenge`, when what
they were given to work on is wrong), which the table then checks like any other before it sends it.

The default is the honest peer. A test builds a cheater by subclassing `Makers`, overriding one method and
calling the honest one for the rest, and gives it to `Table(..., makers=...)`:

    class Tampering(Makers):
        def make(self, view, kind):
            made = super().make(view, kind)
            ...  # alter `made`: the table signs it and sends it as its own

Everything else a cheater needs of its own table is public: `Table.view` (this view), `Table.position_of`,
`Table.challenge_next`, and, for entries its own checks would refuse, `Table.sign` and `Table.emit`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Protocol

from p2pspades import crypto
from p2pspades.crypto import passing
from p2pspades.errors import LocalError, RemoteError
from p2pspades.rules import Action, Bid, BlindBid, BlindNil, Card, Draw, Game, Pass, Play, RuleSet
from p2pspades.table import messages as msg
from p2pspades.table.deal import DRAW_HAND, HandDeal
from p2pspades.table.stages import Step


class MakerView(Protocol):
    """What our makers read of our table."""

    @property
    def seat(self) -> int | None: ...

    @property
    def seats(self) -> int: ...

    @property
    def version(self) -> int: ...

    @property
    def rules(self) -> RuleSet: ...

    @property
    def game_id(self) -> bytes: ...

    @property
    def next_seq(self) -> int:
        """The slot of the entry we make (the entry before it is the one a challenge names)."""

    @property
    def timeouts(self) -> Mapping[str, float]: ...

    @property
    def game(self) -> Game: ...

    @property
    def deal(self) -> HandDeal: ...

    @property
    def hand_secrets(self) -> crypto.HandSecrets | None: ...

    def keys_due(self, seat: int) -> list[int]:
        """The positions whose keys `seat` publishes now."""

    def secret(self, number: int) -> bytes:
        """Our seed of hand `number` (`DRAW_HAND`: the first-dealer draw): the one we committed to, or a
        fresh one, which the table keeps (and reports, to be saved) before anything made with it is sent."""


class Makers:
    """The honest peer's way of playing its seat."""

    def make(self, view: MakerView, kind: type[msg.Message]) -> msg.Message:
        """Our own automatic entry of type `kind`: a challenge instead, if what we were given is wrong."""
        return MAKERS[kind](view)

    def limit(self, view: MakerView, step: Step) -> float:
        """How long we wait for the seat of `step` before we vote that it stopped answering."""
        return view.timeouts["decision" if step.decision else "auto"]

    def entry_for(self, view: MakerView, action: Action) -> msg.Message:
        """Our entry for our player's choice `action` (a card with its key, a pass with its sealed keys)."""
        if isinstance(action, Play):
            return make_play(view, action.card)
        if isinstance(action, Pass):
            return self.pass_cards(view, action.cards)
        if isinstance(action, BlindNil):
            return msg.Blind(action.declare)
        if isinstance(action, BlindBid):
            return msg.BlindBid(action.tricks)
        if isinstance(action, Bid):
            return msg.Bid(action.tricks)
        if isinstance(action, Draw):
            return msg.Draw(action.keep)
        raise LocalError(f"{action} is not a player's decision")

    def pass_cards(self, view: MakerView, cards: tuple[Card | None, ...]) -> msg.Message:
        """Our `pass` of these cards to our partner (rule `nil_pass`), as our player chose them."""
        return make_pass(view, cards)

    def own_cards(self, view: MakerView) -> tuple[Card | None, ...] | None:
        """The cards our engine is told we were dealt, in the order of our positions (None for a card it
        does not know); None if they do not open (a lock or a deal key is wrong: we challenge)."""
        assert view.seat is not None and view.hand_secrets is not None
        return view.deal.own_cards(view.seat, view.hand_secrets)


def challenge(view: MakerView, why: str) -> msg.Challenge:
    """Our challenge of the hand so far, at our turn: something only we can see is wrong, the reveal names
    who (its reason is informative, cut to its size cap)."""
    return msg.Challenge(view.next_seq - 1, why[: msg.MAX_WHY])


def make_accept(view: MakerView) -> msg.Message:
    return msg.Accept()


def make_draw_commit(view: MakerView) -> msg.Message:
    assert view.seat is not None
    return msg.DrawCommit(crypto.draw_commitment(view.game_id, view.seat, view.secret(DRAW_HAND)))


def make_draw_reveal(view: MakerView) -> msg.Message:
    return msg.DrawReveal(view.secret(DRAW_HAND))


def make_commit(view: MakerView) -> msg.Message:
    g, d = view.game, view.deal
    assert view.seat is not None
    context, seed = d.context(view.seat), view.secret(g.hand_number)
    commitment = crypto.commitment(context, seed)
    if view.version == 1:
        return msg.Commit(commitment)
    big_s = crypto.shuffle_commitment(crypto.HandSecrets.derive(seed, context, d.n))
    if view.rules.nil_pass:
        return msg.CommitPass(commitment, big_s, passing.pass_public(seed, context))
    return msg.CommitV2(commitment, big_s)


def make_shuffle(view: MakerView) -> msg.Message:
    d, my = view.deal, view.hand_secrets
    assert my is not None and view.seat is not None
    try:
        if view.version == 1:
            return msg.Shuffle(tuple(crypto.shuffle(d.shuffle_input(), my)))
        step = crypto.shuffle_step(len(d.shuffles))
        deck, proof = crypto.prove_shuffle(d.context(view.seat), step, d.shuffle_input(), my)
        return msg.ShuffleV2(tuple(deck), proof)
    except RemoteError:
        return challenge(view, "the deck I received for my shuffle holds invalid points")


def make_lock(view: MakerView) -> msg.Message:
    d, my = view.deal, view.hand_secrets
    assert my is not None and view.seat is not None
    try:
        if view.version == 1:
            return msg.Lock(tuple(crypto.lock(d.lock_input(), my)))
        step = crypto.lock_step(view.seats, len(d.locks))
        deck, commitments, proof = crypto.prove_lock(d.context(view.seat), step, d.lock_input(), my)
        return msg.LockV2(tuple(deck), tuple(commitments), proof)
    except RemoteError:
        return challenge(view, "the deck I received for my lock holds invalid points")


def make_keys(view: MakerView) -> msg.Message:
    my = view.hand_secrets
    assert my is not None and view.seat is not None
    positions = view.keys_due(view.seat)
    return msg.Keys(tuple(positions), tuple(my.lock_keys[j] for j in positions))


def make_reveal(view: MakerView) -> msg.Message:
    assert view.hand_secrets is not None
    return msg.Reveal(view.hand_secrets.seed)


def make_end(view: MakerView) -> msg.Message:
    g = view.game
    assert g.outcome is not None
    return msg.End(tuple(g.outcome.winners), tuple(side.score for side in g.totals))


Maker = Callable[[MakerView], msg.Message]
#: how the honest peer makes each of its automatic entries: one table, every type a stage takes that our
#: player does not decide
MAKERS: Mapping[type[msg.Message], Maker] = {
    msg.Accept: make_accept,
    msg.DrawCommit: make_draw_commit,
    msg.DrawReveal: make_draw_reveal,
    msg.Commit: make_commit,
    msg.Shuffle: make_shuffle,
    msg.Lock: make_lock,
    msg.Keys: make_keys,
    msg.Reveal: make_reveal,
    msg.End: make_end,
}


def position_of(view: MakerView, card: Card) -> int:
    """The deck position of `card` in our hand, not yet played."""
    assert view.seat is not None
    j = view.deal.position_of(view.seat, card)
    if j is None:
        raise LocalError(f"{card.code} is not in our hand")
    return j


def make_pass(view: MakerView, cards: tuple[Card | None, ...]) -> msg.Pass:
    """Our pass of `cards` (rule `nil_pass`): their positions, ascending, and our lock key of each sealed for
    our partner (crypto.md §20)."""
    d, my = view.deal, view.hand_secrets
    assert my is not None and view.seat is not None
    partner = (view.seat + 2) % 4
    positions = sorted(position_of(view, card) for card in cards if card is not None)
    keys = [my.lock_keys[j] for j in positions]
    own = passing.pass_key(my.seed, my.context)
    sealed = passing.seal_keys(keys, positions, own, d.pass_publics[partner], my.context, partner)
    return msg.Pass(tuple(positions), tuple(sealed))


def make_play(view: MakerView, card: Card) -> msg.Play:
    """Our play of `card`; in version 2 with its void proof when it does not follow the led suit. A card our
    partner passed us is played with its key, and proven in a void claim with it (PROTOCOL.md §7.6)."""
    g, d, my = view.game, view.deal, view.hand_secrets
    j = position_of(view, card)
    assert my is not None and view.seat is not None
    if d.received_keys:
        keys = list(my.lock_keys)
        for position, key in d.received_keys.items():
            keys[position] = key
        my = dataclasses.replace(my, lock_keys=tuple(keys))
    key = my.lock_keys[j]
    if view.version == 1:
        return msg.Play(j, key)
    positions, cards = d.void_claim(view.seat, j, card, g.hand.trick.led_suit)
    if not (view.rules.void_proofs and positions and cards):
        return msg.PlayV2(j, key, b"")
    if view.seat not in d.key_commits:
        d.key_commits[view.seat] = tuple(crypto.lock_commitments(view.hand_secrets or my))
    step = crypto.void_step(view.seats, len(d.played))
    points = [crypto.card_point(c.code) for c in cards]
    claim = d.void_positions(view.seat, positions)
    return msg.PlayV2(j, key, crypto.prove_void(d.context(view.seat), step, my, claim, points))
