"""The game driver in one process over real sockets: hostile traffic from a seated peer, status, resume."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import stat
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers.net import FAST, seated_by_lobby, until, within

from p2pspades import crypto, log
from p2pspades.audit.verify import Status as Verdict
from p2pspades.audit.verify import verify_file
from p2pspades.bots import RandomBot
from p2pspades.checks import Check
from p2pspades.cli.progress import status_text
from p2pspades.describe import dropped
from p2pspades.net import (
    Entries,
    Entry,
    Get,
    Hello,
    Peer,
    Status,
    flood,
    resume_game,
    start_game,
)
from p2pspades.net import frames as frames_module
from p2pspades.net import mesh as mesh_module
from p2pspades.net.flood import FAILURE_BUDGET, Refusals
from p2pspades.net.frames import Message, encode_message
from p2pspades.net.group import LocalGroup
from p2pspades.net.status import ClaimShown, Phase
from p2pspades.net.sync import ANSWERS_PER_SECOND
from p2pspades.rules import Action, preset
from p2pspades.table import Decision, DropKind, Dropped, Event, Rejected, TableStatus, Wanted

pytestmark = [pytest.mark.net, pytest.mark.timeout(90)]


async def seat_players(home: Path, players: int, **watch: object) -> tuple[list[crypto.Identity], list[Peer]]:
    """Run the lobby for `players` identities in this process and return their started peers."""
    rules = preset({2: "two", 3: "cutthroat3"}[players], target=10, losing_threshold=-10)
    seated = await seated_by_lobby(rules, FAST.heartbeat)
    peers = [
        await start_game(result, identity, mesh, RandomBot(i), home=str(home), timing=FAST,
                         **watch if i == 0 else {})  # type: ignore[arg-type]
        for i, (identity, mesh, result) in enumerate(seated)
    ]
    return [identity for identity, _, _ in seated], peers


async def close_all(peers: list[Peer]) -> None:
    for peer in peers:
        await peer.close()


async def test_hostile_traffic_from_a_seated_peer_is_dropped_and_the_game_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[Event] = []
    ids, peers = await seat_players(tmp_path, 2, on_event=seen.append)
    victim, cheat = peers
    try:
        genesis = victim.table.entries[0]
        other_game = log.seal({"g": b"\x99" * 16, "h": 0, "n": 1, "p": log.entry_hash(genesis), "s": 1,
                               "t": "accept"}, ids[1])
        stranger = log.seal({"g": victim.table.game_id, "h": 0, "n": 1, "p": log.entry_hash(genesis), "s": 1,
                             "t": "accept"}, crypto.Identity.generate())
        with caplog.at_level(logging.WARNING):
            cheat.mesh.send(0, Entry(genesis))  # seat 0's entry presented as seat 1's own
            cheat.mesh.send(0, Entries(0, (genesis, genesis)))  # stale copies
            cheat.mesh.send(0, Entries(1, (other_game, stranger, b"\x00not an envelope")))
            cheat.mesh.send(0, Hello(b"\x99" * 16, 1, 5, b"h" * 32))  # another game's HELLO
            ended = await within(asyncio.gather(victim.run(), cheat.run()), 60)
    finally:
        await close_all(peers)
    assert [e.status for e in ended if e is not None] == ["complete", "complete"]
    assert victim.table.entries == cheat.table.entries
    assert victim.store.read_entries() == cheat.store.read_entries() == victim.table.entries
    assert verify_file(victim.store.log_path).status is Verdict.VALID
    reasons = " | ".join(dropped(e) for e in seen if isinstance(e, Dropped))
    assert "another game" in reasons and "bad signature" in reasons and "malformed" in reasons
    assert "presented as its own but signed by seat 0" in caplog.text
    assert "HELLO from seat 1 for game 9999" in caplog.text


@pytest.mark.slow  # a game over sockets, a crash and a resume: seconds of waiting
async def test_a_crashed_peer_is_shown_as_away_then_resumes_where_it_stopped(tmp_path: Path) -> None:
    statuses: list[Status] = []
    ids, peers = await seat_players(tmp_path, 2, on_status=statuses.append)
    first, second = peers
    running = [asyncio.ensure_future(p.run()) for p in peers]
    try:
        await until(lambda: len(second.table.entries) >= 20)
        running[1].cancel()
        await second.close()  # the peer is gone: its sockets close, the way a killed process's do
        on_disk = second.store.read_entries()
        await until(lambda: any(s.waiting_for == 1 and s.away.get(1, -1) >= 0 for s in statuses))
        away = next(s for s in statuses if s.waiting_for == 1 and s.away.get(1, -1) >= 0)
        assert away.phase is Phase.WAITING
        assert status_text(away).startswith("waiting for seat 1 (disconnected ")
        again = await resume_game(second.store, ids[1], RandomBot(b"again"), timing=FAST)
        assert again.table.entries[: len(on_disk)] == on_disk
        assert again.mesh.endpoint == second.mesh.endpoint  # it listens where the others expect it
        ended = await within(asyncio.gather(running[0], again.run()), 60)
        await again.close()
    finally:
        for task in running:
            task.cancel()
        await close_all(peers)
    assert [e.status for e in ended if e is not None] == ["complete", "complete"]
    assert first.table.entries == again.table.entries
    assert first.store.read_entries() == again.store.read_entries()
    assert statuses[-1].finished


async def stopped_midway(tmp_path: Path, players: int) -> tuple[list[crypto.Identity], list[Peer]]:
    """A game of `players` whose every peer stops (its sockets closed, as a killed process's are) once the
    last seat holds 20 entries."""
    ids, peers = await seat_players(tmp_path, players)
    running = [asyncio.ensure_future(p.run()) for p in peers]
    try:
        await until(lambda: len(peers[-1].table.entries) >= 20)
    finally:
        for task in running:
            task.cancel()
        await close_all(peers)
    return ids, peers


@pytest.mark.slow  # a resume's countdown, then a whole game over sockets: seconds of waiting
async def test_a_resumed_peer_that_hears_nobody_counts_down_gives_up_and_marks_it(tmp_path: Path) -> None:
    """Nobody is left: the resumed seat writes nothing, counts down `Timing.alone`, stops with `gave_up`, and
    its game directory says so; resumed again while another seat comes back, it syncs and the mark goes."""
    ids, peers = await stopped_midway(tmp_path, 2)  # ids[k] is the key of peers[k]
    store = peers[1].store
    on_disk = store.read_entries()
    statuses: list[Status] = []
    alone = dataclasses.replace(FAST, alone=2.0)
    lonely = await resume_game(store, ids[1], RandomBot(b"late"), timing=alone, on_status=statuses.append)
    try:
        assert await within(lonely.run(), 30) is None
    finally:
        await lonely.close()
    assert lonely.gave_up and not lonely.table.finished
    assert store.read_entries() == on_disk, "a seat that gave up wrote nothing"
    assert store.unanswered() is not None
    counting = [s.sync_in or 0 for s in statuses if s.phase is Phase.SYNCING]
    assert sorted(set(counting), reverse=True) == [2, 1] == counting[:1] + counting[-1:], counting
    assert not any(s.answered for s in statuses)
    assert statuses[-1].phase is Phase.GAVE_UP and statuses[-1].sync_in == 2
    assert status_text(statuses[-1]) == "syncing: nobody answered within 2 s; stopped"
    # the other seat comes back too: both sync, play on, and the game is resumable no more for a good reason
    both = [await resume_game(p.store, key, RandomBot(p.seat), timing=alone)
            for key, p in zip(ids, peers, strict=True)]
    try:
        ended = await within(asyncio.gather(*(p.run() for p in both)), 60)
    finally:
        await close_all(both)
    assert [e.status for e in ended if e is not None] == ["complete", "complete"]
    assert not any(p.gave_up for p in both) and store.unanswered() is None


@pytest.mark.slow  # a resume's countdown over sockets: seconds of waiting
async def test_a_resumed_seat_that_hears_only_its_own_bot_seats_has_heard_nobody(tmp_path: Path) -> None:
    """A host resumed with its bot seats hears them at once; that says nothing about the third seat, whose
    program is gone: the host and its bots give up together, rather than play on among themselves."""
    ids, peers = await stopped_midway(tmp_path, 3)
    statuses: list[Status] = []
    alone = dataclasses.replace(FAST, alone=2.0)
    ours = [await resume_game(p.store, key, RandomBot(p.seat), timing=alone)
            for key, p in zip(ids[:2], peers[:2], strict=True)]
    ours[0].on_status = statuses.append
    group = LocalGroup(ours[0], ours[1:])
    try:
        assert await within(group.run(), 30) is None
    finally:
        await group.close()
    assert group.main.gave_up and not group.main.table.finished
    syncing = [s for s in statuses if s.phase is Phase.SYNCING]
    assert any(s.heard == 1 for s in syncing) and not any(s.answered for s in syncing)
    assert status_text(syncing[-1]).startswith(
        "syncing: waiting for the other seats to answer before playing on (only our own bots have answered); "
        "we give up in ")


async def test_a_flood_of_requests_gets_only_a_few_answers(tmp_path: Path) -> None:
    seen: list[Event] = []
    _, peers = await seat_players(tmp_path, 2, on_event=seen.append)
    victim, greedy = peers
    answered: list[tuple[float, Message]] = []  # when (on the loop's clock) the victim answered seat 1
    send = victim.mesh.send

    def counted(seat: int, message: Message) -> bool:
        if seat == 1 and isinstance(message, Entries):
            answered.append((asyncio.get_running_loop().time(), message))
        return send(seat, message)

    victim.mesh.send = counted  # type: ignore[method-assign]
    serving = asyncio.ensure_future(victim.run())
    try:
        for _ in range(200):
            greedy.mesh.send(0, Get(0, 1))
        # one link delivers in order: once the victim's table has dropped this, it has handled every GET
        greedy.mesh.send(0, Entries(1, (b"\x00 the last of the flood",)))
        await until(lambda: any(isinstance(e, Dropped) for e in seen))
    finally:
        serving.cancel()
        await close_all(peers)
    assert answered and all(a == Entries(0, (victim.table.entries[0],)) for _, a in answered)
    assert len(answered) < 200, "the rest were dropped"
    # never more than ANSWERS_PER_SECOND answers within one second, however long the flood took
    times = [t for t, _ in answered]
    assert all(later - t > 1.0 for t, later in zip(times, times[ANSWERS_PER_SECOND:], strict=False))


@pytest.mark.slow  # a whole game at a person's pace: seconds of waiting
async def test_a_player_that_takes_its_time_like_a_person_plays_a_whole_game(tmp_path: Path) -> None:
    _, peers = await seat_players(tmp_path, 2)
    bot = RandomBot(b"thinking")
    asked: list[Decision] = []

    async def person(decision: Decision) -> Action:
        asked.append(decision)
        await asyncio.sleep(0.01)  # the UI waits for a key press; the mesh keeps running meanwhile
        return bot(decision)

    peers[1].player = person
    try:
        ended = await within(asyncio.gather(*(p.run() for p in peers)), 60)
    finally:
        await close_all(peers)
    assert [e.status for e in ended if e is not None] == ["complete", "complete"]
    assert asked and all(d.view.seat == 1 for d in asked)
    assert peers[0].table.entries == peers[1].table.entries


async def test_every_entry_we_send_is_on_disk_with_everything_before_it(tmp_path: Path) -> None:
    _, peers = await seat_players(tmp_path, 2)
    sent: list[tuple[int, str]] = []
    problems: list[str] = []
    for peer in peers:
        broadcast = peer.mesh.broadcast

        def checked(message: Message, peer: Peer = peer, broadcast: Any = broadcast) -> None:
            if isinstance(message, Entry):
                header = log.validate_header(log.open_envelope(message.raw).payload)
                upto = peer.table.entries[: header.seq + 1]
                if peer.store.read_entries()[: header.seq + 1] != upto or peer._writer.unsynced:
                    problems.append(f"seat {peer.seat} sent entry {header.seq} before it was on disk")
                if header.type in ("commit", "dcommit"):
                    secret = peer.store.secrets_dir / f"hand-{header.hand:04d}"
                    if not secret.exists() or stat.S_IMODE(secret.stat().st_mode) != 0o600:
                        problems.append(f"seat {peer.seat} committed to hand {header.hand} before saving it")
                sent.append((peer.seat, header.type))
            broadcast(message)

        peer.mesh.broadcast = checked  # type: ignore[method-assign]
    try:
        ended = await within(asyncio.gather(*(p.run() for p in peers)), 60)
    finally:
        await close_all(peers)
    assert [e.status for e in ended if e is not None] == ["complete", "complete"]
    assert not problems, problems[:5]
    kinds = {kind for _, kind in sent}
    assert {"commit", "dcommit", "shuffle", "play", "end"} <= kinds and {s for s, _ in sent} == {0, 1}


@pytest.mark.slow
async def test_a_flood_costs_one_check_per_distinct_bad_entry_and_nothing_once_over_budget(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A joiner plays, but also floods seat 0 with entries whose signatures fail: hundreds of copies of one,
    then thousands of distinct ones. Counted, not timed (signature checks, and frames decoded):

    - the copies cost seat 0 one check, however many come;
    - the distinct ones cost at most its failure budget: then the flooder's entries are ignored (and why is
      logged), and its entry frames are not even decoded while that lasts;
    - a HELLO sent in the middle of the flood is answered, and the game completes (the flooder's own entries
      reach seat 0 through the third seat)."""
    caplog.set_level(logging.INFO, logger="p2pspades")
    monkeypatch.setattr(flood, "PENALTY", 60.0)  # the penalty outlasts the test, however slow it runs
    checked: Counter[bytes] = Counter()  # signature checks of forged entries, by signature
    forged_signatures: set[bytes] = set()
    verify = crypto.verify_signature

    def counted_verify(public: bytes, signature: bytes, data: bytes) -> bool:
        if signature in forged_signatures:
            checked[signature] += 1
        return verify(public, signature, data)

    late_frames: set[bytes] = set()  # the flood's frames sent once the flooder is over its budget
    late_decoded: list[int] = []
    decode = frames_module.decode_message

    def counted_decode(data: bytes) -> Message:
        if data in late_frames:
            late_decoded.append(len(data))
        return decode(data)

    monkeypatch.setattr(crypto, "verify_signature", counted_verify)
    monkeypatch.setattr(mesh_module, "decode_message", counted_decode)
    _, peers = await seat_players(tmp_path, 3)
    victim, honest, flooder = peers
    genesis = victim.table.entries[0]
    rogue = flooder.seat  # the lobby seats joiners in the order they arrive

    def forged(n: int) -> bytes:
        """Seat 0's genesis with the last two bytes of its signature replaced by `n`: a bad signature."""
        raw = genesis[:-2] + n.to_bytes(2, "big")
        assert raw != genesis
        forged_signatures.add(log.open_envelope(raw).signature)
        return raw

    def signature(raw: bytes) -> bytes:
        return log.open_envelope(raw).signature

    ours = int.from_bytes(genesis[-2:], "big")
    numbers = iter(n for n in range(2**16) if n != ours)
    copy, probe = forged(next(numbers)), forged(next(numbers))
    distinct = [forged(next(numbers)) for _ in range(40 * 200)]
    late = [forged(next(numbers)) for _ in range(20 * 200)]
    marker = Hello(victim.table.game_id, rogue, 1, log.entry_hash(genesis))  # "I hold the genesis only"
    answered: list[int] = []  # forged signatures checked when seat 0 answered a marker
    send = victim.mesh.send

    def recorded(seat: int, message: Message) -> bool:
        if seat == rogue and isinstance(message, Entries) and message.start == 1:
            answered.append(sum(checked.values()))
        return send(seat, message)

    victim.mesh.send = recorded  # type: ignore[method-assign]
    running = [asyncio.ensure_future(p.run()) for p in peers]
    try:
        await until(lambda: len(victim.table.entries) >= 5, 30)  # the game is under way
        # copies, fewer than the budget; one link delivers in order, so once the probe is checked every
        # copy before it has been handled
        for _ in range(2):
            flooder.mesh.send(0, Entries(1, (copy,) * 200))
        flooder.mesh.send(0, Entries(1, (probe,)))
        await until(lambda: checked[signature(probe)] == 1, 30)
        assert checked[signature(copy)] == 1, "the copies of a refused entry cost one check"
        # distinct bad entries, far more than the budget, with a HELLO in the middle of them
        frames = [Entries(1, tuple(distinct[k:k + 200])) for k in range(0, len(distinct), 200)]
        for frame in frames[:20]:
            flooder.mesh.send(0, frame)
        flooder.mesh.send(0, marker)
        for frame in frames[20:]:
            flooder.mesh.send(0, frame)
        await until(lambda: len(answered) >= 1, 60)
        await until(lambda: "entries are ignored" in caplog.text, 60)
        spent = sum(checked.values())
        assert spent <= FAILURE_BUDGET + 2, f"{spent} forged signatures checked of {2 + len(distinct)} sent"
        # while its penalty lasts, the flooder's entry frames are not even decoded; the HELLO behind them
        # on the same link says when they have all been read
        late_batch = [Entries(1, tuple(late[k:k + 200])) for k in range(0, len(late), 200)]
        late_frames.update(encode_message(frame) for frame in late_batch)
        ignored = victim.mesh.ignored
        for frame in late_batch:
            flooder.mesh.send(0, frame)
        flooder.mesh.send(0, marker)
        await until(lambda: len(answered) >= 2, 60)
        assert victim.mesh.ignored >= ignored + len(late_batch)
        assert late_decoded == [], "a frame of the flood was decoded during the penalty"
        assert sum(checked[signature(raw)] for raw in late) == 0
        ended = await within(asyncio.gather(*running), 90)
    finally:
        for task in running:
            task.cancel()
        await close_all(peers)
    assert [e.status for e in ended if e is not None] == ["complete"] * 3
    assert victim.table.entries == honest.table.entries == flooder.table.entries
    assert rogue in {log.open_envelope(raw).payload["s"] for raw in victim.table.entries[1:]}
    cut_off = [r.getMessage() for r in caplog.records if "entries are ignored" in r.getMessage()]
    assert cut_off and cut_off[0].startswith(f"seat {rogue} sent more than") and "bad signature" in cut_off[0]


def test_only_refusals_that_the_bytes_decide_are_remembered() -> None:
    """An entry refused for what its bytes are stays refused; one that is early, not chained yet, stale or
    out of turn may hold later (after a sync, or once a timeout has run out), so it is checked again."""
    for_good = {DropKind.OVERSIZED, DropKind.MALFORMED, DropKind.OTHER_GAME, DropKind.NO_SUCH_SEAT,
                DropKind.BAD_SIGNATURE}
    for kind in DropKind:
        refusals = Refusals()
        refusals.note(b"h", [Dropped(kind, 1, 3)])
        assert (refusals.why(b"h") == kind.value) == (kind in for_good), kind
        assert (refusals.why(b"h") is None) == (kind not in for_good), kind
    refusals = Refusals()
    refusals.note(b"h", [Wanted(1)])
    refusals.note(b"h", [Rejected(1, Check.TURN, "out of turn", b"raw")])
    refusals.note(b"h", [])  # a copy of an entry the table holds
    assert len(refusals) == 0


def test_the_memory_of_refused_entries_is_bounded_and_keeps_the_recently_seen() -> None:
    refusals = Refusals(kept=2)
    bad = [Dropped(DropKind.BAD_SIGNATURE, 1, 3)]
    refusals.note(b"a", bad)
    refusals.note(b"b", bad)
    assert refusals.why(b"a") == "bad signature"  # seen again: now the most recent
    refusals.note(b"c", bad)
    assert len(refusals) == 2
    assert refusals.why(b"b") is None and refusals.why(b"a") == refusals.why(b"c") == "bad signature"


def test_a_status_is_data_that_the_cli_puts_into_words() -> None:
    waiting = Status(Phase.WAITING, 0, 12, 2, {}, "bid")
    assert status_text(waiting) == "waiting for seat 2 (bid)"
    lost = Status(Phase.WAITING, 0, 12, 2, {2: 7}, "bid")
    never = Status(Phase.WAITING, 0, 12, 2, {2: -1}, "bid")
    assert status_text(lost) == "waiting for seat 2 (disconnected 7 s)"
    assert status_text(never) == "waiting for seat 2 (not connected yet)"
    assert status_text(Status(Phase.OUR_TURN, 0, 12, 0, {}, "play")) == "your turn"
    assert status_text(Status(Phase.SENDING, 0, 12, 0, {}, "lock")) == "sending our lock"
    assert status_text(Status(Phase.IDLE, 0, 12)) == "waiting"
    assert status_text(Status(Phase.SYNCING, 0, 12, heard=1, others=3, answered=True)) == (
        "syncing with the other seats before playing on (heard from 1 of 3)")
    assert status_text(Status(Phase.SYNCING, 0, 12, heard=1, others=3)) == (
        "syncing: waiting for the other seats to answer before playing on (only our own bots have answered)")
    assert status_text(Status(Phase.SYNCING, 0, 12, heard=0, others=3)) == (
        "syncing: waiting for the other seats to answer before playing on")
    assert status_text(Status(Phase.SYNCING, 0, 12, heard=0, others=3, sync_in=42)) == (
        "syncing: waiting for the other seats to answer before playing on; we give up in 42 s")
    assert status_text(Status(Phase.SYNCING, 0, 12, heard=1, others=3, sync_in=4, answered=True)) == (
        "syncing with the other seats before playing on (heard from 1 of 3); playing on without the others "
        "in 4 s")
    assert status_text(Status(Phase.SYNCING, 0, 12, heard=3, others=3, sync_in=4, answered=True)) == (
        "syncing with the other seats before playing on (heard from 3 of 3)")
    claim = ClaimShown(voters=(0, 1), waits=(30, 60), refused=(), missing=(3,))
    assert status_text(Status(Phase.WAITING, 0, 12, 2, {}, "play", claim=claim)) == (
        "waiting for seat 2 (play); seats 0, 1 voted it out after 30 s or 60 s (the timeout in force); "
        "seat 3 did not vote yet")
    void = ClaimShown(voters=(0,), waits=(30,), refused=(3,), missing=(1,))
    assert status_text(Status(Phase.WAITING, 0, 12, 2, {}, "play", claim=void)) == (
        "waiting for seat 2 (play); seat 0 voted it out after 30 s (the timeout in force), but seat 3 took "
        "its entry first: the claim is void")
    over = Status(Phase.OVER, 0, 90, outcome=TableStatus.COMPLETE)
    assert over.finished and not waiting.finished
    assert status_text(over) == "game over: complete"
