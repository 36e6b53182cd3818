"""The game screen driven by key presses against bots in the in-memory session (pipe input, no terminal).

Assertions are on the UI state and on the tables' signed record, never on rendered bytes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2pspades.bots import RandomBot
from p2pspades.exits import ExitCode
from p2pspades.rules import Bid, Card, RuleSet, preset
from p2pspades.table import DecisionKind
from p2pspades.ui.app import create_app
from p2pspades.ui.cardinput import typed_code
from p2pspades.ui.local import LocalGame
from p2pspades.ui.state import UiState
from p2pspades.ui.testing import KEYS, until

pytestmark = pytest.mark.timeout(60)

QUICK = preset("classic", target=100, losing_threshold=-100)


async def run_session(
    rules: RuleSet, seed: bytes, script: Callable[[LocalGame, PipeInput], Awaitable[None]]
) -> tuple[LocalGame, int]:
    """Run a local game with random bots; `script` presses the keys. Returns the game and the exit code."""
    game = LocalGame(rules, name="Ann", seed=seed, bots=[RandomBot(i) for i in range(1, rules.players)])
    with create_pipe_input() as keys:
        app = create_app(game.state, input=keys, output=DummyOutput())
        running = asyncio.ensure_future(game.run(app))
        try:
            await script(game, keys)
            code = await asyncio.wait_for(running, 10)
        finally:
            running.cancel()
    return game, code


async def playing(state: UiState) -> None:
    await until(
        lambda: state.kind is DecisionKind.PLAY and state.top_overlay is None, what="our turn to play"
    )


@pytest.mark.slow
async def test_a_whole_hand_played_with_the_keyboard() -> None:
    chosen: list[Card] = []
    bid: list[Bid] = []

    async def script(game: LocalGame, keys: PipeInput) -> None:
        state = game.state
        await until(lambda: state.kind is DecisionKind.BID, what="the bid dialog")
        options = state.choices()
        assert options[state.choice] == Bid(1), "the dialog starts on the lowest real bid"
        wanted = options[state.choice + 2]
        assert isinstance(wanted, Bid)
        bid.append(wanted)
        keys.send_text(KEYS["right"] * 2 + KEYS["enter"])
        await until(lambda: state.view is not None and state.view.bids[0] is not None, what="our bid")
        for turn in range(QUICK.tricks_per_hand):
            await playing(state)
            options_now = state.selectable()
            assert set(options_now) == state.legal_cards() and options_now
            if turn % 2 == 0:
                card = options_now[-1]  # Home, then right to the last legal card
                keys.send_text(KEYS["home"] + KEYS["right"] * (len(options_now) - 1) + KEYS["enter"])
            else:
                card = options_now[0]
                keys.send_text(typed_code(card) + KEYS["enter"])
            chosen.append(card)

            def played(card: Card = card) -> bool:
                return card not in state.hand_cards()

            await until(played, what=f"{card} to leave our hand")
        await until(lambda: state.top_overlay == "summary", what="the end-of-hand summary")
        summary = state.summary()
        assert summary is not None and summary.number == 1
        await until(lambda: 1 in state.audits, what="the audit verdict")
        if state.result is not None:
            keys.send_text(KEYS["enter"])  # close the summary: the game-over screen is next
            await until(lambda: state.top_overlay == "over")
            keys.send_text(KEYS["enter"])
        else:
            keys.send_text(KEYS["ctrl-c"] + "y")

    game, code = await run_session(QUICK, b"ui-whole-hand", script)
    first = game.table.game
    assert first is not None and first.history
    hand = first.history[0]
    assert hand.bids[0] == bid[0].tricks
    ours = [card for trick in hand.tricks for seat, card in trick.plays if seat == 0]
    assert ours == chosen, "the cards the keys chose are the cards in the signed record"
    assert not hand.violations and not game.state.audits[1].violations
    # every table saw the same hand: the keys drove a real, verified game
    assert all(t.game is not None and t.game.history[0] == hand for t in game.tables)
    assert code in (ExitCode.OK, ExitCode.LEFT)
    assert game.state.quit_requested != (game.table.status == "complete")


async def test_a_typed_code_that_is_not_a_legal_card_is_refused_with_a_reason() -> None:
    seen: dict[str, object] = {}

    async def script(game: LocalGame, keys: PipeInput) -> None:
        state = game.state
        await until(lambda: state.kind is DecisionKind.BID)
        keys.send_text(KEYS["enter"])
        for _ in range(QUICK.tricks_per_hand):
            await playing(state)
            hand = state.hand_cards()
            illegal = [c for c in hand if c not in state.legal_cards()]
            if illegal:
                break
            keys.send_text(KEYS["enter"])

            def played(held: int = len(hand)) -> bool:
                return len(state.hand_cards()) < held

            await until(played, what="our card to be played")
        else:
            pytest.fail("every card was legal on every turn: no renege to try")
        absent = next(c for c in state.rules.deck if c not in hand)
        keys.send_text(typed_code(absent) + KEYS["enter"])
        await until(lambda: state.message is not None)
        seen["absent"] = state.message.text if state.message else ""
        keys.send_text(typed_code(illegal[0]) + KEYS["enter"])
        await until(lambda: state.message is not None and state.message.text != seen["absent"])
        seen["illegal"] = state.message.text if state.message else ""
        seen["still_pending"] = state.kind is DecisionKind.PLAY and illegal[0] in state.hand_cards()
        keys.send_text("zz" + KEYS["backspace"] * 3 + KEYS["ctrl-c"] + "y")

    game, code = await run_session(QUICK, b"ui-renege", script)
    assert "not in your hand" in str(seen["absent"])
    assert "must follow" in str(seen["illegal"]) or "spades" in str(seen["illegal"])
    assert seen["still_pending"] is True
    assert code == ExitCode.LEFT and game.state.quit_requested


async def test_quitting_asks_first_and_q_never_quits_during_the_game() -> None:
    seen: dict[str, object] = {}

    async def script(game: LocalGame, keys: PipeInput) -> None:
        state = game.state
        await until(lambda: state.kind is DecisionKind.BID)
        keys.send_text(KEYS["ctrl-c"])
        await until(lambda: state.top_overlay == "quit", what="the quit question")
        keys.send_text("n")
        await until(lambda: state.top_overlay is None)
        seen["bid_still_pending"] = state.kind is DecisionKind.BID
        keys.send_text("q")  # not a quit key: it says which key leaves
        await until(lambda: state.message is not None, what="the hint about Ctrl-Q")
        seen["q_hint"] = state.message.text if state.message else ""
        seen["overlay_after_q"] = state.top_overlay
        keys.send_text(KEYS["ctrl-q"])
        await until(lambda: state.top_overlay == "quit")
        keys.send_text("n")  # keep playing
        await until(lambda: state.top_overlay is None)
        keys.send_text(KEYS["enter"])
        await playing(state)
        keys.send_text("q")
        await until(lambda: state.typed == "q", what="q typed as the rank of a queen")
        seen["quit_overlay_after_q"] = state.top_overlay
        keys.send_text(KEYS["ctrl-q"])
        await until(lambda: state.top_overlay == "quit")
        keys.send_text("y")

    game, code = await run_session(QUICK, b"ui-quit", script)
    assert seen == {
        "bid_still_pending": True,
        "q_hint": "Ctrl-Q leaves the game (q is the rank of a queen)",
        "overlay_after_q": None,
        "quit_overlay_after_q": None,
    }
    assert code == ExitCode.LEFT and int(code) == 0, "a confirmed leave is not an error"
    assert game.state.quit_requested and not game.table.finished


async def test_help_score_sheet_and_last_trick_open_and_close() -> None:
    seen: list[str | None] = []
    # each key's effect differs from the state before it, so waiting for it proves the key was handled
    steps = [("?", "help"), ("?", None), ("s", "scores"), ("l", "last"), ("l", "scores"), ("s", None)]

    async def script(game: LocalGame, keys: PipeInput) -> None:
        state = game.state
        await until(lambda: state.kind is DecisionKind.BID)
        for key, top in steps:
            keys.send_text(key)

            def shown(top: str | None = top) -> bool:
                return state.top_overlay == top

            await until(shown, what=f"the {key!r} key")
            seen.append(state.top_overlay)
            assert state.kind is DecisionKind.BID, "the overlays leave the pending bid alone"
        keys.send_text(KEYS["ctrl-c"] + "y")

    _, code = await run_session(QUICK, b"ui-overlays", script)
    assert seen == [top for _, top in steps]
    assert code == ExitCode.LEFT


async def test_the_draw_pile_dialog_shows_the_drawn_card() -> None:
    rules = preset("two", target=100, losing_threshold=-100)
    seen: dict[str, object] = {}

    async def script(game: LocalGame, keys: PipeInput) -> None:
        state = game.state
        await until(lambda: state.kind is DecisionKind.DRAW, what="a draw decision")
        assert state.view is not None
        seen["card"] = state.view.draw_card
        seen["labels"] = [state.choice_label(a) for a in state.choices()]
        held = len(state.view.hand)
        keys.send_text("k")
        await until(lambda: state.view is not None and len(state.view.hand) == held + 1, what="the kept card")
        seen["kept"] = seen["card"] in state.view.hand
        keys.send_text(KEYS["ctrl-c"] + "y")

    _, code = await run_session(rules, b"ui-draw", script)
    assert isinstance(seen["card"], Card)
    assert seen["labels"] == ["keep it", "discard it"]
    assert seen["kept"] is True
    assert code == ExitCode.LEFT


@pytest.mark.slow
async def test_a_game_to_the_end_gives_the_game_over_screen_and_exit_code_0() -> None:
    async def script(game: LocalGame, keys: PipeInput) -> None:
        state = game.state
        while state.top_overlay != "over":
            await until(lambda: state.decision is not None or state.top_overlay is not None, timeout=20)
            keys.send_text(KEYS["enter"])
            await asyncio.sleep(0.01)
        assert state.result is not None and state.result.status == "complete"
        keys.send_text("q")  # after the end, q leaves without a question

    game, code = await run_session(QUICK, b"ui-to-the-end", script)
    assert code == ExitCode.OK
    assert game.table.status == "complete"
    assert len(game.state.audits) == len(game.state.history) >= 1
    outcome = game.table.game.outcome if game.table.game is not None else None
    assert outcome is not None and game.state.result is not None
    assert game.state.result.winners == tuple(outcome.winners)


async def test_a_game_that_cannot_go_on_says_whom_it_waits_for_in_words() -> None:
    """A wire that delivers nothing (the other seats' entries never arrive) leaves the game stuck at its
    opening: the screen ends it with the prompt line's words for the seat awaited, not the table's code."""
    game = LocalGame(QUICK, name="Ann", seed=b"stuck", bots=[RandomBot(i) for i in range(1, QUICK.players)])
    game.wire.deliver = lambda: False  # type: ignore[method-assign]
    await asyncio.wait_for(game.play(), 10)
    waiting = game.table.waiting_for()
    assert waiting is not None and waiting[0] != 0
    result = game.state.result
    assert result is not None
    said = game.state.words.waiting(*waiting)
    assert result.detail == f"the game cannot go on: {said}"
    assert "(" not in said and "'" not in result.detail
