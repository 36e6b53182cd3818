"""The effect of each message type on a table, registered by the machine that owns the type: the first-dealer
draw (`opening.py`), the hand (`hand.py`) and the draw pile (`drawpile.py`).

An effect checks an entry against the cryptography and the rules, records what it establishes, and moves the
table to the next stage that `stages.TRANSITIONS` lists for it. It raises `RemoteError` or `IllegalAction`
for an entry that does not hold; the table then names its signer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from p2pspades.table import messages as msg

if TYPE_CHECKING:
    from p2pspades.table.machine import Table

M = TypeVar("M", bound=msg.Message)
Effect = Callable[["Table", Any, int, int], None]
EFFECTS: dict[type[msg.Message], Effect] = {}


def effect(cls: type[M]) -> Callable[[Callable[[Table, M, int, int], None]], Callable[[Table, M, int, int], None]]:  # noqa: E501
    """Register the function that applies a message of type `cls` (sent by `seat`, entry `seq`)."""

    def register(fn: Callable[[Table, M, int, int], None]) -> Callable[[Table, M, int, int], None]:
        EFFECTS[cls] = fn
        return fn

    return register


def effect_of(kind: type[msg.Message]) -> Effect:
    """The effect of a message of type `kind` (a version 2 form takes its version 1 type's)."""
    return next(EFFECTS[c] for c in kind.__mro__ if c in EFFECTS)
