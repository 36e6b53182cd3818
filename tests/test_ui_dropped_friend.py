"""A friend whose program stops answering, as the others see it in a real terminal: the Events pane records
the drop and the return, and the prompt line counts down to our claim that the seat stopped answering (the
seconds come from the peer, by the timeout in force here)."""

from __future__ import annotations

import re
import time

import pytest
from helpers.lan import Lan, stalled_host
from helpers.terminal import Terminal

pytestmark = [pytest.mark.net, pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(240)]


def prompt(term: Terminal) -> str:
    return term.screen.display[-2]


def test_the_events_pane_records_a_drop_and_a_return_and_the_claim_is_counted_down(lan: Lan) -> None:
    with stalled_host(lan) as stalled:
        bo = stalled.bo
        counts: list[int] = []
        deadline = time.monotonic() + 90
        while len(counts) < 2:
            assert time.monotonic() < deadline, f"no countdown shown:\n{bo.text()}"
            bo.pump()
            line = prompt(bo)
            if re.search(r"Your (bid|turn)", line):
                bo.proc.send("\r")  # our own turns: the default bid, the chosen card
                while re.search(r"Your (bid|turn)", prompt(bo)):
                    bo.pump()
            elif "Blind nil?" in bo.text():
                bo.proc.send("n")
            elif (found := re.search(r"we claim (.+) stopped answering in (\d+) s", line)) is not None and (
                    not counts or int(found.group(2)) != counts[-1]):
                counts.append(int(found.group(2)))
        assert counts[1] < counts[0] <= 40, counts  # it counts down, from at most the timeout in force
        screen = bo.expect(r"dropped out: nothing heard from that seat")
        assert re.search(r"ana dropped out: nothing heard from that seat", screen), screen
        stalled.resume()
        screen = bo.expect(r"ana is back")
        assert screen.index("ana dropped out") < screen.index("ana is back"), screen
