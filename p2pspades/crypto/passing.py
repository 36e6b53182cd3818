"""The nil card pass (protocol/crypto.md §20): a seat hands its own lock key of a position to its partner,
sealed under a key the two share, so that the partner alone can open the card.

Every seat has a per-hand pass key `e` derived from its hand seed and publishes `E = e·B` with its hand
commitment. Two partners share the point `X = e_a·E_b = e_b·E_a` (Diffie–Hellman in the same prime-order
group as the deal). A key `k` of position `j` passed from seat `a` to seat `b` travels as the scalar
`k + pad mod L`, where the pad is hashed from `X`, `a`'s context, `b` and `j`: a one-time pad in the scalar
field. Nobody without `e_a` or `e_b` learns anything of `k`. The seal is deterministic, so once the seeds are
revealed every peer recomputes it and names a passer whose sealed key is wrong (PROTOCOL.md §8).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from nacl.bindings import crypto_scalarmult_ed25519_base_noclamp

from ..errors import N_, Detail
from .commit import check_seed
from .errors import BadScalar, BadSeed, CryptoUsageError
from .group import SCALAR_BYTES, L, Point, Scalar, mul
from .hashing import H

DOMAIN_PASS_KEY: Final = "p2pspades/v2/pass/key"
DOMAIN_PASS_PAD: Final = "p2pspades/v2/pass/pad"

#: the most cards one seat may pass (the `nil_pass` rule option is 0 to this)
MAX_PASS: Final = 3


def pass_key(seed: bytes, context: bytes) -> Scalar:
    """The seat's pass key `e = reduce(H("p2pspades/v2/pass/key", context, seed))` for one hand."""
    check_seed(seed)
    e = int.from_bytes(H(DOMAIN_PASS_KEY, context, seed), "little") % L
    if e == 0:  # pragma: no cover - probability about 2^-252
        raise BadSeed(Detail(N_("the seed derives a zero pass key")))
    return e.to_bytes(SCALAR_BYTES, "little")


def pass_public(seed: bytes, context: bytes) -> Point:
    """`E = e·B`: what the seat publishes with its hand commitment when the nil pass is on."""
    return crypto_scalarmult_ed25519_base_noclamp(pass_key(seed, context))


def shared_point(own_key: Scalar, other_public: Point) -> Point:
    """`X = e·E_other`: the point two partners share. An invalid `E_other` raises `BadPoint` (the
    multiplication is the check)."""
    return mul(own_key, other_public)


def pass_pad(shared: Point, sender_context: bytes, recipient: int, position: int) -> int:
    """`reduce(H("p2pspades/v2/pass/pad", ctx_sender, u8(recipient), u16(j), X))` as an integer mod L."""
    if not isinstance(recipient, int) or not 0 <= recipient < 256:
        raise CryptoUsageError(f"a seat is 0 to 255, got {recipient!r}")
    if not isinstance(position, int) or not 0 <= position < 1 << 16:
        raise CryptoUsageError(f"a position is 0 to 65535, got {position!r}")
    seat, j = recipient.to_bytes(1, "big"), position.to_bytes(2, "big")
    digest = H(DOMAIN_PASS_PAD, sender_context, seat, j, shared)
    return int.from_bytes(digest, "little") % L


def seal_key(key: Scalar, shared: Point, sender_context: bytes, recipient: int, position: int) -> bytes:
    """The sealed key of a pass: `enc((k + pad) mod L)`, 32 bytes."""
    k = int.from_bytes(key, "little")
    if len(key) != SCALAR_BYTES or k >= L:
        raise CryptoUsageError("a lock key is a reduced 32-byte scalar")
    return ((k + pass_pad(shared, sender_context, recipient, position)) % L).to_bytes(SCALAR_BYTES, "little")


def check_sealed(sealed: object) -> bytes:
    """Refuse a sealed key that is not 32 bytes or not below L (zero is a valid encoding)."""
    if not isinstance(sealed, bytes) or len(sealed) != SCALAR_BYTES:
        raise BadScalar(Detail(N_("a sealed key is {scalar_bytes} bytes"), scalar_bytes=SCALAR_BYTES))
    if int.from_bytes(sealed, "little") >= L:
        raise BadScalar(Detail(N_("non-canonical sealed key (not reduced below the group order L)")))
    return sealed


def open_sealed(sealed: bytes, shared: Point, sender_context: bytes, recipient: int, position: int) -> bytes:
    """The key a sealed key carries: `enc((sealed − pad) mod L)`. It may be zero or wrong: the caller
    checks it against the sender's key commitment (`check_key`) before it uses it."""
    c = int.from_bytes(check_sealed(sealed), "little")
    return ((c - pass_pad(shared, sender_context, recipient, position)) % L).to_bytes(SCALAR_BYTES, "little")


def seal_keys(
    keys: Sequence[Scalar], positions: Sequence[int], own_key: Scalar, recipient_public: Point,
    sender_context: bytes, recipient: int,
) -> list[bytes]:
    """Every sealed key of one pass entry, in the order of its positions."""
    if len(keys) != len(positions):
        raise CryptoUsageError(f"{len(keys)} keys for {len(positions)} positions")
    shared = shared_point(own_key, recipient_public)
    return [seal_key(k, shared, sender_context, recipient, j) for k, j in zip(keys, positions, strict=True)]
