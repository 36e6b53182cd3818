"""Protocol version 2 over real sockets: four peers on 127.0.0.1 (ZeroMQ with CURVE, their own logs on disk),
one of them a modified peer that attacks the deal and signs its bad entries properly.

The honest peers must refuse the entry at the step where it is attempted, name the seat, and keep the entry
as evidence in their log files, which the offline verifier reads to the same verdict.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers.cheats import playing
from helpers.net import run_against, seated_by_lobby, within
from test_table_attacks import CHEATER
from test_table_proofs import Copier, Tagger

from p2pspades import log
from p2pspades.audit.verify import Status as Verdict
from p2pspades.audit.verify import verify_file
from p2pspades.bots import RandomBot
from p2pspades.net import Peer, Timing, start_game
from p2pspades.net import peer as peer_module
from p2pspades.rules import preset
from p2pspades.table import Table

pytestmark = [pytest.mark.net, pytest.mark.timeout(180)]
SEATS = 4
#: short steps, but a peer is not taken for away while another peer of this one process checks a proof
TIMING = Timing(tick=0.05, hello=0.3, heartbeat=0.3, away_after=5.0, linger=3.0)


async def seat_four(home: Path, cheater: type[Table] | None, monkeypatch: pytest.MonkeyPatch) -> list[Peer]:
    """Four peers of a classic game, seated by the lobby over loopback; seat CHEATER runs `cheater`."""
    seated = await seated_by_lobby(preset("classic", target=100, losing_threshold=-100), TIMING.heartbeat, 30)
    assert len(seated) == SEATS
    peers = []
    for i, (identity, mesh, result) in enumerate(seated):
        with monkeypatch.context() as patch:
            if result.seat == CHEATER and cheater is not None:  # the lobby gives seats in its own order
                patch.setattr(peer_module, "Table", cheater)
            peers.append(await start_game(result, identity, mesh, RandomBot(i), home=str(home / f"p{i}"),
                                          timing=TIMING))
    assert log.open_envelope(peers[0].table.entries[0]).payload["v"] == 2, "new games are version 2"
    return sorted(peers, key=lambda p: p.seat)


async def refused_over_sockets(
    home: Path, cheater: type[Table], kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    peers = await seat_four(home, cheater, monkeypatch)
    honest = [p for p in peers if p.seat != CHEATER]
    ended = await run_against(peers, CHEATER, 150)
    assert [e.status if e is not None else None for e in ended] == ["violation"] * 3, ended
    seqs = set()
    for p in honest:
        v = p.table.violation
        assert v is not None and v.seat == CHEATER and v.check == kind, v
        entry = log.open_envelope(v.evidence[0]).payload
        assert entry["t"] == kind and entry["s"] == CHEATER and entry["n"] == v.seq
        assert len(p.table.entries) == v.seq, "refused at its step: nothing after it was accepted"
        verdict = verify_file(p.store.log_path)
        assert verdict.status is Verdict.VIOLATION and verdict.violation is not None, verdict.summary
        found = verdict.violation
        assert (found.seat, found.check, found.seq) == (CHEATER, kind, v.seq)
        seqs.add(v.seq)
    assert len(seqs) == 1, "every honest peer names the same entry"
    assert all(p.table.entries == honest[0].table.entries for p in honest)


@pytest.mark.slow
async def test_a_lock_that_copies_opponents_positions_is_refused_over_sockets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await refused_over_sockets(tmp_path, playing(Copier), "lock", monkeypatch)


@pytest.mark.slow
async def test_a_tagged_shuffle_is_refused_over_sockets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await refused_over_sockets(tmp_path, playing(Tagger), "shuffle", monkeypatch)


@pytest.mark.slow
async def test_four_honest_peers_play_version_2_over_sockets_and_their_logs_verify(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    peers = await seat_four(tmp_path, None, monkeypatch)
    try:
        ended = await within(asyncio.gather(*(p.run() for p in peers)), 150)
    finally:
        for p in peers:
            await p.close()
    assert [e.status if e is not None else None for e in ended] == ["complete"] * SEATS
    assert all(p.table.entries == peers[0].table.entries for p in peers)
    for p in peers:
        assert verify_file(p.store.log_path).status is Verdict.VALID
