"""Helpers for the tests that drive `p2pspades` in a real pseudo-terminal with pexpect."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pexpect

from p2pspades import log

WAIT = 30.0
"""Generous upper bound for the screen to answer a key; tests never assert on speed."""


def plays_by_seat_0(path: Path) -> int:
    """How many cards seat 0 has played in the log at `path` so far (0 while there is no log yet)."""
    if not path.exists():
        return 0
    return sum(1 for raw in log.read_log(path).frames
               if (p := log.open_envelope(raw).payload).get("t") == "play" and p.get("s") == 0)


def drain(child: Any) -> None:
    """Read whatever the screen wrote, so the terminal never blocks the game."""
    try:
        while True:
            child.read_nonblocking(65536, timeout=0)
    except (pexpect.TIMEOUT, pexpect.EOF):
        pass


def leave(child: Any) -> str:
    """Ctrl-C, wait for the screen to ask whether to leave, answer yes, and wait for the program to end.
    Returns what it wrote after the question."""
    drain(child)
    child.send("\x03")
    child.expect("Leave the game", timeout=WAIT)
    child.send("y")
    child.expect(pexpect.EOF, timeout=WAIT)
    return str(child.before or "")
