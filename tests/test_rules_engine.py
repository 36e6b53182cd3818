"""The engine: turns, legal actions, leads, following suit, the draw pile, blind nil, the end of the game, and
play with partial information (a peer knows only its own cards)."""

from __future__ import annotations

import random

import pytest

from p2pspades.rules import (
    BadBid,
    BadDeal,
    BadReveal,
    BadSeat,
    Bid,
    BlindNil,
    Card,
    CardNotInHand,
    Deal,
    Draw,
    Game,
    IllegalAction,
    MustFollowSuit,
    NotYourTurn,
    Phase,
    Play,
    PublicInconsistency,
    Reveal,
    RuleSet,
    SideTotal,
    SpadesNotBroken,
    Suit,
    Termination,
    WrongLead,
    WrongPhase,
    deal_from_order,
    parse_cards,
    preset,
)
from p2pspades.rules.playout import play_hand

C = Card.parse

# Four hands of the classic deck, dealer 3, so seat 0 leads. Seat 0 holds two spades and eleven hearts.
MIXED = [
    "AS KS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
    "KH AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
    "KD AD 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
    "KC AC 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
]
# Each seat holds one whole suit: seat 0 nothing but spades.
SUITED = [
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
]


def phase(game: Game) -> Phase:
    """The game's phase, read afresh (mypy would otherwise keep the phase an earlier assert narrowed)."""
    return game.phase


def deal_of(hands: list[str]) -> Deal:
    return Deal(tuple(tuple(parse_cards(hand)) for hand in hands))


def started(rules: RuleSet, hands: list[str], dealer: int = 3, bids: list[int] | None = None) -> Game:
    """A game whose first hand is dealt `hands` and bid (by default everyone bids 3)."""
    game = Game(rules, dealer)
    game.apply(deal_of(hands))
    for _ in range(rules.players):
        if game.phase is Phase.BID:
            seat = game.current_seat
            assert seat is not None
            game.apply(Bid(3 if bids is None else bids[seat]))
    return game


def plays(game: Game, codes: str) -> None:
    for card in parse_cards(codes):
        game.apply(Play(card))


def legal_cards(game: Game) -> set[str]:
    return {action.card.code for action in game.legal_actions() if isinstance(action, Play)}


# ----- turns, bidding, phases -------------------------------------------------------------------------------


def test_a_hand_goes_through_its_phases() -> None:
    rules = preset("classic")
    game = Game(rules, 3)
    assert (game.phase, game.current_seat, game.dealer, game.hand_number) == (Phase.DEAL, None, 3, 1)
    assert game.legal_actions() == ()
    game.apply(deal_of(MIXED))
    assert game.phase is Phase.BID and game.current_seat == 0  # the dealer's left bids first
    assert game.legal_actions() == (Bid(0), *[Bid(n) for n in range(1, 14)])
    for seat in (0, 1, 2, 3):
        assert game.current_seat == seat
        game.apply(Bid(3))
    assert phase(game) is Phase.PLAY and game.current_seat == 0
    assert game.hand.bids == (3, 3, 3, 3)


def test_bids_respect_the_minimum_and_nil() -> None:
    game = Game(preset("individual"), 0)  # no nil, minimum bid 1
    game.apply(deal_from_order(game.rules, 0, list(game.rules.deck)))
    assert game.legal_actions() == tuple(Bid(n) for n in range(1, 14))
    with pytest.raises(BadBid, match="bids are 1 to 13"):
        game.apply(Bid(0))
    with pytest.raises(BadBid):
        game.apply(Bid(14))
    zero_ok = Game(preset("partnership", min_bid=0), 0)
    zero_ok.apply(deal_from_order(zero_ok.rules, 0, list(zero_ok.rules.deck)))
    assert Bid(0) in zero_ok.legal_actions()  # an ordinary bid of 0 where there is no nil


