"""The page's benchmark itself, on a short run: it opens the page, plays a hand by clicks and reports the
first paints and the click-to-card times it measured in the browser, each against its floor."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.page import CHROMIUM, SKIP_REASON

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "web.py"
pytestmark = [pytest.mark.slow, pytest.mark.net, pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)]


def test_a_short_run_reports_every_figure_with_its_floor() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--loads", "1", "--hands", "1", "--round-trips", "2"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["click_to_card_ms"]["n"] == 13, "every card of the hand, clicked"
    assert report["round_trip_ms"]["n"] == 2
    for key in ("first_paint_ms", "table_drawn_ms", "floor_first_paint_ms"):
        assert report[key]["n"] == 1 and report[key]["median"] > 0
    assert report["ratio_click_to_card_to_round_trip"] > 0
    targets = {"first_paint_ms", "table_drawn_ms", "click_to_card_ms"}
    assert set(report["met"]) == set(report["targets"]) == targets
