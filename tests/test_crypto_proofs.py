"""The proofs of protocol version 2: complete for honest steps, and every cheat or mutation refused."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import nacl.bindings as sodium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades import crypto
from p2pspades.crypto import proofs
from p2pspades.crypto.group import L
from p2pspades.crypto.proofs import BadProof, VoidPosition

GAME = bytes(range(16))
CODES = [rank + suit for suit in "SHDC" for rank in "23456789TJQKA"]
DECK_52 = [crypto.card_point(code) for code in CODES]


def context(seat: int, hand: int = 1, game: bytes = GAME) -> bytes:
    return crypto.hand_context(game, hand, seat)


@functools.lru_cache(maxsize=64)
def secrets(seat: int, n: int, tag: int = 0) -> crypto.HandSecrets:
    return crypto.HandSecrets.derive(bytes([seat + 1 + 16 * tag]) * 32, context(seat), n)


def flips(blob: bytes) -> list[bytes]:
    """`blob` with one byte changed, for every byte (XOR 1: the smallest change)."""
    return [blob[:i] + bytes([blob[i] ^ 1]) + blob[i + 1 :] for i in range(len(blob))]


# --- the live key check ---


def test_check_key() -> None:
    sec = secrets(0, 4)
    commitments = proofs.lock_commitments(sec)
    for j, key in enumerate(sec.lock_keys):
        assert proofs.check_key(key, commitments[j])
        assert not proofs.check_key(key, commitments[(j + 1) % 4])
    key = sec.lock_keys[0]
    assert not proofs.check_key(bytes(32), commitments[0])
    non_canonical = (int.from_bytes(key, "little") + L).to_bytes(32, "little")
    assert not proofs.check_key(non_canonical, commitments[0])
    assert not proofs.check_key(key[:31], commitments[0])


# --- shuffle ---


def test_shuffle_complete_52() -> None:
    sec = secrets(0, 52)
    out, proof = proofs.prove_shuffle(context(0), 0, DECK_52, sec)
    assert out == crypto.shuffle(DECK_52, sec)
    assert len(proof) == proofs.shuffle_proof_size(52) == 5184
    proofs.verify_shuffle(context(0), 0, DECK_52, out, proofs.shuffle_commitment(sec), proof)


def test_shuffle_chain_of_four() -> None:
    deck = DECK_52[:13]
    for seat in range(4):
        sec = secrets(seat, 13)
        out, proof = proofs.prove_shuffle(context(seat), seat, deck, sec)
        proofs.verify_shuffle(context(seat), seat, deck, out, proofs.shuffle_commitment(sec), proof)
        deck = out


def _small_shuffle(n: int = 4) -> tuple[list[bytes], list[bytes], bytes, bytes]:
    sec = secrets(1, n)
    deck = DECK_52[:n]
    out, proof = proofs.prove_shuffle(context(1), 3, deck, sec)
    return deck, out, proofs.shuffle_commitment(sec), proof


def test_shuffle_every_mutated_byte_refused() -> None:
    deck, out, big_s, proof = _small_shuffle()
    proofs.verify_shuffle(context(1), 3, deck, out, big_s, proof)
    for bad in flips(proof):
        with pytest.raises(BadProof) as info:
            proofs.verify_shuffle(context(1), 3, deck, out, big_s, bad)
        assert info.value.check == "bad-shuffle-proof"
    malformed: list[object] = [proof[:-1], proof + b"\0", proof[:-32], b"", None]
    for wrong in malformed:
        with pytest.raises(BadProof, match="bytes"):
            proofs.verify_shuffle(context(1), 3, deck, out, big_s, wrong)  # type: ignore[arg-type]


def test_shuffle_statement_mutations_refused() -> None:
    deck, out, big_s, proof = _small_shuffle()
    for i in range(len(deck)):
        for bad_out in flips(out[i]):
            with pytest.raises(BadProof):
                proofs.verify_shuffle(context(1), 3, deck, [*out[:i], bad_out, *out[i + 1 :]], big_s, proof)
    for bad_s in flips(big_s):
        with pytest.raises(BadProof):
            proofs.verify_shuffle(context(1), 3, deck, out, bad_s, proof)


@pytest.mark.parametrize(
    ("game", "hand", "seat", "step"),
    [(bytes(16), 1, 1, 3), (GAME, 2, 1, 3), (GAME, 1, 2, 3), (GAME, 1, 1, 4)],
    ids=["game", "hand", "seat", "step"],
)
def test_shuffle_transcript_binding(game: bytes, hand: int, seat: int, step: int) -> None:
    deck, out, big_s, proof = _small_shuffle()
    with pytest.raises(BadProof, match="does not verify"):
        proofs.verify_shuffle(crypto.hand_context(game, hand, seat), step, deck, out, big_s, proof)


def test_shuffle_wrong_scalar_refused() -> None:
    deck, out, _, proof = _small_shuffle()
    other = proofs.shuffle_commitment(secrets(2, 4))
    with pytest.raises(BadProof):
        proofs.verify_shuffle(context(1), 3, deck, out, other, proof)
    # the honest algorithm run on a deck multiplied by another scalar
    sec = secrets(1, 4)
    wrong = crypto.shuffle(deck, secrets(2, 4))
    s = int.from_bytes(sec.shuffle_scalar, "little")
    forged = proofs.shuffle_proof(context(1), 3, deck, wrong, s, secrets(2, 4).permutation, sec.seed)
    with pytest.raises(BadProof):
        proofs.verify_shuffle(context(1), 3, deck, wrong, proofs.shuffle_commitment(sec), forged)


def _cheat_shuffle(deck: Sequence[bytes], out: list[bytes], sec: crypto.HandSecrets) -> None:
    """Prove the false statement `out` with the honest prover algorithm; it must not verify."""
    s = int.from_bytes(sec.shuffle_scalar, "little")
    proof = proofs.shuffle_proof(context(1), 3, deck, out, s, sec.permutation, sec.seed)
    with pytest.raises(BadProof, match="does not verify"):
        proofs.verify_shuffle(context(1), 3, deck, out, proofs.shuffle_commitment(sec), proof)


def test_shuffle_wrong_permutation_refused() -> None:
    sec = secrets(1, 6)
    deck = DECK_52[:6]
    out = crypto.shuffle(deck, sec)
    _cheat_shuffle(deck, [out[1], out[0], *out[2:]], sec)  # two positions swapped after the proof's π
    # the right deck but a proof made with another permutation
    s = int.from_bytes(sec.shuffle_scalar, "little")
    other = [*sec.permutation[1:], sec.permutation[0]]
    proof = proofs.shuffle_proof(context(1), 3, deck, out, s, other, sec.seed)
    with pytest.raises(BadProof):
        proofs.verify_shuffle(context(1), 3, deck, out, proofs.shuffle_commitment(sec), proof)


def test_tagged_shuffle_refused() -> None:
    """A seat replaces one card by a point whose discrete log it knows (a tag), or duplicates one."""
    sec = secrets(1, 6)
    deck = DECK_52[:6]
    out = crypto.shuffle(deck, sec)
    tag = crypto.mul(crypto.scalar_from_int(1234567), crypto.card_point("AS"))
    _cheat_shuffle(deck, [tag, *out[1:]], sec)
    _cheat_shuffle(deck, [out[1], *out[1:]], sec)
    # tagging the input: multiplying one point by a known factor
    tagged = [crypto.mul(crypto.scalar_from_int(7), out[0]), *out[1:]]
    _cheat_shuffle(deck, tagged, sec)


def test_shuffle_invalid_points_refused() -> None:
    deck, out, big_s, proof = _small_shuffle()
    for bad in (crypto.IDENTITY, bytes(32), b"\xff" * 32):
        with pytest.raises(BadProof):
            proofs.verify_shuffle(context(1), 3, deck, [bad, *out[1:]], big_s, proof)
        with pytest.raises(BadProof):
            proofs.verify_shuffle(context(1), 3, deck, out, bad, proof)
        with pytest.raises(BadProof):
            proofs.verify_shuffle(context(1), 3, deck, out, big_s, bad + proof[32:])
    with pytest.raises(BadProof, match="positions"):
        proofs.verify_shuffle(context(1), 3, deck, out[:-1], big_s, proof)


def test_shuffle_non_canonical_scalar_refused() -> None:
    deck, out, big_s, proof = _small_shuffle()
    n = len(deck)
    at = 64 * n + 32  # s_1
    value = int.from_bytes(proof[at : at + 32], "little") + L
    if value < 2**256:
        bad = proof[:at] + value.to_bytes(32, "little") + proof[at + 32 :]
        with pytest.raises(BadProof, match="not reduced"):
            proofs.verify_shuffle(context(1), 3, deck, out, big_s, bad)


@settings(max_examples=12, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=7),
    seed=st.binary(min_size=32, max_size=32),
    step=st.integers(min_value=0, max_value=65535),
    where=st.integers(min_value=0),
    mask=st.integers(min_value=1, max_value=255),
)
def test_shuffle_property(n: int, seed: bytes, step: int, where: int, mask: int) -> None:
    sec = crypto.HandSecrets.derive(seed, context(3), n)
    deck = DECK_52[52 - n :]
    out, proof = proofs.prove_shuffle(context(3), step, deck, sec)
    big_s = proofs.shuffle_commitment(sec)
    proofs.verify_shuffle(context(3), step, deck, out, big_s, proof)
    i = where % len(proof)
    bad = proof[:i] + bytes([proof[i] ^ mask]) + proof[i + 1 :]
    with pytest.raises(BadProof):
        proofs.verify_shuffle(context(3), step, deck, out, big_s, bad)


# --- lock ---


def _small_lock(n: int = 4) -> tuple[list[bytes], list[bytes], bytes, list[bytes], bytes]:
    sec = secrets(2, n)
    deck = crypto.shuffle(DECK_52[:n], secrets(0, n))
    out, commitments, proof = proofs.prove_lock(context(2), 6, deck, sec)
    assert out == crypto.lock(deck, sec)
    return deck, out, proofs.shuffle_commitment(sec), commitments, proof


def test_lock_complete_52() -> None:
    sec = secrets(3, 52)
    deck = crypto.shuffle(DECK_52, secrets(0, 52))
    out, commitments, proof = proofs.prove_lock(context(3), 7, deck, sec)
    assert len(proof) == proofs.lock_proof_size(52)
    assert commitments == [sodium.crypto_scalarmult_ed25519_base_noclamp(k) for k in sec.lock_keys]
    proofs.verify_lock(context(3), 7, deck, out, proofs.shuffle_commitment(sec), commitments, proof)
    for j, key in enumerate(sec.lock_keys):
        assert proofs.check_key(key, commitments[j])


def test_lock_every_mutated_byte_refused() -> None:
    deck, out, big_s, commitments, proof = _small_lock()
    proofs.verify_lock(context(2), 6, deck, out, big_s, commitments, proof)
    for bad in flips(proof):
        with pytest.raises(BadProof) as info:
            proofs.verify_lock(context(2), 6, deck, out, big_s, commitments, bad)
        assert info.value.check == "bad-lock-proof"
    for j in range(len(deck)):
        for bad_p in flips(commitments[j])[::3]:
            with pytest.raises(BadProof):
                changed = [*commitments[:j], bad_p, *commitments[j + 1 :]]
                proofs.verify_lock(context(2), 6, deck, out, big_s, changed, proof)
    for bad in (proof[:-1], proof + b"\0"):
        with pytest.raises(BadProof, match="bytes"):
            proofs.verify_lock(context(2), 6, deck, out, big_s, commitments, bad)


@pytest.mark.parametrize(
    ("game", "hand", "seat", "step"),
    [(bytes(16), 1, 2, 6), (GAME, 2, 2, 6), (GAME, 1, 1, 6), (GAME, 1, 2, 5)],
    ids=["game", "hand", "seat", "step"],
)
def test_lock_transcript_binding(game: bytes, hand: int, seat: int, step: int) -> None:
    deck, out, big_s, commitments, proof = _small_lock()
    with pytest.raises(BadProof, match="does not verify"):
        proofs.verify_lock(crypto.hand_context(game, hand, seat), step, deck, out, big_s, commitments, proof)


def test_copied_position_cannot_be_proven() -> None:
    """The first locker copies an opponent's position b into its own position a: out[a] = k_a·s⁻¹·in[b]."""
    n = 6
    sec = secrets(2, n)
    deck = crypto.shuffle(DECK_52[:n], secrets(0, n))
    honest = crypto.lock(deck, sec)
    s = int.from_bytes(sec.shuffle_scalar, "little")
    keys = [int.from_bytes(k, "little") for k in sec.lock_keys]
    a, b = 0, 3
    copied = list(honest)
    copied[a] = crypto.mul(crypto.scalar_from_int(keys[a] * pow(s, -1, L)), deck[b])
    commitments = proofs.lock_commitments(sec)
    big_s = proofs.shuffle_commitment(sec)
    proof = proofs.lock_proof(context(2), 6, deck, copied, commitments, s, keys, sec.seed)
    with pytest.raises(BadProof, match="does not verify"):
        proofs.verify_lock(context(2), 6, deck, copied, big_s, commitments, proof)
    # every other choice of copied source is refused the same way
    for source in range(1, n):
        copied = list(honest)
        copied[a] = crypto.mul(crypto.scalar_from_int(keys[a] * pow(s, -1, L)), deck[source])
        proof = proofs.lock_proof(context(2), 6, deck, copied, commitments, s, keys, sec.seed)
        with pytest.raises(BadProof):
            proofs.verify_lock(context(2), 6, deck, copied, big_s, commitments, proof)