def test_wrong_phase_and_wrong_turn_are_refused_without_change() -> None:
    game = Game(preset("classic"), 3)
    with pytest.raises(WrongPhase, match="in the deal phase"):
        game.apply(Bid(3))
    game.apply(deal_of(MIXED))
    with pytest.raises(WrongPhase):
        game.apply(Play(C("2H")))
    with pytest.raises(WrongPhase):
        game.apply(deal_of(MIXED))
    with pytest.raises(NotYourTurn, match="it is seat 0's turn, not seat 2's"):
        game.apply(Bid(3), seat=2)
    game.apply(Bid(3), seat=0)
    assert game.current_seat == 1 and game.hand.bids == (3, None, None, None)
    with pytest.raises(IllegalAction, match="chance step"):
        game.apply(deal_of(MIXED), seat=1)
    with pytest.raises(IllegalAction, match="not an action"):
        game.apply("3")  # type: ignore[arg-type]


def test_the_dealer_bids_and_leads_first_in_piki() -> None:
    game = Game(preset("piki"), 2)
    game.apply(deal_of(MIXED))
    assert game.current_seat == 2
    for seat in (2, 3, 0, 1):
        assert game.current_seat == seat
        game.apply(Bid(3))
    assert game.phase is Phase.PLAY and game.current_seat == 2


def test_bad_seats_are_refused() -> None:
    with pytest.raises(BadSeat):
        Game(preset("classic"), 4)
    with pytest.raises(BadSeat):
        Game(preset("classic"), 0).view(7)


# ----- leads and following suit -----------------------------------------------------------------------------


def test_spades_cannot_be_led_before_they_are_broken() -> None:
    game = started(preset("classic"), MIXED)
    assert legal_cards(game) == {card.code for card in parse_cards(MIXED[0]) if card.suit is Suit.HEARTS}
    with pytest.raises(SpadesNotBroken, match="before spades are broken"):
        game.apply(Play(C("AS")))
    assert game.hand.spades_broken is False and len(game.hand.hand(0)) == 13


def test_following_suit_and_breaking_spades_by_trumping() -> None:
    game = started(preset("classic"), MIXED)
    plays(game, "2H")
    assert legal_cards(game) == {"KH", "AH"}
    with pytest.raises(MustFollowSuit, match="seat 1 must follow hearts"):
        game.apply(Play(C("2D")))
    plays(game, "KH")
    assert legal_cards(game) == set(MIXED[2].split())  # void in hearts: anything
    plays(game, "2C 2S")  # seat 3 trumps
    assert game.hand.spades_broken
    assert game.hand.tricks[0].winner == 3 and game.hand.tricks_won == (0, 0, 0, 1)
    assert game.hand.voids(2) == frozenset({Suit.HEARTS}) and game.hand.voids(3) == frozenset({Suit.HEARTS})
    assert game.current_seat == 3
    plays(game, "3S")  # spades may be led now
    assert legal_cards(game) == {"AS", "KS"}


def test_a_hand_of_only_spades_may_lead_spades_and_breaks_them() -> None:
    game = started(preset("classic"), SUITED)
    assert legal_cards(game) == set(SUITED[0].split())
    plays(game, "2S")
    assert game.hand.spades_broken
    assert game.hand.voids(0) == frozenset({Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS})


def test_the_first_trick_rule_and_the_always_rule() -> None:
    first = started(preset("partnership"), MIXED)
    with pytest.raises(SpadesNotBroken, match="on the first trick"):
        first.apply(Play(C("AS")))
    plays(first, "2H KH 2C 2S")
    plays(first, "3S")  # seat 3 won; after the first trick spades may be led
    always = started(preset("classic", spade_lead="always"), MIXED)
    assert {"AS", "KS"} <= legal_cards(always)
    plays(always, "KS")
    assert always.hand.spades_broken


