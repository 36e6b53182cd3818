"""The game screen as a person uses it: `p2pspades play --local` in a real pseudo-terminal, read back
through a terminal emulator (pyte) so the assertions are on what the screen shows, not on escape sequences.

- A completed trick stays on the table with its winner until a key is pressed (the pause is long here).
- Leaving asks first; `n` keeps playing; `y` leaves with exit code 0, and the terminal is given back clean.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect
import pyte
import pytest

from p2pspades.audit import Status, verify_file

pytestmark = [pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(120)]

ROWS, COLUMNS = 24, 80


class Terminal:
    """A child process in a pseudo-terminal and the screen it draws."""

    def __init__(self, args: list[str], home: Path) -> None:
        env = dict(os.environ, P2PSPADES_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
                   TERM="xterm-256color", LC_ALL="C.UTF-8", LANG="C.UTF-8")
        env.pop("NO_COLOR", None)
        env.pop("P2PSPADES_ASCII", None)
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        self.child: Any = pexpect.spawn(sys.executable, ["-m", "p2pspades", *args],
                                        dimensions=(ROWS, COLUMNS), env=env, timeout=30)

    def read(self) -> None:
        try:
            while True:
                data = self.child.read_nonblocking(65536, timeout=0.05)
                self.raw += data
                self.stream.feed(data)
        except (pexpect.TIMEOUT, pexpect.EOF):
            pass

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait(self, condition: Callable[[str], bool], what: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while True:
            self.read()
            if condition(self.text):
                return self.text
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; the screen shows:\n{self.text}")

    def send(self, keys: str) -> None:
        self.child.send(keys)

    def close(self) -> None:
        self.child.close(force=True)


def status_line(screen: str) -> str:
    return screen.splitlines()[ROWS - 2]


def our_turn(screen: str) -> bool:
    return status_line(screen).startswith((" Your bid", " Your turn"))


def test_a_completed_trick_stays_until_a_key_then_leaving_asks_and_exits_0(tmp_path: Path) -> None:
    game_log = tmp_path / "pty.p2plog"
    term = Terminal(["play", "--local", "--seed", "4", "--bot", "random", "--target", "100",
                     "--trick-pause", "30", "--log", str(game_log)], tmp_path)
    try:
        term.wait(lambda s: "p2pspades" in s and "Seats" in s, "the first frame")

        def trick_held(screen: str) -> bool:
            return "trick 1 · any key continues" in status_line(screen)

        # Enter bids the dialog's default and plays the chosen card, whenever the screen asks us
        deadline = time.monotonic() + 60
        while not trick_held(term.text):
            assert time.monotonic() < deadline, term.text
            screen = term.wait(lambda s: trick_held(s) or our_turn(s), "our turn or a completed trick")
            if not trick_held(screen):
                before = status_line(screen)
                term.send("\r")
                term.wait(lambda s, before=before: status_line(s) != before, "our answer")  # type: ignore[misc]
        held = term.text
        # the trick panel shows four cards and who took them; the status line names the winner too
        caption = [line for line in held.splitlines() if "trick 1" in line and "│" in line]
        assert caption and ("takes trick 1" in caption[0] or "You take trick 1" in caption[0]), held
        cards = sum(line.count(suit) for line in held.splitlines()[7:15] for suit in "♠♥♦♣")
        assert cards >= 4, held
        # the bots play on to our turn (the seat map marks it): the trick stays, because the pause is 30 s
        held = term.wait(lambda s: "▶ 0 You" in s, "our turn after the trick")
        assert trick_held(held), held
        term.send("x")  # any key goes on
        term.wait(lambda s: not trick_held(s), "the end of the pause")
        # leaving asks first: n keeps playing, y leaves
        term.send("\x11")  # Ctrl-Q
        term.wait(lambda s: "Leave the game?" in s, "the question")
        term.send("n")
        term.wait(lambda s: "Leave the game?" not in s, "the question to close")
        term.send("\x11")
        term.wait(lambda s: "Leave the game?" in s, "the question again")
        term.send("y")
        term.child.expect(pexpect.EOF, timeout=30)
        term.raw += term.child.before or b""
    finally:
        term.close()
    assert term.child.exitstatus == 0, "a confirmed leave is not an error"
    # the alternate screen was left: what remains is what the command printed after the game
    tail = term.raw[term.raw.rfind(b"\x1b[?1049l") :]
    assert b"game log written to" in tail, tail
    after = tail.decode("utf-8", "replace")
    assert "Seats" not in after and "Your hand" not in after, "no line of the game screen is left behind"
    verdict = verify_file(game_log)
    assert verdict.status is Status.INCOMPLETE, verdict.summary