def test_lock_wrong_scalar_or_key_refused() -> None:
    deck, out, big_s, commitments, proof = _small_lock()
    other = secrets(1, 4)
    with pytest.raises(BadProof):
        proofs.verify_lock(context(2), 6, deck, out, proofs.shuffle_commitment(other), commitments, proof)
    with pytest.raises(BadProof):
        proofs.verify_lock(context(2), 6, deck, out, big_s, proofs.lock_commitments(other), proof)
    swapped = [commitments[1], commitments[0], *commitments[2:]]
    with pytest.raises(BadProof):
        proofs.verify_lock(context(2), 6, deck, out, big_s, swapped, proof)
    # a lock with another seat's keys, proven by the honest algorithm against this seat's commitments
    sec = secrets(2, 4)
    wrong = crypto.lock(deck, other)
    s = int.from_bytes(sec.shuffle_scalar, "little")
    keys = [int.from_bytes(k, "little") for k in sec.lock_keys]
    forged = proofs.lock_proof(context(2), 6, deck, wrong, commitments, s, keys, sec.seed)
    with pytest.raises(BadProof):
        proofs.verify_lock(context(2), 6, deck, wrong, big_s, commitments, forged)


# --- void claims ---


def _deal(n: int = 16, seats: int = 4) -> tuple[list[crypto.HandSecrets], list[bytes], tuple[int, ...]]:
    """A whole deal of the first n cards (seats shuffle, then lock); returns secrets, final deck, order."""
    secs = [secrets(seat, n, tag=1) for seat in range(seats)]
    deck = DECK_52[:n]
    for sec in secs:
        deck = crypto.shuffle(deck, sec)
    for sec in secs:
        deck = crypto.lock(deck, sec)
    return secs, deck, crypto.deal_order(n, secs)


