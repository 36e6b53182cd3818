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

Cost in multiplications (variable-base `v`, fixed-base `b`, additions `a`) for n positions, as measured by
`benchmarks/deal.py`: shuffle prove 5n v + 3n b, verify 6n v + n b; lock prove 2n v + n b (the lock itself
included), verify 3n v + n b; void 4 v + 1 b per (position, card) to prove and to verify.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from nacl.bindings import (
    crypto_core_ed25519_add,
    crypto_core_ed25519_from_uniform,
    crypto_core_ed25519_sub,
    crypto_scalarmult_ed25519_base_noclamp,
    crypto_scalarmult_ed25519_noclamp,
)
from nacl.exceptions import CryptoError

from ..errors import RemoteError
from .deal import MAX_POSITIONS, HandSecrets, shuffle
from .errors import CryptoUsageError
from .group import IDENTITY, POINT_BYTES, L, Point, Scalar
from .hashing import H

DOMAIN_GENERATOR: Final = "p2pspades/v2/generator"
DOMAIN_NONCE: Final = "p2pspades/v2/nonce"
DOMAIN_SHUFFLE_U: Final = "p2pspades/v2/shuffle/u"
DOMAIN_SHUFFLE_CHALLENGE: Final = "p2pspades/v2/shuffle/challenge"
DOMAIN_LOCK_CHALLENGE: Final = "p2pspades/v2/lock/challenge"
DOMAIN_VOID_CHALLENGE: Final = "p2pspades/v2/void/challenge"
SCALAR_BYTES: Final = 32
VOID_PAIR_BYTES: Final = 3 * 32
_INVALID: Final = "a point of the statement or the proof is not a valid point, or a scalar is zero"

_add = crypto_core_ed25519_add
_sub = crypto_core_ed25519_sub
_mul = crypto_scalarmult_ed25519_noclamp
_base = crypto_scalarmult_ed25519_base_noclamp


class BadProof(RemoteError):
    """A proof that does not verify, or that is malformed (its size, a non-canonical scalar, a bad point)."""

    def __init__(self, kind: str, detail: str, seat: int | None = None) -> None:
        super().__init__(f"bad-{kind}-proof", detail, seat)
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


def _scalars(blob: bytes, count: int, offset: int, kind: str) -> list[int]:
    out = [int.from_bytes(blob[offset + 32 * i : offset + 32 * i + 32], "little") for i in range(count)]
    for x in out:
        if x >= L:
            raise BadProof(kind, "a scalar of the proof is not reduced below the group order L")
    return out


def _lin(scalars: Sequence[int], points: Sequence[Point]) -> Point:
    """Σ scalars[i]·points[i] (one multiplication each: libsodium has no multi-scalar multiplication)."""
    return functools.reduce(_add, map(_mul, _encs(scalars), points))


def _nonces(seed: bytes, kind: bytes, statement: bytes, count: int) -> list[int]:
    """The prover's secret randomness: 64 bytes of SHAKE-256 per scalar, reduced mod L."""
    stream = hashlib.shake_256(H(DOMAIN_NONCE, seed, kind, statement)).digest(64 * count)
    return [int.from_bytes(stream[64 * i : 64 * i + 64], "little") % L for i in range(count)]


def _check_statement(kind: str, step: int, context: bytes, decks: Sequence[Sequence[object]]) -> int:
    if not isinstance(context, bytes) or len(context) != 21:
        raise CryptoUsageError("a proof context is the 21-byte hand context")
    if not isinstance(step, int) or not 0 <= step < 1 << 16:
        raise CryptoUsageError(f"a step is an int in [0, 65536), got {step!r}")
    n = len(decks[0])
    if not 1 <= n <= MAX_POSITIONS:
        raise BadProof(kind, f"a deck has 1 to {MAX_POSITIONS} positions, got {n}")
    for deck in decks:
        if len(deck) != n:
            raise BadProof(kind, f"decks of {n} and {len(deck)} positions")
        for p in deck:
            if not isinstance(p, bytes) or len(p) != POINT_BYTES:
                raise BadProof(kind, f"a point is {POINT_BYTES} bytes")
    return n


