"""Where the commands' lines for the person go: the terminal, or, while a page shows the game (`--web`), above
its status line and on the page too."""

from __future__ import annotations

from collections.abc import Callable

from p2pspades.printable import printable_lines

_echo: list[Callable[[str], None]] = []


def set_echo(echo: Callable[[str], None] | None) -> None:
    """Where `say` prints while a page shows the game (`--web`): above its status line, and on the page
    too; None: the terminal alone again."""
    _echo[:] = [] if echo is None else [echo]


def say(text: str) -> None:
    """Print a line for the person; names and reasons from the network in it are shown escaped."""
    line = printable_lines(text)
    if _echo:
        _echo[0](line)
    else:
        print(line, flush=True)
