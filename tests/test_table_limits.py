"""The size limits of an entry fit the largest honest entry of the largest legal rule set, built for real.

An honest seat must never be named for the size of what it had to write: each test below builds the largest
entry of its kind with the real prover (real scalars, points and proofs), signs it, and checks that the
envelope limit and the table's decoder take it, and that one byte (or one element) more is refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from p2pspades import crypto, log
from p2pspades.errors import RemoteError
from p2pspades.rules import RuleSet, RuleSetError, Suit
from p2pspades.table import limits
from p2pspades.table import messages as msg

GAME = bytes(range(16))
SEAT = 1
IDENTITY = crypto.Identity.from_seed(bytes([7]) * 32)
WORST = RuleSet(players=2, partnerships=False, jokers=True, removed=(), spade_lead="always", deuces_high=True)
"""The largest legal rule set: 54 cards (every card and both jokers) dealt to two seats of 27, deuces high
(the 2D is a spade: 16 of them), and a spade may be led to the first trick, so the second seat can have to
claim a void in 15 unplayed spades."""


def entry(t: str, **fields: Any) -> bytes:
    """A signed entry late in a long game (large `n` and `h` make the header as long as it gets)."""
    header = {"g": GAME, "n": 2**32 - 1, "p": bytes(32), "s": SEAT, "h": 2**32 - 1, "t": t}
    return log.seal({**header, **fields}, IDENTITY)


def accepted(raw: bytes) -> msg.Message:
    """What the table does with an entry: the envelope limit, then the schema of protocol version 2."""
    assert len(raw) <= log.MAX_ENVELOPE
    envelope = log.open_envelope(raw)
    return msg.decode(envelope.payload, SEAT, 2)


def refused(fields: dict[str, Any], t: str) -> RemoteError:
    payload = {"g": GAME, "n": 9, "p": bytes(32), "s": SEAT, "h": 1, "t": t, **fields}
    with pytest.raises(RemoteError) as info:
        msg.decode(payload, SEAT, 2)
    assert (info.value.check, info.value.seat) == ("schema", SEAT)
    return info.value


def test_the_table_sizes_are_those_the_rule_set_allows() -> None:
    for players in limits.PLAYERS:
        assert RuleSet(players=players, partnerships=False).players == players
    for players in (min(limits.PLAYERS) - 1, max(limits.PLAYERS) + 1):
        with pytest.raises(RuleSetError):
            RuleSet(players=players, partnerships=False)


def test_the_worst_rule_set_is_legal_and_is_the_derivation_s() -> None:
    assert (len(WORST.deck), WORST.hand_size) == (54, 27)
    assert max(len(r.deck) for r in limits.largest_decks()) == len(WORST.deck) == limits.MAX_DECK
    assert max(r.hand_size for r in limits.largest_decks()) == WORST.hand_size
    spades = [c for c in WORST.deck if WORST.order.suit(c) is Suit.SPADES]
    assert len(spades) == 16
    assert limits.MAX_VOID_PROOF == crypto.void_proof_size(WORST.hand_size - 1, len(spades) - 1) == 14176


def test_the_largest_honest_void_proof_is_accepted_and_fits_the_envelope() -> None:
    """Seat 0 leads 2S; seat 1 holds 27 cards and no spade, plays one heart and proves that none of its other
    26 positions holds any of the 15 unplayed spades (deuces high: the 2D is one)."""
    deck = WORST.deck
    context = crypto.hand_context(GAME, 1, SEAT)
    secrets = crypto.HandSecrets.derive(bytes([3]) * 32, context, len(deck))
    commitments = crypto.lock_commitments(secrets)
    spades = [c for c in deck if WORST.order.suit(c) is Suit.SPADES]
    others = [c for c in deck if WORST.order.suit(c) is not Suit.SPADES]
    held = dict(zip(range(1, len(deck), 2), others, strict=False))  # seat 1's positions, all off spades
    assert len(held) == WORST.hand_size
    played, *rest = sorted(held)
    residues = {j: crypto.mul(secrets.lock_keys[j], crypto.card_point(held[j].code)) for j in rest}
    positions = [crypto.VoidPosition(j, commitments[j], residues[j]) for j in rest]
    cards = [crypto.card_point(c.code) for c in spades[1:]]  # 2S is led, so played
    step = crypto.void_step(WORST.players, 1)
    proof = crypto.prove_void(context, step, secrets, positions, cards)
    crypto.verify_void(context, step, positions, cards, proof)
    assert len(proof) == limits.MAX_VOID_PROOF

    raw = entry("play", j=played, k=secrets.lock_keys[played], x=proof)
    play = accepted(raw)
    assert isinstance(play, msg.PlayV2) and play.void == proof
    refused({"j": played, "k": secrets.lock_keys[played], "x": proof + b"\0"}, "play")


def test_the_largest_shuffle_and_lock_are_accepted() -> None:
    context = crypto.hand_context(GAME, 1, SEAT)
    secrets = crypto.HandSecrets.derive(bytes([5]) * 32, context, limits.MAX_DECK)
    points = crypto.card_points(WORST.deck)
    shuffled, shuffle_proof = crypto.prove_shuffle(context, crypto.shuffle_step(0), points, secrets)
    crypto.verify_shuffle(context, crypto.shuffle_step(0), points, shuffled,
                          crypto.shuffle_commitment(secrets), shuffle_proof)
    assert len(shuffle_proof) == limits.MAX_SHUFFLE_PROOF
    shuffle = accepted(entry("shuffle", d=shuffled, x=shuffle_proof))
    assert isinstance(shuffle, msg.ShuffleV2) and len(shuffle.deck) == limits.MAX_DECK

    step = crypto.lock_step(WORST.players, 0)
    locked, commitments, lock_proof = crypto.prove_lock(context, step, shuffled, secrets)
    crypto.verify_lock(context, step, shuffled, locked, crypto.shuffle_commitment(secrets), commitments,
                       lock_proof)
    assert len(lock_proof) == limits.MAX_LOCK_PROOF
    lock = accepted(entry("lock", d=locked, P=commitments, x=lock_proof))
    assert isinstance(lock, msg.LockV2) and len(lock.commitments) == limits.MAX_DECK

    refused({"d": shuffled, "x": shuffle_proof + b"\0"}, "shuffle")
    refused({"d": locked, "P": commitments, "x": lock_proof + b"\0"}, "lock")
    refused({"d": [*shuffled, shuffled[0]], "x": shuffle_proof}, "shuffle")
    refused({"d": locked, "P": [*commitments, commitments[0]], "x": lock_proof}, "lock")


def test_the_largest_keys_entry_is_accepted() -> None:
    """Five players, 50 cards: a seat publishes a key for each of the 40 positions it does not own."""
    rules = RuleSet(players=5, partnerships=False, jokers=True)
    count = len(rules.deck) - rules.hand_size
    assert count == limits.largest_keys() == 40
    context = crypto.hand_context(GAME, 1, SEAT)
    keys = list(crypto.HandSecrets.derive(bytes([9]) * 32, context, len(rules.deck)).lock_keys[:count])
    found = accepted(entry("keys", j=list(range(count)), k=keys))
    assert isinstance(found, msg.Keys) and len(found.keys) == count
    many = limits.MAX_LIST + 1
    refused({"j": list(range(many)), "k": [keys[0]] * many}, "keys")
