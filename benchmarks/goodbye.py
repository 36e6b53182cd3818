"""How soon the others see a goodbye: 4 peer processes on 127.0.0.1, one of which leaves mid-game.

Each peer is an OS process with its own CURVE mesh, its own log on disk and a random bot, as in
`benchmarks/net.py`. Once its chain holds `--at` entries, seat 1's player leaves (`Peer.leave`: the table
signs a goodbye, PROTOCOL.md §5.10). Measured, per game:

- seen: from the moment the goodbye is handed to the mesh until each other peer's table has ended the game
  (`GameEnded`, status left): the others' game-over; its maximum is when the last of them knows;
- leaver: from the moment its player left until the leaver's `run` returns: how long the leaver's program
  stays so that every seat holds the goodbye (`Timing.farewell` at most);
- beside them, in the same run: a card, from the moment its entry is handed to the mesh until every other
  peer applied it (the median over the cards before the goodbye), and the ratio of the goodbye to it; and
  the wait a goodbye saves: without one, the others vote that the seat stopped answering only after the
  timeout in force for a person's decision (600 s by default), the seconds to set it against.

Clocks: `time.monotonic()` (shared by the processes of one machine). Ratios matter; the absolute times move
with the load on a shared machine. Prints one JSON object; progress goes to stderr.

    python benchmarks/goodbye.py [--games 5] [--at 60] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from net import SEATS, Clock, card_latencies, identities, play, summary

from p2pspades import log
from p2pspades.bots import RandomBot
from p2pspades.net import Entry, GameStore, Mesh, Peer, PeerAddress, Timing, transport_keys
from p2pspades.net.frames import Message
from p2pspades.rules import preset
from p2pspades.table import Event, GameEnded, Table
from p2pspades.table.harness import new_game, seeded_entropy

LEAVER = 1
DECISION_TIMEOUT = 600.0
"""The timeout in force for a person's bid or card by default (`--timeout-decision`): the wait a goodbye
saves the others."""


async def peer_main(seat: int, workdir: Path) -> None:
    spec = json.loads((workdir / "game.json").read_text())
    seed, at = bytes.fromhex(spec["seed"]), spec["at"]
    ids = identities(seed)
    loop = asyncio.get_running_loop()
    table = Table(bytes.fromhex(spec["genesis"]), ids[seat], entropy=seeded_entropy(seed + bytes([seat])),
                  now=loop.time())
    mesh = Mesh(transport_keys(ids[seat]), bind=spec["endpoints"][seat])
    await mesh.start()
    mesh.admit(seat, [PeerAddress(s, e, ids[s].public) for s, e in enumerate(spec["endpoints"])])
    clock = Clock()
    times: dict[str, float] = {}
    peer: Peer

    def on_event(ev: Event) -> None:
        clock.event(table, ev)
        if isinstance(ev, GameEnded):
            times.setdefault("ended", time.monotonic())
        if seat == LEAVER and "left" not in times and len(table.entries) >= at and not table.finished:
            times["left"] = time.monotonic()
            loop.call_soon(peer.leave)  # (not from inside the table's own events)

    store = GameStore(table.game_id, seat, workdir / "home")
    bot = RandomBot(seed + bytes([seat]))
    peer = Peer(table, mesh, store, bot, timing=Timing(linger=5.0), on_event=on_event)
    broadcast = mesh.broadcast

    def timed_broadcast(message: Message) -> None:
        clock.sending(message)
        if isinstance(message, Entry) and log.open_envelope(message.raw).payload.get("t") == "leave":
            times.setdefault("goodbye_sent", time.monotonic())
        broadcast(message)

    mesh.broadcast = timed_broadcast  # type: ignore[method-assign]
    on_message = peer._on_message

    def timed_message(seat: int, message: Message, now: float) -> None:  # (`seat`: the sender)
        clock.arriving(message)
        on_message(seat, message, now)

    peer._on_message = timed_message  # type: ignore[method-assign]
    ended = await peer.run()
    times["run_returned"] = time.monotonic()
    await peer.close()
    print(json.dumps({"seat": seat, "status": ended.status if ended else None, "entries": len(table.entries),
                      "times": times, **clock.to_json()}))


def one_game(seed: bytes, target: int, at: int) -> list[dict[str, Any]]:
    """Play one game to its goodbye with `SEATS` peer processes; what each saw."""
    with tempfile.TemporaryDirectory(prefix="p2pspades-goodbye-bench-") as tmp:
        ids = identities(seed)
        rules = preset("classic", target=target, losing_threshold=-target)
        genesis = new_game(rules, ids, game_id=hashlib.sha256(seed + b"game").digest()[:16], version=2)
        clocks = play(__file__, Path(tmp), {"seed": seed.hex(), "genesis": genesis.hex(), "at": at})
    if clocks is None:
        raise SystemExit("a peer failed")
    return clocks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5, help="games to play, each to its goodbye")
    ap.add_argument("--at", type=int, default=60, help="the chain's length when seat 1 leaves")
    ap.add_argument("--seed", default="1", help="seeds identities, entropy and bots")
    ap.add_argument("--peer", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--dir", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.peer is not None:
        asyncio.run(peer_main(args.peer, Path(args.dir)))
        return 0
    seen: list[float] = []
    last: list[float] = []
    leaver: list[float] = []
    cards: list[float] = []
    statuses = set()
    for game in range(args.games):
        print(f"game {game + 1} of {args.games}: seat {LEAVER} leaves at entry {args.at}...", file=sys.stderr)
        clocks = one_game(f"goodbye benchmark {args.seed} {game}".encode(), 3000, args.at)
        gone = clocks[LEAVER]["times"]
        sent = gone["goodbye_sent"]
        others = [c["times"]["ended"] - sent for c in clocks if c["seat"] != LEAVER]
        seen += others
        last.append(max(others))
        leaver.append(gone["run_returned"] - gone["left"])
        cards += card_latencies(clocks, "sent")
        statuses |= {c["status"] for c in clocks}
    seen_s, card_s = summary(seen), summary(cards)
    ratio = float(seen_s["median"]) / float(card_s["median"]) if seen and cards else None
    out: dict[str, Any] = {
        "peers": SEATS,
        "transport": "ZeroMQ CURVE over TCP on 127.0.0.1, one process per peer",
        "rules": "classic",
        "games": args.games,
        "leaves_at_entry": args.at,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        "statuses": sorted(statuses),
        "goodbye_ms": {"sent_to_game_over_each": seen_s, "sent_to_game_over_last": summary(last),
                       "left_to_leaver_done": summary(leaver)},
        "per_card_ms": {"sent_to_applied_everywhere": card_s},
        "ratio_goodbye_to_card_median": None if ratio is None else round(ratio, 3),
        "without_a_goodbye_s": {"timeout_decision": DECISION_TIMEOUT,
                                "saved_ratio": round(DECISION_TIMEOUT * 1e3 / float(summary(last)["max"]))},
        "goals": {"game_over_last_max_s": 10.0,
                  "game_over_met": bool(last) and max(last) <= 10.0},
    }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
