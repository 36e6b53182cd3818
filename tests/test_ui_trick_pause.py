"""A completed trick stays on the table with its winner for a moment, before the next lead replaces it.

Driven by key presses (pipe input) against bots that play at once, so without the pause the next lead would
replace the trick before anybody saw it. Assertions are on the UI state.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2pspades.bots import RandomBot
from p2pspades.rules import preset
from p2pspades.table import DecisionKind
from p2pspades.ui.app import create_app
from p2pspades.ui.local import LocalGame
from p2pspades.ui.panels import trick_caption, trick_text
from p2pspades.ui.prefs import DEFAULT_TRICK_PAUSE
from p2pspades.ui.state import UiState
from p2pspades.ui.testing import KEYS, until

pytestmark = pytest.mark.timeout(60)

QUICK = preset("classic", target=100, losing_threshold=-100)


async def run_with_pause(
    pause: float, script: Callable[[LocalGame, PipeInput], Awaitable[None]], seed: bytes = b"pause"
) -> LocalGame:
    game = LocalGame(QUICK, name="Ann", seed=seed, bots=[RandomBot(i) for i in range(1, 4)])
    game.state.trick_pause = pause
    with create_pipe_input() as keys:
        app = create_app(game.state, input=keys, output=DummyOutput())
        running = asyncio.ensure_future(game.run(app))
        try:
            await script(game, keys)
            await asyncio.wait_for(running, 10)
        finally:
            running.cancel()
    return game


async def answer_with_enter(state: UiState, keys: PipeInput) -> None:
    pending = state.decision
    keys.send_text(KEYS["enter"])
    await until(lambda: state.decision is not pending, what="our answer")


async def bid_and_play_until_a_trick_is_held(state: UiState, keys: PipeInput) -> None:
    """Bid, then play the chosen card each turn until a completed trick is held on the table."""
    while state.top_overlay != "trick":
        def ready() -> bool:
            return state.top_overlay == "trick" or (state.decision is not None and state.top_overlay is None)

        await until(ready, what="a decision or a held trick")
        if state.top_overlay == "trick":
            break
        await answer_with_enter(state, keys)


def text_of(fragments: StyleAndTextTuples) -> str:
    return "".join(f[1] for f in fragments)


def test_the_default_pause_is_about_a_second() -> None:
    assert 0.5 <= DEFAULT_TRICK_PAUSE <= 2.0


async def test_the_completed_trick_stays_with_its_winner_and_any_key_skips_it() -> None:
    seen: dict[str, object] = {}

    async def script(game: LocalGame, keys: PipeInput) -> None:
        state = game.state
        await bid_and_play_until_a_trick_is_held(state, keys)
        assert state.held is not None
        trick, number = state.held
        seen["number"] = number
        seen["plays"] = len(trick.plays)
        seen["winner"] = trick.winner
        view = state.view
        assert view is not None
        seen["completed"] = trick in view.tricks or any(trick in h.tricks for h in view.history)
        seen["caption"] = text_of(trick_caption(state))
        seen["table"] = text_of(trick_text(state))
        seen["cards"] = [card.glyph for _, card in trick.plays]
        seen["status"] = state.status_text()
        # the pause is long: the trick is still there once the bots played on to our next turn
        await until(lambda: state.decision is not None and len(state.decision.view.tricks) >= number,
                    what="our turn after the trick")
        seen["still_held"] = state.top_overlay == "trick" and state.held == (trick, number)
        keys.send_text("s")  # any key skips the pause, and does nothing else
        await until(lambda: state.top_overlay != "trick", what="the key to end the pause")
        seen["after_key"] = state.top_overlay
        seen["held_after"] = state.held
        keys.send_text(KEYS["ctrl-c"] + "y")

    await run_with_pause(30.0, script)
    assert seen["plays"] == 4 and seen["number"] == 1 and seen["completed"] is True
    winner = seen["winner"]
    assert isinstance(winner, int)
    who = "You take" if winner == 0 else f"{['Ann', 'West', 'North', 'East'][winner]} takes"
    assert seen["caption"] == f"{who} trick 1"
    cards = seen["cards"]
    assert isinstance(cards, list) and all(glyph in str(seen["table"]) for glyph in cards)
    assert "any key continues" in str(seen["status"])
    assert seen["still_held"] is True
    assert seen["after_key"] is None and seen["held_after"] is None, "the key only ended the pause"


async def test_the_pause_ends_by_itself() -> None:
    seen: dict[str, object] = {}

    async def script(game: LocalGame, keys: PipeInput) -> None:
        state = game.state
        await bid_and_play_until_a_trick_is_held(state, keys)
        loop = asyncio.get_running_loop()
        started = loop.time()
        await until(lambda: state.top_overlay != "trick", timeout=5, what="the end of the pause")
        seen["lasted"] = loop.time() - started
        seen["held"] = state.held
        keys.send_text(KEYS["ctrl-c"] + "y")

    await run_with_pause(0.4, script)
    lasted = seen["lasted"]
    assert isinstance(lasted, float) and lasted <= 2.0
    assert seen["held"] is None


async def test_no_pause_when_it_is_set_to_zero() -> None:
    seen: list[str | None] = []

    async def script(game: LocalGame, keys: PipeInput) -> None:
        state = game.state
        plays = 0
        while plays < 3:
            await until(lambda: state.kind is DecisionKind.PLAY or state.kind is DecisionKind.BID)
            seen.append(state.top_overlay)
            if state.kind is DecisionKind.PLAY:
                plays += 1
            await answer_with_enter(state, keys)
        keys.send_text(KEYS["ctrl-c"] + "y")

    game = await run_with_pause(0.0, script)
    assert "trick" not in seen and game.state.held is None
    view = game.state.view
    assert view is not None and len(view.tricks) >= 2, "tricks were completed without any pause"
