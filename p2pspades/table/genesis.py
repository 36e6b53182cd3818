"""The genesis entry: which game, which rules, who sits where. Every later entry chains back to it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from p2pspades import crypto, log
from p2pspades.checks import Check
from p2pspades.errors import N_, Detail, LocalError, RemoteError, detail_of
from p2pspades.rules import RuleSet, SideTotal, start_problem
from p2pspades.table.limits import MAX_SEATS
from p2pspades.table.messages import PROTOCOL_VERSION, SUPPORTED_VERSIONS, Genesis

GAME_ID_BYTES = 16
ZERO_HASH = bytes(32)
REMATCH = "rematch"
CONTINUATION = "continue"
"""The kinds of `After`: a new game at the same table, or the same game carried on from its scores."""


@dataclass(frozen=True)
class After:
    """The game a new game follows, the genesis `after` (PROTOCOL.md §4.1): a rematch of game `game_id`,
    or its continuation from each side's score and bags (`totals`, in side order) with `dealer` dealing the
    first hand. Absent from the genesis of a game that follows none."""

    game_id: bytes
    kind: str
    totals: tuple[SideTotal, ...] = ()
    dealer: int = 0

    @property
    def continues(self) -> bool:
        return self.kind == CONTINUATION

    def to_wire(self) -> dict[str, Any]:
        if not self.continues:
            return {"g": self.game_id, "k": self.kind}
        return {"g": self.game_id, "k": self.kind, "sc": [t.score for t in self.totals],
                "bg": [t.bags for t in self.totals], "d": self.dealer}

    @classmethod
    def from_wire(cls, value: Any) -> After:
        """The shape of an `after` map, without the rules (`problem` checks it against them). `ValueError`
        saying what is wrong, in one line, whatever the value."""
        if not isinstance(value, Mapping):
            raise ValueError(Detail(N_("'after' is a map")))
        kind = value.get("k")
        keys = {"g", "k"} | ({"sc", "bg", "d"} if kind == CONTINUATION else set())
        if kind not in (REMATCH, CONTINUATION):
            raise ValueError(Detail(N_("'after' kind is {rematch} or {continuation}"), rematch=repr(REMATCH),
                                    continuation=repr(CONTINUATION)))
        if set(value) != keys:
            raise ValueError(Detail(N_("'after' of kind {kind} has exactly the fields {fields}"),
                                    kind=repr(kind), fields=", ".join(sorted(keys))))
        game_id = value["g"]
        if not isinstance(game_id, bytes) or len(game_id) != GAME_ID_BYTES:
            raise ValueError(Detail(N_("'after' names a game id of {size} bytes"), size=GAME_ID_BYTES))
        if kind == REMATCH:
            return cls(game_id, kind)
        return cls(game_id, kind, *_carried_on(value))

    def problem(self, rules: RuleSet, game_id: bytes | None) -> Detail | None:
        """Why this `after` cannot be in the genesis of game `game_id` under `rules`, or None (`game_id`
        None: a game whose id is not drawn yet, as the lobby announces it)."""
        if self.game_id == game_id:
            return Detail(N_("a game cannot follow itself"))
        if not self.continues:
            return None
        if self.dealer >= rules.players:
            return Detail(N_("the first dealer {dealer} is not a seat of a {players}-seat table"),
                          dealer=self.dealer, players=rules.players)
        return start_problem(rules, self.totals)


def _carried_on(value: Mapping[str, Any]) -> tuple[tuple[SideTotal, ...], int]:
    """The totals and the first dealer of a continuation's `after` map (`ValueError` if they are no such)."""
    scores, bags, dealer = value["sc"], value["bg"], value["d"]
    for what, numbers in (("scores", scores), ("bags", bags)):
        if not (isinstance(numbers, list) and 1 <= len(numbers) <= MAX_SEATS
                and all(_whole(x) for x in numbers)):
            raise ValueError(Detail(N_("'after' {what} are a list of 1 to {most} whole numbers"), what=what,
                                    most=MAX_SEATS))
    if len(scores) != len(bags):
        raise ValueError(Detail(N_("'after' has as many bags as scores")))
    if not _whole(dealer) or not 0 <= dealer < MAX_SEATS:
        raise ValueError(Detail(N_("'after' dealer is a seat number")))
    return tuple(SideTotal(s, b) for s, b in zip(scores, bags, strict=True)), dealer


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


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
    #: the game this one follows, if any (the genesis `after`)
    after: After | None = None

    @property
    def keys(self) -> tuple[bytes, ...]:
        return tuple(s.key for s in self.seats)

    def seat_of(self, identity: crypto.Identity | None) -> int | None:
        """The seat `identity` holds (None: no identity, an observer); LocalError if it holds none."""
        if identity is None:
            return None
        if identity.public not in self.keys:
            raise LocalError(N_("this identity holds no seat at that table"))
        return self.keys.index(identity.public)


