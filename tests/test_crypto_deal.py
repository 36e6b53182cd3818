"""The deal: per-hand secrets, shuffle, lock, open, commitments, and the end-of-hand audit."""

from __future__ import annotations

import hashlib
from collections import Counter

import nacl.bindings as sodium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades import crypto
from p2pspades.crypto import BadDeck, BadPoint, BadScalar, BadSeed, BadStep, CryptoUsageError, HandSecrets
from p2pspades.rules.chance import ByteStream

L = crypto.L
GAME_ID = bytes(range(16))
DECK_CODES = [r + s for s in "SHDC" for r in "23456789TJQKA"]
SEATS = 4


class _Card:
    """The crypto layer needs only a card's code."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __repr__(self) -> str:
        return self.code


DECK = [_Card(code) for code in DECK_CODES]
TABLE = crypto.card_table(DECK)
START = crypto.card_points(DECK)


def _seed(seat: int, hand: int = 1) -> bytes:
    return hashlib.sha256(f"seat {seat} hand {hand}".encode()).digest()


def _secrets(seat: int, hand: int = 1, n: int = 52) -> HandSecrets:
    return HandSecrets.derive(_seed(seat, hand), crypto.hand_context(GAME_ID, hand, seat), n)


def _deal(secrets: list[HandSecrets]) -> tuple[list[list[bytes]], list[list[bytes]]]:
    """Every seat shuffles in turn, then every seat locks in turn; returns each step's published deck."""
    shuffled, locked = [], []
    deck = START
    for sec in secrets:
        deck = crypto.shuffle(deck, sec)
        shuffled.append(deck)
    for sec in secrets:
        deck = crypto.lock(deck, sec)
        locked.append(deck)
    return shuffled, locked


SECRETS = [_secrets(seat) for seat in range(SEATS)]
SHUFFLED, LOCKED = _deal(SECRETS)
FINAL = LOCKED[-1]


# --- contexts, seeds and commitments ---


def test_hand_context_layout() -> None:
    context = crypto.hand_context(GAME_ID, 258, 3)
    assert context == GAME_ID + b"\x00\x00\x01\x02" + b"\x03"
    assert len(context) == crypto.CONTEXT_BYTES == 21


@pytest.mark.parametrize(
    ("game_id", "hand", "seat", "what"),
    [
        (b"short", 1, 0, "game id"),
        (GAME_ID, -1, 0, "hand number"),
        (GAME_ID, 2**32, 0, "hand number"),
        (GAME_ID, 1, 256, "seat"),
        (GAME_ID, 1, -1, "seat"),
        (GAME_ID, True, 0, "hand number"),
    ],
)
def test_hand_context_refuses_bad_fields(game_id: bytes, hand: int, seat: int, what: str) -> None:
    with pytest.raises(CryptoUsageError, match=what):
        crypto.hand_context(game_id, hand, seat)


def test_new_seeds_are_32_fresh_bytes() -> None:
    seeds = {crypto.new_seed() for _ in range(16)}
    assert len(seeds) == 16
    assert all(len(seed) == 32 for seed in seeds)


def test_commitment_is_the_truncated_commit_hash() -> None:
    context = crypto.hand_context(GAME_ID, 1, 0)
    seed = _seed(0)
    assert crypto.commitment(context, seed) == crypto.H("p2pspades/v1/commit", context, seed)[:32]


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32))
def test_commitments_bind_the_seed(seed_a: bytes, seed_b: bytes) -> None:
    context = crypto.hand_context(GAME_ID, 1, 0)
    same = crypto.commitment(context, seed_a) == crypto.commitment(context, seed_b)
    assert same == (seed_a == seed_b)


def test_commitments_bind_the_context() -> None:
    seed = _seed(0)
    commitments = {
        crypto.commitment(crypto.hand_context(GAME_ID, hand, seat), seed)
        for hand in (1, 2)
        for seat in range(4)
    }
    other_game = crypto.commitment(crypto.hand_context(bytes(16), 1, 0), seed)
    assert len(commitments) == 8
    assert other_game not in commitments


@pytest.mark.parametrize("seed", [b"", b"\x00" * 31, b"\x00" * 33])
def test_seeds_must_be_32_bytes(seed: bytes) -> None:
    context = crypto.hand_context(GAME_ID, 1, 0)
    with pytest.raises(BadSeed, match="32 bytes"):
        crypto.commitment(context, seed)
    with pytest.raises(BadSeed, match="32 bytes"):
        HandSecrets.derive(seed, context, 52)


# --- hand secrets ---