def _void_positions(
    owner: int, owned: list[int], secs: list[crypto.HandSecrets], final: list[bytes]
) -> list[VoidPosition]:
    commitments = proofs.lock_commitments(secs[owner])
    out = []
    for j in owned:
        others = [secs[i].lock_keys[j] for i in range(len(secs)) if i != owner]
        residue = proofs.void_residue(final[j], others)
        out.append(VoidPosition(j, commitments[j], residue))
    return out


def test_void_complete_and_sound() -> None:
    n = 16
    secs, final, order = _deal(n)
    owner = 1
    owned = [j for j in range(n) if j % 4 == owner]
    held = [order[j] for j in owned]
    positions = _void_positions(owner, owned, secs, final)
    # residue check: Z_j is k_j times the card point
    for pos in positions:
        card = DECK_52[order[pos.position]]
        assert crypto.mul(secs[owner].lock_keys[pos.position], card) == pos.residue
    absent = [DECK_52[i] for i in range(n) if i not in held]
    proof = proofs.prove_void(context(owner), 20, secs[owner], positions, absent)
    assert len(proof) == proofs.void_proof_size(len(positions), len(absent))
    proofs.verify_void(context(owner), 20, positions, absent, proof)
    # a false claim: the owner cannot prove it, and a proof for other cards does not carry over
    with pytest.raises(crypto.CryptoUsageError, match="holds one of the cards"):
        proofs.prove_void(context(owner), 20, secs[owner], positions, [DECK_52[held[0]]])
    swapped = [DECK_52[held[0]], *absent[1:]]
    with pytest.raises(BadProof, match="does not verify"):
        proofs.verify_void(context(owner), 20, positions, swapped, proof)
    # transcript binding
    for ctx, step in ((context(owner, hand=2), 20), (context(0), 20), (context(owner), 21)):
        with pytest.raises(BadProof, match="does not verify"):
            proofs.verify_void(ctx, step, positions, absent, proof)


