"""The game's page and the verifier's words in the reader's language: the page's `lang`, its headings, tables,
timeline and stepper in German; its seat numbers put as names in German as in English; in the pseudo-locale
no word of the page is left outside the markers; and the JSON records the same, in English, whatever the
language."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers import pages
from helpers.browser import CHROMIUM, SKIP_REASON, Browser
from test_audit_page import Page

from p2pspades.audit import verify_file
from p2pspades.audit.dispute import settle
from p2pspades.audit.record import genesis_rules
from p2pspades.describe.page import dispute_page, game_page
from p2pspades.i18n import PSEUDO, speaking
from p2pspades.i18n.catalogs import CLOSE, OPEN
from p2pspades.printable import printable


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return pages.three_logs(tmp_path_factory.mktemp("pages"))


def text_of(page: Page, element_id: str) -> str:
    (element,) = [e for e in page.elements if e["attrs"].get("id") == element_id]
    return str(element["text"])


def test_the_page_of_a_whole_game_in_german(logs: dict[str, Path]) -> None:
    verdict = verify_file(logs["valid"])
    with speaking("de"):
        text = game_page(verdict, str(logs["valid"]))
    page = Page(text)
    assert text.startswith('<!DOCTYPE html>\n<html lang="de">')
    (main,) = [e for e in page.elements if e["tag"] == "main"]
    assert main["attrs"]["data-dealt"] == "Wie gegeben, vor Stich 1"
    assert main["attrs"]["data-at"] == "Stich {n} von {total}"
    banner = text_of(page, "verdict")
    assert "vollständig" in banner and "gültig und vollständig" in banner
    assert "Der Tisch" in text_of(page, "table") and "Plätze und ihre Schlüssel" in text_of(page, "table")
    assert "Punktestand" in text_of(page, "scores")
    hand = text_of(page, "hand-1")
    assert hand.startswith("Runde 1, Geber ")
    assert "Stich 1: " in hand and " spielte aus, " in hand and "Sofort bewiesen, Eintrag für Eintrag" in hand
    assert "Die Prüfung am Rundenende" in hand
    assert "jeder aufgedeckte Startwert passt zu seiner Festlegung" in hand
    # the ranks in the hands' diagrams are the German letters a player types: a queen is a D (Dame)
    faces = {e["text"] for e in page.find("cd", "span") if "data-t" in e["attrs"]}
    assert "D" in faces and "Q" not in faces
    for english in ("The table", "Scores", "Trick ", " led", "each with its proof", "dealer"):
        assert english not in text, english


def test_a_violation_names_the_seat_by_name_in_german(logs: dict[str, Path]) -> None:
    verdict = verify_file(logs["violation"])
    assert verdict.violation is not None
    seat, name = verdict.violation.seat, printable(pages.HOSTILE[verdict.violation.seat])
    with speaking("de"):
        page = Page(game_page(verdict))
        detail = printable(verdict.summary)
    (summary,) = page.find("summary", "p")
    assert summary["attrs"]["data-detail"] == detail and f"Platz {seat}" in detail
    assert f"Platz {seat}" not in summary["text"] and name in summary["text"]
    timeline = text_of(page, "fault")
    assert text_of(page, "fault").startswith("Wie das Spiel endete")
    assert f"Beweis: Eintrag {verdict.violation.seq}, play, signiert von {name} (Platz {seat})" in timeline


def test_an_abandonment_and_a_dispute_in_polish(logs: dict[str, Path], tmp_path: Path) -> None:
    verdict = verify_file(logs["abandoned"])
    with speaking("pl"):
        page = Page(game_page(verdict))
        d = settle([str(logs["valid"]), str(logs["violation"])])
        referee = Page(dispute_page(d))
    timeline = text_of(page, "fault")
    assert timeline.startswith("Jak skończyła się partia") and ", certificate, w miejscu wpisu " in timeline
    assert "głos, limit czasu " in timeline
    assert text_of(referee, "logs").startswith("Zapisy, każdy sprawdzony osobno")
    assert "utrzymano: " in text_of(referee, "verdict")


WORDLESS = re.compile(r"[0-9a-f]{16,}|[\d\s.,;:()+\-–—…/←→↑↓✓✗♠♥♦♣\ufe0e?*=#%\"'„“”«»<>&!\\]+")
MARKED = re.compile(rf"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")


class Texts(HTMLParser):
    """Each run of text a reader sees, with no script, style, title or code around it, and each attribute a
    reader hears (`aria-label`)."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._open: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.texts += [v for k, v in attrs if k == "aria-label" and v]
        if tag not in ("meta", "br", "line", "circle", "polyline"):
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        while self._open and self._open.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        if not {"script", "style", "title", "code"} & set(self._open):
            self.texts.append(data)


