"""A dispute settled from several players' logs of one game: real games, real signatures, real files."""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import claims
from helpers.logs import write_log

from p2pspades import crypto, log
from p2pspades.audit import Status
from p2pspades.audit.dispute import Ruling, dispute_record, settle
from p2pspades.bots import RandomBot
from p2pspades.describe.dispute import because, dispute_lines, problem
from p2pspades.exits import ExitCode
from p2pspades.rules import preset
from p2pspades.table import Stage, Table
from p2pspades.table.harness import play_in_memory

GAME_LOG = Path(__file__).resolve().parent.parent / "protocol" / "vectors" / "game.p2plog"
#: the first lead goes to the holder of the lowest club, a step "any seat" may take
RULES = preset("classic", target=100, losing_threshold=-100, first_leader="low_club")


@functools.cache
def game() -> tuple[list[bytes], list[crypto.Identity]]:
    """A whole honest game (protocol version 1, for speed) and its seats' identities."""
    wire = play_in_memory(RULES, [RandomBot(i) for i in range(4)], seed=b"dispute", version=1)
    assert wire.tables[0].status == "complete"
    ids = [t.identity for t in wire.tables]
    assert all(i is not None for i in ids)
    return list(wire.tables[0].entries), [i for i in ids if i is not None]


def first(kind: str) -> int:
    entries, _ = game()
    return next(n for n, e in enumerate(entries) if log.open_envelope(e).payload["t"] == kind)


def signed(seat: int, n: int, **fields: Any) -> bytes:
    """An entry for slot `n`, chained to entry n - 1 and signed by `seat`'s own key."""
    entries, ids = game()
    before = log.open_envelope(entries[n - 1]).payload
    header = {"g": before["g"], "n": n, "p": log.entry_hash(entries[n - 1]), "s": seat, "h": before["h"]}
    if n < len(entries):
        header["h"] = log.open_envelope(entries[n]).payload["h"]
    return log.seal({**header, **fields}, ids[seat])


def logs(tmp_path: Path, **chains: list[bytes]) -> list[str]:
    return [str(write_log(tmp_path / f"{name}.p2plog", chain)) for name, chain in chains.items()]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2pspades", *args], capture_output=True, text=True, timeout=300, check=False
    )


def test_identical_logs_are_one_game_with_no_fork(tmp_path: Path) -> None:
    entries, _ = game()
    d = settle(logs(tmp_path, ann=entries, ben=entries))
    assert d.one_game and d.fork is None and d.ruling is Ruling.NO_FORK and not d.behind
    assert d.agreed == len(entries)
    assert d.verdict is not None and d.verdict.status is Status.VALID
    assert d.exit_code == ExitCode.OK
    record = dispute_record(d)
    assert record["agree_to"] == len(entries) - 1 and record["fork"] is None
    assert record["result"]["status"] == "complete" and record["exit"] == 0


def test_a_log_that_stops_early_is_behind_not_forked(tmp_path: Path) -> None:
    entries, _ = game()
    d = settle(logs(tmp_path, cut=entries[:40], full=entries))
    assert d.logs[0].verdict.status is Status.INCOMPLETE  # alone, the short log proves no result
    assert d.fork is None and d.behind == [0] and d.longest == 1
    assert d.verdict is not None and d.verdict.status is Status.VALID and d.exit_code == ExitCode.OK
    text = "\n".join(dispute_lines(d))
    assert "behind: " in text and "stops after entry 39" in text and "no fork" in text
    assert "upheld: " in text and "full.p2plog, the longest log" in text


def test_logs_of_different_games_are_refused_as_such(tmp_path: Path) -> None:
    entries, _ = game()
    ours = logs(tmp_path, ours=entries)
    d = settle([*ours, str(GAME_LOG)])
    assert not d.one_game and d.exit_code == ExitCode.FAILED
    theirs = log.open_envelope(log.read_log(GAME_LOG).frames[0]).payload["g"].hex()
    said = problem(d)
    assert theirs in said and log.open_envelope(entries[0]).payload["g"].hex() in said
    assert dispute_lines(d)[-1].startswith("one game: no: ")
    assert dispute_record(d)["one_game"] is False


def test_equivocation_at_the_fork_names_the_seat_that_signed_both(tmp_path: Path) -> None:
    entries, _ = game()
    n = first("bid")
    bid = log.open_envelope(entries[n]).payload
    other = signed(bid["s"], n, t="bid", b=(bid["b"] + 1) % 14)
    for order in (("honest", "other"), ("other", "honest")):
        chains = {"honest": entries, "other": [*entries[:n], other]}
        d = settle(logs(tmp_path, **{name: chains[name] for name in order}))
        assert d.one_game and d.agreed == n and d.fork is not None and d.fork.seq == n
        assert {b.entry.raw for b in d.fork.branches} == {entries[n], other}
        assert all(b.entry.seat == bid["s"] and b.entry.type == "bid" for b in d.fork.branches)
        assert d.ruling is Ruling.NEITHER
        v = d.verdict.violation if d.verdict is not None else None
        assert v is not None and v.seat == bid["s"] and v.check == "equivocation" and v.seq == n
        assert set(v.evidence) == {entries[n], other}
        assert d.exit_code == ExitCode.VIOLATION
        text = "\n".join(dispute_lines(d))
        assert f"fork at entry {n}: " in text and f"seat {bid['s']}'s bid" in text
        assert "upheld: neither branch" in text and "equivocation" in text


