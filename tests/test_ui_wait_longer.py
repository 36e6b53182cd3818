"""A friend whose program stops answering: while the prompt line counts down to our claim, `w` waits one more
timeout for them, in a real terminal (read through pyte), against a real peer stopped with SIGSTOP."""

from __future__ import annotations

import re

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
        found = stalled.play_until(COUNTDOWN.search, "a countdown")
        who, before = found.group(1), int(found.group(2))
        assert before <= 40
        bo.proc.send("w")
        bo.expect(rf"you wait 40 s longer for {re.escape(who)} before claiming it stopped answering")
        later = bo.expect(r"stopped answering in (\d+) s")
        after = int(COUNTDOWN.search(prompt(bo)).group(2))  # type: ignore[union-attr]
        assert after > before + 30, (before, after, later)
