"""Zero-knowledge proofs of the deal (protocol version 2): every shuffle, lock and void claim proven live.

- **Shuffle** (Terelius–Wikström 2010, "Proofs of restricted shuffles", adapted to one common exponent):
  `out[i] = s·in[π[i]]` for a secret permutation π and the scalar `s` of the seat's published `S = s·B`.
- **Lock** (Chaum–Pedersen with two witnesses): `s·out[j] = k_j·in[j]` with `S = s·B` and `P_j = k_j·B`, that
  is `out[j] = (k_j·s⁻¹)·in[j]`.
- **Void** (Camenisch–Shoup inequality of discrete logs): for every listed position `j` and card point `C`,
  `k_j·C ≠ Z_j`, where `Z_j = k_j·C_true` is the position's point with every other seat's key removed.
- **Live key check**: `k·B == P_j`.

All proofs are non-interactive (Fiat–Shamir with `H`), bound to the hand's context (game id, hand, seat) and
the step number, and given in compact form (the challenge and the responses; the verifier recomputes the
prover's first messages and the challenge). Every byte is specified in protocol/crypto.md, "Protocol version 2
proofs". The prover's randomness is derived from the seat's hand seed and the statement, so the layer stays
pure and a proof is a function of its inputs.

Cost in variable-base `v` and fixed-base `b` multiplications for n positions (`benchmarks/deal.py` counts
them): shuffle prove 4n v + 2n b (the shuffle itself included), verify 5n v + 5 b; lock prove 2n v + n b
(the lock included), verify 3n v + 2 b; void 2 v per (position, card) to prove and to verify, plus two per
position and one of B.
libsodium has no multi-scalar multiplication, so a random linear combination is used only where it merges
several multiplications of one point (the shuffle's product chain, the lock's and the void claim's key
commitments).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Final

from nacl.bindings import (
    crypto_core_ed25519_add,
    crypto_core_ed25519_from_uniform,
    crypto_core_ed25519_sub,
    crypto_scalarmult_ed25519_base_noclamp,
    crypto_scalarmult_ed25519_noclamp,
)
from nacl.exceptions import CryptoError

from ..checks import Check
from ..errors import N_, Detail, RemoteError
from .deal import MAX_POSITIONS, HandSecrets, shuffle
from .errors import CryptoUsageError
from .group import IDENTITY, POINT_BYTES, L, Point, Scalar
from .hashing import H

DOMAIN_GENERATOR: Final = "p2pspades/v2/generator"
DOMAIN_NONCE: Final = "p2pspades/v2/nonce"
DOMAIN_SHUFFLE_U: Final = "p2pspades/v2/shuffle/u"
DOMAIN_SHUFFLE_W: Final = "p2pspades/v2/shuffle/w"
DOMAIN_SHUFFLE_CHALLENGE: Final = "p2pspades/v2/shuffle/challenge"
DOMAIN_LOCK_W: Final = "p2pspades/v2/lock/w"
DOMAIN_LOCK_CHALLENGE: Final = "p2pspades/v2/lock/challenge"
DOMAIN_VOID_W: Final = "p2pspades/v2/void/w"
DOMAIN_VOID_CHALLENGE: Final = "p2pspades/v2/void/challenge"
SCALAR_BYTES: Final = 32
_INVALID: Final = N_("a point of the statement or the proof is not a valid point, or a scalar is zero")

_add = crypto_core_ed25519_add
_sub = crypto_core_ed25519_sub
_mul = crypto_scalarmult_ed25519_noclamp
_base = crypto_scalarmult_ed25519_base_noclamp


class BadProof(RemoteError):
    """A proof that does not verify, or that is malformed (its size, a non-canonical scalar, a bad point)."""

    def __init__(self, kind: Check, detail: str, seat: int | None = None) -> None:
        super().__init__(Check(f"bad-{kind}-proof"), detail, seat)
        self.kind = kind


# --- encoding helpers ---


def _u16(x: int) -> bytes:
    return x.to_bytes(2, "big")


def _u32(x: int) -> bytes:
    return x.to_bytes(4, "big")


def _enc(x: int) -> Scalar:
    return x.to_bytes(32, "little")


def _encs(xs: Sequence[int]) -> list[Scalar]:
    return [x.to_bytes(32, "little") for x in xs]


def _reduce(h: bytes) -> int:
    return int.from_bytes(h, "little") % L


def _cat(points: Sequence[bytes]) -> bytes:
    return b"".join(points)


def _split(blob: bytes, count: int, offset: int) -> list[bytes]:
    return [blob[offset + 32 * i : offset + 32 * i + 32] for i in range(count)]


def _scalars(blob: bytes, count: int, offset: int, kind: Check) -> list[int]:
    out = [int.from_bytes(blob[offset + 32 * i : offset + 32 * i + 32], "little") for i in range(count)]
    for x in out:
        if x >= L:
            raise BadProof(kind, Detail(N_("a scalar of the proof is not reduced below the group order L")))
    return out


def _lin(scalars: Sequence[int], points: Sequence[Point]) -> Point:
    """Σ scalars[i]·points[i] (one multiplication each: libsodium has no multi-scalar multiplication)."""
    return functools.reduce(_add, map(_mul, _encs(scalars), points))


def _nonces(seed: bytes, kind: bytes, statement: bytes, count: int) -> list[int]:
    """The prover's secret randomness: 64 bytes of SHAKE-256 per scalar, reduced mod L."""
    stream = hashlib.shake_256(H(DOMAIN_NONCE, seed, kind, statement)).digest(64 * count)
    return [int.from_bytes(stream[64 * i : 64 * i + 64], "little") % L for i in range(count)]


