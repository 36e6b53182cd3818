"""The nil card pass on the game screen's model (rule `nil_pass`): Space marks the cards to pass (the one
under the cursor or a typed code), Enter passes exactly as many as the rule says, Esc clears the marks, a card
received may not be passed on, the marks go with the decision; the event pane tells our seat the cards it gave
and got, and the opponents only that a pass happened."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from helpers.games import dealt, decision

from p2pspades.bots.random_bot import RandomBot
from p2pspades.rules import Action, Bid, Game, Pass, Phase, parse_cards, preset
from p2pspades.table import Accepted, Decision, DecisionKind
from p2pspades.table.harness import Player, Wire
from p2pspades.ui import cardinput
from p2pspades.ui.local import LocalGame
from p2pspades.ui.panels import hand_text, hand_title
from p2pspades.ui.state import UiState

# seats 0 .. 3 (Ann, Bob, Cat, Dan), dealer 3: Ann bids nil first, so Ann then Cat pass two cards
HANDS = (
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)


def passing_game(bid: bool = True) -> Game:
    game = dealt(preset("classic", nil_pass=2), 3, HANDS)
    for tricks in (0, 3, 4, 3) if bid else ():
        game.apply(Bid(tricks))
    return game


def screen(seat: int, game: Game, finished_game: Wire) -> UiState:
    setup = dataclasses.replace(finished_game.tables[0].setup, rules=game.rules)
    return UiState(seat, setup)


def type_code(state: UiState, code: str) -> None:
    for key in code:
        assert state.type_key(key), key


def shown(state: UiState) -> str:
    return "".join(text for _, text, *_ in hand_text(state))


async def test_space_marks_enter_passes_exactly_two_and_esc_clears(finished_game: Wire) -> None:
    game = passing_game()
    state = screen(0, game, finished_game)
    turn = decision(game)
    assert turn.kind is DecisionKind.PASS and turn.view.seat == 0
    answer = state.publish(turn)
    assert state.status_text().startswith("Pass 2 cards to Cat (you bid nil): 0 of 2 marked")
    assert "Space marks, Enter passes" in hand_title(state)
    first = state.selected
    assert first is not None
    assert state.mark() and state.marked == [first]
    assert "1 of 2 marked" in state.status_text()
    assert f"*{first.glyph}" in shown(state)
    # too few
    assert not state.submit() and not answer.done()
    assert state.message is not None and state.message.text.startswith("pass exactly 2 cards: 1 marked")
    # a typed code moves the cursor to its card, and Space marks it
    type_code(state, "10s")
    ten = parse_cards("TS")[0]
    assert state.selected == ten and state.marked == [first]
    assert state.mark() and state.marked == [first, ten] and state.typed == ""
    # too many: a third mark is taken, and Enter says to unmark one
    state.move(1)
    third = state.selected
    assert third is not None and third not in (first, ten)
    assert state.mark() and len(state.marked) == 3
    assert not state.submit() and not answer.done()
    assert state.message is not None and "3 marked" in state.message.text and "unmark" in state.message.text
    assert state.mark() and state.marked == [first, ten], "Space on a marked card unmarks it"
    # Esc clears the marks
    state.clear_typed()
    assert state.marked == [] and f"*{first.glyph}" not in shown(state)
    assert not state.submit() and not answer.done()
    # two marked, Enter passes them: one of the legal passes
    type_code(state, "as")
    state.mark()
    type_code(state, "2s")
    state.mark()
    assert state.submit() and answer.done()
    assert answer.result() == Pass(tuple(parse_cards("AS 2S"))) and answer.result() in turn.legal
    assert state.marked == [] and state.decision is None


async def test_a_code_that_is_no_card_of_ours_marks_nothing(finished_game: Wire) -> None:
    game = passing_game()
    state = screen(0, game, finished_game)
    state.publish(decision(game))
    type_code(state, "ah")
    assert not state.mark() and state.marked == []
    assert state.message is not None and state.message.text == "A♥ is not in your hand"


async def test_the_marks_go_when_the_decision_is_withdrawn(finished_game: Wire) -> None:
    game = passing_game()
    state = screen(0, game, finished_game)
    future = state.publish(decision(game))
    state.mark()
    assert state.marked
    state.withdraw(future)
    assert state.marked == [] and state.kind is None
    assert not state.mark(), "no pass to mark cards for"
    # a new decision starts with no marks either
    state.publish(decision(game))
    state.mark()
    state.publish(decision(game))
    assert state.marked == []
    await asyncio.sleep(0)


async def test_the_partner_may_not_pass_on_a_card_it_received(finished_game: Wire) -> None:
    game = passing_game()
    game.apply(Pass(tuple(parse_cards("AS KS"))))  # Ann passes to Cat
    state = screen(2, game, finished_game)
    turn = decision(game)
    assert turn.view.seat == 2
    state.publish(turn)
    assert state.status_text().startswith("Pass 2 cards to Ann (Ann bid nil): 0 of 2 marked")
    received = set(parse_cards("AS KS"))
    seen = {state.selected}
    for delta in [1] * 15 + [-1] * 15:  # the arrows go over the cards Cat may pass, never one it received
        state.move(delta)
        seen.add(state.selected)
    assert seen == set(state.passable_cards()) and not seen & received and len(seen) == 13
    type_code(state, "ks")
    assert state.selected == parse_cards("KS")[0]
    assert not state.mark() and state.marked == []
    assert state.message is not None and "K♠ may not be passed: it was passed to you" in state.message.text
    assert parse_cards("KS")[0] not in state.passable_cards()
    assert "class:card.illegal" in next(style for style, text, *_ in hand_text(state) if text == "K♠")


def test_our_seat_is_told_its_cards_the_opponents_only_that_a_pass_happened(finished_game: Wire) -> None:
    game = passing_game(bid=False)
    ann, bob, cat = (screen(seat, game, finished_game) for seat in (0, 1, 2))
    screens = (ann, bob, cat)
    for s in screens:
        s.update_view(dataclasses.replace(game.view(s.seat), hand=(), phase=Phase.DEAL))  # before the deal
        s.update_view(game.view(s.seat))  # the cards dealt: no pass
    for tricks in (0, 3, 4, 3):
        game.apply(Bid(tricks))
        for s in screens:
            s.update_view(game.view(s.seat))
    game.apply(Pass(tuple(parse_cards("AS KS"))))
    for s in screens:
        s.on_events([Accepted(40, b"", 0, "pass")])
        s.update_view(game.view(s.seat))
    game.apply(Pass(tuple(parse_cards("2D 3D"))))
    for s in screens:
        s.on_events([Accepted(41, b"", 2, "pass")])
        s.update_view(game.view(s.seat))

    def lines(s: UiState) -> list[str]:
        return [line.text for line in s.events if "pass" in line.text]

    assert lines(ann) == ["You passed A♠ K♠ to Cat", "Cat passed you 3♦ 2♦"]
    assert lines(cat) == ["Ann passed you A♠ K♠", "You passed 3♦ 2♦ to Ann"]
    assert lines(bob) == ["Ann passed 2 cards to Cat, face down", "Cat passed 2 cards to Ann, face down"]
    passed = [c.glyph for c in parse_cards("AS KS 2D 3D")]
    assert not any(glyph in line.text for line in bob.events for glyph in passed)
    assert ann.view is not None
    assert sorted(cardinput.typed_code(c) for c in ann.view.hand if c.suit.name == "DIAMONDS") == ["2d", "3d"]


class Stop(Exception):
    """Our seat's first card: the pass is over."""