def make_genesis(
    game_id: bytes,
    rules: RuleSet,
    seats: Sequence[tuple[str, bytes]],
    identity: crypto.Identity,
    name: str = "p2pspades",
    version: int = PROTOCOL_VERSION,
    after: After | None = None,
) -> bytes:
    """The signed genesis of a new game. Seat 0 (the host) signs it; every other seat accepts it in turn.

    New games are protocol version 2 (the deal proven live); `version=1` makes the older form, which peers
    and the verifier still accept. `after`: the game this one follows (left out of the genesis if None)."""
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
    if after is not None:
        payload["after"] = after.to_wire()
    raw = log.seal(payload, identity)
    read_genesis(raw)  # refuse to create what no peer would accept
    return raw


def read_genesis(raw: bytes) -> tuple[log.Envelope, Setup]:
    """Check a genesis entry completely. RemoteError (naming seat 0) if anything is wrong."""
    env = log.open_envelope(raw)
    header = log.validate_header(env.payload)
    if header.type != "genesis":
        why = Detail(N_("the first entry is a {type}, not a genesis"), type=repr(header.type))
        raise RemoteError(Check.GENESIS, why, 0)
    g = Genesis.from_payload(env.payload, 0)
    if header.seq != 0 or header.prev != ZERO_HASH or header.seat != 0 or header.hand != 0:
        why = Detail(N_("the genesis must have n=0, p=zero hash, s=0, h=0"))
        raise RemoteError(Check.GENESIS, why, 0)
    if len(header.game_id) != GAME_ID_BYTES:
        raise RemoteError(Check.GENESIS, Detail(N_("the game id must be 16 bytes")), 0)
    rules = _rules(g)
    seats = _seats(g, rules)
    after = None if g.after is None else _after(g.after, rules, header.game_id)
    if not crypto.verify_signature(seats[0].key, env.signature, env.payload_raw):
        raise RemoteError(Check.SIGNATURE, Detail(N_("the genesis is not signed by seat 0")), 0)
    return env, Setup(header.game_id, g.name, rules, seats, g.version, after)


def _rules(g: Genesis) -> RuleSet:
    """The genesis's protocol version and rule set, checked."""
    if g.version not in SUPPORTED_VERSIONS:
        *known, last = SUPPORTED_VERSIONS
        detail = Detail(N_("protocol version {version} is not supported (versions {known} and {last} are)"),
                        version=g.version, known=", ".join(map(str, known)), last=last)
        raise RemoteError(Check.GENESIS, detail, 0)
    try:
        rules = RuleSet.from_dict(g.rules)
    except (ValueError, TypeError) as exc:
        raise RemoteError(Check.GENESIS, Detail(N_("bad rule set: {exc}"), exc=exc), 0) from None
    if rules.nil_pass and g.version < 2:
        why = Detail(N_("bad rule set: nil_pass needs protocol version 2"))
        raise RemoteError(Check.GENESIS, why, 0)
    return rules


def _seats(g: Genesis, rules: RuleSet) -> tuple[SeatInfo, ...]:
    """The genesis's seats, checked: one per player, each with a key of its own that is no weak key."""
    seats = tuple(SeatInfo(i, s["n"], s["k"]) for i, s in enumerate(g.seats))
    if len(seats) != rules.players:
        why = Detail(N_("{count} seats for a {players}-player rule set"), count=len(seats),
                     players=rules.players)
        raise RemoteError(Check.GENESIS, why, 0)
    if len({s.key for s in seats}) != len(seats):
        raise RemoteError(Check.GENESIS, Detail(N_("two seats share one key")), 0)
    for seat_info in seats:
        try:
            crypto.check_public_key(seat_info.key)
        except crypto.WeakKey as exc:
            raise RemoteError(Check.GENESIS, f"seat {seat_info.seat}: {exc.detail}", 0) from None
    return seats


def _after(value: Any, rules: RuleSet, game_id: bytes) -> After:
    """The genesis's `after`, checked in its shape and against the rules."""
    try:
        after = After.from_wire(value)
    except ValueError as exc:
        raise RemoteError(Check.GENESIS, detail_of(exc), 0) from None
    problem = after.problem(rules, game_id)
    if problem is not None:
        raise RemoteError(Check.GENESIS, Detail(N_("'after': {problem}"), problem=problem), 0)
    return after