def _check_statement(kind: Check, step: int, context: bytes, decks: Sequence[Sequence[object]]) -> int:
    if not isinstance(context, bytes) or len(context) != 21:
        raise CryptoUsageError("a proof context is the 21-byte hand context")
    if not isinstance(step, int) or not 0 <= step < 1 << 16:
        raise CryptoUsageError(f"a step is an int in [0, 65536), got {step!r}")
    n = len(decks[0])
    if not 1 <= n <= MAX_POSITIONS:
        why = Detail(N_("a deck has 1 to {max_positions} positions, got {n}"), max_positions=MAX_POSITIONS,
                     n=n)
        raise BadProof(kind, why)
    for deck in decks:
        if len(deck) != n:
            raise BadProof(kind, Detail(N_("decks of {n} and {count} positions"), n=n, count=len(deck)))
        for p in deck:
            if not isinstance(p, bytes) or len(p) != POINT_BYTES:
                raise BadProof(kind, Detail(N_("a point is {point_bytes} bytes"), point_bytes=POINT_BYTES))
    return n


def _check_point(kind: Check, p: object, what: str) -> bytes:
    if not isinstance(p, bytes) or len(p) != POINT_BYTES:
        why = Detail(N_("{what} is not a {size}-byte point"), what=Detail(what), size=POINT_BYTES)
        raise BadProof(kind, why)
    return p


def _check_size(kind: Check, proof: object, size: int) -> bytes:
    if not isinstance(proof, bytes) or len(proof) != size:
        got = f"{len(proof)} bytes" if isinstance(proof, bytes) else f"a {type(proof).__name__}"
        raise BadProof(kind, Detail(N_("the proof is {size} bytes, got {got}"), size=size, got=got))
    return proof


# --- generators and commitments ---


@functools.lru_cache(maxsize=MAX_POSITIONS + 1)
def generator(i: int) -> Point:
    """G_i = from_uniform(H("p2pspades/v2/generator", u32(i))[0:32]); no discrete log between two is known."""
    return crypto_core_ed25519_from_uniform(H(DOMAIN_GENERATOR, _u32(i))[:32])


@functools.lru_cache(maxsize=16)
def _generators(n: int) -> tuple[tuple[Point, ...], Point]:
    """(G_1 .. G_n, their sum), cached per deck size."""
    gens = tuple(generator(i + 1) for i in range(n))
    return gens, functools.reduce(_add, gens)


def shuffle_commitment(secrets: HandSecrets) -> Point:
    """S = s·B, published with the hand commitment: binds the shuffle and lock proofs to one scalar."""
    return _base(secrets.shuffle_scalar)


def lock_commitments(secrets: HandSecrets) -> list[Point]:
    """P_j = k_j·B for every position: published with the lock, checked against every key for j."""
    return list(map(_base, secrets.lock_keys))