def test_an_entry_out_of_turn_loses_the_fork_to_the_seat_in_turn(tmp_path: Path) -> None:
    entries, _ = game()
    n = first("bid")
    bid = log.open_envelope(entries[n]).payload
    intruder = (bid["s"] + 1) % 4
    out_of_turn = signed(intruder, n, t="bid", b=3)
    d = settle(logs(tmp_path, intruded=[*entries[:n], out_of_turn], honest=entries))
    assert d.logs[0].verdict.status is Status.VIOLATION
    assert d.fork is not None and d.fork.seq == n
    assert d.ruling is Ruling.BRANCH and d.upheld is not None and d.upheld.logs == (1,)
    assert d.upheld.entry.raw == entries[n] and "turn check" in because(d)
    assert d.verdict is not None and d.verdict.status is Status.VALID and d.exit_code == ExitCode.OK
    record = dispute_record(d)
    assert record["upheld"]["ruling"] == "branch" and record["upheld"]["logs"] == [d.logs[1].path]
    assert record["upheld"]["hash"] == log.entry_hash(entries[n]).hex()


def forged_first_lead() -> tuple[int, bytes]:
    """The slot of the first lead (any seat may take it: only the holder of the lowest club can), and a lead
    there by another seat, signed by it, with a key that opens no card."""
    entries, _ = game()
    n = first("play")
    before = Table(entries[0], entries=entries[:n], checked=True)
    assert before.stage is Stage.LEAD and before.deal is not None
    seat = (log.open_envelope(entries[n]).payload["s"] + 1) % 4
    j = before.deal.positions_of(seat)[0]
    return n, signed(seat, n, t="play", j=j, k=crypto.scalar_from_int(5))


def test_a_forged_first_lead_sent_to_one_player_is_settled_whichever_log_comes_first(tmp_path: Path) -> None:
    """A seat sends a first lead of rule low_club that opens no card to one player alone. The observer judges
    an entry for a slot its chain holds already when it comes from another seat at a step any seat may take,
    so the forged lead is a fault at its slot whichever log it reads first (PROTOCOL.md §5.6)."""
    entries, _ = game()
    n, forged = forged_first_lead()
    d = settle(logs(tmp_path, honest=entries, forged=[*entries[:n], forged]))
    assert {r.verdict.status for r in d.readings} == {Status.VIOLATION}
    assert d.ruling is Ruling.NEITHER and d.exit_code == ExitCode.VIOLATION, d.why
    verdict = d.verdict
    assert verdict is not None and verdict.violation is not None
    forger = log.open_envelope(forged).payload["s"]
    assert (verdict.violation.seat, verdict.violation.seq) == (forger, n)


def test_a_lead_and_a_challenge_that_cross_are_a_fork_the_rules_cannot_settle(tmp_path: Path) -> None:
    """The one fork the rules leave open (PROTOCOL.md §5.9): the holder leads the lowest club as the seat at
    the dealer's left challenges that nobody did, both in time, each entry valid. Whichever the observer reads
    first stands, so `verify` says the fork cannot be settled."""
    entries, _ = game()
    n = first("play")
    before = Table(entries[0], entries=entries[:n], checked=True)
    challenger = before.view.lead_step(before.hand_number).seat
    assert log.open_envelope(entries[n]).payload["s"] != challenger, "the holder is another seat"
    challenge = signed(challenger, n, t="challenge", e=n - 1, why="nobody led the lowest club within 600 s")
    d = settle(logs(tmp_path, honest=entries, crossed=[*entries[:n], challenge]))
    assert {r.verdict.status for r in d.readings} == {Status.VALID, Status.INCOMPLETE}
    assert d.ruling is Ruling.UNSETTLED and d.verdict is None and d.exit_code == ExitCode.UNSETTLED
    assert "depends on the order" in because(d)
    assert dispute_record(d)["result"] is None


def test_hostile_files_among_the_logs_are_left_out_and_named(tmp_path: Path) -> None:
    entries, _ = game()
    (tmp_path / "junk").write_bytes(b"this is not a log at all")
    (tmp_path / "empty.p2plog").write_bytes(log.MAGIC)
    damaged = tmp_path / "damaged.p2plog"
    damaged.write_bytes(log.MAGIC + (2**31).to_bytes(4, "big") + b"\x93")
    garbage = write_log(tmp_path / "garbage.p2plog", [b"\x93\x01" + bytes(80), entries[1]])
    paths = [*logs(tmp_path, good=entries), str(tmp_path / "junk"), str(tmp_path / "missing"),
             str(tmp_path / "empty.p2plog"), str(damaged), str(garbage), str(tmp_path)]
    d = settle(paths)
    assert [case.readable for case in d.logs] == [True] + [False] * 6
    assert d.one_game and d.exit_code == ExitCode.FAILED
    text = "\n".join(dispute_lines(d))
    assert "left out (not a readable log): " in text and "junk" in text
    assert d.verdict is not None and d.verdict.status is Status.VALID
    nothing = settle(paths[1:])
    assert not nothing.one_game and nothing.exit_code == ExitCode.FAILED
    assert "no file is a readable log" in "\n".join(dispute_lines(nothing))


