"""protocol/vectors/draw.json: the byte stream and the first-dealer draw, from the code and from the text."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from p2pspades import crypto
from p2pspades.rules import RuleSet, preset
from p2pspades.rules.cards import FULL_DECK
from p2pspades.rules.chance import ByteStream
from p2pspades.rules.dealer import choose_first_dealer

VECTORS_DIR = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
VECTORS: dict[str, Any] = json.loads((VECTORS_DIR / "draw.json").read_text(encoding="utf-8"))
CRYPTO: dict[str, Any] = json.loads((VECTORS_DIR / "crypto.json").read_text(encoding="utf-8"))
RANK = {ch: i + 2 for i, ch in enumerate("23456789TJQKA")} | {"L": 15, "B": 16}


class TextStream:
    """crypto.md §5 and §10.1 as written: SHAKE-256 of the seed, read from its start, never restarted."""

    def __init__(self, seed: bytes) -> None:
        self.seed, self.offset = seed, 0

    def next4(self) -> int:
        self.offset += 4
        out = hashlib.shake_256(self.seed).digest(self.offset)[-4:]
        return int.from_bytes(out, "big")

    def below(self, m: int) -> int:
        limit = 2**32 - (2**32 % m)
        while True:
            x = self.next4()
            if x < limit:
                return x % m

    def shuffle(self, items: list[str]) -> list[str]:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def text_draw(deck: list[str], players: int, randomness: bytes) -> tuple[int, list[list[list[Any]]]]:
    stream = TextStream(randomness)
    shuffled, position, seats = stream.shuffle(deck), 0, list(range(players))
    rounds: list[list[list[Any]]] = []
    while True:
        drawn: list[tuple[int, str]] = []
        for seat in seats:
            if position == len(shuffled):
                shuffled, position = stream.shuffle(deck), 0
            drawn.append((seat, shuffled[position]))
            position += 1
        rounds.append([[seat, code] for seat, code in drawn])
        top = max(RANK[code[0]] for _, code in drawn)
        seats = [seat for seat, code in drawn if RANK[code[0]] == top]
        if len(seats) == 1:
            return seats[0], rounds


def test_byte_stream() -> None:
    case = VECTORS["byte_stream"]
    seed = bytes.fromhex(case["seed"])
    assert hashlib.shake_256(seed).digest(64).hex() == case["first_64_bytes"]
    stream = ByteStream(seed)
    assert stream.read(64).hex() == case["first_64_bytes"]
    text = TextStream(seed)
    text.offset = 64
    for m, value in case["below_after_them"]:
        assert text.below(m) == value
        assert stream.below(m) == value
    assert list(ByteStream(seed).permutation(10)) == case["permutation_10"]


def _rules(case: dict[str, Any]) -> RuleSet:
    if case["name"].startswith("classic"):
        return preset("classic")
    if case["name"] == "jokers":
        return preset("individual")
    keep = set(case["deck"])
    removed = tuple(card.code for card in FULL_DECK[:52] if card.code not in keep)
    return RuleSet(players=2, partnerships=False, nil=False, blind_nil=False, removed=removed)


@pytest.mark.parametrize("case", VECTORS["draws"], ids=lambda case: case["name"])
def test_draw(case: dict[str, Any]) -> None:
    rules = _rules(case)
    assert [card.code for card in rules.deck] == case["deck"]
    randomness = bytes.fromhex(case["randomness"])
    result = choose_first_dealer(rules, randomness)
    assert result.dealer == case["dealer"]
    assert [[[seat, card.code] for seat, card in drawn] for drawn in result.rounds] == case["rounds"]
    assert TextStream(randomness).shuffle(case["deck"]) == case["shuffled"]
    assert text_draw(case["deck"], case["players"], randomness) == (case["dealer"], case["rounds"])


def test_draw_randomness_is_that_of_crypto_vectors() -> None:
    draw = CRYPTO["draw"]
    shares = [bytes.fromhex(share) for share in draw["shares"]]
    randomness = crypto.draw_randomness(bytes.fromhex(draw["game_id"]), shares)
    assert randomness.hex() == draw["randomness"] == VECTORS["draws"][0]["randomness"]


def test_vectors_are_current() -> None:
    script = VECTORS_DIR / "make_draw_vectors.py"
    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