def test_jokers_lead_and_win_as_spades() -> None:
    rules = preset("individual")  # 2D 2C removed, jokers in
    hands = [
        "BJ 2S 3S 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
        "LJ AS KS QH KH AH 3D 4D 5D 6D 7D 8D 9D",
        "QS JS TS 9S TD JD QD KD AD 3C 4C 5C 6C",
        "8S 7S 6S 5S 4S 7C 8C 9C TC JC QC KC AC",
    ]
    game = started(rules, hands)
    assert "BJ" not in legal_cards(game)  # a joker is a spade: not before spades are broken
    plays(game, "2H QH")
    assert legal_cards(game) == set(hands[2].split())
    plays(game, "TD 4S")  # seat 3 trumps with a spade
    assert game.hand.tricks[0].winner == 3
    plays(game, "5S")  # seat 3 leads a spade
    plays(game, "BJ AS QS")  # the big joker beats the ace
    assert game.hand.tricks[1].winner == 0


def test_a_card_not_held_is_refused() -> None:
    game = started(preset("classic"), MIXED)
    with pytest.raises(CardNotInHand, match="seat 0 does not hold KH"):
        game.apply(Play(C("KH")))


# ----- other table sizes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "hand_size"),
    [
        (RuleSet(players=3, partnerships=False, jokers=True), 18),
        (preset("cutthroat3"), 17),
        (preset("five"), 10),
        (RuleSet(players=2, partnerships=False, jokers=False), 26),
    ],
)
def test_hand_sizes_of_other_tables(rules: RuleSet, hand_size: int) -> None:
    rng = random.Random(7)
    game = Game(rules, 0)
    cards = list(rules.deck)
    rng.shuffle(cards)
    game.apply(deal_from_order(rules, 0, cards))
    assert [len(game.hand.hand(seat)) for seat in range(rules.players)] == [hand_size] * rules.players
    result = play_hand(game, rng.shuffle, rng.choice)
    assert len(result.tricks) == hand_size
    assert all(len(trick.plays) == rules.players for trick in result.tricks)


def test_a_wrongly_sized_deal_is_refused() -> None:
    game = Game(preset("classic"), 0)
    with pytest.raises(BadDeal, match="a deal needs 4 hands"):
        game.apply(deal_of(MIXED[:3]))
    short = [MIXED[0].rsplit(" ", 1)[0], *MIXED[1:]]
    with pytest.raises(BadDeal, match="hand 0 has 12 cards"):
        game.apply(deal_of(short))
    with pytest.raises(IllegalAction, match="AS is dealt twice"):
        deal_of([MIXED[0], MIXED[1], MIXED[2], MIXED[3].replace("KC", "AS")])
    jokers = [MIXED[0], MIXED[1], MIXED[2], MIXED[3].replace("KC", "BJ")]
    with pytest.raises(BadDeal, match="BJ is not in this game's deck"):
        game.apply(deal_of(jokers))
    assert game.phase is Phase.DEAL


# ----- the two-player draw pile -----------------------------------------------------------------------------


def test_the_draw_pile() -> None:
    rules = preset("two")
    stock = list(rules.deck)
    random.Random(3).shuffle(stock)
    game = Game(rules, 1)  # seat 0 is the non-dealer: it draws first and leads
    with pytest.raises(BadDeal, match="expect hands"):
        game.apply(deal_from_order(preset("classic"), 0, list(preset("classic").deck)))
    game.apply(Deal(hands=((), ()), stock=tuple(stock)))
    assert game.phase is Phase.DRAW and game.current_seat == 0
    kept: list[list[Card]] = [[], []]
    for step in range(26):
        seat = step % 2
        assert game.current_seat == seat
        assert game.view(seat).draw_card is stock[2 * step]
        assert game.view(1 - seat).draw_card is None
        keep = stock[2 * step].suit is Suit.SPADES or step % 3 == 0
        game.apply(Draw(keep))
        kept[seat].append(stock[2 * step] if keep else stock[2 * step + 1])
    assert phase(game) is Phase.BID and game.current_seat == 0
    for seat in (0, 1):
        assert set(game.hand.hand(seat)) == set(kept[seat]) and len(kept[seat]) == 13
    game.apply(Bid(3))
    game.apply(Bid(3))
    assert phase(game) is Phase.PLAY and game.current_seat == 0
    initial = game.initial_hands()
    assert initial is not None and [set(hand) for hand in initial] == [set(kept[0]), set(kept[1])]