def check_key(key: bytes, commitment: Point) -> bool:
    """True if `key` is a valid scalar with key·B == commitment (a deal or play key against its P_j)."""
    if not isinstance(key, bytes) or len(key) != SCALAR_BYTES or not isinstance(commitment, bytes):
        return False
    if int.from_bytes(key, "little") >= L or not any(key):
        return False
    try:
        return bool(_base(key) == commitment)
    except CryptoError:  # pragma: no cover - a nonzero scalar below L never gives the identity
        return False


# --- step numbers (crypto.md §12): one place, so that prover and verifier bind the same step ---


def shuffle_step(index: int) -> int:
    """The step of the `index`-th shuffle of the hand (0 for the first seat to shuffle)."""
    return _step(index)


def lock_step(seats: int, index: int) -> int:
    """The step of the `index`-th lock of the hand, after the `seats` shuffles."""
    return _step(seats + index)


def void_step(seats: int, played: int) -> int:
    """The step of a void claim carried by the play after `played` cards of the hand."""
    return _step(2 * seats + played)


def _step(step: int) -> int:
    if not 0 <= step < 1 << 16:
        raise CryptoUsageError(f"step {step} does not fit in 16 bits")
    return step


# --- shuffle ---


def shuffle_proof_size(n: int) -> int:
    """Bytes of a shuffle proof of n positions: c_j, ĉ_i, the challenge, s_1..s_5, s'_i."""
    return 32 * (3 * n + 6)


def _weights(domain: str, digest: bytes, n: int) -> list[int]:
    return [_reduce(H(domain, digest, _u32(i))) for i in range(n)]


def _shuffle_u(
    context: bytes,
    step: int,
    big_s: Point,
    deck_in: Sequence[Point],
    deck_out: Sequence[Point],
    cs: Sequence[Point],
) -> tuple[bytes, list[int]]:
    d = H(DOMAIN_SHUFFLE_U, context, _u16(step), big_s, _cat(deck_in), _cat(deck_out), _cat(cs))
    return d, _weights(DOMAIN_SHUFFLE_U, d, len(deck_in))


def _shuffle_w(d: bytes, chat: Sequence[Point]) -> tuple[bytes, list[int]]:
    e = H(DOMAIN_SHUFFLE_W, d, _cat(chat))
    return e, _weights(DOMAIN_SHUFFLE_W, e, len(chat))


def prove_shuffle(
    context: bytes, step: int, deck_in: Sequence[Point], secrets: HandSecrets
) -> tuple[list[Point], bytes]:
    """Shuffle `deck_in` with the seat's secrets and prove it: (the published deck, the proof)."""
    n = _check_statement(Check.SHUFFLE, step, context, [deck_in])
    if secrets.n != n:
        raise CryptoUsageError(f"secrets for {secrets.n} positions in a deck of {n}")
    deck_out = shuffle(deck_in, secrets)
    s = int.from_bytes(secrets.shuffle_scalar, "little")
    return deck_out, shuffle_proof(context, step, deck_in, deck_out, s, secrets.permutation, secrets.seed)


