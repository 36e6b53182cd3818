"""The nil card pass in a real terminal (read through pyte): the person bids nil (`n`), is asked to pass two
cards to North, marks them (a typed code and Space, an arrow and Space), is told how many to mark when Enter
comes too soon, passes them, is told which cards went and which came, holds the cards received, and the game
goes on to the first card. On the Unicode screen in colour, and on the ASCII screen in monochrome."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.lan import Lan
from helpers.terminal import Terminal

pytestmark = [pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(300)]

RIGHT = "\x1b[C"
SUIT_LETTER = {"♠": "s", "♥": "h", "♣": "c", "♦": "d"}
GOT = re.compile(r"North passed you (\S+) (\S+)")


def hand_row(term: Terminal) -> str:
    lines = term.text().splitlines()
    return lines[next(i for i, line in enumerate(lines) if re.search(r"[─-] Your hand", line)) + 1]


def code(shown: str) -> str:
    """What a person types for a card the screen shows ("K♠" or "KS"): "ks"."""
    return shown[:-1].lower() + SUIT_LETTER.get(shown[-1], shown[-1].lower())


def status_line(term: Terminal) -> str:
    return term.screen.display[-2]


def wait_status(term: Terminal, text: str) -> None:
    term.expect(re.escape(text), 60)
    assert text in status_line(term), term.text()


@pytest.mark.parametrize("look", [[], ["--ascii", "--no-color"]], ids=["unicode", "ascii-mono"])
def test_a_person_who_bids_nil_passes_two_cards_and_gets_two_back(tmp_path: Path, look: list[str]) -> None:
    ascii_ = bool(look)
    card = re.compile(r"(10|[2-9JQKA])([SHDC])" if ascii_ else r"(10|[2-9JQKA])([♠♥♦♣])")
    env = Lan(tmp_path).env("me")
    # the person or North passes first, as the first dealer's draw falls
    term = Terminal(env, "play", "play", "--local", "--option", "nil_pass=2", "--seed", "9", "--bot",
                    "random", "--trick-pause", "0", "--target", "300", *look, rows=24, cols=100)
    try:
        term.expect(r"Your bid", 90)
        term.proc.send("n")
        wait_status(term, "Pass 2 cards to North (you bid nil): 0 of 2 marked")
        received = [] if (got := GOT.search(term.text())) is None else [got.group(1), got.group(2)]
        held = ["".join(c) for c in card.findall(hand_row(term))]
        assert len(held) == 13 + len(received), term.text()
        if received:  # North passed first (the first dealer is drawn): a card received may not go back
            term.proc.send(code(received[0]) + " ")
            wait_status(term, f"{received[0]} may not be passed: it was passed to you")
        term.proc.send("\r")  # too soon: says how many to mark
        wait_status(term, "pass exactly 2 cards: 0 marked")
        at = next(i for i in range(len(held) - 1) if not {held[i], held[i + 1]} & set(received))
        first, second = held[at], held[at + 1]
        term.proc.send(code(first) + " ")  # a typed code and Space
        wait_status(term, "1 of 2 marked")
        assert f"*{first}" in hand_row(term), term.text()
        term.proc.send(RIGHT + " ")  # the cursor moves on from the card typed; Space marks it
        wait_status(term, "2 of 2 marked")
        assert f"*{first}" in hand_row(term) and f"*{second}" in hand_row(term), term.text()
        term.proc.send("\r")
        term.expect(re.escape(f"You passed {first} {second} to North"), 60)
        if not received:
            got = GOT.search(term.expect(GOT.pattern, 90))
            assert got is not None
            received = [got.group(1), got.group(2)]
        assert all(card.fullmatch(c) for c in received), received
        # the hand panel holds the cards received, not those passed, and no card is marked any more
        term.expect(r"Your turn|played", 120)
        now = ["".join(c) for c in card.findall(hand_row(term))]
        assert set(received) <= set(now) and not {first, second} & set(now), term.text()
        assert "*" not in hand_row(term), term.text()
        # the game goes on: the person plays a card
        term.expect(r"Your turn: play a card", 120)
    finally:
        term.close()
