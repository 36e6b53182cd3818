"""Driving the screens from tests: the bytes a terminal sends for each key, and waiting for the UI.

Use with `prompt_toolkit.input.create_pipe_input()` and `prompt_toolkit.output.DummyOutput()`:

    with create_pipe_input() as keys:
        app = create_app(state, input=keys, output=DummyOutput())
        ...
        keys.send_text(KEYS["right"] + KEYS["enter"])
        await until(lambda: state.decision is None)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

#: what a VT100 terminal sends for the keys the screens use
KEYS = {
    "enter": "\r",
    "left": "\x1b[D",
    "right": "\x1b[C",
    "up": "\x1b[A",
    "down": "\x1b[B",
    "home": "\x1b[H",
    "end": "\x1b[F",
    "pageup": "\x1b[5~",
    "pagedown": "\x1b[6~",
    "backspace": "\x7f",
    "ctrl-c": "\x03",
    "ctrl-q": "\x11",
    "tab": "\t",
    "escape": "\x1b",
}


async def until(condition: Callable[[], bool], timeout: float = 10.0, what: str = "the condition") -> None:
    """Wait (polling the event loop) until `condition()` holds; TimeoutError naming `what` otherwise."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)
