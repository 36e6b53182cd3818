"""The end-of-hand audit and the renege penalty.

An engine refuses an illegal play from a hand it knows; a peer that does not know the hand accepts it and
records the public claim it makes (a void). The audit replays a hand with every card known and finds each
broken rule; the rule set's `renege` option says what that costs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from p2pspades.checks import Check
from p2pspades.rules import (
    Bid,
    Card,
    Deal,
    Game,
    Play,
    PublicInconsistency,
    RuleSet,
    SideTotal,
    Violation,
    audit_hand,
    deal_from_order,
    parse_cards,
    preset,
    renege_penalty,
    score_hand,
    trick_winner,
)
from p2pspades.rules.playout import play_hand

C = Card.parse

# Dealer 3, so seat 0 leads; seat 0 holds two spades and eleven hearts, seat 1 two hearts, ...
MIXED = [
    "AS KS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
    "KH AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
    "KD AD 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "KC AC 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
]


def peer(rules: RuleSet, hands: Sequence[str], seat: int, dealer: int = 3) -> Game:
    """The engine of `seat`'s peer: it knows its own cards and no others; everyone bids 3."""
    game = Game(rules, dealer)
    deal = Deal(tuple(tuple(parse_cards(hand)) for hand in hands))
    game.apply(deal.seen_by(seat))
    for _ in range(rules.players):
        game.apply(Bid(3))
    return game


def simulate(
    rules: RuleSet, hands: Sequence[str], dealer: int, cheats: dict[tuple[int, int], str]
) -> tuple[list[Card], list[int]]:
    """Plays for a whole hand: every seat plays its lowest card that keeps the rules, except that at
    (trick, seat) in `cheats` it plays the given card instead. Returns the plays and the trick winners."""
    held = [set(parse_cards(hand)) for hand in hands]
    n = rules.players
    leader = (dealer + 1) % n
    out: list[Card] = []
    winners: list[int] = []
    broken = False
    for trick in range(rules.tricks_per_hand):
        seat = leader
        played: list[tuple[int, Card]] = []
        for _ in range(n):
            if (trick, seat) in cheats:
                card = C(cheats[(trick, seat)])
            else:
                options = sorted(held[seat])
                if played:
                    led = played[0][1].suit
                    options = [c for c in options if c.suit is led] or options
                elif (rules.spade_lead == "broken" and not broken) or (
                    rules.spade_lead == "not_first_trick" and trick == 0
                ):
                    options = [c for c in options if c.suit.value != "S"] or options
                card = options[0]
            held[seat].discard(card)
            broken = broken or card.suit.value == "S"
            played.append((seat, card))
            out.append(card)
            seat = (seat + 1) % n
        leader = trick_winner(played)
        winners.append(leader)
    return out, winners


def kinds(found: Sequence[Violation]) -> list[tuple[str, int, int | None]]:
    return [(v.kind, v.seat, v.trick) for v in found]


def hands_of(hands: Sequence[str]) -> list[list[Card]]:
    return [parse_cards(hand) for hand in hands]


# ----- what the audit finds ---------------------------------------------------------------------------------


def test_an_honest_hand_has_no_violations() -> None:
    rules = preset("classic")
    played, _ = simulate(rules, MIXED, 3, {})
    assert audit_hand(rules, 3, hands_of(MIXED), [3, 3, 3, 3], played) == []


def test_a_renege_is_found() -> None:
    rules = preset("classic")
    played, _ = simulate(rules, MIXED, 3, {(0, 1): "2D"})  # seat 1 holds KH AH but plays a diamond
    found = audit_hand(rules, 3, hands_of(MIXED), [3, 3, 3, 3], played)
    assert kinds(found) == [("renege", 1, 0)]
    assert found[0].card == C("2D")
    assert found[0].detail == "seat 1 played 2D on trick 1 while holding hearts, the led suit"


def test_a_renege_is_caught_by_a_peer_as_soon_as_the_seat_plays_the_suit_it_denied() -> None:
    rules = preset("classic")
    played, _ = simulate(rules, MIXED, 3, {(0, 1): "2D"})
    game = peer(rules, MIXED, seat=0)
    with pytest.raises(PublicInconsistency, match="seat 1 showed void in hearts on trick 1 and now plays"):
        for card in played:
            game.apply(Play(card))


def test_spade_leads_are_found() -> None:
    early = audit_hand(preset("classic"), 3, hands_of(MIXED), [3] * 4, simulate(
        preset("classic"), MIXED, 3, {(0, 0): "AS"})[0])
    assert kinds(early) == [("spade_lead", 0, 0)]
    assert "before spades were broken" in early[0].detail
    first = audit_hand(preset("partnership"), 3, hands_of(MIXED), [3] * 4, simulate(
        preset("partnership"), MIXED, 3, {(0, 0): "KS"})[0])
    assert kinds(first) == [("first_trick_spade", 0, 0)]
    always = preset("classic", spade_lead="always")
    allowed = simulate(always, MIXED, 3, {(0, 0): "AS"})[0]
    assert audit_hand(always, 3, hands_of(MIXED), [3] * 4, allowed) == []


def test_a_card_not_held_is_found() -> None:
    rules = preset("classic")
    played, _ = simulate(rules, MIXED, 3, {(0, 1): "QH"})  # seat 0 holds QH
    found = audit_hand(rules, 3, hands_of(MIXED), [3] * 4, played)
    assert ("not_in_hand", 1, 0) in kinds(found)


