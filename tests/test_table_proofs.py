"""Protocol version 2 on the in-memory wiring: every step of the deal is proven and checked live.

Each attack is made by a modified peer that signs its bad entries properly (the prover's algorithm run on a
false statement, or an entry altered and signed again). Every honest peer must refuse the entry at the step
where it is attempted, name the seat, keep the entry as evidence, and agree; the verifier must reach the
same verdict from the honest chain and the evidence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from helpers.cheats import Tampering, send_unchecked
from test_table_attacks import CHEATER, Reneger, assert_caught, honest, renege_player, seated

from p2pspades import crypto, log
from p2pspades.audit import Status, verify_frames
from p2pspades.bots import RandomBot
from p2pspades.crypto import proofs
from p2pspades.errors import RemoteError
from p2pspades.rules import Action, Play, RuleSet, preset
from p2pspades.table import Event, Stage, Table, Violation, limits
from p2pspades.table import messages as msg
from p2pspades.table.genesis import make_genesis, read_genesis
from p2pspades.table.harness import Wire, play_in_memory
from p2pspades.table.makers import Makers, MakerView, position_of

RULES = preset("classic", target=100, losing_threshold=-100)
FIRST = b"copy7"  # with this seed the first dealer is seat 0: seat 1, the cheater, shuffles and locks first


def refused_at(wire: Wire, kind: str, check: str | None = None) -> Violation:
    """The cheater's `kind` entry was refused at its own step: every honest chain stops just before it, the
    violation is at that entry with the entry as evidence, and the verifier says the same."""
    v = assert_caught(wire, check or kind)
    assert v.evidence, "the refused entry is kept as evidence"
    payload = log.open_envelope(v.evidence[0]).payload
    assert payload["t"] == kind and payload["s"] == CHEATER and payload["n"] == v.seq
    for table in honest(wire):
        assert len(table.entries) == v.seq, "the refused entry is not in the chain"
        assert table.violation == v
    verdict = verify_frames([*honest(wire)[0].entries, *v.evidence])
    assert verdict.violation is not None
    found = verdict.violation
    assert (found.seat, found.check, found.seq) == (CHEATER, v.check, v.seq)
    return v


def ints(scalars: tuple[bytes, ...]) -> list[int]:
    return [crypto.scalar_to_int(k) for k in scalars]


# ------------------------------------------------------------------ the first-lock copying attack
class Copier(Makers):
    """At its lock, it puts opponents' positions under its own positions' keys, `out[a] = k_a·s⁻¹·in[b]`,
    so that its own cards would open to the opponents' cards; the lock proof is the prover's algorithm run on
    that false statement."""

    copied: list[tuple[int, int]]

    def make(self, table: MakerView, kind: type[msg.Message]) -> msg.Message:
        made = super().make(table, kind)
        if not isinstance(made, msg.Lock) or table.hand_secrets is None or table.seat is None:
            return made
        d, my = table.deal, table.hand_secrets
        self.first = not d.locks
        deck_in = d.lock_input()
        s, s_inv = crypto.scalar_to_int(my.shuffle_scalar), crypto.scalar_to_int(my.inverse_shuffle_scalar)
        keys = ints(my.lock_keys)
        opponents = [j for j in range(d.n) if (d.owner[j] or 0) % 2 != table.seat % 2]
        deck = list(made.deck)
        self.copied = list(zip(d.positions_of(table.seat)[:12], opponents[:12], strict=True))
        for a, b in self.copied:
            deck[a] = crypto.mul(crypto.scalar_from_int(keys[a] * s_inv % crypto.L), deck_in[b])
        if not isinstance(made, msg.LockV2):
            return msg.Lock(tuple(deck))
        step = crypto.lock_step(table.seats, len(d.locks))
        proof = proofs.lock_proof(
            d.context(table.seat), step, deck_in, deck, made.commitments, s, keys, my.seed
        )
        return msg.LockV2(tuple(deck), made.commitments, proof)


@pytest.mark.slow
def test_the_first_lock_copying_attack_is_refused_at_the_lock_naming_the_seat() -> None:
    wire, _ = seated(RULES, Copier, seed=FIRST, version=2)
    wire.run()
    cheater = wire.tables[CHEATER].makers
    assert isinstance(cheater, Copier) and cheater.first and len(cheater.copied) == 12
    v = refused_at(wire, "lock")
    assert "lock proof" in v.detail
    for table in honest(wire):
        assert table.deal is not None and not table.deal.locks, "refused at the first lock"
        assert not any(log.open_envelope(e).payload["t"] == "keys" for e in table.entries)


def test_in_version_1_the_copied_lock_passes_the_live_checks() -> None:
    """What version 2 fixes: version 1 takes the same lock, and the cheater sees its opponents' cards."""
    wire, _ = seated(RULES, Copier, seed=FIRST, version=1)
    wire.run()
    cheater = wire.tables[CHEATER].makers
    assert isinstance(cheater, Copier) and cheater.first
    lock = next(e for e in honest(wire)[0].entries if log.open_envelope(e).payload["t"] == "lock")
    assert log.open_envelope(lock).payload["s"] == CHEATER, "the copied lock is in every honest chain"