def _check_point(kind: str, p: object, what: str) -> bytes:
    if not isinstance(p, bytes) or len(p) != POINT_BYTES:
        raise BadProof(kind, f"{what} is not a {POINT_BYTES}-byte point")
    return p


def _check_size(kind: str, proof: object, size: int) -> bytes:
    if not isinstance(proof, bytes) or len(proof) != size:
        got = f"{len(proof)} bytes" if isinstance(proof, bytes) else f"a {type(proof).__name__}"
        raise BadProof(kind, f"the proof is {size} bytes, got {got}")
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


# --- shuffle ---


def shuffle_proof_size(n: int) -> int:
    """Bytes of a shuffle proof of n positions: c_j, ĉ_i, challenge, s_1..s_4, ŝ_i, s'_i."""
    return 32 * (4 * n + 5)


def _shuffle_u(
    context: bytes,
    step: int,
    big_s: Point,
    deck_in: Sequence[Point],
    deck_out: Sequence[Point],
    cs: Sequence[Point],
) -> tuple[bytes, list[int]]:
    n = len(deck_in)
    d1 = H(DOMAIN_SHUFFLE_U, context, _u16(step), big_s, _cat(deck_in), _cat(deck_out), _cat(cs))
    return d1, [_reduce(H(DOMAIN_SHUFFLE_U, d1, _u32(j))) for j in range(n)]


def _shuffle_challenge(d1: bytes, chat: Sequence[Point], ts: Sequence[Point], that: Sequence[Point]) -> int:
    return _reduce(H(DOMAIN_SHUFFLE_CHALLENGE, d1, _cat(chat), _cat(ts), _cat(that)))


def prove_shuffle(
    context: bytes, step: int, deck_in: Sequence[Point], secrets: HandSecrets
) -> tuple[list[Point], bytes]:
    """Shuffle `deck_in` with the seat's secrets and prove it: (the published deck, the proof)."""
    n = _check_statement("shuffle", step, context, [deck_in])
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
    rand = _nonces(seed, b"shuffle", H(DOMAIN_NONCE, context, _u16(step), _cat(deck_in)), 4 * n + 4)
    r = rand[:n]
    r_hat = rand[n : 2 * n]
    w_hat = rand[2 * n : 3 * n]
    w_prime = rand[3 * n : 4 * n]
    w1, w2, w3, w4 = rand[4 * n :]
    # 1. commitment to the permutation matrix, column by column: c_j = r_j·B + G_{π⁻¹(j)}
    cs = list(map(_add, map(_base, _encs(r)), [gens[inverse[j]] for j in range(n)]))
    # 2. the verifier's challenge vector u, and u'_i = u_{π[i]}
    d1, u = _shuffle_u(context, step, big_s, deck_in, deck_out, cs)
    u_prime = [u[perm[i]] for i in range(n)]
    # 3. the chain ĉ_i = r̂_i·B + u'_i·ĉ_{i-1}, ĉ_{-1} = G_0: ĉ_{n-1} commits to ∏ u'_i
    chat: list[Point] = []
    previous = h
    for i in range(n):
        previous = _add(_base(_enc(r_hat[i])), _mul(_enc(u_prime[i]), previous))
        chat.append(previous)
    r_bar = sum(r) % L
    r_tilde = sum(rj * uj for rj, uj in zip(r, u, strict=True)) % L
    r_chain = 0
    for i in range(n):
        r_chain = (r_chain * u_prime[i] + r_hat[i]) % L
    # 4. first messages
    t1 = _base(_enc(w1))
    t2 = _base(_enc(w2))
    t3 = _add(_base(_enc(w3)), _lin(w_prime, gens))
    # t4 = Σ ω'_i·out[i] − ω_4·Σ u_j·in[j] = Σ_j (s·ω'_{π⁻¹(j)} − ω_4·u_j)·in[j]
    t4 = _lin([(s * w_prime[inverse[j]] - w4 * u[j]) % L for j in range(n)], deck_in)
    t5 = _base(_enc(w4))
    chain_in = [h, *chat[:-1]]
    that = list(map(_add, map(_base, _encs(w_hat)), map(_mul, _encs(w_prime), chain_in)))
    c = _shuffle_challenge(d1, chat, [t1, t2, t3, t4, t5], that)
    # 5. responses
    s1 = (w1 + c * r_bar) % L
    s2 = (w2 + c * r_chain) % L
    s3 = (w3 + c * r_tilde) % L
    s4 = (w4 + c * s) % L
    s_hat = [(w_hat[i] + c * r_hat[i]) % L for i in range(n)]
    s_prime = [(w_prime[i] + c * u_prime[i]) % L for i in range(n)]
    return b"".join([*cs, *chat, _enc(c), *_encs([s1, s2, s3, s4]), *_encs(s_hat), *_encs(s_prime)])


