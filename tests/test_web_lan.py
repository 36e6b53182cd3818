"""A LAN game with one player in the browser and one in the terminal: ana hosts with `--web` and plays in
headless Chromium, bo joins from a terminal (a pseudo-terminal read through a terminal emulator), each in a
process of their own with a profile of their own, on 127.0.0.1, with two of ana's bots. They play the game
to its end, each by their own screen, and their logs are the same bytes. Then `resume --web` carries a game
on after its program was killed, in the browser."""

from __future__ import annotations

import os
import re
import signal
import time
from pathlib import Path

import pytest
from helpers.net import free_port
from helpers.page import CHROMIUM, SKIP_REASON, Served, Table, chromium
from helpers.terminal import Terminal

from p2pspades import log
from p2pspades.audit import Status, verify_file

pytestmark = [pytest.mark.slow, pytest.mark.net, pytest.mark.pty, pytest.mark.timeout(900),
              pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)]

#: the terminal's questions, and the key a person answers each with
ANSWERS = ((re.compile(r"accept \(a\) or decline \(d\)"), "a"), (re.compile(r"Blind nil\?"), "n"),
           (re.compile(r"^ Your (turn|bid)|Your bid \(hand \d+\)|Enter continues", re.M), "\r"))


def profile(root: Path, name: str) -> dict[str, str]:
    """The environment of a person with a data home of their own on this machine."""
    return dict(os.environ, P2PSPADES_HOME=str(root / name / "data"), PYTHONUNBUFFERED="1")


