"""protocol/vectors/encoding.json: every known answer checked against the code; the file is up to date."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import struct
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from p2pspades.crypto import Identity, verify_signature
from p2pspades.log import (
    MAGIC,
    MAX_ENVELOPE,
    MAX_PAYLOAD,
    ZERO_HASH,
    DecodeError,
    LogWriter,
    check_signature,
    decode,
    encode,
    entry_hash,
    open_envelope,
    parse_log,
    seal,
    validate_header,
)

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
DOC: dict[str, Any] = json.loads((VECTORS / "encoding.json").read_text(encoding="utf-8"))


def generator() -> ModuleType:
    path = VECTORS / "make_encoding_vectors.py"
    spec = importlib.util.spec_from_file_location("make_encoding_vectors", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def value(v: Any) -> Any:
    """The file's notation ({"bin": hex} for byte strings) back to a payload value."""
    if isinstance(v, dict):
        if set(v) == {"bin"}:
            return bytes.fromhex(v["bin"])
        return {key: value(item) for key, item in v.items()}
    if isinstance(v, list):
        return [value(item) for item in v]
    return v


def test_the_file_is_what_the_generator_writes() -> None:
    assert generator().render() == (VECTORS / "encoding.json").read_text(encoding="utf-8")


def test_the_limits_are_the_code_s() -> None:
    assert DOC["limits"] == {"max_payload": MAX_PAYLOAD, "max_envelope": MAX_ENVELOPE}


@pytest.mark.parametrize("case", DOC["canonical"], ids=lambda case: case["name"])
def test_canonical_encodings(case: dict[str, Any]) -> None:
    wire = bytes.fromhex(case["encoding"])
    assert encode(value(case["value"])) == wire
    assert decode(wire) == value(case["value"])


@pytest.mark.parametrize("case", DOC["rejected"], ids=lambda case: case["why"])
def test_rejected_encodings(case: dict[str, Any]) -> None:
    with pytest.raises(DecodeError):
        decode(bytes.fromhex(case["encoding"]))


def test_the_sealed_envelope() -> None:
    case = DOC["envelope"]
    identity = Identity.from_seed(bytes.fromhex(case["seed"]))
    assert identity.public.hex() == case["public"]
    payload = value(case["payload"])
    payload_raw = bytes.fromhex(case["payload_encoding"])
    signature = bytes.fromhex(case["signature"])
    raw = bytes.fromhex(case["envelope"])
    assert encode(payload) == payload_raw
    assert verify_signature(identity.public, signature, payload_raw)
    assert seal(payload, identity) == raw
    assert raw == b"\x93\x01\xc4" + bytes([len(payload_raw)]) + payload_raw + b"\xc4\x40" + signature
    env = open_envelope(raw)
    check_signature(env, identity.public)
    assert env.payload == payload
    assert env.hash.hex() == entry_hash(raw).hex() == hashlib.sha256(raw).hexdigest() == case["entry_hash"]


def test_the_chained_log(tmp_path: Path) -> None:
    case = DOC["log"]
    publics = [bytes.fromhex(key) for key in case["publics"]]
    assert [Identity.from_seed(bytes.fromhex(seed)).public for seed in case["seeds"]] == publics
    data = bytes.fromhex(case["file"])
    entries = [bytes.fromhex(raw) for raw in case["entries"]]
    assert data == MAGIC + b"".join(struct.pack(">I", len(raw)) + raw for raw in entries)
    read = parse_log(data)
    assert read.torn is None and read.frames == entries
    prev = ZERO_HASH
    for n, (raw, digest) in enumerate(zip(entries, case["entry_hashes"], strict=True)):
        env = open_envelope(raw)
        head = validate_header(env.payload)
        check_signature(env, publics[head.seat])
        assert (head.seq, head.prev, head.hand) == (n, prev, 0)
        assert env.hash.hex() == digest
        prev = env.hash
    path = tmp_path / "vector.p2plog"
    with LogWriter(path) as writer:
        for raw in entries:
            writer.append(raw)
    assert path.read_bytes() == data
