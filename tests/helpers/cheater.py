"""A modified peer as a process of its own: it joins a real `p2pspades host` lobby and plays its seat with a
cheating table (helpers/cheats.py), so every hostile entry it sends is properly signed.

    python tests/helpers/cheater.py ATTACK HOST:PORT DATA_HOME

Attacks: `withhold-answer` (silent at its first bid past every timeout; it bids, a properly signed answer,
only once it has seen a vote that it stopped answering), `impatient` (votes that the seat the table waits
for stopped answering the moment it is that seat's turn, with a timeout of 0 s: with two players, its vote
alone makes a certificate), `withhold-reveal` (its first reveal never leaves its process), `wrong-lock` (its
first lock alters a point of the seat opposite), `poison` (its first lock puts the identity point at a
position of the seat after it), `shuffle-challenge` (a challenge instead of its first shuffle), `flood`
(plays fairly, but sends the host's seat ENTRIES frames of entries whose signatures fail, one per 10 ms,
until the game ends), `junk-votes` (plays fairly, but sends every other seat, every 50 ms until the game
ends, votes it signed properly for the 40 slots after the next one: kept a few at a time, then stale),
`keyless` (asks for a seat under the identity point as its key, whose "signature" R = identity, S = 0
passes a lax check for every message; exits 0 once it is refused, or not answered, within 5 s),
`held-goodbye` (plays fairly, but signs a goodbye early in the first hand and keeps it; a hand later, or at
the end if the game is shorter, it sends it to every seat: it would take the game back to where it signed),
`forged-goodbye` (plays fairly, but early in the game sends every seat a goodbye in the name of the seat
after it, signed with its own key). The two
lock attacks are made on the wire, re-signed, since our own table refuses to sign a lock its proof does not
cover. It prints its seat, the end of the game and its log's path.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests directory, for `helpers`

from helpers.cheats import EarlyChallenger, Impatient, playing, poison_next_seat, wrong_lock
from p2pspades import crypto, describe, log
from p2pspades.errors import P2PSpadesError
from p2pspades.net import peer as peer_module
from p2pspades.net.discovery import parse_endpoint
from p2pspades.net.frames import Entries, Entry, Message
from p2pspades.net.group import Settings
from p2pspades.net.lobby import join_table
from p2pspades.net.peer import Peer
from p2pspades.net.seats import Seat, make_bot
from p2pspades.net.session import join_game
from p2pspades.table import Decision, DecisionKind, Table
from p2pspades.table import messages as msg
from p2pspades.table.makers import MakerView


class Staller(Table):
    """Silent at its first bid until a vote that it stopped answering reaches it; then its player bids at
    once, an entry as properly signed and chained as any: the withheld answer that, crossing the claim,
    would make an honest claimant forfeit if a late answer refuted the claim."""

    released = False

    def pending_decision(self) -> Decision | None:
        decision = super().pending_decision()
        if decision is None or decision.kind is not DecisionKind.BID or self.released:
            return decision
        slot = self.claim
        if slot is None or slot.accused != self.seat or not slot.votes:
            return None  # silent, whatever the bot would bid
        self.released = True
        print(f"cheater: answer released after the vote of seat(s) {list(slot.voters)}", flush=True)
        return decision


ON_THE_WIRE: dict[str, Callable[[MakerView, dict[str, Any]], dict[str, Any]]] = {
    "wrong-lock": wrong_lock,
    "poison": poison_next_seat,
}
ATTACKS: dict[str, type[Table]] = {
    "withhold-answer": Staller,
    "impatient": playing(Impatient),
    "withhold-reveal": Table,
    "wrong-lock": Table,
    "poison": Table,
    "shuffle-challenge": playing(EarlyChallenger, at=msg.Shuffle),
    "flood": Table,
    "junk-votes": Table,
    "held-goodbye": Table,
    "forged-goodbye": Table,
}


def withhold_reveal(peer: Peer) -> None:
    """Our first `reveal` never leaves this process, neither sent nor given to a peer that asks for what it
    lacks: we keep the hand's seed, as a seat losing the hand's audit might, and act as if we had sent it."""
    broadcast, send_to = peer.mesh.broadcast, peer.mesh.send
    withheld: list[bytes] = []

    def send(message: Message) -> None:
        is_reveal = isinstance(message, Entry) and log.open_envelope(message.raw).payload["t"] == "reveal"
        if is_reveal and not withheld and isinstance(message, Entry):
            withheld.append(message.raw)
            print("cheater: reveal withheld", flush=True)
            return
        broadcast(message)

    def answer(seat: int, message: Message) -> bool:
        if isinstance(message, Entry) and message.raw in withheld:
            return True
        if isinstance(message, Entries) and withheld and withheld[0] in message.raws:
            raws = message.raws[: message.raws.index(withheld[0])]
            if not raws:
                return True
            message = Entries(message.start, raws)
        return send_to(seat, message)

    peer.mesh.broadcast = send  # type: ignore[method-assign]
    peer.mesh.send = answer  # type: ignore[method-assign]


def tamper_first_lock(peer: Peer, identity: crypto.Identity,
                      change: Callable[[MakerView, dict[str, Any]], dict[str, Any]]) -> None:
    """Our first lock goes out altered by `change` and signed again; our own table keeps the true one."""
    broadcast = peer.mesh.broadcast
    done = False

    def send(message: Message) -> None:
        nonlocal done
        if not done and isinstance(message, Entry):
            payload = dict(log.open_envelope(message.raw).payload)
            if payload["t"] == "lock":
                done = True
                payload["d"] = list(payload["d"])
                message = Entry(log.seal(change(peer.table.view, payload), identity))
        broadcast(message)

    peer.mesh.broadcast = send  # type: ignore[method-assign]


class Keyless:
    """A signer without a key: the identity point as public key."""

    public = crypto.IDENTITY

    def sign(self, data: bytes) -> bytes:
        return crypto.IDENTITY + bytes(32)


async def sit_without_a_key(endpoint: str) -> int:
    try:
        await join_table(endpoint, Keyless(), "Nobody", "tcp://127.0.0.1:9",  # type: ignore[arg-type]
                         connect_timeout=5, timeout=5)
    except P2PSpadesError as exc:
        print(f"cheater: refused: {exc}", flush=True)
        return 0
    print("cheater: seated without a key", flush=True)
    return 1


async def flood(peer: Peer) -> None:
    """ENTRIES frames of the genesis with its signature broken, to seat 0, until our game ends."""
    genesis = peer.table.entries[0]
    frame = Entries(1, (genesis[:-1] + bytes([genesis[-1] ^ 1]),) * 200)
    while not peer.table.finished:
        peer.mesh.send(0, frame)
        await asyncio.sleep(0.01)


async def junk_votes(peer: Peer, identity: crypto.Identity) -> None:
    """Properly signed votes for the 40 slots after the next one, against every other seat in turn, to every
    other seat, every 50 ms, until our game ends: none can ever hold (their `p` chains to nothing)."""
    others = [s for s in range(peer.table.seats) if s != peer.seat]
    sent = 0
    while not peer.table.finished:
        table = peer.table
        base = table.chain.next_seq
        nowhere = [hashlib.sha256(table.head + bytes([k])).digest() for k in range(42)]  # chains to nothing
        votes = tuple(
            log.seal({"g": table.game_id, "n": base + k, "p": nowhere[k], "s": peer.seat,
                      "h": table.hand_number, "t": "abandon", "a": others[k % len(others)], "w": 600},
                     identity)
            for k in range(2, 42)
        )
        for seat in peer.mesh.peers:
            peer.mesh.send(seat, Entries(base + 2, votes))
        sent += len(votes)
        await asyncio.sleep(0.05)
    print(f"cheater: {sent} junk votes sent", flush=True)


async def held_goodbye(peer: Peer) -> None:
    """A goodbye signed once our table holds 30 entries, kept, and sent a hand later (or once the game is
    over on our table, if sooner): properly signed, for a slot before our own later entries."""
    table = peer.table
    while len(table.entries) < 30 and not table.finished:
        await asyncio.sleep(0.01)
    goodbye = table.sign(msg.Leave().to_fields())
    hand = table.hand_number
    print(f"cheater: goodbye signed at slot {len(table.entries)} of hand {hand}, kept", flush=True)
    while peer.table.hand_number <= hand and not peer.table.finished:
        await asyncio.sleep(0.05)
    peer.mesh.broadcast(Entry(goodbye))
    print("cheater: goodbye sent", flush=True)


async def forged_goodbye(peer: Peer, identity: crypto.Identity) -> None:
    """Once our table holds 20 entries: a goodbye whose header names the seat after ours, signed with our
    own key, to every seat."""
    table = peer.table
    while len(table.entries) < 20 and not table.finished:
        await asyncio.sleep(0.01)
    victim = (peer.seat + 1) % table.seats
    payload = {"g": table.game_id, "n": len(table.entries), "p": table.head, "s": victim,
               "h": table.hand_number, "t": "leave"}
    forged = log.seal(payload, identity)
    for seat in peer.mesh.peers:
        peer.mesh.send(seat, Entries(len(table.entries), (forged,)))
    print(f"cheater: goodbye forged for seat {victim}, sent", flush=True)


async def cheat(attack: str, lobby: str, home: Path) -> int:
    endpoint = parse_endpoint(lobby)
    assert endpoint is not None, lobby
    if attack == "keyless":
        return await sit_without_a_key(endpoint)
    peer_module.Table = ATTACKS[attack]  # type: ignore[attr-defined]  # what start_game builds our table with
    home.mkdir(parents=True, exist_ok=True)
    identity = crypto.Identity.generate()
    seat = Seat(identity, home / "cheater.key", "Mallory", make_bot("easy", 7))
    group = await join_game(endpoint, seat, settings=Settings(home=home))
    peer = group.main
    print(f"cheater: {attack} at seat {peer.seat}", flush=True)
    if attack == "withhold-reveal":
        withhold_reveal(peer)
    elif attack in ON_THE_WIRE:
        tamper_first_lock(peer, identity, ON_THE_WIRE[attack])
    flooding = asyncio.ensure_future(flood(peer)) if attack == "flood" else None
    if attack == "junk-votes":
        flooding = asyncio.ensure_future(junk_votes(peer, identity))
    if attack == "held-goodbye":
        flooding = asyncio.ensure_future(held_goodbye(peer))
    if attack == "forged-goodbye":
        flooding = asyncio.ensure_future(forged_goodbye(peer, identity))
    try:
        ended = await group.run()
    finally:
        if flooding is not None:
            flooding.cancel()
        await group.close()
    over = describe.ending(ended) if ended is not None else peer.table.status
    print(f"cheater: game over: {over}", flush=True)
    print(f"cheater: log {peer.store.log_path}", flush=True)
    return 0


def main() -> int:
    attack, lobby, home = sys.argv[1:4]
    if attack not in ATTACKS and attack != "keyless":
        print(f"cheater: unknown attack {attack!r}; one of {', '.join(ATTACKS)}", file=sys.stderr)
        return 2
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("cheater: %(message)s"))
    logging.getLogger("p2pspades").addHandler(handler)
    logging.getLogger("p2pspades").setLevel(logging.WARNING)
    return asyncio.run(cheat(attack, lobby, Path(home)))


if __name__ == "__main__":
    sys.exit(main())