@pytest.mark.slow
def test_cli_settles_a_dispute_with_exit_codes_and_json(tmp_path: Path) -> None:
    entries, _ = game()
    n = first("bid")
    bid = log.open_envelope(entries[n]).payload
    other = signed(bid["s"], n, t="bid", b=(bid["b"] + 1) % 14)
    lead = first("play")
    before = Table(entries[0], entries=entries[:lead], checked=True)
    challenger = before.view.lead_step(before.hand_number).seat
    crossed = signed(challenger, lead, t="challenge", e=lead - 1, why="nobody led the lowest club")
    full, cut, twice, odd = logs(
        tmp_path, full=entries, cut=entries[:50], twice=[*entries[:n], other], odd=[*entries[:lead], crossed]
    )
    same = run_cli("verify", full, cut)
    assert same.returncode == 0, same.stdout + same.stderr
    assert "one game: yes" in same.stdout and "behind: " in same.stdout and "Traceback" not in same.stderr
    fork = run_cli("verify", full, twice, "--json")
    assert fork.returncode == 1, fork.stdout + fork.stderr
    record = json.loads(fork.stdout)
    assert record["format"] == "p2pspades-dispute/1" and record["one_game"] is True
    assert [entry["file"] for entry in record["logs"]] == [full, twice]
    assert record["fork"]["entry"] == n and len(record["fork"]["branches"]) == 2
    assert record["upheld"]["ruling"] == "neither"
    assert record["result"]["violation"]["check"] == "equivocation"
    assert record["result"]["violation"]["seat"] == bid["s"] and record["exit"] == 1
    unsettled = run_cli("verify", full, odd)
    assert unsettled.returncode == 4 and "a fork the rules cannot settle" in unsettled.stdout
    apart = run_cli("verify", full, str(GAME_LOG))
    assert apart.returncode == 2 and "one game: no" in apart.stdout
    (tmp_path / "junk").write_bytes(b"\x00" * 40)
    hostile = run_cli("verify", full, str(tmp_path / "junk"), "--json")
    assert hostile.returncode == 2 and json.loads(hostile.stdout)["logs"][1]["status"] == "unreadable"
    assert "Traceback" not in hostile.stderr


def test_bit_flips_in_one_log_of_a_dispute_never_raise(tmp_path: Path) -> None:
    entries, _ = game()
    honest = write_log(tmp_path / "honest.p2plog", entries)
    data = honest.read_bytes()
    rng = random.Random(17)
    # the magic, the length of the genesis frame, the genesis itself, then anywhere
    bits = [3, 8 * 9 + 6, 8 * 40, *(rng.randrange(8 * len(data)) for _ in range(13))]
    for trial, bit in enumerate(bits):
        flipped = bytearray(data)
        flipped[bit // 8] ^= 1 << (bit % 8)
        other = tmp_path / f"flipped{trial}.p2plog"
        other.write_bytes(bytes(flipped))
        d = settle([str(honest), str(other)])
        lines = dispute_lines(d)
        assert json.loads(json.dumps(dispute_record(d)))["exit"] == d.exit_code
        if d.logs[1].readable and d.one_game:
            # no flipped entry is signed: the honest log's game stands, whatever the other log now holds
            assert d.verdict is not None and d.verdict.status is Status.VALID, (bit, lines)
            assert d.exit_code == ExitCode.OK
        else:  # a damaged frame, or a genesis that is no longer the same
            assert d.exit_code == ExitCode.FAILED, (bit, lines)


def test_a_certificate_beats_the_accuseds_answer_that_only_its_own_log_holds(tmp_path: Path) -> None:
    """Seat 1 answered, wrote its answer to its log and crashed before sending it; the others certified its
    silence. Its log holds the answer at the slot, theirs the certificate: the certificate is upheld."""
    wire = claims.classic(b"crash")
    claims.until_waiting_for(wire, 1, "bid")
    answer = claims.answer(wire, 1)
    votes = [claims.vote(wire, s) for s in (0, 2, 3)]
    claims.give(wire, 0, votes[1], votes[2])
    crashed = wire.tables[1].records
    assert crashed[-1] == answer
    certified = wire.tables[0].records
    d = settle(logs(tmp_path, bo=crashed, ana=certified))
    assert d.fork is not None and d.ruling is Ruling.BRANCH, (d.ruling, d.why)
    assert d.upheld is not None and d.upheld.entry.type == "certificate"
    assert d.verdict is not None and d.verdict.status is Status.INCOMPLETE
    assert "forfeit by seat 1" in d.verdict.summary
    assert d.exit_code == ExitCode.INCOMPLETE
