"""protocol/vectors/weak_keys.json: weak Ed25519 keys and lax signatures are refused wherever a key comes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from p2pspades import crypto
from p2pspades.errors import RemoteError
from p2pspades.net.lobby_seats import check_key
from p2pspades.rules import preset
from p2pspades.table.genesis import make_genesis, read_genesis

VECTORS_DIR = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
VECTORS: dict[str, Any] = json.loads((VECTORS_DIR / "weak_keys.json").read_text(encoding="utf-8"))


def _ids(case: dict[str, Any]) -> str:
    return f"{case['kind']}/{case['name']}/{case['key'][:8]}"


@pytest.mark.parametrize("case", VECTORS["refused_keys"], ids=_ids)
def test_refused_key(case: dict[str, Any]) -> None:
    key = bytes.fromhex(case["key"])
    with pytest.raises(crypto.WeakKey) as info:
        crypto.check_public_key(key)
    assert case["why"] in str(info.value)
    assert info.value.check == "weak-key"
    assert not crypto.is_strong_public_key(key)
    # no signature by such a key verifies, whatever it is
    assert not crypto.verify_signature(key, bytes(64), b"")
    assert not crypto.verify_signature(key, bytes.fromhex(case["key"]) + bytes(32), b"p2pspades")


@pytest.mark.parametrize("case", VECTORS["refused_signatures"], ids=lambda c: c["name"][:40])
def test_refused_signature(case: dict[str, Any]) -> None:
    key, message, signature = (bytes.fromhex(case[k]) for k in ("key", "message", "signature"))
    assert not crypto.verify_signature(key, signature, message)


def test_accepted() -> None:
    case = VECTORS["accepted"]
    key, message, signature = (bytes.fromhex(case[k]) for k in ("key", "message", "signature"))
    assert crypto.check_public_key(key) == key
    assert crypto.verify_signature(key, signature, message)
    assert not crypto.verify_signature(key, signature, message + b"!")
    flipped = bytes([signature[0] ^ 1]) + signature[1:]
    assert not crypto.verify_signature(key, flipped, message)


def test_honest_keys_are_strong() -> None:
    for i in range(20):
        identity = crypto.Identity.from_seed(bytes([i]) * 32)
        assert crypto.check_public_key(identity.public) == identity.public
        assert crypto.verify_signature(identity.public, identity.sign(b"x" * i), b"x" * i)


def test_not_bytes_is_refused() -> None:
    for value in (None, "ab" * 16, 32, bytearray(32)):
        with pytest.raises(crypto.WeakKey, match="32 bytes"):
            crypto.check_public_key(value)


@pytest.mark.parametrize("case", VECTORS["refused_keys"][:4] + VECTORS["refused_keys"][-3:-1], ids=_ids)
def test_genesis_refuses_weak_key(case: dict[str, Any]) -> None:
    rules = preset("classic")
    host = crypto.Identity.from_seed(bytes(32))
    others = [crypto.Identity.from_seed(bytes([i]) * 32).public for i in (1, 2)]
    seats = [("host", host.public), ("weak", bytes.fromhex(case["key"])), ("b", others[0]), ("c", others[1])]
    with pytest.raises(RemoteError, match=r"seat 1: .*refused"):
        make_genesis(bytes(16), rules, seats, host)
    fourth = crypto.Identity.generate().public
    strong = [("host", host.public), ("a", others[0]), ("b", others[1]), ("c", fourth)]
    assert read_genesis(make_genesis(bytes(16), rules, strong, host))[1].keys[1] == others[0]


@pytest.mark.parametrize("case", VECTORS["refused_keys"], ids=_ids)
def test_lobby_refuses_weak_key(case: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"refused|32 bytes"):
        check_key(bytes.fromhex(case["key"]))


def test_vectors_are_current() -> None:
    script = VECTORS_DIR / "make_weak_key_vectors.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
