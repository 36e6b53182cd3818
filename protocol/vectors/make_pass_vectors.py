"""Write protocol/vectors/pass.json: known answers for the nil card pass (crypto.md §20).

The deal is that of proofs.json's `deal_8` (the same game id, hand, seeds and 8 cards 2S .. 9S, dealt one at
a time from seat 0: seat `j mod 4` owns position `j`). Seat 0 passes positions 0 and 4 to its partner seat 2,
and seat 2 passes positions 2 and 6 to seat 0. Everything is derived from the fixed seeds, so running this
twice writes the same bytes. `--check` compares instead of writing and exits 1 if the file is stale.

    python protocol/vectors/make_pass_vectors.py [--check]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from vectorfile import write_or_check

from p2pspades import crypto
from p2pspades.crypto import passing, proofs

OUT = Path(__file__).with_name("pass.json")

CODES = [rank + "S" for rank in "23456789"]  # 2S .. 9S, the deck of proofs.json's deal_8
GAME_ID = bytes.fromhex("0f1e2d3c4b5a69788796a5b4c3d2e1f0")
HAND = 3
SEATS = 4
SEEDS = [bytes([0x11 * (seat + 1)]) * 32 for seat in range(SEATS)]
PASSES = [(0, 2, [0, 4]), (2, 0, [2, 6])]  # (from, to, positions)


def build() -> dict[str, Any]:
    n = len(CODES)
    contexts = [crypto.hand_context(GAME_ID, HAND, seat) for seat in range(SEATS)]
    secrets = [crypto.HandSecrets.derive(SEEDS[seat], contexts[seat], n) for seat in range(SEATS)]
    deck = [crypto.card_point(code) for code in CODES]
    for seat in range(SEATS):
        deck = crypto.shuffle(deck, secrets[seat])
    for seat in range(SEATS):
        deck = crypto.lock(deck, secrets[seat])
    table = crypto.card_table(CODES_AS_CARDS)
    keys = [passing.pass_key(SEEDS[seat], contexts[seat]) for seat in range(SEATS)]
    publics = [passing.pass_public(SEEDS[seat], contexts[seat]) for seat in range(SEATS)]
    passes = []
    for sender, recipient, positions in PASSES:
        shared = passing.shared_point(keys[sender], publics[recipient])
        assert shared == passing.shared_point(keys[recipient], publics[sender])
        rows = []
        for j in positions:
            key = secrets[sender].lock_keys[j]
            sealed = passing.seal_key(key, shared, contexts[sender], recipient, j)
            pad = passing.pass_pad(shared, contexts[sender], recipient, j)
            all_keys = [secrets[i].lock_keys[j] for i in range(SEATS)]
            card = crypto.open_card(deck[j], all_keys, table)
            assert card is not None
            rows.append(
                {
                    "j": j,
                    "key": key.hex(),
                    "P": proofs.lock_commitments(secrets[sender])[j].hex(),
                    "pad": pad.to_bytes(32, "little").hex(),
                    "sealed": sealed.hex(),
                    "final": deck[j].hex(),
                    "other_keys": [secrets[i].lock_keys[j].hex() for i in range(SEATS) if i != sender],
                    "card": card.code,
                }
            )
        passes.append({"from": sender, "to": recipient, "X": shared.hex(), "positions": rows})
    first = passes[0]["positions"][0]
    wrong = bytearray(bytes.fromhex(first["sealed"]))
    wrong[0] ^= 0x01
    shared0 = bytes.fromhex(passes[0]["X"])
    opened_wrong = passing.open_sealed(bytes(wrong), shared0, contexts[0], 2, first["j"])
    return {
        "format": "p2pspades-pass-vectors/1",
        "game_id": GAME_ID.hex(),
        "hand": HAND,
        "codes": CODES,
        "seats": [
            {"seat": seat, "seed": SEEDS[seat].hex(), "context": contexts[seat].hex(), "e": keys[seat].hex(),
             "E": publics[seat].hex()}
            for seat in range(SEATS)
        ],
        "passes": passes,
        "wrong_seal": {"from": 0, "to": 2, "j": first["j"], "sealed": bytes(wrong).hex(),
                       "opens_to": opened_wrong.hex(), "P": first["P"]},
    }


class _Code:
    def __init__(self, code: str) -> None:
        self.code = code


CODES_AS_CARDS = [_Code(code) for code in CODES]


if __name__ == "__main__":
    sys.exit(write_or_check(sys.argv, OUT, build, "usage: make_pass_vectors.py [--check]"))
