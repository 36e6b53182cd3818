"""The game's page (`--web`) as a person uses it: a `p2pspades` command in a process of its own, and Debian's
headless Chromium driven by Playwright (`executable_path`: Playwright downloads no browser here). `CHROMIUM`
is None where the browser cannot be had; the tests then skip, naming it.

`Table` wraps a Playwright page at the game's URL with what a person does there (bid, play a card, go on
after a hand) and what the tests check on every page: no console error, no request leaving the page's
origin. Screenshots go to `$P2PSPADES_SCREENSHOTS` when it is set (`docs/images`, for docs/playing.md).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from helpers.terminal import as_a_terminal_starts_it

CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)
SKIP_REASON = "needs Debian's headless browser: apt-get install -y chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
URL = re.compile(r"(http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{43}/)")
"""The page's address, as "the game is in your browser: URL" says it in any language."""
SHOTS = os.environ.get("P2PSPADES_SCREENSHOTS")
WAIT = 60.0
"""Seconds a page or a program may take to show what a test waits for (never a measure of speed)."""

#: what a person can do on the game screen now, in the order the helper looks
ACTIONABLE = ("document.querySelector('.w-over, .w-summary, .dialog:not([hidden]) .choice, "
              ".hand button.card.legal, .passbar:not([hidden]) button')")


