"""The deal: per-hand secrets derived from one seed, and the shuffle, lock and open operations.

Every seat shuffles (multiply every point by its shuffle scalar s, then permute), then every seat locks
(multiply position j by k_j / s). Afterwards position j holds (product of every seat's k_j) * card point,
and whoever learns every seat's k_j for a position can open it. The hot loops call libsodium through `map`,
since the multiplications are nearly all the cost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Final

from nacl.bindings import crypto_scalarmult_ed25519_noclamp
from nacl.exceptions import CryptoError

from ..checks import Check
from ..errors import N_, Detail
from ..rules.chance import ByteStream
from .commit import check_seed
from .errors import BadDeck, BadPoint, BadScalar, BadSeed, BadStep, CryptoUsageError
from .group import (
    POINT_BYTES,
    CardT,
    L,
    Point,
    Scalar,
    check_scalar,
    first_mul_error,
    mul_many,
    point_error,
)
from .hashing import DOMAIN_LOCK_KEY, DOMAIN_PERMUTATION, DOMAIN_SHUFFLE_KEY, H

MAX_POSITIONS: Final = 1 << 16
"""Lock keys are indexed by a 2-byte position number."""


def _derive_scalar(domain: str, *parts: bytes) -> int:
    return int.from_bytes(H(domain, *parts), "little") % L


@dataclass(frozen=True, slots=True)
class HandSecrets:
    """Everything secret for one seat in one hand, derived from one 32-byte seed (see `derive`).

    Revealing the seed at the end of the hand lets every peer recompute this seat's shuffle, lock and keys.
    """

    seed: bytes = field(repr=False)
    context: bytes
    shuffle_scalar: Scalar = field(repr=False)
    permutation: tuple[int, ...] = field(repr=False)
    lock_keys: tuple[Scalar, ...] = field(repr=False)
    inverse_shuffle_scalar: Scalar = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_seed(self.seed)
        n = len(self.permutation)
        if sorted(self.permutation) != list(range(n)):
            raise CryptoUsageError("the permutation is not a permutation of range(n)")
        if len(self.lock_keys) != n:
            raise CryptoUsageError(f"{len(self.lock_keys)} lock keys for {n} positions")
        s = check_scalar(self.shuffle_scalar)
        for key in self.lock_keys:
            check_scalar(key)
        inverse = pow(int.from_bytes(s, "little"), -1, L).to_bytes(32, "little")
        object.__setattr__(self, "inverse_shuffle_scalar", inverse)

    @property
    def n(self) -> int:
        """The number of deck positions these secrets cover."""
        return len(self.permutation)

    @classmethod
    def derive(cls, seed: bytes, context: bytes, n: int) -> HandSecrets:
        """The shuffle scalar, permutation and n lock keys of `seed` in `context` (see protocol/crypto.md)."""
        check_seed(seed)
        if not isinstance(n, int) or not 1 <= n <= MAX_POSITIONS:
            raise CryptoUsageError(f"a deck has 1 to {MAX_POSITIONS} positions, got {n!r}")
        shuffle_int = _derive_scalar(DOMAIN_SHUFFLE_KEY, context, seed)
        permutation = ByteStream(H(DOMAIN_PERMUTATION, context, seed)).permutation(n)
        lock_ints = [_derive_scalar(DOMAIN_LOCK_KEY, context, seed, j.to_bytes(2, "big")) for j in range(n)]
        if shuffle_int == 0 or 0 in lock_ints:
            raise BadSeed(Detail(N_("the seed derives a zero scalar")))
        return cls(
            seed=seed,
            context=context,
            shuffle_scalar=shuffle_int.to_bytes(32, "little"),
            permutation=permutation,
            lock_keys=tuple(k.to_bytes(32, "little") for k in lock_ints),
        )

    def lock_scalars(self) -> list[Scalar]:
        """The scalar lock multiplies position j by: k_j * s^-1 mod L."""
        inverse = int.from_bytes(self.inverse_shuffle_scalar, "little")
        return [(int.from_bytes(k, "little") * inverse % L).to_bytes(32, "little") for k in self.lock_keys]


def _check_size(deck: Sequence[Point], n: int) -> None:
    if len(deck) != n:
        raise BadDeck(Detail(N_("the deck has {count} positions, expected {n}"), count=len(deck), n=n))


def shuffle(deck: Sequence[Point], secrets: HandSecrets) -> list[Point]:
    """out[i] = s * deck[permutation[i]]. A bad point is reported at its position in the input deck."""
    perm = secrets.permutation
    n = len(perm)
    _check_size(deck, n)
    s = secrets.shuffle_scalar
    try:
        return list(map(crypto_scalarmult_ed25519_noclamp, repeat(s, n), [deck[i] for i in perm]))
    except CryptoError:
        raise first_mul_error([s] * n, deck) from None


def lock(deck: Sequence[Point], secrets: HandSecrets) -> list[Point]:
    """out[j] = (k_j * s^-1) * deck[j]: removes the shuffle scalar, locks each position with its own key."""
    _check_size(deck, secrets.n)
    return mul_many(secrets.lock_scalars(), deck)


def _key_product(keys: Sequence[Scalar], position: int | None) -> int:
    if not keys:
        raise CryptoUsageError("opening a card needs at least one key")
    product = 1
    for key in keys:
        if not isinstance(key, bytes) or len(key) != 32 or key[31] >= 0x10 or not any(key):
            try:
                check_scalar(key)
            except BadScalar as exc:
                raise BadScalar(exc.detail, position=position) from None
        product = product * int.from_bytes(key, "little") % L
    return product


def open_card(point: Point, keys: Sequence[Scalar], table: Mapping[Point, CardT]) -> CardT | None:
    """The card under `point` once every seat's key for its position is known, or None if it is no card.

    One inversion of the keys' product and one multiplication, whatever the number of seats.
    """
    inverse = pow(_key_product(keys, None), -1, L).to_bytes(32, "little")
    try:
        opened = crypto_scalarmult_ed25519_noclamp(inverse, point)
    except CryptoError:
        raise point_error(inverse, point) from None
    return table.get(opened)


def open_cards(
    points: Sequence[Point], keys_per_position: Sequence[Sequence[Scalar]], table: Mapping[Point, CardT]
) -> list[CardT | None]:
    """`open_card` for many positions, with one scalar inversion for all of them (Montgomery's trick)."""
    m = len(points)
    if len(keys_per_position) != m:
        raise CryptoUsageError(f"{len(keys_per_position)} key lists for {m} points")
    if m == 0:
        return []
    products = [_key_product(keys, i) for i, keys in enumerate(keys_per_position)]
    prefix = [1] * m
    acc = 1
    for i, x in enumerate(products):
        prefix[i] = acc
        acc = acc * x % L
    inverse = pow(acc, -1, L)
    inverses = [b""] * m
    for i in range(m - 1, -1, -1):
        inverses[i] = (inverse * prefix[i] % L).to_bytes(32, "little")
        inverse = inverse * products[i] % L
    get = table.get
    return [get(p) for p in mul_many(inverses, points)]


def deal_order(n: int, shuffles: Sequence[HandSecrets]) -> tuple[int, ...]:
    """For each final position, the index in the starting deck of the card it holds. No group operations.

    `shuffles` are the seats' secrets in shuffle order; locking does not move cards.
    """
    order = list(range(n))
    for secrets in shuffles:
        if secrets.n != n:
            raise CryptoUsageError(f"secrets for {secrets.n} positions in a deck of {n}")
        order = [order[i] for i in secrets.permutation]
    return tuple(order)


def check_deck(deck: Sequence[object], n: int) -> list[Point]:
    """Cheap live checks of a published deck: n positions, 32 bytes each, no two equal.

    Whether each point is in the group is checked by the next multiplication, for free.
    """
    if len(deck) != n:
        raise BadDeck(Detail(N_("the deck has {count} positions, expected {n}"), count=len(deck), n=n))
    seen: dict[bytes, int] = {}
    for j, p in enumerate(deck):
        if not isinstance(p, bytes) or len(p) != POINT_BYTES:
            if isinstance(p, bytes):
                raise BadPoint(Detail(N_("a point is {size} bytes, got {count}"), size=POINT_BYTES,
                                      count=len(p)), position=j)
            raise BadPoint(Detail(N_("a point is {size} bytes, got a {type}"), size=POINT_BYTES,
                                  type=type(p).__name__), position=j)
        first = seen.setdefault(p, j)
        if first != j:
            raise BadDeck(Detail(N_("positions {first} and {j} hold the same point"), first=first, j=j))
    return list(deck)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class DealStep:
    """One published step of the deal: the seat, its revealed secrets, and the deck it published."""

    seat: int
    secrets: HandSecrets
    published: Sequence[object]


def audit_deal(
    start: Sequence[Point], shuffles: Sequence[DealStep], locks: Sequence[DealStep]
) -> list[Point]:
    """Recompute every step from the deck published before it; the first step that differs names its seat.

    `start` is the deck of card points in canonical order; `shuffles` and `locks` are in the order they were
    taken. Raises BadStep (check "bad-shuffle" or "bad-lock"); returns the final deck.
    """
    deck = list(start)
    for name, operation, steps in ((Check.SHUFFLE, shuffle, shuffles), (Check.LOCK, lock, locks)):
        for step in steps:
            expected = operation(deck, step.secrets)
            published = step.published
            if len(published) != len(expected):
                raise BadStep(
                    name, Detail(N_("published {count} positions, expected {count2}"), count=len(published),
                                 count2=len(expected)), seat=step.seat
                )
            for j, (mine, theirs) in enumerate(zip(expected, published, strict=True)):
                if mine != theirs:
                    raise BadStep(
                        name,
                        Detail(N_("position {j} differs from the recomputation from the revealed seed"), j=j),
                        seat=step.seat,
                        position=j,
                    )
            deck = expected
    return deck


# --- operation counts, for benchmarks: every figure is a number of scalar multiplications ---


def mul_count_shuffle(n: int) -> int:
    """One seat's shuffle of n positions."""
    return n


def mul_count_lock(n: int) -> int:
    """One seat's lock of n positions."""
    return n


def mul_count_open(cards: int) -> int:
    """Opening `cards` positions (batched or not): one multiplication each, inversions are scalar-only."""
    return cards


def mul_count_setup(seats: int, n: int, opened: int | None = None) -> int:
    """A whole deal over all peers: every seat shuffles and locks, then `opened` positions (default n)."""
    steps = seats * (mul_count_shuffle(n) + mul_count_lock(n))
    return steps + mul_count_open(n if opened is None else opened)


def mul_count_audit(seats: int, n: int) -> int:
    """The end-of-hand recomputation of every seat's shuffle and lock (the deal follows from them)."""
    return seats * (mul_count_shuffle(n) + mul_count_lock(n))