def verify_shuffle(
    context: bytes,
    step: int,
    deck_in: Sequence[Point],
    deck_out: Sequence[Point],
    shuffle_commitment: Point,
    proof: bytes,
) -> None:
    """Raise BadProof unless `proof` shows deck_out[i] = s·deck_in[π[i]] for some π, with S = s·B."""
    kind = "shuffle"
    n = _check_statement(kind, step, context, [deck_in, deck_out])
    big_s = _check_point(kind, shuffle_commitment, "the shuffle commitment S")
    _check_size(kind, proof, shuffle_proof_size(n))
    cs = _split(proof, n, 0)
    chat = _split(proof, n, 32 * n)
    c_bytes = proof[64 * n : 64 * n + 32]
    c, s1, s2, s3, s4 = _scalars(proof, 5, 64 * n, kind)
    s_hat = _scalars(proof, n, 64 * n + 160, kind)
    s_prime = _scalars(proof, n, 96 * n + 160, kind)
    gens, gen_sum = _generators(n)
    h = generator(0)
    d1, u = _shuffle_u(context, step, big_s, deck_in, deck_out, cs)
    try:
        u_product = functools.reduce(lambda a, b: a * b % L, u, 1)
        c_bar = _sub(functools.reduce(_add, cs), gen_sum)
        t1 = _sub(_base(_enc(s1)), _mul(_enc(c), c_bar))
        c_hat = _sub(chat[-1], _mul(_enc(u_product), h))
        t2 = _sub(_base(_enc(s2)), _mul(_enc(c), c_hat))
        # t3 = s_3·B + Σ s'_i·G_i − c·Σ u_j·c_j
        t3 = _add(_base(_enc(s3)), _sub(_lin(s_prime, gens), _lin([c * uj % L for uj in u], cs)))
        # t4 = Σ s'_i·out[i] − s_4·Σ u_j·in[j]
        t4 = _sub(_lin(s_prime, deck_out), _lin([s4 * uj % L for uj in u], deck_in))
        t5 = _sub(_base(_enc(s4)), _mul(_enc(c), big_s))
        chain_in = [h, *chat[:-1]]
        c_enc = _enc(c)
        that = list(
            map(
                _sub,
                map(_add, map(_base, _encs(s_hat)), map(_mul, _encs(s_prime), chain_in)),
                [_mul(c_enc, p) for p in chat],
            )
        )
    except CryptoError:
        raise BadProof(kind, _INVALID) from None
    if _enc(_shuffle_challenge(d1, chat, [t1, t2, t3, t4, t5], that)) != c_bytes:
        raise BadProof(kind, "the shuffle proof does not verify")


# --- lock ---


