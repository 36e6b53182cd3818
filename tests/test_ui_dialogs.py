"""The bid, blind-nil and draw dialogs, on decisions the rules engine itself produces.

Nil is offered only by rule sets with nil; blind nil is a question asked before the deal, and only of a seat
whose side trails by the rule set's margin; the answer is always one of the decision's legal actions.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2pspades import crypto
from p2pspades.rules import (
    Action,
    Bid,
    BlindBid,
    BlindNil,
    Draw,
    Game,
    Phase,
    RuleSet,
    deal_from_order,
    preset,
)
from p2pspades.rules.playout import play_hand
from p2pspades.table import Decision, DecisionKind, Setup, read_genesis
from p2pspades.table.harness import new_game
from p2pspades.ui.app import create_app
from p2pspades.ui.players import HumanPlayer
from p2pspades.ui.screens import dialog_text
from p2pspades.ui.state import UiState
from p2pspades.ui.testing import KEYS, until

pytestmark = pytest.mark.timeout(30)

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


def setup_for(rules: RuleSet) -> Setup:
    identities = [crypto.Identity.from_seed(bytes([i + 1]) * 32) for i in range(rules.players)]
    genesis = new_game(rules, identities, NAMES[: rules.players], bytes(16), "dialog table")
    return read_genesis(genesis)[1]


def decision_of(game: Game, kind: DecisionKind) -> Decision:
    seat = game.current_seat
    assert seat is not None
    return Decision(kind, game.view(seat), tuple(game.legal_actions()))


def bid_decision(rules: RuleSet, seed: int = 1) -> Decision:
    """Seat 0's bid in a freshly dealt hand (the seat left of the dealer bids first)."""
    rng = random.Random(seed)
    game = Game(rules, rules.players - 1 if rules.first_bidder == "left" else 0)
    cards = list(rules.deck)
    rng.shuffle(cards)
    game.apply(deal_from_order(rules, game.dealer, cards))
    assert game.phase is Phase.BID and game.current_seat == 0
    return decision_of(game, DecisionKind.BID)


def trailing_hand_start(rules: RuleSet, margin: int, seed: int = 7, hands: int = 60) -> Game:
    """Random play until a hand starts with seat 0's side trailing by at least `margin`."""
    rng = random.Random(seed)
    game = Game(rules, 0)
    for _ in range(hands):
        play_hand(game, rng.shuffle, rng.choice)
        if game.phase is Phase.GAME_OVER:
            game = Game(rules, 0)
            continue
        scores = [t.score for t in game.totals]
        mine = scores[rules.side_of(0)]
        if max(scores) - mine >= margin:
            return game
    pytest.fail(f"no hand started with seat 0 trailing by {margin} in {hands} random hands")


async def drive(rules: RuleSet, decision: Decision, keys: str) -> tuple[Action | None, UiState]:
    """Show `decision` to a person who presses `keys`; their answer (None if none was given) and the state.

    A final `?` (help) proves every key before it was handled before we look.
    """
    state = UiState(decision.view.seat, setup_for(rules))
    state.update_view(decision.view)
    with create_pipe_input() as pipe:
        app = create_app(state, input=pipe, output=DummyOutput())
        running = asyncio.ensure_future(app.run_async())
        answer = asyncio.ensure_future(HumanPlayer(state)(decision))
        await until(lambda: state.decision is not None)
        pipe.send_text(keys + "?")
        await until(lambda: answer.done() or state.top_overlay == "help", what="the keys to be handled")
        await until(lambda: state.top_overlay == "help")
        app.exit()
        await running
        result = answer.result() if answer.done() else None
        answer.cancel()
        return result, state


# ---------------------------------------------------------------------------------------------- bids
async def test_the_bid_dialog_offers_nil_where_the_rules_allow_it() -> None:
    decision = bid_decision(preset("classic"))
    state = UiState(0, setup_for(preset("classic")))
    state.decision = decision
    labels = [state.choice_label(a) for a in state.choices()]
    assert labels == ["nil", *map(str, range(1, 14))]
    answer, _ = await drive(preset("classic"), decision, "n")
    assert answer == Bid(0)


async def test_the_bid_dialog_has_no_nil_without_the_rule() -> None:
    rules = preset("partnership")
    decision = bid_decision(rules)
    state = UiState(0, setup_for(rules))
    state.decision = decision
    assert [state.choice_label(a) for a in state.choices()] == [str(b) for b in range(1, 14)]
    answer, after = await drive(rules, decision, "n")
    assert answer is None, "n is no answer where nil is not allowed"
    assert after.message is not None and "not allowed" in after.message.text
    answer, after = await drive(rules, decision, "0" + KEYS["enter"])
    assert answer is None and after.message is not None and "not allowed" in after.message.text


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (KEYS["enter"], Bid(1)),  # the dialog starts on the lowest real bid
        (KEYS["right"] * 3 + KEYS["enter"], Bid(4)),
        (KEYS["right"] * 3 + KEYS["left"] + KEYS["enter"], Bid(3)),
        (KEYS["end"] + KEYS["enter"], Bid(13)),
        (KEYS["home"] + KEYS["enter"], Bid(0)),  # nil is the first choice
        ("11" + KEYS["enter"], Bid(11)),
        ("7" + KEYS["backspace"] + "5" + KEYS["enter"], Bid(5)),
    ],
)
async def test_bids_by_arrows_or_by_number(keys: str, expected: Bid) -> None:
    answer, _ = await drive(preset("classic"), bid_decision(preset("classic")), keys)
    assert answer == expected


