"""Errors of the crypto layer.

Anything a peer can send us (a point, a scalar, a seed it reveals, a deck it publishes) fails with a
`RemoteError` subclass, so the table can turn it into a cheating record naming the sender. Misuse of the API
by our own code (a bad game id, an impossible deck size) is a `LocalError`.
"""

from __future__ import annotations

from ..checks import Check
from ..errors import N_, Detail, LocalError, RemoteError

AT_POSITION = N_("position {position}: {detail}")
"""The detail of a bad point or scalar at a deck's position."""
REFUSED = N_("refused by libsodium")
"""The detail of a point or key that libsodium refuses, where nothing more precise is known."""


class BadPoint(RemoteError, ValueError):
    """A group element that is not a valid point of the prime-order group (or not 32 bytes)."""

    def __init__(self, detail: str, seat: int | None = None, position: int | None = None) -> None:
        if position is not None:
            detail = Detail(AT_POSITION, position=position, detail=detail)
        super().__init__(Check.BAD_POINT, detail, seat)
        self.position = position


class BadScalar(RemoteError, ValueError):
    """A scalar that is not 32 bytes, not reduced below the group order L, or zero."""

    def __init__(self, detail: str, seat: int | None = None, position: int | None = None) -> None:
        if position is not None:
            detail = Detail(AT_POSITION, position=position, detail=detail)
        super().__init__(Check.BAD_SCALAR, detail, seat)
        self.position = position


class BadSeed(RemoteError, ValueError):
    """A revealed seed that is not 32 bytes (or, with negligible probability, derives a zero scalar)."""

    def __init__(self, detail: str, seat: int | None = None) -> None:
        super().__init__(Check.BAD_SEED, detail, seat)


class BadDeck(RemoteError, ValueError):
    """A published deck with the wrong number of positions, or with two equal points."""

    def __init__(self, detail: str, seat: int | None = None) -> None:
        super().__init__(Check.BAD_DECK, detail, seat)


class BadStep(RemoteError):
    """A published shuffle or lock (`step`: `Check.SHUFFLE` or `Check.LOCK`) that differs from its
    recomputation from the revealed seed; its check is `bad-shuffle` or `bad-lock`."""

    def __init__(self, step: Check, detail: str, seat: int | None = None,
                 position: int | None = None) -> None:
        super().__init__(Check(f"bad-{step}"), detail, seat)
        self.step = step
        self.position = position


class WeakKey(RemoteError, ValueError):
    """An Ed25519 public key that is refused: not 32 bytes, non-canonical, not on the curve, of small order
    (the identity included), or with a torsion component. Anyone could sign for some of these keys."""

    def __init__(self, detail: str, seat: int | None = None) -> None:
        super().__init__(Check.WEAK_KEY, detail, seat)


class CryptoUsageError(LocalError, ValueError):
    """The crypto API was called with a value our own code should never produce."""


class IdentityError(LocalError, ValueError):
    """An identity key file that cannot be used (unreadable, not a key, or open to other users)."""
