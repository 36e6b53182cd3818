"""Write protocol/vectors/proofs.json: known answers for the proofs of protocol version 2 (crypto.md §12-17).

Every input is fixed and the reference prover's randomness is derived from the seeds (crypto.md §16), so
running this twice writes the same bytes. `--check` compares instead of writing and exits 1 if the file is
stale.

    python protocol/vectors/make_proof_vectors.py [--check]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from p2pspades import crypto
from p2pspades.crypto import proofs

OUT = Path(__file__).with_name("proofs.json")

RANKS = "23456789TJQKA"
DECK_52_CODES = [rank + suit for suit in "SHDC" for rank in RANKS]
SMALL_CODES = DECK_52_CODES[:8]  # 2S .. 9S
GAME_ID = bytes.fromhex("0f1e2d3c4b5a69788796a5b4c3d2e1f0")
HAND = 3
SEATS = 4
SEEDS = [bytes([0x11 * (seat + 1)]) * 32 for seat in range(SEATS)]


def _hex(items: list[bytes]) -> list[str]:
    return [item.hex() for item in items]


def _deal(codes: list[str]) -> dict[str, Any]:
    """A whole 4-seat deal of `codes`: every shuffle and lock with its proof, in seat order."""
    n = len(codes)
    contexts = [crypto.hand_context(GAME_ID, HAND, seat) for seat in range(SEATS)]
    secrets = [crypto.HandSecrets.derive(SEEDS[seat], contexts[seat], n) for seat in range(SEATS)]
    deck = [crypto.card_point(code) for code in codes]
    seats = []
    for seat in range(SEATS):
        seats.append(
            {
                "seat": seat,
                "seed": SEEDS[seat].hex(),
                "context": contexts[seat].hex(),
                "S": proofs.shuffle_commitment(secrets[seat]).hex(),
            }
        )
    shuffles = []
    for seat in range(SEATS):
        out, proof = proofs.prove_shuffle(contexts[seat], seat, deck, secrets[seat])
        shuffles.append(
            {"seat": seat, "step": seat, "in": _hex(deck), "out": _hex(out), "proof": proof.hex()}
        )
        deck = out
    locks = []
    for seat in range(SEATS):
        step = SEATS + seat
        out, commitments, proof = proofs.prove_lock(contexts[seat], step, deck, secrets[seat])
        locks.append(
            {
                "seat": seat,
                "step": step,
                "in": _hex(deck),
                "out": _hex(out),
                "P": _hex(commitments),
                "proof": proof.hex(),
            }
        )
        deck = out
    order = crypto.deal_order(n, secrets)
    return {
        "codes": codes,
        "seats": seats,
        "shuffles": shuffles,
        "locks": locks,
        "final": _hex(deck),
        "cards": [codes[i] for i in order],
        "secrets": secrets,
    }


def _void(small: dict[str, Any]) -> dict[str, Any]:
    """Seat 1 owns positions 1 and 5 (deal order j mod 4) and claims that they hold none of three cards."""
    secrets: list[crypto.HandSecrets] = small["secrets"]
    owner, owned = 1, [1, 5]
    held = {small["cards"][j] for j in owned}
    absent = [code for code in SMALL_CODES if code not in held][:3]
    final = [bytes.fromhex(p) for p in small["final"]]
    commitments = proofs.lock_commitments(secrets[owner])
    positions = []
    for j in owned:
        others = [secrets[i].lock_keys[j] for i in range(SEATS) if i != owner]
        positions.append(proofs.VoidPosition(j, commitments[j], proofs.void_residue(final[j], others)))
    context = crypto.hand_context(GAME_ID, HAND, owner)
    step = 2 * SEATS + 5
    cards = [crypto.card_point(code) for code in absent]
    proof = proofs.prove_void(context, step, secrets[owner], positions, cards)
    return {
        "seat": owner,
        "context": context.hex(),
        "step": step,
        "positions": [
            {
                "j": p.position,
                "P": p.commitment.hex(),
                "Z": p.residue.hex(),
                "other_keys": _hex([secrets[i].lock_keys[p.position] for i in range(SEATS) if i != owner]),
            }
            for p in positions
        ],
        "card_codes": absent,
        "cards": _hex(cards),
        "proof": proof.hex(),
    }


def build() -> dict[str, Any]:
    """Every vector, as plain JSON values (byte strings in lowercase hex)."""
    small = _deal(SMALL_CODES)
    secrets: list[crypto.HandSecrets] = small.pop("secrets")
    void = _void({**small, "secrets": secrets})
    full_context = crypto.hand_context(GAME_ID, HAND, 0)
    full_secrets = crypto.HandSecrets.derive(SEEDS[0], full_context, 52)
    full_in = [crypto.card_point(code) for code in DECK_52_CODES]
    full_out, full_proof = proofs.prove_shuffle(full_context, 0, full_in, full_secrets)
    key, commitment = secrets[2].lock_keys[0], proofs.lock_commitments(secrets[2])[0]
    return {
        "format": "p2pspades-proof-vectors/1",
        "game_id": GAME_ID.hex(),
        "hand": HAND,
        "generators": _hex([proofs.generator(i) for i in range(9)]),
        "deal_8": small,
        "shuffle_52": {
            "seat": 0,
            "step": 0,
            "context": full_context.hex(),
            "S": proofs.shuffle_commitment(full_secrets).hex(),
            "in": _hex(full_in),
            "out": _hex(full_out),
            "proof": full_proof.hex(),
        },
        "void": void,
        "key_check": {
            "P": commitment.hex(),
            "right_key": key.hex(),
            "wrong_key": secrets[2].lock_keys[1].hex(),
        },
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