def test_the_draw_pile_with_partial_knowledge() -> None:
    """Seat 0's engine: it sees the top card when drawing and the card it takes; nothing of seat 1's."""
    rules = preset("two")
    stock = list(rules.deck)
    random.Random(4).shuffle(stock)
    truth = Game(rules, 1)
    truth.apply(Deal(hands=((), ()), stock=tuple(stock)))
    mine = Game(rules, 1)
    mine.apply(Deal(hands=((), ()), stock=(None,) * 52))
    for step in range(26):
        seat = step % 2
        keep = step % 4 != 1
        if seat == 0:
            mine.learn(2 * step, stock[2 * step])
            assert mine.view(0).draw_card is stock[2 * step]
        truth.apply(Draw(keep))
        mine.apply(Draw(keep))
        if seat == 0 and not keep:
            mine.learn(2 * step + 1, stock[2 * step + 1])
    assert mine.hand.hand(0) == truth.hand.hand(0)
    assert mine.hand.unknown(0) == 0 and mine.hand.unknown(1) == 13 and mine.hand.hand(1) == ()
    with pytest.raises(PublicInconsistency, match="is known to be"):
        mine.learn(0, stock[1])
    mine.learn(0, stock[0])  # learning again what is known is harmless
    with pytest.raises(PublicInconsistency, match="already known"):
        mine.learn(3 if stock[3] is not stock[0] else 5, stock[0])
    with pytest.raises(BadDeal, match="stock index"):
        mine.learn(52, stock[0])


# ----- blind nil --------------------------------------------------------------------------------------------


def test_blind_nil_is_offered_before_the_deal_only_when_trailing_by_the_margin() -> None:
    rules = preset("classic", blind_nil_margin=100)
    game = Game(rules, 3)
    assert game.phase is Phase.DEAL  # 0 - 0: nobody trails
    game.totals = (SideTotal(250, 0), SideTotal(140, 0))  # side 1 (seats 1, 3) trails by 110
    game._start_hand(3)
    assert phase(game) is Phase.BLIND and game.hand.blind_eligible == (1, 3)
    assert game.current_seat == 1 and game.legal_actions() == (BlindNil(True), BlindNil(False))
    game.apply(BlindNil(True))
    assert game.current_seat == 3
    with pytest.raises(WrongPhase):
        game.apply(deal_of(MIXED))
    game.apply(BlindNil(False))
    assert game.phase is Phase.DEAL
    game.apply(deal_of(MIXED))
    order: list[int | None] = []
    while phase(game) is Phase.BID:
        order.append(game.current_seat)
        game.apply(Bid(3))
    assert order == [0, 2, 3]  # seat 1 bid blind nil and is skipped
    assert game.hand.bids == (3, 0, 3, 3) and game.hand.blind == (False, True, False, False)


def test_blind_nil_margin_is_inclusive_and_other_sides_are_not_asked() -> None:
    game = Game(preset("piki"), 0)
    game.totals = (SideTotal(0, 0), SideTotal(199, 0))
    game._start_hand(0)
    assert game.phase is Phase.DEAL
    game.totals = (SideTotal(0, 0), SideTotal(200, 0))
    game._start_hand(0)
    # piki: the dealer is asked first
    assert phase(game) is Phase.BLIND and game.hand.blind_eligible == (0, 2)


# ----- the end of the game ----------------------------------------------------------------------------------


def finish_hand(game: Game, seed: int) -> None:
    rng = random.Random(seed)
    play_hand(game, rng.shuffle, rng.choice)