class Person(Terminal):
    """bo at the terminal: answers each question on the screen with the key a person would press."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        super().__init__(env, "bo", *args, rows=30, cols=100)
        self._answered = ""
        self._again = 0.0
        self.over = False

    def turn(self) -> None:
        try:
            self.pump(0.02)
        except AssertionError:
            self.over = True  # the program ended (after the game over screen, q leaves)
            return
        screen = self.text()
        if "Game over" in screen:
            key = "q"
        else:
            key = next((k for pattern, k in ANSWERS if pattern.search(screen)), "")
        if not key or (screen == self._answered and time.monotonic() < self._again):
            return
        self.proc.send(key)
        self._answered, self._again = screen, time.monotonic() + 3


def test_one_player_in_the_browser_one_in_the_terminal_the_same_log(tmp_path: Path) -> None:
    port = free_port()
    ana_log, bo_log = tmp_path / "ana.p2plog", tmp_path / "bo.p2plog"
    ana = Served(tmp_path, "ana", "host", "--name", "ana", "--address", "127.0.0.1", "--port", str(port),
                 "--no-advertise", "--table", f"Web table {port}", "--bots", "2", "--target", "10",
                 "--log", str(ana_log), env=profile(tmp_path, "ana"))
    bo: Person | None = None
    try:
        with chromium() as browser:
            table = Table(browser, ana.url())
            table.wait_for("document.getElementById('app').dataset.screen === 'lobby'")
            ana.said(r"^lobby: tcp://127\.0\.0\.1:\d+")
            bo = Person(profile(tmp_path, "bo"), "join", f"127.0.0.1:{port}", "--name", "bo",
                        "--log", str(bo_log))
            table.wait_for("document.querySelector('.seated').textContent.includes('bo')")
            table.wait_for("!document.querySelector('.lobby .buttons button').disabled")
            table.page.get_by_role("button", name=table.labels["start"], exact=True).click()
            deadline = time.monotonic() + 600
            while not table.page.locator(".w-over").count():
                assert time.monotonic() < deadline, f"the game did not end; bo's screen:\n{bo.text()}"
                bo.turn()
                if not table.act():
                    table.page.wait_for_timeout(20)
            result = table.page.locator(".w-over .result").inner_text()
            while not bo.over:  # bo leaves the game-over screen (q), as the terminal asks
                bo.turn()
            bo.proc.close()
            assert bo.proc.exitstatus == 0, bo.text()
            # ana plays again from the page: the host's rematch, in the same tab, a lobby that says so
            table.page.get_by_role("button", name="Rematch", exact=True).click()
            ana.said(r"^starting: p2pspades host --rematch [0-9a-f]{12} --port \d+ .*--web --no-browser")
            table.wait_for("document.getElementById('app').dataset.screen === 'lobby' && "
                           "document.querySelector('.rules').textContent.includes('a rematch of game')")
            # while the next program started, the page tried to reconnect and was refused: only that
            table.errors = [e for e in table.errors if "ERR_CONNECTION_REFUSED" not in e]
            table.page.get_by_role("button", name=table.labels["leave"], exact=True).click()
            assert ana.wait() == 0, ana.text()[-2000:]
            assert "you left the table before the game started" in ana.text()
            table.check()
        assert "final score: " in ana.text() and result
        ours, theirs = ana_log.read_bytes(), bo_log.read_bytes()
        assert ours == theirs, "the two players' logs differ"
        verdict = verify_file(ana_log)
        assert verdict.status is Status.VALID and verdict.table is not None, verdict.summary
        names = [s.name for s in verdict.table.setup.seats]
        plays = [log.open_envelope(raw).payload for raw in log.read_log(ana_log).frames]
        for name in ("ana", "bo"):  # each played every card of its hands, by its own screen
            seat = names.index(name)
            cards = sum(1 for p in plays if p.get("t") == "play" and p.get("s") == seat)
            assert cards == 13 * len(verdict.hands) > 0, (name, cards)
    finally:
        ana.close()
        if bo is not None:
            bo.close()


def test_resume_in_the_browser_after_the_program_was_killed(tmp_path: Path) -> None:
    env = profile(tmp_path, "ana")
    first = Served(tmp_path, "first", "play", "--name", "ana", "--bot", "random", "--seed", "2", env=env)
    try:
        with chromium() as browser:
            table = Table(browser, first.url())
            table.wait_for("document.querySelector('.dialog:not([hidden]) .choice')")
            table.bid("4")
            table.wait_for("document.querySelector('.hand button.card.legal')")
            played = table.play_a_card()
            first.proc.send_signal(signal.SIGKILL)
            first.wait()
            game = first.said(r"^game ([0-9a-f]{32}): seat 0").group(1)
            again = Served(tmp_path, "again", "resume", game, env=env)
            try:
                table = Table(browser, again.url())
                table.wait_for("document.getElementById('app').dataset.screen === 'game'")
                table.wait_for("document.querySelector('.seat.at0 .line').textContent.startsWith('bid 4')")
                table.wait_for("Array.from(document.querySelectorAll('.events li')).some(li => "
                               "li.textContent.startsWith('You played ') && "
                               "li.textContent.includes('verified'))")
                assert played not in [c for c, _ in table.legal_cards()]
                table.wait_for("document.querySelector('.hand button.card.legal')")
                table.play_a_card()
                table.check()
                again.proc.send_signal(signal.SIGINT)
                assert again.wait() == 0
            finally:
                again.close()
        assert "restored " in again.text() and "carry on with: p2pspades resume" in again.text()
    finally:
        first.close()


def test_a_joiner_accepts_the_table_in_the_browser(tmp_path: Path) -> None:
    port = free_port()
    host = Served(tmp_path, "ana", "host", "--name", "ana", "--address", "127.0.0.1", "--port", str(port),
                  "--no-advertise", "--bots", "2", "--auto", "--bot", "random", env=profile(tmp_path, "ana"),
                  web=False)
    try:
        host.said(r"^lobby: tcp://127\.0\.0\.1:\d+")
        bo = Served(tmp_path, "bo", "join", f"127.0.0.1:{port}", "--name", "bo", env=profile(tmp_path, "bo"))
        try:
            with chromium() as browser:
                table = Table(browser, bo.url())
                page = table.page
                table.wait_for("document.getElementById('app').dataset.screen === 'lobby'")
                accept = page.get_by_role("button", name=table.labels["accept"], exact=True)
                table.wait_for("!document.querySelector('.lobby .buttons button').disabled")
                rows = page.locator(".seated tbody tr")
                assert "bo (You)" in rows.nth(1).inner_text() or "bo (You)" in rows.nth(3).inner_text()
                assert "bot · ana sees its cards" in page.locator(".seated").inner_text()
                accept.click()
                table.wait_for("document.querySelector('.dialog:not([hidden]) .choice')", timeout=120)
                table.bid()
                table.wait_for("document.querySelector('.hand button.card.legal')", timeout=120)
                table.play_a_card()
                table.check()
                page.get_by_role("button", name=table.labels["leave"], exact=True).click()
                page.get_by_role("dialog").get_by_role("button", name=table.labels["yes_leave"]).click()
                assert bo.wait() == 0
        finally:
            bo.close()
    finally:
        host.close()
