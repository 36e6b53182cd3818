"""The nil card pass (crypto.md §20): pass keys, the shared point, sealing and opening a lock key, against
protocol/vectors/pass.json and from the definitions, with real libsodium."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import nacl.bindings as sodium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades import crypto
from p2pspades.crypto import passing, proofs

VECTORS_DIR = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
VECTORS: dict[str, Any] = json.loads((VECTORS_DIR / "pass.json").read_text(encoding="utf-8"))
PROOF_VECTORS: dict[str, Any] = json.loads((VECTORS_DIR / "proofs.json").read_text(encoding="utf-8"))


def _b(text: str) -> bytes:
    return bytes.fromhex(text)


def _seat(seat: int) -> dict[str, Any]:
    found: dict[str, Any] = VECTORS["seats"][seat]
    return found


class _Code:
    def __init__(self, code: str) -> None:
        self.code = code


def test_pass_keys_from_the_definition() -> None:
    assert VECTORS["format"] == "p2pspades-pass-vectors/1"
    for seat in VECTORS["seats"]:
        seed, context = _b(seat["seed"]), _b(seat["context"])
        assert context == crypto.hand_context(_b(VECTORS["game_id"]), VECTORS["hand"], seat["seat"])
        e = int.from_bytes(crypto.H("p2pspades/v2/pass/key", context, seed), "little") % crypto.L
        assert e.to_bytes(32, "little").hex() == seat["e"] == passing.pass_key(seed, context).hex()
        assert sodium.crypto_scalarmult_ed25519_base_noclamp(_b(seat["e"])).hex() == seat["E"]
        assert passing.pass_public(seed, context).hex() == seat["E"]


@pytest.mark.parametrize("index", range(2))
def test_pass_vectors(index: int) -> None:
    case = VECTORS["passes"][index]
    sender, recipient = _seat(case["from"]), _seat(case["to"])
    shared = _b(case["X"])
    assert passing.shared_point(_b(sender["e"]), _b(recipient["E"])) == shared
    assert passing.shared_point(_b(recipient["e"]), _b(sender["E"])) == shared  # both partners agree
    context = _b(sender["context"])
    table = crypto.card_table([_Code(code) for code in VECTORS["codes"]])
    for row in case["positions"]:
        j = row["j"]
        digest = crypto.H("p2pspades/v2/pass/pad", context, bytes([case["to"]]), j.to_bytes(2, "big"), shared)
        pad = int.from_bytes(digest, "little") % crypto.L
        assert pad.to_bytes(32, "little").hex() == row["pad"]
        key = _b(row["key"])
        sealed = (int.from_bytes(key, "little") + pad) % crypto.L
        assert sealed.to_bytes(32, "little").hex() == row["sealed"]
        assert passing.seal_key(key, shared, context, case["to"], j).hex() == row["sealed"]
        opened = passing.open_sealed(_b(row["sealed"]), shared, context, case["to"], j)
        assert opened == key
        assert proofs.check_key(opened, _b(row["P"]))
        # the recipient opens the card with the passed key and the other seats' deal keys
        card = crypto.open_card(_b(row["final"]), [opened, *map(_b, row["other_keys"])], table)
        assert card is not None and card.code == row["card"]
        # the same deal as proofs.json's deal_8
        assert row["final"] == PROOF_VECTORS["deal_8"]["final"][j]
        assert row["card"] == PROOF_VECTORS["deal_8"]["cards"][j]


def test_wrong_seal_vector() -> None:
    case = VECTORS["wrong_seal"]
    shared = _b(VECTORS["passes"][0]["X"])
    opened = passing.open_sealed(_b(case["sealed"]), shared, _b(_seat(case["from"])["context"]), case["to"],
                                 case["j"])
    assert opened.hex() == case["opens_to"]
    assert not proofs.check_key(opened, _b(case["P"]))


def test_another_recipient_or_position_opens_nothing() -> None:
    """The pad binds the sender, the recipient and the position: the key opens only there."""
    case = VECTORS["passes"][0]
    row = case["positions"][0]
    shared, context = _b(case["X"]), _b(_seat(0)["context"])
    assert passing.open_sealed(_b(row["sealed"]), shared, context, 3, row["j"]) != _b(row["key"])
    assert passing.open_sealed(_b(row["sealed"]), shared, context, 2, row["j"] + 1) != _b(row["key"])
    other_context = _b(_seat(1)["context"])
    assert passing.open_sealed(_b(row["sealed"]), shared, other_context, 2, row["j"]) != _b(row["key"])
    # an opponent's shared point with either partner is another point
    assert passing.shared_point(_b(_seat(1)["e"]), _b(_seat(0)["E"])) != shared


@settings(max_examples=50, deadline=None)
@given(st.integers(1, crypto.L - 1), st.binary(min_size=32, max_size=32), st.integers(0, 53),
       st.integers(0, 4))
def test_seal_then_open_is_the_key(k: int, seed: bytes, j: int, recipient: int) -> None:
    key = k.to_bytes(32, "little")
    context = crypto.hand_context(bytes(16), 1, 0)
    shared = passing.pass_public(seed, context)  # any valid point
    sealed = passing.seal_key(key, shared, context, recipient, j)
    assert passing.check_sealed(sealed) == sealed
    assert passing.open_sealed(sealed, shared, context, recipient, j) == key
    assert passing.seal_keys([key], [j], passing.pass_key(seed, context), shared, context, recipient) == [
        passing.seal_key(key, passing.shared_point(passing.pass_key(seed, context), shared), context,
                         recipient, j)
    ]


def test_hostile_values_are_refused() -> None:
    context = _b(_seat(0)["context"])
    shared = _b(VECTORS["passes"][0]["X"])
    with pytest.raises(crypto.BadScalar):
        passing.open_sealed(crypto.L.to_bytes(32, "little"), shared, context, 2, 0)  # not below L
    with pytest.raises(crypto.BadScalar):
        passing.open_sealed(b"\x01" * 31, shared, context, 2, 0)
    with pytest.raises(crypto.BadPoint):
        passing.shared_point(_b(_seat(0)["e"]), crypto.IDENTITY)
    with pytest.raises(crypto.BadPoint):
        passing.shared_point(_b(_seat(0)["e"]), b"\xff" * 32)
    with pytest.raises(crypto.BadSeed):
        passing.pass_key(b"short", context)
    with pytest.raises(crypto.CryptoUsageError):
        passing.pass_pad(shared, context, 256, 0)
    with pytest.raises(crypto.CryptoUsageError):
        passing.seal_keys([b"\x01" * 32], [0, 1], _b(_seat(0)["e"]), _b(_seat(2)["E"]), context, 2)


def test_vectors_are_current() -> None:
    script = VECTORS_DIR / "make_pass_vectors.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