class Served:
    """`p2pspades ARGS --web --no-browser` (`web`: else without the page) in a process of its own (Ctrl-C at
    its default, as a terminal starts it), its output in `<root>/<name>.out`."""

    def __init__(self, root: Path, name: str, *args: str, env: dict[str, str] | None = None,
                 web: bool = True) -> None:
        self.out = root / f"{name}.out"
        self.name = name
        page = ["--web", "--no-browser"] if web else []
        with open(self.out, "ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "p2pspades", *args, *page],
                                         stdout=out, stderr=subprocess.STDOUT, env=env or dict(os.environ),
                                         preexec_fn=as_a_terminal_starts_it)

    def text(self) -> str:
        return self.out.read_text(errors="replace") if self.out.exists() else ""

    def said(self, pattern: str, timeout: float = WAIT) -> re.Match[str]:
        """Wait until the program printed `pattern`; the match."""
        deadline = time.monotonic() + timeout
        while (found := re.search(pattern, self.text(), re.M)) is None:
            tail = self.text()[-3000:]
            assert self.proc.poll() is None, f"{self.name} ended ({self.proc.returncode}):\n{tail}"
            assert time.monotonic() < deadline, f"{self.name} never printed {pattern!r}:\n{tail}"
            time.sleep(0.05)
        return found

    def url(self) -> str:
        return self.said(URL.pattern).group(1)

    def wait(self, timeout: float = WAIT) -> int:
        return self.proc.wait(timeout=timeout)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium (Playwright's `Browser`)."""
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None, SKIP_REASON
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def served_page(root: Path, *args: str, width: int = 1280,
                height: int = 800) -> Iterator[tuple[Served, Table]]:
    """`p2pspades ARGS --web` (played by "ana") and a tab of headless Chromium on its page; closed after."""
    served = Served(root, "ana", *args)
    try:
        with chromium() as browser:
            yield served, Table(browser, served.url(), width, height)
    finally:
        served.close()


class Table:
    """A tab on the game's page, and what a person does there."""

    def __init__(self, browser: Any, url: str, width: int = 1280, height: int = 800) -> None:
        self.url = url
        self.origin = url.split("/", 3)[:3]
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("console",
                     lambda m: self.errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(url)

    @property
    def labels(self) -> dict[str, str]:
        found: dict[str, str] = self.page.evaluate("JSON.parse(document.documentElement.dataset.labels)")
        return found

    def check(self) -> None:
        """No console error (a refused CSP source is one), and nothing fetched but from the page's own
        origin."""
        assert self.errors == [], self.errors
        foreign = [u for u in self.requests if not (u.startswith(self.url) or u.startswith("ws://127.0.0.1"))]
        assert foreign == [], foreign

    def shot(self, name: str, folder: Path) -> Path:
        """A screenshot of the viewport, to `$P2PSPADES_SCREENSHOTS` if set, else to `folder`."""
        path = Path(SHOTS or folder) / f"web-{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path))
        return path

    def wait_for(self, condition: str, timeout: float = WAIT) -> Any:
        """Poll the JavaScript expression `condition` until it holds (Playwright's own waiting evaluates
        strings, which the page's Content-Security-Policy forbids, as it should)."""
        deadline = time.monotonic() + timeout
        while not (value := self.page.evaluate(condition)):
            if time.monotonic() > deadline:
                shown = self.page.evaluate(
                    "[document.getElementById('app').dataset.screen, (document.querySelector('.game') || "
                    "{dataset: {}}).dataset.overlay, (document.querySelector('.prompt') || {}).textContent]")
                raise AssertionError(f"never true on the page: {condition} (screen, window, prompt: {shown})")
            self.page.wait_for_timeout(25)
        return value

    def screen(self) -> str:
        value: str = self.page.evaluate("document.getElementById('app').dataset.screen || ''")
        return value

    def all_on_screen(self) -> bool:
        """Every card of the hand, every bid, seat and tool inside the window, and nothing wider than it."""
        fits: bool = self.page.evaluate(
            "(() => { const w = innerWidth, h = innerHeight; const out = Array.from("
            "document.querySelectorAll('.hand button.card, .dialog .choice, .seat .plate, .tools button, "
            ".trick .played')).filter(e => { const r = e.getBoundingClientRect(); return r.left < 0 || "
            "r.top < 0 || r.right > w || "
            "r.bottom > h; }); return out.length === 0 && document.documentElement.scrollWidth <= w; })()")
        return fits

    def legal_cards(self) -> list[tuple[str, str]]:
        """(code, accessible name) of every card the page offers to play or pass now."""
        found: list[list[str]] = self.page.evaluate(
            "Array.from(document.querySelectorAll('.hand button.card.legal'))"
            ".map(b => [b.dataset.card, b.getAttribute('aria-label')])")
        return [(code, name) for code, name in found]

    def play_a_card(self) -> str:
        """Click the first card the page lights, by its accessible name; wait until the table has taken
        it (the event pane says it was verified). Returns its code."""
        (code, name), *_ = self.legal_cards()
        self.page.get_by_role("button", name=name, exact=True).click()
        self.wait_for("Array.from(document.querySelectorAll('.events li')).some(li => "
                      f"li.textContent.endsWith(' played {name}: card verified'))")
        return code

    def bid(self, label: str | None = None) -> str:
        """Click a bid (`label`, or the one the dialog has chosen) by its accessible name."""
        choices = self.page.locator(".dialog .choice")
        if label is None:
            label = str(self.page.locator(".dialog .choice.selected").first.inner_text())
        names = [choices.nth(i).inner_text() for i in range(choices.count())]
        assert label in names, (label, names)
        asked = self.page.evaluate("document.querySelector('.game').dataset.decision")
        self.page.locator(".dialog").get_by_role("button", name=label, exact=True).click()
        self.wait_for(f"document.querySelector('.game').dataset.decision !== {asked!r}")  # answered
        return label

    def act(self, bid: str | None = None) -> bool:
        """What a person does at the question on the screen now, if there is one: go on after a hand's
        summary, bid (`bid`, or what the dialog chose), or play the first card lit. False if there is
        nothing to do (the others' turn, or the game is over)."""
        if not self.page.evaluate(ACTIONABLE) or self.page.locator(".w-over").count():
            return False
        if self.page.locator(".w-summary").count():
            self.page.get_by_role("button", name=self.labels["continue"], exact=True).click()
            self.wait_for("!document.querySelector('.w-summary')")
        elif self.page.locator(".dialog:not([hidden]) .choice").count():
            self.bid(bid)
        elif self.legal_cards():
            self.play_a_card()
        return True
