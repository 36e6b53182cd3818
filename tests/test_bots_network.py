"""The expert bot over real sockets: it thinks on its own peer's time, in a worker thread, while the peer's
event loop keeps serving the mesh; the game completes and its log verifies."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from helpers.net import seated_by_lobby, within

from p2pspades.audit.verify import Status as Verdict
from p2pspades.audit.verify import verify_file
from p2pspades.bots import ExpertBot, RandomBot, thinking
from p2pspades.net import Timing, start_game
from p2pspades.rules import Action, preset
from p2pspades.table import Decision
from p2pspades.table.players import AnyPlayer

pytestmark = [pytest.mark.net, pytest.mark.timeout(120)]
FAST = Timing(tick=0.05, hello=0.3, heartbeat=0.2, away_after=5.0, linger=3.0)


@pytest.mark.slow
async def test_an_expert_peer_plays_a_game_over_zeromq_without_stalling_its_loop(tmp_path: Path) -> None:
    rules = preset("two", target=10, losing_threshold=-10)  # one hand settles it
    seated = await seated_by_lobby(rules, FAST.heartbeat)

    expert = ExpertBot(7, time_budget=10.0, iterations=2000)  # a long think: the loop must run meanwhile
    thinks: list[tuple[float, float]] = []

    def timed(decision: Decision) -> Action:
        start = time.perf_counter()
        try:
            return expert(decision)
        finally:
            thinks.append((start, time.perf_counter()))

    players: list[AnyPlayer] = [RandomBot(0), thinking(timed)]
    peers = [
        await start_game(result, identity, mesh, players[i], home=str(tmp_path), timing=FAST)
        for i, (identity, mesh, result) in enumerate(seated)
    ]
    ticks: list[float] = []

    async def ticker() -> None:  # when the loop ran us
        while True:
            await asyncio.sleep(0.005)
            ticks.append(time.perf_counter())

    ticking = asyncio.ensure_future(ticker())
    try:
        ended = await within(asyncio.gather(*(p.run() for p in peers)), 100)
    finally:
        ticking.cancel()
        for peer in peers:
            await peer.close()
    assert [e.status for e in ended if e is not None] == ["complete", "complete"]
    assert peers[0].table.entries == peers[1].table.entries
    assert verify_file(peers[1].store.log_path).status is Verdict.VALID
    assert len(thinks) >= rules.hand_size  # it played its cards (and bid, and drew)
    # the loop ran all along: while the bot thought its longest, the loop ran the ticker again and again (a
    # bot thinking on the loop itself would leave no tick inside its think)
    start, end = max(thinks, key=lambda think: think[1] - think[0])
    inside = [t for t in ticks if start < t < end]
    assert len(inside) >= 5, (end - start, len(inside))
