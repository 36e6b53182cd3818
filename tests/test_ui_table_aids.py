"""The game screen's aids, as a person meets them in a real terminal (read through pyte): each side's
contract and the tricks it still needs in the seats panel, the tracker of the cards played (`p`), the bell
when it is our turn (`--bell`, Ctrl-G), the question before a card is played (`--confirm-card`), and the
game-over screen's summary per side and per player."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pyte
import pytest
from helpers.lan import Lan
from helpers.terminal import WAIT, Terminal

pytestmark = [pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(300)]

SUIT_LETTER = {"♠": "s", "♥": "h", "♣": "c", "♦": "d"}
CARD = re.compile(r"(10|[2-9JQKA])([♠♥♣♦])")
ROWS, COLS = 24, 80


class BellScreen(pyte.Screen):
    """A screen that counts the terminal bells it is sent (BEL outside an escape sequence)."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        self.bells = 0

    def bell(self, *args: Any) -> None:
        self.bells += 1


class BellTerminal(Terminal):
    screen: BellScreen


def start(tmp_path: Path, *args: str) -> BellTerminal:
    term = BellTerminal(Lan(tmp_path).env("me"), "play", "play", "--local", "--trick-pause", "0", *args,
                        rows=ROWS, cols=COLS)
    term.screen = BellScreen(COLS, ROWS)
    term.stream = pyte.ByteStream(term.screen)
    return term


def status(term: Terminal) -> str:
    return term.screen.display[-2].strip()


def until(term: Terminal, what: str, ok: Any) -> str:
    deadline = time.monotonic() + WAIT
    while not ok(term.text()):
        assert time.monotonic() < deadline, f"never {what}:\n{term.text()}"
        term.pump()
    return term.text()


def held(screen: str) -> int:
    found = re.search(r"─ Your hand \((\d+)\)", screen)
    return int(found.group(1)) if found else 0


def hand_codes(screen: str) -> list[str]:
    lines = screen.splitlines()
    row = lines[next(i for i, line in enumerate(lines) if "─ Your hand" in line) + 1]
    return [rank + suit for rank, suit in CARD.findall(row)]


def seat_rows(screen: str, players: int) -> list[str]:
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if "─ Seats " in line)
    return lines[top + 2: top + 2 + players]


def answer_until_our_card(term: Terminal) -> str:
    """Enter at every bid (the dialog's default) until it is our turn to play a card; the screen then."""
    while True:
        screen = until(term, "our turn", lambda s: "Your bid" in s.splitlines()[-2] or
                       "Your turn" in s.splitlines()[-2])
        if "Your turn" in status(term):
            return screen
        term.proc.send("\r")
        until(term, "the bid taken", lambda s: "Your bid" not in s.splitlines()[-2])