def shuffle_proof(
    context: bytes,
    step: int,
    deck_in: Sequence[Point],
    deck_out: Sequence[Point],
    s: int,
    perm: Sequence[int],
    seed: bytes,
) -> bytes:
    """The prover's algorithm on a given statement, true or not (`prove_shuffle` for honest use; tests give
    it false statements to check that no proof of them verifies). Nonces come from `seed` and the statement.
    """
    n = len(deck_in)
    big_s = _base(_enc(s))
    gens, _ = _generators(n)
    h = generator(0)
    inverse = [0] * n  # inverse[j] = i with perm[i] = j
    for i, j in enumerate(perm):
        inverse[j] = i
    rand = _nonces(seed, b"shuffle", H(DOMAIN_NONCE, context, _u16(step), _cat(deck_in)), 3 * n + 5)
    r = rand[:n]
    r_hat = rand[n : 2 * n]
    w_prime = rand[2 * n : 3 * n]
    w1, w2, w3, w4, w5 = rand[3 * n :]
    # 1. commitment to the permutation matrix, column by column: c_j = r_j·B + W_{π⁻¹(j)}
    cs = list(map(_add, map(_base, _encs(r)), [gens[inverse[j]] for j in range(n)]))
    # 2. the challenge vector u, and u'_i = u_{π[i]}
    d, u = _shuffle_u(context, step, big_s, deck_in, deck_out, cs)
    u_prime = [u[perm[i]] for i in range(n)]
    # 3. the chain ĉ_i = r̂_i·B + u'_i·ĉ_{i-1} from ĉ_{-1} = h, computed as R_i·B + U_i·h
    big_r = [0] * n  # R_i, the coefficient of B in ĉ_i
    big_u = [0] * n  # U_i = u'_0 ... u'_i, the coefficient of h
    acc_r, acc_u = 0, 1
    for i in range(n):
        acc_r = (acc_r * u_prime[i] + r_hat[i]) % L
        acc_u = acc_u * u_prime[i] % L
        big_r[i], big_u[i] = acc_r, acc_u
    chat = list(map(_add, map(_base, _encs(big_r)), map(_mul, _encs(big_u), repeat(h, n))))
    e, w = _shuffle_w(d, chat)
    r_bar = sum(r) % L
    r_tilde = sum(rj * uj for rj, uj in zip(r, u, strict=True)) % L
    r_hat_w = sum(wi * ri for wi, ri in zip(w, r_hat, strict=True)) % L
    # 4. first messages
    t1 = _base(_enc(w1))
    t2 = _base(_enc(w2))
    t3 = _add(_base(_enc(w3)), _lin(w_prime, gens))
    # t4 = Σ ω'_i·out[i] − ω_4·Σ u_j·in[j] = Σ_j (s·ω'_{π⁻¹(j)} − ω_4·u_j)·in[j] when the statement is true
    t4 = _lin([(s * w_prime[inverse[j]] - w4 * u[j]) % L for j in range(n)], deck_in)
    t5 = _base(_enc(w4))
    # t6 = ω_5·B + Σ_i w_i·ω'_i·ĉ_{i-1}, with ĉ_{i-1} = R_{i-1}·B + U_{i-1}·h: two multiplications
    coef_b = (w5 + sum(w[i] * w_prime[i] * big_r[i - 1] for i in range(1, n))) % L
    coef_h = (w[0] * w_prime[0] + sum(w[i] * w_prime[i] * big_u[i - 1] for i in range(1, n))) % L
    t6 = _add(_base(_enc(coef_b)), _mul(_enc(coef_h), h))
    c = _reduce(H(DOMAIN_SHUFFLE_CHALLENGE, e, _cat([t1, t2, t3, t4, t5, t6])))
    # 5. responses
    responses = [
        (w1 + c * r_bar) % L,
        (w2 + c * big_r[-1]) % L,
        (w3 + c * r_tilde) % L,
        (w4 + c * s) % L,
        (w5 + c * r_hat_w) % L,
    ]
    s_prime = [(w_prime[i] + c * u_prime[i]) % L for i in range(n)]
    return b"".join([*cs, *chat, _enc(c), *_encs(responses), *_encs(s_prime)])


def verify_shuffle(
    context: bytes,
    step: int,
    deck_in: Sequence[Point],
    deck_out: Sequence[Point],
    shuffle_commitment: Point,
    proof: bytes,
) -> None:
    """Raise BadProof unless `proof` shows deck_out[i] = s·deck_in[π[i]] for some π, with S = s·B."""
    kind = Check.SHUFFLE
    n = _check_statement(kind, step, context, [deck_in, deck_out])
    big_s = _check_point(kind, shuffle_commitment, N_("the shuffle commitment S"))
    _check_size(kind, proof, shuffle_proof_size(n))
    cs = _split(proof, n, 0)
    chat = _split(proof, n, 32 * n)
    c_bytes = proof[64 * n : 64 * n + 32]
    c, s1, s2, s3, s4, s5 = _scalars(proof, 6, 64 * n, kind)
    s_prime = _scalars(proof, n, 64 * n + 192, kind)
    gens, gen_sum = _generators(n)
    h = generator(0)
    d, u = _shuffle_u(context, step, big_s, deck_in, deck_out, cs)
    e, w = _shuffle_w(d, chat)
    c_enc = _enc(c)
    try:
        u_product = functools.reduce(lambda a, b: a * b % L, u, 1)
        t1 = _sub(_base(_enc(s1)), _mul(c_enc, _sub(functools.reduce(_add, cs), gen_sum)))
        t2 = _sub(_base(_enc(s2)), _mul(c_enc, _sub(chat[-1], _mul(_enc(u_product), h))))
        # t3 = s_3·B + Σ s'_i·W_i − c·Σ u_j·c_j
        t3 = _add(_base(_enc(s3)), _sub(_lin(s_prime, gens), _lin([c * uj % L for uj in u], cs)))
        # t4 = Σ s'_i·out[i] − s_4·Σ u_j·in[j]
        t4 = _sub(_lin(s_prime, deck_out), _lin([s4 * uj % L for uj in u], deck_in))
        t5 = _sub(_base(_enc(s4)), _mul(c_enc, big_s))
        # t6 = s_5·B + Σ_i w_i·s'_i·ĉ_{i-1} − c·Σ_i w_i·ĉ_i, one multiplication per ĉ_k:
        # ĉ_k (k < n-1) has the coefficient w_{k+1}·s'_{k+1} − c·w_k, ĉ_{n-1} has −c·w_{n-1}, h has w_0·s'_0
        coefs = [(w[k + 1] * s_prime[k + 1] - c * w[k]) % L for k in range(n - 1)] + [(-c * w[n - 1]) % L]
        t6 = _add(_add(_base(_enc(s5)), _mul(_enc(w[0] * s_prime[0] % L), h)), _lin(coefs, chat))
    except CryptoError:
        raise BadProof(kind, Detail(_INVALID)) from None
    if _enc(_reduce(H(DOMAIN_SHUFFLE_CHALLENGE, e, _cat([t1, t2, t3, t4, t5, t6])))) != c_bytes:
        raise BadProof(kind, Detail(N_("the shuffle proof does not verify")))