# ------------------------------------------------------------------ the shuffle tagging attack
class Tagger(Makers):
    """At its shuffle, it replaces some output points with points whose discrete-log relation to another
    output point it knows (tags it could follow through the later shuffles). `replay`: it sends the proof of
    its honest shuffle instead of proving the tagged one."""

    tagged = False
    replay = False

    def make(self, table: MakerView, kind: type[msg.Message]) -> msg.Message:
        made = super().make(table, kind)
        if not isinstance(made, msg.ShuffleV2) or table.hand_secrets is None or table.seat is None:
            return made
        d, my = table.deal, table.hand_secrets
        self.tagged = True
        deck = list(made.deck)
        for i in (1, 2, 3):
            deck[i] = crypto.mul(crypto.scalar_from_int(1000 + i), deck[0])
        if self.replay:
            return msg.ShuffleV2(tuple(deck), made.proof)
        step = crypto.shuffle_step(len(d.shuffles))
        s = crypto.scalar_to_int(my.shuffle_scalar)
        proof = proofs.shuffle_proof(
            d.context(table.seat), step, d.shuffle_input(), deck, s, my.permutation, my.seed
        )
        return msg.ShuffleV2(tuple(deck), proof)


@pytest.mark.parametrize("replay", [False, True], ids=["proof-of-the-tagged-deck", "honest-proof-replayed"])
def test_the_shuffle_tagging_attack_is_refused_at_the_shuffle_naming_the_seat(replay: bool) -> None:
    class Cheat(Tagger):
        pass

    Cheat.replay = replay
    wire, _ = seated(RULES, Cheat, seed=FIRST, version=2)
    wire.run()
    cheater = wire.tables[CHEATER].makers
    assert isinstance(cheater, Tagger) and cheater.tagged
    v = refused_at(wire, "shuffle")
    assert "shuffle proof" in v.detail
    for table in honest(wire):
        assert table.deal is not None and not table.deal.shuffles, "refused at the first shuffle"


# ------------------------------------------------------------------ missing, mutated and misplaced proofs
Tamper = Callable[[int, bytes], list[tuple[int, bytes]]]


def resealed(kind: str, change: Callable[[dict[str, Any]], None], ids: list[crypto.Identity]) -> Tamper:
    """A wire tamper: the cheater's first entry of type `kind` is changed and signed again."""
    done: list[bool] = []

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        payload = dict(log.open_envelope(raw).payload)
        # a play is changed only once it carries a void proof
        applies = kind != "play" or bool(payload.get("x"))
        if sender == CHEATER and payload["t"] == kind and not done and applies:
            done.append(True)
            change(payload)
            raw = log.seal(payload, ids[CHEATER])
        return [(d, raw) for d in range(4) if d != sender]

    return tamper


