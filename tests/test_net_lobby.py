"""The lobby over real sockets: joiners in their own processes, refusals, a lying host, hostile frames."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from subprocess import PIPE
from typing import Any

import pytest
import zmq
import zmq.asyncio
from helpers.net import WAIT, next_received, until, within

from p2pspades import crypto, log
from p2pspades.describe.tables import proposal
from p2pspades.net import lobby as lobby_driver
from p2pspades.net.auth import transport_keys
from p2pspades.net.frames import Entry
from p2pspades.net.lobby import (
    KEEPALIVE,
    LobbyError,
    LobbyHost,
    LobbyResult,
    TableInfo,
    TableRefused,
    check_endpoint,
    check_name,
    join_table,
    peers_of,
)
from p2pspades.net.lobby_guest import GuestLobby
from p2pspades.net.lobby_machine import HostLobby, LobbyEvent
from p2pspades.net.mesh import Mesh
from p2pspades.rules import preset
from p2pspades.table import make_genesis

pytestmark = [pytest.mark.net, pytest.mark.timeout(90)]

JOINER = r"""
import asyncio, json, sys
from p2pspades import crypto
from p2pspades.net.auth import transport_keys
from p2pspades.net.frames import Entry
from p2pspades.describe.tables import proposal
from p2pspades.net.lobby import join_table, peers_of
from p2pspades.net.mesh import Mesh, Received

async def main(lobby, name):
    identity = crypto.Identity.generate()
    mesh = Mesh(transport_keys(identity))
    await mesh.start()
    seen = []

    def confirm(r):  # show the table; once accepted, let the other seats in before anyone says go
        seen.append(proposal(r))
        mesh.allow(r.seat, peers_of(r.table))
        return True

    result = await join_table(lobby, identity, name, mesh.endpoint, timeout=20, confirm=confirm)
    mesh.admit(result.seat, peers_of(result.table))
    mesh.send(0, Entry(b"hello from " + name.encode()))
    while True:  # the host answers once it has heard from everybody
        event = await asyncio.wait_for(mesh.next_event(), 20)
        if isinstance(event, Received) and isinstance(event.message, Entry):
            break
    print(json.dumps({
        "seat": result.seat, "game": result.game_id.hex(), "genesis": result.genesis.hex(),
        "seats": [[s.seat, s.name, s.fingerprint] for s in result.table.seated],
        "shown": seen, "reply": event.message.raw.decode(), "from": event.seat,
    }))
    await mesh.close()

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


