"""The group: Ed25519's prime-order subgroup through libsodium (PyNaCl).

Points are 32-byte compressed Edwards encodings; scalars are 32-byte little-endian integers below the group
order L. `crypto_scalarmult_ed25519_noclamp` refuses every point we must refuse (a non-canonical encoding,
a point off the curve, the identity, a point of small order, a point with a torsion component), so a point
that is multiplied needs no separate check: the multiplication *is* the check. Only when it fails do we spend
time on finding out why, to give the peer's violation a precise description.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Final, Protocol, TypeAlias, TypeVar

from nacl.bindings import (
    crypto_core_ed25519_add,
    crypto_core_ed25519_from_uniform,
    crypto_core_ed25519_is_valid_point,
    crypto_scalarmult_ed25519_noclamp,
)
from nacl.exceptions import CryptoError

from ..errors import N_, Detail
from .errors import REFUSED, BadPoint, BadScalar, CryptoUsageError
from .hashing import DOMAIN_CARD, H

Point: TypeAlias = bytes
"""A 32-byte canonical Ed25519 point encoding (y little-endian, top bit = sign of x)."""
Scalar: TypeAlias = bytes
"""A 32-byte little-endian integer in [1, L)."""

POINT_BYTES: Final = 32
SCALAR_BYTES: Final = 32
L: Final = 2**252 + 27742317777372353535851937790883648493
"""The order of the prime-order subgroup."""
FIELD_P: Final = 2**255 - 19
IDENTITY: Final = (1).to_bytes(32, "little")
"""The canonical encoding of the neutral element (x = 0, y = 1)."""
_Y_MASK: Final = (1 << 255) - 1
# Any scalar whose top byte is below 0x10 is below 2**252 < L, so it is canonical without a bignum compare.
_SURELY_CANONICAL_TOP: Final = 0x10


class HasCode(Protocol):
    """What the crypto layer needs of a card: its code ("AS", "TH", "BJ")."""

    @property
    def code(self) -> str: ...


CardT = TypeVar("CardT", bound=HasCode)


# --- scalars ---


def scalar_from_int(x: int) -> Scalar:
    """Encode x mod L as a scalar."""
    return (x % L).to_bytes(32, "little")


def scalar_to_int(s: Scalar) -> int:
    """Decode a scalar (no checks: use `check_scalar` on anything a peer sent)."""
    return int.from_bytes(s, "little")


def reduce_wide(h: bytes) -> Scalar:
    """A 64-byte hash as a scalar: little-endian integer mod L (`crypto_core_ed25519_scalar_reduce`)."""
    if len(h) != 64:
        raise CryptoUsageError(f"a wide scalar is 64 bytes, got {len(h)}")
    return (int.from_bytes(h, "little") % L).to_bytes(32, "little")


def check_scalar(s: bytes) -> Scalar:
    """Refuse a scalar that is not 32 bytes, not below L (non-canonical), or zero; return it unchanged."""
    if not isinstance(s, bytes) or len(s) != SCALAR_BYTES:
        why = Detail(N_("a scalar is {scalar_bytes} bytes, got {value}"), scalar_bytes=SCALAR_BYTES,
                     value=_describe(s))
        raise BadScalar(why)
    if s[31] >= _SURELY_CANONICAL_TOP and int.from_bytes(s, "little") >= L:
        raise BadScalar(Detail(N_("non-canonical scalar (not reduced below the group order L)")))
    if not any(s):
        raise BadScalar("zero scalar")
    return s


def invert(s: Scalar) -> Scalar:
    """The inverse of a nonzero scalar mod L."""
    x = int.from_bytes(s, "little") % L
    if x == 0:
        raise BadScalar(Detail(N_("zero scalar has no inverse")))
    return pow(x, -1, L).to_bytes(32, "little")


# --- points ---


def _describe(value: object) -> str:
    if isinstance(value, bytes):
        return f"{len(value)} bytes"
    return f"a {type(value).__name__}, not bytes"


def explain_bad_point(p: object) -> Detail | None:
    """Why `p` is not a valid point of the prime-order group, or None if it is one.

    Slow (several libsodium calls): for error messages only, never in the hot path.
    """
    if not isinstance(p, bytes) or len(p) != POINT_BYTES:
        return Detail(N_("a point is {size} bytes, got {got}"), size=POINT_BYTES, got=_describe(p))
    y = int.from_bytes(p, "little") & _Y_MASK
    if y >= FIELD_P:
        return Detail(N_("non-canonical encoding (y is not reduced below 2^255 - 19)"))
    try:
        eight = crypto_core_ed25519_add(p, p)
        eight = crypto_core_ed25519_add(eight, eight)
        eight = crypto_core_ed25519_add(eight, eight)
    except CryptoError:
        return Detail(N_("not a point on the curve"))
    if eight == IDENTITY:
        if y == 1:
            return Detail(N_("the identity") if p == IDENTITY else N_("the identity (with the sign bit set)"))
        return Detail(N_("a point of small order"))
    if not crypto_core_ed25519_is_valid_point(p):
        return Detail(N_("not in the prime-order subgroup (it has a torsion component)"))
    return None


def check_point(p: bytes) -> Point:
    """Refuse anything but a canonical encoding of a non-identity point of the prime-order subgroup.

    For points that are stored without being multiplied; `mul` checks its point itself.
    """
    if not isinstance(p, bytes) or len(p) != POINT_BYTES or not crypto_core_ed25519_is_valid_point(p):
        raise BadPoint(explain_bad_point(p) or Detail(REFUSED))
    return p


def point_error(s: object, p: object, position: int | None = None) -> BadPoint | BadScalar:
    """The precise error for a multiplication s * p that libsodium refused."""
    if not isinstance(s, bytes) or len(s) != SCALAR_BYTES:
        why = Detail(N_("a scalar is {size} bytes, got {got}"), size=SCALAR_BYTES, got=_describe(s))
        return BadScalar(why, position=position)
    if int.from_bytes(s, "little") % L == 0:
        return BadScalar(Detail(N_("the scalar is zero modulo the group order")), position=position)
    return BadPoint(explain_bad_point(p) or Detail(REFUSED), position=position)


def mul(s: Scalar, p: Point) -> Point:
    """s * p. Raises BadPoint for any invalid point and BadScalar for a non-canonical or zero scalar."""
    if (
        not isinstance(s, bytes)
        or len(s) != SCALAR_BYTES
        or (s[31] >= _SURELY_CANONICAL_TOP and int.from_bytes(s, "little") >= L)
    ):
        check_scalar(s)
    try:
        return crypto_scalarmult_ed25519_noclamp(s, p)
    except CryptoError:
        raise point_error(s, p) from None


def mul_many(scalars: Iterable[Scalar], points: Iterable[Point]) -> list[Point]:
    """[s * p for each pair]. Every point is checked by its multiplication (BadPoint names the first bad
    position); the scalars must be reduced already, as derived and computed ones are (`check_scalar` any
    scalar a peer sent).
    """
    smul = crypto_scalarmult_ed25519_noclamp
    s_list = list(scalars)
    p_list = list(points)
    if len(s_list) != len(p_list):
        raise CryptoUsageError(f"{len(s_list)} scalars for {len(p_list)} points")
    try:
        return list(map(smul, s_list, p_list))
    except CryptoError:
        raise first_mul_error(s_list, p_list) from None


def first_mul_error(scalars: Sequence[object], points: Sequence[object]) -> BadPoint | BadScalar:
    """The error of the first multiplication of a batch that libsodium refuses (error path only)."""
    for i, (s, p) in enumerate(zip(scalars, points, strict=True)):
        try:
            crypto_scalarmult_ed25519_noclamp(s, p)  # type: ignore[arg-type]
        except (CryptoError, TypeError):
            return point_error(s, p, position=i)
    raise AssertionError("a multiplication failed once and succeeded on retry")  # pragma: no cover


# --- card points ---


@functools.lru_cache(maxsize=256)
def card_point(code: str) -> Point:
    """The point of a card: from_uniform(first 32 bytes of H("p2pspades/v1/card", code in ASCII))."""
    try:
        raw = code.encode("ascii")
    except (UnicodeEncodeError, AttributeError):
        raise CryptoUsageError(f"a card code is ASCII text, got {code!r}") from None
    return crypto_core_ed25519_from_uniform(H(DOMAIN_CARD, raw)[:32])


def card_table(deck: Sequence[CardT]) -> dict[Point, CardT]:
    """Point -> card for every card of a deck, to recognise an opened card."""
    table: dict[Point, CardT] = {}
    for card in deck:
        point = card_point(card.code)
        if point in table:
            raise CryptoUsageError(f"card {card.code} appears twice in the deck")
        table[point] = card
    return table


def card_points(deck: Sequence[HasCode]) -> list[Point]:
    """The points of a deck, in the deck's order: the starting deck of the first shuffle."""
    return [card_point(card.code) for card in deck]
