"""The lobby screen: seated players with their key fingerprints, the rules, and accept or decline."""

from __future__ import annotations

import asyncio
import re
from functools import partial
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2pspades import crypto
from p2pspades.net.lobby_seats import LobbySeat
from p2pspades.rules import RuleSetError, SideTotal, preset
from p2pspades.table import CONTINUATION, REMATCH, After
from p2pspades.ui.capture import screen_text
from p2pspades.ui.lobby import confirm_table, create_lobby_app, run_lobby, seats_table
from p2pspades.ui.lobby_model import LobbyModel
from p2pspades.ui.testing import KEYS, until

pytestmark = pytest.mark.timeout(30)

KEYS_OF = [crypto.Identity.from_seed(bytes([i + 1]) * 32) for i in range(4)]
SEATS = [
    LobbySeat(0, "Ann", KEYS_OF[0].public, "tcp://127.0.0.1:7000"),
    LobbySeat(1, "Bob", KEYS_OF[1].public, "tcp://127.0.0.1:7001"),
    LobbySeat(2, "North", KEYS_OF[2].public, "tcp://127.0.0.1:7002", owner=KEYS_OF[0].public),
    LobbySeat(3, "East", KEYS_OF[3].public, "tcp://127.0.0.1:7003", owner=KEYS_OF[1].public),
]
STATES = ["host", "joined", "bot · Ann sees its cards", "bot · you see its cards"]


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
    for seat, state in zip(SEATS[:3], STATES, strict=False):
        assert seat.name in screen and seat.fingerprint in screen and state in screen
    assert "Bob (you)" in screen
    assert "(free)" in screen, "the empty seat is shown"
    assert "piki" in screen and "blind nil ±200 when trailing by 200" in screen


@pytest.mark.parametrize(("rules", "shown"), [
    (preset("suicide"), ["suicide (min team bid 4, suicide bids)", "one nil per side, its partner 4"]),
    (preset("mirror", deuces_high=True), ["deuces high", "mirror: the spades held", "2♦ 2♠ above A♠"]),
    (preset("classic", blind_bid=True, blind_bid_min=7), ["blind 7+ for double when 100 behind"]),
])
def test_the_rules_panel_names_the_bid_mode_blind_bids_and_deuces_high(rules: Any, shown: list[str]) -> None:
    model = LobbyModel("Kitchen", rules, SEATS, you=1)
    with create_pipe_input() as pipe:
        screen = screen_text(create_lobby_app(model, input=pipe, output=DummyOutput()), 140, 30)
    for words in shown:
        assert words in screen, (words, screen)


def test_a_bad_rule_set_is_a_clear_error() -> None:
    with pytest.raises(RuleSetError, match="missing rule option"):
        LobbyModel("Kitchen", {"players": 4}, SEATS)
    with pytest.raises(RuleSetError, match="map of options"):
        LobbyModel("Kitchen", ["classic"], SEATS)  # type: ignore[arg-type]


class Seats:
    """The host's seat keys, recorded and applied to the model the way the lobby would."""

    def __init__(self, model: LobbyModel) -> None:
        self.model = model
        self.calls: list[tuple[str, int | None, int | None]] = []
        self.level = "normal"
        self.levels: dict[bytes, str] = {}

    async def add_bot(self, seat: int | None) -> None:
        self.calls.append(("add", seat, None))
        where = self.model.free[0] if seat is None else seat
        key = crypto.Identity.generate().public
        self.levels[key] = self.level
        bot = LobbySeat(where, f"Bot{where}", key, "tcp://127.0.0.1:7009", owner=KEYS_OF[0].public)
        self.model.set_seats([*self.model.seats, bot])

    async def remove(self, seat: int) -> None:
        self.calls.append(("remove", seat, None))
        self.model.set_seats([s for s in self.model.seats if s.seat != seat])

    def move(self, seat: int, to: int) -> None:
        self.calls.append(("move", seat, to))

    def level_of(self, public_key: bytes) -> str | None:
        return self.levels.get(public_key)

    def set_level(self, seat: int, level: str) -> None:
        here = self.model.at(seat)
        assert here is not None
        self.levels[here.public_key] = level


def text_of_seats(model: LobbyModel) -> str:
    return "".join(text for _, text, *_ in seats_table(model))


