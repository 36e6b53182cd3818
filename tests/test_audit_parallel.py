"""The offline verifier with its proofs checked by worker processes (audit/parallel.py).

The parallel replay must say exactly what the serial one says: the same verdict, naming the same entry and
seat, and the same visitor callbacks, each once and in order, whether the log is sound or a cheater's proof
fails at some entry (signed properly, so that only the proof itself is wrong).
"""

from __future__ import annotations

import concurrent.futures.process
import functools
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pexpect
import pytest
from helpers.logs import write_log
from test_table_attacks import seated

from p2pspades import crypto, log
from p2pspades.audit import GameVisitor, Status, Verdict, read_game
from p2pspades.audit.parallel import ALL_SETTLED, MAX_PENDING, ParallelProofs, available_jobs
from p2pspades.crypto import proofs
from p2pspades.rules import Card, HandResult, preset
from p2pspades.table import GameEnded, HandAudited, Setup, Table, Violation

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="worker processes are forked on Linux only")

RULES = preset("classic", target=200, losing_threshold=-400)


class Recorder(GameVisitor):
    """Every callback, in order, with what it was told."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def on_genesis(self, setup: Setup) -> None:
        self.calls.append(("genesis", setup.game_id))

    def on_first_dealer(self, seat: int) -> None:
        self.calls.append(("first dealer", seat))

    def on_play(self, seat: int, card: Card) -> None:
        self.calls.append(("play", seat, card))

    def on_challenge(self, seat: int, why: str) -> None:
        self.calls.append(("challenge", seat, why))

    def on_hand(self, hand: HandResult, audit: HandAudited) -> None:
        self.calls.append(("hand", hand.number, hand.totals, audit))

    def on_violation(self, violation: Violation) -> None:
        self.calls.append(("violation", violation))

    def on_end(self, ended: GameEnded) -> None:
        self.calls.append(("end", ended))

    def on_verdict(self, verdict: Verdict) -> None:
        self.calls.append(("verdict", verdict.status, verdict.summary))


@functools.cache
def honest_game() -> tuple[tuple[bytes, ...], tuple[crypto.Identity, ...]]:
    wire, ids = seated(RULES, seed=b"parallel", version=2)
    wire.run()
    entries = wire.tables[0].entries
    assert wire.tables[0].status == "complete"
    return tuple(entries), tuple(ids)


def both(frames: list[bytes]) -> tuple[Verdict, Recorder, Verdict, Recorder]:
    serial, parallel = Recorder(), Recorder()
    return read_game(frames, serial, jobs=1), serial, read_game(frames, parallel, jobs=2), parallel


def assert_same(frames: list[bytes]) -> Verdict:
    assert available_jobs(2) == 2, "the replay can fork workers here"
    v1, r1, v2, r2 = both(frames)
    said = [(v.status, v.summary, v.entries, v.violation) for v in (v1, v2)]
    assert said[1] == said[0]
    assert [h.number for h in v2.hands] == [h.number for h in v1.hands]
    assert r2.calls == r1.calls
    return v1


def resealed(index: int, change: str) -> list[bytes]:
    """The honest log up to entry `index`, which its signer changed and signed again."""
    entries, ids = honest_game()
    payload = dict(log.open_envelope(entries[index]).payload)
    blob = bytearray(payload[change])
    blob[len(blob) // 2] ^= 1
    payload[change] = bytes(blob)
    return [*entries[:index], log.seal(payload, ids[payload["s"]])]


def last_entry(kind: str, proof: str) -> int:
    entries, _ = honest_game()
    found = [
        i for i, e in enumerate(entries)
        if (p := log.open_envelope(e).payload)["t"] == kind and p.get(proof)
    ]
    assert found, f"the game has no {kind} with a {proof!r} field"
    return found[-1]


@pytest.mark.slow
def test_a_sound_log_gives_the_same_verdict_and_callbacks_in_parallel() -> None:
    entries, _ = honest_game()
    verdict = assert_same(list(entries))
    assert verdict.status is Status.VALID
    assert len(verdict.hands) >= 2, "the game spans several hands"


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "field"), [("shuffle", "x"), ("lock", "x"), ("play", "x")])
def test_a_bad_proof_late_in_the_log_is_named_as_the_serial_replay_names_it(kind: str, field: str) -> None:
    index = last_entry(kind, field)
    frames = resealed(index, field)
    verdict = assert_same(frames)
    assert verdict.status is Status.VIOLATION
    assert verdict.violation is not None and verdict.violation.seq == index
    signer = log.open_envelope(frames[-1]).payload["s"]
    assert verdict.violation.seat == signer
    assert verdict.violation.check == ("void" if kind == "play" else kind)


@pytest.mark.slow
def test_a_bad_proof_is_named_before_a_later_broken_entry() -> None:
    """The optimistic replay meets the broken chain after the bad proof first; the verdict is still the
    proof's, at its own entry."""
    entries, _ = honest_game()
    index = last_entry("shuffle", "x")
    frames = [*resealed(index, "x"), *entries[index + 1 : index + 6]]
    verdict = assert_same(frames)
    assert verdict.violation is not None and verdict.violation.seq == index
    assert verdict.violation.check == "shuffle"


