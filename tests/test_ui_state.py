"""The UI model without a screen: the event pane, connection states, the decision hand-over, the hand summary.

Driven by real tables on the in-memory wiring, so the events are the ones a peer really reports.
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from helpers.games import decision, shuffled

from p2pspades.checks import Check
from p2pspades.rules import Bid, Card, Game, Phase, Play, RuleSet, deal_from_order
from p2pspades.table import CardVerified, Decision, DecisionKind, GameEnded, HandAudited, Rejected, Violation
from p2pspades.table.harness import Wire
from p2pspades.ui import cardinput
from p2pspades.ui.players import HumanPlayer
from p2pspades.ui.state import UiState
from p2pspades.ui.text import sort_hand

pytestmark = pytest.mark.timeout(30)

def test_a_whole_game_of_events_becomes_readable_lines(finished_game: Wire) -> None:
    table = finished_game.tables[0]
    state = UiState(0, table.setup)
    state.on_events(finished_game.events[0])
    state.refresh(table)
    texts = [line.text for line in state.events]
    assert any(t.startswith("Bob played ") and t.endswith(": card verified") for t in texts), texts[:20]
    assert not any("seat 1" in t for t in texts), "seat numbers are shown as names"
    audits = [e for e in finished_game.events[0] if isinstance(e, HandAudited)]
    assert set(state.audits) == {a.hand for a in audits}
    passed = [line for line in state.events if "audit passed" in line.text]
    assert len(passed) == len(audits) and all(line.level == "good" for line in passed)
    assert state.result is not None and state.result.status == "complete"
    assert state.top_overlay == "over"
    assert state.turn is None, "nobody's turn after the end"


def test_the_summary_opens_at_a_hand_end_and_the_game_over_screen_waits_below(finished_game: Wire) -> None:
    table = finished_game.tables[0]
    state = UiState(0, table.setup)
    game = table.game
    assert game is not None and len(game.history) >= 1
    state.update_view(game.view(0))
    last = game.history[-1]
    # replay the last hand's end as a driver would see it: the view before it, then the events, then the view
    before = state.view
    assert before is not None
    state.view = dataclasses.replace(before, history=before.history[:-1])
    state.on_events([e for e in finished_game.events[0] if isinstance(e, HandAudited | GameEnded)])
    state.refresh(table)
    assert state.overlays[-1] == "summary" and state.overlays[0] == "over"
    assert state.summary() == last
    text, level = state.audit_text(last.number)
    assert level == "good" and "audit passed" in text
    state.submit()  # Enter closes the summary; the game-over screen stays
    assert state.top_overlay == "over"
    state.submit()
    assert state.leave_requested


def test_violations_and_refusals_are_red_and_yellow(finished_game: Wire) -> None:
    state = UiState(2, finished_game.tables[2].setup)
    state.on_events([
        Violation(1, Check.RENEGE, "seat 1 did not follow hearts", 40, halts=False),
        HandAudited(3, (Violation(3, Check.RENEGE, "seat 3 did not follow clubs", 60, halts=False),)),
        Rejected(3, Check.TURN, "entry 9 from seat 3 is a bid; expected seat 1's bid", b""),
        Violation(0, Check.SIGNATURE, "a bad signature", 41),
        CardVerified(2, Card.parse("TH")),
    ])
    lines = list(state.events)
    audit = next(line for line in lines if line.text.startswith("hand 3"))
    assert audit.level == "bad" and "Dan" in audit.text and "clubs" in audit.text
    assert any(line.level == "warn" and "refused" in line.text for line in lines)
    halted = [line for line in lines if "failed the signature check" in line.text]
    assert halted and halted[0].level == "bad" and state.halted is not None
    assert lines[-1].text == "You played 10♥: card verified"  # our own seat (2, Cat)


def test_connection_states_pushed_by_a_driver(finished_game: Wire) -> None:
    state = UiState(0, finished_game.tables[0].setup)
    changes: list[int] = []
    state.on_change = lambda: changes.append(1)
    state.set_connection(2, "waiting for seat 2 (disconnected 12 s)")
    state.set_connection(2, "waiting for seat 2 (disconnected 12 s)")  # no change, no redraw
    state.set_connection(3, "connected")
    assert state.connection == {0: "you", 2: "waiting for seat 2 (disconnected 12 s)", 3: "connected"}
    assert len(changes) == 2


def test_the_event_pane_is_bounded(finished_game: Wire) -> None:
    state = UiState(0, finished_game.tables[0].setup, max_events=10)
    for i in range(50):
        state.note(f"line {i}")
    assert [line.text for line in state.events] == [f"line {i}" for i in range(40, 50)]


async def test_the_human_player_answers_only_legal_actions_and_withdraws_if_cancelled(
    finished_game: Wire,
) -> None:
    table = finished_game.tables[0]
    game = table.game
    assert game is not None
    view = game.view(0)
    decision = Decision(DecisionKind.BID, view, (Bid(0), Bid(1), Bid(2)))

    state = UiState(0, table.setup)
    player = HumanPlayer(state)
    task = asyncio.ensure_future(player(decision))
    await asyncio.sleep(0)
    assert state.decision is decision and state.kind is DecisionKind.BID
    assert not state.answer(Bid(5)), "not among the legal choices"
    assert state.message is not None and "not allowed" in state.message.text
    assert not state.answer(Play(sort_hand(game.rules.deck)[0]))
    assert state.answer(Bid(2))
    assert await task == Bid(2)
    assert state.decision is None
    # a driver that no longer wants the answer cancels; the decision leaves the screen
    task = asyncio.ensure_future(player(decision))
    await asyncio.sleep(0)
    assert state.decision is decision
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert state.decision is None
    assert not state.answer(Bid(1))


def test_a_seat_outside_the_table_is_refused(finished_game: Wire) -> None:
    with pytest.raises(ValueError, match="not at this table"):
        UiState(7, finished_game.tables[0].setup)


def first_card_decision(rules: RuleSet) -> Decision:
    """The first card of a hand of `rules`, bid by the lowest bids: the leader's decision."""
    game = Game(rules, 3)
    game.apply(deal_from_order(rules, 3, shuffled(rules, b"confirm")))
    while game.phase is not Phase.PLAY:
        legal = decision(game).legal
        game.apply(min(legal, key=lambda a: a.tricks if isinstance(a, Bid) else 0))
    return decision(game)


