"""Smoke test in a real pseudo-terminal: start the game screen, play a card with the keyboard, resize, quit.

The proof that a card was played is the signed log the game writes, read back and verified: the screen's
bytes are only waited on for the first frame.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pexpect
import pytest
from helpers.terminal import drain, leave, plays_by_seat_0

from p2pspades.audit import Status, verify_file

pytestmark = [pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(90)]


def test_play_a_card_in_a_real_terminal(tmp_path: Path) -> None:
    game_log = tmp_path / "smoke.p2plog"
    env = dict(os.environ, TERM="xterm-256color", LC_ALL="C.UTF-8", LANG="C.UTF-8")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "p2pspades.ui.local", "--seed", "smoke", "--bot", "random", "--bot-delay", "0",
         "--target", "300", "--log", str(game_log)],
        dimensions=(24, 80),
        env=env,
        encoding="utf-8",
        timeout=30,
    )
    try:
        child.expect("p2pspades")  # the first frame is drawn
        deadline = time.monotonic() + 40
        resized = False
        # Enter bids the dialog's default and plays the chosen (first legal) card: press it until two are out
        while plays_by_seat_0(game_log) < 2:
            assert time.monotonic() < deadline, "no card of ours reached the log"
            child.send("\r")
            time.sleep(0.3)
            if plays_by_seat_0(game_log) == 1 and not resized:
                child.setwinsize(40, 120)  # the screen must survive a resize mid-game
                resized = True
            drain(child)
        leave(child)  # Ctrl-C asks first, and y leaves
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, "a confirmed leave exits with 0"
    assert resized
    verdict = verify_file(game_log)
    assert verdict.status is Status.INCOMPLETE, verdict.summary  # valid so far, stopped by the person
    assert plays_by_seat_0(game_log) >= 2