def test_reaching_the_target_ends_the_game() -> None:
    game = started(preset("classic", target=100), SUITED, bids=[7, 1, 6, 1])
    while game.current_seat is not None:
        game.apply(game.legal_actions()[0])
    game.apply(Reveal(game.initial_hands() or ()))
    # seat 0 holds every spade and takes all 13 tricks: side 0 makes 13, side 1 fails 2
    assert game.totals == (SideTotal(130, 0), SideTotal(-20, 0))
    assert game.phase is Phase.GAME_OVER and game.outcome is not None
    assert game.outcome.winners == (0,) and game.outcome.termination is Termination.TARGET
    assert game.legal_actions() == () and game.current_seat is None
    with pytest.raises(WrongPhase, match="the game is over"):
        game.apply(deal_of(MIXED))


def test_the_game_goes_on_below_the_target() -> None:
    game = started(preset("classic", target=200), SUITED, bids=[7, 1, 6, 1])
    while game.current_seat is not None:
        game.apply(game.legal_actions()[0])
    game.apply(Reveal(game.initial_hands() or ()))
    assert game.outcome is None and game.hand_number == 2 and game.dealer == 0


def test_the_losing_threshold_ends_the_game() -> None:
    game = started(preset("classic", losing_threshold=-50), SUITED, bids=[13, 1, 13, 1])
    while game.current_seat is not None:
        game.apply(game.legal_actions()[0])
    game.apply(Reveal(game.initial_hands() or ()))
    assert game.totals == (SideTotal(-260, 0), SideTotal(-20, 0))
    assert game.phase is Phase.GAME_OVER and game.outcome is not None
    assert game.outcome.termination is Termination.LOSING_THRESHOLD
    assert game.outcome.winners == (1,)  # the higher score wins when a side falls to the threshold


def play_suited_hand(game: Game) -> None:
    """Every seat holds one suit; seat 0 (spades) takes all 13 tricks."""
    game.apply(deal_of(SUITED))
    while game.current_seat is not None:
        game.apply(game.legal_actions()[0])
    game.apply(Reveal(game.initial_hands() or ()))


def test_an_equal_top_score_means_another_hand() -> None:
    rules = preset("classic", target=100)
    game = Game(rules, 3)
    game.totals = (SideTotal(70, 0), SideTotal(100, 0))  # side 0 will score exactly 30 with 3 bids made
    game.hand.blind_eligible = ()
    game.apply(deal_of(SUITED))
    for bid in (1, 1, 2, 1):
        game.apply(Bid(bid))
    while game.current_seat is not None:
        game.apply(game.legal_actions()[0])
    # seat 0 takes all 13: side 0 bid 3 and took 13 -> 30 + 10 bags - 100 for ten bags
    game.apply(Reveal(game.initial_hands() or ()))
    assert game.history[-1].scores[0].points == 30 + 10 - 100
    tie = Game(rules, 3)
    tie.totals = (SideTotal(100, 0), SideTotal(100, 0))
    assert tie._game_end() is None  # tied at the top: play another hand
    shared = Game(preset("classic", target=100, tie="shared"), 3)
    shared.totals = (SideTotal(100, 0), SideTotal(100, 0))
    outcome = shared._game_end()
    assert outcome is not None and outcome.winners == (0, 1) and outcome.termination is Termination.TARGET


def test_a_tie_at_the_top_plays_on_until_it_is_broken() -> None:
    rules = preset("individual", jokers=False, target=30)
    game = Game(rules, 3)
    game.apply(deal_of(SUITED))
    for bid in (13, 1, 1, 1):  # seat 0 makes 13, the others fail: 130, 0, 0, 0
        game.apply(Bid(bid))
    while game.current_seat is not None:
        game.apply(game.legal_actions()[0])
    game.apply(Reveal(game.initial_hands() or ()))
    assert game.outcome is not None and game.outcome.winners == (0,)
    tied = Game(rules, 3)
    tied.totals = (SideTotal(40, 0), SideTotal(40, 0), SideTotal(0, 0), SideTotal(0, 0))
    assert tied._game_end() is None
    tied.totals = (SideTotal(40, 0), SideTotal(41, 0), SideTotal(0, 0), SideTotal(0, 0))
    outcome = tied._game_end()
    assert outcome is not None and outcome.winners == (1,)


