"""asyncio odds and ends shared by the network drivers."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def settle(value: T | Awaitable[T]) -> T:
    """The value of a callback that may answer at once or later: `value` itself, or what it awaits to."""
    if inspect.isawaitable(value):
        return await value
    return value