def test_void_every_mutated_byte_refused() -> None:
    n = 8
    secs, final, order = _deal(n)
    owner = 2
    owned = [2, 6]
    positions = _void_positions(owner, owned, secs, final)
    absent = [DECK_52[i] for i in range(n) if i not in (order[2], order[6])][:2]
    proof = proofs.prove_void(context(owner), 9, secs[owner], positions, absent)
    proofs.verify_void(context(owner), 9, positions, absent, proof)
    for bad in flips(proof):
        with pytest.raises(BadProof):
            proofs.verify_void(context(owner), 9, positions, absent, bad)
    # T = identity, the sign of an "inequality" that is false, is refused
    t_at = 32 + 64 * len(positions)
    forged = proof[:t_at] + crypto.IDENTITY + proof[t_at + 32 :]
    with pytest.raises(BadProof, match="identity"):
        proofs.verify_void(context(owner), 9, positions, absent, forged)
    with pytest.raises(BadProof, match="bytes"):
        proofs.verify_void(context(owner), 9, positions, absent, proof[:-1])


def test_generators_are_distinct_valid_points() -> None:
    gens = [proofs.generator(i) for i in range(60)]
    assert len(set(gens) | set(DECK_52)) == 60 + 52
    for g in gens:
        assert crypto.check_point(g) == g


