"""The contracts the game screen shows while a hand is played (`ui/derived.contracts`), for every preset: what
each side bid together, the tricks that count toward it and the ones still needed, nil bidders apart; held
against the scoring of the hand once it is over."""

from __future__ import annotations

import itertools
import random

import pytest
from helpers.games import decision, shuffled
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades.rules import PRESETS, Bid, Game, Phase, Reveal, deal_from_order, is_nil
from p2pspades.ui.derived import Contract, contracts
from p2pspades.ui.words import Words


def phase(game: Game) -> Phase:
    return game.phase  # read afresh: mypy would keep the phase narrowed above


def one_hand(name: str, seed: int, nil_often: bool) -> tuple[Game, list[tuple[Contract, ...]]]:
    """A hand of `name` played by random legal choices (nil chosen often if `nil_often`); the contracts of
    seat 0's view after every card."""
    rules = PRESETS[name].replace(blind_nil_margin=0) if PRESETS[name].blind_nil else PRESETS[name]
    game = Game(rules, 0)
    pick = random.Random(seed)
    seen: list[tuple[Contract, ...]] = []
    while game.hand_number == 1 and game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.DEAL:
            game.apply(deal_from_order(rules, game.dealer, shuffled(rules, seed.to_bytes(4, "big"))))
        elif game.phase is Phase.REVEAL:
            hands = game.initial_hands()
            assert hands is not None
            game.apply(Reveal(hands))
        else:
            legal = decision(game).legal
            nil = [a for a in legal if a == Bid(0)]
            game.apply(nil[0] if nil and nil_often and pick.random() < 0.4 else pick.choice(legal))
            if phase(game) in (Phase.PLAY, Phase.REVEAL):
                seen.append(contracts(game.view(0)))
    return game, seen


@pytest.mark.parametrize("name", sorted(PRESETS))
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), nil_often=st.booleans())
def test_the_contracts_shown_during_play_are_the_ones_the_hand_is_scored_on(
    name: str, seed: int, nil_often: bool
) -> None:
    game, seen = one_hand(name, seed, nil_often)
    rules = game.rules
    hand = game.history[0]
    assert seen, "no card was played"
    for shown in seen:
        assert [c.side for c in shown] == list(range(len(rules.sides)))
        for c in shown:
            seats = rules.sides[c.side]
            nils = [s for s in seats if is_nil(rules, hand.bids[s], hand.blind[s])]
            assert [s for s, _ in c.bidders] == [s for s in seats if s not in nils]
            assert [s for s, _, _ in c.nils] == nils
            bid = sum(hand.bids[s] for s in seats if s not in nils)
            assert c.contract == sum(b for _, b in c.bidders) == bid
            if rules.min_team_bid and not nils:
                assert c.contract >= rules.min_team_bid
            assert c.to_go == max(0, c.contract - c.taken)
            assert c.lost == (c.to_go > c.left)
    # after the last card: what the screen shows is what the scoring counted
    last = seen[-1]
    assert all(c.left == 0 for c in last)
    for c, score in zip(last, hand.scores, strict=True):
        assert (c.contract, c.taken) == (score.contract, score.tricks)
        assert (c.to_go == 0) == (score.contract <= score.tricks)
        assert [t for _, _, t in c.nils] == [hand.tricks_won[s] for s, _, _ in c.nils]
    # the tricks counted only grow, and never beyond those played
    for before, after in itertools.pairwise(seen):
        for a, b in zip(before, after, strict=True):
            assert a.taken <= b.taken and b.left <= a.left


def test_no_contract_is_shown_before_every_bid_is_in() -> None:
    rules = PRESETS["classic"]
    game = Game(rules, 0)
    game.apply(deal_from_order(rules, 0, shuffled(rules, b"x")))
    assert game.phase is Phase.BID
    game.apply(Bid(3))
    assert contracts(game.view(0)) == ()


def test_the_words_of_a_contract() -> None:
    rules = PRESETS["classic"]
    words = Words(0, ("ana", "bo", "north", "cy"), rules)
    side = Contract(0, ((0, 4), (2, 3)), 7, 5, 4, ())
    assert words.contract_line(side, "us") == "us: bid 7 (ana: 4 + north: 3), 5 taken, 2 to go"
    nil = Contract(0, ((0, 4),), 4, 4, 2, ((2, False, 0),))
    assert words.contract_line(nil, "us") == "us: bid 4, 4 taken, made · north nil: 0 taken"
    lost = Contract(1, ((1, 6),), 6, 1, 3, ((3, True, 1),))
    assert words.contract_line(lost, "them") == (
        "them: bid 6, 1 taken, set: 5 to go, 3 left · cy blind nil: 1 taken, failed"
    )
    assert words.contract_cell(Contract(0, ((0, 3),), 3, 4, 1, ())) == "made, 1 over"
    bots = Words(0, ("ana", "bo", "ana's bot 2", "cy"), rules)
    assert bots.contract_line(Contract(0, ((0, 1), (2, 2)), 3, 0, 13, ()), "us").startswith(
        "us: bid 3 (ana: 1 + ana's bot 2: 2)"), "a name that ends in a digit is not read as its bid"
    assert words.contract_cell(Contract(0, (), 0, 1, 1, ((0, True, 1),))) == "nil failed (1)"
    assert words.contract_cell(Contract(0, (), 0, 0, 1, ((0, False, 0),))) == "nil: 0 taken"
    assert words.contract_cell(Contract(0, ((0, 7),), 7, 1, 3, ())) == "set: 6 to go"
