"""Bid modes: mirror (the spades held), whiz (the spades held, or nil) and suicide (one nil per partnership).

Checked in the rule set, in the bids the engine offers and refuses (a seat's own engine knows its cards; a
peer's does not and leaves the claim to the audit), in the audit of the revealed hands, in the bots, and in
random games of the presets and of random mixes.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rules_properties import run_rules

from p2pspades.bots.heuristic import HeuristicBot
from p2pspades.rules import (
    PRESETS,
    BadBid,
    Bid,
    BlindNil,
    Deal,
    Game,
    Phase,
    Reveal,
    RuleSet,
    RuleSetError,
    SideTotal,
    audit_hand,
    deal_from_order,
    parse_cards,
    preset,
    renege_penalty,
    score_hand,
)
from p2pspades.rules.cards import FULL_DECK
from p2pspades.table.events import Decision, DecisionKind

MIRROR = PRESETS["mirror"]
WHIZ = PRESETS["whiz"]
SUICIDE = PRESETS["suicide"]
HANDS = [
    "AS KS QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH",  # seat 0: 3 spades
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QH KH AH",  # seat 1: 10 spades
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",  # seat 2: none
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",  # seat 3: none
]


def dealt(rules: RuleSet, hands: list[str] = HANDS, dealer: int = 3, seat: int | None = None) -> Game:
    """A game whose first hand is `hands` (seat k gets hands[k]); with `seat`, an engine that knows only that
    seat's cards (a peer's)."""
    parsed = [parse_cards(h) for h in hands]
    cards = [parsed[(dealer + 1 + k) % 4][k // 4] for k in range(52)]
    game = Game(rules, dealer)
    while game.phase is Phase.BLIND:
        game.apply(BlindNil(False))
    deal = deal_from_order(rules, dealer, cards)
    game.apply(deal if seat is None else deal.seen_by(seat))
    return game


# ----- the rule set -----------------------------------------------------------------------------------------


def test_the_modes_are_left_out_at_free_and_round_trip() -> None:
    assert "bid_mode" not in RuleSet().to_dict()
    for rules in (MIRROR, WHIZ, SUICIDE):
        assert rules.to_dict()["bid_mode"] == rules.bid_mode
        assert RuleSet.from_dict(rules.to_dict()) == rules
    assert RuleSet(bid_mode="suicide", min_team_bid=4, preset="suicide") == SUICIDE


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"bid_mode": "mirror"}, "cannot be played with blind_nil"),
        ({"bid_mode": "whiz", "blind_nil": False, "min_team_bid": 4}, "cannot be played with min_team_bid"),
        ({"bid_mode": "whiz", "blind_nil": False, "min_bid": 2}, "min_bid above 1"),
        ({"bid_mode": "mirror", "blind_nil": False, "double_nil": False}, "double_nil false"),
        ({"bid_mode": "whiz", "blind_nil": False, "nil_pass": 2}, "cannot be played with nil_pass"),
        ({"bid_mode": "suicide", "partnerships": False}, "needs partnerships"),
        ({"bid_mode": "suicide", "nil": False, "blind_nil": False}, "needs nil"),
        ({"bid_mode": "bold"}, "bid_mode must be one of free, mirror, whiz, suicide"),
    ],
)
def test_inconsistent_modes_are_refused_with_the_reason(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleSetError, match=message):
        RuleSet(**options)


# ----- mirror and whiz --------------------------------------------------------------------------------------


def test_a_mirror_seat_is_offered_exactly_its_spade_count() -> None:
    game = dealt(MIRROR)
    assert game.phase is Phase.BID and game.current_seat == 0
    assert game.legal_actions() == (Bid(3),)
    with pytest.raises(BadBid, match="under mirror bids it bids the spades it holds, 3 spades"):
        game.apply(Bid(4))
    for bid in (3, 10, 0):
        game.apply(Bid(bid))
    assert game.legal_actions() == (Bid(0),)  # seat 3 holds no spade: nil


def test_a_whiz_seat_is_offered_its_spade_count_or_nil() -> None:
    game = dealt(WHIZ)
    assert game.legal_actions() == (Bid(0), Bid(3))
    game.apply(Bid(0))
    assert game.legal_actions() == (Bid(0), Bid(10))
    with pytest.raises(BadBid, match="or nil"):
        game.apply(Bid(5))


def test_with_deuces_high_the_2d_counts_as_a_spade() -> None:
    game = dealt(MIRROR.replace(deuces_high=True), [
        "AS KS QS 2D 3H 4H 5H 6H 7H 8H 9H TH JH",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QH KH AH",
        "2H 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    ])
    assert game.legal_actions() == (Bid(4),)


def test_a_peer_accepts_a_claim_it_cannot_check_and_the_audit_names_a_false_one() -> None:
    peer = dealt(MIRROR, seat=2)  # knows seat 2's cards only
    truth = dealt(RuleSet(blind_nil=False))  # the same hand with free bids: it plays the cards for us
    assert peer.current_seat == 0 and Bid(5) in peer.legal_actions()
    for bid in (5, 10, 0, 0):  # seat 0 holds 3 spades and claims 5
        peer.apply(Bid(bid))
        truth.apply(Bid(bid))
    while truth.current_seat is not None:
        seat = truth.current_seat
        action = truth.legal_actions()[0]
        truth.apply(action)
        peer.apply(action, seat=seat)
    peer.apply(Reveal(tuple(tuple(parse_cards(h)) for h in HANDS)))
    result = peer.history[-1]
    [lie] = [v for v in result.violations if v.kind == "bad_bid"]
    assert lie.seat == 0 and "bid 5 holding 3 spades (AS KS QS)" in lie.detail and "mirror" in lie.detail
    assert result.scores[0].penalized  # the renege penalty ("set") settles it
    truth.apply(Reveal(truth.initial_hands() or ()))
    assert truth.history[-1].violations == ()  # the same bids are fine with free bids


@pytest.mark.parametrize(("rules", "bids", "bad"), [
    (MIRROR, [3, 10, 0, 0], []),
    (MIRROR, [3, 9, 0, 0], [1]),
    (MIRROR, [2, 10, 1, 0], [0, 2]),
    (WHIZ, [0, 10, 0, 0], []),
    (WHIZ, [3, 0, 0, 0], []),
    (WHIZ, [3, 10, 1, 0], [2]),
])
def test_the_audit_checks_every_mirror_and_whiz_bid(rules: RuleSet, bids: list[int], bad: list[int]) -> None:
    hands = [parse_cards(h) for h in HANDS]
    found = [v for v in audit_hand(rules, 3, hands, bids, []) if v.kind == "bad_bid"]
    assert [v.seat for v in found] == bad


# ----- a caught lie never pays ------------------------------------------------------------------------------

ONE_SPADE = [
    "AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",  # seat 0: one spade
    "2S 3S 4S 5S 6S 7S 8S 9S AH 2D 3D 4D 5D",  # seat 1: eight
    "TS JS QS KS 6D 7D 8D 9D TD JD QD KD AD",  # seat 2: four
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",  # seat 3: none
]


def side_points(rules: RuleSet, hands: list[str], bids: list[int], tricks: list[int]) -> tuple[int, int]:
    """Each side's points for a hand of these bids and tricks, after the audit's bid checks and penalty."""
    parsed = [parse_cards(h) for h in hands]
    found = [v for v in audit_hand(rules, 3, parsed, bids, []) if v.kind == "bad_bid"]
    scored, set_sides, honest = renege_penalty(rules, found, tricks, [0] * 13)
    scores, _ = score_hand(rules, bids, [False] * 4, scored, [SideTotal()] * 2, set_sides, honest)
    return scores[0].points, scores[1].points


@pytest.mark.parametrize("renege", ["set", "three_tricks"])
def test_a_false_nil_holding_one_spade_fails_whatever_renege_says(renege: str) -> None:
    """Under mirror, seat 0 bids nil holding one spade and takes no trick; its partner bids 4 and takes 5. An
    honest bid of 1 makes 50. The lie fails the side's contract (counted at the bid the hand called for) and
    the nil: it never pays, whether the rule set moves three tricks or sets the side for a renege."""
    rules = preset("mirror", renege=renege)
    tricks = [0, 4, 5, 4]
    honest, _ = side_points(rules, ONE_SPADE, [1, 8, 4, 0], tricks)
    lie, _ = side_points(rules, ONE_SPADE, [0, 8, 4, 0], tricks)
    assert honest == 50
    assert lie == -100 - 40, "the nil fails, and so does the contract"
    assert lie < -50, "less than the honest bid of 1 failed"
    whiz = preset("whiz", renege=renege)
    assert side_points(whiz, ONE_SPADE, [0, 8, 4, 0], tricks)[0] == 100 + 40 + 1, "a nil is honest in whiz"
    assert side_points(whiz, ONE_SPADE, [3, 8, 4, 0], tricks)[0] == -70, "3 for a hand of 1: 4 + 3 failed"
    assert side_points(whiz, ONE_SPADE, [0, 8, 4, 0], [1, 4, 4, 4])[0] == -59, "an honest nil failed"
    low = side_points(rules, ONE_SPADE, [1, 6, 4, 0], [0, 4, 5, 4])[1]
    assert low == -80 - 100, "6 for a hand of 8 fails at the 8 it called for; the side is set: its nil too"


@settings(max_examples=300, deadline=None)
@given(
    mode=st.sampled_from(["mirror", "whiz"]),
    renege=st.sampled_from(["set", "three_tricks"]),
    failed=st.sampled_from(["minus", "zero"]),
    order=st.permutations(range(52)),
    bids=st.lists(st.integers(0, 13), min_size=4, max_size=4),
    split=st.lists(st.integers(0, 13), min_size=3, max_size=3),
)
def test_a_side_with_a_false_bid_never_scores_more_than_its_honest_bids_failed(
    mode: str, renege: str, failed: str, order: list[int], bids: list[int], split: list[int]
) -> None:
    rules = preset(mode, renege=renege, failed_contract=failed)
    deck = [FULL_DECK[i] for i in order]
    hands = [" ".join(c.code for c in deck[13 * s: 13 * s + 13]) for s in range(4)]
    cuts = sorted(split)
    tricks = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
    held = [sum(1 for c in deck[13 * s: 13 * s + 13] if c.code.endswith("S")) for s in range(4)]
    honest_bids = list(bids)
    for seat in range(4):
        if bids[seat] != held[seat] and not (mode == "whiz" and bids[seat] == 0):
            honest_bids[seat] = held[seat]
    lied = side_points(rules, hands, bids, tricks)
    for side in (0, 1):
        liars = [s for s in rules.sides[side] if honest_bids[s] != bids[s]]
        if not liars:
            continue
        scores, _ = score_hand(rules, honest_bids, [False] * 4, tricks, [SideTotal()] * 2, {side})
        assert lied[side] <= scores[side].points, (bids, held, tricks)


# ----- suicide ----------------------------------------------------------------------------------------------


def test_suicide_the_first_partner_chooses_and_the_second_complies() -> None:
    game = dealt(SUICIDE)  # seat 0 bids first, then 1, 2 (seat 0's partner), 3 (seat 1's)
    assert game.legal_actions() == (Bid(0), *(Bid(k) for k in range(4, 14)))
    with pytest.raises(BadBid, match="a bid other than nil is 4"):
        game.apply(Bid(3))
    game.apply(Bid(5))
    game.apply(Bid(0))
    assert game.legal_actions() == (Bid(0),)  # seat 2: its partner bid 5
    with pytest.raises(BadBid, match="its partner, seat 0, bid 5, so it bids nil"):
        game.apply(Bid(4))
    game.apply(Bid(0))
    assert game.legal_actions() == tuple(Bid(k) for k in range(4, 14))  # seat 3: its partner bid nil
    with pytest.raises(BadBid, match="bid nil, so it may not"):
        game.apply(Bid(0))
    game.apply(Bid(4))
    assert game.phase is Phase.PLAY


def test_suicide_a_blind_nil_is_the_side_s_nil() -> None:
    rules = SUICIDE.replace(blind_nil_margin=0)
    game = Game(rules, 3)
    assert game.phase is Phase.BLIND
    game.apply(BlindNil(True))  # seat 0
    game.apply(BlindNil(False))  # seat 1
    assert game.legal_actions() == (BlindNil(False),)  # seat 2 may not: its partner declared
    game.apply(BlindNil(False))
    game.apply(BlindNil(False))
    parsed = [parse_cards(h) for h in HANDS]
    game.apply(deal_from_order(rules, 3, [parsed[k % 4][k // 4] for k in range(52)]))
    assert game.current_seat == 1
    game.apply(Bid(0))
    assert game.current_seat == 2 and Bid(0) not in game.legal_actions()


@pytest.mark.parametrize(("bids", "bad"), [([0, 5, 4, 0], []), ([0, 5, 0, 4], [2, 3]), ([5, 0, 3, 4], [2]),
                                           ([0, 5, 3, 0], [2])])
def test_the_audit_checks_suicide_bids(bids: list[int], bad: list[int]) -> None:
    hands = [parse_cards(h) for h in HANDS]
    found = [v for v in audit_hand(SUICIDE, 3, hands, bids, []) if v.kind == "bad_bid"]
    assert sorted(v.seat for v in found) == bad


# ----- the bots ---------------------------------------------------------------------------------------------


def _bid_of(bot: HeuristicBot, game: Game) -> Bid:
    seat = game.current_seat
    assert seat is not None
    view = game.view(seat)
    action = bot(Decision(DecisionKind.BID, view, view.legal_actions))
    assert isinstance(action, Bid)
    return action


def test_a_mirror_bot_bids_its_spades_and_a_suicide_bot_picks_the_safer_nil() -> None:
    assert _bid_of(HeuristicBot(1), dealt(MIRROR)) == Bid(3)
    weak = [
        "2S 3S 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C 5C",  # seat 0: nothing high
        "AS KS QS JS AH KH QH AD KD QD AC KC QC",
        "4S 5S 6S 7S 6H 7H 8H 5D 6D 7D 6C 7C 8C",
        "8S 9S TS 9H TH JH 8D 9D TD JD 9C TC JC",
    ]
    game = dealt(SUICIDE, weak)
    assert _bid_of(HeuristicBot(1), game) == Bid(0)  # seat 0 nils: its partner will bid
    game.apply(Bid(0))
    strong = _bid_of(HeuristicBot(1), game)  # seat 1 holds the top cards: it bids, its partner will nil
    assert strong.tricks >= 4


# ----- random games -----------------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["mirror", "whiz", "suicide"]), st.booleans(), st.integers(0, 2**32 - 1))
def test_random_games_under_each_bid_mode_keep_every_invariant(name: str, deuces: bool, seed: int) -> None:
    run_rules(PRESETS[name].replace(deuces_high=deuces, target=150, losing_threshold=-150), seed)


def test_deal_seen_by_keeps_one_seat_s_cards() -> None:
    """(The helper above relies on it: a peer's engine is told its own cards only.)"""
    parsed = [parse_cards(h) for h in HANDS]
    deal = deal_from_order(MIRROR, 3, [parsed[k % 4][k // 4] for k in range(52)])
    assert isinstance(deal, Deal)
    seen = deal.seen_by(2)
    assert [c for c in seen.hands[2] if c is not None] == parsed[2]
    assert all(c is None for c in seen.hands[0])
