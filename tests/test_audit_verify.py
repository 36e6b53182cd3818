"""The offline verifier and the exports, on real log files and through the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.logs import write_log

from p2pspades import crypto, log
from p2pspades.audit import Status, hand_record, verify_file, verify_frames
from p2pspades.bots import RandomBot
from p2pspades.describe.record import text_record
from p2pspades.rules import preset
from p2pspades.table.harness import play_in_memory

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
GAME_LOG = VECTORS / "game.p2plog"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2pspades", *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.slow
def test_the_known_answer_game_is_rebuilt_byte_for_byte() -> None:
    script = VECTORS / "make_game_vector.py"
    result = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


def test_the_known_answer_game_verifies_and_matches_its_record() -> None:
    expected = json.loads((VECTORS / "game.json").read_text())
    verdict = verify_file(GAME_LOG)
    assert verdict.status is Status.VALID, verdict.summary
    assert verdict.table is not None
    assert [log.entry_hash(e).hex() for e in verdict.table.entries] == expected["entry_hashes"]
    assert json.loads(json.dumps(hand_record(verdict))) == expected["record"]


def test_hand_record_has_the_documented_shape() -> None:
    record = hand_record(verify_file(GAME_LOG))
    assert record["format"] == "p2pspades-hand-record/1"
    assert record["rules"]["preset"] == "classic"
    assert [s["seat"] for s in record["seats"]] == [0, 1, 2, 3]
    assert record["sides"] == [[0, 2], [1, 3]]
    assert record["result"]["status"] == "complete"
    hand = record["hands"][0]
    assert sorted(len(cards) for cards in hand["dealt"].values()) == [13, 13, 13, 13]
    assert len(hand["tricks"]) == 13 and sum(hand["tricks_won"]) == 13
    assert len(hand["bids"]) == 4
    for trick in hand["tricks"]:
        assert trick["plays"][0]["seat"] == trick["leader"] and len(trick["plays"]) == 4
        assert trick["winner"] in {p["seat"] for p in trick["plays"]}
    totals = [t["score"] for t in record["hands"][-1]["totals"]]
    assert totals == [sum(h["score"][side]["points"] for h in record["hands"]) for side in range(2)]


def test_text_record_reads_like_a_hand_record() -> None:
    text = text_record(verify_file(GAME_LOG))
    for tag in ("[Event ", "[GameId ", "[Seat0 ", "[Deal ", "[Bids ", "[Score ", "[Totals ", "[Result "):
        assert tag in text
    assert " 1. " in text and "13. " in text


def test_an_incomplete_log_is_valid_so_far(tmp_path: Path) -> None:
    entries = list(log.read_log(GAME_LOG).frames)
    cut = write_log(tmp_path / "cut.p2plog", entries[:40])
    verdict = verify_file(cut)
    assert verdict.status is Status.INCOMPLETE
    assert "stops after entry 39" in verdict.summary and "waits for seat" in verdict.summary


def test_a_torn_last_frame_is_reported_not_fatal(tmp_path: Path) -> None:
    data = GAME_LOG.read_bytes()
    entries = list(log.read_log(GAME_LOG).frames)
    torn = tmp_path / "torn.p2plog"
    torn.write_bytes(data[: len(data) - len(entries[-1]) // 2])
    verdict = verify_file(torn)
    assert verdict.status is Status.INCOMPLETE and verdict.torn is not None
    assert "cut short" in verdict.summary


@pytest.mark.slow
def test_any_single_bit_flip_gives_violation_or_unreadable() -> None:
    data = GAME_LOG.read_bytes()
    rng = random.Random(2026)
    bits = set(range(0, 8 * 200))  # the magic, the genesis' frame header and its first bytes, every bit
    bits |= {rng.randrange(8 * len(data)) for _ in range(500)}
    bits |= {8 * (len(data) - 1) + b for b in range(8)}  # the very last byte
    for bit in sorted(bits):
        flipped = bytearray(data)
        flipped[bit // 8] ^= 1 << (bit % 8)
        try:
            frames = log.parse_log(bytes(flipped)).frames
            read = log.parse_log(bytes(flipped))
        except log.LogError:
            continue  # unreadable: exit 2
        verdict = verify_frames(frames)
        if read.torn is not None and verdict.status in (Status.VALID, Status.INCOMPLETE):
            pytest.fail(f"bit {bit}: a flip passed for a torn write")
        assert verdict.status in (Status.VIOLATION, Status.UNREADABLE), f"bit {bit}: {verdict.summary}"


@pytest.mark.slow
def test_cli_verify_exit_codes(tmp_path: Path) -> None:
    ok = run_cli("verify", str(GAME_LOG))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "valid and complete" in ok.stdout and "winner:" in ok.stdout
    as_json = run_cli("verify", str(GAME_LOG), "--json")
    assert as_json.returncode == 0 and json.loads(as_json.stdout)["result"]["status"] == "complete"
    assert run_cli("verify", str(tmp_path / "missing.p2plog")).returncode == 2
    (tmp_path / "junk").write_bytes(b"this is not a log at all")
    junk = run_cli("verify", str(tmp_path / "junk"))
    assert junk.returncode == 2 and "not a p2pspades log" in junk.stdout
    assert run_cli("verify", str(tmp_path)).returncode == 2
    assert run_cli("verify").returncode == 2
    flipped = bytearray(GAME_LOG.read_bytes())
    flipped[len(flipped) // 2] ^= 0x10
    (tmp_path / "tampered.p2plog").write_bytes(bytes(flipped))
    assert run_cli("verify", str(tmp_path / "tampered.p2plog")).returncode in (1, 2)


@pytest.mark.slow
def test_cli_verify_names_the_cheater_of_a_halted_game(tmp_path: Path) -> None:
    rules = preset("classic", target=100, losing_threshold=-100)
    wire = play_in_memory(rules, [RandomBot(i) for i in range(4)], seed=b"abandoned")
    entries = wire.tables[0].entries
    # a seat that stopped answering: the log ends, and the others signed nothing more
    cut = write_log(tmp_path / "stopped.p2plog", entries[:70])
    out = run_cli("verify", str(cut))
    assert out.returncode == 3 and "waits for seat" in out.stdout
    # a forged entry inserted in the chain is a violation
    forged = bytearray(entries[50])
    forged[-1] ^= 1
    bad = write_log(tmp_path / "forged.p2plog", [*entries[:50], bytes(forged), *entries[51:]])
    out = run_cli("verify", str(bad))
    assert out.returncode == 1 and "signature" in out.stdout


@pytest.mark.slow
def test_cli_export_json_and_text(tmp_path: Path) -> None:
    out = run_cli("export", str(GAME_LOG), "--format", "json")
    assert out.returncode == 0
    assert json.loads(out.stdout) == json.loads((VECTORS / "game.json").read_text())["record"]
    target = tmp_path / "game.txt"
    out = run_cli("export", str(GAME_LOG), "--format", "text", "-o", str(target))
    assert out.returncode == 0 and "[Deal " in target.read_text()
    assert run_cli("export", str(tmp_path / "missing"), "--format", "json").returncode == 2


def genesis_with_rules(rules: dict[str, object]) -> bytes:
    """A genesis signed by seat 0 whose `rules` map is exactly `rules` (a writer other than this one)."""
    host, guest = crypto.Identity.from_seed(bytes([1]) * 32), crypto.Identity.from_seed(bytes([2]) * 32)
    seats = [{"n": "A", "k": host.public}, {"n": "B", "k": guest.public}]
    payload = {"g": bytes(range(16)), "n": 0, "p": bytes(32), "s": 0, "h": 0, "t": "genesis", "v": 2,
               "name": "t", "rules": rules, "seats": seats}
    return log.seal(payload, host)


def test_the_record_carries_the_rules_map_exactly_as_the_genesis_does() -> None:
    """Defaults written out (a reader accepts them) and `removed` in another order and spelling stay as
    written: the record is what was signed, not this implementation's own writing of the same rule set."""
    written = {**preset("two").to_dict(), "jokers": True, "removed": ["2c", "2D"], "on_fault": "forfeit",
               "void_proofs": True}
    assert written != preset("two").replace(jokers=True, removed=("2C", "2D")).to_dict()
    verdict = verify_frames([genesis_with_rules(written)])
    assert verdict.status is Status.INCOMPLETE
    rules = hand_record(verdict)["rules"]
    assert list(rules.items()) == sorted(written.items())
    assert json.loads(json.dumps(rules)) == written


