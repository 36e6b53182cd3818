"""The known-answer game of the nil card pass (protocol/vectors/game_pass.p2plog): it verifies, matches its
record, carries the pass keys and the passes, and a passed card is played by its new holder with the key of
the seat that was dealt it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from p2pspades import log
from p2pspades.audit import Status, hand_record, verify_file
from p2pspades.crypto import proofs

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
GAME = VECTORS / "game_pass.p2plog"


def test_the_pass_game_verifies_and_matches_its_record() -> None:
    expected = json.loads((VECTORS / "game_pass.json").read_text())
    verdict = verify_file(GAME)
    assert verdict.status is Status.VALID, verdict.summary
    assert verdict.table is not None
    entries = verdict.table.entries
    assert [log.entry_hash(e).hex() for e in entries] == expected["entry_hashes"]
    assert json.loads(json.dumps(hand_record(verdict))) == expected["record"]
    payloads = [log.open_envelope(e).payload for e in entries]
    assert payloads[0]["v"] == 2 and payloads[0]["rules"]["nil_pass"] == 2
    assert all(len(p["E"]) == 32 for p in payloads if p["t"] == "commit")
    passes = [p for p in payloads if p["t"] == "pass"]
    assert len(passes) >= 2 and all(len(p["j"]) == len(p["k"]) == 2 for p in passes)
    # a position passed by seat a to seat b is played by b, with a's key (checked against a's P_j)
    first_hand = [p for p in payloads if p["h"] == 1]
    locks = {p["s"]: p["P"] for p in first_hand if p["t"] == "lock"}
    moved = {j: (p["s"], (p["s"] + 2) % 4) for p in first_hand if p["t"] == "pass" for j in p["j"]}
    plays = [p for p in first_hand if p["t"] == "play" and p["j"] in moved]
    assert plays, "the vector plays a passed card"
    for play in plays:
        dealt, holder = moved[play["j"]]
        assert play["s"] == holder
        assert proofs.check_key(play["k"], locks[dealt][play["j"]])


@pytest.mark.slow
def test_the_pass_game_is_rebuilt_byte_for_byte() -> None:
    script = VECTORS / "make_pass_game_vector.py"
    result = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "game_pass.p2plog: up to date" in result.stderr
