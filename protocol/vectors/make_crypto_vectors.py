"""Write protocol/vectors/crypto.json: known-answer vectors for the derivations of protocol/crypto.md.

Every input is fixed, so running this twice writes the same bytes. `--check` compares instead of writing and
exits 1 if the file is stale.

    python protocol/vectors/make_crypto_vectors.py [--check]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from vectorfile import write_or_check

from p2pspades import crypto

OUT = Path(__file__).with_name("crypto.json")

RANKS = "23456789TJQKA"
SUITS = "SHDC"
#: the canonical order of the full 54-card deck: 2S..AS, 2H..AH, 2D..AD, 2C..AC, LJ, BJ
FULL_DECK_CODES = [rank + suit for suit in SUITS for rank in RANKS] + ["LJ", "BJ"]
#: the standard 52-card deck (no jokers), in canonical order
DECK_52_CODES = FULL_DECK_CODES[:52]

GAME_ID = bytes.fromhex("00112233445566778899aabbccddeeff")
SECRETS_SEED = bytes(range(32))
DEAL_SEEDS = [bytes([seat + 1]) * 32 for seat in range(4)]
DRAW_SHARES = [bytes([0xA0 + seat]) * 32 for seat in range(4)]
#: RFC 8032, section 7.1, TEST 1: an outside check of the signature scheme
RFC8032_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
SIGNED_MESSAGE = b"p2pspades"


class _Card:
    """A card as the crypto layer sees it: only its code."""

    def __init__(self, code: str) -> None:
        self.code = code


def _hex_list(items: list[bytes]) -> list[str]:
    return [item.hex() for item in items]


def build() -> dict[str, Any]:
    """Every vector, as plain JSON values (byte strings in lowercase hex)."""
    h_inputs: list[tuple[str, list[bytes]]] = [
        ("p2pspades/v1/card", [b"AS"]),
        ("p2pspades/v1/test", []),
        ("p2pspades/v1/test", [b"", b"\x00\x01\x02"]),
    ]
    hashes = [
        {"domain": domain, "parts": _hex_list(parts), "output": crypto.H(domain, *parts).hex()}
        for domain, parts in h_inputs
    ]

    context = crypto.hand_context(GAME_ID, 1, 2)
    secrets = crypto.HandSecrets.derive(SECRETS_SEED, context, 52)
    hand_secrets = {
        "seed": SECRETS_SEED.hex(),
        "game_id": GAME_ID.hex(),
        "hand": 1,
        "seat": 2,
        "context": context.hex(),
        "n": 52,
        "commitment": crypto.commitment(context, SECRETS_SEED).hex(),
        "shuffle_scalar": secrets.shuffle_scalar.hex(),
        "inverse_shuffle_scalar": secrets.inverse_shuffle_scalar.hex(),
        "permutation": list(secrets.permutation),
        "lock_keys_first_3": _hex_list(list(secrets.lock_keys[:3])),
        "lock_key_51": secrets.lock_keys[51].hex(),
    }

    deck = [_Card(code) for code in DECK_52_CODES]
    start = crypto.card_points(deck)
    seats: list[dict[str, Any]] = []
    all_secrets = []
    points = start
    for seat, seed in enumerate(DEAL_SEEDS):
        ctx = crypto.hand_context(GAME_ID, 1, seat)
        sec = crypto.HandSecrets.derive(seed, ctx, len(deck))
        all_secrets.append(sec)
        points = crypto.shuffle(points, sec)
        seats.append(
            {
                "seat": seat,
                "seed": seed.hex(),
                "context": ctx.hex(),
                "commitment": crypto.commitment(ctx, seed).hex(),
                "shuffled": _hex_list(points),
            }
        )
    for seat, sec in enumerate(all_secrets):
        points = crypto.lock(points, sec)
        seats[seat]["locked"] = _hex_list(points)
    order = crypto.deal_order(len(deck), all_secrets)
    deal = {
        "game_id": GAME_ID.hex(),
        "hand": 1,
        "deck": DECK_52_CODES,
        "shuffle_order": [0, 1, 2, 3],
        "lock_order": [0, 1, 2, 3],
        "seats": seats,
        "final": _hex_list(points),
        "cards": [DECK_52_CODES[i] for i in order],
    }

    draw = {
        "game_id": GAME_ID.hex(),
        "shares": _hex_list(DRAW_SHARES),
        "commitments": [
            crypto.draw_commitment(GAME_ID, seat, share).hex() for seat, share in enumerate(DRAW_SHARES)
        ],
        "randomness": crypto.draw_randomness(GAME_ID, DRAW_SHARES).hex(),
    }

    identity = crypto.Identity.from_seed(RFC8032_SEED)
    identity_vector = {
        "private_seed": RFC8032_SEED.hex(),
        "public": identity.public.hex(),
        "fingerprint": crypto.fingerprint(identity.public),
        "signatures": [
            {"message": b"".hex(), "signature": identity.sign(b"").hex()},
            {"message": SIGNED_MESSAGE.hex(), "signature": identity.sign(SIGNED_MESSAGE).hex()},
        ],
    }

    return {
        "format": "p2pspades-crypto-vectors/1",
        "about": "Known answers for protocol/crypto.md. Byte strings are lowercase hex.",
        "H": hashes,
        "card_points": {
            "deck": FULL_DECK_CODES,
            "points": {code: crypto.card_point(code).hex() for code in FULL_DECK_CODES},
        },
        "hand_secrets": hand_secrets,
        "deal": deal,
        "draw": draw,
        "identity": identity_vector,
    }


def main(argv: list[str]) -> int:
    return write_or_check(argv, OUT, build, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