# --- lock ---


def lock_proof_size(n: int) -> int:
    """Bytes of a lock proof of n positions: the challenge, z_s, z_0 .. z_{n-1}."""
    return 32 * (n + 2)


def _lock_w(
    context: bytes,
    step: int,
    big_s: Point,
    deck_in: Sequence[Point],
    deck_out: Sequence[Point],
    commitments: Sequence[Point],
) -> tuple[bytes, list[int]]:
    parts = (_cat(deck_in), _cat(deck_out), _cat(commitments))
    d = H(DOMAIN_LOCK_W, context, _u16(step), big_s, *parts)
    return d, _weights(DOMAIN_LOCK_W, d, len(deck_in))


def prove_lock(
    context: bytes, step: int, deck_in: Sequence[Point], secrets: HandSecrets
) -> tuple[list[Point], list[Point], bytes]:
    """Lock `deck_in` with the seat's secrets and prove it: (the published deck, the P_j, the proof)."""
    n = _check_statement(Check.LOCK, step, context, [deck_in])
    if secrets.n != n:
        raise CryptoUsageError(f"secrets for {secrets.n} positions in a deck of {n}")
    s_inv = int.from_bytes(secrets.inverse_shuffle_scalar, "little")
    keys = [int.from_bytes(k, "little") for k in secrets.lock_keys]
    try:
        deck_out = list(map(_mul, _encs([k * s_inv % L for k in keys]), deck_in))
    except CryptoError:
        raise BadProof(Check.LOCK, Detail(N_("the deck to lock holds an invalid point"))) from None
    commitments = lock_commitments(secrets)
    s = int.from_bytes(secrets.shuffle_scalar, "little")
    proof = lock_proof(context, step, deck_in, deck_out, commitments, s, keys, secrets.seed)
    return deck_out, commitments, proof


def lock_proof(
    context: bytes,
    step: int,
    deck_in: Sequence[Point],
    deck_out: Sequence[Point],
    commitments: Sequence[Point],
    s: int,
    keys: Sequence[int],
    seed: bytes,
) -> bytes:
    """The prover's algorithm on a given statement, true or not (`prove_lock` for honest use).

    A3_j = a·out[j] − b_j·in[j] is computed as (a·k_j·s⁻¹ − b_j)·in[j], one multiplication, which equals it
    when the statement is true; for a false one the proof then fails, as any proof must.
    """
    n = len(deck_in)
    s_inv = pow(s, -1, L)
    big_s = _base(_enc(s))
    d, w = _lock_w(context, step, big_s, deck_in, deck_out, commitments)
    rand = _nonces(seed, b"lock", H(DOMAIN_NONCE, context, _u16(step), _cat(deck_in)), n + 1)
    a, b = rand[0], rand[1:]
    big_a = _base(_enc(a))
    a1 = _base(_enc(sum(wj * bj for wj, bj in zip(w, b, strict=True)) % L))
    a3 = list(map(_mul, _encs([(a * k * s_inv - bj) % L for k, bj in zip(keys, b, strict=True)]), deck_in))
    c = _reduce(H(DOMAIN_LOCK_CHALLENGE, d, big_a, a1, _cat(a3)))
    z_s = (a + c * s) % L
    z = [(bj + c * k) % L for bj, k in zip(b, keys, strict=True)]
    return b"".join([_enc(c), _enc(z_s), *_encs(z)])


