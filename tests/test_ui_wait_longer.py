"""A friend whose program stops answering: while the prompt line counts down to our claim, `w` waits one more
timeout for them, in a real terminal (read through pyte), against a real peer stopped with SIGSTOP."""

from __future__ import annotations

import re
import time

import pytest
from helpers.lan import Lan, stalled_host
from helpers.terminal import Terminal

pytestmark = [pytest.mark.net, pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(240)]

COUNTDOWN = re.compile(r"we claim (.+) stopped answering in (\d+) s \(w: wait longer\)")


def prompt(term: Terminal) -> str:
    return term.screen.display[-2]


def test_w_waits_one_more_timeout_before_the_claim(lan: Lan) -> None:
    with stalled_host(lan) as stalled:
        bo = stalled.bo
        deadline = time.monotonic() + 90
        while (found := COUNTDOWN.search(prompt(bo))) is None:
            assert time.monotonic() < deadline, f"no countdown shown:\n{bo.text()}"
            bo.pump()
            line = prompt(bo)
            if re.search(r"Your (bid|turn)", line):
                bo.proc.send("\r")  # our own turns: the default bid, the chosen card
                while re.search(r"Your (bid|turn)", prompt(bo)):
                    bo.pump()
            elif "Blind nil?" in bo.text():
                bo.proc.send("n")
        who, before = found.group(1), int(found.group(2))
        assert before <= 40
        bo.proc.send("w")
        bo.expect(rf"you wait 40 s longer for {re.escape(who)} before claiming it stopped answering")
        later = bo.expect(r"stopped answering in (\d+) s")
        after = int(COUNTDOWN.search(prompt(bo)).group(2))  # type: ignore[union-attr]
        assert after > before + 30, (before, after, later)