def test_partners_see_their_contract_and_the_cards_played_and_are_asked_before_a_card(tmp_path: Path) -> None:
    term = start(tmp_path, "--seed", "5", "--bot", "random", "--target", "500", "--confirm-card", "--bell")
    try:
        until(term, "our bid", lambda s: "Your bid" in s.splitlines()[-2])
        assert term.screen.bells >= 1, "the bell rang for our bid"
        screen = answer_until_our_card(term)
        # the seats panel: bid and won per seat, and a line per side that adds them up
        rows = seat_rows(screen, 4)
        bids, won = {}, {}
        for row in rows:
            found = re.match(r"│ .\s(\d) (\S+)\s.*?(us|them)\s+(\d+)\s+(\d+)", row)
            assert found, row
            bids[found.group(2)] = int(found.group(4))
            won[found.group(2)] = int(found.group(5))
        line = next(x for x in screen.splitlines() if "│ us: bid" in x)
        found = re.search(r"us: bid (\d+) \(You: (\d+) \+ North: (\d+)\), (\d+) taken, (\d+) to go", line)
        assert found, screen
        contract, mine, partner, taken, to_go = map(int, found.groups())
        assert (mine, partner) == (bids["You"], bids["North"]) and contract == mine + partner, screen
        assert taken == won["You"] + won["North"] and to_go == contract - taken, screen
        them = next(x for x in screen.splitlines() if "│ them: bid" in x)
        found = re.search(r"them: bid (\d+) \(West: (\d+) \+ East: (\d+)\), (\d+) taken", them)
        assert found and int(found.group(1)) == bids["West"] + bids["East"], screen
        # the help names the new keys
        term.proc.send("?")
        # the window is drawn in more than one write: wait for its last key line, not its title
        helped = until(term, "the help", lambda s: "─ Keys " in s and "bell on/off" in s)
        assert re.search(r"│\s+p\s+the cards played this hand by suit, and those still out", helped), helped
        assert re.search(r"│\s+w\s+wait longer for a seat that stopped answering", helped), helped
        assert "Ctrl-G" in helped and "bell on/off" in helped, helped
        term.proc.send("?")
        until(term, "the help closed", lambda s: "─ Keys " not in s)
        # p: the cards played this hand by suit; none of ours is among those still out
        ours = hand_codes(screen)
        trick = re.search(r"Trick (\d+) of 13", screen)
        assert trick, screen
        on_table = len(CARD.findall("\n".join(x[:37] for x in screen.splitlines()[10:17])))
        term.proc.send("p")
        tracker = until(term, "the tracker", lambda s: "─ Cards played (hand 1)" in s)
        count = re.search(r"(\d+) cards? played · Esc or p closes", tracker)
        assert count and int(count.group(1)) == 4 * (int(trick.group(1)) - 1) + on_table, tracker
        suit_rows = {m.group(1): (m.group(2), m.group(3)) for row in tracker.splitlines()
                     if (m := re.search(r"│  ([♠♥♣♦]) (.*?)│(.*?)│", row))}
        assert set(suit_rows) == set("♠♥♣♦"), tracker
        for code in ours:
            gone, out = suit_rows[code[-1]]
            assert not re.search(rf"(?<![0-9]){code[:-1]}(?![0-9])", out + gone), (code, tracker)
        shown = sum(len(gone.split()) for gone, _ in suit_rows.values() if gone.strip() != "-")
        assert shown == int(count.group(1)), tracker
        term.proc.send("p")
        until(term, "the tracker closed", lambda s: "─ Cards played" not in s)
        # Enter asks first; Esc chooses again; Enter, Enter plays
        before = held(term.text())
        term.proc.send("\r")
        asked = until(term, "the question", lambda s: "Enter plays, Esc chooses again" in s.splitlines()[-2])
        assert re.search(r"play (10|[2-9JQKA])[♠♥♣♦]\?", asked.splitlines()[-2]), asked
        assert held(asked) == before, "nothing is played yet"
        term.proc.send("\x1b")
        until(term, "the question gone", lambda s: "Your turn" in s.splitlines()[-2])
        assert held(term.text()) == before
        term.proc.send("\r")
        until(term, "the question", lambda s: "Enter plays" in s.splitlines()[-2])
        term.proc.send("\r")
        until(term, "the card played", lambda s: held(s) == before - 1)
        # Ctrl-G: no bell at our next turn; again: it rings
        term.proc.send("\x07")
        until(term, "bell off", lambda s: "bell off" in s.splitlines()[-2])
        bells = term.screen.bells
        term.proc.send("\x1b[D")  # a key takes the message away
        until(term, "our next turn", lambda s: held(s) == before - 1 and "Your turn" in s.splitlines()[-2])
        assert term.screen.bells == bells, "no bell once it is off"
        term.proc.send("\x07")
        until(term, "bell on", lambda s: "bell on" in s.splitlines()[-2])
        term.proc.send("\r")
        until(term, "the question", lambda s: "Enter plays" in s.splitlines()[-2])
        term.proc.send("\r")
        until(term, "our card after", lambda s: held(s) == before - 2 and "Your turn" in s.splitlines()[-2])
        assert term.screen.bells > bells, "the bell rings again"
    finally:
        term.close()


def test_without_the_options_no_bell_rings_and_enter_plays_at_once(tmp_path: Path) -> None:
    term = start(tmp_path, "--seed", "5", "--bot", "random", "--target", "500")
    try:
        screen = answer_until_our_card(term)
        before = held(screen)
        term.proc.send("\r")
        until(term, "the card played", lambda s: held(s) == before - 1)
        assert term.screen.bells == 0
    finally:
        term.close()


def play_to_the_end(term: Terminal) -> str:
    """Enter at every question until the game-over screen."""
    deadline = time.monotonic() + 240
    while "─ Game over " not in term.text():
        assert time.monotonic() < deadline, term.text()
        screen, line = term.text(), term.screen.display[-2]
        if "Enter continues" in screen:  # a hand's summary: Esc closes it too, and never leaves the game
            term.proc.send("\x1b")
            until(term, "the summary closed", lambda s: "Enter continues" not in s)
        elif re.search(r"Your (bid|turn)", line):
            term.proc.send("\r")
            until(term, "the answer taken", lambda s, before=line: s.splitlines()[-2] != before)
        term.pump()
    return until(term, "the summary", lambda s: "audited" in s)