def test_the_dealer_rotates_clockwise_and_totals_accumulate() -> None:
    game = Game(preset("classic", target=10_000, losing_threshold=-10_000), 2)
    dealers = []
    for seed in range(6):
        dealers.append(game.dealer)
        finish_hand(game, seed)
    assert dealers == [2, 3, 0, 1, 2, 3]
    for side in range(2):
        assert game.totals[side].score == sum(result.scores[side].points for result in game.history)


# ----- the view of one seat ---------------------------------------------------------------------------------


def test_a_view_shows_only_what_the_seat_may_know() -> None:
    game = started(preset("classic"), MIXED)
    plays(game, "2H KH")
    view = game.view(2)
    assert view.seat == 2 and view.my_turn and view.phase is Phase.PLAY
    assert view.hand == tuple(sorted(parse_cards(MIXED[2])))
    assert view.hand_sizes == (12, 12, 13, 13)
    assert view.trick.plays == ((0, C("2H")), (1, C("KH")))
    assert set(view.legal_actions) == {Play(card) for card in parse_cards(MIXED[2])}
    other = game.view(0)
    assert other.legal_actions == () and not other.my_turn
    assert other.hand == tuple(sorted(card for card in parse_cards(MIXED[0]) if card != C("2H")))
    assert C("KH") not in other.hand
    with pytest.raises(AttributeError):
        view.seat = 1  # type: ignore[misc]


# ----- partial information ----------------------------------------------------------------------------------


def peer(rules: RuleSet, hands: list[str], seat: int, dealer: int = 3) -> Game:
    """The engine of `seat`'s peer: it knows its own cards and no others."""
    game = Game(rules, dealer)
    game.apply(deal_of(hands).seen_by(seat))
    for _ in range(rules.players):
        game.apply(Bid(3))
    return game


def test_a_card_from_an_unknown_hand_is_accepted() -> None:
    game = peer(preset("classic"), MIXED, seat=0)
    assert game.hand.unknown(1) == 13 and game.hand.hand(1) == ()
    plays(game, "2H AH")  # seat 1's card: unknown to seat 0, but possible
    assert game.hand.unknown(1) == 12


def test_a_card_known_elsewhere_or_played_twice_is_refused() -> None:
    game = peer(preset("classic"), MIXED, seat=0)
    plays(game, "2H")
    with pytest.raises(PublicInconsistency, match="seat 1 cannot hold 3H: seat 0 holds it"):
        game.apply(Play(C("3H")))
    plays(game, "AH 2C 2S")
    plays(game, "3S AS")
    with pytest.raises(PublicInconsistency, match="2S was already played by seat 3"):
        game.apply(Play(C("2S")))


def test_a_public_void_contradicted_later_is_caught() -> None:
    game = peer(preset("classic"), MIXED, seat=0)
    plays(game, "2H KH 2C 2S")  # seat 2 showed void in hearts on trick 1
    plays(game, "3S AS 4C 4S")  # seat 0 wins with the ace
    plays(game, "3H")
    with pytest.raises(PublicInconsistency, match="seat 1 showed void in spades on trick 2 and now plays 5S"):
        game.apply(Play(C("5S")))
    plays(game, "AH JD")  # seat 2 plays a diamond: possible
    assert game.current_seat == 3


def test_a_spade_lead_before_broken_claims_a_hand_of_spades() -> None:
    game = peer(preset("classic"), SUITED, seat=1)  # seat 1 does not know seat 0 holds only spades
    plays(game, "2S")
    assert game.hand.voids(0) == frozenset({Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS})
    plays(game, "2H 2D 2C")
    with pytest.raises(PublicInconsistency, match="led 2S on trick 1, which only a hand of spades could do"):
        game.apply(Play(C("3D")))
    mine = peer(preset("classic"), MIXED, seat=0)
    with pytest.raises(SpadesNotBroken):  # seat 0 knows it holds hearts
        mine.apply(Play(C("AS")))