def _refuse_in(pid: int) -> None:
    if os.getpid() == pid:
        raise AssertionError("a check ran in the process that handed it out")


def test_checks_run_in_other_processes_and_a_failure_is_settled_at_its_entry() -> None:
    context = crypto.hand_context(bytes(16), 1, 0)
    secrets = crypto.HandSecrets.derive(bytes(32), context, 4)
    deck = [crypto.card_point(code) for code in ("AS", "KS", "QS", "JS")]
    out, proof = proofs.prove_shuffle(context, 0, deck, secrets)
    big_s = proofs.shuffle_commitment(secrets)
    bad = bytes([proof[0] ^ 1]) + proof[1:]
    with ParallelProofs(2) as runner:
        for entry in range(1, 5):
            runner.entry = entry
            runner(functools.partial(_refuse_in, os.getpid()))
        runner.entry = 5
        runner(functools.partial(proofs.verify_shuffle, context, 0, deck, out, big_s, proof))
        assert runner.settled(wait=True) == ALL_SETTLED and runner.failed is None
        runner.entry = 6
        runner(functools.partial(proofs.verify_shuffle, context, 0, deck, out, big_s, bad))
        runner.entry = 7
        runner(functools.partial(proofs.verify_shuffle, context, 0, deck, out, big_s, proof))
        assert runner.settled(wait=True) == 6
        assert runner.failed == 6


def _pass() -> None:
    """A check that passes."""


def test_the_replay_waits_for_the_workers_rather_than_pile_checks_up() -> None:
    with ParallelProofs(2) as runner:
        for entry in range(5 * MAX_PENDING):
            runner.entry = entry
            runner(_pass)
            assert runner.pending <= MAX_PENDING
        assert runner.settled(wait=True) == ALL_SETTLED and runner.pending == 0


INTERRUPTED = """
import os
import signal
from p2pspades.audit.parallel import ParallelProofs

# Ctrl-C as a foreground command takes it, even where this test runs with it ignored (a background job)
signal.signal(signal.SIGINT, signal.default_int_handler)

release, released = os.pipe()  # the forked workers share it

def slow() -> None:
    os.write(1, b"checking\\n")  # one write of a whole line: the two workers share the pipe
    os.read(release, 1)  # busy until the replay has taken the Ctrl-C

with ParallelProofs(2) as runner:
    runner(slow)  # both workers busy, so both are past their start (where they learn to ignore Ctrl-C)
    runner(slow)
    try:
        os.write(1, b"ready\\n")
        runner.settled(wait=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        os.write(released, b"xx")
"""


