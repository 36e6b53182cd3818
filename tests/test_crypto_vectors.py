"""protocol/vectors/crypto.json: every known answer is checked against the code."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import nacl.bindings as sodium
import pytest

from p2pspades import crypto
from p2pspades.rules import FULL_DECK
from p2pspades.rules.chance import ByteStream

VECTORS_DIR = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
VECTORS: dict[str, Any] = json.loads((VECTORS_DIR / "crypto.json").read_text(encoding="utf-8"))


class _Card:
    def __init__(self, code: str) -> None:
        self.code = code


def _b(text: str) -> bytes:
    return bytes.fromhex(text)


def test_format() -> None:
    assert VECTORS["format"] == "p2pspades-crypto-vectors/1"


@pytest.mark.parametrize("case", VECTORS["H"], ids=lambda case: f"{case['domain']}/{len(case['parts'])}")
def test_h(case: dict[str, Any]) -> None:
    parts = [_b(part) for part in case["parts"]]
    assert crypto.H(case["domain"], *parts).hex() == case["output"]
    # and straight from the definition, without the library
    framed = b"".join(len(x).to_bytes(4, "big") + x for x in [case["domain"].encode(), *parts])
    assert hashlib.sha512(framed).hexdigest() == case["output"]


def test_card_points() -> None:
    vector = VECTORS["card_points"]
    deck = vector["deck"]
    assert len(deck) == len(set(deck)) == 54
    assert set(vector["points"]) == set(deck)
    for code in deck:
        expected = vector["points"][code]
        assert crypto.card_point(code).hex() == expected
        uniform = crypto.H("p2pspades/v1/card", code.encode("ascii"))[:32]
        assert sodium.crypto_core_ed25519_from_uniform(uniform).hex() == expected


def test_the_vector_deck_is_the_rules_canonical_order() -> None:
    assert [card.code for card in FULL_DECK] == VECTORS["card_points"]["deck"]


def test_hand_secrets() -> None:
    v = VECTORS["hand_secrets"]
    seed = _b(v["seed"])
    context = crypto.hand_context(_b(v["game_id"]), v["hand"], v["seat"])
    assert context.hex() == v["context"]
    assert crypto.commitment(context, seed).hex() == v["commitment"]
    sec = crypto.HandSecrets.derive(seed, context, v["n"])
    assert sec.shuffle_scalar.hex() == v["shuffle_scalar"]
    assert sec.inverse_shuffle_scalar.hex() == v["inverse_shuffle_scalar"]
    assert list(sec.permutation) == v["permutation"]
    assert [key.hex() for key in sec.lock_keys[:3]] == v["lock_keys_first_3"]
    assert sec.lock_keys[51].hex() == v["lock_key_51"]
    # the permutation straight from the definition
    stream = ByteStream(crypto.H("p2pspades/v1/permutation", context, seed))
    assert list(stream.permutation(v["n"])) == v["permutation"]


def test_deal() -> None:
    v = VECTORS["deal"]
    game_id = _b(v["game_id"])
    deck = [_Card(code) for code in v["deck"]]
    n = len(deck)
    points = crypto.card_points(deck)
    by_seat = {entry["seat"]: entry for entry in v["seats"]}
    secrets = {}
    for seat, entry in by_seat.items():
        seed = _b(entry["seed"])
        context = crypto.hand_context(game_id, v["hand"], seat)
        assert context.hex() == entry["context"]
        assert crypto.commitment(context, seed).hex() == entry["commitment"]
        secrets[seat] = crypto.HandSecrets.derive(seed, context, n)
    for seat in v["shuffle_order"]:
        points = crypto.shuffle(points, secrets[seat])
        assert [p.hex() for p in points] == by_seat[seat]["shuffled"]
    for seat in v["lock_order"]:
        points = crypto.lock(points, secrets[seat])
        assert [p.hex() for p in points] == by_seat[seat]["locked"]
    assert [p.hex() for p in points] == v["final"]
    order = crypto.deal_order(n, [secrets[seat] for seat in v["shuffle_order"]])
    assert [v["deck"][i] for i in order] == v["cards"]
    keys = [[secrets[seat].lock_keys[j] for seat in by_seat] for j in range(n)]
    opened = crypto.open_cards([_b(p) for p in v["final"]], keys, crypto.card_table(deck))
    assert [card.code for card in opened if card is not None] == v["cards"]


def test_draw() -> None:
    v = VECTORS["draw"]
    game_id = _b(v["game_id"])
    shares = [_b(share) for share in v["shares"]]
    for seat, share in enumerate(shares):
        assert crypto.draw_commitment(game_id, seat, share).hex() == v["commitments"][seat]
    assert crypto.draw_randomness(game_id, shares).hex() == v["randomness"]


def test_identity() -> None:
    v = VECTORS["identity"]
    identity = crypto.Identity.from_seed(_b(v["private_seed"]))
    public = _b(v["public"])
    assert identity.public == public
    assert crypto.fingerprint(public) == v["fingerprint"]
    for case in v["signatures"]:
        message, signature = _b(case["message"]), _b(case["signature"])
        assert identity.sign(message) == signature
        assert crypto.verify_signature(public, signature, message)


def test_rfc8032_test_1_is_the_identity_vector() -> None:
    v = VECTORS["identity"]
    assert v["public"] == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
    assert v["signatures"][0]["signature"] == (
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    )


def test_the_generator_reproduces_the_file() -> None:
    result = subprocess.run(
        [sys.executable, str(VECTORS_DIR / "make_crypto_vectors.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr


# --- the card-point map of protocol/crypto.md §3, written out without libsodium ---

_P = 2**255 - 19
_A = 486662
_D = -121665 * pow(121666, -1, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _inv(x: int) -> int:
    return pow(x, _P - 2, _P)  # 0 for 0, as the text says


def _decode(encoded: int) -> tuple[int, int]:
    y, sign = encoded & ((1 << 255) - 1), encoded >> 255
    xx = (y * y - 1) * _inv(_D * y * y + 1) % _P
    x = pow(xx, (_P + 3) // 8, _P)
    if (x * x - xx) % _P:
        x = x * _SQRT_M1 % _P
    assert (x * x - xx) % _P == 0
    return (x if x & 1 == sign else -x % _P), y


def _double(point: tuple[int, int]) -> tuple[int, int]:
    x, y = point
    t = _D * x * x * y * y % _P
    return 2 * x * y * _inv(1 + t) % _P, (y * y + x * x) * _inv(1 - t) % _P


def _from_uniform(r: bytes) -> bytes:
    sign = r[31] >> 7
    rho = (int.from_bytes(r, "little") & ((1 << 255) - 1)) % _P
    u = -_A * _inv(1 + 2 * rho * rho) % _P
    e = (u**3 + _A * u * u + u) % _P
    if pow(e, (_P - 1) // 2, _P) == _P - 1:
        u = (-u - _A) % _P
    y = (u - 1) * _inv(u + 1) % _P
    point = _decode(y | sign << 255)
    for _ in range(3):
        point = _double(point)
    x, y = point
    return (y | (x & 1) << 255).to_bytes(32, "little")


def test_the_card_points_follow_the_written_elligator_map() -> None:
    for code, expected in VECTORS["card_points"]["points"].items():
        r = crypto.H("p2pspades/v1/card", code.encode("ascii"))[:32]
        assert _from_uniform(r).hex() == expected


def test_the_written_elligator_map_matches_libsodium_on_edge_inputs() -> None:
    for r in (bytes(32), b"\xff" * 32, bytes(31) + b"\x80", (_P - 1).to_bytes(32, "little"), b"\x01" * 32):
        assert _from_uniform(r) == sodium.crypto_core_ed25519_from_uniform(r)