def flip_last(field: str) -> Callable[[dict[str, Any]], None]:
    def change(payload: dict[str, Any]) -> None:
        blob = bytearray(payload[field])
        blob[-1] ^= 1
        payload[field] = bytes(blob)

    return change


def flip_void(payload: dict[str, Any]) -> None:
    flip_last("x")(payload)


def empty(field: str) -> Callable[[dict[str, Any]], None]:
    def change(payload: dict[str, Any]) -> None:
        payload[field] = b""

    return change


def drop(field: str) -> Callable[[dict[str, Any]], None]:
    def change(payload: dict[str, Any]) -> None:
        del payload[field]

    return change


def other_commitment(payload: dict[str, Any]) -> None:
    commitments = list(payload["P"])
    commitments[5] = crypto.mul(crypto.scalar_from_int(3), commitments[5])
    payload["P"] = commitments


def short_commitments(payload: dict[str, Any]) -> None:
    payload["P"] = list(payload["P"])[:-1]


def long_commitments(payload: dict[str, Any]) -> None:
    payload["P"] = [*payload["P"], *payload["P"]][: limits.MAX_LIST + 1]


def over_the_cap(payload: dict[str, Any]) -> None:
    """A void proof one byte over the largest one any legal rule set can need."""
    payload["x"] = payload["x"] + bytes(limits.MAX_VOID_PROOF + 1 - len(payload["x"]))


NON_CANONICAL = crypto.L.to_bytes(32, "little")
"""The group order itself: 32 bytes, but not reduced below L."""


def non_canonical_deal_key(payload: dict[str, Any]) -> None:
    payload["k"] = [NON_CANONICAL, *payload["k"][1:]]


def non_canonical_play_key(payload: dict[str, Any]) -> None:
    payload["k"] = NON_CANONICAL


def identity_s(payload: dict[str, Any]) -> None:
    payload["S"] = crypto.IDENTITY


def other_s(payload: dict[str, Any]) -> None:
    payload["S"] = crypto.mul(crypto.scalar_from_int(5), payload["S"])


@pytest.mark.parametrize(
    ("kind", "change", "check"),
    [
        ("shuffle", empty("x"), "shuffle"),
        ("shuffle", drop("x"), "schema"),
        ("shuffle", flip_last("x"), "shuffle"),
        ("lock", empty("x"), "lock"),
        ("lock", flip_last("x"), "lock"),
        ("lock", other_commitment, "lock"),
        ("lock", drop("P"), "schema"),
        ("lock", short_commitments, "lock"),
        ("lock", long_commitments, "schema"),
        ("commit", identity_s, "commit"),
        ("commit", drop("S"), "schema"),
        ("play", flip_void, "void"),
        ("play", over_the_cap, "schema"),
        ("keys", non_canonical_deal_key, "key"),
        ("play", non_canonical_play_key, "key"),
    ],
    ids=[
        "shuffle-proof-empty",
        "shuffle-proof-missing",
        "shuffle-proof-mutated",
        "lock-proof-empty",
        "lock-proof-mutated",
        "lock-commitment-changed",
        "lock-commitments-missing",
        "lock-commitments-one-short",
        "lock-commitments-over-the-list-limit",
        "commit-S-identity",
        "commit-S-missing",
        "void-proof-mutated",
        "void-proof-over-the-cap",
        "deal-key-non-canonical",
        "play-key-non-canonical",
    ],
)
@pytest.mark.slow
def test_a_missing_or_mutated_proof_is_a_violation_at_that_entry(
    kind: str, change: Callable[[dict[str, Any]], None], check: str
) -> None:
    wire, ids = seated(RULES, seed=FIRST, version=2)
    wire.tamper = resealed(kind, change, ids)
    wire.run()
    refused_at(wire, kind, check)


