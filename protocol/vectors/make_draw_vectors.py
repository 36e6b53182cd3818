"""Write protocol/vectors/draw.json: the byte stream and the first-dealer draw (crypto.md §10.1).

Every input is fixed, so running this twice writes the same bytes. `--check` compares instead of writing and
exits 1 if the file is stale.

    python protocol/vectors/make_draw_vectors.py [--check]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from p2pspades import crypto
from p2pspades.rules import RuleSet, preset
from p2pspades.rules.cards import FULL_DECK
from p2pspades.rules.chance import ByteStream
from p2pspades.rules.dealer import choose_first_dealer

OUT = Path(__file__).with_name("draw.json")
#: the game id and draw shares of vectors/crypto.json, so that its draw randomness is used here
GAME_ID = bytes.fromhex("00112233445566778899aabbccddeeff")
DRAW_SHARES = [bytes([0xA0 + seat]) * 32 for seat in range(4)]
#: a 4-card deck for 2 players (only AS, AH, KS, KH): ties are frequent and the deck runs out
TINY = RuleSet(
    players=2,
    partnerships=False,
    nil=False,
    blind_nil=False,
    removed=tuple(card.code for card in FULL_DECK[:52] if card.code not in ("AS", "AH", "KS", "KH")),
)


def _draw(name: str, rules: RuleSet, randomness: bytes, why: str) -> dict[str, Any]:
    result = choose_first_dealer(rules, randomness)
    stream = ByteStream(randomness)
    deck = list(rules.deck)
    stream.shuffle(deck)
    return {
        "name": name,
        "why": why,
        "deck": [card.code for card in rules.deck],
        "players": rules.players,
        "randomness": randomness.hex(),
        "shuffled": [card.code for card in deck],
        "rounds": [[[seat, card.code] for seat, card in drawn] for drawn in result.rounds],
        "dealer": result.dealer,
    }


def _find(rules: RuleSet, label: str, want: Any) -> bytes:
    """The first randomness H(label, u16(i))[:32] whose draw satisfies `want`."""
    for i in range(1 << 16):
        randomness = crypto.H("p2pspades/vectors/draw", label.encode(), i.to_bytes(2, "big"))[:32]
        if want(choose_first_dealer(rules, randomness)):
            return randomness
    raise AssertionError(f"no randomness found for {label}")  # pragma: no cover


def build() -> dict[str, Any]:
    """Every vector, as plain JSON values (byte strings in lowercase hex)."""
    seed = bytes(range(32))
    stream = ByteStream(seed)
    first_bytes = stream.read(64)
    belows = [[m, stream.below(m)] for m in (1, 2, 3, 10, 52, 2**32)]
    classic = preset("classic")
    jokers = preset("individual")
    randomness = crypto.draw_randomness(GAME_ID, DRAW_SHARES)
    tie = _find(classic, "tie", lambda d: len(d.rounds) >= 3)
    joker = _find(jokers, "jokers", lambda d: sum(c.is_joker for _, c in d.rounds[0]) == 2)
    reshuffle = _find(TINY, "reshuffle", lambda d: len(d.rounds) >= 3)
    return {
        "format": "p2pspades-draw-vectors/1",
        "byte_stream": {
            "seed": seed.hex(),
            "first_64_bytes": first_bytes.hex(),
            "below_after_them": belows,
            "permutation_10": list(ByteStream(seed).permutation(10)),
        },
        "draws": [
            _draw(
                "classic",
                classic,
                randomness,
                "the draw randomness of vectors/crypto.json (game id and shares there)",
            ),
            _draw("classic-tie", classic, tie, "three rounds or more: tied seats draw again from this deck"),
            _draw(
                "jokers",
                jokers,
                joker,
                "both jokers in the first round: the big joker beats the little one (no tie between them)",
            ),
            _draw(
                "reshuffle",
                TINY,
                reshuffle,
                "a 4-card deck (AS AH KS KH) and 2 players: the deck runs out and is shuffled again",
            ),
        ],
    }


def render() -> str:
    return json.dumps(build(), indent=1) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if argv[1:] == ["--check"]:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is stale: run {Path(__file__).name} to rewrite it", file=sys.stderr)
            return 1
        return 0
    if argv[1:]:
        print(__doc__, file=sys.stderr)
        return 2
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