def lock_proof_size(n: int) -> int:
    """Bytes of a lock proof of n positions: the challenge, z_s, z_0 .. z_{n-1}."""
    return 32 * (n + 2)


def _lock_challenge(
    context: bytes,
    step: int,
    big_s: Point,
    deck_in: Sequence[Point],
    deck_out: Sequence[Point],
    commitments: Sequence[Point],
    a: Point,
    a1: Sequence[Point],
    a3: Sequence[Point],
) -> int:
    parts = (_cat(deck_in), _cat(deck_out), _cat(commitments), a, _cat(a1), _cat(a3))
    return _reduce(H(DOMAIN_LOCK_CHALLENGE, context, _u16(step), big_s, *parts))


def prove_lock(
    context: bytes, step: int, deck_in: Sequence[Point], secrets: HandSecrets
) -> tuple[list[Point], list[Point], bytes]:
    """Lock `deck_in` with the seat's secrets and prove it: (the published deck, the P_j, the proof)."""
    n = _check_statement("lock", step, context, [deck_in])
    if secrets.n != n:
        raise CryptoUsageError(f"secrets for {secrets.n} positions in a deck of {n}")
    s_inv = int.from_bytes(secrets.inverse_shuffle_scalar, "little")
    keys = [int.from_bytes(k, "little") for k in secrets.lock_keys]
    try:
        deck_out = list(map(_mul, _encs([k * s_inv % L for k in keys]), deck_in))
    except CryptoError:
        raise BadProof("lock", "the deck to lock holds an invalid point") from None
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
    rand = _nonces(seed, b"lock", H(DOMAIN_NONCE, context, _u16(step), _cat(deck_in)), n + 1)
    a, b = rand[0], rand[1:]
    big_a = _base(_enc(a))
    a1 = list(map(_base, _encs(b)))
    a3 = list(map(_mul, _encs([(a * k * s_inv - bj) % L for k, bj in zip(keys, b, strict=True)]), deck_in))
    c = _lock_challenge(context, step, big_s, deck_in, deck_out, commitments, big_a, a1, a3)
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
    kind = "lock"
    n = _check_statement(kind, step, context, [deck_in, deck_out, commitments])
    big_s = _check_point(kind, shuffle_commitment, "the shuffle commitment S")
    _check_size(kind, proof, lock_proof_size(n))
    c, z_s = _scalars(proof, 2, 0, kind)
    z = _scalars(proof, n, 64, kind)
    c_enc = _enc(c)
    z_enc = _encs(z)
    try:
        big_a = _sub(_base(_enc(z_s)), _mul(c_enc, big_s))
        a1 = list(map(_sub, map(_base, z_enc), [_mul(c_enc, p) for p in commitments]))
        zs_enc = _enc(z_s)
        a3 = list(map(_sub, [_mul(zs_enc, p) for p in deck_out], map(_mul, z_enc, deck_in)))
    except CryptoError:
        raise BadProof(kind, _INVALID) from None
    expected = _lock_challenge(context, step, big_s, deck_in, deck_out, commitments, big_a, a1, a3)
    if _enc(expected) != proof[:32]:
        raise BadProof(kind, "the lock proof does not verify")


# --- void claims ---


def void_residue(final_point: Point, other_keys: Sequence[Scalar]) -> Point:
    """Z_j: the final point of position j with every other seat's key removed, k_owner,j · (card point)."""
    product = 1
    for key in other_keys:
        product = product * int.from_bytes(key, "little") % L
    try:
        return _mul(_enc(pow(product, -1, L)), final_point)
    except (CryptoError, ValueError):
        raise BadProof("void", "cannot remove the keys from the final point") from None


