"""The game's page in a real browser (headless Chromium): it loads without a console error, its stepper
walks every trick of every hand, its banner says what `verify --json` says, a hostile name is text, and it
fits a phone's width."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import pages
from helpers.browser import CHROMIUM, SKIP_REASON, Browser

from p2pspades.audit import hand_record, verify_file
from p2pspades.describe.page import game_page
from p2pspades.printable import printable

pytestmark = [pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)]

VISIBLE = "Array.from(document.querySelectorAll('#hand-%d .tricks > li')).filter(li => !li.hidden)"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("browser")
    log_file = pages.whole_game(root / "game.p2plog")
    page = root / "game.html"
    done = subprocess.run([sys.executable, "-m", "p2pspades", "export", str(log_file), "--format", "html",
                           "-o", str(page)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return log_file, page


def test_the_page_loads_with_no_console_error_and_its_banner_is_verify_json(game: tuple[Path, Path]) -> None:
    log_file, page = game
    done = subprocess.run([sys.executable, "-m", "p2pspades", "verify", "--json", str(log_file)],
                          capture_output=True, text=True, timeout=300, check=False)
    result = json.loads(done.stdout)["result"]
    with Browser() as browser:
        browser.open(page)
        assert browser.errors == []
        assert browser.js("document.querySelector('#verdict').dataset.status") == result["status"]
        assert browser.js("document.querySelector('#verdict .status').textContent") == result["status"]
        assert browser.js("document.querySelector('#verdict .summary').textContent") == printable(
            result["detail"])
        # the hostile names are shown as text: the page's only script is its own
        assert browser.js("document.scripts.length") == 1
        names = browser.js("Array.from(document.querySelectorAll('#table .seats tbody td:nth-child(2)'))"
                           ".map(td => td.textContent)")
        assert names == [printable(n) for n in pages.HOSTILE]
        assert browser.js("document.querySelectorAll('#table b').length") == 0
        assert browser.errors == []


def test_the_stepper_walks_every_trick_of_every_hand(game: tuple[Path, Path]) -> None:
    log_file, page = game
    record = hand_record(verify_file(log_file))
    with Browser() as browser:
        browser.open(page)
        for hand in record["hands"]:
            n = hand["number"]
            browser.js(f"document.getElementById('hand-{n}').focus()")
            assert browser.js(f"{VISIBLE % n}.length") == 0, "as dealt: no trick shown yet"
            for i, trick in enumerate(hand["tricks"], start=1):
                browser.key("ArrowRight")
                shown = browser.js(f"{VISIBLE % n}.map(li => [li.dataset.n, li.dataset.leader, "
                                   "li.dataset.winner, li.textContent])")
                assert len(shown) == 1
                assert shown[0][:3] == [str(i), str(trick["leader"]), str(trick["winner"])]
                now = browser.js(f"document.querySelectorAll('#hand-{n} .seat .cd.now').length")
                played = browser.js(f"document.querySelectorAll('#hand-{n} .seat .cd.played').length")
                before = sum(len(t["plays"]) for t in hand["tricks"][:i - 1])
                assert (now, played) == (len(trick["plays"]), before)
            assert browser.js(f"document.querySelector('#hand-{n} [data-step=\"1\"]').disabled") is True
            browser.key("ArrowRight")  # past the last trick: it stays
            assert browser.js(f"document.getElementById('hand-{n}').dataset.pos") == str(len(hand["tricks"]))
            browser.js(f"document.querySelector('#hand-{n} [data-step=\"-1\"]').click()")
            assert browser.js(f"{VISIBLE % n}[0].dataset.n") == str(len(hand["tricks"]) - 1)
        assert browser.errors == []


@pytest.mark.parametrize("make", [pages.forged_card, pages.abandoned])
def test_a_fault_page_loads_and_fits_a_phone(make: object, tmp_path: Path) -> None:
    assert callable(make)
    page = tmp_path / "fault.html"
    page.write_text(game_page(verify_file(make(tmp_path / "fault.p2plog"))))
    with Browser(width=375, height=740) as browser:
        browser.open(page)
        assert browser.errors == []
        assert browser.js("document.documentElement.scrollWidth") <= 375
        assert browser.js("document.querySelectorAll('#fault .timeline > li').length") >= 4


def test_the_game_page_fits_a_phone(game: tuple[Path, Path]) -> None:
    with Browser(width=375, height=740) as browser:
        browser.open(game[1])
        assert browser.js("document.documentElement.scrollWidth") <= 375