def verify_lock(
    context: bytes,
    step: int,
    deck_in: Sequence[Point],
    deck_out: Sequence[Point],
    shuffle_commitment: Point,
    commitments: Sequence[Point],
    proof: bytes,
) -> None:
    """Raise BadProof unless s·out[j] = k_j·in[j] for every j, with S = s·B and P_j = k_j·B."""
    kind = Check.LOCK
    n = _check_statement(kind, step, context, [deck_in, deck_out, commitments])
    big_s = _check_point(kind, shuffle_commitment, N_("the shuffle commitment S"))
    _check_size(kind, proof, lock_proof_size(n))
    c, z_s = _scalars(proof, 2, 0, kind)
    z = _scalars(proof, n, 64, kind)
    d, w = _lock_w(context, step, big_s, deck_in, deck_out, commitments)
    c_enc = _enc(c)
    try:
        big_a = _sub(_base(_enc(z_s)), _mul(c_enc, big_s))
        # A1 = Σ w_j·(z_j·B − c·P_j) = (Σ w_j·z_j)·B − Σ (c·w_j)·P_j
        z_w = sum(wj * zj for wj, zj in zip(w, z, strict=True)) % L
        a1 = _sub(_base(_enc(z_w)), _lin([c * wj % L for wj in w], commitments))
        zs_enc = _enc(z_s)
        a3 = list(map(_sub, [_mul(zs_enc, p) for p in deck_out], map(_mul, _encs(z), deck_in)))
    except CryptoError:
        raise BadProof(kind, Detail(_INVALID)) from None
    if _enc(_reduce(H(DOMAIN_LOCK_CHALLENGE, d, big_a, a1, _cat(a3)))) != proof[:32]:
        raise BadProof(kind, Detail(N_("the lock proof does not verify")))


# --- void claims ---


def void_residue(final_point: Point, other_keys: Sequence[Scalar]) -> Point:
    """Z_j: the final point of position j with every other seat's key removed, k_owner,j · (card point)."""
    product = 1
    for key in other_keys:
        product = product * int.from_bytes(key, "little") % L
    try:
        return _mul(_enc(pow(product, -1, L)), final_point)
    except (CryptoError, ValueError):
        raise BadProof(Check.VOID, Detail(N_("cannot remove the keys from the final point"))) from None


def void_proof_size(positions: int, cards: int) -> int:
    """Bytes of a void proof: the challenge, z_α and z_β per position, then T per (position, card) pair."""
    return 32 + 64 * positions + 32 * positions * cards


@dataclass(frozen=True, slots=True)
class VoidPosition:
    """One position a void claim covers: its number, the owner's P_j and the residue Z_j."""

    position: int
    commitment: Point
    residue: Point


def _void_statement(
    context: bytes, step: int, positions: Sequence[VoidPosition], cards: Sequence[Point]
) -> tuple[bytes, ...]:
    rows = b"".join(_u16(p.position) + p.commitment + p.residue for p in positions)
    return (context, _u16(step), _u32(len(positions)), rows, _u32(len(cards)), _cat(cards))


