"""Draw a screen into text, without a terminal: for the documentation's screen captures and layout tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition

from p2pspades.ui.overlays import Overlay

if TYPE_CHECKING:
    from p2pspades.table import Decision
    from p2pspades.ui.local import LocalGame
    from p2pspades.ui.state import UiState


def screen_text(app: Application[Any], width: int = 80, height: int = 24) -> str:
    """What `app` shows on a `width` x `height` terminal, as lines of text (styles dropped)."""
    screen = Screen(initial_width=width, initial_height=height)
    app.render_counter += 1  # the controls cache their text per render: make them read the state again
    with set_app(app):
        app.layout.container.write_to_screen(
            screen,
            MouseHandlers(),
            WritePosition(xpos=0, ypos=0, width=width, height=height),
            parent_style="",
            erase_bg=False,
            z_index=None,
        )
        screen.draw_all_floats()
    lines = []
    for y in range(height):
        row = screen.data_buffer[y]
        lines.append("".join(row[x].char for x in range(width)).rstrip())
    return "\n".join(lines)


async def sample_screens(width: int = 80, height: int = 24, seed: bytes = b"screens") -> dict[str, str]:
    """The screens the documentation shows, from a reproducible game (the bots also decide for "You")."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from p2pspades.rules import preset
    from p2pspades.ui.app import create_app
    from p2pspades.ui.local import LocalGame, default_bots
    from p2pspades.ui.testing import until

    rules = preset("classic", target=250)
    game = LocalGame(rules, name="You", seed=seed, bots=default_bots(4, 7), table_name="Kitchen table")
    advisor = default_bots(2, 11)[0]
    state = game.state
    screens: dict[str, str] = {}
    with create_pipe_input() as pipe:
        app = create_app(state, input=pipe, output=DummyOutput())

        def shot() -> str:
            return screen_text(app, width, height)

        running = asyncio.ensure_future(game.run(app))
        state.trick_pause = 600.0  # each completed trick stays until the capture takes it away
        while state.result is None:
            await until(lambda: state.decision is not None or state.result is not None, timeout=30)
            _take_overlays(state, screens, shot)
            decision = state.decision
            if decision is not None:
                await _take_decision(state, decision, screens, shot)
                state.answer(advisor(decision))
        await until(lambda: state.top_overlay is Overlay.OVER, timeout=30)
        while state.top_overlay is not Overlay.OVER:
            state.close_overlay()
        screens["over"] = shot()
        app.exit()
        await running
    screens["individual"] = await _individual_screen(width, height)
    screens.update(_replay_and_lobby(game, width, height))
    return screens


def _take_overlays(state: UiState, screens: dict[str, str], shot: Callable[[], str]) -> None:
    """The trick held on the table (a later one, won by another seat) and a hand's summary, once each; then
    the game goes on."""
    if state.top_overlay is Overlay.TRICK:
        held = state.held
        if "trick" not in screens and held is not None and held[0].winner != 0 and held[1] >= 2:
            screens["trick"] = shot()
        state.release_trick()
    if state.top_overlay is Overlay.SUMMARY:
        if "summary" not in screens and state.summary() is not None:
            screens["summary"] = shot()
        state.close_overlay()