def test_derive_follows_the_specified_derivations() -> None:
    context = crypto.hand_context(GAME_ID, 7, 2)
    seed = _seed(2, 7)
    sec = HandSecrets.derive(seed, context, 52)
    wide = crypto.H("p2pspades/v1/shuffle-key", context, seed)
    assert sec.shuffle_scalar == sodium.crypto_core_ed25519_scalar_reduce(wide)
    permutation = ByteStream(crypto.H("p2pspades/v1/permutation", context, seed)).permutation(52)
    assert sec.permutation == permutation
    for j in (0, 1, 51):
        wide = crypto.H("p2pspades/v1/lock-key", context, seed, j.to_bytes(2, "big"))
        assert sec.lock_keys[j] == sodium.crypto_core_ed25519_scalar_reduce(wide)
    one = (1).to_bytes(32, "little")
    assert sodium.crypto_core_ed25519_scalar_mul(sec.shuffle_scalar, sec.inverse_shuffle_scalar) == one
    assert sec.n == 52 == len(sec.lock_keys)
    assert sorted(sec.permutation) == list(range(52))


def test_derive_is_deterministic_and_separated_by_context() -> None:
    assert _secrets(0) == _secrets(0)
    a, b = _secrets(0, hand=1), _secrets(0, hand=2)
    assert a.shuffle_scalar != b.shuffle_scalar
    assert a.permutation != b.permutation
    assert set(a.lock_keys).isdisjoint(b.lock_keys)
    assert len(set(a.lock_keys)) == 52


def test_secrets_are_not_in_the_repr() -> None:
    sec = SECRETS[0]
    text = repr(sec)
    assert sec.seed.hex() not in text
    assert sec.shuffle_scalar.hex() not in text
    assert sec.lock_keys[0].hex() not in text


@pytest.mark.parametrize("n", [0, -1, 1 << 17])
def test_derive_refuses_impossible_deck_sizes(n: int) -> None:
    with pytest.raises(CryptoUsageError, match="positions"):
        HandSecrets.derive(_seed(0), crypto.hand_context(GAME_ID, 1, 0), n)


def test_hand_secrets_check_their_fields() -> None:
    sec = SECRETS[0]
    with pytest.raises(CryptoUsageError, match="not a permutation"):
        HandSecrets(sec.seed, sec.context, sec.shuffle_scalar, (0,) * 52, sec.lock_keys)
    with pytest.raises(CryptoUsageError, match="51 lock keys"):
        HandSecrets(sec.seed, sec.context, sec.shuffle_scalar, sec.permutation, sec.lock_keys[:51])
    with pytest.raises(BadScalar, match="zero"):
        HandSecrets(sec.seed, sec.context, bytes(32), sec.permutation, sec.lock_keys)


# --- the whole deal ---


def test_a_four_seat_deal_deals_every_card_exactly_once() -> None:
    owners = {seat: [j for j in range(52) if j % SEATS == seat] for seat in range(SEATS)}
    hands = {}
    for seat, positions in owners.items():
        # every other seat publishes its keys for this seat's positions; the owner adds its own
        keys = [[sec.lock_keys[j] for sec in SECRETS] for j in positions]
        cards = crypto.open_cards([FINAL[j] for j in positions], keys, TABLE)
        assert None not in cards
        hands[seat] = cards
    dealt = Counter(card.code for cards in hands.values() for card in cards if card is not None)
    assert sorted(dealt) == sorted(DECK_CODES)
    assert set(dealt.values()) == {1}
    assert all(len(cards) == 13 for cards in hands.values())


def test_each_position_holds_the_product_of_keys_times_its_card() -> None:
    order = crypto.deal_order(52, SECRETS)
    for j in (0, 17, 51):
        product = 1
        for sec in SECRETS:
            product = product * int.from_bytes(sec.lock_keys[j], "little") % L
        expected = crypto.mul(product.to_bytes(32, "little"), START[order[j]])
        assert FINAL[j] == expected


def test_deal_order_says_which_card_each_position_holds() -> None:
    order = crypto.deal_order(52, SECRETS)
    keys = [[sec.lock_keys[j] for sec in SECRETS] for j in range(52)]
    opened = crypto.open_cards(FINAL, keys, TABLE)
    assert [card.code for card in opened if card is not None] == [DECK_CODES[i] for i in order]


def test_shuffle_multiplies_then_permutes() -> None:
    sec = SECRETS[0]
    out = crypto.shuffle(START, sec)
    for i in (0, 13, 51):
        assert out[i] == crypto.mul(sec.shuffle_scalar, START[sec.permutation[i]])


def test_lock_removes_the_shuffle_scalar() -> None:
    sec = SECRETS[0]
    locked = crypto.lock(crypto.shuffle(START, sec), sec)
    for i in (0, 26, 51):
        assert locked[i] == crypto.mul(sec.lock_keys[i], START[sec.permutation[i]])


