"""The hand alone (`table/hand.py`), with our makers (`table/makers.py`): no table, no genesis, no signed
envelope, no chain. Each seat is a fake view holding its own deal and rules engine; the test wires them as
h11's tests wire two connections: the seat in turn makes its entry with the honest makers, every seat's hand
takes it, and the outputs are read back (the stage entered, our secrets, the cards our engine is told of).

- a whole deal of a version 2 game, commitments to keys: every seat's engine knows its own cards, and only
  its own; every shuffle and lock proof went through the view's proof runner;
- a lock that does not lock, or a commitment that is no point, is its signer's fault;
- a challenge on the first lead (rule "low_club") opens the lead claim; a challenge that every step
  answers names its challenger once every seed is out;
- the draw pile and the deal of every card are other machines' turns: the hand says so.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from p2pspades import crypto
from p2pspades.checks import Check
from p2pspades.errors import RemoteError
from p2pspades.rules import Game, Outcome, Phase, RuleSet, Termination, preset
from p2pspades.table import hand
from p2pspades.table import messages as msg
from p2pspades.table.deal import DrawPile, HandDeal, ProofCheck
from p2pspades.table.events import ChallengeRaised
from p2pspades.table.makers import MAKERS, Makers
from p2pspades.table.outputs import ChallengeDue, Complete, Enter, Halt, Report
from p2pspades.table.stages import LeadClaim, Stage

GAME = hashlib.sha256(b"hand alone").digest()[:16]
RULES = preset("classic")


@dataclass
class Seat:
    """One seat's table as its hand and makers see it (`seat` None: an observer)."""

    seat: int | None
    rules: RuleSet = RULES
    version: int = 2
    game_id: bytes = GAME
    stage: Stage = Stage.COMMIT
    last_turn: bool = False
    hand_secrets: crypto.HandSecrets | None = None
    last_progress: float = 0.0
    timeouts: Mapping[str, float] = field(default_factory=lambda: {"auto": 60.0, "decision": 600.0})
    lead_claim: LeadClaim | None = None
    pile: DrawPile = field(default_factory=DrawPile)
    next_seq: int = 20
    entries: dict[int, bytes] = field(default_factory=dict)
    proofs: list[ProofCheck] = field(default_factory=list)
    game: Game = field(init=False)
    deal: HandDeal = field(init=False)

    def __post_init__(self) -> None:
        self.game = Game(self.rules, 0)
        self.deal = HandDeal(self.rules, self.game_id, self.game.hand_number, self.game.dealer)

    @property
    def seats(self) -> int:
        return self.rules.players

    def seed(self, number: int) -> bytes | None:
        return None if self.seat is None else hashlib.sha256(b"seed" + bytes([self.seat, number])).digest()

    def secret(self, number: int) -> bytes:
        seed = self.seed(number)
        assert seed is not None
        return seed

    def entry(self, seq: int) -> bytes:
        return self.entries.get(seq, b"entry %d" % seq)

    def check_proof(self, check: ProofCheck) -> None:
        self.proofs.append(check)
        check()

    def keys_due(self, seat: int) -> list[int]:
        return self.deal.keys_due(seat) if self.rules.deal == "all" else self.pile.keys_due()


#: the hand's effects this test gives entries to (a version 2 form takes its version 1 type's)
EFFECTS: dict[type[msg.Message], Callable[[Seat, Any, int, int], list[hand.Output]]] = {
    msg.Commit: hand.on_commit, msg.Shuffle: hand.on_shuffle, msg.Lock: hand.on_lock, msg.Keys: hand.on_keys,
    msg.Reveal: hand.on_reveal,
}


def table_of(seats: int = 4, **kwargs: Any) -> list[Seat]:
    """Every seat's view, and an observer's last."""
    return [Seat(s, **kwargs) for s in range(seats)] + [Seat(None, **kwargs)]


