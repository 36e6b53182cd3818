"""Latency of the game over ZeroMQ: 4 peer processes on 127.0.0.1, beside the same steps in one process.

Each peer is an OS process with its own CURVE mesh, its own log on disk (every entry on disk before the
peer's next own entry goes out: entries from others are written as they come and fsync'd together, once,
before our next send) and a random bot. Measured, per hand and per card:

- setup: from the first commitment of a hand (when its author creates it) until every seat knows its cards
  (its table has the whole deal), beside the same span in process with the in-memory harness (no network,
  no disk), and their ratio;
- per card: from the moment a card's entry is handed to the mesh until every other peer has applied it
  (checked, opened the card, appended it to its log); median and 90th percentile. Also from the moment the
  player chose it (this adds the author's fsync).

New games are protocol version 2, so the setup includes every proof: each peer proves its shuffle and lock
and verifies the three others' before it goes on (`--version 1`: without proofs).

Clocks: `time.monotonic()` (CLOCK_MONOTONIC, shared by every process of the machine). Ratios matter; the
absolute times move with the load on a shared machine. Prints one JSON object; progress goes to stderr.

    python benchmarks/net.py [--target 600] [--seed 1] [--version 2]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from p2pspades import crypto
from p2pspades.bots import RandomBot
from p2pspades.net import Entry, GameStore, Mesh, Peer, PeerAddress, Timing, transport_keys
from p2pspades.net.frames import Message
from p2pspades.rules import Phase, preset
from p2pspades.table import Accepted, Event, Table
from p2pspades.table.harness import Wire, new_game, seeded_entropy

SEATS = 4
KEYS = ("first_commit", "cards", "created", "sent", "applied", "received", "kind")


def identities(seed: bytes) -> list[crypto.Identity]:
    return [crypto.Identity.from_seed(hashlib.sha256(seed + b"peer" + bytes([i])).digest())
            for i in range(SEATS)]


def free_ports(count: int) -> list[int]:
    socks = [socket.socket() for _ in range(count)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


class Clock:
    """What one table saw, and when: first commitments, complete deals, entries created, sent and applied."""

    def __init__(self, now: Any = time.monotonic) -> None:
        self.now = now
        self.first_commit: dict[int, float] = {}
        self.cards: dict[int, float] = {}
        self.created: dict[int, float] = {}
        self.sent: dict[int, float] = {}
        self.applied: dict[int, float] = {}
        self.received: dict[int, float] = {}
        self.kind: dict[int, str] = {}
        self._own: dict[bytes, int] = {}
        self._arrived: dict[bytes, float] = {}

    def event(self, table: Table, ev: Event) -> None:
        if not isinstance(ev, Accepted):
            return
        t = self.now()
        self.kind[ev.seq] = ev.type
        if ev.own:
            self.created[ev.seq] = t
            self._own[ev.raw] = ev.seq
        else:
            self.applied[ev.seq] = t
            arrived = self._arrived.pop(ev.raw, None)
            if arrived is not None:
                self.received[ev.seq] = arrived
        game, deal = table.game, table.deal
        if game is None or deal is None:
            return
        hand = game.hand_number
        if ev.type == "commit" and len(deal.commits) == 1:
            self.first_commit.setdefault(hand, t)
        if ev.type == "keys" and game.phase is not Phase.DEAL and hand not in self.cards:
            self.cards[hand] = t  # the deal is complete: this table knows its seat's cards

    def arriving(self, message: Message) -> None:
        if isinstance(message, Entry):
            self._arrived[message.raw] = self.now()

    def sending(self, message: Message) -> None:
        if isinstance(message, Entry) and message.raw in self._own:
            self.sent[self._own.pop(message.raw)] = self.now()

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in KEYS}


# ------------------------------------------------------------------------------------------------ one peer


async def peer_main(seat: int, workdir: Path) -> None:
    spec = json.loads((workdir / "game.json").read_text())
    seed = bytes.fromhex(spec["seed"])
    ids = identities(seed)
    genesis = bytes.fromhex(spec["genesis"])
    loop = asyncio.get_running_loop()
    table = Table(genesis, ids[seat], entropy=seeded_entropy(seed + bytes([seat])), now=loop.time())
    mesh = Mesh(transport_keys(ids[seat]), bind=spec["endpoints"][seat])
    await mesh.start()
    mesh.admit(seat, [PeerAddress(s, e, ids[s].public) for s, e in enumerate(spec["endpoints"])])
    store = GameStore(table.game_id, seat, workdir / "home")
    clock = Clock()
    fsyncs = [0]
    real_fsync = os.fsync

    def counted_fsync(fd: Any) -> None:
        fsyncs[0] += 1
        real_fsync(fd)

    os.fsync = counted_fsync
    peer = Peer(table, mesh, store, RandomBot(seed + bytes([seat])), timing=Timing(linger=5.0),
                on_event=lambda ev: clock.event(table, ev))
    broadcast = mesh.broadcast

    def timed_broadcast(message: Message) -> None:
        clock.sending(message)  # the entry is on disk and handed to the mesh now
        broadcast(message)

    mesh.broadcast = timed_broadcast  # type: ignore[method-assign]
    on_message = peer._on_message

    def timed_message(seat: int, message: Message, now: float) -> None:
        clock.arriving(message)
        on_message(seat, message, now)

    peer._on_message = timed_message  # type: ignore[method-assign]
    ended = await peer.run()
    await peer.close()
    print(json.dumps({"seat": seat, "status": ended.status if ended else None, "entries": len(table.entries),
                      "hands": table.hand_number, "fsyncs": fsyncs[0], **clock.to_json()}))


# ------------------------------------------------------------------------------------------------ analysis


def setups(clocks: list[dict[str, Any]]) -> list[float]:
    """Per hand: first commitment anywhere -> the last seat to know its cards."""
    out = []
    hands = set.intersection(*(set(c["cards"]) for c in clocks))
    for hand in sorted(hands, key=int):
        start = min(c["first_commit"][hand] for c in clocks if hand in c["first_commit"])
        out.append(max(c["cards"][hand] for c in clocks) - start)
    return out


SETUP_STEPS = ("commit", "blind", "shuffle", "lock", "keys")


def setup_hops(clocks: list[dict[str, Any]]) -> dict[str, dict[str, float | int]]:
    """Where a setup's time goes, per step of the chain (entry n by A, then entry n+1 by B): `disk` A's
    fsync (created -> sent), `wire` from A's send until entry n reaches B's driver, `compute` from then until
    B created entry n+1 (checking entry n, then B's own shuffle or lock)."""
    author = {seq: c for c in clocks for seq in c["created"]}
    disk, wire = [], []
    compute: dict[str, list[float]] = {}
    for seq, a in author.items():
        if a["kind"].get(seq) not in SETUP_STEPS or seq not in a["sent"]:
            continue
        disk.append(a["sent"][seq] - a["created"][seq])
        b = author.get(seq + 1)
        following = b["kind"].get(seq + 1) if b is not None else None
        if b is None or b is a or following not in SETUP_STEPS or seq not in b["received"]:
            continue
        wire.append(b["received"][seq] - a["sent"][seq])
        compute.setdefault(f"compute_{following}", []).append(b["created"][seq + 1] - b["received"][seq])
    steps = {k: summary(v) for k, v in sorted(compute.items())}
    return {"disk": summary(disk), "wire": summary(wire), **steps}


def card_latencies(clocks: list[dict[str, Any]], since: str) -> list[float]:
    """Per card: `since` ("sent" or "created") at its author -> the last other peer to apply it."""
    out = []
    for author in clocks:
        for seq, t0 in author[since].items():
            if author["kind"].get(seq) != "play":
                continue
            applied = [c["applied"].get(seq) for c in clocks if c is not author]
            if all(a is not None for a in applied):
                out.append(max(a for a in applied if a is not None) - t0)
    return out


def summary(values: list[float]) -> dict[str, float | int]:
    ms = sorted(v * 1e3 for v in values)
    if not ms:
        return {"n": 0}
    p90 = ms[min(len(ms) - 1, round(0.9 * (len(ms) - 1)))]
    return {"n": len(ms), "median": round(statistics.median(ms), 2), "p90": round(p90, 2),
            "mean": round(statistics.fmean(ms), 2), "min": round(ms[0], 2), "max": round(ms[-1], 2)}


def in_process(target: int, seed: bytes, hands: int, version: int = 2) -> list[float]:
    """The same game's steps with the in-memory harness: 4 tables in this process, no network, no disk."""
    rules = preset("classic", target=target, losing_threshold=-target)
    ids = identities(seed)
    genesis = new_game(rules, ids, game_id=hashlib.sha256(seed + b"game").digest()[:16], version=version)
    tables = [Table(genesis, ids[i], entropy=seeded_entropy(seed + bytes([i]))) for i in range(SEATS)]
    clocks = [Clock(time.perf_counter) for _ in range(SEATS)]

    class TimedWire(Wire):
        def _record(self, seat: int, events: list[Event]) -> None:
            for ev in events:
                clocks[seat].event(tables[seat], ev)
            super()._record(seat, events)

    wire = TimedWire(tables, [RandomBot(seed + bytes([i])) for i in range(SEATS)])
    for seat in range(SEATS):
        wire._record(seat, [])
    while wire.step():
        if all(len(c.cards) >= hands for c in clocks):
            break
    return setups([c.to_json() for c in clocks])


def play(script: str, workdir: Path, spec: dict[str, Any]) -> list[dict[str, Any]] | None:
    """Run `SEATS` peer processes of `script` (`--peer SEAT --dir WORKDIR`) on the game of `spec` (written to
    `game.json` with their endpoints) to their end; what each printed last, its clocks' keys made ints again
    (None: a peer failed)."""
    endpoints = [f"tcp://127.0.0.1:{p}" for p in free_ports(SEATS)]
    (workdir / "game.json").write_text(json.dumps({**spec, "endpoints": endpoints}))
    procs = [subprocess.Popen([sys.executable, script, "--peer", str(s), "--dir", str(workdir)],
                              stdout=subprocess.PIPE, text=True) for s in range(SEATS)]
    try:
        outs = [p.communicate(timeout=600)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    if any(p.returncode != 0 for p in procs):
        return None
    clocks = [json.loads(out.strip().splitlines()[-1]) for out in outs]
    for c in clocks:  # JSON turned the int keys into strings; put them back
        for key in KEYS:
            c[key] = {int(k): v for k, v in c[key].items()}
    return clocks


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", type=int, default=600, help="the game's target score (more: more hands)")
    ap.add_argument("--seed", default="1", help="seeds identities, entropy and bots")
    ap.add_argument("--version", type=int, default=2, choices=(1, 2),
                    help="protocol version (2: every step of the deal proven and checked live)")
    ap.add_argument("--peer", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--dir", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.peer is not None:
        asyncio.run(peer_main(args.peer, Path(args.dir)))
        return 0
    seed = b"net benchmark " + args.seed.encode()
    with tempfile.TemporaryDirectory(prefix="p2pspades-net-bench-") as tmp:
        workdir = Path(tmp)
        ids = identities(seed)
        rules = preset("classic", target=args.target, losing_threshold=-args.target)
        genesis = new_game(rules, ids, game_id=hashlib.sha256(seed + b"game").digest()[:16],
                           version=args.version)
        print(f"playing a game to {args.target} with {SEATS} peer processes...", file=sys.stderr)
        played = play(__file__, workdir, {"seed": seed.hex(), "genesis": genesis.hex()})
        if played is None:
            print("a peer failed", file=sys.stderr)
            return 1
        clocks = played
        net = setups(clocks)
        print(f"the same {len(net)} hands in one process, in memory...", file=sys.stderr)
        local = in_process(args.target, seed, len(net), args.version)
    net_s, local_s = summary(net), summary(local)
    ratio = float(net_s["median"]) / float(local_s["median"]) if net and local else None
    sent, created = summary(card_latencies(clocks, "sent")), summary(card_latencies(clocks, "created"))
    out: dict[str, Any] = {
        "peers": SEATS,
        "transport": "ZeroMQ CURVE over TCP on 127.0.0.1, one process per peer",
        "rules": "classic",
        "protocol_version": args.version,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        "game": {"status": sorted({c["status"] for c in clocks}), "hands": len(net),
                 "entries": clocks[0]["entries"],
                 "fsyncs_per_peer": [c["fsyncs"] for c in clocks]},
        "setup_ms": {"network": net_s, "in_process": local_s,
                     "ratio_median": None if ratio is None else round(ratio, 3),
                     "network_steps": setup_hops(clocks)},
        "per_card_ms": {"sent_to_applied_everywhere": sent, "chosen_to_applied_everywhere": created},
        "goals": {"setup_ratio_max": 1.3, "per_card_median_ms_max": 5.0, "setup_network_median_ms_max": 1000,
                  "setup_ratio_met": ratio is not None and ratio <= 1.3,
                  "setup_network_met": bool(net_s.get("median", 1e9) <= 1000),
                  "per_card_met": bool(sent.get("median", 1e9) <= 5.0)},
    }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
