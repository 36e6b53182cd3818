"""The page of `--web` in a real browser: how soon it paints after its URL is opened, and how soon a card
clicked is on the table.

One `p2pspades play --web --no-browser` process (you and three random bots, every seat a peer on 127.0.0.1,
as a person plays it) and Debian's headless Chromium driven by Playwright. Measured in the page, with the
browser's own clocks (`performance.now()`, an event's `timeStamp`):

- first paint: `--loads` fresh tabs open the page's URL; for each, the browser's first contentful paint, and
  the first frame with the table drawn (the seats and the hand), both from the navigation's start; beside
  the same browser's first paint of a file of the page (`static/icon.svg`, no script: the floor of a
  navigation to this server), and the ratio;
- click to card: every card of ours over `--hands` hands, clicked as a person clicks it: from the click's
  input event to the first frame with the card on the table (a MutationObserver, then the next animation
  frame); beside the page's own round trip through the peer with no game step (`?` opens the help window
  through the model: the key's event to the frame that shows it), and the ratio, which is what the peer's
  step (the entry signed, checked, written and fsync'd, sent) adds.

Targets: first paint and the table drawn under 1000 ms; click to card under 100 ms; `met` when the 90th
percentile is under them. Ratios matter; the absolute times move with the load of a shared machine. Prints
one JSON object; progress goes to stderr.

    python benchmarks/web.py [--loads 10] [--hands 2] [--round-trips 20]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
TARGETS = {"first_paint_ms": 1000, "table_drawn_ms": 1000, "click_to_card_ms": 100}

#: watches the page from before its first byte: when the table is first drawn, and each clicked card's
#: arrival on the table (the frame after the mutation that put it there)
PROBE = """
window.__table = null; window.__cards = []; window.__trips = [];
let pending = null, asked = null;
document.addEventListener("click", (e) => {
  const b = e.target.closest && e.target.closest(".hand button.card");
  if (b) pending = { code: b.dataset.card, t: e.timeStamp };
}, true);
document.addEventListener("keydown", (e) => { if (e.key === "?") asked = e.timeStamp; }, true);
new MutationObserver(() => {
  if (window.__table === null && document.querySelector(".game .seat .plate")
      && document.querySelector(".hand .card")) {
    window.__table = -1;
    requestAnimationFrame(() => { window.__table = performance.now(); });
  }
  if (pending && document.querySelector(`.trick .played[data-card="${pending.code}"]`)) {
    const started = pending.t; pending = null;
    requestAnimationFrame(() => window.__cards.push(performance.now() - started));
  }
  if (asked !== null && document.querySelector(".w-help")) {
    const started = asked; asked = null;
    requestAnimationFrame(() => window.__trips.push(performance.now() - started));
  }
}).observe(document, { subtree: true, childList: true, attributes: true });
"""


def stats(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    return {"n": len(values), "median": round(statistics.median(values), 1),
            "p90": round(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], 1),
            "max": round(max(values), 1)}


def ratio(a: dict[str, Any], b: dict[str, Any]) -> float | None:
    return round(a["median"] / b["median"], 2) if a.get("n") and b.get("n") and b["median"] else None


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def wait_for(page: Any, condition: str, timeout: float = 60) -> Any:
    """Poll a JavaScript expression on the page (its CSP forbids the evaluated strings Playwright waits
    with)."""
    deadline = time.monotonic() + timeout
    while not (value := page.evaluate(condition)):
        if time.monotonic() > deadline:
            raise TimeoutError(condition)
        page.wait_for_timeout(10)
    return value


def first_paints(browser: Any, url: str, loads: int) -> dict[str, list[float]]:
    """`loads` fresh tabs on the page, and as many on a file of its own: their first paints."""
    found: dict[str, list[float]] = {"first_paint_ms": [], "table_drawn_ms": [], "floor_ms": []}
    for _ in range(loads):
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.add_init_script(PROBE)
        page.goto(url)
        wait_for(page, "window.__table > 0")
        paint = wait_for(page, "(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime")
        found["first_paint_ms"].append(float(paint))
        found["table_drawn_ms"].append(float(page.evaluate("window.__table")))
        page.close()
        floor = browser.new_page(viewport={"width": 1280, "height": 800})
        floor.goto(url + "static/icon.svg")
        found["floor_ms"].append(float(wait_for(
            floor, "(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime")))
        floor.close()
    return found


def play(browser: Any, url: str, hands: int, trips: int) -> tuple[list[float], list[float]]:
    """One tab plays `hands` hands, every card clicked; first, `trips` round trips through the model."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script(PROBE)
    page.goto(url)
    wait_for(page, "document.querySelector('.dialog:not([hidden]) .choice')")
    for _ in range(trips):
        page.keyboard.press("?")
        wait_for(page, "document.querySelector('.w-help')")
        page.keyboard.press("Escape")
        wait_for(page, "!document.querySelector('.w-help')")
    wait_for(page, f"window.__trips.length >= {trips}")
    played = 0
    while played < 13 * hands:
        state = wait_for(page, "document.querySelector('.w-summary') ? 'summary' : document.querySelector("
                               "'.dialog:not([hidden]) .choice') ? 'bid' : document.querySelector("
                               "'.hand button.card.legal') ? 'card' : document.querySelector('.w-over') ? "
                               "'over' : ''", timeout=120)
        if state == "over":
            break
        if state == "summary":
            page.locator(".w-summary button.primary").click()
            wait_for(page, "!document.querySelector('.w-summary')")
        elif state == "bid":
            page.locator(".dialog .choice.selected").click()
            wait_for(page, "document.querySelector('.dialog').hidden")
        else:
            code = page.evaluate("document.querySelector('.hand button.card.legal').dataset.card")
            page.locator(f'.hand button.card[data-card="{code}"]').click()
            played += 1
            wait_for(page, f"window.__cards.length >= {played}")
            say(f"  card {played}: {page.evaluate('window.__cards[window.__cards.length - 1]'):.1f} ms")
    cards: list[float] = page.evaluate("window.__cards")
    round_trips: list[float] = page.evaluate("window.__trips")
    page.close()
    return cards, round_trips


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=10, help="fresh tabs opened for the first paint")
    ap.add_argument("--hands", type=int, default=2, help="hands played by clicks (13 cards each)")
    ap.add_argument("--round-trips", type=int, default=20,
                    help="round trips through the model, for the floor")
    args = ap.parse_args(argv)
    chromium = next((p for p in map(shutil.which, ("chromium", "chromium-browser")) if p), None)
    if chromium is None:
        print("benchmarks/web.py: needs Debian's chromium (apt-get install -y chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="p2pspades-web-bench-") as tmp:
        out = Path(tmp) / "play.out"
        env = dict(os.environ, P2PSPADES_HOME=str(Path(tmp) / "home"), PYTHONUNBUFFERED="1")
        with open(out, "wb") as sink:
            command = ["play", "--web", "--no-browser", "--bot", "random", "--seed", "1",
                       "--trick-pause", "0", "--target", "10000"]
            proc = subprocess.Popen([sys.executable, "-m", "p2pspades", *command], stdout=sink,
                                    stderr=subprocess.STDOUT, env=env)
        try:
            deadline = time.monotonic() + 60
            while (found := re.search(r"http://127\.0\.0\.1:\d+/\S+/", out.read_text())) is None:
                if proc.poll() is not None or time.monotonic() > deadline:
                    print(out.read_text(), file=sys.stderr)
                    return 1
                time.sleep(0.05)
            url = found.group(0)
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
                say(f"first paint: {args.loads} loads...")
                warm = browser.new_page()
                warm.goto(url)
                wait_for(warm, "document.querySelector('.dialog:not([hidden]) .choice')")  # dealt, our bid
                warm.close()
                paints = first_paints(browser, url, args.loads)
                say(f"click to card: {args.hands} hands...")
                cards, trips = play(browser, url, args.hands, args.round_trips)
                version = browser.version
                browser.close()
        finally:
            proc.kill()
            proc.wait()
    report: dict[str, Any] = {
        "browser": f"Chromium {version}, headless", "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "first_paint_ms": stats(paints["first_paint_ms"]),
        "table_drawn_ms": stats(paints["table_drawn_ms"]),
        "floor_first_paint_ms": stats(paints["floor_ms"]),
        "click_to_card_ms": stats(cards),
        "round_trip_ms": stats(trips),
    }
    report["ratio_table_drawn_to_floor"] = ratio(report["table_drawn_ms"], report["floor_first_paint_ms"])
    report["ratio_click_to_card_to_round_trip"] = ratio(report["click_to_card_ms"], report["round_trip_ms"])
    report["targets"] = TARGETS
    report["met"] = {key: bool(report[key].get("n")) and report[key]["p90"] < limit  # 9 times in 10
                     for key, limit in TARGETS.items()}
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