def overlay_rows(screen: str, title: str) -> list[str]:
    """The lines inside the window titled `title` drawn over the screen."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if f"┌─ {title} " in line)
    col = lines[top].index(f"┌─ {title} ")
    rows = []
    for line in lines[top + 1:]:
        if line[col:col + 1] != "│":
            break
        rows.append(line[col + 1:].split("│")[0])
    return rows


def numbers(row: str) -> list[str]:
    return row.split()


def test_the_game_over_screen_sums_up_each_side_and_each_player(tmp_path: Path) -> None:
    term = start(tmp_path, "--seed", "3", "--target", "1")
    try:
        screen = play_to_the_end(term)
        footer = screen.splitlines()[-1]
        lines = overlay_rows(screen, "Game over")
        heading = re.compile(r"side\s+total\s+made\s+set\s+bags\s+pts/hand")
        head = next(i for i, x in enumerate(lines) if heading.search(x))
        hands = int(re.search(r"(\d+) hands? audited", screen).group(1))  # type: ignore[union-attr]
        for row in lines[head + 1: head + 3]:
            cells = numbers(row)
            name, (total, made, sets, bags, per_hand) = cells[0], cells[-5:]
            assert re.search(rf"{re.escape(name)} {total} \({bags} bags?\)", footer), (row, footer)
            assert int(made) + int(sets) <= hands
            assert abs(float(per_hand) * hands - int(total)) < 0.1 * hands, row
        players = next(i for i, x in enumerate(lines) if re.search(r"player\s+nil ✓/✗\s+blind ✓/✗", x))
        names = [numbers(row)[0] for row in lines[players + 1: players + 5]]
        assert names == ["You", "West", "North", "East"], screen
        for row in lines[players + 1: players + 5]:
            assert re.fullmatch(r"\d+/\d+", numbers(row)[1]), row
    finally:
        term.close()


def test_each_cutthroat_player_sees_their_own_contract_and_their_own_summary(tmp_path: Path) -> None:
    term = start(tmp_path, "--rules", "cutthroat3", "--seed", "4", "--target", "1")
    try:
        screen = answer_until_our_card(term)
        assert re.search(r"#\s+name\s+bid\s+won\s+contract\s+connection", screen), screen
        for row in seat_rows(screen, 3):
            row = row[1:]  # the columns: name, bid, won, contract
            bid, won, cell = row[22:31].strip(), row[33:36].strip(), row[38:52].strip()
            if bid == "nil":
                assert cell == ("nil: 0 taken" if won == "0" else f"nil failed ({won})"), row
            elif int(won) >= int(bid):
                assert cell.startswith("made"), row
            else:
                assert re.fullmatch(rf"(set: )?{int(bid) - int(won)} to go", cell), row
        screen = play_to_the_end(term)
        lines = overlay_rows(screen, "Game over")
        head = next(i for i, x in enumerate(lines) if re.search(r"player\s+total\s+made\s+set\s+bags", x))
        names = [numbers(row)[0] for row in lines[head + 1: head + 4]]
        assert names[0] == "You" and len(set(names)) == 3, screen
        hands = int(re.search(r"(\d+) hands? audited", screen).group(1))  # type: ignore[union-attr]
        for row in lines[head + 1: head + 4]:
            made, sets = map(int, numbers(row)[2:4])
            assert made + sets <= hands, row
    finally:
        term.close()


def events_pane(screen: str) -> list[str]:
    """The Events pane's lines, top to bottom."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if "┌─ Events " in line)
    col = lines[top].index("┌─ Events ")
    rows = []
    for line in lines[top + 1:]:
        if line[col:col + 1] != "│":
            break
        rows.append(line[col + 1:].split("│")[0].strip())
    return [row for row in rows if row]


def test_while_a_trick_is_held_the_events_pane_tells_no_more_than_the_table(tmp_path: Path) -> None:
    term = start(tmp_path, "--seed", "4", "--bot", "random", "--target", "500", "--trick-pause", "30")
    held = re.compile(r"(\S+) takes? trick (\d+) · any key continues")
    try:
        while True:  # to a trick another seat takes: it leads the next one while the trick is held
            screen = until(term, "our turn or a held trick", lambda s: bool(
                re.search(r"Your (bid|turn)|any key continues", s.splitlines()[-2])))
            found = held.search(screen.splitlines()[-2])
            if found and found.group(1) != "You":
                break
            before = screen.splitlines()[-2]
            term.proc.send("x" if found else "\r")
            until(term, "the screen to go on", lambda s, before=before: s.splitlines()[-2] != before)
        number = int(found.group(2))
        # the winner leads the next trick, the bots play on to our turn: the table still shows the trick
        # held, and so do the events
        screen = until(term, "our turn after the trick", lambda s: "▶ 0 You" in s)
        assert f"Trick {number} of 13" in screen and held.search(screen.splitlines()[-2]), screen
        assert re.fullmatch(rf"trick {number} to \S+", events_pane(screen)[-1]), screen
        term.proc.send("x")  # the table goes on: the plays of the next trick come into the pane
        until(term, "the next trick", lambda s: f"Trick {number + 1} of 13" in s)
        screen = until(term, "the next lines", lambda s: not events_pane(s)[-1].startswith(f"trick {number}"))
        assert re.search(r"played (10|[2-9JQKA])[♠♥♣♦]: card verified", events_pane(screen)[-1]), screen
    finally:
        term.close()
