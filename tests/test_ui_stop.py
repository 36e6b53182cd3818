"""The game screen's side of leaving and stopping (PROTOCOL.md §5.10, §5.11), driven by keys through
prompt_toolkit's pipe input: `x` asks before it proposes, another's proposal asks at once and each answer goes
to the driver, a proposal that lapses or ends closes the question, the leave question says what a goodbye
does, and the game-over screen says how to carry the game on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2pspades import crypto
from p2pspades.rules import preset
from p2pspades.table import GameEnded, Proposal, TableStatus, read_genesis
from p2pspades.table.harness import new_game
from p2pspades.ui.app import create_app
from p2pspades.ui.capture import screen_text
from p2pspades.ui.overlays import Overlay
from p2pspades.ui.state import UiState
from p2pspades.ui.testing import until

pytestmark = pytest.mark.timeout(30)


def state(bots: dict[int, int]) -> UiState:
    """Seat 1's screen at a classic table of four, bots as given (seat -> the seat whose machine runs it);
    what it asks the driver is recorded in `asked`."""
    rules = preset("classic")
    ids = [crypto.Identity.from_seed(bytes([i + 1]) * 32) for i in range(4)]
    setup = read_genesis(new_game(rules, ids, ["ana", "bo", "cy", "dee"], bytes(16), "Kitchen"))[1]
    ui = UiState(1, setup)
    ui.set_bots(bots)
    answers: list[bool] = []
    ui.on_stop = answers.append
    ANSWERS[id(ui)] = answers
    return ui


ANSWERS: dict[int, list[bool]] = {}


def asked(ui: UiState) -> list[bool]:
    """What the screen of `ui` told the driver: proposed or agreed (True), declined (False)."""
    return ANSWERS[id(ui)]


def proposal(proposer: int, agreed: tuple[int, ...] = (), declined: tuple[int, ...] = (),
             lapses_in: float | None = 42) -> Proposal:
    return Proposal(30, proposer, (proposer, *agreed), declined, lapses_in, (40, 45))


class Screen:
    """The game screen of `ui` running, keys typed into it as a terminal sends them."""

    def __init__(self, ui: UiState, pipe: Any) -> None:
        self.ui, self.pipe = ui, pipe
        self.app = create_app(ui, input=pipe, output=DummyOutput())

    async def type(self, keys: str, done: Callable[[], bool]) -> str:
        """Type `keys`, wait until `done()`; what the screen shows then."""
        self.pipe.send_text(keys)
        await until(done, what=f"the screen to take {keys!r}")
        return screen_text(self.app, 80, 24)


@asynccontextmanager
async def running(ui: UiState) -> AsyncIterator[Screen]:
    with create_pipe_input() as pipe:
        screen = Screen(ui, pipe)
        task = asyncio.ensure_future(screen.app.run_async())
        await until(lambda: screen.app.is_running, what="the app")
        try:
            yield screen
        finally:
            if screen.app.is_running:
                screen.app.exit()
            await task


async def test_x_asks_what_a_stop_means_before_it_proposes_and_y_proposes() -> None:
    ui = state({2: 0, 3: 0})
    async with running(ui) as screen:
        text = await screen.type("x", lambda: ui.top_overlay is Overlay.STOP)
        assert "Propose to stop the game here?" in text
        assert "nobody winning" in text and "carry it on from them another" in text
        assert asked(ui) == []
        await screen.type("y", lambda: ui.top_overlay is None)
    assert asked(ui) == [True]


async def test_x_then_n_proposes_nothing() -> None:
    ui = state({2: 0, 3: 0})
    async with running(ui) as screen:
        await screen.type("x", lambda: ui.top_overlay is Overlay.STOP)
        await screen.type("n", lambda: ui.top_overlay is None)
    assert asked(ui) == []


@pytest.mark.parametrize(("key", "answer"), [("y", [True]), ("n", [False]), ("\x1b", [])])
async def test_another_players_proposal_asks_at_once_and_each_answer_goes_to_the_driver(
        key: str, answer: list[bool]) -> None:
    ui = state({2: 0, 3: 0})
    ui.set_proposal(proposal(0, agreed=(2, 3)))
    assert ui.top_overlay is Overlay.STOP
    async with running(ui) as screen:
        text = screen_text(screen.app, 80, 24)
        assert "ana proposes to stop here: the scores stand" in text and "lapses in 42 s" in text
        await screen.type(key, lambda: ui.top_overlay is None)
    assert asked(ui) == answer


def test_the_prompt_line_counts_down_who_has_not_agreed_and_the_question_goes_when_it_lapses() -> None:
    ui = state({2: 0, 3: 0})
    ui.set_proposal(proposal(1, agreed=(2,)))  # ours: nothing to ask
    assert ui.top_overlay is None
    assert ui.status_text() == "Stop here? waiting for ana and dee to agree (lapses in 42 s)"
    ui = state({2: 0, 3: 0})
    ui.set_proposal(proposal(0))
    assert ui.top_overlay is Overlay.STOP
    ui.set_proposal(proposal(0, lapses_in=None))  # it lapsed here
    assert ui.top_overlay is None and "waiting" not in ui.status_text()


async def test_with_only_our_bots_x_says_to_leave_and_resume_instead() -> None:
    ui = state({0: 1, 2: 1, 3: 1})
    async with running(ui) as screen:
        await screen.type("x", lambda: ui.message is not None)
    assert ui.top_overlay is None and ui.message is not None and "resume" in ui.message.text


async def test_the_leave_question_says_a_goodbye_ends_the_game_and_forfeits() -> None:
    ui = state({2: 0, 3: 0})
    async with running(ui) as screen:
        text = await screen.type("\x11", lambda: ui.top_overlay is Overlay.QUIT)
        assert "Your goodbye, signed, ends it at once on every" in text and "forfeits" in text
        screen.pipe.send_text("y")
        await until(lambda: not screen.app.is_running, what="the screen to close")
    assert ui.quit_requested and ui.leave_requested


async def test_the_game_over_screen_says_who_left_and_how_to_carry_on() -> None:
    ui = state({2: 0, 3: 0})
    ui.again = lambda: ["carry on with a bot: p2pspades host --carry-on 3f2a1b0c9d8e --port 45555"]
    ui.on_event(GameEnded(TableStatus.LEFT, (0,), 3, forfeit=True, at=30, leavers=(3,)))
    async with running(ui) as screen:
        text = screen_text(screen.app, 80, 24)
    assert "dee left the game (a signed goodbye); forfeit by dee: ana+cy" in text
    assert "carry on with a bot: p2pspades host --carry-on 3f2a1b0c9d8e" in text
    ui = state({2: 0, 3: 0})
    ui.set_proposal(proposal(0))
    ui.on_event(GameEnded(TableStatus.STOPPED, (), at=30, signers=(0, 1, 2, 3)))
    async with running(ui) as screen:
        text = screen_text(screen.app, 80, 24)
    assert ui.top_overlay is Overlay.OVER and "stopped by agreement: every seat signed" in text