def everyone_takes(views: list[Seat], m: msg.Message, seat: int, last: bool) -> list[hand.Output]:
    """Every view's hand takes `m` from `seat`; what each says is carried out the way the table would (our
    secrets kept, the stage entered), and the observer's outputs returned."""
    out: list[hand.Output] = []
    effect = EFFECTS[next(c for c in type(m).__mro__ if c in EFFECTS)]
    for view in views:
        view.last_turn = last
        out = effect(view, m, seat, view.next_seq)
        for said in out:
            if isinstance(said, hand.OwnSecrets):
                view.hand_secrets = said.secrets
            elif isinstance(said, Enter):
                view.stage = said.stage
            elif isinstance(said, hand.Dealt):
                for dealt in hand.deal_all(view, None if view.seat is None else Makers().own_cards(view)):
                    assert isinstance(dealt, Enter)
                    view.stage = dealt.stage
        view.next_seq += 1
    return out


def in_turn(views: list[Seat], kind: type[msg.Message]) -> list[hand.Output]:
    """Each seat of the deal's order makes its entry of `kind` and everyone takes it; the last's outputs."""
    order = views[0].deal.order
    out: list[hand.Output] = []
    for i, seat in enumerate(order):
        out = everyone_takes(views, MAKERS[kind](views[seat]), seat, last=i == len(order) - 1)
    return out


def dealt(views: list[Seat]) -> None:
    steps: list[tuple[type[msg.Message], Stage]] = [(msg.Commit, Stage.SHUFFLE), (msg.Shuffle, Stage.LOCK),
                                                    (msg.Lock, Stage.KEYS)]
    for kind, stage in steps:
        assert in_turn(views, kind) == [Enter(stage, views[0].deal.order)]
    in_turn(views, msg.Keys)


def test_a_whole_deal_opens_every_seats_own_cards_and_no_others() -> None:
    views = table_of()
    dealt(views)
    for view in views:
        assert view.stage is Stage.BID and view.game.phase is Phase.BID
        for seat in range(4):
            known = [c for c in view.game.hand.hand(seat) if c is not None]
            assert len(known) == (13 if seat == view.seat else 0), (view.seat, seat)
    observer = views[-1]
    assert len(observer.proofs) == 8, "every shuffle and every lock proven, through the view's runner"
    assert all(view.hand_secrets is not None for view in views[:4]) and observer.hand_secrets is None


def test_a_lock_that_copies_a_position_is_refused_at_the_lock_naming_its_seat() -> None:
    views = table_of()
    order = views[0].deal.order
    in_turn(views, msg.Commit)
    in_turn(views, msg.Shuffle)
    locker = order[0]
    honest = MAKERS[msg.Lock](views[locker])
    assert isinstance(honest, msg.LockV2)
    copied = msg.LockV2((honest.deck[1], *honest.deck[1:]), honest.commitments, honest.proof)
    observer = views[-1]
    with pytest.raises(RemoteError) as caught:
        hand.on_lock(observer, copied, locker, 30)
    assert (caught.value.seat, caught.value.check) == (locker, Check.LOCK)


def test_a_commitment_whose_shuffle_key_is_no_point_is_its_signers_fault() -> None:
    observer = table_of()[-1]
    bad = msg.CommitV2(bytes(32), crypto.IDENTITY)
    with pytest.raises(RemoteError) as caught:
        hand.on_commit(observer, bad, 2, 5)
    assert (caught.value.seat, caught.value.check) == (2, Check.COMMIT)


def test_the_deal_of_every_card_and_the_draw_pile_are_the_turns_of_other_machines() -> None:
    views = table_of(seats=2, rules=preset("two"))
    in_turn(views, msg.Commit)
    in_turn(views, msg.Shuffle)
    assert in_turn(views, msg.Lock) == [hand.PileDealt()]
    publisher = views[0].deal.order[0]  # the top card's keys: the seat that is not its drawer's
    keys = MAKERS[msg.Keys](views[publisher])
    assert isinstance(keys, msg.Keys) and keys.positions == (0,)
    for view in views:
        view.last_turn = True
        assert hand.on_keys(view, keys, publisher, 50) == [hand.PileKeysIn()]
    seats = table_of()
    for step in (msg.Commit, msg.Shuffle, msg.Lock):
        in_turn(seats, step)
    observer = seats[-1]
    assert hand.deal_all(observer, None) == [Enter(Stage.BID)], "an observer is told no card, challenges none"


