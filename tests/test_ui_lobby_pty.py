"""The joiner's lobby screen in a real terminal (read through pyte): no Accept button before there is
something to accept, and an early `a` leaves no stale refusal once the seats change."""

from __future__ import annotations

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