async def test_with_confirm_card_enter_asks_first_and_esc_or_an_arrow_chooses_again(
    finished_game: Wire,
) -> None:
    table = finished_game.tables[0]
    turn = first_card_decision(table.rules)
    state = UiState(turn.view.seat, table.setup)
    state.confirm_card = True
    answer = state.publish(turn)
    chosen = state.selected
    assert chosen is not None
    assert not state.submit() and state.confirming is chosen and not answer.done()
    assert state.status_text() == f"play {chosen.glyph}? Enter plays, Esc chooses again"
    state.clear_typed()  # Esc
    assert state.confirming is None and state.status_text().startswith("Your turn")
    state.submit()
    state.move(1)  # an arrow chooses again too
    assert state.confirming is None and not answer.done()
    # a typed code asks about that card, and a second Enter plays it
    legal = sorted(a.card for a in turn.legal if isinstance(a, Play))
    typed = legal[-1]
    for key in cardinput.typed_code(typed):
        state.type_key(key)
    assert not state.submit() and state.confirming is typed
    assert state.submit() and answer.done() and answer.result() == Play(typed)


async def test_with_confirm_card_a_card_the_rules_refuse_is_refused_at_once(finished_game: Wire) -> None:
    table = finished_game.tables[0]
    turn = first_card_decision(table.rules)
    state = UiState(turn.view.seat, table.setup)
    state.confirm_card = True
    state.publish(turn)
    legal = {a.card for a in turn.legal if isinstance(a, Play)}
    refused = next((c for c in turn.view.hand if c not in legal), None)
    if refused is None:
        refused = next(c for c in table.rules.deck if c not in turn.view.hand)  # not in the hand
    for key in cardinput.typed_code(refused):
        state.type_key(key)
    assert not state.submit()
    assert state.confirming is None and state.message is not None and state.message.level == "warn"


async def test_the_bell_rings_once_per_decision_and_ctrl_g_turns_it_off(finished_game: Wire) -> None:
    table = finished_game.tables[0]
    turn = first_card_decision(table.rules)
    state = UiState(turn.view.seat, table.setup)
    rings: list[int] = []
    state.on_bell = lambda: rings.append(1)
    state.publish(turn)
    assert rings == [], "off unless asked for"
    state.bell = True
    state.publish(turn)
    assert rings == [1]
    state.toggle_bell()
    assert state.message is not None and state.message.text == "bell off"
    state.publish(turn)
    assert rings == [1]
    assert state.message is None, "a new decision takes away what was said before"
