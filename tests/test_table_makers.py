"""Our makers alone (`table/makers.py`): no table, a fake view of our seat's hand, and the entries they make
read back. (Entries made by them and taken by every seat's hand: `test_table_hand.py`.)

- a commitment is to the seed of the hand, in the form of the game's protocol version and rules;
- a deck that holds invalid points is not shuffled or locked: we challenge, naming the entry before ours;
- our player's choice becomes its entry; a card we do not hold is our own mistake, not a peer's;
- how long we wait for a seat is the timeout in force for what it has to do.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

import pytest

from p2pspades import crypto
from p2pspades.crypto import passing
from p2pspades.errors import LocalError
from p2pspades.rules import Bid, BlindBid, BlindNil, Card, Draw, Game, Play, RuleSet, preset
from p2pspades.table import messages as msg
from p2pspades.table.deal import DrawPile, HandDeal
from p2pspades.table.events import DecisionKind
from p2pspades.table.makers import MAKERS, Makers, challenge
from p2pspades.table.stages import Step

GAME = hashlib.sha256(b"makers alone").digest()[:16]


@dataclass
class FakeView:
    rules: RuleSet = field(default_factory=lambda: preset("classic"))
    seat: int | None = 1
    version: int = 2
    game_id: bytes = GAME
    next_seq: int = 33
    timeouts: Mapping[str, float] = field(default_factory=lambda: {"auto": 60.0, "decision": 600.0})
    hand_secrets: crypto.HandSecrets | None = None
    pile: DrawPile = field(default_factory=DrawPile)
    game: Game = field(init=False)
    deal: HandDeal = field(init=False)

    def __post_init__(self) -> None:
        self.game = Game(self.rules, 0)
        self.deal = HandDeal(self.rules, GAME, self.game.hand_number, 0)
        seed = self.secret(self.game.hand_number)
        assert self.seat is not None
        self.hand_secrets = crypto.HandSecrets.derive(seed, self.deal.context(self.seat), self.deal.n)

    @property
    def seats(self) -> int:
        return self.rules.players

    def secret(self, number: int) -> bytes:
        return hashlib.sha256(b"our seed %d" % number).digest()

    def keys_due(self, seat: int) -> list[int]:
        return self.deal.keys_due(seat)


def test_our_commitment_binds_the_seed_of_the_hand_in_the_games_form() -> None:
    view = FakeView()
    context, seed = view.deal.context(1), view.secret(view.game.hand_number)
    made = MAKERS[msg.Commit](view)
    assert isinstance(made, msg.CommitV2) and made.commitment == crypto.commitment(context, seed)
    assert made.shuffle_commitment == crypto.shuffle_commitment(crypto.HandSecrets.derive(seed, context, 52))
    assert type(MAKERS[msg.Commit](FakeView(version=1))) is msg.Commit
    passed = MAKERS[msg.Commit](FakeView(rules=preset("classic", nil_pass=1)))
    assert isinstance(passed, msg.CommitPass) and passed.pass_public == passing.pass_public(seed, context)


@pytest.mark.parametrize("version", [1, 2])
def test_a_deck_that_holds_invalid_points_is_not_shuffled_or_locked_we_challenge(version: int) -> None:
    view = FakeView(version=version)
    poisoned = [crypto.IDENTITY] * view.deal.n
    view.deal.shuffles.append((0, poisoned))
    for kind, step in ((msg.Shuffle, "shuffle"), (msg.Lock, "lock")):
        why = f"the deck I received for my {step} holds invalid points"
        assert MAKERS[kind](view) == msg.Challenge(32, why)


def test_a_challenge_names_the_entry_before_ours_and_its_reason_is_cut_to_its_cap() -> None:
    assert challenge(FakeView(), "why " * 100) == msg.Challenge(32, ("why " * 100)[: msg.MAX_WHY])


def test_our_players_choice_becomes_its_entry() -> None:
    view, makers = FakeView(), Makers()
    assert makers.entry_for(view, Bid(4)) == msg.Bid(4)
    assert makers.entry_for(view, BlindNil(True)) == msg.Blind(True)
    assert makers.entry_for(view, BlindBid(7)) == msg.BlindBid(7)
    assert makers.entry_for(view, Draw(False)) == msg.Draw(False)
    with pytest.raises(LocalError, match="is not in our hand"):
        makers.entry_for(view, Play(Card.parse("AS")))


def test_we_wait_for_a_seat_the_timeout_in_force_for_what_it_has_to_do() -> None:
    view, makers = FakeView(), Makers()
    assert makers.limit(view, Step(2, (msg.Bid,), DecisionKind.BID)) == 600.0
    assert makers.limit(view, Step(2, (msg.Shuffle,))) == 60.0
