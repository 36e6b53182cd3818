"""A friend whose program stops answering, as the others see it in a real terminal: the Events pane records
the drop and the return, and the prompt line counts down to our claim that the seat stopped answering (the
seconds come from the peer, by the timeout in force here)."""

from __future__ import annotations

import re

import pytest
from helpers.lan import Lan, stalled_host

pytestmark = [pytest.mark.net, pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(240)]


def test_the_events_pane_records_a_drop_and_a_return_and_the_claim_is_counted_down(lan: Lan) -> None:
    with stalled_host(lan) as stalled:
        bo = stalled.bo
        counts: list[int] = []

        def two_counts(line: str) -> list[int] | None:  # the countdown, as it changes
            found = re.search(r"we claim (.+) stopped answering in (\d+) s", line)
            if found is not None and (not counts or int(found.group(2)) != counts[-1]):
                counts.append(int(found.group(2)))
            return counts if len(counts) >= 2 else None

        stalled.play_until(two_counts, "a countdown")
        assert counts[1] < counts[0] <= 40, counts  # it counts down, from at most the timeout in force
        screen = bo.expect(r"dropped out: nothing heard from that seat")
        assert re.search(r"ana dropped out: nothing heard from that seat", screen), screen
        stalled.resume()
        screen = bo.expect(r"ana is back")
        assert screen.index("ana dropped out") < screen.index("ana is back"), screen