async def test_the_hosts_screen_seats_bots_moves_them_and_starts_when_asked() -> None:
    model = LobbyModel("Kitchen", preset("classic"), SEATS[:2], you=0)
    seats = Seats(model)
    model.controls = seats
    model.join_with = "127.0.0.1:5555"

    async def lobby() -> str:  # stands for the lobby: asks once every seat is taken
        await until(lambda: not model.free, what="a full table")
        return "started" if await model.ask() else "cancelled"

    with create_pipe_input() as pipe:
        running = asyncio.ensure_future(run_lobby(model, lobby(), input=pipe, output=DummyOutput()))
        await until(lambda: model.on_change is not None, what="the screen")
        assert "Others join: p2pspades join 127.0.0.1:5555" in model.hint()
        pipe.send_text("z\r")  # a stray key does nothing; Enter has nothing to start yet
        await until(lambda: "nothing to start" in model.status, what="the refusal")
        pipe.send_text("x")  # the cursor is on the host's own seat
        await until(lambda: "select a bot" in model.status, what="the hint")
        pipe.send_text(KEYS["down"] * 2 + "l")  # at a free seat, l sets the next bot's level
        await until(lambda: seats.level == "expert", what="the next bot's level")
        assert "b seats a bot (expert; l: level)" in model.hint()
        pipe.send_text("b")  # seat 2 is free: a bot sits there
        await until(lambda: model.at(2) is not None, what="the bot")
        bot = model.at(2)
        assert bot is not None and seats.levels[bot.public_key] == "expert"
        assert "expert bot · you see its cards" in text_of_seats(model)
        pipe.send_text("l")  # on a bot of ours, l changes that bot's level
        await until(lambda: seats.levels[bot.public_key] == "easy", what="the bot's new level")
        assert "easy bot · you see its cards" in text_of_seats(model)
        pipe.send_text(KEYS["up"] * 2 + "l")  # the host's own seat has no level
        await until(lambda: "select one of your bots" in model.status, what="the refusal")
        pipe.send_text(KEYS["down"] * 2)
        pipe.send_text("s")
        await until(lambda: ("move", 2, 3) in seats.calls, what="the move to the other side")
        assert model.selected == 3, "the cursor follows the bot"
        pipe.send_text("b")  # seat 3 is free in the model (the recorder does not move): a second bot
        await until(lambda: not model.free and model.asking is not None, what="the question")
        assert "press Enter to start" in model.hint()
        pipe.send_text("\r")
        assert await asyncio.wait_for(running, 5) == "started"
    assert seats.calls == [("add", 2, None), ("move", 2, 3), ("add", 3, None)]


async def test_leaving_the_lobby_screen_stops_the_lobby() -> None:
    model = LobbyModel("Kitchen", preset("classic"), SEATS[:2], you=1)
    stopped = asyncio.Event()

    async def lobby() -> str:
        try:
            await asyncio.sleep(3600)
        finally:
            stopped.set()
        return "never"

    with create_pipe_input() as pipe:
        running = asyncio.ensure_future(run_lobby(model, lobby(), input=pipe, output=DummyOutput()))
        await until(lambda: model.on_change is not None, what="the screen")
        assert model.hint() == "Waiting for players: 2 seats free." and not model.ready
        pipe.send_text("q")
        assert await asyncio.wait_for(running, 5) is None
    assert stopped.is_set() and model.left


def test_the_rules_panel_says_which_game_a_table_continues_and_from_which_scores() -> None:
    old = bytes(range(16))
    carried = After(old, CONTINUATION, (SideTotal(120, 3), SideTotal(80, 1)), 2)
    for after, words in [(carried, "continues game 000102030405 from 120–80 (bags 3, 1), seat 2 deals"),
                         (After(old, REMATCH), "a rematch of game 000102030405"), (None, None)]:
        model = LobbyModel("Kitchen", preset("classic"), SEATS, you=1, after=after)
        with create_pipe_input() as pipe:
            screen = screen_text(create_lobby_app(model, input=pipe, output=DummyOutput()), 100, 30)
        rules = screen[screen.index("Rules"):]
        if words is None:
            assert "follows" not in rules
        else:
            assert re.search(rf"follows\s+{re.escape(words)}", rules), screen


