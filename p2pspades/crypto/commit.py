"""Seeds, contexts and commitments: what binds a seat to its secrets before anyone reveals anything.

The only randomness of the crypto layer is `new_seed`; everything else is a pure function of the seeds it
is given.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Final

from ..errors import N_, Detail
from .errors import BadSeed, CryptoUsageError
from .hashing import DOMAIN_COMMIT, DOMAIN_DRAW, DOMAIN_DRAW_COMMIT, H

SEED_BYTES: Final = 32
GAME_ID_BYTES: Final = 16
CONTEXT_BYTES: Final = GAME_ID_BYTES + 4 + 1
COMMITMENT_BYTES: Final = 32
MAX_SEATS: Final = 256


def new_seed() -> bytes:
    """A fresh 32-byte secret seed from the operating system's CSPRNG."""
    return secrets.token_bytes(SEED_BYTES)


def check_seed(seed: bytes) -> bytes:
    """Refuse a seed (ours or a revealed one) that is not exactly 32 bytes."""
    if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
        if isinstance(seed, bytes):
            raise BadSeed(Detail(N_("a seed is {size} bytes, got {count}"), size=SEED_BYTES, count=len(seed)))
        raise BadSeed(Detail(N_("a seed is {size} bytes, got a {type}"), size=SEED_BYTES,
                             type=type(seed).__name__))
    return seed


def _check_game_id(game_id: bytes) -> None:
    if not isinstance(game_id, bytes) or len(game_id) != GAME_ID_BYTES:
        raise CryptoUsageError(f"a game id is {GAME_ID_BYTES} bytes, got {game_id!r}")


def _check_seat(seat: int) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < MAX_SEATS:
        raise CryptoUsageError(f"a seat is an int in [0, {MAX_SEATS}), got {seat!r}")


def hand_context(game_id: bytes, hand: int, seat: int) -> bytes:
    """The 21 bytes that tie a seat's secrets to one hand of one game: game_id || hand u32 BE || seat u8."""
    _check_game_id(game_id)
    if not isinstance(hand, int) or isinstance(hand, bool) or not 0 <= hand < 2**32:
        raise CryptoUsageError(f"a hand number is an int in [0, 2^32), got {hand!r}")
    _check_seat(seat)
    return game_id + hand.to_bytes(4, "big") + seat.to_bytes(1, "big")


def commitment(context: bytes, seed: bytes) -> bytes:
    """H("p2pspades/v1/commit", context, seed)[:32]: published before the deal, checked at the reveal."""
    return H(DOMAIN_COMMIT, context, check_seed(seed))[:COMMITMENT_BYTES]


def draw_commitment(game_id: bytes, seat: int, r: bytes) -> bytes:
    """A seat's commitment to its share of the first-dealer draw randomness."""
    _check_game_id(game_id)
    _check_seat(seat)
    return H(DOMAIN_DRAW_COMMIT, game_id, seat.to_bytes(1, "big"), check_seed(r))[:COMMITMENT_BYTES]


def draw_randomness(game_id: bytes, reveals: Sequence[bytes]) -> bytes:
    """The first-dealer draw's 32 random bytes, from every seat's revealed share in seat order."""
    _check_game_id(game_id)
    if not reveals:
        raise CryptoUsageError("the draw needs at least one revealed share")
    return H(DOMAIN_DRAW, game_id, *(check_seed(r) for r in reveals))[:32]
