"""One evening at a LAN table, end to end: three friends on one machine (a profile each) and the host's bot.

The host opens a table, two friends join; one friend's program is killed (kill -9) in the middle of the game
and comes back with the command `p2pspades games` prints for it; the game finishes; everybody plays a second
game at the same table by the commands printed at the end of the first ("play again with: ...", "join with:
..."), each typed exactly as printed; and then `games --json` and `stats --json` of every profile show both
games. Every program runs in a pseudo-terminal of its own, and the test reads what each one shows there.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from helpers.net import free_port
from helpers.terminal import Terminal

from p2pspades import log
from p2pspades.audit import Status, verify_file
from p2pspades.table import REMATCH

pytestmark = [pytest.mark.net, pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(900)]

PEOPLE = ("ana", "bo", "cy")
ACCEPT = re.compile(r"accept \(a\) or decline \(d\)")
TO_ANSWER = re.compile(r"^ Your (turn|bid)|Your bid \(hand \d+\)|Enter continues", re.M)
"""The game screen waits for this person's key."""
IDLE = 8.0
"""A screen that stays the same this long while the game goes on: the person presses Enter, as people do."""


def plain(text: str) -> str:
    """Text a program wrote, without its terminal control sequences, its lines ended by newlines."""
    text = re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]", "", text)
    return text.replace("\r\n", "\n").replace("\r", "\n")


class Program(Terminal):
    """A command typed in the shell of the machine, in a terminal of its own 60 rows by 320 columns (no
    line of ours wraps); what scrolled off the screen is kept too, to say what went wrong."""

    def __init__(self, env: dict[str, str], name: str, command: str, screens: Path | None = None) -> None:
        words = shlex.split(command)
        assert words[0] == "p2pspades", command
        super().__init__(env, name, *words[1:], rows=60, cols=320)
        self.command = command
        self.screens = screens
        """Where the last screen is kept (to see, after a failure, what the program showed)."""
        self.person = "--auto" not in words and words[1] in ("join", "resume", "host")
        """A person plays it on the game screen: the test presses the keys a person would."""
        self.seen = ""
        self.status: int | None = None
        self._answered = ""
        self._again = 0.0
        self._changed = time.monotonic()

    def pump(self, wait: float = 0.1) -> None:
        if self.status is not None:
            return
        try:
            data = self.proc.read_nonblocking(65536, timeout=wait)
        except pexpect.TIMEOUT:
            data = b""
        except pexpect.EOF:
            self.ended()
            return
        if data:
            self._changed = time.monotonic()
        self.seen += data.decode(errors="replace")
        self.stream.feed(data)
        if data and self.screens is not None:
            self.screens.write_text(self.text())
        if self.person:
            self.answer()

    def answer(self) -> None:
        """What a person at this screen does: accept the table, take the default bid, play the chosen card,
        go on after a hand, and close the screen at the end; one key for each new question."""
        screen = self.text()
        key = ("a" if ACCEPT.search(screen) else "q" if "Game over" in screen
               else "n" if "Blind nil?" in screen else "\r" if TO_ANSWER.search(screen) else None)
        if key is None and "Seats" in screen and time.monotonic() - self._changed > IDLE:
            key = "\r"  # the game screen, unchanged for a while: perhaps it waits for us after all
        if key is None:
            return
        if screen == self._answered and time.monotonic() < self._again:
            return  # the key is on its way; press it again only if the question stays
        self.proc.send(key)
        self._answered, self._again = screen, time.monotonic() + 5

    def said(self, pattern: str, timeout: float = 120, *, others: tuple[Program, ...] = ()) -> re.Match[str]:
        """Wait until the program has written `pattern` (on a line of its own, whatever the screen shows
        now); the match."""
        deadline = time.monotonic() + timeout
        while (found := re.search(pattern, plain(self.seen), re.M)) is None:
            assert self.status is None, (
                f"{self.name} ended ({self.status}) before {pattern!r}:\n{self.tail()}")
            assert time.monotonic() < deadline, f"{self.name}: {pattern!r} never written:\n{self.text()}"
            self.pump()
            for other in others:
                other.pump(0)
        return found

    def ended(self) -> None:
        if self.status is None:
            self.proc.expect(pexpect.EOF, timeout=30)
            self.proc.close()
            self.status = self.proc.exitstatus if self.proc.exitstatus is not None else -(
                self.proc.signalstatus or 0)

    def shows(self, pattern: str, timeout: float = 120, *,
              others: tuple[Program, ...] = ()) -> re.Match[str]:
        """Wait until `pattern` is on the screen (the others drawn meanwhile); the match."""
        deadline = time.monotonic() + timeout
        while (found := re.search(pattern, self.text(), re.M)) is None:
            assert self.status is None, (
                f"{self.name} ended ({self.status}) before {pattern!r}:\n{self.tail()}")
            assert time.monotonic() < deadline, f"{self.name}: {pattern!r} never shown:\n{self.text()}"
            self.pump()
            for other in others:
                other.pump(0)
        return found

    def tail(self) -> str:
        return plain(self.seen)[-4000:]

    def finish(self, timeout: float = 300, *, others: tuple[Program, ...] = ()) -> int:
        deadline = time.monotonic() + timeout
        while self.status is None:
            assert time.monotonic() < deadline, f"{self.name} did not end:\n{self.text()}"
            self.pump()
            for other in others:
                other.pump(0)
        return self.status

    def printed(self, label: str) -> str:
        """The command shown on the screen after `label: `, as a person would copy it (once the game
        screen has closed, the terminal shows what the program printed after it)."""
        found = re.findall(rf"^{re.escape(label)}: (p2pspades .*?)\s*$", self.text(), re.M)
        assert len(found) == 1, f"{self.name} shows {label!r} {len(found)} times:\n{self.text()}"
        return str(found[0])

    def log_path(self) -> Path:
        found = re.findall(r"game [0-9a-f]{32}: seat \d [^\n]*?; log: (\S+game\.p2plog)", plain(self.seen))
        assert found, self.tail()
        return Path(found[-1])


