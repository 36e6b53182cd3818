"""Leaving and stopping from the browser, as people do: bo joins ana's table with `--web` and plays in
headless Chromium (his own process and profile, on 127.0.0.1); ana hosts with two bots of hers, her seat
played by her bot. bo proposes to stop with the page's Stop here button, and everybody agrees; or he
closes the tab, and his program, seeing no tab open again, leaves with a goodbye: ana's program says "bo
left"."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from helpers.lan import Lan
from helpers.page import CHROMIUM, SKIP_REASON, Served, Table, chromium

from p2pspades import log
from p2pspades.audit import verify_file
from p2pspades.exits import ExitCode
from p2pspades.table import TableStatus
from p2pspades.web.screen import PAGE_GRACE

pytestmark = [pytest.mark.slow, pytest.mark.net, pytest.mark.timeout(300),
              pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)]


def entries(path: Path) -> int:
    try:
        return len(log.read_log(path).frames)
    except (OSError, log.LogError):
        return 0


def joined(lan: Lan, browser: object) -> tuple[Served, Table]:
    """ana hosts; bo joins in the browser and accepts the table; his page plays."""
    lan.host(4, "--name", "ana", "--bots", "2", "--target", "3000", name="ana")
    lan.wait_for("ana", "lobby: ")
    bo = Served(lan.root, "bo", "join", lan.lobby, "--name", "bo", "--address", "127.0.0.1", "--log",
                str(lan.log("bo")), env=lan.env("bo"))
    table = Table(browser, bo.url())
    table.wait_for("document.getElementById('app').dataset.screen === 'lobby'")
    table.wait_for("Array.from(document.querySelectorAll('.lobby button')).some(b => "
                   f"b.textContent === {table.labels['accept']!r} && !b.disabled)", timeout=60)
    table.page.get_by_role("button", name=table.labels["accept"], exact=True).click()
    table.wait_for("document.getElementById('app').dataset.screen === 'game'", timeout=60)
    return bo, table


def play_until(table: Table, path: Path, count: int) -> None:
    deadline = time.monotonic() + 120
    while entries(path) < count:
        assert time.monotonic() < deadline, "the game did not get that far"
        if not table.act():
            table.page.wait_for_timeout(25)


def test_stop_here_on_the_page_ends_the_game_by_agreement(tmp_path: Path) -> None:
    """bo clicks Stop here, reads the question and proposes; ana's program and her bots agree: the game-over
    window says it was stopped by agreement, and every log says so."""
    lan = Lan(tmp_path)
    try:
        with chromium() as browser:
            bo, table = joined(lan, browser)
            play_until(table, lan.log("bo"), 30)
            table.wait_for("!document.querySelector('.w-summary')", timeout=60)
            table.page.get_by_role("button", name=table.labels["stop_here"], exact=True).click()
            table.wait_for("!!document.querySelector('.w-stop')")
            text = table.page.locator(".w-stop").inner_text()
            assert "Propose to stop the game here?" in text and "nobody winning" in text, text
            table.page.get_by_role("button", name=table.labels["propose"], exact=True).click()
            table.wait_for("!!document.querySelector('.w-over')", timeout=60)
            over = table.page.locator(".w-over").inner_text()
            assert "stopped by agreement" in over, over
            table.check()
            done = table.page.locator(".w-over").get_by_role("button", name=table.labels["close"], exact=True)
            done.click()
        assert lan.finish("ana")["ana"] == ExitCode.INCOMPLETE
        assert bo.wait(60) == ExitCode.INCOMPLETE, bo.text()[-2000:]
    finally:
        lan.close()
    for path in (lan.log("ana"), lan.log("bo")):
        verdict = verify_file(path)
        assert verdict.table is not None and verdict.table.status is TableStatus.STOPPED, verdict.summary


def test_closing_the_tab_leaves_the_game_with_a_goodbye(tmp_path: Path) -> None:
    """bo closes the tab of his game mid-game. His program counts down in its terminal; no tab opens again,
    so it leaves with a goodbye: ana's program says bo left, his side forfeits, and both logs agree."""
    lan = Lan(tmp_path)
    try:
        with chromium() as browser:
            bo, table = joined(lan, browser)
            play_until(table, lan.log("bo"), 30)
            table.page.close()
            bo.said(r"the page was closed: you leave the game in \d+ s unless it is opened again")
            out = lan.wait_for("ana", "game over: ", timeout=PAGE_GRACE + 20)
        assert "game over: bo left the game (a signed goodbye)" in out, out[-2000:]
        bo.said("the page stayed closed: you leave the game")
        assert bo.wait(60) == ExitCode.LEFT, bo.text()[-2000:]
        assert lan.finish("ana")["ana"] == ExitCode.INCOMPLETE
    finally:
        lan.close()
    results = [verify_file(path).table for path in (lan.log("ana"), lan.log("bo"))]
    assert all(t is not None and t.status is TableStatus.LEFT and t.result == results[0].result  # type: ignore[union-attr]
               for t in results), results
