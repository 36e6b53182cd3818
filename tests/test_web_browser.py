"""The game in a real browser (headless Chromium driven by Playwright), as a person plays it: `p2pspades
play|host --web` in a process of its own, every bid and card clicked by its accessible name, from the lobby
to the game over, the hand records and the next game in the same tab. Every page loads nothing but from its
own origin and logs no error (a refused Content-Security-Policy source would be one). The screenshots of
docs/playing.md are taken here (`P2PSPADES_SCREENSHOTS=docs/images`)."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

import pytest
from helpers.page import CHROMIUM, SKIP_REASON, Table, served_page

from p2pspades.rules import Card

pytestmark = [pytest.mark.slow, pytest.mark.net, pytest.mark.timeout(600),
              pytest.mark.skipif(CHROMIUM is None, reason=SKIP_REASON)]

BIDS = ["nil", *map(str, range(1, 14))]
ONE_HAND = ("--target", "1", "--option", "losing_threshold=-1")
"""Rules that end the game after its first hand (unless both sides score exactly nothing)."""


def names_of(table: Table, selector: str) -> list[str]:
    found: list[str] = table.page.evaluate(
        f"Array.from(document.querySelectorAll({selector!r})).map(e => e.getAttribute('aria-label') || "
        "e.textContent)")
    return found


def test_a_whole_hand_by_clicks_then_the_records_and_a_new_game_in_the_same_tab(tmp_path: Path) -> None:
    with served_page(tmp_path, "play", "--name", "Ana", "--bot", "random", "--seed", "7", *ONE_HAND,
                     "--trick-pause", "0.3") as (served, table):
        page = table.page
        table.wait_for("document.querySelector('.dialog:not([hidden]) .choice')")
        # the bid: a button per legal bid, each named by the bid
        assert names_of(table, ".dialog .choice") == BIDS
        assert table.all_on_screen()
        for label in BIDS:
            assert page.locator(".dialog").get_by_role("button", name=label, exact=True).count() == 1
        assert page.locator("#turn").text_content() == "Your turn to bid"
        table.bid("3")
        played: list[str] = []
        told: set[str] = set()
        while True:
            table.wait_for("document.querySelector('.hand button.card.legal, .w-summary')")
            if page.locator(".w-summary").count():
                break
            hand = page.locator(".hand button.card")
            assert hand.count() == 13 - len(played)
            def disabled(name: str) -> str | None:
                value: str | None = page.get_by_role("button", name=name, exact=True).get_attribute(
                    "aria-disabled")
                return value

            for code, name in table.legal_cards():
                assert name == Card.parse(code).glyph  # "A♠", "10♥": the card's own name
                assert disabled(name) is None
            assert all(disabled(n) == "true" for n in names_of(table, ".hand button.card.illegal"))
            assert page.locator("#turn").text_content() == "Your turn to play a card"
            if page.locator(".trick .played").count() >= 2 and not played[3:4]:
                assert table.all_on_screen()
                table.shot("trick", tmp_path)
            played.append(table.play_a_card())
            told.add(str(page.locator("#told").text_content()))
        assert len(played) == 13 and len(set(played)) == 13
        assert any(re.fullmatch(r"trick \d+ to \w+: .+", t) for t in told), told
        # the live region tells each trick with its cards, ours by name
        said = " ".join(told)
        assert any(f"you {Card.parse(code).glyph}" in said for code in played), said
        summary = page.get_by_role("dialog", name="Hand 1 is over")
        assert summary.count() == 1
        players = [r.inner_text() for r in summary.locator("tbody th").all()]
        assert players == ["Ana", "West", "North", "East"]
        table.shot("summary", tmp_path)
        page.get_by_role("button", name=table.labels["continue"], exact=True).click()
        over = page.get_by_role("dialog", name="Game over")
        over.wait_for()
        result = over.locator(".result").inner_text()
        assert re.fullmatch(r"(You|West\+East) win( \(Ana\+North\))?", result), result
        table.shot("over", tmp_path)
        # the hand records, from the link: who won, by name
        with page.context.expect_page() as opened:
            over.get_by_role("link", name=table.labels["records"]).click()
        records = opened.value
        records.wait_for_load_state()
        outcome = records.locator("#verdict .outcome").inner_text()
        assert re.fullmatch(r"(Ana \+ North|West \+ East) won the game, -?\d+ to -?\d+", outcome), outcome
        banner = records.locator("#verdict").inner_text() + records.locator("#table").inner_text()
        assert not re.search(r"\b(seat|side) \d", banner), banner
        assert records.evaluate("document.scripts.length") == 1
        # a new game in the same tab: this program becomes the next one, at the same address
        over.get_by_role("button", name="New game").click()
        served.said(r"^starting: p2pspades play .*--web --no-browser --web-port \d+")
        table.wait_for("document.querySelector('.dialog:not([hidden]) .choice')")
        assert page.locator(".hand button.card").count() == 13 and "hand 1" in page.title()
        # while the next program started, the page's attempts to reconnect were refused: only those
        retries = [e for e in table.errors if "/ws' failed" in e and "ERR_CONNECTION_REFUSED" in e]
        assert retries == table.errors
        table.errors.clear()
        table.check()
        # Leave: asks first, then the program ends as leaving does, and the page says so
        page.get_by_role("button", name=table.labels["leave"], exact=True).click()
        page.get_by_role("dialog").get_by_role("button", name=table.labels["yes_leave"]).click()
        assert served.wait() == 0
        table.wait_for("document.querySelector('.notice .console')")
        assert "carry on with: p2pspades resume" in page.locator(".console").inner_text()
        assert page.locator(".notice-head").inner_text() == table.labels["ended"]
        table.check()
        assert "you left before the end; carry on with: p2pspades resume" in served.text()


def test_the_court_cards_are_lettered_in_the_page_language(tmp_path: Path) -> None:
    """In German the page draws the jack, queen and king as B, D and K, in their corners and big in the
    middle, as the terminal writes them: the rank comes from the snapshot, the court from the card's code."""
    with served_page(tmp_path, "play", "--lang", "de", "--name", "Ana", "--bot", "random", "--seed", "7",
                     *ONE_HAND) as (_served, table):
        table.wait_for("document.querySelector('.hand button.card')")
        faces: list[list[str]] = table.page.evaluate(
            "Array.from(document.querySelectorAll('.hand button.card')).map(b => [b.dataset.card, "
            "(b.querySelector('.court') || {}).textContent || '', b.querySelector('.corner b').textContent])")
        letters = {"J": "B", "Q": "D", "K": "K"}
        courts = [(code, court, corner) for code, court, corner in faces if code[0] in letters]
        assert courts, f"seed 7 deals Ana no court card: {faces}"
        assert all(court == corner == letters[code[0]] for code, court, corner in courts), faces
        assert all(court == "" for code, court, _corner in faces if code[0] not in letters), faces
        assert table.errors == []


