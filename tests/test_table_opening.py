"""The opening alone (`table/opening.py`): no table, no genesis entry, no signature; a fake view of a table
that has accepted the genesis, the draw's commitments and reveals given to it by hand, and the outputs it
returns read back: the stage it enters, the first dealer it reports, the game it begins."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import pytest

from p2pspades import crypto
from p2pspades.checks import Check
from p2pspades.errors import LocalError, RemoteError
from p2pspades.rules import RuleSet, SideTotal, choose_first_dealer, preset
from p2pspades.table import messages as msg
from p2pspades.table.deal import DRAW_HAND, Opening
from p2pspades.table.events import FirstDealer
from p2pspades.table.genesis import CONTINUATION, After, SeatInfo, Setup
from p2pspades.table.opening import on_accept, on_draw_commit, on_draw_reveal
from p2pspades.table.outputs import Begin, Enter, NewHand, Report
from p2pspades.table.stages import Stage

GAME = hashlib.sha256(b"opening alone").digest()[:16]
SEEDS = [hashlib.sha256(b"draw seed" + bytes([s])).digest() for s in range(4)]


@dataclass
class FakeView:
    """What the opening reads: a table of four whose seat 0 is ours, the turns counted by the test."""

    rules: RuleSet = field(default_factory=lambda: preset("classic"))
    seat: int | None = 0
    game_id: bytes = GAME
    last_turn: bool = False
    opening: Opening = field(default_factory=Opening)
    seeds: dict[int, bytes] = field(default_factory=lambda: {DRAW_HAND: SEEDS[0]})
    after: After | None = None

    @property
    def seats(self) -> int:
        return self.rules.players

    @property
    def setup(self) -> Setup:
        seats = tuple(SeatInfo(s, f"seat {s}", bytes(32)) for s in range(self.seats))
        return Setup(self.game_id, "a table", self.rules, seats, after=self.after)

    def seed(self, number: int) -> bytes | None:
        return self.seeds.get(number)


def commit(seat: int) -> msg.DrawCommit:
    return msg.DrawCommit(crypto.draw_commitment(GAME, seat, SEEDS[seat]))


def test_the_last_acceptance_begins_the_draw_and_the_others_wait() -> None:
    view = FakeView()
    assert on_accept(view, msg.Accept(), 1, 1) == []
    view.last_turn = True
    assert on_accept(view, msg.Accept(), 3, 3) == [Enter(Stage.DRAW_COMMIT, (0, 1, 2, 3))]


def test_commitments_are_kept_and_the_last_begins_the_reveals() -> None:
    view = FakeView()
    for seat in range(3):
        assert on_draw_commit(view, commit(seat), seat, 4 + seat) == []
    view.last_turn = True
    assert on_draw_commit(view, commit(3), 3, 7) == [Enter(Stage.DRAW_REVEAL, (0, 1, 2, 3))]
    assert view.opening.commits == {s: commit(s).commitment for s in range(4)}


def test_our_own_commitment_to_a_seed_we_lost_is_our_failure_not_a_peers() -> None:
    view = FakeView(seeds={})
    with pytest.raises(LocalError, match="secret of the first-dealer draw is lost"):
        on_draw_commit(view, commit(0), 0, 4)
    view = FakeView()
    with pytest.raises(LocalError):
        on_draw_commit(view, commit(1), 0, 4)  # not the commitment our seed makes


def test_a_reveal_that_does_not_open_its_commitment_is_its_signers_fault() -> None:
    view = FakeView()
    view.opening.commits.update({s: commit(s).commitment for s in range(4)})
    with pytest.raises(RemoteError) as caught:
        on_draw_reveal(view, msg.DrawReveal(SEEDS[3]), 2, 9)
    assert (caught.value.check, caught.value.seat) == (Check.REVEAL, 2)


def test_the_last_reveal_draws_the_first_dealer_and_begins_the_game_and_its_first_hand() -> None:
    view = FakeView()
    view.opening.commits.update({s: commit(s).commitment for s in range(4)})
    for seat in range(3):
        assert on_draw_reveal(view, msg.DrawReveal(SEEDS[seat]), seat, 8 + seat) == []
    view.last_turn = True
    out = on_draw_reveal(view, msg.DrawReveal(SEEDS[3]), 3, 11)
    drawn = choose_first_dealer(view.rules, crypto.draw_randomness(GAME, SEEDS)).dealer
    report, begin, new_hand = out
    assert report == Report(FirstDealer(drawn, False))
    assert isinstance(begin, Begin) and begin.game.dealer == drawn and begin.game.hand_number == 1
    assert new_hand == NewHand()


def test_a_continuation_draws_all_the_same_but_its_genesis_names_the_dealer_and_the_scores() -> None:
    totals = (SideTotal(120, 3), SideTotal(80, 1))
    view = FakeView(after=After(bytes(16), CONTINUATION, totals, dealer=2))
    view.opening.commits.update({s: commit(s).commitment for s in range(4)})
    view.opening.reveals.update({s: SEEDS[s] for s in range(3)})
    view.last_turn = True
    report, begin, _ = on_draw_reveal(view, msg.DrawReveal(SEEDS[3]), 3, 11)
    assert report == Report(FirstDealer(2, True))
    assert isinstance(begin, Begin) and begin.game.dealer == 2
    assert [t.score for t in begin.game.totals] == [120, 80]
