"""The known-answer game of protocol version 2 (protocol/vectors/game_v2.p2plog) beside the version 1 one."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from p2pspades import log
from p2pspades.audit import Status, hand_record, verify_file, verify_frames
from p2pspades.crypto import Identity

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
GAME_V2 = VECTORS / "game_v2.p2plog"


@pytest.mark.slow
def test_both_known_answer_games_are_rebuilt_byte_for_byte() -> None:
    script = VECTORS / "make_game_vector.py"
    result = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "game.p2plog: up to date" in result.stderr and "game_v2.p2plog: up to date" in result.stderr


def test_the_version_2_game_verifies_matches_its_record_and_carries_every_proof() -> None:
    expected = json.loads((VECTORS / "game_v2.json").read_text())
    verdict = verify_file(GAME_V2)
    assert verdict.status is Status.VALID, verdict.summary
    assert verdict.table is not None and verdict.table.version == 2
    entries = verdict.table.entries
    assert [log.entry_hash(e).hex() for e in entries] == expected["entry_hashes"]
    assert json.loads(json.dumps(hand_record(verdict))) == expected["record"]
    payloads = [log.open_envelope(e).payload for e in entries]
    assert payloads[0]["v"] == 2
    assert all(len(p["S"]) == 32 for p in payloads if p["t"] == "commit")
    assert all(len(p["x"]) == 32 * (3 * 52 + 6) for p in payloads if p["t"] == "shuffle")
    assert all(len(p["P"]) == 52 and len(p["x"]) == 32 * 54 for p in payloads if p["t"] == "lock")
    assert any(p["x"] for p in payloads if p["t"] == "play"), "the vector holds a void claim"
    version_1 = verify_file(VECTORS / "game.p2plog")
    assert version_1.status is Status.VALID and version_1.table is not None and version_1.table.version == 1


def test_any_changed_proof_byte_in_the_version_2_game_is_a_violation_at_its_entry() -> None:
    """Alter one byte of each kind of proof and sign the entry again with its seat's real key: the verifier
    refuses that entry and names its seat (the rest of the chain then no longer links, so it stops there)."""
    table = verify_file(GAME_V2).table
    assert table is not None
    entries = table.entries
    seed = json.loads((VECTORS / "game_v2.json").read_text())["seed"].encode()
    ids = [Identity.from_seed(hashlib.sha256(seed + bytes([i])).digest()) for i in range(4)]
    for kind, field in (("shuffle", "x"), ("lock", "x"), ("lock", "P"), ("play", "x")):
        n = next(
            i for i, e in enumerate(entries)
            if (p := log.open_envelope(e).payload)["t"] == kind and p[field]
        )
        payload = dict(log.open_envelope(entries[n]).payload)
        if field == "P":
            payload["P"] = [payload["P"][1], payload["P"][0], *payload["P"][2:]]
        else:
            blob = bytearray(payload[field])
            blob[len(blob) // 2] ^= 0x40
            payload[field] = bytes(blob)
        forged = log.seal(payload, ids[payload["s"]])
        verdict = verify_frames([*entries[:n], forged])
        assert verdict.status is Status.VIOLATION and verdict.violation is not None, (kind, field)
        assert (verdict.violation.seq, verdict.violation.seat) == (n, payload["s"])
        assert verdict.violation.check in (kind, "void"), verdict.violation


def test_p2pspades_verify_accepts_both_known_answer_games() -> None:
    for name in ("game.p2plog", "game_v2.p2plog"):
        result = subprocess.run(
            [sys.executable, "-m", "p2pspades", "verify", str(VECTORS / name)],
            capture_output=True, text=True, timeout=300, check=False,
        )
        assert result.returncode == 0, (name, result.stdout, result.stderr)