def prove_void(
    context: bytes,
    step: int,
    secrets: HandSecrets,
    positions: Sequence[VoidPosition],
    cards: Sequence[Point],
) -> bytes:
    """Prove that no listed position holds any of `cards` (the owner's claim to be void in a suit).

    Per position p with key k and residue Z: T_{p,x} = r_p·(k·C_x − Z) for every card C_x, and a proof of
    α_p = r_p·k, β_p = r_p with α_p·C_x − β_p·Z = T_{p,x} for every x and, for all positions at once with
    random weights, α_p·B − β_p·P = O. Refuses to prove a false claim (CryptoUsageError).
    """
    if not positions or not cards:
        raise CryptoUsageError("a void claim covers at least one position and one card")
    statement = _void_statement(context, step, positions, cards)
    m_p = len(positions)
    rand = _nonces(secrets.seed, b"void", H(DOMAIN_NONCE, *statement), 3 * m_p)
    keys = [int.from_bytes(secrets.lock_keys[pos.position], "little") for pos in positions]
    ts: list[Point] = []
    a2s: list[Point] = []
    for p, pos in enumerate(positions):
        r, a, b = rand[3 * p : 3 * p + 3]
        rk, r_z, b_z = _enc(r * keys[p] % L), _mul(_enc(r), pos.residue), _mul(_enc(b), pos.residue)
        a_enc = _enc(a)
        for card in cards:
            t = _sub(_mul(rk, card), r_z)
            if t == IDENTITY:
                raise CryptoUsageError(f"position {pos.position} holds one of the cards: no void proof")
            ts.append(t)
            a2s.append(_sub(_mul(a_enc, card), b_z))
    e, w = _void_w(statement, ts, m_p)
    # A1 = Σ_p w_p·(a_p·B − b_p·P_p) = (Σ_p w_p·(a_p − b_p·k_p))·B, since P_p = k_p·B
    a1 = _base(_enc(sum(w[p] * (rand[3 * p + 1] - rand[3 * p + 2] * keys[p]) for p in range(m_p)) % L))
    c = _reduce(H(DOMAIN_VOID_CHALLENGE, e, a1, _cat(a2s)))
    responses: list[bytes] = []
    for p in range(m_p):
        r, a, b = rand[3 * p : 3 * p + 3]
        responses += [_enc((a + c * r * keys[p]) % L), _enc((b + c * r) % L)]
    return _enc(c) + b"".join(responses) + _cat(ts)


def _void_w(statement: Sequence[bytes], ts: Sequence[Point], positions: int) -> tuple[bytes, list[int]]:
    e = H(DOMAIN_VOID_W, *statement, _cat(ts))
    return e, _weights(DOMAIN_VOID_W, e, positions)


def verify_void(
    context: bytes, step: int, positions: Sequence[VoidPosition], cards: Sequence[Point], proof: bytes
) -> None:
    """Raise BadProof unless `proof` shows that no listed position holds any of `cards`."""
    kind = Check.VOID
    if not isinstance(context, bytes) or len(context) != 21:
        raise CryptoUsageError("a proof context is the 21-byte hand context")
    if not positions or not cards:
        raise BadProof(kind, Detail(N_("a void claim covers at least one position and one card")))
    for pos in positions:
        if not isinstance(pos.position, int) or not 0 <= pos.position < MAX_POSITIONS:
            why = Detail(N_("position {position} is out of range"), position=repr(pos.position))
            raise BadProof(kind, why)
        _check_point(kind, pos.commitment, N_("a key commitment"))
        _check_point(kind, pos.residue, N_("a residue"))
    for card in cards:
        _check_point(kind, card, N_("a card point"))
    m_p, m_c = len(positions), len(cards)
    _check_size(kind, proof, void_proof_size(m_p, m_c))
    _scalars(proof, 1, 0, kind)  # the challenge must be canonical too
    c_enc = proof[:32]
    z = _scalars(proof, 2 * m_p, 32, kind)  # z_α,p and z_β,p for each position p
    ts = _split(proof, m_p * m_c, 32 + 64 * m_p)
    statement = _void_statement(context, step, positions, cards)
    e, w = _void_w(statement, ts, m_p)
    a2s: list[Point] = []
    try:
        for p, pos in enumerate(positions):
            za = _enc(z[2 * p])
            zb_z = _mul(_enc(z[2 * p + 1]), pos.residue)
            for x, card in enumerate(cards):
                # refuses T = O (and any invalid T) through c·T
                a2s.append(_sub(_sub(_mul(za, card), zb_z), _mul(c_enc, ts[p * m_c + x])))
        # A1 = Σ_p w_p·(z_α,p·B − z_β,p·P_p)
        sum_alpha = sum(w[p] * z[2 * p] for p in range(m_p)) % L
        p_coefs = [w[p] * z[2 * p + 1] % L for p in range(m_p)]
        a1 = _sub(_base(_enc(sum_alpha)), _lin(p_coefs, [pos.commitment for pos in positions]))
    except CryptoError:
        why = Detail(N_("a point is not valid (or T is the identity), or a scalar is zero"))
        raise BadProof(kind, why) from None
    if _enc(_reduce(H(DOMAIN_VOID_CHALLENGE, e, a1, _cat(a2s)))) != c_enc:
        raise BadProof(kind, Detail(N_("the void proof does not verify")))
