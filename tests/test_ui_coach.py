"""The coach as a person uses it: `h` on the game screen, and `p2pspades review` on a finished game's log."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.lan import Lan
from helpers.logs import write_log
from helpers.terminal import Terminal

from p2pspades.bots import RandomBot
from p2pspades.rules import preset
from p2pspades.table import TableStatus
from p2pspades.table.harness import play_in_memory

SUIT_LETTER = {"♠": "s", "♥": "h", "♣": "c", "♦": "d"}


def status_line(term: Terminal) -> str:
    return term.screen.display[-2]


def chosen_card(screen: str) -> str | None:
    lines = screen.splitlines()
    row = lines[next(i for i, line in enumerate(lines) if "─ Your hand" in line) + 1]
    found = re.search(r"\[\s*(10|[2-9JQKA])([♠♥♣♦])\s*\]", row)
    return None if found is None else found.group(1) + found.group(2)


@pytest.mark.pty
@pytest.mark.slow
@pytest.mark.timeout(240)
def test_h_shows_the_coachs_choice_for_the_bid_and_the_card_and_puts_the_cursor_on_it(tmp_path: Path) -> None:
    env = Lan(tmp_path).env("me")
    term = Terminal(env, "play", "play", "--local", "--seed", "5", "--trick-pause", "0", "--target", "300",
                    "--think", "fast", rows=24, cols=80)
    try:
        term.expect("Your bid", timeout=60)
        term.proc.send("h")
        screen = term.expect(r"coach: bid (nil|\d+): (makes the contract|the nil holds) in \d+% of deals", 60)
        assert "net" in status_line(term), screen
        term.proc.send("\r")  # the cursor is on the coach's bid: Enter bids it
        weighed = r"coach: (10|[2-9JQKA])[♠♥♣♦]: (makes the contract|the nil holds) in \d+%"
        only = "coach: there is only one thing you may do"
        for held in range(13, 1, -1):  # the deal is random: a turn with one legal card has nothing to weigh
            term.expect(rf"Your hand \({held}\)[\s\S]*Your turn: play a card", timeout=60)
            term.proc.send("h")
            screen = term.expect(f"{weighed}|{only}", 60)
            if only not in status_line(term):
                break
            term.proc.send("\r")  # play the one card and weigh the next turn
        screen = term.expect(weighed, 5)
        named = re.search(r"coach: (10|[2-9JQKA]|)([♠♥♣♦])", status_line(term))
        assert named is not None, screen
        assert chosen_card(screen) == named.group(1) + named.group(2), screen  # the cursor is on it
        term.proc.send("?")
        assert "the coach" in term.expect("Keys")
    finally:
        term.close()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_review_lists_the_costliest_decisions_of_the_logs_seat(tmp_path: Path) -> None:
    log = tmp_path / "g.p2plog"
    env = Lan(tmp_path).env("me")
    run = [sys.executable, "-m", "p2pspades"]
    # the easy bot makes deliberate mistakes: a whole game of it gives the review something to find
    made = subprocess.run([*run, "play", "--auto", "--bot", "easy", "--target", "250", "--seed", "3",
                           "--log", str(log)], env=env, capture_output=True, text=True, timeout=240)
    assert made.returncode == 0, made.stderr
    text = subprocess.run([*run, "review", str(log), "--think", "fast", "--top", "3"], env=env,
                          capture_output=True, text=True, timeout=240)
    assert text.returncode == 0, text.stderr
    assert re.search(r"seat 0 \(.+\): \d+ decisions weighed", text.stdout), text.stdout
    assert "weighing hand 1 of" in text.stderr  # progress, on stderr
    listed = re.findall(r"^ *\d+\. hand \d+, (the bid|trick \d+): you (bid|played) ", text.stdout, re.M)
    assert 1 <= len(listed) <= 3, text.stdout
    assert "your cards:" in text.stdout and "the expert would" in text.stdout
    as_json = subprocess.run([*run, "review", str(log), "--think", "fast", "--seat", "2", "--json"], env=env,
                             capture_output=True, text=True, timeout=240)
    assert as_json.returncode == 0, as_json.stderr
    found = json.loads(as_json.stdout)
    assert found["seat"] == 2 and found["decisions"] > 0
    assert all(d["cost"] > 0 and d["chosen"] != d["expert"] for d in found["costliest"])
    costs = [d["cost"] for d in found["costliest"]]
    assert costs == sorted(costs, reverse=True)


@pytest.fixture(scope="module")
def finished_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished game's log: one hand of four random bots, played in memory (the options are refused before
    a decision is weighed; the games `play` writes are reviewed above)."""
    rules = preset("classic", target=50, losing_threshold=-50)
    wire = play_in_memory(rules, [RandomBot(i) for i in range(4)], seed=b"review options")
    assert wire.tables[0].status is TableStatus.COMPLETE
    return write_log(tmp_path_factory.mktemp("review") / "g.p2plog", wire.tables[0].records)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--seat", "7"], "there is no seat 7"),
        (["--top", "0"], "--top must be at least 1"),
    ],
)
def test_review_refuses_bad_options_in_one_line(tmp_path: Path, finished_log: Path, args: list[str],
                                                says: str) -> None:
    env = Lan(tmp_path).env("me")
    done = subprocess.run([sys.executable, "-m", "p2pspades", "review", str(finished_log), *args], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_review_of_something_that_is_not_a_log_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.p2plog"
    junk.write_bytes(b"\x00\x01 not a log")
    done = subprocess.run([sys.executable, "-m", "p2pspades", "review", str(junk)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("p2pspades review:")
