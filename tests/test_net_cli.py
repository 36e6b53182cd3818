"""The network commands as a person meets them: `play` on the full screen over ZeroMQ, `play --auto`, `resume`
after leaving, and clear errors for bad options and for nothing to resume."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest
from helpers.terminal import drain, leave, plays_by_seat_0

from p2pspades import crypto, log
from p2pspades.audit import Status, verify_file
from p2pspades.net import GameStore
from p2pspades.net.lobby_seats import LobbySeat
from p2pspades.net.resume import find_resumable
from p2pspades.net.seats import SessionError
from p2pspades.net.store import LocalSeat, PeersFile
from p2pspades.rules import preset
from p2pspades.table.harness import new_game

pytestmark = [pytest.mark.net, pytest.mark.timeout(120)]


def homes(root: Path) -> dict[str, str]:
    return dict(os.environ, P2PSPADES_HOME=str(root / "data"), XDG_CONFIG_HOME=str(root / "config"),
                TERM="xterm-256color", LC_ALL="C.UTF-8", LANG="C.UTF-8")


def p2pspades(root: Path, *args: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pspades", *args], env=homes(root), capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.pty
@pytest.mark.slow
def test_play_on_the_screen_against_bot_peers_then_resume_with_the_bot(tmp_path: Path) -> None:
    game_log = tmp_path / "mine.p2plog"
    child = pexpect.spawn(sys.executable, ["-m", "p2pspades", "play", "--seed", "7", "--target", "10",
                                           "--log", str(game_log)],
                          dimensions=(24, 80), env=homes(tmp_path), encoding="utf-8", timeout=30)
    try:
        child.expect("p2pspades")
        deadline = time.monotonic() + 60
        while plays_by_seat_0(game_log) < 2:  # Enter bids the default and plays the chosen legal card
            assert time.monotonic() < deadline, "no card of ours reached the log"
            child.send("\r")
            time.sleep(0.3)
            drain(child)
        said = leave(child)  # Ctrl-C asks first, and y leaves
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, said[-2000:]  # a confirmed leave is not an error
    assert "p2pspades resume" in said
    assert verify_file(game_log).status is Status.INCOMPLETE
    # our seat and the three bot peers come back together and finish the game
    again = p2pspades(tmp_path, "resume", "--auto")
    assert again.returncode == 0, again.stdout[-2000:] + again.stderr[-2000:]
    assert "and its 3 bot seats" in again.stdout and "game over: complete" in again.stdout
    verdict = verify_file(game_log)
    assert verdict.status is Status.VALID, verdict.summary
    assert plays_by_seat_0(game_log) >= 2
    (game,) = (tmp_path / "data" / "games").iterdir()
    stores = [GameStore(bytes.fromhex(game.name), seat, tmp_path / "data") for seat in range(4)]
    assert stores[0].log_path == game_log  # local.json remembers where our log is
    logs = [store.read_entries() for store in stores]
    assert all(entries == logs[0] for entries in logs)


@pytest.mark.slow
def test_play_auto_runs_every_seat_as_a_peer_and_verifies_the_log(tmp_path: Path) -> None:
    done = p2pspades(tmp_path, "play", "--auto", "--rules", "individual", "--players", "3", "--target", "10",
                     "--seed", "3")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    out = done.stdout
    assert "3 peers on 127.0.0.1" in out and "final score:" in out and "valid and complete" in out
    # the bots are named after their seats, as the screen of seat 0 places them
    assert re.search(r"final score: You -?\d+, West -?\d+, North -?\d+", out), out
    games = list((tmp_path / "data" / "games").iterdir())
    assert len(games) == 1
    game_id = bytes.fromhex(games[0].name)
    logs = [GameStore(game_id, seat, tmp_path / "data").read_entries() for seat in range(3)]
    assert logs[0] and all(entries == logs[0] for entries in logs)  # three peers, one chain
    keys = sorted(p.name for p in (tmp_path / "data" / "identities").iterdir())
    # each seat its own persistent identity: the profile's person, and its bots
    assert keys == ["player-bot1.key", "player-bot2.key", "player.key"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["host", "--bots", "4"], "--bots must be 0..3"),
        (["host", "--rules", "chess"], "unknown rule preset"),
        (["host", "--name", ""], "a name is 1..32"),
        (["host", "--port", "70000"], "not a port number"),
        (["join", "127.0.0.1:99999", "--auto"], "127.0.0.1:99999: 99999 is not a port number (1..65535)"),
        (["play", "--auto", "--timeout-auto", "0"], "--timeout-auto must be between"),
        (["join", "127.0.0.1:1", "--auto", "--name", "x" * 40], "a name is 1..32"),
        (["tables", "--timeout", "0"], "--timeout must be between"),
        (["resume", "zz-not-a-game"], "neither a game id nor a log file"),
        (["resume"], "there is no game on this machine to resume"),
        (["play"], "needs a terminal"),
        (["play", "--auto", "--players", "3"],
         "classic is a partnership game for 4 players, so --players 3 would make it another game; "
         "for 3 players use --rules cutthroat3"),
        (["host", "--rules", "two", "--players", "4"], "for 4 players use --rules individual or --rules "
         "partnership"),
    ],
)
def test_bad_options_are_clear_errors(tmp_path: Path, args: list[str], message: str) -> None:
    done = p2pspades(tmp_path, *args, timeout=30)
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_joining_a_table_nobody_hosts_fails_clearly(tmp_path: Path) -> None:
    with __import__("socket").socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = p2pspades(tmp_path, "join", f"127.0.0.1:{port}", "--auto", timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [f"p2pspades join: no table answers at 127.0.0.1:{port}"]
    assert f"connecting to 127.0.0.1:{port}" in done.stdout


def seat_directory(home: Path, game_id: bytes, seat: int, leader: int, entries: list[bytes]) -> GameStore:
    store = GameStore(game_id, seat, home)
    keys = [crypto.Identity.generate().public for _ in range(2)]
    seats = tuple(LobbySeat(s, f"P{s}", keys[s], f"tcp://127.0.0.1:{9000 + s}") for s in range(2))
    store.save_peers(PeersFile(game_id, seat, "t", seats))
    kind = "person" if seat == leader else "bot"
    store.save_local(LocalSeat(str(home / "nobody.key"), kind, leader=leader))
    writer = store.open_log()
    for raw in entries:
        writer.append(raw)
    writer.close()
    return store


def test_resume_picks_the_seat_to_resume_or_says_why_not(tmp_path: Path) -> None:
    ids = [crypto.Identity.generate() for _ in range(2)]
    genesis = new_game(preset("two"), ids)
    game_id = log.validate_header(log.open_envelope(genesis).payload).game_id
    mine = seat_directory(tmp_path, game_id, 0, 0, [genesis])
    seat_directory(tmp_path, game_id, 1, 0, [genesis])  # a bot seat this machine runs with seat 0
    found = find_resumable(home=tmp_path)
    assert found.leader.seat == 0 and [s.seat for s, _ in found.bots] == [1]
    assert find_resumable(game_id.hex()[:6], home=tmp_path).leader.seat == 0
    assert find_resumable(str(mine.log_path), home=tmp_path).leader.seat == 0
    writer = mine.open_log()  # a running peer holds its log: not resumable meanwhile
    try:
        with pytest.raises(SessionError, match="a running p2pspades process is playing it"):
            find_resumable(home=tmp_path)
    finally:
        writer.close()
    mine.mark_ended("complete")
    with pytest.raises(SessionError, match=r"the game is over \(complete\)"):
        find_resumable(home=tmp_path)
    with pytest.raises(SessionError, match="no game with an id starting"):
        find_resumable("abcdef", home=tmp_path)
    stray = tmp_path / "stray.p2plog"
    stray.write_bytes(b"not a log")
    with pytest.raises(SessionError, match="is not a game log"):
        find_resumable(str(stray), home=tmp_path)


def test_a_log_path_that_exists_is_refused_before_anything_starts(tmp_path: Path) -> None:
    taken = tmp_path / "taken.p2plog"
    taken.write_bytes(b"P2PSLOG1")
    done = p2pspades(tmp_path, "play", "--auto", "--log", str(taken), timeout=30)
    assert done.returncode == 2 and "already exists" in done.stderr, done.stderr
    assert taken.read_bytes() == b"P2PSLOG1"


@pytest.mark.slow
def test_play_local_auto_plays_in_memory_and_writes_its_log_in_the_profile(tmp_path: Path) -> None:
    done = p2pspades(tmp_path, "play", "--local", "--auto", "--target", "10", "--seed", "5",
                     "--profile", "solo")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (game_log,) = (tmp_path / "data" / "profiles" / "solo" / "logs").iterdir()
    assert game_log.suffix == ".p2plog" and f"log: {game_log}" in done.stdout
    verdict = verify_file(game_log)
    assert verdict.status is Status.VALID, verdict.summary