def test_the_lowest_club_must_lead() -> None:
    rules = preset("classic", first_leader="low_club")
    # dealer 1: seat 2 (holder of 2C) also sits on the dealer's left, so the simulation leads with seat 2
    played, _ = simulate(rules, MIXED, 1, {(0, 2): "3C"})
    found = audit_hand(rules, 1, hands_of(MIXED), [3] * 4, played)
    assert ("wrong_lead", 2, 0) in kinds(found)


def test_bad_hands_bids_and_play_counts_are_reported_not_raised() -> None:
    rules = preset("classic")
    hands = hands_of(MIXED)
    played, winners = simulate(rules, MIXED, 3, {})
    short = audit_hand(rules, 3, hands, [3] * 4, played[:-3])  # the last trick was led, then nothing
    assert kinds(short) == [("missing_play", (winners[11] + 1) % 4, 12)]
    extra = audit_hand(rules, 3, hands, [3] * 4, [*played, C("2H")])
    assert [v.kind for v in extra] == ["extra_play"]
    twice = [hands[0], hands[0], hands[2], hands[3]]
    assert "bad_hand" in [v.kind for v in audit_hand(rules, 3, twice, [3] * 4, played)]
    assert "bad_hand" in [v.kind for v in audit_hand(rules, 3, hands[:3], [3] * 4, played)]
    assert [v.kind for v in audit_hand(rules, 3, hands, [3, 14, -1, None], played)] == ["bad_bid"] * 3
    junk = audit_hand(rules, 3, [["AS"], *hands[1:]], [3] * 4, ["nonsense", *played[1:]])  # type: ignore[list-item]
    assert junk and all(isinstance(v, Violation) for v in junk)


# ----- the penalty ------------------------------------------------------------------------------------------


def renege_case(renege: str) -> tuple[RuleSet, list[Violation], list[int], list[int]]:
    rules = preset("classic", renege=renege)
    played, winners = simulate(rules, MIXED, 3, {(0, 1): "2D"})
    found = audit_hand(rules, 3, hands_of(MIXED), [3, 3, 3, 3], played)
    won = [winners.count(seat) for seat in range(4)]
    return rules, found, won, winners


def test_penalty_set_scores_the_offending_side_as_failed() -> None:
    rules, found, won, winners = renege_case("set")
    scored, set_sides, _ = renege_penalty(rules, found, won, winners)
    assert set_sides == frozenset({1}) and list(scored) == won
    scores, _ = score_hand(rules, [3, 3, 3, 3], [False] * 4, scored, [SideTotal()] * 2, set_sides)
    assert scores[1].penalized and not scores[1].made and scores[1].points == -60


def test_penalty_three_tricks_moves_tricks_to_the_other_side() -> None:
    rules, found, won, winners = renege_case("three_tricks")
    scored, set_sides, _ = renege_penalty(rules, found, won, winners)
    assert set_sides == frozenset()
    assert sum(scored) == sum(won) == 13
    side_1_before = won[1] + won[3]
    side_1_after = scored[1] + scored[3]
    assert side_1_after == max(0, side_1_before - 3)
    # the tricks go to the winner of the renege trick if it is an opponent, else the next opponent clockwise
    receiver = winners[0] if rules.side_of(winners[0]) != 1 else 2
    assert scored[receiver] == won[receiver] + (side_1_before - side_1_after)


def test_penalty_three_tricks_in_an_individual_game() -> None:
    rules = preset("individual", jokers=False, renege="three_tricks")
    violation = Violation(2, 4, C("3D"), Check.RENEGE, "")
    scored, _, _ = renege_penalty(rules, [violation], [3, 3, 5, 2], [0, 1, 2, 3, 2, 0, 1, 2, 3, 2, 0, 1, 2])
    assert list(scored) == [3, 3, 2, 5]  # trick 4 was won by the offender itself: the next seat clockwise
    scored, _, _ = renege_penalty(rules, [Violation(1, 0, None, Check.RENEGE, "")], [3, 1, 5, 4], [0] * 13)
    assert list(scored) == [4, 0, 5, 4]  # only one trick to give


def test_penalty_stop_changes_no_score() -> None:
    rules, found, won, winners = renege_case("stop")
    assert renege_penalty(rules, found, won, winners) == (tuple(won), frozenset(), ())


# ----- the engine's own checks are the audit's --------------------------------------------------------------


@pytest.mark.parametrize("name", ["classic", "partnership", "individual", "cutthroat3", "five", "two"])
def test_hands_played_through_the_engine_pass_the_audit(name: str) -> None:
    """The engine skips the audit when it knew every hand all along; that is sound only if its own checks
    during play let nothing through that the audit would find."""
    rules = preset(name, spade_lead="broken") if name != "partnership" else preset(name)
    rng = random.Random(name)
    game = Game(rules, 0)
    for _ in range(12):
        if game.outcome is not None:
            break
        result = play_hand(game, rng.shuffle, rng.choice)
        cards = [card for trick in result.tricks for _, card in trick.plays]
        assert audit_hand(rules, result.dealer, result.hands, result.bids, cards) == []
        assert result.violations == ()


def test_the_peer_engine_audits_when_it_did_not_know_every_hand() -> None:
    rules = preset("classic")
    rng = random.Random(9)
    cards = list(rules.deck)
    rng.shuffle(cards)
    deal = deal_from_order(rules, 0, cards)
    truth, mine = Game(rules, 0), Game(rules, 0)
    truth.apply(deal)
    mine.apply(deal.seen_by(2))
    while truth.current_seat is not None:
        action = rng.choice(truth.legal_actions())
        truth.apply(action)
        mine.apply(action)
    assert mine.initial_hands() is None and truth.initial_hands() is not None
