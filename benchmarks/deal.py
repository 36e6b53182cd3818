"""The cost of dealing without a dealer, in-process (no network), beside the bare cost of its group work.

For 4 seats playing `classic` in memory (every peer a full table machine: signatures, chain, checks):
- setup: from the first commitment of a hand until every seat knows its cards, beside the bare cost of the
  scalar multiplications the deal needs (each seat shuffles and locks 52 points, and opens its 13 cards);
- audit: from the first reveal until every peer has checked the deal and scored the hand, beside the bare
  cost of the multiplications it needs (each peer checks the deck after all shuffles and after all locks);
- verification throughput of a generated log (the offline verifier, one core), and log bytes per hand.

The bare cost is the count of multiplications times the cost of one, measured in the same run. Ratios matter;
the absolute times move with the load on a shared machine. Prints one JSON object.

    python benchmarks/deal.py [--hands 4] [--verify-hands 12]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import timeit
from typing import Any

from p2pspades import crypto
from p2pspades.audit import verify_frames
from p2pspades.bots import RandomBot
from p2pspades.rules import Phase, preset
from p2pspades.table import Accepted, Table
from p2pspades.table.harness import Wire, new_game, seeded_entropy


def mul_cost(samples: int = 3000) -> float:
    """Seconds for one `crypto_scalarmult_ed25519_noclamp` through our `mul` (best of 5 runs)."""
    p = crypto.card_point("AS")
    s = crypto.scalar_from_int(123456789)
    return min(timeit.repeat(lambda: crypto.mul(s, p), number=samples, repeat=5)) / samples


def measure_hands(hands: int, seed: bytes) -> dict[str, list[float]]:
    """Play `hands` hands of 4 seats in memory, timing each hand's setup and audit."""
    rules = preset("classic", target=10_000)
    ids = [crypto.Identity.from_seed(crypto.H("bench", seed, bytes([i]))[:32]) for i in range(4)]
    genesis = new_game(rules, ids, game_id=crypto.H("bench game", seed)[:16])
    tables = [Table(genesis, ids[i], entropy=seeded_entropy(seed + bytes([i]))) for i in range(4)]
    wire = Wire(tables, [RandomBot(i) for i in range(4)])
    for seat in range(4):
        wire._record(seat, [])
    setups: list[float] = []
    audits: list[float] = []
    setup_start = audit_start = None
    seen = [0] * 4
    done_hands = 0
    started = 0  # the hand every table has begun: its setup is timed from then
    while done_hands < hands:
        if not wire.step():
            break
        for seat in range(4):
            new = wire.events[seat][seen[seat] :]
            seen[seat] = len(wire.events[seat])
            for ev in new:
                if isinstance(ev, Accepted) and ev.type == "reveal" and audit_start is None:
                    audit_start = time.perf_counter()
        number = min(t.hand_number for t in tables)
        if number > started:
            # every table has audited the last hand and begun this one: the setup clock starts
            started, setup_start = number, time.perf_counter()
            if audit_start is not None:
                audits.append(setup_start - audit_start)
                audit_start = None
                done_hands += 1
        if setup_start is not None and all(t.game is not None and t.game.phase is Phase.BID for t in tables):
            setups.append(time.perf_counter() - setup_start)
            setup_start = None
    return {"setup": setups, "audit": audits}


def log_for_verification(seed: bytes, hands: int) -> tuple[list[bytes], int]:
    """A complete signed log of a game of about `hands` hands (individual rules never go below zero)."""
    rules = preset("individual", target=10 * hands + 40)
    ids = [crypto.Identity.from_seed(crypto.H("verify", seed, bytes([i]))[:32]) for i in range(4)]
    genesis = new_game(rules, ids, game_id=crypto.H("verify game", seed)[:16])
    tables = [Table(genesis, ids[i], entropy=seeded_entropy(seed + bytes([i]))) for i in range(4)]
    wire = Wire(tables, [RandomBot(100 + i) for i in range(4)])
    wire.run()
    table = tables[0]
    assert table.game is not None
    return table.entries, len(table.game.history)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=4, help="hands timed for setup and audit")
    ap.add_argument(
        "--verify-hands", type=int, default=12, help="about how many hands the verified log holds"
    )
    args = ap.parse_args()
    print("measuring the cost of one multiplication...", file=sys.stderr)
    mul = mul_cost()
    print(f"playing {args.hands} hands in memory...", file=sys.stderr)
    timings = measure_hands(args.hands, b"deal benchmark")
    n, seats = 52, 4
    setup_muls = crypto.mul_count_setup(seats, n)
    # the audit checks the decks after all shuffles and after all locks at once: 2n multiplications a peer
    audit_muls = seats * 2 * n
    setup = statistics.median(timings["setup"])
    audit = statistics.median(timings["audit"])
    print("generating and verifying a log...", file=sys.stderr)
    frames, hands = log_for_verification(b"verify benchmark", args.verify_hands)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        verdict = verify_frames(frames)
        best = min(best, time.perf_counter() - start)
    log_bytes = 8 + sum(4 + len(f) for f in frames)
    out: dict[str, Any] = {
        "seats": seats,
        "deck": n,
        "mul_us": round(mul * 1e6, 1),
        "setup_ms": round(setup * 1e3, 1),
        "setup_bare_ms": round(setup_muls * mul * 1e3, 1),
        "setup_muls": setup_muls,
        "setup_ratio": round(setup / (setup_muls * mul), 3),
        "audit_ms": round(audit * 1e3, 1),
        "audit_bare_ms": round(audit_muls * mul * 1e3, 1),
        "audit_muls": audit_muls,
        "audit_ratio": round(audit / (audit_muls * mul), 3),
        "verify_hands": hands,
        "verify_status": verdict.status.name,
        "verify_hands_per_s": round(hands / best, 2),
        "log_bytes_per_hand": round(log_bytes / hands),
        "goals": {"setup_ratio_max": 1.5, "verify_hands_per_s_min": 10},
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