async def test_on_real_tables_an_opponents_pass_is_only_said_to_have_happened() -> None:
    """Four tables on the in-memory wiring; West bids nil, so West and East pass: our screen says that they
    did, and names none of their cards."""
    random = RandomBot(1)

    def west(asked: Decision) -> Action:
        return Bid(0) if Bid(0) in asked.legal else random(asked)

    bots: list[Player] = [west, RandomBot(2), RandomBot(3)]
    game = LocalGame(preset("classic", nil_pass=2), seed=b"opponents pass", bots=bots)
    ours = RandomBot(0)

    async def me(asked: Decision) -> Action:
        if asked.kind is DecisionKind.PLAY:
            raise Stop
        return Bid(3) if asked.kind is DecisionKind.BID else ours(asked)

    game.player = me  # type: ignore[assignment]
    with pytest.raises(Stop):
        await game.play()
    passes = [line.text for line in game.state.events if "pass" in line.text]
    assert passes == ["West passed 2 cards to East, face down", "East passed 2 cards to West, face down"]
    assert game.state.view is not None and len(game.state.view.hand) == 13
    theirs = set()
    for seat in (1, 3):
        engine = game.tables[seat].game
        assert engine is not None
        theirs |= {c.glyph for c in engine.view(seat).hand}
    assert not any(glyph in text for text in passes for glyph in theirs)
