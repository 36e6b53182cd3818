"""Every screen fits 80x24 in every language, with nothing cut: the tour of `helpers.screens` (the game
screen with each of its dialogs and windows in four presets, the replay viewer, the lobby as host and
joiner) drawn in English, German, French and Polish, and every line of text of every window drawn is as
wide as its window at most: no line runs past the screen's edge, and no word is broken in two."""

from __future__ import annotations

import pytest
from helpers.screens import fit_problems, tour

from p2pspades import i18n
from p2pspades.ui.capture import screen_text

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]

SCREENS = {"bid", "scores", "quit", "play", "played", "confirm", "last", "help", "trick", "summary", "over",
           "blind (classic)", "draw (two)", "pass (classic)", "play (cutthroat3)", "replay", "replay help",
           "replay end", "lobby host", "lobby join", "lobby doubts"}
"""The screens the tour must show: a tour that missed one would pass without judging it."""


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
async def test_every_screen_fits_80x24_in_every_language(lang: str) -> None:
    problems: dict[str, list[str]] = {}
    shown: dict[str, str] = {}
    with i18n.speaking(lang):
        async for name, app in tour():
            found = fit_problems(app, 80, 24)
            if found:
                problems[name] = found
            shown[name] = screen_text(app, 80, 24)
    assert set(shown) == SCREENS
    assert problems == {}, "\n\n".join(f"{name}:\n" + "\n".join(found) + "\n" + shown[name]
                                      for name, found in problems.items())
