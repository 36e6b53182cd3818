"""The lobby screens in a real terminal (read through pyte): no Accept button before there is something to
accept, an early `a` leaves no stale refusal once the seats change, and a silent program is counted down."""

from __future__ import annotations

import re
import signal

import pexpect
import pytest
from helpers.lan import Lan
from helpers.terminal import Terminal

pytestmark = [pytest.mark.pty, pytest.mark.net, pytest.mark.slow, pytest.mark.timeout(240)]


def buttons(screen: str) -> str:
    return next((line for line in screen.splitlines() if "[ Decline ]" in line or "[ Accept ]" in line), "")


def test_a_joiner_can_accept_only_once_the_host_starts_and_an_early_refusal_goes(lan: Lan) -> None:
    ana = Terminal(lan.env("ana"), "ana", "host", "--profile", "ana", "--name", "ana", "--address",
                   "127.0.0.1", "--port", str(lan.port), "--no-advertise", "--rules", "cutthroat3",
                   "--target", "10", "--trick-pause", "0", rows=24, cols=80)
    bo = None
    try:
        ana.expect("2 seats free", 60)
        bo = Terminal(lan.env("bo"), "bo", "join", lan.lobby, "--profile", "bo", "--name", "bo", "--address",
                      "127.0.0.1", rows=24, cols=80)
        screen = bo.expect("Waiting for players: 1 seat free", 60, others=(ana,))
        assert "[ Decline ]" in buttons(screen) and "Accept" not in buttons(screen), screen
        bo.proc.send("a")  # too early: said, and nothing accepted
        bo.expect("not every seat is taken yet", others=(ana,))
        lan.join("cy", "--address", "127.0.0.1")
        ana.expect("Every seat is taken", 60, others=(bo,))
        # the table is full, the host has not started it: the refusal is gone, still nothing to accept
        screen = bo.expect(r"\bcy\b", 60, others=(ana,))
        screen = bo.expect("waiting for ana", 30, others=(ana,))
        assert "not every seat" not in screen, screen
        assert "Accept" not in buttons(screen), screen
        bo.proc.send("a")
        screen = bo.expect("nothing to accept yet: the host starts the table", others=(ana,))
        ana.proc.send("\r")  # the host starts: now there is something to accept
        screen = bo.expect(r"accept \(a\) or decline \(d\)", 60, others=(ana,))
        assert "[ Accept ]" in buttons(screen) and "nothing to accept" not in screen, screen
        bo.proc.send("a")
        bo.expect(r"Your (bid|turn)|Waiting for|Blind nil\?", 120, others=(ana,))
    finally:
        ana.close()
        if bo is not None:
            bo.close()


def test_a_silent_program_in_the_lobby_is_counted_down_on_the_other_screen_to_its_end(lan: Lan) -> None:
    """No wait without an end in the lobby either: bo's program stops (SIGSTOP) and ana's screen counts down
    on his row to the moment his seat is freed; then ana's stops, and cy's screen counts down on the host's
    row until cy leaves, saying why."""
    ana = Terminal(lan.env("ana"), "ana", "host", "--profile", "ana", "--name", "ana", "--address",
                   "127.0.0.1", "--port", str(lan.port), "--no-advertise", "--rules", "cutthroat3", rows=24,
                   cols=80)
    others: list[Terminal] = []
    try:
        ana.expect("2 seats free", 60)
        others.append(bo := joiner(lan, "bo"))
        ana.expect("1 seat free", 60, others=(bo,))
        stopped_and_counted_down(bo, ana, r"joined · silent: frees in (\d+) s")
        ana.expect("2 seats free", 30)
        bo.proc.kill(signal.SIGCONT)
        others.append(cy := joiner(lan, "cy"))
        cy.expect("Waiting for players", 60, others=(ana,))
        stopped_and_counted_down(ana, cy, r"host · silent: we leave in (\d+) s")
        cy.proc.expect(pexpect.EOF, timeout=30)
        cy.stream.feed(cy.proc.before or b"")
        assert f"the host at {lan.lobby} stopped answering (12 s)" in cy.text().replace("\n", "")
    finally:
        ana.proc.kill(signal.SIGCONT)
        ana.close()
        for other in others:
            other.close()


def joiner(lan: Lan, name: str) -> Terminal:
    return Terminal(lan.env(name), name, "join", lan.lobby, "--profile", name, "--name", name, "--address",
                    "127.0.0.1", rows=24, cols=80)


def stopped_and_counted_down(stopped: Terminal, screen: Terminal, pattern: str) -> None:
    """`stopped`'s program stops (SIGSTOP); `screen` counts it down second by second, from 7 s or more."""
    stopped.proc.kill(signal.SIGSTOP)
    counts = countdown(screen, pattern)
    assert counts[0] >= 7 and counts == sorted(counts, reverse=True) and len(counts) >= 3, counts


def countdown(screen: Terminal, pattern: str) -> list[int]:
    """The seconds a countdown showed on `screen`, from its first appearance until it is gone."""
    seen = [int(re.findall(pattern, screen.expect(pattern, 30))[0])]
    while found := re.findall(pattern, screen.text()):
        if int(found[0]) != seen[-1]:
            seen.append(int(found[0]))
        try:
            screen.pump()
        except AssertionError:  # the program ended with the countdown
            break
    return seen
