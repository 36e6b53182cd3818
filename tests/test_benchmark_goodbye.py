"""The goodbye benchmark itself: one small game of four peer processes, seat 1 leaving, measured whole (every
other peer's game-over, the leaver's farewell, the cards before it), every table ending the same way."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "goodbye.py"
pytestmark = [pytest.mark.slow, pytest.mark.net]


def test_one_game_measures_each_others_game_over_and_the_leavers_farewell() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--games", "1", "--at", "40", "--seed", "7"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["statuses"] == ["left"], report
    goodbye = report["goodbye_ms"]
    assert goodbye["sent_to_game_over_each"]["n"] == 3 and goodbye["sent_to_game_over_last"]["n"] == 1
    assert goodbye["left_to_leaver_done"]["n"] == 1
    assert goodbye["sent_to_game_over_each"]["min"] > 0, "each peer ended after the goodbye left the leaver"
    assert report["per_card_ms"]["sent_to_applied_everywhere"]["n"] > 0, "cards were played before it"
    assert report["ratio_goodbye_to_card_median"] is not None