def test_ctrl_c_stops_the_workers_quietly() -> None:
    """Ctrl-C reaches the whole process group, workers included: only the replay takes it."""
    proc = subprocess.Popen([sys.executable, "-c", INTERRUPTED], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None
    # both workers are inside a check, and the replay waits for them
    lines = sorted(proc.stdout.readline() for _ in range(3))
    assert lines == ["checking\n", "checking\n", "ready\n"]
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert "interrupted" in out
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_jobs_fall_back_to_one_where_forking_is_unsafe() -> None:
    assert available_jobs(3) == 3
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert available_jobs(3) == 1, "a threaded process does not fork workers"
    finally:
        stop.set()
        thread.join()
    with pytest.raises(ValueError, match="at least 1"):
        available_jobs(0)


VECTOR = Path(__file__).resolve().parent.parent / "protocol" / "vectors" / "game_v2.p2plog"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2pspades", *args], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.mark.slow
def test_verify_says_the_same_with_any_number_of_jobs_and_refuses_a_bad_count(tmp_path: Path) -> None:
    serial, parallel = cli("verify", "--jobs", "1", str(VECTOR)), cli("verify", "--jobs", "2", str(VECTOR))
    assert serial.returncode == parallel.returncode == 0, parallel.stderr
    assert parallel.stdout == serial.stdout and "valid and complete" in serial.stdout
    bad = write_log(tmp_path / "forged.p2plog", resealed(last_entry("lock", "x"), "x"))
    serial, parallel = cli("verify", "--jobs", "1", str(bad)), cli("verify", "--jobs", "2", str(bad))
    assert serial.returncode == parallel.returncode == 1
    assert parallel.stdout == serial.stdout and "lock" in serial.stdout
    for wrong in ("0", "-3", "two", "100000"):
        refused = cli("verify", "--jobs", wrong, str(VECTOR))
        assert refused.returncode == 2 and "--jobs" in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr


@pytest.mark.pty
def test_verify_counts_the_hands_on_a_terminal() -> None:
    child = pexpect.spawn(sys.executable, ["-m", "p2pspades", "verify", "--jobs", "2", str(VECTOR)],
                          encoding="utf-8", timeout=120, dimensions=(24, 100))
    child.expect("verifying .*game_v2.p2plog: ")
    child.expect(r"hand 1 verified")
    child.expect("valid and complete")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_restored_entries_checked_before_skip_their_proofs_and_later_entries_do_not() -> None:
    """What `resume` and a table's replays of its own chain use (`checked=True`): the restored entries' proofs
    are not verified again (here one is bad, and it passes), the entries after are."""
    entries, _ = honest_game()
    shuffles = [i for i, e in enumerate(entries) if log.open_envelope(e).payload["t"] == "shuffle"]
    first, second = shuffles[-2], shuffles[-1]
    restored = resealed(first, "x")
    strict = Table(restored[0], entries=restored[:-1])
    assert strict.receive(restored[-1]) and strict.violation is not None, "a plain table checks the proof"
    table = Table(restored[0], entries=restored, checked=True)
    assert len(table.entries) == len(restored) and table.violation is None
    later = resealed(second, "x")[-1]
    payload = dict(log.open_envelope(later).payload)
    assert payload["n"] == len(table.entries) and second == first + 1
    payload["p"] = table.head
    _, ids = honest_game()
    table.receive(log.seal(payload, ids[payload["s"]]))
    assert table.violation is not None and table.violation.check == "shuffle"


@pytest.mark.slow
def test_ctrl_c_at_any_step_of_the_pools_start_and_stop_is_the_interrupt_alone() -> None:
    """A real SIGINT at each line the pool runs (tests/helpers/interrupted_pool.py): at the fork of its
    worker, the start of its thread, a wait for a result, its shutdown. Each time the KeyboardInterrupt alone
    escapes, and the pool is gone after it, but where the interrupt came before `close` could hold it back."""
    done = subprocess.run([sys.executable, str(Path(__file__).with_name("helpers") / "interrupted_pool.py")],
                          capture_output=True, text=True, timeout=300, start_new_session=True)
    assert done.returncode == 0 and done.stderr == "", done.stdout + done.stderr
    summary = re.fullmatch(r"steps (\d+) interrupted (\d+) left (\d+): (.*)\n", done.stdout)
    assert summary is not None, done.stdout
    steps, interrupted = int(summary.group(1)), int(summary.group(2))
    assert steps > 300, "every step, from the fork of the worker to the shutdown, was interrupted in turn"
    assert interrupted == steps


def test_a_pool_whose_thread_could_not_start_stops_its_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first check forks the workers, then starts the pool's thread; if that fails, the check is left to
    the serial replay, and closing stops the workers, which no thread would ever tell to stop."""

    def refused(thread: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(concurrent.futures.process._ExecutorManagerThread, "start", refused)
    with ParallelProofs(1) as runner:
        runner.entry = 7
        runner(_pass)
        assert runner.settled() == 7 and runner.failed == 7
        workers = multiprocessing.active_children()
        assert workers, "the worker was forked before the thread was to start"
    assert not any(worker.is_alive() for worker in workers)
