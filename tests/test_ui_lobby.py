"""The lobby screen: seated players with their key fingerprints, the rules, and accept or decline."""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2pspades import crypto
from p2pspades.rules import RuleSetError, preset
from p2pspades.ui.capture import screen_text
from p2pspades.ui.lobby import LobbyModel, confirm_table, create_lobby_app
from p2pspades.ui.testing import KEYS, until

pytestmark = pytest.mark.timeout(30)

KEYS_OF = [crypto.Identity.from_seed(bytes([i + 1]) * 32) for i in range(4)]
SEATS = [
    (0, "Ann", KEYS_OF[0].fingerprint, "host"),
    (1, "Bob", KEYS_OF[1].fingerprint, "joined"),
    (2, "North", KEYS_OF[2].fingerprint, "bot"),
    (3, "East", KEYS_OF[3].fingerprint, "bot"),
]


async def ask(keys: str) -> bool:
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        return await confirm_table(
            "Kitchen", preset("classic").to_dict(), SEATS, you=1, input=pipe, output=DummyOutput()
        )


@pytest.mark.parametrize(
    ("keys", "accepted"),
    [
        ("a", True),
        ("y", True),
        (KEYS["enter"], True),  # Accept is the first button
        (KEYS["right"] + KEYS["left"] + KEYS["enter"], True),
        ("d", False),
        ("n", False),
        ("q", False),
        (KEYS["ctrl-c"], False),
        (KEYS["right"] + KEYS["enter"], False),
        (KEYS["tab"] + KEYS["enter"], False),
    ],
)
async def test_accept_or_decline(keys: str, accepted: bool) -> None:
    assert await ask(keys) is accepted


async def test_nothing_to_accept_until_every_seat_is_taken() -> None:
    model = LobbyModel("Kitchen", preset("classic"), SEATS[:3], you=1, ready=False)
    with create_pipe_input() as pipe:
        app = create_lobby_app(model, input=pipe, output=DummyOutput())
        running = asyncio.ensure_future(app.run_async())
        pipe.send_text("a")
        await until(lambda: "not every seat" in model.status, what="the refusal")
        refused = model.status
        assert model.answer is None and not running.done()
        model.set_seats(SEATS)
        model.set_status("every seat is taken: check the fingerprints", ready=True)
        pipe.send_text("a")
        accepted = await asyncio.wait_for(running, 5)
    assert accepted is True
    assert "nothing to accept" in refused


def test_the_screen_lists_names_fingerprints_and_rules_at_80x24() -> None:
    model = LobbyModel("Kitchen", preset("piki"), SEATS[:3], you=1)
    with create_pipe_input() as pipe:
        screen = screen_text(create_lobby_app(model, input=pipe, output=DummyOutput()), 80, 24)
    for _seat, name, fingerprint, state in SEATS[:3]:
        assert name in screen and fingerprint in screen and state in screen
    assert "Bob (you)" in screen
    assert "(free)" in screen, "the empty seat is shown"
    assert "piki" in screen and "blind nil ±200 when trailing by 200" in screen


def test_a_bad_rule_set_is_a_clear_error() -> None:
    with pytest.raises(RuleSetError, match="missing rule option"):
        LobbyModel("Kitchen", {"players": 4}, SEATS)
    with pytest.raises(RuleSetError, match="map of options"):
        LobbyModel("Kitchen", ["classic"], SEATS)  # type: ignore[arg-type]