def test_peers_and_the_whole_truth_agree_over_a_hand() -> None:
    rules = preset("classic")
    rng = random.Random(11)
    cards = list(rules.deck)
    rng.shuffle(cards)
    deal = deal_from_order(rules, 3, cards)
    truth = Game(rules, 3)
    peers = [Game(rules, 3) for _ in range(4)]
    truth.apply(deal)
    for seat, game in enumerate(peers):
        game.apply(deal.seen_by(seat))
    while truth.current_seat is not None:
        action = rng.choice(truth.legal_actions())
        truth.apply(action)
        for game in peers:
            game.apply(action)
        seat = truth.current_seat
        if seat is not None:
            assert peers[seat].view(seat).legal_actions == truth.view(seat).legal_actions
    reveal = Reveal(truth.initial_hands() or ())
    truth.apply(reveal)
    for game in peers:
        assert game.initial_hands() is None
        game.apply(reveal)
        assert game.history == truth.history
        assert game.totals == truth.totals


def test_a_reveal_that_contradicts_the_hand_is_refused() -> None:
    rules = preset("classic")
    rng = random.Random(5)
    cards = list(rules.deck)
    rng.shuffle(cards)
    deal = deal_from_order(rules, 3, cards)
    game = Game(rules, 3)
    game.apply(deal.seen_by(0))
    truth = Game(rules, 3)
    truth.apply(deal)
    while truth.current_seat is not None:
        action = rng.choice(truth.legal_actions())
        truth.apply(action)
        game.apply(action)
    hands = list(truth.initial_hands() or ())
    swapped = Reveal((hands[0], hands[2], hands[1], hands[3]))
    with pytest.raises(BadReveal, match="seat 1 played"):
        game.apply(swapped)
    mine_swapped = Reveal((hands[1], hands[0], hands[2], hands[3]))
    with pytest.raises(BadReveal, match="seat 0 was known to hold"):
        game.apply(mine_swapped)
    with pytest.raises(BadReveal, match="a reveal needs 4 hands"):
        game.apply(Reveal(tuple(hands[:3])))
    with pytest.raises(BadReveal, match=r"the revealed hands: .* twice"):
        game.apply(Reveal((hands[0], hands[0], hands[2], hands[3])))
    with pytest.raises(IllegalAction, match="hand 1 holds 'AS', which is not a card"):
        Reveal((hands[0], ("AS",), hands[2], hands[3]))  # type: ignore[arg-type]
    assert game.phase is Phase.REVEAL
    game.apply(Reveal(tuple(hands)))
    truth.apply(Reveal(tuple(hands)))
    assert game.history == truth.history


# ----- the lowest club leads --------------------------------------------------------------------------------


def test_the_lowest_club_leads_first() -> None:
    rules = preset("classic", first_leader="low_club")
    game = started(rules, MIXED, dealer=0)
    assert game.current_seat == 2  # seat 2 holds the 2 of clubs
    assert legal_cards(game) == {"2C"}
    with pytest.raises(WrongLead):
        game.apply(Play(C("3C")))
    plays(game, "2C")
    cutthroat = preset("cutthroat3", first_leader="low_club")  # the 2 of clubs is out: the 3 leads
    assert cutthroat.low_club == C("3C")


def test_the_lowest_club_lead_with_partial_knowledge_names_the_seat() -> None:
    rules = preset("classic", first_leader="low_club")
    game = peer(rules, MIXED, seat=0, dealer=0)
    assert game.phase is Phase.PLAY and game.current_seat is None and game.legal_actions() == ()
    with pytest.raises(NotYourTurn, match="does not know who holds 2C"):
        game.apply(Play(C("2C")))
    with pytest.raises(WrongLead):
        game.apply(Play(C("3C")), seat=2)
    game.apply(Play(C("2C")), seat=2)
    assert game.current_seat == 3 and game.hand.trick.leader == 2
    holder = peer(rules, MIXED, seat=2, dealer=0)
    assert holder.current_seat == 2 and holder.legal_actions() == (Play(C("2C")),)
