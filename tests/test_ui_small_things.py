"""Small things on the game screen, as a person meets them in a real terminal (read through pyte): bots are
marked as bots in the seats panel, a refused typed card does not keep the highlight, and the leave dialog of
a game against one's own bots does not speak of a table waiting for us."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pexpect
import pytest
from helpers.lan import Lan
from helpers.terminal import Terminal

pytestmark = [pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(240)]

SUIT_LETTER = {"♠": "s", "♥": "h", "♣": "c", "♦": "d"}
CARD = re.compile(r"(10|[2-9JQKA])([♠♥♣♦])")


def seat_rows(screen: str) -> list[str]:
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if "─ Seats " in line)
    return [line for line in lines[top + 2:] if line.startswith("│")][:4]


def status_line(term: Terminal) -> str:
    return term.screen.display[-2]


def hand(screen: str) -> tuple[list[str], str | None]:
    """The codes of the cards in our hand as the screen shows them, and the one in [brackets]."""
    lines = screen.splitlines()
    row = lines[next(i for i, line in enumerate(lines) if "─ Your hand" in line) + 1]
    codes = [rank.lower() + SUIT_LETTER[suit] for rank, suit in CARD.findall(row)]
    chosen = re.search(r"\[\s*(10|[2-9JQKA])([♠♥♣♦])\s*\]", row)
    return codes, None if chosen is None else chosen.group(1).lower() + SUIT_LETTER[chosen.group(2)]


def held(term: Terminal) -> int:
    """How many cards the hand panel's title says we hold."""
    found = re.search(r"─ Your hand \((\d+)\)", term.text())
    assert found is not None, term.text()
    return int(found.group(1))


def test_a_refused_typed_card_moves_the_highlight_to_a_card_that_may_be_played(tmp_path: Path) -> None:
    env = Lan(tmp_path).env("me")
    term = Terminal(env, "play", "play", "--local", "--seed", "9", "--bot", "random", "--trick-pause", "0",
                    "--target", "300", rows=24, cols=80)
    refusal = re.compile(r"must|not broken|may not")
    try:
        refused = None
        deadline = time.monotonic() + 120
        while refused is None:
            assert time.monotonic() < deadline, f"no card was ever refused:\n{term.text()}"
            screen = term.expect(r"Your (bid|turn)")
            if "Your bid" in status_line(term):  # Enter bids the dialog's default
                term.proc.send("\r")
                while "Your bid" in status_line(term):
                    term.pump()
                continue
            codes, _ = hand(screen)
            before = held(term)
            code = codes[-1]  # the last suit held: often one that may not be played now
            term.proc.send(code + "\r")
            answered = time.monotonic() + 30
            while held(term) == before and not refusal.search(status_line(term)):
                assert time.monotonic() < answered, f"{code}: neither played nor refused:\n{term.text()}"
                term.pump()
            if held(term) == before:
                refused = code
        screen = term.text()
        codes, chosen = hand(screen)
        assert chosen is not None and chosen != refused, f"{refused} refused:\n{screen}"
        # the highlighted card is one the rules allow: Enter plays it
        term.proc.send("\r")
        answered = time.monotonic() + 30
        while held(term) == before:
            assert time.monotonic() < answered, f"Enter did not play {chosen}:\n{term.text()}"
            term.pump()
        # leaving a game held in memory against our own bots: nobody is said to wait for us
        term.proc.send("\x11")
        dialog = term.expect("Leave the game now")
        assert "wait for your seat" not in dialog and "in memory" in dialog, dialog
    finally:
        term.close()


def test_bots_are_marked_and_nobody_waits_when_you_leave_your_own_bots(tmp_path: Path) -> None:
    env = Lan(tmp_path).env("me")
    term = Terminal(env, "play", "play", "--target", "10", "--profile", "me", rows=24, cols=80)
    try:
        screen = term.expect(r"Your (bid|turn)", 90)
        rows = seat_rows(screen)
        assert "you" in rows[0] and all("your bot" in row for row in rows[1:]), screen
        term.proc.send("\x11")
        dialog = term.expect("Leave the game now")
        assert "wait for your seat" not in dialog, dialog
        assert "they stop with you" in dialog and "carries the game on" in dialog, dialog
        term.proc.send("y")
        term.proc.expect(pexpect.EOF, timeout=60)
    finally:
        term.close()


@pytest.mark.net
def test_a_joiner_sees_the_hosts_bots_marked_as_the_hosts(lan: Lan) -> None:
    lan.p2pspades("ana", "host", "--profile", "ana", "--auto", "--bots", "2", "--address", "127.0.0.1",
                  "--port", str(lan.port), "--no-advertise", "--target", "10")
    lan.wait_for("ana", "lobby: ")
    bo = Terminal(lan.env("bo"), "bo", "join", lan.lobby, "--profile", "bo", "--address", "127.0.0.1",
                  rows=24, cols=80)
    try:
        bo.expect(r"accept \(a\) or decline \(d\)", 60)
        bo.proc.send("a")
        screen = bo.expect(r"Your (bid|turn)|Blind nil\?", 120)
        rows = seat_rows(screen)
        bots = [row for row in rows if "bot of ana" in row]
        assert len(bots) == 2 and all("ana's bot" in row for row in bots), screen
        people = [row for row in rows if "bot of" not in row]
        assert len(people) == 2 and any(" you" in row for row in people), screen
    finally:
        bo.close()


GAME = Path(__file__).parent.parent / "protocol" / "vectors" / "game_v2.p2plog"


def words_of(screen: str) -> list[str]:
    return " ".join(screen.split()).split(" ")


@pytest.mark.parametrize(("command", "dialog", "need", "keys"), [
    (["play", "--local", "--bot", "random"], "", "80x24", "Ctrl-Q, then y, leaves the game."),
    (["replay", str(GAME)], "?", "80x18", "q quits."),
])
def test_a_small_terminal_says_so_between_words_and_draws_no_dialog_over_it(
        tmp_path: Path, command: list[str], dialog: str, need: str, keys: str) -> None:
    term = Terminal(Lan(tmp_path).env("me"), command[0], *command, rows=24, cols=80)
    try:
        term.expect("Hand 1|Seats")
        term.proc.send(dialog)  # a dialog is open: the game's first bid, or the replay's list of players
        term.expect(r"Your bid \(hand 1\)|─ Players ")
        term.proc.setwinsize(15, 60)
        term.screen.resize(15, 60)
        screen = term.expect(re.escape(keys.split()[-1]) + r"\s*$")
        said = (f"Window too small: make the terminal at least {need} (this one is 60x15). {keys}").split(" ")
        assert words_of(screen) == said, screen  # every word whole, and nothing else on the screen
    finally:
        term.close()


def test_the_replay_ends_with_who_won(tmp_path: Path) -> None:
    term = Terminal(Lan(tmp_path).env("me"), "replay", "replay", str(GAME), rows=24, cols=80)
    try:
        term.expect("Hand 1 of")
        term.proc.send("\x1b[F")  # End: the last card of the last hand
        screen = term.expect("Game over")
        assert re.search(r"Game over: Ben\+Dan win, -200 to -145", screen), screen
        term.proc.send("\x1b[H")  # Home: back at the start, the game is not over yet
        screen = term.expect(r"card 0/52")
        assert "Game over" not in screen, screen
    finally:
        term.close()