@pytest.fixture
def machine(tmp_path: Path) -> Iterator[tuple[dict[str, str], list[Program]]]:
    env = dict(os.environ, P2PSPADES_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               PYTHONUNBUFFERED="1")
    env.pop("P2PSPADES_PROFILE", None)
    started: list[Program] = []
    yield env, started
    for program in started:
        program.close()


def test_an_evening_two_games_at_one_table_with_a_crash_and_a_rematch(
        machine: tuple[dict[str, str], list[Program]]) -> None:
    env, started = machine

    def run(name: str, command: str) -> Program:
        program = Program(env, name, command, Path(env["P2PSPADES_HOME"]).parent / f"{name}.screen")
        started.append(program)
        return program

    port = free_port()
    # ---- the first game: ana hosts with a bot of hers, bo and cy join
    ana = run("ana", f"p2pspades host --profile ana --auto --bots 1 --rules partnership --target 150 "
              f"--address 127.0.0.1 --port {port} --no-advertise --table Kitchen")
    ana.shows(r"^lobby: tcp://127\.0\.0\.1:\d+")
    bo = run("bo", f"p2pspades join 127.0.0.1:{port} --profile bo --auto")
    bo.shows(r"^table 'Kitchen': 3 of 4 seats taken", others=(ana,))
    cy = run("cy", f"p2pspades join 127.0.0.1:{port} --profile cy --auto")
    first_id = cy.said(r"^game ([0-9a-f]{32}): seat", others=(ana, bo)).group(1)
    cy.shows(r"^hand  1:", 300, others=(ana, bo))
    os.kill(cy.proc.pid, signal.SIGKILL)  # cy's program dies in the middle of the game
    cy.finish(others=(ana, bo))
    assert cy.status == -signal.SIGKILL

    # ---- cy comes back with the command `games` prints for the game it stopped
    listing = run("cy-games", "p2pspades games --profile cy")
    assert listing.finish(60) == 0, listing.seen
    hint = r"stopped after \d+ hands?; carry on with: (p2pspades resume [0-9a-f]+ --profile cy)"
    resume = listing.shows(hint, 5).group(1)
    assert resume.split()[2] == first_id[:12]
    back = run("cy-back", resume)  # on the game screen: cy plays on by hand
    assert back.person
    back.said(rf"^resuming game {first_id}", others=(ana, bo))
    for program in (ana, bo, back):
        assert program.finish(600, others=(ana, bo, back)) == 0, program.tail()
    for program in (ana, bo):
        program.shows(r"^winner: ", 5)
    back.said(r"^winner: ", 5)
    first_logs = {"ana": ana.log_path(), "bo": bo.log_path(), "cy": cy.log_path()}
    for name, path in first_logs.items():
        verdict = verify_file(path)
        assert verdict.status is Status.VALID, (name, verdict.summary)
    again = ana.printed("play again with")
    joins = {"bo": bo.printed("join with"), "cy": back.said(r"^join with: (p2pspades .*?)\s*$", 5).group(1)}
    assert f"--rematch {first_id[:12]}" in again and "--profile ana" in again and f"--port {port}" in again
    assert all(f"join 127.0.0.1:{port}" in line and f"--profile {who}" in line for who, line in joins.items())

    # ---- the second game: the same table, everybody typing the line printed for them
    ana2 = run("ana2", again)
    ana2.shows(r"^lobby: tcp://127\.0\.0\.1:\d+")
    ana2.shows(rf"^the game at this table is a rematch of game {first_id}", 5)
    bo2 = run("bo2", joins["bo"])
    cy2 = run("cy2", joins["cy"])
    second_id = bo2.said(r"^game ([0-9a-f]{32}): seat", others=(ana2, cy2)).group(1)
    assert second_id != first_id
    everyone = (ana2, bo2, cy2)
    for program in everyone:
        assert program.finish(600, others=everyone) == 0, program.tail()
    for program in (bo2, cy2):  # each joiner was shown which game this one follows
        assert f"a rematch of game {first_id[:12]}" in plain(program.seen)
    second_logs = {"ana": ana2.log_path(), "bo": bo2.log_path(), "cy": cy2.log_path()}
    for name, path in second_logs.items():
        verdict = verify_file(path)
        assert verdict.status is Status.VALID, (name, verdict.summary)
        genesis = log.open_envelope(log.read_log(path).frames[0]).payload
        assert genesis["after"] == {"g": bytes.fromhex(first_id), "k": REMATCH}
    before, after = verify_file(first_logs["ana"]).table, verify_file(second_logs["ana"]).table
    assert before is not None and after is not None
    assert before.setup.keys == after.setup.keys, "everybody, the bot too, sat where they sat before"

    # ---- the evening, as each profile's own records tell it
    for name in PEOPLE:
        listed = json.loads(command(env, "games", "--profile", name, "--json"))
        rows = {row["game_id"]: row for row in listed["games"]}
        assert set(rows) == {first_id, second_id}, (name, listed)
        assert all(row["result"] == "complete" and row["verdict"]["status"] == "valid"
                   for row in rows.values()), (name, listed)
        assert rows[second_id]["table"] == rows[first_id]["table"] == "Kitchen"
        stats = json.loads(command(env, "stats", "--profile", name, "--json"))
        hands = sum(row["hands"] for row in rows.values())
        assert stats["games"] == 2 and stats["wins"] + stats["losses"] == 2, (name, stats)
        assert stats["hands"] == hands and stats["left_out"] == {"running": 0, "unreadable": 0}, (name, stats)


def command(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "p2pspades", *args], env=env, capture_output=True, text=True,
                          timeout=240, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout
