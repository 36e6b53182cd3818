"""The ideas the expert's search was measured with, each on a constructed position: what the cards played say
of the hidden hands (`World`'s readings), the cover policy for a nil's partner in the playouts, the
information-set search at the top of the tree, the card's bar and playouts while a nil is alive, and a bid's
playouts."""

from __future__ import annotations

import random

from helpers.games import apply_all, dealt, decision, plays

from p2pspades.bots import ExpertBot, HeuristicBot
from p2pspades.bots.cover import CoverPlayout
from p2pspades.bots.search import Effort, Weighed
from p2pspades.bots.simulate import Contract, Playout
from p2pspades.bots.topsearch import weigh_top
from p2pspades.bots.world import World, read_plays
from p2pspades.rules import Action, Bid, Card, Play, mask_of, parse_cards, preset
from p2pspades.table.events import Decision

# Dealer 3: seat 0 bids first and leads. Seat 3 bids nil; its hearts are 7H and 5H only.
READ_HANDS = (
    "KH 4H 2S 3S 4S 5S 6S 7S 2D 3D 4D 5D 6D",
    "2H 6H AH 8S 9S TS JS 7D 8D 9D TD JD QD",
    "3H 8H 9H QS KS AS KD AD 2C 3C 4C 5C 6C",
    "7H 5H TH JH QH 7C 8C 9C TC JC QC KC AC",
)


def test_a_live_nil_that_plays_under_the_winner_is_read_not_to_hold_the_cards_between() -> None:
    """Seat 3's nil throws 7H under the KH: a nil bidder throws the highest card that loses, so it holds no
    heart between the 7 and the king (it does hold TH JH QH here: the reading is of a nil that plays so, and
    a deal that breaks it only counts for less)."""
    game = dealt(preset("classic"), 3, READ_HANDS)
    apply_all(game, [Bid(3), Bid(4), Bid(5), Bid(0)])
    apply_all(game, plays("KH 2H 3H 7H"))
    view = game.view(1)
    between = mask_of(parse_cards("8H 9H TH JH QH"))
    assert (3, between) in read_plays(view)
    world = World(view, 0, infer=0.25)
    rng = random.Random(1)
    broken = kept = 0
    for _ in range(200):
        hands = world.sample(rng)
        plain = World(view, 0).weight(hands)
        if hands[3] & between:
            assert world.weight(hands) == plain * 0.25 ** sum(1 for s, m in world.signs if hands[s] & m)
            broken += 1
        else:
            kept += 1
    assert broken and kept


def test_a_side_short_of_its_contract_last_to_play_takes_the_trick_when_it_can() -> None:
    """Seat 2, its side short of its contract, is last to play to seat 1's KH and plays the 3H: it is read to
    hold no heart above the king. Seat 0, second to play, is read to hold nothing (a low card there says
    little)."""
    hands = (
        "4H 6H 2S 3S 4S 5S 6S 7S 2D 3D 4D 5D 6D",
        "KH 2H AH 8S 9S TS JS 7D 8D 9D TD JD QD",
        "3H 8H 9H QS KS AS KD AD 2C 3C 4C 5C 6C",
        "5H 7H TH JH QH 7C 8C 9C TC JC QC KC AC",
    )
    game = dealt(preset("classic"), 2, hands)  # seat 3 bids first and leads
    apply_all(game, [Bid(3), Bid(3), Bid(4), Bid(4)])
    apply_all(game, plays("5H 4H KH 3H"))
    assert read_plays(game.view(1)) == [(2, mask_of(parse_cards("AH")))]


# Seat 0's partner, seat 2, bid nil; seat 0 holds the top spades, clubs and diamonds, and the nil is void in
# clubs with three dangerous hearts.
VOID = (
    "AS KS QS JS AC KC QC JC AD KD QD 2H 6H",
    "3S 4S 5S 6S AH KH QH 2D 3D 2C 3C 4C 5C",
    "JH TH 9H 2S 3H 4H 5H 5D 6D 7D 8D 9D TD",
    "7S 8S 9S TS 7H 8H 4D JD 6C 7C 8C 9C TC",
)
# The nil (seat 2) holds JH TH 9H; seat 0 holds the three hearts above them.
COVER = (
    "AH KH QH AS KS QS JS AD KD QD AC KC QC",
    "2H 3H 4H 5H 6H 7H 2S 3S 4S 5S 2D 3D 4D",
    "JH TH 9H 2C 3C 4C 5C 6C 5D 6D 7D 8D 9D",
    "8H TS 9S 8S 7S 6S TD JD 7C 8C 9C TC JC",
)


def playouts(hands: tuple[str, ...], leader: int) -> tuple[Playout, CoverPlayout]:
    """The plain and the cover policy at the same position: seat 2 bid nil, seat 0 covers it."""
    masks = [mask_of(parse_cards(h)) for h in hands]
    contract = Contract(preset("classic"), (10, 3, 0, 3), (False,) * 4)
    return (Playout(contract, masks.copy(), [0] * 4, leader, [], True, False),
            CoverPlayout(contract, masks.copy(), [0] * 4, leader, [], True, False))