async def _take_decision(state: UiState, decision: Decision, screens: dict[str, str],
                         shot: Callable[[], str]) -> None:
    """The screens of our own turn: the bid dialog; a card to play (with the coach's hint and its legend, the
    cards played and the question before a card); the last trick and the help; the score sheet and the leave
    question."""
    from p2pspades.table import DecisionKind
    from p2pspades.ui.testing import until

    trick = state.trick
    if decision.kind is DecisionKind.BID and "bid" not in screens:
        screens["bid"] = shot()
    if decision.kind is DecisionKind.PLAY and trick is not None and len(trick.plays) >= 2:
        if "play" not in screens:
            screens["play"] = shot()
            state.coach()  # h: the coach's hint, then h again: what its numbers mean
            await until(lambda: state.advice is not None, timeout=60)
            screens["coach"] = shot()
            state.coach()
            screens["coach legend"] = shot()
            state.message = None  # as the next key would
            state.toggle_overlay(Overlay.PLAYED)
            screens["played"] = shot()
            state.close_overlay()
            state.confirm_card = True  # Enter asks first
            state.submit()
            screens["confirm"] = shot()
            state.clear_typed()
            state.confirm_card = False
        elif "last" not in screens and state.view is not None and len(state.view.tricks) >= 3:
            state.toggle_overlay(Overlay.LAST)
            screens["last"] = shot()
            state.toggle_overlay(Overlay.HELP)
            screens["help"] = shot()
            state.close_overlay()
            state.close_overlay()
    if decision.kind is DecisionKind.BID and len(state.history) >= 2 and "scores" not in screens:
        state.toggle_overlay(Overlay.SCORES)
        screens["scores"] = shot()
        state.close_overlay()
        state.request_quit()
        screens["quit"] = shot()
        state.confirm_quit(False)


def _replay_and_lobby(game: LocalGame, width: int, height: int) -> dict[str, str]:
    """The replay viewer of the game just played, a few tricks in, and the host's lobby of its table."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from p2pspades.audit import verify_frames
    from p2pspades.net.lobby_seats import LobbySeat
    from p2pspades.ui.lobby import create_lobby_app
    from p2pspades.ui.lobby_model import LobbyModel
    from p2pspades.ui.replay import ReplayModel, create_replay_app

    verdict = verify_frames(list(game.table.entries))
    model = ReplayModel(verdict, "kitchen.p2plog")
    for _ in range(5):
        model.step_trick(1)
    model.step_card(1)
    model.step_card(1)
    host_key = game.table.setup.seats[0].key
    seats = [LobbySeat(s.seat, s.name, s.key, f"tcp://127.0.0.1:{7000 + s.seat}",
                       host_key if s.seat else None) for s in game.table.setup.seats]
    lobby = LobbyModel("Kitchen table", game.table.rules, seats, you=0)
    with create_pipe_input() as pipe:
        replay_app = create_replay_app(model, input=pipe, output=DummyOutput())
        lobby_app = create_lobby_app(lobby, input=pipe, output=DummyOutput())
        return {"replay": screen_text(replay_app, width, height),
                "lobby": screen_text(lobby_app, width, height)}


async def _individual_screen(width: int, height: int) -> str:
    """A cutthroat game at the third trick: each player's own contract in the seats panel."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from p2pspades.rules import preset
    from p2pspades.table import DecisionKind
    from p2pspades.ui.app import create_app
    from p2pspades.ui.local import LocalGame, default_bots
    from p2pspades.ui.testing import until

    game = LocalGame(preset("cutthroat3", target=250), name="You", seed=b"cutthroat screens",
                     bots=default_bots(3, 5), table_name="Kitchen table")
    advisor = default_bots(2, 13)[0]
    state = game.state
    state.trick_pause = 0
    with create_pipe_input() as pipe:
        app = create_app(state, input=pipe, output=DummyOutput())
        running = asyncio.ensure_future(game.run(app))
        while True:
            await until(lambda: state.decision is not None, timeout=30)
            while state.top_overlay is not None:
                state.close_overlay()
            decision = state.decision
            assert decision is not None
            view = state.view
            if decision.kind is DecisionKind.PLAY and view is not None and len(view.tricks) >= 3:
                text = screen_text(app, width, height)
                break
            state.answer(advisor(decision))
        app.exit()
        await running
    return text


def main() -> None:
    """Print the documentation's screens (python -m p2pspades.ui.capture)."""
    for name, text in asyncio.run(sample_screens()).items():
        print(f"--- {name}\n{text}\n")


if __name__ == "__main__":
    main()