# --- hostile input: a verifier refuses, it never fails otherwise ---

_point_like = st.one_of(
    st.sampled_from([*DECK_52[:6], crypto.IDENTITY, bytes(32), b"\xff" * 32]),
    st.binary(min_size=0, max_size=33),
    st.none(),
    st.integers(),
)


@settings(max_examples=60, deadline=None)
@given(
    deck_in=st.lists(_point_like, min_size=0, max_size=4),
    deck_out=st.lists(_point_like, min_size=0, max_size=4),
    big_s=_point_like,
    commitments=st.lists(_point_like, min_size=0, max_size=4),
    proof=st.one_of(st.binary(max_size=600), st.none(), st.integers()),
    size_proof=st.booleans(),
)
def test_hostile_input_is_refused_not_crashing(
    deck_in: Any, deck_out: Any, big_s: Any, commitments: Any, proof: Any, size_proof: bool
) -> None:
    if size_proof and isinstance(proof, bytes) and deck_in:
        # the right size, so that the scalars and points of the proof itself are exercised
        size = proofs.shuffle_proof_size(len(deck_in))
        proof = (proof * (1 + size // max(1, len(proof))))[:size]
    pairs = zip(commitments, deck_out, strict=False)
    positions: Any = [VoidPosition(j, c, r) for j, (c, r) in enumerate(pairs)]
    with pytest.raises(BadProof):
        proofs.verify_shuffle(context(0), 0, deck_in, deck_out, big_s, proof)
    with pytest.raises(BadProof):
        proofs.verify_lock(context(0), 4, deck_in, deck_out, big_s, commitments, proof)
    with pytest.raises(BadProof):
        proofs.verify_void(context(0), 9, positions, deck_in, proof)


def test_step_numbers() -> None:
    assert [proofs.shuffle_step(k) for k in range(4)] == [0, 1, 2, 3]
    assert [proofs.lock_step(4, k) for k in range(4)] == [4, 5, 6, 7]
    assert proofs.void_step(4, 0) == 8 and proofs.void_step(3, 17) == 23
    with pytest.raises(crypto.CryptoUsageError):
        proofs.void_step(4, 65536)