def test_another_s_in_the_commitment_fails_the_seats_shuffle_proof() -> None:
    """S is only a point: a different valid one is accepted with the commitment, and then no shuffle by the
    seat can be proven against it."""
    def change(table: Table, p: dict[str, Any]) -> dict[str, Any]:
        other_s(p)
        return p

    wire, _ = seated(RULES, Tampering, seed=FIRST, version=2, kind="commit", change=change)
    wire.run()
    refused_at(wire, "shuffle")


@pytest.mark.slow
def test_a_wrong_deal_key_is_a_violation_at_the_keys_entry() -> None:
    def bad_key(table: Table, p: dict[str, Any]) -> dict[str, Any]:
        assert table.hand_secrets is not None
        p["k"][0] = table.hand_secrets.lock_keys[p["j"][1]]  # a real key of the seat, for another position
        return p

    wire, _ = seated(RULES, Tampering, seed=FIRST, version=2, kind="keys", change=bad_key)
    wire.run()
    v = refused_at(wire, "keys", "key")
    assert "does not match" in v.detail


@pytest.mark.slow
def test_a_wrong_play_key_is_a_violation_at_the_play_entry() -> None:
    wire, ids = seated(RULES, seed=FIRST, version=2)
    seen: list[bytes] = []

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        payload = dict(log.open_envelope(raw).payload)
        if sender == CHEATER and payload["t"] == "play" and not seen:
            cheater = wire.tables[CHEATER]
            assert cheater.hand_secrets is not None
            payload["k"] = cheater.hand_secrets.lock_keys[(payload["j"] + 4) % 52]
            raw = log.seal(payload, ids[CHEATER])
            seen.append(raw)
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = tamper
    wire.run()
    refused_at(wire, "play", "key")


# ------------------------------------------------------------------ reneges refused live
class FalseVoid(Reneger):
    """It reneges, and signs its play with a void proof: `mode` "none" (no proof), "subset" (a true proof
    for only the positions that hold no card of the led suit), "zeros" (a proof of the right size)."""

    mode = "none"

    def decide(self, action: Action) -> list[Event]:
        g, d = self.game, self.deal
        if not isinstance(action, Play) or g is None or d is None or self.seat is None:
            return super().decide(action)
        j = position_of(self.view, action.card)
        led = g.hand.trick.led_suit
        positions, cards = d.void_claim(self.seat, j, action.card, led)
        if not any(d.opened[p].suit == led for p in positions):
            return super().decide(action)  # not a renege: played as an honest peer would
        assert self.identity is not None and self.hand_secrets is not None
        d.key_commits[self.seat] = tuple(crypto.lock_commitments(self.hand_secrets))
        step = crypto.void_step(self.seats, len(d.played))
        points = [crypto.card_point(c.code) for c in cards]
        clean = [p for p in positions if d.opened[p].suit != led]
        proof = b""
        if self.mode == "subset" and clean:
            claim = d.void_positions(self.seat, clean)
            proof = crypto.prove_void(d.context(self.seat), step, self.hand_secrets, claim, points)
        elif self.mode != "none":
            proof = bytes(proofs.void_proof_size(len(positions), len(cards)))
        send_unchecked(self, {"t": "play", "j": j, "k": self.hand_secrets.lock_keys[j], "x": proof})
        self.reneged = True
        self.stage = Stage.OVER
        return []


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["none", "subset", "zeros"])
def test_a_renege_is_refused_live_whatever_void_proof_it_carries(mode: str) -> None:
    class Cheat(FalseVoid):
        pass

    Cheat.mode = mode
    wire, _ = seated(RULES, Cheat, seed=b"renege", version=2)
    cheater = wire.tables[CHEATER]
    assert isinstance(cheater, FalseVoid)
    wire.players[CHEATER] = renege_player(cheater)
    wire.run()
    assert cheater.reneged
    v = refused_at(wire, "play", "void")
    assert ("without a void proof" if mode == "none" else "void proof") in v.detail