async def test_a_bid_above_the_tricks_in_a_hand_is_refused() -> None:
    answer, state = await drive(preset("classic"), bid_decision(preset("classic")), "99" + KEYS["enter"])
    assert answer is None
    assert state.message is not None and "not allowed" in state.message.text


async def test_the_individual_game_with_a_minimum_bid() -> None:
    rules = preset("individual", min_bid=2)
    decision = bid_decision(rules)
    answer, _ = await drive(rules, decision, KEYS["enter"])
    assert answer == Bid(2)
    assert Bid(1) not in decision.legal


# ---------------------------------------------------------------------------------------------- blind nil
async def test_blind_nil_is_asked_before_the_deal_of_a_trailing_seat() -> None:
    rules = preset("classic")
    game = trailing_hand_start(rules, rules.blind_nil_margin)
    assert game.phase is Phase.BLIND and 0 in game.hand.blind_eligible
    while game.current_seat != 0:
        game.apply(BlindNil(False))
    decision = decision_of(game, DecisionKind.BLIND_NIL)
    assert decision.view.hand == (), "the question comes before any card is seen"
    state = UiState(0, setup_for(rules))
    state.decision = decision
    assert [state.choice_label(a) for a in state.choices()] == ["no, see my cards", "blind nil"]
    assert (await drive(rules, decision, "y"))[0] == BlindNil(True)
    assert (await drive(rules, decision, "n"))[0] == BlindNil(False)
    assert (await drive(rules, decision, KEYS["enter"]))[0] == BlindNil(False), "the default is no"
    assert (await drive(rules, decision, KEYS["right"] + KEYS["enter"]))[0] == BlindNil(True)


async def test_a_blind_bid_is_offered_after_blind_nil_and_chosen_with_the_arrows() -> None:
    rules = preset("classic", blind_bid=True, blind_bid_min=7)
    game = trailing_hand_start(rules, max(rules.blind_nil_margin, rules.blind_bid_margin))
    while game.current_seat != 0:
        game.apply(BlindNil(False))
    decision = decision_of(game, DecisionKind.BLIND_NIL)
    state = UiState(0, setup_for(rules))
    state.decision = decision
    labels = [state.choice_label(a) for a in state.choices()]
    assert labels == ["no, see my cards", "blind nil", *(f"blind {k}" for k in range(7, 14))]
    assert (await drive(rules, decision, KEYS["right"] * 2 + KEYS["enter"]))[0] == BlindBid(7)
    assert (await drive(rules, decision, KEYS["enter"]))[0] == BlindNil(False), "the default is still no"
    state.update_view(decision.view)
    text = "".join(fragment[1] for fragment in dialog_text(state))
    assert "blind 7" in text and "scores double" in text and "blind bids too" in text


@pytest.mark.parametrize("name", ["partnership", "two"])
def test_no_blind_nil_question_where_the_rules_have_none(name: str) -> None:
    rules = preset(name)
    game = trailing_hand_start(rules, 100)  # enough for a blind nil under the classic rules
    assert game.phase is not Phase.BLIND and not game.hand.blind_eligible


def test_no_blind_nil_question_below_the_margin() -> None:
    rules = preset("piki")  # blind nil only when trailing by 200
    rng = random.Random(0)
    game = Game(rules, 0)
    found = False
    for _ in range(80):
        play_hand(game, rng.shuffle, rng.choice)
        if game.phase is Phase.GAME_OVER:
            game = Game(rules, 0)
            continue
        scores = [t.score for t in game.totals]
        behind = max(scores) - scores[rules.side_of(0)]
        if 100 <= behind < 200:  # enough under the classic rules, not under piki's
            found = True
            assert 0 not in game.hand.blind_eligible
    assert found


# ---------------------------------------------------------------------------------------------- draw pile
async def test_the_draw_dialog_keeps_or_discards() -> None:
    rules = preset("two")
    game = Game(rules, 1)
    cards = list(rules.deck)
    random.Random(5).shuffle(cards)
    game.apply(deal_from_order(rules, game.dealer, cards))
    assert game.phase is Phase.DRAW and game.current_seat == 0
    decision = decision_of(game, DecisionKind.DRAW)
    assert decision.view.draw_card is not None
    assert (await drive(rules, decision, "k"))[0] == Draw(True)
    assert (await drive(rules, decision, "d"))[0] == Draw(False)
    assert (await drive(rules, decision, KEYS["enter"]))[0] == Draw(True), "the default keeps the card"
    assert (await drive(rules, decision, KEYS["right"] + KEYS["enter"]))[0] == Draw(False)
