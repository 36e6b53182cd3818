"""The game mesh over real ZeroMQ on 127.0.0.1: delivery, CURVE/ZAP access control, hostile frames."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
import zmq
import zmq.asyncio
from helpers.net import (
    Player,
    build_mesh,
    close_all,
    next_received,
    received_now,
    until,
    within,
)

from p2pspades.net import frames as frames_module
from p2pspades.net import mesh as mesh_module
from p2pspades.net.auth import AccessList, BadKey, CurveKeys, curve_public_key, link_id
from p2pspades.net.frames import (
    MAX_CONTROL,
    MAX_FRAME,
    Entries,
    Entry,
    Get,
    Hello,
    Message,
    encode_message,
    pack,
)
from p2pspades.net.mesh import ENTRY_QUEUE, LinkUp, Mesh, MeshError, PeerAddress, Received, Refused, announced

pytestmark = [pytest.mark.net, pytest.mark.timeout(60)]


def raw_dealer(
    context: zmq.Context[Any],
    endpoint: str,
    server: bytes,
    keys: CurveKeys | None,
    rid: bytes | None,
    watch: list[zmq.Socket[Any]] | None = None,
    events: int = 0,
) -> zmq.Socket[Any]:
    """A bare DEALER that talks to a peer's inbox the way a hostile program could. With `watch`, a monitor of
    `events` is attached before it connects (so no event can happen before anyone listens) and appended."""
    sock: zmq.Socket[Any] = context.socket(zmq.DEALER)
    if watch is not None:
        watch.append(sock.get_monitor_socket(events))
    sock.setsockopt(zmq.LINGER, 0)
    if keys is not None:
        sock.setsockopt(zmq.CURVE_SERVERKEY, curve_public_key(server))
        sock.setsockopt(zmq.CURVE_PUBLICKEY, keys.public)
        sock.setsockopt(zmq.CURVE_SECRETKEY, keys.secret)
    if rid is not None:
        sock.setsockopt(zmq.ROUTING_ID, rid)
    sock.connect(endpoint)
    return sock


def rid(sender: Player, receiver: Player) -> bytes:
    return link_id(sender.curve, receiver.curve.public, sending=True)


async def test_four_peers_exchange_entries() -> None:
    _, meshes = await build_mesh(4)
    try:
        for seat, mesh in enumerate(meshes):
            mesh.broadcast(Entry(b"entry from seat %d" % seat))
        for seat, mesh in enumerate(meshes):
            got = {}
            for _ in range(3):
                event = await next_received(mesh)
                assert isinstance(event.message, Entry)
                got[event.seat] = event.message.raw
            assert got == {s: b"entry from seat %d" % s for s in range(4) if s != seat}
        # a request/answer round trip goes back through the asker's inbox
        meshes[2].send(0, Get(0, 2))
        ask = await next_received(meshes[0])
        assert ask == Received(2, Get(0, 2))
        meshes[0].send(ask.seat, Entries(0, (b"a", b"b")))
        answer = await next_received(meshes[2])
        assert answer == Received(0, Entries(0, (b"a", b"b")))
        assert all(mesh.dropped == 0 for mesh in meshes)
        assert meshes[1].silent_for(3) is not None
    finally:
        await close_all(meshes)


async def test_link_up_is_reported_for_every_other_seat() -> None:
    _, meshes = await build_mesh(3)
    try:
        ups: set[int] = set()
        while len(ups) < 2:
            event = await within(meshes[0].next_event())
            if isinstance(event, LinkUp):
                ups.add(event.seat)
        assert ups == {1, 2}
    finally:
        await close_all(meshes)


async def test_a_stranger_cannot_connect_or_inject() -> None:
    players, meshes = await build_mesh(2)
    stranger = Player()
    context: zmq.Context[Any] = zmq.Context()
    try:
        # a stranger with a perfectly good CURVE key that is not seated
        victim = meshes[0].endpoint
        monitors: list[zmq.Socket[Any]] = []
        sock = raw_dealer(context, victim, players[0].public, stranger.curve, rid(stranger, players[0]),
                          monitors, zmq.EVENT_HANDSHAKE_FAILED_AUTH)
        monitor = monitors[-1]
        for _ in range(5):
            sock.send(encode_message(Entry(b"forged")))
        # wait until its handshake has been refused: no frame of it can get through after that
        assert await asyncio.to_thread(monitor.poll, 10_000)
        # and a plain (non-CURVE) socket gets nowhere either
        refused = zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL
        plain = raw_dealer(context, meshes[0].endpoint, players[0].public, None, rid(players[1], players[0]),
                           monitors, refused)
        plain_monitor = monitors[-1]
        plain.send(encode_message(Entry(b"forged plain")))
        assert await asyncio.to_thread(plain_monitor.poll, 10_000)
        # the first frame delivered is the genuine one, and nothing else waits behind it
        meshes[1].send(0, Entry(b"genuine"))
        assert await next_received(meshes[0]) == Received(1, Entry(b"genuine"))
        assert received_now(meshes[0]) == []
        monitor.close(linger=0)
        plain_monitor.close(linger=0)
    finally:
        context.destroy(linger=0)
        await close_all(meshes)


async def test_refused_peer_is_told() -> None:
    """A peer whose key differs from the one the table knows sees `Refused`, not silence."""
    players = [Player(), Player()]
    impostor = Player()
    meshes = [Mesh(players[0].curve), Mesh(impostor.curve)]
    try:
        for mesh in meshes:
            await mesh.start()
        table = [PeerAddress(0, meshes[0].endpoint, players[0].public),
                 PeerAddress(1, meshes[1].endpoint, players[1].public)]
        meshes[0].admit(0, table)
        meshes[1].admit(1, table)

        async def refused() -> Refused:
            while True:
                event = await meshes[1].next_event()
                if isinstance(event, Refused):
                    return event

        assert await within(refused()) == Refused(0)
    finally:
        await close_all(meshes)


async def test_a_seated_peer_cannot_claim_another_seat() -> None:
    players = [Player() for _ in range(3)]
    # seats 0 and 2 are honest meshes; seat 1 is played by the raw sockets below
    meshes = [Mesh(players[0].curve, heartbeat=0.2), Mesh(players[2].curve, heartbeat=0.2)]
    context: zmq.Context[Any] = zmq.Context()
    try:
        for mesh in meshes:
            await mesh.start()
        table = [PeerAddress(0, meshes[0].endpoint, players[0].public),
                 PeerAddress(1, "tcp://127.0.0.1:9", players[1].public),
                 PeerAddress(2, meshes[1].endpoint, players[2].public)]
        meshes[0].admit(0, table)
        meshes[1].admit(2, table)
        victim = meshes[0]
        # seat 1 speaks with its own key: whatever it writes, its frames arrive as seat 1's
        own_id = rid(players[1], players[0])
        sock = raw_dealer(context, victim.endpoint, players[0].public, players[1].curve, own_id)
        sock.send(encode_message(Hello(b"g" * 16, 2, 0, b"")))  # claims seat 2: dropped
        sock.send(encode_message(Entry(b"signed by seat 2?")))
        assert await next_received(victim) == Received(1, Entry(b"signed by seat 2?"))
        # seat 2's routing id is a secret between seats 2 and 0, so seat 1 cannot take that link over:
        # under any other routing id its frames are dropped, and seat 2's link keeps working
        liars = [
            raw_dealer(context, victim.endpoint, players[0].public, players[1].curve, fake)
            for fake in (rid(players[2], players[1]), b"\x01seat-2", rid(players[1], players[2]))
        ]
        for liar in liars:
            liar.send(encode_message(Entry(b"as seat 2")))
        await until(lambda: victim.dropped >= 4)  # every frame above has been handled
        meshes[1].send(0, Entry(b"real seat 2"))
        assert await next_received(victim) == Received(2, Entry(b"real seat 2"))
        assert received_now(victim) == []
        assert victim.dropped == 4
    finally:
        context.destroy(linger=0)
        await close_all(meshes)


async def test_hostile_frames_are_dropped_and_the_peer_keeps_working() -> None:
    victim_player, seat1 = Player(), Player()
    victim = Mesh(victim_player.curve)
    context: zmq.Context[Any] = zmq.Context()
    await victim.start()
    # seat 1 is played by the hostile program below; nobody listens at its endpoint
    victim.admit(0, [PeerAddress(0, victim.endpoint, victim_player.public),
                     PeerAddress(1, "tcp://127.0.0.1:9", seat1.public)])
    host, port = victim.endpoint.removeprefix("tcp://").rsplit(":", 1)

    def seated_socket() -> zmq.Socket[Any]:
        own_id = rid(seat1, victim_player)
        return raw_dealer(context, victim.endpoint, victim_player.public, seat1.curve, own_id)

    try:
        # raw TCP garbage and a fake ZMTP greeting
        fake_greeting = b"\xff" + b"\x00" * 8 + b"\x7f\x03\x00NULL" + b"\x00" * 60
        junks = (b"\x00" * 64, b"GET / HTTP/1.1\r\n\r\n", fake_greeting)
        for junk in junks:
            with socket.create_connection((host, int(port)), timeout=5) as tcp:
                tcp.sendall(junk)
        # malformed frames from a seated key (the strongest position a hostile sender can have)
        sock = seated_socket()
        hostile = [
            b"",
            b"\xc1garbage",
            b"\x93\x01\x02\x03",
            pack({"k": "launch", "x": 1}),
            pack({"e": 5, "k": "entry"}),
            pack({"a": 9, "b": 3, "k": "get"}),
            pack({"g": b"g" * 16, "h": b"", "k": "hello", "n": 0, "s": 1, "v": 1})[:-3],
        ]
        for frame in hostile:
            sock.send(frame)
        sock.send_multipart([b"two", b"parts"])
        sock.send(encode_message(Entry(b"still listening")))
        assert await next_received(victim) == Received(1, Entry(b"still listening"))
        assert victim.dropped == len(hostile) + 1
        # an oversized frame: libzmq cuts that connection before it reaches Python
        sock.send(b"\x00" * (MAX_FRAME + 1))
        sock.close(linger=0)
        again = seated_socket()
        again.send(encode_message(Entry(b"after the flood")))
        assert await next_received(victim) == Received(1, Entry(b"after the flood"))
        assert victim.dropped == len(hostile) + 1
    finally:
        context.destroy(linger=0)
        await victim.close()


async def test_a_restarted_peer_takes_its_connection_over() -> None:
    players, meshes = await build_mesh(2)
    try:
        meshes[1].send(0, Entry(b"before"))
        assert await next_received(meshes[0]) == Received(1, Entry(b"before"))
        endpoint = meshes[1].endpoint
        await meshes[1].close()
        # the same player comes back on the same endpoint
        meshes[1] = Mesh(players[1].curve, bind=endpoint)
        await meshes[1].start()
        meshes[1].admit(1, [PeerAddress(0, meshes[0].endpoint, players[0].public),
                            PeerAddress(1, endpoint, players[1].public)])
        meshes[1].send(0, Entry(b"after"))
        assert await next_received(meshes[0]) == Received(1, Entry(b"after"))
        meshes[0].send(1, Entry(b"welcome back"))
        assert await next_received(meshes[1]) == Received(0, Entry(b"welcome back"))
    finally:
        await close_all(meshes)


async def test_sends_to_a_dead_peer_never_block() -> None:
    _, meshes = await build_mesh(2)
    try:
        await meshes[1].close()
        results = [meshes[0].send(1, Entry(b"x" * 1000)) for _ in range(5000)]
        assert not all(results)  # the queue filled up and the rest was dropped, without waiting
    finally:
        await close_all(meshes)


async def test_bad_uses_of_the_mesh_are_clear_errors() -> None:
    player = Player()
    mesh = Mesh(player.curve, bind="tcp://127.0.0.1:1")
    with pytest.raises(MeshError, match="start the mesh"):
        mesh.admit(0, [])
    mesh2 = Mesh(player.curve, bind="nonsense://here")
    with pytest.raises(MeshError, match="cannot listen"):
        await mesh2.start()
    await mesh2.close()
    await mesh.close()
    with pytest.raises(BadKey):
        curve_public_key(b"\x01" * 31)
    with pytest.raises(BadKey, match="same key"):
        p = Player()
        AccessList().admit({0: p.public, 1: p.public})


async def test_a_refused_link_is_tried_again_once_the_other_seat_allows_us() -> None:
    a, b = Player(), Player()
    early, late = Mesh(a.curve, heartbeat=0.2), Mesh(b.curve, heartbeat=0.2)
    await early.start()
    await late.start()
    table = [PeerAddress(0, early.endpoint, a.public), PeerAddress(1, late.endpoint, b.public)]
    try:
        early.admit(0, table)  # connects at once; the other seat still refuses everybody
        refused = await within(early.next_event())
        while not isinstance(refused, Refused):
            refused = await within(early.next_event())
        assert refused == Refused(1)
        late.allow(1, table)  # it accepted the genesis: now it lets the seat map in
        late.admit(1, table)

        async def delivered() -> Received:
            while True:  # frames queued on the refused connection are gone: send until one arrives
                early.send(1, Entry(b"at last"))
                event = await asyncio.wait_for(late.next_event(), 0.3)
                if isinstance(event, Received):
                    return event

        async def retry() -> Received:
            while True:
                try:
                    return await delivered()
                except TimeoutError:
                    continue

        assert await within(retry(), 20) == Received(0, Entry(b"at last"))
    finally:
        await close_all([early, late])


async def test_a_wildcard_bind_announces_a_reachable_address() -> None:
    assert announced("tcp://0.0.0.0:5555", "192.0.2.7") == "tcp://192.0.2.7:5555"
    assert announced("tcp://127.0.0.1:5555", "192.0.2.7") == "tcp://127.0.0.1:5555"
    assert announced("tcp://[::]:5555", "fe80::1") == "tcp://[fe80::1]:5555"
    with pytest.raises(MeshError, match="which address to announce"):
        announced("tcp://0.0.0.0:5555", None)
    mesh = Mesh(Player().curve, bind="tcp://127.0.0.1:*", announce="192.0.2.7")
    await mesh.start()
    try:
        assert mesh.endpoint == mesh.bound and mesh.bound.startswith("tcp://127.0.0.1:")
        assert mesh.poll_event() is None
    finally:
        await mesh.close()


async def links_up(mesh: Mesh, seats: set[int]) -> None:
    """Wait until `mesh` has reported its links to `seats` up (and taken those events)."""
    ups: set[int] = set()
    while not seats <= ups:
        event = await within(mesh.next_event())
        if isinstance(event, LinkUp):
            ups.add(event.seat)


def taken_now(mesh: Mesh) -> list[Received]:
    """The frames `mesh` hands out just now, in its order (link events are passed over)."""
    got: list[Received] = []
    while (event := mesh.poll_event()) is not None:
        if isinstance(event, Received):
            got.append(event)
    return got


async def test_control_frames_are_handed_out_ahead_of_entries_and_seats_take_turns_with_theirs() -> None:
    _, meshes = await build_mesh(3)
    victim, busy, quiet = meshes
    try:
        await links_up(victim, {1, 2})
        for n in range(5):
            busy.send(0, Entry(b"busy %d" % n))
        busy.send(0, Hello(b"g" * 16, 1, 0, b""))  # behind its own entries on the same link
        for n in range(2):
            quiet.send(0, Entry(b"quiet %d" % n))
        quiet.send(0, Get(0, 1))
        await until(lambda: victim.waiting >= 9)
        got = taken_now(victim)
    finally:
        await close_all(meshes)
    assert sorted(map(str, got[:2])) == sorted(map(str, [Received(1, Hello(b"g" * 16, 1, 0, b"")),
                                                         Received(2, Get(0, 1))]))
    entries = got[2:]
    assert [e.seat for e in entries] in ([1, 2, 1, 2, 1, 1, 1], [2, 1, 2, 1, 1, 1, 1]), entries
    assert [e.message for e in entries if e.seat == 1] == [Entry(b"busy %d" % n) for n in range(5)]


async def test_a_muted_seat_is_not_read_but_its_control_frames_are(monkeypatch: pytest.MonkeyPatch) -> None:
    decoded: list[int] = []
    decode = frames_module.decode_message

    def counted(data: bytes) -> Message:
        decoded.append(len(data))
        return decode(data)

    monkeypatch.setattr(mesh_module, "decode_message", counted)
    _, meshes = await build_mesh(2)
    victim, flooder = meshes
    loop = asyncio.get_running_loop()
    big = Entries(1, (b"x" * MAX_CONTROL,) * 4)
    try:
        await links_up(victim, {1})
        flooder.send(0, Entry(b"queued before"))
        await until(lambda: victim.waiting >= 1)
        victim.mute(1, loop.time() + 60)  # what was waiting goes too
        assert victim.waiting == 0 and victim.ignored == 1
        decoded.clear()
        for _ in range(3):
            flooder.send(0, big)
        flooder.send(0, Entry(b"small"))  # as small as a control frame: read, and dropped for what it is
        flooder.send(0, Hello(b"g" * 16, 1, 0, b""))
        assert await next_received(victim) == Received(1, Hello(b"g" * 16, 1, 0, b""))
        assert victim.ignored == 1 + 4
        assert all(size <= MAX_CONTROL for size in decoded), decoded  # no entry frame was decoded
        victim.mute(1, loop.time())  # the penalty is over
        flooder.send(0, big)
        assert await next_received(victim) == Received(1, big)
    finally:
        await close_all(meshes)


async def test_a_seat_with_too_many_entry_frames_waiting_has_the_next_ones_dropped() -> None:
    _, meshes = await build_mesh(2)
    victim, flooder = meshes
    try:
        await links_up(victim, {1})
        for n in range(ENTRY_QUEUE + 10):
            flooder.send(0, Entry(b"%d" % n))
        flooder.send(0, Hello(b"g" * 16, 1, 0, b""))
        await until(lambda: victim.waiting + victim.ignored >= ENTRY_QUEUE + 11)
        got = taken_now(victim)
    finally:
        await close_all(meshes)
    assert victim.ignored == 10
    assert got[0] == Received(1, Hello(b"g" * 16, 1, 0, b""))
    assert [r.message for r in got[1:]] == [Entry(b"%d" % n) for n in range(ENTRY_QUEUE)]
