"""The game screen fits 80x24 and grows with the terminal; colour is optional.

These tests look at the drawn text (styles dropped) only to check that each part of the screen is on it.
"""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import ColorDepth, DummyOutput

from p2pspades import i18n
from p2pspades.bots import RandomBot
from p2pspades.printable import width
from p2pspades.rules import RuleSet, preset
from p2pspades.table import Decision, DecisionKind
from p2pspades.ui.app import MIN_COLUMNS, create_app
from p2pspades.ui.capture import screen_text
from p2pspades.ui.keys import help_lines
from p2pspades.ui.local import LocalGame
from p2pspades.ui.testing import KEYS, until
from p2pspades.ui.widgets import build_style, use_color

pytestmark = pytest.mark.timeout(60)


async def screens_at_our_first_card(
    rules: RuleSet, sizes: list[tuple[int, int]]
) -> tuple[LocalGame, list[str]]:
    bots = [RandomBot(i) for i in range(1, rules.players)]
    game = LocalGame(rules, name="Ann", seed=b"layout", bots=bots)
    with create_pipe_input() as pipe:
        app = create_app(game.state, input=pipe, output=DummyOutput())
        running = asyncio.ensure_future(game.run(app))
        state = game.state
        while True:
            await until(lambda: state.decision is not None, what="a decision")
            pending = state.decision
            if pending is None or pending.kind is DecisionKind.PLAY:
                break
            pipe.send_text(KEYS["enter"])

            def answered(pending: Decision = pending) -> bool:
                return state.decision is not pending

            await until(answered, what="our answer")
        screens = [screen_text(app, width, height) for width, height in sizes]
        pipe.send_text(KEYS["ctrl-c"] + "y")
        await asyncio.wait_for(running, 5)
    return game, screens


@pytest.mark.slow
@pytest.mark.parametrize("name", ["classic", "five", "cutthroat3", "two"])
async def test_every_part_of_the_screen_is_on_80x24_and_on_larger_terminals(name: str) -> None:
    rules = preset(name, target=100, losing_threshold=-100)
    game, screens = await screens_at_our_first_card(rules, [(80, 24), (100, 30), (160, 50)])
    state = game.state
    for screen in screens:
        assert "too small" not in screen.lower()
        for seat_name in state.names:
            assert seat_name in screen
        for card in state.hand_cards():
            assert card.glyph in screen, f"{card} missing from our hand on screen"
        assert "Your turn: play a card" in screen
        assert "Events" in screen and "Seats" in screen
    small, large = screens[0], screens[-1]
    assert len(small.splitlines()) == 24 and max(map(len, small.splitlines())) <= 80
    assert max(map(len, large.splitlines())) > 80, "a wider terminal gets a wider screen"


def test_monochrome_keeps_the_cues_and_drops_the_colours(monkeypatch: pytest.MonkeyPatch) -> None:
    colour, mono = build_style(True), build_style(False)
    assert colour.get_attrs_for_style_str("class:card.red").color == "ansired"
    assert mono.get_attrs_for_style_str("class:card.red").color in ("", None)
    assert mono.get_attrs_for_style_str("class:card.selected").reverse
    assert mono.get_attrs_for_style_str("class:card.illegal").dim
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(True) and not use_color(False)
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(True)


def test_no_color_gives_a_one_bit_application(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    rules = preset("classic")
    game = LocalGame(rules, seed=b"mono", bots=[RandomBot(i) for i in range(1, 4)])
    with create_pipe_input() as pipe:
        assert create_app(game.state, input=pipe, output=DummyOutput(), color=False).color_depth is (
            ColorDepth.DEPTH_1_BIT
        )
        monkeypatch.setenv("NO_COLOR", "1")
        assert create_app(game.state, input=pipe, output=DummyOutput()).color_depth is ColorDepth.DEPTH_1_BIT


def test_every_line_of_the_help_fits_the_smallest_screen() -> None:
    inside = MIN_COLUMNS - 4  # the window's border and padding
    for lang in i18n.LANGUAGES:
        with i18n.speaking(lang):
            rows = help_lines()
        for key, text in rows:
            assert width(key) <= 17 and width(f"{key:<17}{text}") <= inside, (lang, key, text)
        assert len(rows) + 5 <= 24 - 3, "the help and its last lines fit 24 rows"