@pytest.mark.slow
def test_an_honest_version_2_game_proves_void_claims_and_verifies() -> None:
    wire = play_in_memory(RULES, [RandomBot(i) for i in range(4)], seed=b"honest v2")
    entries = wire.tables[0].entries
    assert all(t.status == "complete" for t in wire.tables)
    assert all(t.entries == entries for t in wire.tables)
    assert log.open_envelope(entries[0]).payload["v"] == 2
    voids = [log.open_envelope(e).payload for e in entries if log.open_envelope(e).payload["t"] == "play"]
    assert any(p["x"] for p in voids), "some play did not follow suit and carried a void proof"
    verdict = verify_frames(entries)
    assert verdict.status is Status.VALID, verdict.summary


@pytest.mark.slow
def test_without_the_void_proofs_rule_a_discard_carries_no_proof() -> None:
    rules = RULES.replace(void_proofs=False)
    assert rules.to_dict()["void_proofs"] is False
    assert RuleSet.from_dict(rules.to_dict()) == rules
    wire = play_in_memory(rules, [RandomBot(i) for i in range(4)], seed=b"honest v2")
    entries = wire.tables[0].entries
    plays = [log.open_envelope(e).payload for e in entries if log.open_envelope(e).payload["t"] == "play"]
    assert plays and not any(p["x"] for p in plays)
    assert verify_frames(entries).status is Status.VALID


@pytest.mark.slow
def test_a_void_proof_where_none_is_due_is_a_violation() -> None:
    wire, ids = seated(RULES, seed=FIRST, version=2)

    def stuff(payload: dict[str, Any]) -> None:
        payload["x"] = bytes(96)

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        payload = dict(log.open_envelope(raw).payload)
        if sender == CHEATER and payload["t"] == "play" and not payload["x"]:
            stuff(payload)
            raw = log.seal(payload, ids[CHEATER])
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = tamper
    wire.run()
    v = refused_at(wire, "play", "void")
    assert "no void claim is due" in v.detail


# ------------------------------------------------------------------ versions
def test_the_rule_option_leaves_version_1_rule_maps_unchanged() -> None:
    assert "void_proofs" not in RULES.to_dict()
    assert RuleSet.from_dict(RULES.to_dict()).void_proofs is True


def test_a_genesis_of_an_unknown_version_is_refused_naming_it() -> None:
    ids = [crypto.Identity.from_seed(bytes([i + 1]) * 32) for i in range(4)]
    seats = [(f"P{i}", ids[i].public) for i in range(4)]
    for version in (1, 2):
        _, setup = read_genesis(make_genesis(bytes(16), RULES, seats, ids[0], version=version))
        assert setup.version == version
    with pytest.raises(RemoteError, match="protocol version 3 is not supported"):
        make_genesis(bytes(16), RULES, seats, ids[0], version=3)
    with pytest.raises(RemoteError, match="protocol version 0 is not supported"):
        make_genesis(bytes(16), RULES, seats, ids[0], version=0)


def test_version_2_messages_are_refused_in_a_version_1_game_and_the_reverse() -> None:
    v1 = {"t": "shuffle", "d": [crypto.card_point("AS")]}
    v2 = {**v1, "x": b""}
    assert type(msg.decode(v1, 0, version=1)) is msg.Shuffle
    assert type(msg.decode(v2, 0, version=2)) is msg.ShuffleV2
    for payload, version in ((v2, 1), (v1, 2)):
        with pytest.raises(RemoteError, match=r"shuffle: missing .* unexpected"):
            msg.decode(payload, 0, version=version)
    too_long = {**v2, "x": bytes(limits.MAX_SHUFFLE_PROOF + 1)}
    with pytest.raises(RemoteError, match="wrong type or size"):
        msg.decode(too_long, 0, version=2)