def test_one_seats_steps_are_recomputed_byte_for_byte_from_its_seed() -> None:
    seat = 2
    revealed = HandSecrets.derive(_seed(seat), crypto.hand_context(GAME_ID, 1, seat), 52)
    assert crypto.shuffle(SHUFFLED[seat - 1], revealed) == SHUFFLED[seat]
    assert crypto.lock(LOCKED[seat - 1], revealed) == LOCKED[seat]
    assert crypto.lock(SHUFFLED[-1], SECRETS[0]) == LOCKED[0]
    wrong = HandSecrets.derive(_seed(seat, hand=2), crypto.hand_context(GAME_ID, 1, seat), 52)
    assert crypto.shuffle(SHUFFLED[seat - 1], wrong) != SHUFFLED[seat]


def test_open_card_opens_one_card_with_every_seats_key() -> None:
    order = crypto.deal_order(52, SECRETS)
    for j in (0, 5, 51):
        card = crypto.open_card(FINAL[j], [sec.lock_keys[j] for sec in SECRETS], TABLE)
        assert card is DECK[order[j]]


def test_the_keys_of_another_position_open_no_card() -> None:
    keys = [sec.lock_keys[1] for sec in SECRETS]
    assert crypto.open_card(FINAL[0], keys, TABLE) is None


def test_missing_one_seats_key_opens_no_card() -> None:
    keys = [sec.lock_keys[0] for sec in SECRETS[1:]]
    assert crypto.open_card(FINAL[0], keys, TABLE) is None


def test_open_cards_agrees_with_open_card() -> None:
    positions = [3, 7, 11, 15, 19]
    keys = [[sec.lock_keys[j] for sec in SECRETS] for j in positions]
    keys[2] = keys[2][:3]  # one position missing a key: no card there
    batch = crypto.open_cards([FINAL[j] for j in positions], keys, TABLE)
    single = [crypto.open_card(FINAL[j], k, TABLE) for j, k in zip(positions, keys, strict=True)]
    assert batch == single
    assert batch[2] is None
    assert all(card is not None for i, card in enumerate(batch) if i != 2)
    assert crypto.open_cards([], [], TABLE) == []


def test_open_refuses_bad_keys_and_names_the_position() -> None:
    keys = [[sec.lock_keys[j] for sec in SECRETS] for j in range(3)]
    keys[1][2] = L.to_bytes(32, "little")
    with pytest.raises(BadScalar, match="position 1: non-canonical") as info:
        crypto.open_cards(FINAL[:3], keys, TABLE)
    assert info.value.position == 1
    with pytest.raises(BadScalar, match="zero"):
        crypto.open_card(FINAL[0], [SECRETS[0].lock_keys[0], bytes(32)], TABLE)
    with pytest.raises(CryptoUsageError, match="at least one key"):
        crypto.open_card(FINAL[0], [], TABLE)
    with pytest.raises(CryptoUsageError, match="key lists"):
        crypto.open_cards(FINAL[:3], keys[:2], TABLE)


def test_open_cards_refuses_a_bad_point_at_its_position() -> None:
    points = [FINAL[0], crypto.IDENTITY]
    keys = [[sec.lock_keys[j] for sec in SECRETS] for j in range(2)]
    with pytest.raises(BadPoint, match="position 1: the identity"):
        crypto.open_cards(points, keys, TABLE)


def test_shuffle_and_lock_refuse_a_bad_point_at_its_input_position() -> None:
    deck = list(SHUFFLED[0])
    deck[9] = crypto.IDENTITY
    with pytest.raises(BadPoint, match="position 9: the identity") as info:
        crypto.shuffle(deck, SECRETS[1])
    assert info.value.position == 9
    deck[9] = SHUFFLED[0][9][:31] + bytes([SHUFFLED[0][9][31] ^ 0x80])  # -P: valid
    deck[20] = (2**255 - 18).to_bytes(32, "little")
    with pytest.raises(BadPoint, match="position 20: non-canonical"):
        crypto.lock(deck, SECRETS[1])


def test_shuffle_and_lock_refuse_a_deck_of_the_wrong_size() -> None:
    with pytest.raises(BadDeck, match="51 positions, expected 52"):
        crypto.shuffle(START[:51], SECRETS[0])
    with pytest.raises(BadDeck, match="53 positions"):
        crypto.lock([*START, START[0]], SECRETS[0])


def test_check_deck() -> None:
    assert crypto.check_deck(SHUFFLED[0], 52) == SHUFFLED[0]
    duplicated = list(SHUFFLED[0])
    duplicated[30] = duplicated[4]
    with pytest.raises(BadDeck, match="positions 4 and 30 hold the same point"):
        crypto.check_deck(duplicated, 52)
    with pytest.raises(BadDeck, match="51 positions"):
        crypto.check_deck(SHUFFLED[0][:51], 52)
    with pytest.raises(BadPoint, match="position 3"):
        crypto.check_deck([*SHUFFLED[0][:3], "x", *SHUFFLED[0][4:]], 52)


