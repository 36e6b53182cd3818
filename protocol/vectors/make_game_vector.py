"""Write the known-answer game logs: whole games between seeded identities with seeded entropy.

Everything in them is deterministic (Ed25519 signatures are, the proofs' randomness comes from the hand seeds,
and the seeds are fixed), so a second implementation can check byte for byte that it produces the same
entries, and any verifier must accept them. Real games never use seeded entropy.

- `game.p2plog` / `game.json`: protocol version 1 (no proofs);
- `game_v2.p2plog` / `game_v2.json`: protocol version 2 (every shuffle, lock and void claim proven, every key
  checked against its commitment), the same rules and players.

    python protocol/vectors/make_game_vector.py [--check] [--version 1|2]   (default: both)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from p2pspades import log
from p2pspades.audit import hand_record, verify_frames
from p2pspades.bots import RandomBot
from p2pspades.rules import preset
from p2pspades.table.harness import play_in_memory

HERE = Path(__file__).resolve().parent
SEED = b"p2pspades known-answer game v1"
SEEDS = {1: SEED, 2: b"p2pspades known-answer game v2"}
FILES = {1: ("game.p2plog", "game.json"), 2: ("game_v2.p2plog", "game_v2.json")}


def build(version: int = 1) -> tuple[bytes, dict[str, Any]]:
    rules = preset("classic", target=100, losing_threshold=-100)
    seed = SEEDS[version]
    wire = play_in_memory(
        rules,
        [RandomBot(i) for i in range(4)],
        seed=seed,
        names=["Ann", "Ben", "Cat", "Dan"],
        version=version,
    )
    entries = wire.tables[0].entries
    data = log.MAGIC + b"".join(len(e).to_bytes(4, "big") + e for e in entries)
    verdict = verify_frames(entries)
    record = hand_record(verdict)
    how = (
        "play_in_memory(preset('classic', target=100, losing_threshold=-100), [RandomBot(i) for i in "
        "range(4)], seed=SEED, names=['Ann','Ben','Cat','Dan']); identities: "
        "Identity.from_seed(sha256(SEED + bytes([seat]))); entropy: shake_256(SEED + b'entropy' + "
        "bytes([seat]) + counter as 8 bytes big-endian)"
    )
    if version != 1:
        names = "names=['Ann','Ben','Cat','Dan']"
        how = how.replace(names, f"{names}, version={version}")
    expected = {
        "seed": seed.decode(),
        "how": how,
        "entries": len(entries),
        "entry_hashes": [log.entry_hash(e).hex() for e in entries],
        "head": log.entry_hash(entries[-1]).hex(),
        "verdict": verdict.status.name,
        "record": record,
    }
    return data, expected


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the files on disk differ from a rebuild")
    ap.add_argument("--version", type=int, choices=sorted(FILES), help="only this protocol version's game")
    args = ap.parse_args()
    status = 0
    for version in [args.version] if args.version else sorted(FILES):
        data, expected = build(version)
        text = json.dumps(expected, indent=1, sort_keys=True) + "\n"
        log_path, json_path = (HERE / name for name in FILES[version])
        if args.check:
            same = log_path.exists() and log_path.read_bytes() == data and json_path.read_text() == text
            print(f"{log_path.name}: {'up to date' if same else 'out of date'}", file=sys.stderr)
            status = status or (0 if same else 1)
            continue
        log_path.write_bytes(data)
        json_path.write_text(text)
        print(f"wrote {log_path} ({len(data)} bytes) and {json_path}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