def test_the_cover_policy_leads_where_the_nil_can_throw_its_most_dangerous_card() -> None:
    """Seat 0 leads for its partner's nil: the plain policy leads its highest standing card, the ace of
    spades, on which the nil plays its 2S; the cover policy leads the AC, on which the nil, void in clubs,
    throws the JH, its most dangerous card."""
    plain, cover = playouts(VOID, 0)
    legal = plain.legal()
    assert plain.lead(0, legal) == Card.parse("AS").index
    assert cover.lead(0, legal) == Card.parse("AC").index
    cover.play(Card.parse("AC").index)
    cover.play(Card.parse("2C").index)
    assert cover.follow(2, cover.legal()) == Card.parse("JH").index


def test_the_cover_policy_follows_only_as_high_as_the_nil_needs() -> None:
    """Seat 3 leads the 8H; seat 0, ahead of its partner's nil (JH TH 9H), plays the QH, the lowest heart
    over all of the nil's, where the plain policy spends the AH."""
    plain, cover = playouts(COVER, 3)
    for playout in (plain, cover):
        playout.play(Card.parse("8H").index)
    assert cover.follow(0, cover.legal()) == Card.parse("QH").index
    assert plain.follow(0, plain.legal()) == Card.parse("AH").index


TAKE_WITH_QD = (
    "9D 5D AH KH QH JH TH 9H 8H 7H 6H 5H 4H",
    "JD 3D 3H 2H AS KS QS JS TS 9S 8S 7S 6S",
    "QD 4D 2D 5S 4S 3S 2S AC KC QC JC TC 9C",
    "8D 6D 7D AD TD KD 8C 7C 6C 5C 4C 3C 2C",
)


def take_with_qd() -> Decision:
    """Seat 2, last to play to seat 1's JD, its side short of its contract: only the QD takes the trick."""
    game = dealt(preset("classic"), 2, TAKE_WITH_QD)  # seat 3 bids first and leads
    apply_all(game, [Bid(3), Bid(3), Bid(4), Bid(4)])
    apply_all(game, plays("8D 9D JD"))
    turn = decision(game)
    assert turn.view.seat == 2
    return turn


def test_the_top_search_plays_the_card_a_position_calls_for() -> None:
    """The information-set search at the top takes a trick its side needs with the one card that does: seat
    2, last to play to seat 1's JD, wins with the QD, not the 4D or the 2D."""
    turn = take_with_qd()
    assert ExpertBot(1, clock=False, iterations=300, top=True)(turn) == Play(Card.parse("QD"))


def test_the_top_search_plays_out_with_the_searchs_own_policy_and_stops_once_settled() -> None:
    """Under the top of the tree the hand is played out by the search's policy (the cover policy, where the
    expert is set to use it), and the coach's early stop ends a top search as it ends a flat one."""
    turn = take_with_qd()
    started: list[Playout] = []

    class Watched(CoverPlayout):
        __slots__ = ()

        @classmethod
        def from_view(cls, *args: object, **kwargs: object) -> Playout:
            playout = super().from_view(*args, **kwargs)  # type: ignore[arg-type]
            started.append(playout)
            return playout

    full = weigh_top(turn.view, turn.legal, Effort(random.Random(1), 600, playout=Watched))
    assert full is not None and started and all(isinstance(p, Watched) for p in started)
    assert len(full.weights) == 600 // len(full.actions)
    settled = weigh_top(turn.view, turn.legal, Effort(random.Random(1), 600, settle=(2.5, 1.5)))
    assert settled is not None and len(settled.weights) < len(full.weights)
    assert settled.actions[max(range(len(settled.actions)), key=settled.mean)] == Play(Card.parse("QD"))


# Dealer 3: seat 0 bids 4 and seat 1 bids 4; seat 2 (partner of seat 0) counts four tricks in its hand.
UNDER_HANDS = (
    "QS 2S 8S AS 8D AH QH 3D 6H TD 9H 4H 9D",
    "3C 2C KS QD 2D 6C 6D 4D 7H QC JD JS 5H",
    "8H AC JH 5S KD 4S 3S 3H TS 7S 7D 5C TH",
    "KC KH 4C 9S AD 6S JC 2H TC 7C 9C 5D 8C",
)


def test_the_bid_search_bids_under_the_count_only_where_it_may() -> None:
    """Seat 2's search rates a bid of 3 well above the count of 4 (its playouts, every seat seeing every
    card, set the side's 8 more often than the table does): with `bid_under` the expert bids 3, without it
    the count, 4, for a searched bid may then only be the count, over it, or nil."""
    game = dealt(preset("classic"), 3, UNDER_HANDS)
    apply_all(game, [Bid(4), Bid(4)])
    turn = decision(game)
    assert turn.view.seat == 2 and HeuristicBot(1)(turn) == Bid(4)

    def bid(under: float) -> Action:
        return ExpertBot(7, clock=False, iterations=2000, bid_under=under)(turn)

    assert bid(1) == Bid(3)
    assert bid(0) == Bid(4)