def test_the_seats_show_the_sides_and_warn_of_a_bot_its_runner_plays_against() -> None:
    """With sides, each row names its side; a host's bot sitting with a joiner is flagged: the host, who runs
    it, can read the cards of the joiner's partner. Without partnerships there is no side column."""
    swapped = [SEATS[0], SEATS[1],
               LobbySeat(2, "Cy", KEYS_OF[3].public, "tcp://127.0.0.1:7003"),
               LobbySeat(3, "North", KEYS_OF[2].public, "tcp://127.0.0.1:7002", owner=KEYS_OF[0].public)]
    model = LobbyModel("Kitchen", preset("classic"), swapped, you=1)
    with create_pipe_input() as pipe:
        screen = screen_text(create_lobby_app(model, input=pipe, output=DummyOutput()), 80, 24)
    found = re.findall(r"│\s+(\d)\s+([A-E])\s+(\w+)", screen)
    rows = {int(seat): (side, name) for seat, side, name in found}
    assert rows == {0: ("A", "Ann"), 1: ("B", "Bob"), 2: ("A", "Cy"), 3: ("B", "North")}, screen
    assert "! North is run by Ann but partners Bob: Ann can see its cards" in screen
    assert "bot · Ann sees its cards" in screen  # the whole state, in 80 columns
    model = LobbyModel("Kitchen", preset("classic"), SEATS, you=1)  # the bots with their owners' sides
    with create_pipe_input() as pipe:
        screen = screen_text(create_lobby_app(model, input=pipe, output=DummyOutput()), 80, 24)
    assert "can see its cards" not in screen and "seat  side name" in screen
    model = LobbyModel("Kitchen", preset("cutthroat3"), SEATS[:3], you=1)
    with create_pipe_input() as pipe:
        screen = screen_text(create_lobby_app(model, input=pipe, output=DummyOutput()), 80, 24)
    assert "seat  name" in screen and "side" not in screen.split("seat  name")[1].split("\n")[0]


async def test_a_game_that_differs_from_the_players_log_needs_an_explicit_yes() -> None:
    """A table whose game is not what the player's own log of the game it follows says: the differences are
    shown with the rules, and accepting asks first; n goes back with nothing answered, y then accepts."""
    model = LobbyModel("Kitchen", preset("classic"), SEATS, you=1,
                       after=After(bytes(range(16)), CONTINUATION, (SideTotal(120, 3), SideTotal(80, 1)), 2))
    model.set_doubts(["the target is 1000, where game 000102030405 had 500"], "Your log says otherwise.")
    with create_pipe_input() as pipe:
        shown = screen_text(create_lobby_app(model, input=pipe, output=DummyOutput()), 80, 24)
        app = create_lobby_app(model, input=pipe, output=DummyOutput())
        running = asyncio.ensure_future(app.run_async())
        for key, asked in (("a", True), ("n", False), (KEYS["enter"], True), ("n", False), ("y", True)):
            pipe.send_text(key)
            await until(partial(lambda asked: model.confirming is asked, asked), what=f"the key {key!r}")
            assert model.answer is None and not running.done()
            question = "Your log says otherwise.\nAccept it all the same? y accepts · n goes back"
            assert (model.hint() == question) is asked
        pipe.send_text("y")
        assert await asyncio.wait_for(running, 5) is True
    assert re.search(r"!\s+the target is 1000, where game 000102030405 had 500", shown), shown
    assert model.answer is True and not model.confirming


@pytest.mark.parametrize("keys", ["d", "ad", "q"])
async def test_a_game_that_differs_can_still_be_declined_at_once(keys: str) -> None:
    model = LobbyModel("Kitchen", preset("classic"), SEATS, you=1)
    model.set_doubts(["you have no log of game 000102030405 here: nothing of it can be checked"])
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        assert await create_lobby_app(model, input=pipe, output=DummyOutput()).run_async() is False


async def test_without_doubts_a_is_enough() -> None:
    model = LobbyModel("Kitchen", preset("classic"), SEATS, you=1)
    model.set_doubts([])
    with create_pipe_input() as pipe:
        pipe.send_text("a")
        assert await create_lobby_app(model, input=pipe, output=DummyOutput()).run_async() is True
