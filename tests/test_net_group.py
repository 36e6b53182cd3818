"""The seats one process runs together (`net.group.LocalGroup`), over real sockets on 127.0.0.1: one failing
bot seat leaves the game alone, and the other seats of the process play on."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest
from helpers.net import FAST, seated_by_lobby, within

from p2pspades.audit.verify import Status as Verdict
from p2pspades.audit.verify import verify_file
from p2pspades.bots import RandomBot
from p2pspades.net import Peer, start_game
from p2pspades.net.group import LocalGroup
from p2pspades.rules import Action, preset
from p2pspades.table import Decision

pytestmark = [pytest.mark.net, pytest.mark.timeout(120)]
QUICK = {"auto": 8.0, "decision": 8.0}
"""Step timeouts short enough to see a gone seat abandoned within the test, long enough that no seat of a
loaded machine (three peers share this process) is taken for gone."""


async def three_peers(home: Path) -> list[Peer]:
    seated = await seated_by_lobby(preset("cutthroat3", target=200, losing_threshold=-200), FAST.heartbeat)
    peers = [await start_game(result, identity, mesh, RandomBot(i), home=str(home), timing=FAST,
                              timeouts=QUICK) for i, (identity, mesh, result) in enumerate(seated)]
    return sorted(peers, key=lambda p: p.seat)  # the lobby seats joiners in the order they arrive


@pytest.mark.slow
async def test_a_failing_bot_seat_leaves_alone_and_the_other_seats_of_the_process_play_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Seat 0 and a bot seat are one process's group; the third seat is another machine. The bot seat's
    player raises at every choice (the peer plays its first legal choice instead), then its disk fills up in
    the middle of the first hand: its peer fails. Our seat and the third go on, vote that it stopped
    answering, and their votes make the certificate that ends the game; our group returns that end instead of
    raising. In cutthroat, with every total still 0, both signers would win by a forfeit, so the certificate
    proves nothing: the game ends contested, and nobody wins."""
    caplog.set_level(logging.INFO, logger="p2pspades")
    ours, bot, other = await three_peers(tmp_path)
    asked: list[Decision] = []

    def broken(decision: Decision) -> Action:
        asked.append(decision)
        raise RuntimeError("a bug in the bot")

    bot.player = broken
    append = bot._writer.append

    def disk_full(raw: bytes, *args: Any, **kwargs: Any) -> None:
        if len(bot.table.entries) >= 30:
            raise OSError(28, "No space left on device")
        append(raw, *args, **kwargs)

    bot._writer.append = disk_full  # type: ignore[method-assign]
    group = LocalGroup(ours, [bot])
    try:
        ended, elsewhere = await within(asyncio.gather(group.run(), other.run()), 90)
    finally:
        await group.close()
        await other.close()
    assert asked, "the bot seat played (its first legal choices) before its disk filled up"
    assert ended is not None and elsewhere is not None
    assert ended.status == elsewhere.status == "abandoned"
    assert ours.table.entries == other.table.entries
    gone = bot.seat  # the lobby seats joiners in the order they arrive
    result = ours.table.result
    assert result is not None and result.seat == gone and result.contested and not result.forfeit, result
    assert result.winners == () and result.signers == tuple(sorted({ours.seat, other.seat})), result
    assert ours.table.claim is not None and ours.table.claim.accused == gone
    assert ours.table.claim.voters == tuple(sorted({ours.seat, other.seat}))
    verdict = verify_file(ours.store.log_path)
    assert verdict.status is Verdict.INCOMPLETE, verdict.summary
    voters = ", ".join(map(str, sorted({ours.seat, other.seat})))
    assert f"seats {voters} claimed that seat {gone} kept them waiting" in verdict.summary, verdict.summary
    assert "past the timeout in force (8 s)" in verdict.summary and "nobody wins" in verdict.summary, (
        verdict.summary)
    failed = [r for r in caplog.records if "failed and leaves the game" in r.getMessage()]
    assert len(failed) == 1 and failed[0].getMessage().startswith(f"seat {gone}, a bot this machine runs")
    assert "No space left on device" in failed[0].getMessage()


async def test_a_failure_of_our_own_seat_is_raised(tmp_path: Path) -> None:
    ours, bot, other = await three_peers(tmp_path)

    def failing(raw: bytes, *args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    ours._writer.append = failing  # type: ignore[method-assign]
    group = LocalGroup(ours, [bot])
    running = asyncio.ensure_future(other.run())
    try:
        with pytest.raises(OSError, match="No space left"):
            await within(group.run(), 60)
    finally:
        running.cancel()
        await group.close()
        await other.close()
