"""Deterministic randomness from bytes.

The engine has no randomness of its own: where chance enters (the draw for the first dealer, a seed-derived
permutation), it reads from a `ByteStream` over bytes it was given. The stream is SHAKE-256 of the seed, read
in 4-byte big-endian words, and integers are drawn by rejection sampling so that they are exactly uniform.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

_WORD = 4
_SPAN = 1 << 32


class ByteStream:
    """An endless, reproducible stream of bytes: SHAKE-256(seed)."""

    __slots__ = ("_buffer", "_offset", "_seed")

    def __init__(self, seed: bytes) -> None:
        self._seed = bytes(seed)
        self._buffer = b""
        self._offset = 0

    def read(self, n: int) -> bytes:
        """The next `n` bytes of the stream."""
        end = self._offset + n
        if end > len(self._buffer):
            # SHAKE output is prefix-stable, so asking for more returns the same bytes extended.
            self._buffer = hashlib.shake_256(self._seed).digest(max(2 * len(self._buffer), end, 256))
        out = self._buffer[self._offset : end]
        self._offset = end
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), for 1 <= n <= 2**32."""
        if not 1 <= n <= _SPAN:
            raise ValueError(f"below() needs 1 <= n <= 2**32, got {n}")
        limit = _SPAN - (_SPAN % n)
        while True:
            x = int.from_bytes(self.read(_WORD), "big")
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place: for i from len-1 down to 1, swap items[i] with items[below(i + 1)]."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def permutation(self, n: int) -> tuple[int, ...]:
        """A uniform permutation of range(n), as `shuffle` leaves it."""
        items = list(range(n))
        self.shuffle(items)
        return tuple(items)