def unmarked_words(text: str, names: list[str], codes: set[str]) -> list[str]:
    """The words of `text` outside the pseudo-locale's markers, less names, numbers, hashes and codes."""
    while MARKED.search(text):
        text = MARKED.sub(" ", text)
    for name in names:
        text = text.replace(name, " ")
    return [w for w in WORDLESS.sub(" ", text).split()
            if w not in codes and not re.fullmatch(r"[0-9A-Z]{1,2}|[0-9a-f]+|\d+b", w)]


@pytest.mark.parametrize("kind", ["valid", "violation", "abandoned"])
def test_in_the_pseudo_locale_every_word_of_the_page_is_marked(logs: dict[str, Path], kind: str) -> None:
    """Every text of the page and every label read aloud, less what is not words (numbers, hashes, cards,
    the players' names and the table's, the entry types of the log), is inside the pseudo-locale's markers:
    no sentence of the page escaped the catalogs."""
    verdict = verify_file(logs[kind])
    assert verdict.table is not None
    with speaking(PSEUDO):
        text = game_page(verdict, str(logs[kind]))
    names = sorted({printable(n) for n in pages.HOSTILE} | {verdict.table.setup.name, str(logs[kind])},
                   key=len, reverse=True)
    codes = {"commit", "shuffle", "lock", "keys", "play", "reveal", "bid", "abandon", "certificate", "halt"}
    for option, value in genesis_rules(verdict.table).items():  # the rules as signed: typed, not read
        codes |= {option, *str(value).replace(",", " ").split()}
    left = [(piece, words) for piece in Texts(text).texts if (words := unmarked_words(piece, names, codes))]
    assert left == []


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pspades", *args], capture_output=True, text=True,
                          timeout=300, check=False)


@pytest.mark.slow
def test_the_json_records_are_the_same_in_every_language(logs: dict[str, Path], tmp_path: Path) -> None:
    """`verify --json` and `export --format json` are for programs: the same bytes whatever the language;
    `verify` without it speaks the reader's language."""
    log_file = str(logs["violation"])
    english = run_cli("--lang", "en", "verify", "--json", log_file)
    for lang in ("de", "fr", "pl"):
        done = run_cli("--lang", lang, "verify", "--json", log_file)
        assert (done.stdout, done.returncode) == (english.stdout, english.returncode)
    assert json.loads(english.stdout)["result"]["status"] == "violation"
    for lang in ("en", "pl"):
        assert run_cli("--lang", lang, "export", log_file, "--format", "json", "-o",
                       str(tmp_path / f"{lang}.json")).returncode == 0
    assert (tmp_path / "en.json").read_bytes() == (tmp_path / "pl.json").read_bytes()
    said = run_cli("--lang", "pl", "verify", log_file).stdout
    assert "pierwsze naruszenie zasad: miejsce " in said and "first violation" not in said


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)
def test_the_stepper_speaks_french_in_a_browser(logs: dict[str, Path], tmp_path: Path) -> None:
    """The words the page's script writes come from the page (its `data-` attributes), in its language."""
    page = tmp_path / "partie.html"
    done = run_cli("--lang", "fr", "export", str(logs["valid"]), "--format", "html", "-o", str(page))
    assert done.returncode == 0, done.stderr
    position = "document.querySelector('#hand-1 .pos').textContent"
    with Browser() as browser:
        browser.open(page)
        assert browser.js("document.documentElement.lang") == "fr"
        assert browser.js(position) == "Telle que distribuée, avant le pli 1"
        browser.js("document.getElementById('hand-1').focus()")
        browser.key("ArrowRight")
        browser.key("ArrowRight")
        tricks = browser.js("document.getElementById('hand-1').dataset.tricks")
        assert browser.js(position) == f"Pli 2 sur {tricks}"
        assert browser.errors == []
