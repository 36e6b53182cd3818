"""The replay viewer on real signed logs: stepping by card, trick and hand with the keys, and the verdict."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from helpers.logs import write_log
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2pspades.audit import Status, Verdict, verify_file
from p2pspades.table.harness import Wire
from p2pspades.ui.capture import screen_text
from p2pspades.ui.replay import ReplayModel, create_replay_app, run_replay
from p2pspades.ui.testing import KEYS, until

pytestmark = pytest.mark.timeout(60)

@pytest.fixture(scope="module")
def entries(finished_game: Wire) -> list[bytes]:
    assert finished_game.tables[0].status == "complete"
    return list(finished_game.tables[0].entries)


@pytest.fixture(scope="module")
def verdict(entries: list[bytes], tmp_path_factory: pytest.TempPathFactory) -> Verdict:
    verdict = verify_file(write_log(tmp_path_factory.mktemp("replay") / "game.p2plog", entries))
    assert verdict.status is Status.VALID
    return verdict


@pytest.fixture
def model(verdict: Verdict) -> ReplayModel:
    return ReplayModel(verdict, "game.p2plog")


@pytest.mark.slow
def test_card_by_card_every_card_leaves_its_hand_exactly_once(model: ReplayModel) -> None:
    assert len(model.hands) == 2
    positions = []
    while True:
        hand = model.current
        assert hand is not None
        played = model.plays_so_far()
        assert len(played) == model.played
        for seat in range(4):
            gone = [card for s, card in played if s == seat]
            assert sorted(model.cards_left(seat) + gone) == sorted(hand.hands[seat])
        if model.at_end:
            assert tuple(model.tricks_won()) == hand.tricks_won
        positions.append((model.hand, model.played))
        before = positions[-1]
        model.step_card(1)
        if (model.hand, model.played) == before:
            break  # the end of the game
    assert len(positions) == 2 * (52 + 1)
    back = []
    while True:
        back.append((model.hand, model.played))
        model.step_card(-1)
        if (model.hand, model.played) == back[-1]:
            break
    assert back == positions[::-1], "stepping back retraces every position"


def test_trick_steps_stop_at_each_trick_and_cross_into_the_next_hand(model: ReplayModel) -> None:
    stops = []
    for _ in range(2 * 14):
        stops.append((model.hand, model.trick_number, model.played))
        model.step_trick(1)
    assert stops[:3] == [(0, 0, 0), (0, 1, 4), (0, 2, 8)]
    assert stops[13] == (0, 13, 52)
    assert stops[14] == (1, 0, 0), "after the last trick comes the next hand's bidding"
    assert (model.hand, model.played) == (1, 52)
    trick, number = model.trick_on_table()
    hand = model.current
    assert hand is not None and trick == hand.tricks[-1] and number == 13


async def test_the_keys_move_through_the_game(model: ReplayModel) -> None:
    def at() -> tuple[int, int]:
        return model.hand, model.played

    steps = [
        ("right", (0, 4)),
        ("right", (0, 8)),
        ("down", (0, 9)),
        ("up", (0, 8)),
        ("left", (0, 4)),
        ("pagedown", (1, 0)),
        ("end", (1, 52)),
        ("pageup", (1, 0)),
        ("pageup", (0, 0)),
        ("space", (0, 4)),
        ("home", (0, 0)),
    ]

    seen: list[tuple[int, int]] = []
    with create_pipe_input() as pipe:
        app = create_replay_app(model, input=pipe, output=DummyOutput())
        running = asyncio.ensure_future(app.run_async())
        for key, where in steps:
            pipe.send_text(" " if key == "space" else KEYS[key])

            def arrived(where: tuple[int, int] = where) -> bool:
                return at() == where

            await until(arrived, what=f"the {key} key")
            seen.append(at())
        pipe.send_text("?")
        await until(lambda: model.show_help)
        pipe.send_text(KEYS["right"])  # moves nothing while the players window is open
        pipe.send_text("?q")
        await asyncio.wait_for(running, 5)
    assert at() == (0, 0)
    assert seen == [where for _, where in steps]


def test_the_screen_shows_all_hands_the_trick_and_the_verdict(model: ReplayModel) -> None:
    with create_pipe_input() as pipe:
        app = create_replay_app(model, input=pipe, output=DummyOutput())
        model.step_trick(1)
        model.step_card(1)
        screen = screen_text(app, 80, 24)
    assert "valid and complete" in screen
    for name in ("Ann", "Bob", "Cat", "Dan"):
        assert name in screen
    hand = model.current
    assert hand is not None
    led = hand.tricks[1].plays[0][1]
    assert f"led by {model.names[hand.tricks[1].leader]}" in screen and led.glyph in screen
    gone = {card.glyph for _, card in hand.tricks[0].plays}
    seat_lines = [line for line in screen.splitlines() if re.search(r" won +\d+ ", line)]
    assert len(seat_lines) == 4
    shown = {token for line in seat_lines for token in line.strip("│ ").split()}
    assert not gone & shown, "the first trick's cards have left the hands"
    assert {card.glyph for card in hand.hands[0]} - gone - {led.glyph} <= shown


@pytest.mark.slow
def test_run_replay_gives_the_verdicts_exit_code(entries: list[bytes], tmp_path: Path) -> None:
    def replay(path: Path) -> int:
        with create_pipe_input() as pipe:
            pipe.send_text(KEYS["end"] + "q")
            return run_replay(path, input=pipe, output=DummyOutput())

    assert replay(write_log(tmp_path / "valid.p2plog", entries)) == 0
    assert replay(write_log(tmp_path / "cut.p2plog", entries[:60])) == 3
    tampered = entries[:100]
    raw = tampered[-1]
    tampered[-1] = raw[:-1] + bytes([raw[-1] ^ 1])  # the signature's last byte
    assert replay(write_log(tmp_path / "tampered.p2plog", tampered)) == 1
    verdict = verify_file(tmp_path / "tampered.p2plog")
    assert verdict.table is not None and verdict.table.game is not None
    assert len(verdict.table.game.history) == 1, "the hands before the tampered entry can still be replayed"


def test_a_file_that_is_no_log_is_reported_without_a_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.p2plog"
    junk.write_bytes(b"this is not a game log")
    with create_pipe_input() as pipe:
        assert run_replay(junk, input=pipe, output=DummyOutput()) == 2
        assert run_replay(tmp_path / "missing.p2plog", input=pipe, output=DummyOutput()) == 2
    out = capsys.readouterr().out
    assert "p2pspades replay:" in out and "no such file" in out
