"""Bidding for the heuristic bot: counting a hand's likely tricks, nil danger, the bid itself, blind nil and
the draw pile's keep-or-discard.

Pure: no I/O and no randomness of its own (the jitter of a borderline bid comes in as a number).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from p2pspades.bots.odds import SIDE_SUITS, SPADES, DealShape
from p2pspades.rules import (
    Action,
    Bid,
    BlindBid,
    BlindNil,
    ByteStream,
    Card,
    Rank,
    RuleSet,
    SeatView,
    is_nil,
)
from p2pspades.rules.cards import CardOrder, cards_of, mask_of

SUICIDE_NIL_DANGER = 2.25
"""The median `nil_danger` of a random 13-card hand of the classic deck (measured over 400 deals): under
suicide bids the first partner to bid nils when its hand is at most this dangerous."""


def estimate_tricks(rules: RuleSet, hand: Sequence[Card]) -> float:
    """How many tricks a hand is likely to take: top cards, spade honours and length, and ruffs.

    Side-suit honours count when they are the top outstanding cards (or guarded behind them), discounted by
    the chance that an opponent trumps the suit before they win, worked out from the deck, the hand size and
    the number of opponents. Spades count by honour and by length beyond the longest other holding; voids,
    singletons and doubletons add ruffs when there are spare spades. The count is then scaled so that, over
    random deals, the seats' estimates add up to the tricks there are (long hands of 17 or 18 cards take more
    tricks with small cards than the count sees).
    """
    return _count_tricks(rules, hand) * _scale(rules, len(hand))


@lru_cache(maxsize=64)
def _scale(rules: RuleSet, size: int) -> float:
    """Tricks per seat over the average raw count of random hands of this rule set (1 for the draw pile,
    whose hands are chosen rather than dealt, and for hands that are not full)."""
    if rules.deal != "all" or size != rules.hand_size:
        return 1.0
    stream = ByteStream(b"heuristic-bot/scale")
    deck = list(rules.deck)
    counts = []
    for _ in range(120):
        stream.shuffle(deck)
        counts.append(_count_tricks(rules, deck[:size]))
    average = sum(counts) / len(counts)
    return rules.tricks_per_hand / rules.players / average if average > 0 else 1.0


def _count_tricks(rules: RuleSet, hand: Sequence[Card]) -> float:
    """The raw trick count of `estimate_tricks`."""
    return count_mask(rules, mask_of(hand), len(hand))


def estimate_mask(rules: RuleSet, hand: int) -> float:
    """`estimate_tricks` of a hand given as a bit mask of card indexes (the search's form, cached by suit)."""
    size = hand.bit_count()
    return count_mask(rules, hand, size) * _scale(rules, size)


def count_mask(rules: RuleSet, hand: int, size: int) -> float:
    """The raw trick count of a hand of `size` cards given as a bit mask: each suit's holding is counted once
    per rule set and hand size and remembered, for the search weighs thousands of deals a decision."""
    total = 0.0
    lengths = []
    masks = rules.order.suit_masks  # deuces high: the 2D is a spade
    for suit_mask in masks[1:]:
        held = hand & suit_mask
        lengths.append(held.bit_count())
        total += _side_suit(rules, size, held)
    spades = hand & masks[0]
    spade_tricks, counted = _spades(rules, size, spades)
    total += spade_tricks
    spare = spades.bit_count() - counted
    if spare > 0:
        total += min(float(spare), _ruffs(rules, size, tuple(lengths))) * 0.8
    return total


@lru_cache(maxsize=256)
def _shape(rules: RuleSet, size: int) -> DealShape:
    return DealShape(rules, size)


def _ranked(order: CardOrder, held: int) -> list[Card]:
    return sorted(cards_of(held), key=lambda c: order.rank[c.index], reverse=True)


def _higher(deal: DealShape, card: Card, mine: int) -> int:
    """The cards of the deck of `card`'s suit above it that are not ours (`mine`, a mask), under the rule
    set's card order."""
    return (deal.above[card.index] & ~mine).bit_count()


@lru_cache(maxsize=1 << 16)
def _side_suit(rules: RuleSet, size: int, held: int) -> float:
    """The tricks a side-suit holding (a mask of one suit) is likely to take: its top and guarded cards,
    discounted by the chance that an opponent trumps the suit first."""
    if not held:
        return 0.0
    deal = _shape(rules, size)
    cards = _ranked(deal.order, held)
    suit = deal.order.suit(cards[0])
    length = len(cards)
    total = 0.0
    for j, card in enumerate(cards):
        higher = _higher(deal, card, held)
        above = higher * deal.held  # of those, the ones other seats hold
        need = math.ceil(above - 1e-9)
        if higher == 0:
            value = deal.survives(suit, length, j + 1)
        elif length >= need + j + 1:
            value = 0.55**above * deal.survives(suit, length, need + j + 1)
        else:
            value = 0.12 * 0.5 ** (above - 1) * deal.survives(suit, length, 1)
        total += 0.95 * value if value > 0.05 else 0.0
    return total


@lru_cache(maxsize=1 << 16)
def _spades(rules: RuleSet, size: int, held: int) -> tuple[float, int]:
    """The tricks a spade holding is likely to take, by honour and by length, and how many of its cards
    count as a trick (the rest are spare, for ruffs)."""
    deal = _shape(rules, size)
    spades = _ranked(deal.order, held)
    count = len(spades)
    longest = deal.longest_other(SPADES, count, deal.opponents)
    spade_tricks = 0.0
    counted = 0
    for i, card in enumerate(spades):
        higher = _higher(deal, card, held)
        above = higher * deal.held
        guards = count - 1 - i
        if higher == 0:
            honour: float = 0.98
        elif guards >= math.ceil(above - 1e-9):
            honour = 0.8**above
        else:
            honour = 0.35 * 0.75 ** (above - 1)
        by_length = min(1.0, max(0.0, i + 1 - longest)) * 0.85
        value = max(honour, by_length)
        spade_tricks += value
        if value >= 0.5:
            counted += 1
    return spade_tricks, counted


@lru_cache(maxsize=4096)
def _ruffs(rules: RuleSet, size: int, lengths: tuple[int, ...]) -> float:
    """The ruffs that short side suits (their lengths, hearts, diamonds, clubs) offer spare spades."""
    deal = _shape(rules, size)
    ruffs = 0.0
    for suit, length in zip(SIDE_SUITS, lengths, strict=True):
        if length <= 2:
            rounds = deal.longest_other(suit, length, deal.others)
            ruffs += 0.3 * max(0.0, rounds - length - 0.5 * length)
    return ruffs


def nil_danger(rules: RuleSet, hand: Sequence[Card]) -> float:
    """How exposed a hand is when it tries to take no trick: a rough count of the tricks it may be forced to
    take. High spades are the worst (they win whenever spades are led or trumped); side-suit cards are
    dangerous when few cards held by others rank above them, less so when low cards of the same suit let the
    seat duck. The bidding turns it into odds of making nil, as measured in games between these bots.
    """
    return nil_danger_mask(rules, mask_of(hand))


def nil_danger_mask(rules: RuleSet, hand: int) -> float:
    """`nil_danger` of a hand given as a bit mask of card indexes (the search's form): each suit's holding
    is weighed once per rule set and hand size and remembered, for the search weighs thousands of deals."""
    size = hand.bit_count()
    masks = rules.order.suit_masks  # deuces high: the 2D is a spade
    danger = _nil_suit(rules, size, 0, hand & masks[0])
    for suit in SIDE_SUITS:
        danger += _nil_suit(rules, size, suit.index, hand & masks[suit.index])
    return danger


def nil_odds(rules: RuleSet, danger: float) -> float:
    """The odds of making nil with a hand of this `nil_danger`, as measured in games between these bots: a
    partner who covers helps a great deal."""
    if rules.partnerships:
        return math.exp(-((danger / 1.45) ** 2))
    return 0.6 * math.exp(-1.8 * danger)


_SPADE_DANGER = (1.0, 0.85, 0.6, 0.42, 0.28, 0.18, 0.11, 0.07, 0.05)
_SIDE_DANGER = (0.9, 0.55, 0.3, 0.15, 0.06, 0.02)


@lru_cache(maxsize=1 << 16)
def _nil_suit(rules: RuleSet, size: int, suit_index: int, held: int) -> float:
    """The nil danger of one suit's holding (a mask) in a hand of `size` cards: each card by how many cards
    the others may hold above it; spades also by their length beyond a fair share, side-suit cards less for
    every lower card of the suit held (it lets the seat duck)."""
    deal = _shape(rules, size)
    order = deal.order
    danger = 0.0
    mine = cards_of(held)
    if suit_index == 0:
        for card in sorted(mine, key=lambda c: order.rank[c.index], reverse=True):
            danger += _lookup(_SPADE_DANGER, _higher(deal, card, held) * deal.held, 0.02)
        average = deal.suit_size[SPADES] * size / len(deal.deck)
        return danger + max(0.0, len(mine) - average) * 0.3
    for lower_held, card in enumerate(sorted(mine, key=lambda c: order.rank[c.index])):
        higher = _higher(deal, card, held)
        danger += _lookup(_SIDE_DANGER, higher * deal.held, 0.0) * 0.8**lower_held
    return danger


def _lookup(table: Sequence[float], x: float, beyond: float) -> float:
    """`table` read at a fractional index (linear between entries), `beyond` past its end."""
    if x >= len(table) - 1:
        return beyond if x >= len(table) else table[-1] + (beyond - table[-1]) * (x - len(table) + 1)
    i = int(x)
    return table[i] + (table[i + 1] - table[i]) * (x - i)


# ----- blind nil --------------------------------------------------------------------------------------


def blind_nil(view: SeatView) -> bool:
    """Blind nil only when the side trails so far that it needs a big swing before the leader is home."""
    rules = view.rules
    side = view.side
    scores = [total.score for total in view.totals]
    leader = max(score for i, score in enumerate(scores) if i != side)
    deficit = leader - scores[side]
    near = leader >= rules.target - 150  # the leader may go out within a hand or two
    if rules.partnerships:
        partner = (view.seat + 2) % 4
        if view.blind[partner]:
            return False
        return deficit >= max(200, rules.blind_nil_margin) and (near or deficit >= 400)
    return deficit >= max(300, rules.blind_nil_margin) and near


def blind_choice(view: SeatView, legal: Sequence[Action]) -> Action:
    """The answer before the deal: blind nil as `blind_nil` says; else, where blind bids are offered (house
    rule `blind_bid`), the lowest blind bid when the side trails by twice the margin (and at least 200) with
    the leader near the target, or so far behind that only a doubled contract catches up; else no."""
    if BlindNil(True) in legal and blind_nil(view):
        return BlindNil(True)
    bids = [a for a in legal if isinstance(a, BlindBid)]
    if not bids:
        return BlindNil(False)
    rules = view.rules
    side = view.side
    scores = [total.score for total in view.totals]
    deficit = max(score for i, score in enumerate(scores) if i != side) - scores[side]
    near = max(scores) >= rules.target - 150
    partner = (view.seat + 2) % 4 if rules.partnerships else None
    if partner is not None and view.blind[partner]:
        return BlindNil(False)  # one gamble a side
    if deficit >= max(200, 2 * rules.blind_bid_margin) and (near or deficit >= 400):
        return min(bids, key=lambda a: a.tricks)
    return BlindNil(False)


# ----- draw pile --------------------------------------------------------------------------------------


def keep_draw(view: SeatView) -> bool:
    """Keep the top card if it is worth more than the unseen card we would get instead."""
    card = view.draw_card
    if card is None:
        return True
    rules = view.rules
    hand = view.hand
    unknown = [c for c in rules.deck if c not in hand and c is not card]
    if not unknown:
        return True
    order = rules.order
    average = sum(_draw_value(c, hand, order) for c in unknown) / len(unknown)
    # a small lean towards the card we have seen: the next one may be worse, and we cannot look back
    return _draw_value(card, hand, order) >= average - 0.03


# ----- bidding ----------------------------------------------------------------------------------------


def choose_bid(view: SeatView, legal: Sequence[Action], jitter: float) -> Action:
    """The bid: tricks counted, shaded for the partner's and the table's bids, rounded with a lean and
    `jitter` (a small seeded amount, within +/- 0.1); nil when it is worth more."""
    rules = view.rules
    hand = view.hand
    partner = (view.seat + 2) % 4 if rules.partnerships else None
    estimate = estimate_tricks(rules, hand)
    partner_bid = view.bids[partner] if partner is not None else None
    partner_nil = partner is not None and _bid_nil(view, partner)

    # Suicide bids: the side's first bidder chooses which partner bids nil. It nils when its hand is safer
    # than a typical one (the partner's, unseen), else bids and leaves the nil to the partner.
    if rules.bid_mode == "suicide" and partner_bid is None and Bid(0) in legal:
        if nil_danger(rules, hand) <= SUICIDE_NIL_DANGER * len(hand) / 13:
            return Bid(0)
        return _closest_bid(legal, math.floor(estimate + _lean(view) + jitter), rules)

    if rules.nil and Bid(0) in legal and not partner_nil and _nil_pays(rules, hand, estimate, partner_bid):
        return Bid(0)
    estimate = _shaded(view, estimate, partner_bid if not partner_nil else None)
    estimate += _table_bias(view)
    want = math.floor(estimate + _lean(view) + jitter)
    return _closest_bid(legal, want, rules)


def _bid_nil(view: SeatView, seat: int) -> bool:
    bid = view.bids[seat]
    return bid is not None and is_nil(view.rules, bid, view.blind[seat])


def _nil_pays(rules: RuleSet, hand: Sequence[Card], estimate: float, partner_bid: int | None) -> bool:
    """Nil: worth it when the hand is unlikely to be forced to take a trick. The odds of making it, by
    danger, were measured in games between these bots: a partner who covers helps a great deal."""
    if not _may_bid_nil(rules, hand):
        return False
    success = nil_odds(rules, nil_danger(rules, hand))
    if partner_bid is not None and partner_bid <= 2:
        success *= 0.85  # a weak partner has little to cover with
    nil_value = rules.nil_value * (2 * success - 1)
    bid_value = 10.0 * max(1, round(estimate))
    return nil_value > bid_value + 10


def _shaded(view: SeatView, estimate: float, partner_bid: int | None) -> float:
    """The estimate shaded for the bids made: a partner's (not nil) shares our tricks, and a table that has
    bid more tricks than there are has spoken for some of ours."""
    rules = view.rules
    tricks = rules.tricks_per_hand
    if partner_bid is not None:
        team = partner_bid + estimate
        if team > tricks - 1:
            estimate -= (team - (tricks - 1)) * 0.5
    known = sum(
        bid * _bid_trust(view, seat)
        for seat, bid in enumerate(view.bids)
        if bid is not None and seat != view.seat and not _bid_nil(view, seat)
    )
    if known + estimate > tricks:
        # the table has bid more tricks than there are: some of ours are spoken for, but not many (a
        # seat bidding wildly should not talk us out of our own tricks)
        estimate -= min(1.5, (known + estimate - tricks) * 0.5 * (1.0 if rules.players > 2 else 0.5))
    return estimate


def _lean(view: SeatView) -> float:
    """How far a bid rounds up from the estimate: a failed contract costs more than a bag, except where
    overtricks cost 10 each; bags about to cost a penalty push the bid towards what the hand can take."""
    rules = view.rules
    if rules.overtrick_points < 0:
        lean = 0.25
    elif rules.failed_contract == "zero":
        lean = 0.1
    else:
        lean = 0.15
    if rules.bag_limit is not None and view.totals[view.side].bags >= rules.bag_limit - 2:
        lean += 0.15
    return lean


def _table_bias(view: SeatView, hands: int = 8) -> float:
    """How many tricks a seat of our side has taken beyond its estimate in this game's last hands (revealed
    at each hand's end), when that is more than chance explains: a table that keeps handing us tricks, as
    careless opponents do, should raise our bids, and one that keeps us short should lower them. Between
    even tables it stays 0, so it adds no noise to the bids."""
    rules = view.rules
    seats = rules.sides[view.side]
    residuals = []
    for result in view.history[-hands:]:
        bidders = [s for s in seats if not is_nil(rules, result.bids[s], result.blind[s])]
        if not bidders or len(result.hands) != rules.players:
            continue
        took = sum(result.tricks_won[s] for s in bidders)
        expected = sum(estimate_tricks(rules, result.hands[s]) for s in bidders)
        residuals.append((took - expected) / len(bidders))
    k = len(residuals)
    if k < 3:
        return 0.0
    mean = sum(residuals) / k
    if abs(mean) < 0.75:  # within what chance gives between even tables: leave the bids alone
        return 0.0
    bias = (mean - math.copysign(0.5, mean)) * k / (k + 1.5)
    return max(-1.5, min(2.5, bias))


def _bid_trust(view: SeatView, seat: int, hands: int = 8) -> float:
    """How far a seat's bid tells how many tricks it will take, from 0 to 1: by how much its bids missed in
    this game's last hands. A seat that misses by a trick or so is taken at its word; one that bids wildly
    is not allowed to talk us out of our own tricks."""
    rules = view.rules
    misses = [
        abs(result.tricks_won[seat] - result.bids[seat])
        for result in view.history[-hands:]
        if not is_nil(rules, result.bids[seat], result.blind[seat])
    ]
    if len(misses) < 2:
        return 1.0
    miss = sum(misses) / len(misses)
    return min(1.0, 1.5 / miss) if miss > 0 else 1.0


def _may_bid_nil(rules: RuleSet, hand: Sequence[Card]) -> bool:
    """No nil with one of the three top spades, or with more spades than an average hand holds, whatever the
    danger count says: players bust such nils far more readily than bots do."""
    order = rules.order
    spades = [c for c in hand if order.is_trump(c)]
    trumps = [c for c in rules.deck if order.is_trump(c)]
    top = sorted(trumps, key=lambda c: order.rank[c.index], reverse=True)[:3]
    if any(c in top for c in spades):
        return False
    average = len(trumps) * len(hand) / len(rules.deck)
    return len(spades) <= average + 0.5


def _closest_bid(legal: Sequence[Action], want: int, rules: RuleSet) -> Action:
    """The legal bid of tricks nearest to `want`, never nil."""
    bids = [a for a in legal if isinstance(a, Bid) and not (a.tricks == 0 and rules.nil)]
    if not bids:
        return legal[0]
    return min(bids, key=lambda b: (abs(b.tricks - want), b.tricks))


def _draw_value(card: Card, hand: Sequence[Card], order: CardOrder) -> float:
    """A rough worth of a card for the draw pile: spades and high cards; a side card in a suit we already hold
    many of is worth less."""
    if order.is_trump(card):
        return 0.45 + 0.04 * (order.rank[card.index] - 2)
    value = {Rank.ACE: 0.95, Rank.KING: 0.62, Rank.QUEEN: 0.35, Rank.JACK: 0.18, Rank.TEN: 0.1}.get(
        card.rank, 0.04
    )
    same = sum(1 for c in hand if order.suit_of[c.index] == order.suit_of[card.index])
    if same >= 4:
        value *= 0.75
    return value
