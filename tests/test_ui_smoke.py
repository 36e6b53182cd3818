"""Smoke test in a real pseudo-terminal: start the game screen, play a card with the keyboard, resize, quit.

The proof that a card was played is the signed log the game writes, read back and verified: the screen's
bytes are only waited on for the first frame.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from p2pspades import log
from p2pspades.audit import Status, verify_file

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.timeout(90)


def plays_by_seat_0(path: Path) -> int:
    if not path.exists():
        return 0
    count = 0
    for raw in log.read_log(path).frames:
        payload = log.open_envelope(raw).payload
        if payload.get("t") == "play" and payload.get("s") == 0:
            count += 1
    return count


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
            _drain(child)
        child.send("\x03")  # Ctrl-C asks first ...
        time.sleep(0.3)
        child.send("y")  # ... and y leaves
        child.expect(pexpect.EOF, timeout=15)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, "a confirmed leave exits with 0"
    assert resized
    verdict = verify_file(game_log)
    assert verdict.status is Status.INCOMPLETE, verdict.summary  # valid so far, stopped by the person
    assert plays_by_seat_0(game_log) >= 2


def _drain(child: pexpect.spawn) -> None:  # type: ignore[name-defined]
    """Read whatever the screen wrote, so the terminal never blocks the game."""
    try:
        while True:
            child.read_nonblocking(65536, timeout=0)
    except (pexpect.TIMEOUT, pexpect.EOF):
        pass
