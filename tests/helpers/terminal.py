"""Helpers for the tests that drive `p2pspades` in a real pseudo-terminal with pexpect."""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pexpect
import pyte

from p2pspades import log

WAIT = 30.0
"""Generous upper bound for the screen to answer a key; tests never assert on speed."""


def as_a_terminal_starts_it() -> None:
    """A `preexec_fn` for a program a test interrupts: Ctrl-C (SIGINT) at its default, as a terminal starts a
    program, whatever the suite inherited (a shell's background job ignores SIGINT, and so would its
    children)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


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


class Terminal:
    """A `p2pspades` process in a pseudo-terminal, its output drawn by a terminal emulator: what a person
    sees on the screen, which the test reads as text."""

    def __init__(self, env: dict[str, str], name: str, *args: str, rows: int = 30, cols: int = 100) -> None:
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        env = dict(env, TERM="xterm", LANG="C.UTF-8", LC_ALL="C.UTF-8")
        self.proc = pexpect.spawn(sys.executable, ["-m", "p2pspades", *args], env=env,
                                  dimensions=(rows, cols), preexec_fn=as_a_terminal_starts_it)
        self.name = name
        self.hung_up = False

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def pump(self, wait: float = 0.1) -> None:
        try:
            self.stream.feed(self.proc.read_nonblocking(65536, timeout=wait))
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            raise AssertionError(f"{self.name} ended; its screen:\n{self.text()}") from None

    def expect(self, pattern: str, timeout: float = 30.0, *, others: tuple[Terminal, ...] = ()) -> str:
        """Wait until `pattern` is on the screen (keeping `others` drawn meanwhile); returns the screen once
        the frame that showed it is drawn whole (see `settle`)."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern, screen := self.text()):
            assert time.monotonic() < deadline, f"{self.name}: {pattern!r} never shown:\n{screen}"
            self.pump()
            for other in others:
                other.pump(0)
        self.settle()
        settled = self.text()
        return settled if re.search(pattern, settled) else screen

    def settle(self, quiet: float = 0.15, most: float = 1.0) -> None:
        """Read on until the program has written nothing for `quiet` seconds (at most `most` seconds in all).
        A frame can reach the terminal in more than one write, and a screen read in between shows half of
        it: the new header over the old panels, or a window half drawn, and resizing the terminal then
        scrambles what follows."""
        end = time.monotonic() + most
        while time.monotonic() < end:
            try:
                self.stream.feed(self.proc.read_nonblocking(65536, timeout=quiet))
            except (pexpect.TIMEOUT, pexpect.EOF):
                return

    def hang_up(self) -> None:
        """Close the terminal, as a person closes its window: the program gets SIGHUP, and nothing it writes
        is read any more. `ended()` then says when it is gone."""
        # Closed by the one object that owns the descriptor, not by its number: closed by number, the pty's
        # own clean-up at garbage collection closed the same number again, by then another terminal's.
        pty = self.proc.ptyproc
        pty.fileobj.close()
        pty.fd, pty.closed = -1, True  # nothing left to close; `close` ends the program
        self.proc.child_fd = -1
        self.hung_up = True

    def ended(self) -> int | None:
        """The program's exit status once it ended (None while it runs), after `hang_up`."""
        pid, status = os.waitpid(self.proc.pid, os.WNOHANG)
        if pid == 0:
            return None
        self.proc.pid = -1
        return os.waitstatus_to_exitcode(status)

    def wait_ended(self, timeout: float = 30.0) -> int:
        """The program's exit status once it has ended, after `hang_up` (polled, against `timeout`)."""
        deadline = time.monotonic() + timeout
        while (status := self.ended()) is None:
            assert time.monotonic() < deadline, f"{self.name}'s program did not end after its terminal closed"
            time.sleep(0.05)
        return status

    def close(self) -> None:
        if self.hung_up:
            if self.proc.pid > 0 and self.ended() is None:
                os.kill(self.proc.pid, signal.SIGKILL)
                os.waitpid(self.proc.pid, 0)
            return
        self.proc.terminate(force=True)
