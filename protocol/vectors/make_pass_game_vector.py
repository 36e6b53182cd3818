"""Write the known-answer game of the nil card pass: `game_pass.p2plog` / `game_pass.json`.

A whole protocol version 2 game under `preset('classic', nil_pass=2, target=100, losing_threshold=-100)`,
between seeded identities with seeded entropy, in which seat 0 bids nil whenever it may, so that its side
passes cards in every hand (PROTOCOL.md §7.6). Everything is deterministic, so a second implementation can
check byte for byte that it writes the same entries, and any verifier must accept them.

    python protocol/vectors/make_pass_game_vector.py [--check]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from p2pspades import log
from p2pspades.audit import hand_record, verify_frames
from p2pspades.bots import RandomBot
from p2pspades.rules import Action, Bid, preset
from p2pspades.table.events import Decision, DecisionKind
from p2pspades.table.harness import play_in_memory

HERE = Path(__file__).resolve().parent
SEED = b"p2pspades known-answer game nil pass"
LOG, JSON = HERE / "game_pass.p2plog", HERE / "game_pass.json"


class NilFirst:
    """Seat 0's player: nil at every bid (without asking its random bot), a random legal choice otherwise."""

    def __init__(self) -> None:
        self.bot = RandomBot(0)

    def __call__(self, decision: Decision) -> Action:
        if decision.kind is DecisionKind.BID and Bid(0) in decision.legal:
            return Bid(0)
        return self.bot(decision)


def build() -> tuple[bytes, dict[str, Any]]:
    rules = preset("classic", nil_pass=2, target=100, losing_threshold=-100)
    players = [NilFirst(), RandomBot(1), RandomBot(2), RandomBot(3)]
    wire = play_in_memory(rules, players, seed=SEED, names=["Ann", "Ben", "Cat", "Dan"])
    entries = wire.tables[0].entries
    data = log.MAGIC + b"".join(len(e).to_bytes(4, "big") + e for e in entries)
    verdict = verify_frames(entries)
    how = (
        "play_in_memory(preset('classic', nil_pass=2, target=100, losing_threshold=-100), players, "
        "seed=SEED, names=['Ann','Ben','Cat','Dan']) with players: seat 0 bids 0 (nil) at every bid "
        "decision without asking RandomBot(0), which makes its other choices; seats 1-3 RandomBot(seat); "
        "identities: "
        "Identity.from_seed(sha256(SEED + bytes([seat]))); entropy: shake_256(SEED + b'entropy' + "
        "bytes([seat]) + counter as 8 bytes big-endian)"
    )
    expected = {
        "seed": SEED.decode(),
        "how": how,
        "entries": len(entries),
        "entry_hashes": [log.entry_hash(e).hex() for e in entries],
        "head": log.entry_hash(entries[-1]).hex(),
        "verdict": verdict.status.name,
        "record": hand_record(verdict),
    }
    return data, expected


def main(argv: list[str]) -> int:
    data, expected = build()
    text = json.dumps(expected, indent=1, sort_keys=True) + "\n"
    if argv[1:] == ["--check"]:
        same = LOG.exists() and LOG.read_bytes() == data and JSON.read_text() == text
        print(f"{LOG.name}: {'up to date' if same else 'out of date'}", file=sys.stderr)
        return 0 if same else 1
    if argv[1:]:
        print("usage: make_pass_game_vector.py [--check]", file=sys.stderr)
        return 2
    LOG.write_bytes(data)
    JSON.write_text(text)
    print(f"wrote {LOG} ({len(data)} bytes) and {JSON}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