def test_the_host_seats_bots_in_the_lobby_by_clicks_and_ctrl_c_leaves(tmp_path: Path) -> None:
    with served_page(tmp_path, "host", "--name", "Ana", "--address", "127.0.0.1", "--no-advertise",
                     "--table", "Kitchen table", "--target", "300") as (served, table):
        page = table.page
        table.wait_for("document.getElementById('app').dataset.screen === 'lobby'")
        rows = page.locator(".seated tbody tr")
        assert rows.count() == 4
        assert rows.nth(0).inner_text().startswith("0\tA\tAna (You)")
        for seat in (1, 2, 3):
            rows.nth(seat).get_by_role("button", name=table.labels["seat_bot"]).click()
            table.wait_for(f"document.querySelectorAll('.seated tbody tr')[{seat}].textContent"
                           ".includes('you see its cards')")
        rows.nth(2).get_by_role("button", name="Level: normal").click()
        rows.nth(2).get_by_role("button", name="Level: expert").wait_for()
        assert "expert bot · you see its cards" in rows.nth(2).inner_text()
        fingerprints = [rows.nth(i).locator("code").inner_text() for i in range(4)]
        assert all(re.fullmatch(r"[0-9a-z]{4}(-[0-9a-z]{4}){3}", f) for f in fingerprints), fingerprints
        start = page.get_by_role("button", name=table.labels["start"], exact=True)
        start.wait_for()
        table.wait_for("!document.querySelector('.lobby .buttons button').disabled")
        table.shot("lobby", tmp_path)
        start.click()
        table.wait_for("document.getElementById('app').dataset.screen === 'game'")
        table.wait_for("document.querySelectorAll('.seat').length === 4")
        table.check()
        served.proc.send_signal(signal.SIGINT)  # Ctrl-C in the terminal: leave, as the Leave button does
        assert served.wait() == 0
        table.wait_for("document.querySelector('.notice .console')")
        assert "you left before the end; carry on with: p2pspades resume" in served.text()


def test_the_nil_pass_by_clicks(tmp_path: Path) -> None:
    with served_page(tmp_path, "play", "--name", "Ana", "--bot", "random", "--seed", "3",
                     "--option", "nil_pass=2") as (_, table):
        page = table.page
        table.wait_for("document.querySelector('.dialog:not([hidden]) .choice')")
        table.bid("nil")
        table.wait_for("document.querySelector('.passbar:not([hidden])')")
        passable = table.legal_cards()
        assert passable and page.locator(".passbar button.primary").is_disabled()
        for code, name in passable[:2]:
            button = page.get_by_role("button", name=name, exact=True)
            button.click()
            table.wait_for(f"document.querySelector('.hand button[data-card=\"{code}\"]')"
                           ".getAttribute('aria-pressed') === 'true'")
        assert page.locator(".passbar button.primary").is_enabled()
        table.shot("pass", tmp_path)
        page.locator(".passbar button.primary").click()
        glyphs = " ".join(name for _, name in sorted(passable[:2], key=lambda c: Card.parse(c[0]).index))
        table.wait_for("Array.from(document.querySelectorAll('.events li'))"
                       ".some(li => li.textContent.startsWith('You passed '))")
        line = page.locator(".events li", has_text="You passed ").inner_text()
        assert sorted(line.removeprefix("You passed ").removesuffix(" to North").split()) == sorted(
            glyphs.split()), line
        table.check()