# Dealer 0: seat 1 bids first and leads. Seat 1 bids nil; the heuristic's lead for it is the TD, the highest
# of its cards that the count of unseen cards calls safe, though the opponents, hunting the nil, play under
# it.
NIL_LEAD = (
    "9H JS 9D 7S 5C QH AS JC TH 6S 3S KD TS",
    "9C 5H 6D QC AC 3C TD 4D AH 3D 4H 2S 3H",
    "8D QD JD AD 7D 8S 8C 2C 9S TC KS 6C 4S",
    "4C 7C 5S QS 2D 6H 2H KH KC 8H JH 7H 5D",
)


def nil_lead(nil: bool, played: str = "") -> Decision:
    """Seat 1's bid nil (or 1), and the decision after the cards `played` (none: seat 1's opening lead)."""
    game = dealt(preset("classic"), 0, NIL_LEAD)
    apply_all(game, [Bid(0 if nil else 1), Bid(3), Bid(2), Bid(4), *plays(played)])
    return decision(game)


def test_a_live_nil_lowers_the_cards_bar_to_nil_confidence() -> None:
    """A search whose card beats the heuristic's by 1.2 standard errors: the expert keeps the heuristic's card
    at its bar of 1.5, and takes the searched one at `nil_confidence=0.5` while a nil is alive at the table,
    but not where no seat bid nil."""
    turn = nil_lead(True)
    assert turn.view.seat == 1 and HeuristicBot(1)(turn) == Play(Card.parse("TD"))
    # the 3D beats the TD by 10 points a deal, with a spread of 80 over 100 deals: 1.24 standard errors
    weighed = Weighed([Play(Card.parse("TD")), Play(Card.parse("3D"))],
                      [[0.0] * 100, [10.0 + 80.0 * (-1) ** k for k in range(100)]],
                      [[True] * 100, [True] * 100], [1.0] * 100, 0)
    mean, error = weighed.difference(1, 0)
    assert mean == 10.0 and 1.2 < mean / error < 1.3
    assert ExpertBot(1).best(turn, weighed) == 0
    assert ExpertBot(1, nil_confidence=0.5).best(turn, weighed) == 1
    assert ExpertBot(1, nil_confidence=0.5).best(nil_lead(False), weighed) == 0
    # at the table, the search with the lower bar leads a low card, never the TD
    assert ExpertBot(7, clock=False, iterations=2000, nil_confidence=0.5)(turn) != Play(Card.parse("TD"))


def test_hunt_confidence_lowers_the_bar_only_against_an_opponents_nil() -> None:
    """`hunt_confidence=0.5`: seat 2, an opponent of seat 1's live nil, takes the searched card 1.2 standard
    errors over the heuristic's; seat 1, the nil bidder itself, keeps the heuristic's at the bar of 1.5."""
    own, against = nil_lead(True), nil_lead(True, "3D")
    assert against.view.seat == 2
    weighed = Weighed([Play(Card.parse("7D")), Play(Card.parse("8D"))],
                      [[0.0] * 100, [10.0 + 80.0 * (-1) ** k for k in range(100)]],
                      [[True] * 100, [True] * 100], [1.0] * 100, 0)
    hunter = ExpertBot(1, hunt_confidence=0.5)
    assert hunter.best(against, weighed) == 1 and ExpertBot(1).best(against, weighed) == 0
    assert hunter.best(own, weighed) == 0


def test_a_live_nil_gets_nil_effort_times_the_playouts() -> None:
    """`nil_effort=2`: a card's search runs twice the playouts while a nil is alive at the table, and the
    usual count where no seat bid nil."""
    with_nil, without = nil_lead(True), nil_lead(False)
    for turn, most in ((with_nil, 400), (without, 200)):
        bot = ExpertBot(7, clock=False, iterations=200, nil_effort=2)
        bot(turn)
        assert most * 0.75 < bot.playouts <= most


def test_a_bid_gets_bid_effort_times_the_playouts() -> None:
    """`bid_effort=3`: a bid's search runs three times the playouts (a whole-hand playout counted as
    `BID_COST`), and a card's search the usual count."""
    game = dealt(preset("classic"), 0, NIL_LEAD)
    bid = decision(game)
    assert bid.view.seat == 1
    counts = []
    for effort in (1, 3):
        bot = ExpertBot(7, clock=False, iterations=300, bid_effort=effort)
        bot(bid)
        counts.append(bot.playouts)
    assert 300 * 0.75 < counts[0] <= 300 and 900 * 0.75 < counts[1] <= 900
    card = ExpertBot(7, clock=False, iterations=200, bid_effort=3)
    card(nil_lead(False))
    assert 200 * 0.75 < card.playouts <= 200