def test_a_refused_genesis_is_a_violation_by_seat_0_in_verify_and_in_the_record(tmp_path: Path) -> None:
    bad = genesis_with_rules({**preset("two").to_dict(), "players": 3})  # two seats for three players
    path = write_log(tmp_path / "bad-genesis.p2plog", [bad])
    verdict = verify_file(path)
    assert verdict.status is Status.VIOLATION and verdict.violation is not None
    v = verdict.violation
    assert (v.seat, v.seq, v.check, v.evidence) == (0, 0, "genesis", (bad,))
    record = hand_record(verdict)
    assert record["result"]["status"] == "violation"
    assert record["result"]["violation"]["seat"] == 0 and record["result"]["violation"]["check"] == "genesis"
    assert run_cli("verify", str(path)).returncode == 1
    exported = run_cli("export", str(path), "--format", "json")
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["result"] == json.loads(json.dumps(record["result"]))
    assert text_record(verdict).startswith('[Result "violation"]')


@pytest.mark.slow
def test_a_fault_that_ends_nothing_and_a_frame_nobody_signed_each_have_a_violation_object() -> None:
    """A bid out of turn is refused and named, and the game goes on: `verify` exits 1 and the record's
    `violation` names the seat and the check, `ends_game` false. A frame whose signature fails names no
    seat: its `violation` has `seat` null, the check, and its position in the log (`frame`)."""
    rules = preset("classic", target=10, losing_threshold=-10)
    wire = play_in_memory(rules, [RandomBot(i) for i in range(4)], seed=b"objects", version=1)
    chain = wire.tables[0].entries
    n = next(i for i, raw in enumerate(chain) if log.open_envelope(raw).payload["t"] == "bid")
    bidder = log.open_envelope(chain[n]).payload["s"]
    other = (bidder + 1) % 4
    identity = wire.tables[other].identity
    assert identity is not None
    out_of_turn = log.seal({**log.open_envelope(chain[n]).payload, "s": other, "b": 1}, identity)
    verdict = verify_frames([*chain[:n], out_of_turn, *chain[n:]])
    named = hand_record(verdict)["result"]["violation"]
    assert verdict.status is Status.VIOLATION and named["seat"] == other and named["check"] == "turn"
    assert named["ends_game"] is False and named["evidence"] == [out_of_turn.hex()]
    forged = chain[n][:-1] + bytes([chain[n][-1] ^ 1])
    verdict = verify_frames([*chain[:n], forged])
    nobody = hand_record(verdict)["result"]["violation"]
    assert nobody["seat"] is None and nobody["check"] == "signature" and nobody["frame"] == n, nobody
