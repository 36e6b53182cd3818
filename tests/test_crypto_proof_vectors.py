"""protocol/vectors/proofs.json: every proof verifies, the reference prover reproduces it, mutations fail."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import nacl.bindings as sodium
import pytest

from p2pspades import crypto
from p2pspades.crypto import proofs
from p2pspades.crypto.proofs import BadProof, VoidPosition

VECTORS_DIR = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
VECTORS: dict[str, Any] = json.loads((VECTORS_DIR / "proofs.json").read_text(encoding="utf-8"))
DEAL = VECTORS["deal_8"]


def _b(text: str) -> bytes:
    return bytes.fromhex(text)


def _points(items: list[str]) -> list[bytes]:
    return [bytes.fromhex(item) for item in items]


def _mutations(blob: bytes, stride: int = 1) -> list[bytes]:
    return [blob[:i] + bytes([blob[i] ^ 0x80]) + blob[i + 1 :] for i in range(0, len(blob), stride)]


def test_format_and_generators() -> None:
    assert VECTORS["format"] == "p2pspades-proof-vectors/1"
    assert [proofs.generator(i).hex() for i in range(9)] == VECTORS["generators"]
    # straight from the definition: from_uniform of the first half of H(domain, u32(i))
    for i, g in enumerate(VECTORS["generators"]):
        raw = crypto.H("p2pspades/v2/generator", i.to_bytes(4, "big"))[:32]
        assert sodium.crypto_core_ed25519_from_uniform(raw).hex() == g


def _seat(seat: int) -> dict[str, Any]:
    found: dict[str, Any] = DEAL["seats"][seat]
    return found


@pytest.mark.parametrize("k", range(4))
def test_shuffle_vectors(k: int) -> None:
    case = DEAL["shuffles"][k]
    seat = _seat(case["seat"])
    context, big_s = _b(seat["context"]), _b(seat["S"])
    deck_in, deck_out, proof = _points(case["in"]), _points(case["out"]), _b(case["proof"])
    proofs.verify_shuffle(context, case["step"], deck_in, deck_out, big_s, proof)
    secrets = crypto.HandSecrets.derive(_b(seat["seed"]), context, len(deck_in))
    assert proofs.shuffle_commitment(secrets) == big_s
    assert proofs.prove_shuffle(context, case["step"], deck_in, secrets) == (deck_out, proof)
    if k > 0:
        assert case["in"] == DEAL["shuffles"][k - 1]["out"]
    for bad in _mutations(proof, stride=13):
        with pytest.raises(BadProof):
            proofs.verify_shuffle(context, case["step"], deck_in, deck_out, big_s, bad)


@pytest.mark.parametrize("k", range(4))
def test_lock_vectors(k: int) -> None:
    case = DEAL["locks"][k]
    seat = _seat(case["seat"])
    context, big_s = _b(seat["context"]), _b(seat["S"])
    deck_in, deck_out, commitments = _points(case["in"]), _points(case["out"]), _points(case["P"])
    proof = _b(case["proof"])
    proofs.verify_lock(context, case["step"], deck_in, deck_out, big_s, commitments, proof)
    secrets = crypto.HandSecrets.derive(_b(seat["seed"]), context, len(deck_in))
    assert proofs.prove_lock(context, case["step"], deck_in, secrets) == (deck_out, commitments, proof)
    assert deck_out == crypto.lock(deck_in, secrets)
    for bad in _mutations(proof):
        with pytest.raises(BadProof):
            proofs.verify_lock(context, case["step"], deck_in, deck_out, big_s, commitments, bad)


def test_deal_opens_to_the_listed_cards() -> None:
    assert DEAL["shuffles"][0]["in"] == [crypto.card_point(code).hex() for code in DEAL["codes"]]
    assert DEAL["locks"][0]["in"] == DEAL["shuffles"][-1]["out"]
    assert DEAL["final"] == DEAL["locks"][-1]["out"]
    n = len(DEAL["codes"])
    secrets = [crypto.HandSecrets.derive(_b(s["seed"]), _b(s["context"]), n) for s in DEAL["seats"]]

    class Card:
        def __init__(self, code: str) -> None:
            self.code = code

    table = crypto.card_table([Card(code) for code in DEAL["codes"]])
    keys = [[s.lock_keys[j] for s in secrets] for j in range(n)]
    opened = crypto.open_cards(_points(DEAL["final"]), keys, table)
    assert [card.code if card else None for card in opened] == DEAL["cards"]


def test_shuffle_52_vector() -> None:
    case = VECTORS["shuffle_52"]
    context, big_s = _b(case["context"]), _b(case["S"])
    deck_in, deck_out, proof = _points(case["in"]), _points(case["out"]), _b(case["proof"])
    assert len(proof) == proofs.shuffle_proof_size(52)
    proofs.verify_shuffle(context, case["step"], deck_in, deck_out, big_s, proof)
    secrets = crypto.HandSecrets.derive(_b(DEAL["seats"][0]["seed"]), context, 52)
    assert proofs.prove_shuffle(context, case["step"], deck_in, secrets) == (deck_out, proof)


def test_void_vector() -> None:
    case = VECTORS["void"]
    final = _points(DEAL["final"])
    positions = []
    for row in case["positions"]:
        residue = proofs.void_residue(final[row["j"]], _points(row["other_keys"]))
        assert residue.hex() == row["Z"]
        positions.append(VoidPosition(row["j"], _b(row["P"]), residue))
    cards = _points(case["cards"])
    assert cards == [crypto.card_point(code) for code in case["card_codes"]]
    context, proof = _b(case["context"]), _b(case["proof"])
    proofs.verify_void(context, case["step"], positions, cards, proof)
    n = len(DEAL["codes"])
    secrets = crypto.HandSecrets.derive(_b(DEAL["seats"][case["seat"]]["seed"]), context, n)
    assert proofs.prove_void(context, case["step"], secrets, positions, cards) == proof
    for bad in _mutations(proof, stride=3):
        with pytest.raises(BadProof):
            proofs.verify_void(context, case["step"], positions, cards, bad)


def test_key_check_vector() -> None:
    case = VECTORS["key_check"]
    assert proofs.check_key(_b(case["right_key"]), _b(case["P"]))
    assert not proofs.check_key(_b(case["wrong_key"]), _b(case["P"]))


def test_vectors_are_current() -> None:
    script = VECTORS_DIR / "make_proof_vectors.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
