"""Whole games over ZeroMQ on 127.0.0.1, one OS process per peer: play, crash and resume, abandonment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from p2pspades import log
from p2pspades.audit.verify import Status, verify_file
from p2pspades.net.store import GameStore

pytestmark = pytest.mark.timeout(120)

PEER = r"""
import asyncio, json, os, signal, sys
from pathlib import Path
from p2pspades import crypto
from p2pspades.bots import RandomBot
from p2pspades.net import (Mesh, LobbyHost, Timing, games_of, join_table, resume_game, start_game,
                           transport_keys)
from p2pspades.rules import preset
from p2pspades.table import Accepted

def say(**fields):
    print(json.dumps(fields), flush=True)

async def main(mode, name, arg):
    home = os.environ["P2PSPADES_HOME"]
    crash_at = int(os.environ.get("CRASH_AT", "-1"))
    wait = float(os.environ.get("STEP_TIMEOUT", "60"))
    timeouts = {"auto": wait, "decision": wait}
    linger = float(os.environ.get("LINGER", "5"))
    timing = Timing(tick=0.1, hello=0.5, heartbeat=0.3, away_after=1.0, linger=linger)
    identity = crypto.Identity.load_or_create(Path(home) / "identities" / f"{name}.key")

    def on_event(event):
        if crash_at >= 0 and isinstance(event, Accepted) and event.seq >= crash_at:
            os.kill(os.getpid(), signal.SIGKILL)  # a crash right after this entry reached the disk

    if mode == "resume":
        seat = int(arg.split(":")[1])
        (store,) = [s for s in games_of(home, arg.split(":")[0]) if s.seat == seat]
        bot = RandomBot((name + "-again").encode())
        peer = await resume_game(store, identity, bot, timeouts=timeouts, timing=timing)
    else:
        mesh = Mesh(transport_keys(identity), heartbeat=timing.heartbeat)
        await mesh.start()
        if mode == "host":
            players = int(os.environ["PLAYERS"])
            rules = preset({2: "two", 3: "cutthroat3", 4: "partnership"}[players], target=10,
                           losing_threshold=-10)
            host = LobbyHost(identity, "Test table", rules, name, mesh.endpoint)
            say(lobby=await host.start())
            result = await host.run()
            await host.close()
        else:
            result = await join_table(arg, identity, name, mesh.endpoint, timeout=30)
        bot = RandomBot(name.encode())
        peer = await start_game(result, identity, mesh, bot, home=home, timeouts=timeouts, timing=timing,
                                on_event=on_event)
    say(started=peer.seat, game=peer.table.game_id.hex())
    ended = await peer.run()
    await peer.close()
    say(done=peer.seat, status=ended.status if ended else None, entries=len(peer.table.entries))

asyncio.run(main(*sys.argv[1:4]))
"""


class Game:
    """The peer processes of one test game, cleaned up whatever happens."""

    def __init__(self, home: Path, players: int) -> None:
        self.home = home
        self.players = players
        self.procs: list[subprocess.Popen[str]] = []

    def spawn(self, mode: str, name: str, arg: str = "-", **env: Any) -> subprocess.Popen[str]:
        environment = dict(os.environ, P2PSPADES_HOME=str(self.home), PLAYERS=str(self.players),
                           **{k: str(v) for k, v in env.items()})
        proc = subprocess.Popen([sys.executable, "-c", PEER, mode, name, arg], env=environment, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.procs.append(proc)
        return proc

    def start(self, **env_of: dict[str, Any]) -> list[subprocess.Popen[str]]:
        """A host and players-1 joiners; `env_of` maps a peer name to extra environment."""
        host = self.spawn("host", "p0", **env_of.get("p0", {}))
        assert host.stdout is not None
        lobby = json.loads(host.stdout.readline())["lobby"]
        return [host] + [self.spawn("join", f"p{i}", lobby, **env_of.get(f"p{i}", {}))
                         for i in range(1, self.players)]

    def finish(self, proc: subprocess.Popen[str]) -> list[dict[str, Any]]:
        out, err = proc.communicate(timeout=90)
        assert proc.returncode == 0, err[-3000:]
        return [json.loads(line) for line in out.splitlines() if line.startswith("{")]

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.communicate()


def logs_of(home: Path, game: str, seats: range) -> list[list[bytes]]:
    return [GameStore(bytes.fromhex(game), seat, home).read_entries() for seat in seats]


@pytest.mark.parametrize("players", [4, 3, 2])
def test_peers_in_separate_processes_play_a_whole_game(tmp_path: Path, players: int) -> None:
    game = Game(tmp_path, players)
    try:
        reports = [game.finish(p) for p in game.start()]
    finally:
        game.close()
    done = [r[-1] for r in reports]
    assert sorted(d["done"] for d in done) == list(range(players))
    assert {d["status"] for d in done} == {"complete"}
    game_id = reports[0][-2]["game"]
    logs = logs_of(tmp_path, game_id, range(players))
    assert all(entries == logs[0] for entries in logs)  # every peer's log holds the same chain, byte for byte
    assert len(logs[0]) == done[0]["entries"]
    for seat in range(players):
        verdict = verify_file(GameStore(bytes.fromhex(game_id), seat, tmp_path).log_path)
        assert verdict.status is Status.VALID, verdict.summary


def test_a_peer_killed_mid_hand_resumes_and_the_game_completes(tmp_path: Path) -> None:
    game = Game(tmp_path, 4)
    try:
        procs = game.start(p2={"CRASH_AT": 40})  # in the middle of the first hand's deal
        victim = procs[2]
        victim.wait(timeout=60)
        assert victim.returncode == -9
        out, _ = victim.communicate()
        started = json.loads(out.splitlines()[0])
        seat, game_id = started["started"], started["game"]
        before = GameStore(bytes.fromhex(game_id), seat, tmp_path).read_entries()
        assert len(before) >= 41
        again = game.spawn("resume", "p2", f"{game_id}:{seat}")
        reports = [game.finish(p) for p in (*procs[:2], procs[3], again)]
    finally:
        game.close()
    assert {r[-1]["status"] for r in reports} == {"complete"}
    logs = logs_of(tmp_path, game_id, range(4))
    assert all(entries == logs[0] for entries in logs)
    assert logs[seat][: len(before)] == before  # nothing the crashed peer had written was lost or rewritten
    for s in range(4):
        assert verify_file(GameStore(bytes.fromhex(game_id), s, tmp_path).log_path).status is Status.VALID


def test_a_vanished_peer_is_abandoned_by_the_others(tmp_path: Path) -> None:
    game = Game(tmp_path, 3)
    short = {"STEP_TIMEOUT": 3, "LINGER": 2}
    try:
        procs = game.start(p0=short, p1={**short, "CRASH_AT": 30}, p2=short)
        procs[1].wait(timeout=60)
        out, _ = procs[1].communicate()
        started = json.loads(out.splitlines()[0])
        gone, game_id = started["started"], started["game"]
        reports = [game.finish(p) for p in (procs[0], procs[2])]
    finally:
        game.close()
    assert {r[-1]["status"] for r in reports} == {"abandoned"}
    survivors = [s for s in range(3) if s != gone]
    logs = logs_of(tmp_path, game_id, range(3))
    assert logs[survivors[0]] == logs[survivors[1]]
    last = log.open_envelope(logs[survivors[0]][-1]).payload
    assert last["t"] == "abandon" and last["a"] == gone
    verdict = verify_file(GameStore(bytes.fromhex(game_id), survivors[0], tmp_path).log_path)
    assert verdict.status is Status.INCOMPLETE
    assert f"seat {gone}" in verdict.summary