@pytest.mark.slow
async def test_three_joiners_in_their_own_processes_agree_on_one_table() -> None:
    host_id = crypto.Identity.generate()
    mesh = Mesh(transport_keys(host_id))
    await mesh.start()

    def allow(table: TableInfo) -> bool:  # accepted: let the seat map in before anyone hears go
        mesh.allow(0, peers_of(table))
        return True

    host = LobbyHost(host_id, "Friday", preset("partnership"), "Ann", mesh.endpoint, start_when=allow)
    lobby = await host.start()
    names = ["Bo", "Cy", "Di"]
    procs = [
        subprocess.Popen([sys.executable, "-c", JOINER, lobby, name], stdout=PIPE, stderr=PIPE)
        for name in names
    ]
    try:
        result = await within(host.run(), 60)
        mesh.admit(0, peers_of(result.table))
        heard: dict[int, str] = {}
        while len(heard) < 3:
            event = await next_received(mesh, 30)
            assert isinstance(event.message, Entry)
            heard[event.seat] = event.message.raw.decode()
        mesh.broadcast(Entry(b"welcome"))
        outputs = [await asyncio.to_thread(p.communicate, timeout=60) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        await host.close()
        await mesh.close()
    for p, (_, err) in zip(procs, outputs, strict=True):
        assert p.returncode == 0, err.decode()[-2000:]
    reports = [json.loads(out) for out, _ in outputs]
    # every joiner got a different seat, and everybody holds the very same genesis
    assert sorted(r["seat"] for r in reports) == [1, 2, 3]
    assert {r["genesis"] for r in reports} == {result.genesis.hex()}
    assert {r["game"] for r in reports} == {result.game_id.hex()}
    seat_map = [[s.seat, s.name, s.fingerprint] for s in result.table.seated]
    assert all(r["seats"] == seat_map for r in reports)
    assert seat_map[0] == [0, "Ann", host_id.fingerprint]
    # each joiner was shown every seat's name and fingerprint before it accepted
    for report in reports:
        (shown,) = report["shown"]
        for _, name, fingerprint in seat_map:
            assert name in shown and fingerprint in shown
    # the game mesh admitted exactly the lobby's seats: who said hello is who the lobby seated there
    by_name = {r["seats"][r["seat"]][1]: r["seat"] for r in reports}
    assert heard == {by_name[n]: f"hello from {n}" for n in names}
    assert all(r["reply"] == "welcome" and r["from"] == 0 for r in reports)


async def start_host(players: int = 2, **kwargs: Any) -> tuple[LobbyHost, str]:
    rules = preset("two") if players == 2 else preset("partnership")
    host = LobbyHost(crypto.Identity.generate(), "Test", rules, "Host", "tcp://127.0.0.1:7000", **kwargs)
    return host, await host.start()


async def test_a_full_table_refuses_and_bots_take_seats() -> None:
    host, lobby = await start_host(4)
    bot = crypto.Identity.generate()
    seat = host.add_bot("Robo", bot.public, "tcp://127.0.0.1:7003")
    assert seat.seat == 2 and seat.bot, "a host's bot sits on the host's side: opposite seat 0"
    with pytest.raises(LobbyError, match="already seated"):
        host.add_bot("Robo again", bot.public, "tcp://127.0.0.1:7004")
    players = [crypto.Identity.generate() for _ in range(3)]
    running = asyncio.ensure_future(host.run())
    try:
        joins = [join_table(lobby, p, f"P{i}", f"tcp://127.0.0.1:710{i}") for i, p in enumerate(players[:2])]
        results = await within(asyncio.gather(*joins))
        assert sorted(r.seat for r in results) == [1, 3]
        assert (await within(running)).table.seated[2].name == "Robo"
    finally:
        running.cancel()
        await host.close()
    # while the first joiner of a two-seat table is still looking at the seat map, a second one comes
    host2, lobby2 = await start_host(2)
    late = asyncio.ensure_future(host2.run())
    looking = asyncio.Event()
    decided = asyncio.Event()

    async def slow_confirm(result: LobbyResult) -> bool:
        looking.set()
        await decided.wait()
        return True

    try:
        first = asyncio.ensure_future(
            join_table(lobby2, players[0], "First", "tcp://127.0.0.1:7200", confirm=slow_confirm)
        )
        await within(looking.wait())
        with pytest.raises(TableRefused, match="full"):
            await within(join_table(lobby2, players[1], "Second", "tcp://127.0.0.1:7201"))
        decided.set()
        assert (await within(first)).seat == 1
        assert (await within(late)).table.seated[1].name == "First"
    finally:
        late.cancel()
        await host2.close()


async def test_the_host_fingerprint_can_be_pinned() -> None:
    host, lobby = await start_host(2)
    running = asyncio.ensure_future(host.run())
    try:
        with pytest.raises(LobbyError, match="not the expected"):
            await within(join_table(lobby, crypto.Identity.generate(), "Eve", "tcp://127.0.0.1:7300",
                                    host_fingerprint="0000-0000-0000-0000"))
        result = await within(join_table(lobby, crypto.Identity.generate(), "Fay", "tcp://127.0.0.1:7301",
                                         host_fingerprint=host.identity.fingerprint))
        assert result.seat == 1
    finally:
        running.cancel()
        await host.close()


async def test_a_declined_table_frees_the_seat_and_a_new_game_is_proposed() -> None:
    host, lobby = await start_host(2)
    running = asyncio.ensure_future(host.run())
    try:
        with pytest.raises(LobbyError, match="declined"):
            await within(join_table(lobby, crypto.Identity.generate(), "Gus", "tcp://127.0.0.1:7400",
                                    confirm=lambda r: False))
        first = host.machine.proposal
        assert first is not None  # the proposal made for Gus
        result = await within(join_table(lobby, crypto.Identity.generate(), "Hal", "tcp://127.0.0.1:7401"))
        assert [s.name for s in result.table.seated] == ["Host", "Hal"]
        assert result.game_id != first.game_id
        assert (await within(running)).genesis == result.genesis
    finally:
        running.cancel()
        await host.close()


async def test_a_genesis_that_differs_from_the_seat_map_is_declined() -> None:
    stranger = crypto.Identity.generate()

    def forged(game_id: bytes, seats: Any) -> bytes:
        # the host swaps the joiner's key for a key it controls
        swapped = [seats[0], ("Ivy", stranger.public)]
        return make_genesis(game_id, preset("two"), swapped, host.identity, "Test")

    host, lobby = await start_host(2, make_genesis=forged)
    running = asyncio.ensure_future(host.run())
    try:
        with pytest.raises(LobbyError, match="seats differ"):
            await within(join_table(lobby, crypto.Identity.generate(), "Ivy", "tcp://127.0.0.1:7500"))
    finally:
        running.cancel()
        await host.close()


async def test_a_version_1_genesis_from_a_modified_host_is_refused_by_join_in_one_line() -> None:
    """A host that announces the newest version and then proposes a version 1 genesis, which would turn every
    proof of the deal off: a real `p2pspades join` refuses it in one line that names the version and the flag,
    and the seat it held is free again."""

    def downgraded(game_id: bytes, seats: Any) -> bytes:
        return make_genesis(game_id, preset("two"), seats, host.identity, "Test", version=1)

    host, lobby = await start_host(2, make_genesis=downgraded)
    running = asyncio.ensure_future(host.run())
    try:
        joiner = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "p2pspades", "join", lobby.removeprefix("tcp://"), "--auto",
            "--name", "Ivy", stdout=PIPE, stderr=PIPE)
        out, err = await within(joiner.communicate(), 60)
        lines = err.decode().splitlines()
        assert joiner.returncode == 2, (out, err)
        assert len(lines) == 1 and "Traceback" not in err.decode(), lines
        assert lines[0].startswith("p2pspades join: the host proposes protocol version 1, older than "
                                   "version 2")
        assert lines[0].endswith("(to play it anyway: join with --allow-protocol 1)")
        await until(lambda: host.info().at(1) is None)
        assert not running.done(), "the host is still waiting for a player who accepts"
    finally:
        running.cancel()
        await host.close()