# --- the end-of-hand audit ---


def _steps(shuffled: list[list[bytes]], locked: list[list[bytes]]) -> tuple[list[crypto.DealStep], ...]:
    return (
        [crypto.DealStep(seat, SECRETS[seat], deck) for seat, deck in enumerate(shuffled)],
        [crypto.DealStep(seat, SECRETS[seat], deck) for seat, deck in enumerate(locked)],
    )


def test_audit_of_an_honest_deal_returns_the_final_deck() -> None:
    assert crypto.audit_deal(START, *_steps(SHUFFLED, LOCKED)) == FINAL


@pytest.mark.parametrize("seat", range(SEATS))
def test_audit_names_the_seat_that_replaced_a_ciphertext_in_its_shuffle(seat: int) -> None:
    shuffled = [list(deck) for deck in SHUFFLED]
    shuffled[seat][10] = shuffled[seat][11]  # a duplicated ciphertext
    with pytest.raises(BadStep, match="position 10") as info:
        crypto.audit_deal(START, *_steps(shuffled, LOCKED))
    assert (info.value.seat, info.value.check, info.value.position) == (seat, "bad-shuffle", 10)


@pytest.mark.parametrize("seat", range(SEATS))
def test_audit_names_the_seat_with_a_wrong_lock(seat: int) -> None:
    # the seat locks with a wrong key at position 5, and everyone after it works honestly on what it published
    locked = [list(deck) for deck in LOCKED]
    locked[seat][5] = crypto.mul(crypto.scalar_from_int(3), locked[seat][5])
    for later in range(seat + 1, SEATS):
        locked[later] = crypto.lock(locked[later - 1], SECRETS[later])
    with pytest.raises(BadStep) as info:
        crypto.audit_deal(START, *_steps(SHUFFLED, locked))
    assert (info.value.seat, info.value.check, info.value.position) == (seat, "bad-lock", 5)


def test_audit_names_a_seat_that_published_an_invalid_point() -> None:
    shuffled = [list(deck) for deck in SHUFFLED]
    shuffled[1][0] = crypto.IDENTITY
    with pytest.raises(BadStep) as info:
        crypto.audit_deal(START, *_steps(shuffled, LOCKED))
    assert (info.value.seat, info.value.check) == (1, "bad-shuffle")


def test_audit_names_a_seat_that_published_too_few_positions() -> None:
    locked = [list(deck) for deck in LOCKED]
    locked[3] = locked[3][:51]
    with pytest.raises(BadStep, match="published 51 positions") as info:
        crypto.audit_deal(START, *_steps(SHUFFLED, locked))
    assert info.value.seat == 3


def test_audit_with_a_seed_other_than_the_one_used_names_that_seat() -> None:
    shuffles, locks = _steps(SHUFFLED, LOCKED)
    liar = HandSecrets.derive(_seed(2, hand=9), crypto.hand_context(GAME_ID, 1, 2), 52)
    shuffles[2] = crypto.DealStep(2, liar, SHUFFLED[2])
    with pytest.raises(BadStep) as info:
        crypto.audit_deal(START, shuffles, locks)
    assert (info.value.seat, info.value.check) == (2, "bad-shuffle")


# --- counts for benchmarks ---


def test_mul_counts_match_the_steps() -> None:
    assert crypto.mul_count_shuffle(52) == len(crypto.shuffle(START, SECRETS[0])) == 52
    assert crypto.mul_count_lock(52) == 52
    assert crypto.mul_count_open(13) == 13
    assert crypto.mul_count_setup(4, 52) == 4 * 2 * 52 + 52
    assert crypto.mul_count_setup(2, 52, opened=26) == 2 * 2 * 52 + 26
    assert crypto.mul_count_audit(4, 52) == 416


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=1, max_value=54), st.integers(min_value=2, max_value=5), st.binary(min_size=8))
def test_any_deal_size_and_seat_count_round_trips(n: int, seats: int, salt: bytes) -> None:
    codes = [*DECK_CODES, "LJ", "BJ"][:n]
    deck = [_Card(code) for code in codes]
    table = crypto.card_table(deck)
    secrets = [
        HandSecrets.derive(hashlib.sha256(salt + bytes([s])).digest(), crypto.hand_context(GAME_ID, 1, s), n)
        for s in range(seats)
    ]
    points = crypto.card_points(deck)
    for sec in secrets:
        points = crypto.shuffle(points, sec)
    for sec in secrets:
        points = crypto.lock(points, sec)
    keys = [[sec.lock_keys[j] for sec in secrets] for j in range(n)]
    opened = crypto.open_cards(points, keys, table)
    assert [card.code for card in opened if card is not None] == [
        codes[i] for i in crypto.deal_order(n, secrets)
    ]