def void_proof_size(pairs: int) -> int:
    """Bytes of a void proof over `pairs` (position, card) pairs: the challenge, then T, z_α, z_β per pair."""
    return 32 + VOID_PAIR_BYTES * pairs


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

    For each (position j, card C), in order position by position: T = r·(k_j·C − Z_j) and a proof of
    α = r·k_j, β = r with α·B − β·P_j = O and α·C − β·Z_j = T. Refuses to prove a false claim.
    """
    if not positions or not cards:
        raise CryptoUsageError("a void claim covers at least one position and one card")
    statement = _void_statement(context, step, positions, cards)
    m = len(positions) * len(cards)
    rand = _nonces(secrets.seed, b"void", H(DOMAIN_NONCE, *statement), 3 * m)
    ts: list[Point] = []
    a1s: list[Point] = []
    a2s: list[Point] = []
    witnesses: list[tuple[int, int]] = []
    i = 0
    for pos in positions:
        k = int.from_bytes(secrets.lock_keys[pos.position], "little")
        for card in cards:
            r, a, b = rand[3 * i : 3 * i + 3]
            i += 1
            t = _sub(_mul(_enc(r * k % L), card), _mul(_enc(r), pos.residue))
            if t == IDENTITY:
                raise CryptoUsageError(f"position {pos.position} holds one of the cards: no void proof")
            ts.append(t)
            a1s.append(_sub(_base(_enc(a)), _mul(_enc(b), pos.commitment)))
            a2s.append(_sub(_mul(_enc(a), card), _mul(_enc(b), pos.residue)))
            witnesses.append((r * k % L, r))
    c = _reduce(H(DOMAIN_VOID_CHALLENGE, *statement, _cat(ts), _cat(a1s), _cat(a2s)))
    body = []
    for (alpha, beta), t, j in zip(witnesses, ts, range(m), strict=True):
        a, b = rand[3 * j + 1], rand[3 * j + 2]
        body += [t, _enc((a + c * alpha) % L), _enc((b + c * beta) % L)]
    return _enc(c) + b"".join(body)


def verify_void(
    context: bytes, step: int, positions: Sequence[VoidPosition], cards: Sequence[Point], proof: bytes
) -> None:
    """Raise BadProof unless `proof` shows that no listed position holds any of `cards`."""
    kind = "void"
    if not isinstance(context, bytes) or len(context) != 21:
        raise CryptoUsageError("a proof context is the 21-byte hand context")
    if not positions or not cards:
        raise BadProof(kind, "a void claim covers at least one position and one card")
    for pos in positions:
        if not 0 <= pos.position < MAX_POSITIONS:
            raise BadProof(kind, f"position {pos.position} is out of range")
        _check_point(kind, pos.commitment, "a key commitment")
        _check_point(kind, pos.residue, "a residue")
    for card in cards:
        _check_point(kind, card, "a card point")
    m = len(positions) * len(cards)
    _check_size(kind, proof, void_proof_size(m))
    _scalars(proof, 1, 0, kind)  # the challenge must be canonical too
    c_enc = proof[:32]
    ts: list[Point] = []
    a1s: list[Point] = []
    a2s: list[Point] = []
    i = 0
    try:
        for pos in positions:
            for card in cards:
                offset = 32 + VOID_PAIR_BYTES * i
                i += 1
                t = proof[offset : offset + 32]
                z_alpha, z_beta = _scalars(proof, 2, offset + 32, kind)
                za, zb = _enc(z_alpha), _enc(z_beta)
                ct = _mul(c_enc, t)  # refuses T = O (and any invalid T)
                a1s.append(_sub(_base(za), _mul(zb, pos.commitment)))
                a2s.append(_sub(_sub(_mul(za, card), _mul(zb, pos.residue)), ct))
                ts.append(t)
    except CryptoError:
        raise BadProof(kind, "a point is not valid (or T is the identity), or a scalar is zero") from None
    statement = _void_statement(context, step, positions, cards)
    if _enc(_reduce(H(DOMAIN_VOID_CHALLENGE, *statement, _cat(ts), _cat(a1s), _cat(a2s)))) != c_enc:
        raise BadProof(kind, "the void proof does not verify")