def test_our_cards_that_do_not_open_are_a_challenge_at_our_next_turn() -> None:
    views = table_of()
    order = views[0].deal.order
    for kind in (msg.Commit, msg.Shuffle, msg.Lock):
        in_turn(views, kind)
    for i, seat in enumerate(order):
        keys = MAKERS[msg.Keys](views[seat])
        assert isinstance(keys, msg.Keys)
        for view in views:
            view.last_turn = i == len(order) - 1
            out = hand.on_keys(view, keys, seat, 40 + i)
    assert out == [hand.Dealt()]
    mine = views[0]
    said = hand.deal_all(mine, None)  # our makers say our cards do not open
    assert said[0] == ChallengeDue("some of my cards do not open: a lock or a deal key is wrong")
    assert said[1] == Enter(Stage.BID)


def test_a_challenge_of_the_first_lead_opens_the_lead_claim_and_every_challenge_goes_to_the_reveal() -> None:
    view = table_of()[-1]
    view.stage, view.last_progress = Stage.LEAD, 123.0
    out = hand.on_challenge(view, msg.Challenge(10, "nobody led"), 1, 11)
    claimed, report, enter = out
    assert isinstance(claimed, hand.LeadChallenged)
    lead = claimed.claim
    assert (lead.entry, lead.since, lead.limit, lead.signer) == (11, 123.0, 600.0, 1)
    assert report == Report(ChallengeRaised(1, "nobody led"))
    assert enter == Enter(Stage.REVEAL, view.deal.order)
    view.stage = Stage.BID
    out = hand.on_challenge(view, msg.Challenge(10, "x"), 1, 12)
    assert not any(isinstance(o, hand.LeadChallenged) for o in out), "only the first lead's"
    with pytest.raises(RemoteError) as caught:
        hand.on_challenge(view, msg.Challenge(13, "later"), 2, 13)
    assert (caught.value.seat, caught.value.check) == (2, Check.CHALLENGE)


def test_a_challenge_every_step_answers_names_its_challenger_once_every_seed_is_out() -> None:
    views = table_of()
    dealt(views)
    challenger = views[0].game.current_seat
    assert challenger is not None
    for view in views:
        view.entries[60] = b"the challenge"
        assert hand.on_challenge(view, msg.Challenge(59, "I say so"), challenger, 60)[-1] == Enter(
            Stage.REVEAL, view.deal.order)
    out = in_turn(views, msg.Reveal)
    (halt,) = out
    assert isinstance(halt, Halt)
    v = halt.violation
    assert (v.seat, v.check, v.seq, v.evidence) == (challenger, Check.CHALLENGE, 60, (b"the challenge",))
    assert "false challenge (I say so)" in v.detail


def test_a_reveal_that_does_not_open_its_commitment_and_an_end_that_is_not_the_games_are_faults() -> None:
    views = table_of()
    in_turn(views, msg.Commit)
    observer = views[-1]
    with pytest.raises(RemoteError) as caught:
        hand.on_reveal(observer, msg.Reveal(views[1].secret(1)), 2, 30)
    assert (caught.value.seat, caught.value.check) == (2, Check.REVEAL)
    done = Seat(None)
    done.game.outcome = Outcome((0,), Termination.TARGET)
    with pytest.raises(RemoteError) as caught:
        hand.on_end(done, msg.End((1,), (0, 0)), 3, 90)
    assert (caught.value.seat, caught.value.check) == (3, Check.END)
    done.last_turn = True
    assert hand.on_end(done, msg.End((0,), (0, 0)), 3, 90) == [Complete()]
