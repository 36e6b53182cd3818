"""The nil card pass over real sockets: four peers on 127.0.0.1 (ZeroMQ with CURVE, their own logs on disk)
in a partnership game with `nil_pass`. Honest peers pass and their logs verify; a modified peer that hands its
partner a wrong key, signed properly, is named by every peer and by the offline verifier from their files."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers.cheats import WrongPassKey, playing
from helpers.net import run_against, seated_by_lobby, within
from test_net_proofs import TIMING
from test_table_pass import NilSeat, kinds

from p2pspades import log
from p2pspades.audit.verify import Status as Verdict
from p2pspades.audit.verify import verify_file
from p2pspades.bots.heuristic import HeuristicBot
from p2pspades.checks import Check
from p2pspades.net import Peer, start_game
from p2pspades.net import peer as peer_module
from p2pspades.rules import preset
from p2pspades.table import Table

pytestmark = [pytest.mark.net, pytest.mark.slow, pytest.mark.timeout(240)]
RULES = preset("classic", nil_pass=2, target=100, losing_threshold=-100)
NIL = 0  # bids nil whenever it may, so its side passes in every hand


async def seat_four(
    home: Path, monkeypatch: pytest.MonkeyPatch, cheater: type[Table] | None = None
) -> list[Peer]:
    seated = await seated_by_lobby(RULES, TIMING.heartbeat, 30)
    peers = []
    for identity, mesh, result in seated:
        seat = result.seat
        player = NilSeat(seat) if seat == NIL else HeuristicBot(seat)
        with monkeypatch.context() as patch:
            if seat == NIL and cheater is not None:
                patch.setattr(peer_module, "Table", cheater)
            peers.append(await start_game(result, identity, mesh, player, home=str(home / f"p{seat}"),
                                          timing=TIMING))
    return sorted(peers, key=lambda p: p.seat)


async def test_four_peers_pass_cards_over_sockets_and_their_logs_verify(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    peers = await seat_four(tmp_path, monkeypatch)
    try:
        ended = await within(asyncio.gather(*(p.run() for p in peers)), 200)
    finally:
        for p in peers:
            await p.close()
    assert [e.status if e is not None else None for e in ended] == ["complete"] * 4
    assert all(p.table.entries == peers[0].table.entries for p in peers)
    assert kinds(peers[0].table.entries).count("pass") >= 2
    for p in peers:
        assert verify_file(p.store.log_path).status is Verdict.VALID


async def test_a_wrong_key_handed_over_is_named_over_sockets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    peers = await seat_four(tmp_path, monkeypatch, playing(WrongPassKey))
    honest = [p for p in peers if p.seat != NIL]
    ended = await run_against(peers, NIL, 200)
    assert [e.status if e is not None else None for e in ended] == ["violation"] * 3, ended
    seqs = set()
    for p in honest:
        v = p.table.violation
        assert v is not None and (v.seat, v.check) == (NIL, Check.PASS), v
        entry = log.open_envelope(v.evidence[0]).payload
        assert entry["t"] == "pass" and entry["s"] == NIL and entry["n"] == v.seq
        verdict = verify_file(p.store.log_path)
        assert verdict.status is Verdict.VIOLATION and verdict.violation is not None, verdict.summary
        found = verdict.violation
        assert (found.seat, found.check, found.seq) == (NIL, Check.PASS, v.seq)
        seqs.add(v.seq)
    assert len(seqs) == 1
