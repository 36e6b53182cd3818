"""The pseudo-terminal helper itself: a terminal closed as a person closes its window leaves no clean-up
that could close another terminal's descriptor."""

from __future__ import annotations

import gc
import os

import pytest
from helpers.terminal import Terminal

pytestmark = [pytest.mark.pty]


def test_a_hung_up_terminal_never_closes_a_descriptor_given_out_after_it() -> None:
    first = Terminal(dict(os.environ), "first", "--version")
    number = first.proc.child_fd
    first.hang_up()
    first.wait_ended()
    reader, writer = os.pipe()
    os.dup2(reader, number)  # the number the terminal had, given out again, as the next terminal may get it
    try:
        first.close()
        del first
        gc.collect()  # the pty's own clean-up runs here
        os.fstat(number)  # raises OSError (EBADF) if that clean-up closed the number again
    finally:
        for fd in {reader, writer, number}:
            os.close(fd)