async def test_a_silent_host_is_reported() -> None:
    context = zmq.asyncio.Context()
    mute = context.socket(zmq.ROUTER)
    mute.setsockopt(zmq.LINGER, 0)
    mute.bind("tcp://127.0.0.1:*")
    try:
        endpoint = mute.getsockopt_string(zmq.LAST_ENDPOINT)
        with pytest.raises(LobbyError, match=f"no table answers at {endpoint.removeprefix('tcp://')}"):
            await within(join_table(endpoint, crypto.Identity.generate(), "Jo", "tcp://127.0.0.1:7600",
                                    connect_timeout=1.0), WAIT)
    finally:
        context.destroy(linger=0)


async def test_hostile_lobby_frames_are_dropped() -> None:
    host, lobby = await start_host(2)
    running = asyncio.ensure_future(host.run())
    context = zmq.asyncio.Context()
    try:
        raw = context.socket(zmq.DEALER)
        raw.setsockopt(zmq.LINGER, 0)
        raw.connect(lobby)
        victim, thief = crypto.Identity.generate(), crypto.Identity.generate()
        # garbage, an unsigned map, and a join signed by another key than the one it names
        payload = {"e": "tcp://127.0.0.1:1", "k": victim.public, "l": bytes(16), "name": "V", "t": "join",
                   "v": 1}
        forged = log.seal(payload, thief)
        for frame in (b"\x00garbage", log.encode({"t": "join"}), forged, b"x" * 70_000):
            await raw.send(frame)
        await raw.send_multipart([b"a", b"b"])
        result = await within(join_table(lobby, crypto.Identity.generate(), "Kim", "tcp://127.0.0.1:7700"))
        assert result.seat == 1
        assert [s.name for s in result.table.seated] == ["Host", "Kim"]
    finally:
        running.cancel()
        context.destroy(linger=0)
        await host.close()