def test_keys_the_confirm_option_a_small_window_and_a_watching_tab(tmp_path: Path) -> None:
    with served_page(tmp_path, "play", "--name", "Ana", "--bot", "random", "--seed", "5",
                     "--confirm-card", "--trick-pause", "0", width=1024, height=700) as (_, table):
        page = table.page
        table.wait_for("document.querySelector('.dialog:not([hidden]) .choice')")
        assert table.all_on_screen(), "at 1024x700 every card, bid, seat and tool is on the screen"
        page.keyboard.press("1")
        page.keyboard.press("0")
        page.keyboard.press("Enter")
        table.wait_for("document.querySelector('.seat.at0 .line').textContent.startsWith('bid 10')")
        table.wait_for("document.querySelector('.hand button.card.legal')")
        assert table.all_on_screen()
        # the coach: the expert's choice, on the prompt line, the cursor on its card
        page.get_by_role("button", name=table.labels["coach"], exact=True).click()
        table.wait_for("/^coach: (?!thinking)/.test(document.querySelector('.prompt').textContent)")
        assert page.locator(".hand button.card.selected").count() == 1
        page.keyboard.press("End")  # the cursor to the last card that may be played
        table.wait_for("document.querySelector('.hand button.card.selected') === "
                       "Array.from(document.querySelectorAll('.hand button.card.legal')).pop()")
        chosen = page.locator(".hand button.card.selected").get_attribute("data-card")
        page.keyboard.press("Enter")  # with the confirm option, Enter first asks
        table.wait_for("!document.querySelector('.confirm').hidden")
        assert page.locator(".prompt").inner_text().startswith(f"play {Card.parse(str(chosen)).glyph}?")
        # a second tab watches: it sees the same table, and what it asks is refused
        watcher = Table(table.page.context.browser, table.url, 1024, 700)
        watcher.wait_for("document.querySelector('.confirm') && "
                         "!document.querySelector('.confirm').hidden")
        assert watcher.page.locator(".banner").first.is_visible()
        watcher.page.locator(".confirm button.primary").click()
        watcher.wait_for("document.getElementById('said').textContent.includes('watches')")
        glyph = Card.parse(str(chosen)).glyph
        verified = ("Array.from(document.querySelectorAll('.events li')).some(li => "
                    f"li.textContent === 'You played {glyph}: card verified')")  # Ana's own page
        assert not page.evaluate(verified), "the watching tab played nothing"
        assert page.locator(f".hand button.card[data-card=\"{chosen}\"]").count() == 1
        page.keyboard.press("Enter")  # the second Enter plays it
        table.wait_for(verified)
        watcher.wait_for(verified)
        # the windows the terminal's letters open
        for key, window in (("s", ".w-scores"), ("p", ".w-played"), ("l", ".w-last"), ("?", ".w-help")):
            table.wait_for("document.querySelector('.game').dataset.overlay === ''")  # nor a held trick
            page.keyboard.press(key)
            table.wait_for(f"document.querySelector('{window}')")
            page.keyboard.press("Escape")
        table.check()
        watcher.check()


@pytest.mark.parametrize(("rules", "seats"), [("two", 2), ("cutthroat3", 3), ("five", 5)])
def test_two_three_and_five_seats_round_the_table(tmp_path: Path, rules: str, seats: int) -> None:
    name = "<b>Ana</b> & <img src=x>"  # a name is text on the page, never markup
    with served_page(tmp_path, "play", "--rules", rules, "--name", name, "--bot", "random",
                     "--seed", "4", "--trick-pause", "0") as (_, table):
        page = table.page
        table.wait_for("document.getElementById('app').dataset.screen === 'game'")
        table.wait_for(f"document.querySelectorAll('.seat .plate').length === {seats}")
        assert page.locator(".seat.at0 .name").inner_text() == name
        # both counted in one evaluation: the bots play on between two, and a card drawn in between is counted
        # by one side alone
        marked, ours = page.evaluate(
            "['#app b, #app img', '#app .corner b, #app .court, #app .scores b']"
            ".map(s => document.querySelectorAll(s).length)")
        assert marked == ours
        places = page.evaluate("Array.from(document.querySelectorAll('.seat')).map(s => s.className)")
        assert [f"at{k}" in place for k, place in enumerate(places)] == [True] * seats
        deadline = time.monotonic() + 240
        third = "document.querySelector('.trick-title').textContent.startsWith('Trick 3')"
        while not page.evaluate(third):
            assert time.monotonic() < deadline, "three tricks were not played in time"
            if table.act():
                assert table.all_on_screen(), f"{rules}: a seat, a card or a bid is off the screen"
            else:
                page.wait_for_timeout(20)
        boxes = page.evaluate("Array.from(document.querySelectorAll('.seat .plate')).map(p => {"
                              " const r = p.getBoundingClientRect();"
                              " return [r.left, r.top, r.right, r.bottom]; })")
        for i, a in enumerate(boxes):  # no seat covers another
            for b in boxes[i + 1:]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (rules, a, b)
        table.check()
