"""The genesis entry: which game, which rules, who sits where. Every later entry chains back to it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pspades import crypto, log
from p2pspades.checks import Check
from p2pspades.errors import LocalError, RemoteError
from p2pspades.rules import RuleSet
from p2pspades.table.messages import PROTOCOL_VERSION, SUPPORTED_VERSIONS, Genesis

GAME_ID_BYTES = 16
ZERO_HASH = bytes(32)


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str
    key: bytes

    @property
    def fingerprint(self) -> str:
        return crypto.fingerprint(self.key)


@dataclass(frozen=True)
class Setup:
    """What the genesis fixes for the whole game."""

    game_id: bytes
    name: str
    rules: RuleSet
    seats: tuple[SeatInfo, ...]
    version: int = PROTOCOL_VERSION

    @property
    def keys(self) -> tuple[bytes, ...]:
        return tuple(s.key for s in self.seats)


def make_genesis(
    game_id: bytes,
    rules: RuleSet,
    seats: Sequence[tuple[str, bytes]],
    identity: crypto.Identity,
    name: str = "p2pspades",
    version: int = PROTOCOL_VERSION,
) -> bytes:
    """The signed genesis of a new game. Seat 0 (the host) signs it; every other seat accepts it in turn.

    New games are protocol version 2 (the deal proven live); `version=1` makes the older form, which peers
    and the verifier still accept."""
    if len(game_id) != GAME_ID_BYTES:
        raise LocalError(f"a game id is {GAME_ID_BYTES} bytes")
    if len(seats) != rules.players:
        raise LocalError(f"the rules are for {rules.players} players but {len(seats)} seats were given")
    if seats[0][1] != identity.public:
        raise LocalError("the genesis is signed by seat 0, the host")
    payload = {
        "g": game_id,
        "n": 0,
        "p": ZERO_HASH,
        "s": 0,
        "h": 0,
        "t": "genesis",
        "v": version,
        "name": name,
        "rules": rules.to_dict(),
        "seats": [{"n": n, "k": k} for n, k in seats],
    }
    raw = log.seal(payload, identity)
    read_genesis(raw)  # refuse to create what no peer would accept
    return raw


def read_genesis(raw: bytes) -> tuple[log.Envelope, Setup]:
    """Check a genesis entry completely. RemoteError (naming seat 0) if anything is wrong."""
    env = log.open_envelope(raw)
    p = env.payload
    header = log.validate_header(p)
    if header.type != "genesis":
        raise RemoteError(Check.GENESIS, f"the first entry is a {header.type!r}, not a genesis", 0)
    g = Genesis.from_payload(p, 0)
    if header.seq != 0 or header.prev != ZERO_HASH or header.seat != 0 or header.hand != 0:
        raise RemoteError(Check.GENESIS, "the genesis must have n=0, p=zero hash, s=0, h=0", 0)
    if len(header.game_id) != GAME_ID_BYTES:
        raise RemoteError(Check.GENESIS, "the game id must be 16 bytes", 0)
    if g.version not in SUPPORTED_VERSIONS:
        known = " and ".join(map(str, SUPPORTED_VERSIONS))
        detail = f"protocol version {g.version} is not supported (versions {known} are)"
        raise RemoteError(Check.GENESIS, detail, 0)
    try:
        rules = RuleSet.from_dict(g.rules)
    except (ValueError, TypeError) as exc:
        raise RemoteError(Check.GENESIS, f"bad rule set: {exc}", 0) from None
    if rules.nil_pass and g.version < 2:
        raise RemoteError(Check.GENESIS, "bad rule set: nil_pass needs protocol version 2", 0)
    seats = tuple(SeatInfo(i, s["n"], s["k"]) for i, s in enumerate(g.seats))
    if len(seats) != rules.players:
        raise RemoteError(Check.GENESIS, f"{len(seats)} seats for a {rules.players}-player rule set", 0)
    if len({s.key for s in seats}) != len(seats):
        raise RemoteError(Check.GENESIS, "two seats share one key", 0)
    for seat_info in seats:
        try:
            crypto.check_public_key(seat_info.key)
        except crypto.WeakKey as exc:
            raise RemoteError(Check.GENESIS, f"seat {seat_info.seat}: {exc.detail}", 0) from None
    if not crypto.verify_signature(seats[0].key, env.signature, env.payload_raw):
        raise RemoteError(Check.SIGNATURE, "the genesis is not signed by seat 0", 0)
    return env, Setup(header.game_id, g.name, rules, seats, g.version)