def test_names_and_endpoints_are_checked() -> None:
    assert check_name("Ann") == "Ann"
    for bad in ("", "x" * 33, "tab\there", 7):
        with pytest.raises(ValueError, match="name"):
            check_name(bad)
    assert check_endpoint("tcp://192.168.1.20:5555") == "tcp://192.168.1.20:5555"
    for bad_endpoint in ("tcp://0.0.0.0:5555", "tcp://127.0.0.1:*", "ipc:///tmp/x", "tcp://h:70000", None):
        with pytest.raises(ValueError, match="endpoint"):
            check_endpoint(bad_endpoint)


def test_a_result_describes_every_seat() -> None:
    ids = [crypto.Identity.generate() for _ in range(2)]
    rules = preset("two")
    genesis = make_genesis(b"\x07" * 16, rules, [("Ann", ids[0].public), ("Bo", ids[1].public)], ids[0], "T")
    from p2pspades.net.lobby import LobbySeat

    seats = (LobbySeat(0, "Ann", ids[0].public, "tcp://127.0.0.1:1"),
             LobbySeat(1, "Bo", ids[1].public, "tcp://127.0.0.1:2", owner=ids[0].public))
    result = LobbyResult(0, TableInfo("T", rules, ids[0].public, bytes(16), seats), genesis, b"\x07" * 16)
    text = proposal(result)
    assert "seat 0: Ann (you)" in text and "seat 1: Bo (bot run by Ann, who can see its cards)" in text
    assert ids[0].fingerprint in text and ids[1].fingerprint in text
    assert [p.endpoint for p in peers_of(result.table)] == ["tcp://127.0.0.1:1", "tcp://127.0.0.1:2"]


class FakeClock:
    """The lobby loops' time, which passes only when the test moves it on."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.slow
async def test_dialogs_on_both_sides_may_outlast_every_time_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The host's player takes longer to start than the joiner's patience with a silent host, and the joiner's
    player longer to accept than the host's patience with a silent joiner: nobody is dropped, because the
    loops keep answering while the dialogs are open.

    Both loops run on one fake clock. The test moves it on a keep-alive at a time, and each time waits until
    each side has heard the other at the new time before it moves it again."""
    patience = KEEPALIVE + 1.5
    clock = FakeClock()
    heard = {"host": 0.0, "joiner": 0.0}
    """When, on the fake clock, each side last received a frame."""

    class HeardHost(HostLobby):
        def receive(self, routing: bytes, raw: bytes, now: float) -> list[LobbyEvent]:
            heard["host"] = now
            return super().receive(routing, raw, now)

    class HeardGuest(GuestLobby):
        def receive(self, raw: bytes, now: float) -> list[LobbyEvent]:
            heard["joiner"] = now
            return super().receive(raw, now)

    monkeypatch.setattr(lobby_driver, "HostLobby", HeardHost)
    monkeypatch.setattr(lobby_driver, "GuestLobby", HeardGuest)

    async def outlast_patience() -> None:
        """Twice the patience passes, every keep-alive answered."""
        end = clock.now + 2 * patience
        while clock.now <= end:
            clock.now += KEEPALIVE
            await until(lambda: heard["host"] >= clock.now and heard["joiner"] >= clock.now)

    host_deciding, guest_deciding = asyncio.Event(), asyncio.Event()
    host_decided, guest_decided = asyncio.Event(), asyncio.Event()
    seen: list[TableInfo] = []

    async def slow_start(table: TableInfo) -> bool:
        host_deciding.set()
        await host_decided.wait()
        return True

    async def slow_accept(result: LobbyResult) -> bool:
        guest_deciding.set()
        await guest_decided.wait()
        return True

    host, lobby = await start_host(2, start_when=slow_start, idle_timeout=patience, clock=clock)
    running = asyncio.ensure_future(host.run())
    try:
        joining = asyncio.ensure_future(join_table(
            lobby, crypto.Identity.generate(), "Lee", "tcp://127.0.0.1:7800", confirm=slow_accept,
            on_change=seen.append, timeout=patience, clock=clock))
        await within(host_deciding.wait())
        await until(lambda: bool(seen) and seen[-1].free == 0)  # the joiner sees the full table
        await outlast_patience()
        assert not running.done() and not joining.done()
        host_decided.set()
        await within(guest_deciding.wait())
        await outlast_patience()
        assert not running.done() and not joining.done()
        guest_decided.set()
        result = await within(joining)
        assert result.seat == 1 and (await within(running)).genesis == result.genesis
    finally:
        running.cancel()
        await host.close()
