"""The heuristic bot: counts likely tricks to bid, then plays to make its side's contract and no more.

It sees exactly what its seat may know (`SeatView`): its own cards and the public record. From the record it
works out which cards are still unseen and, card by card, how likely each other seat is to hold them (hand
sizes and shown voids), and from that how likely a card is to hold a trick. Bidding counts top cards, spade
length and ruffs with the same odds, worked out for the rule set's deck, hand size and number of players.

The bot is pure: no I/O and no randomness of its own. What little variety it has (how it rounds a
borderline bid) comes from its seed through `ByteStream`, keyed by the view, so one seed and one view always
give the same choice.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

from p2pspades.rules import (
    Action,
    Bid,
    BlindNil,
    ByteStream,
    Card,
    Draw,
    Play,
    Rank,
    RuleSet,
    SeatView,
    Suit,
    is_nil,
)
from p2pspades.table.events import Decision, DecisionKind

SPADES = Suit.SPADES
SIDE_SUITS = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
ALL_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

RUFF_WILLINGNESS = 0.85
"""How often a seat that cannot follow suit trumps a trick it could win."""
NIL_WILLINGNESS = 0.3
"""How often a live nil bidder overtakes when it could: only when its cards force it to."""


# ----- cards ----------------------------------------------------------------------------------------------


def beats(card: Card, best: Card) -> bool:
    """Does `card` beat `best`, the card winning the trick so far? (Spades are trump, jokers top spades.)"""
    if card.suit is best.suit:
        return card.rank > best.rank
    return card.suit is SPADES


def _cost(card: Card) -> tuple[int, int]:
    """How much a card is worth keeping: any spade above any side card, then by rank."""
    return (1 if card.suit is SPADES else 0, int(card.rank))


def _by_suit(cards: Iterable[Card]) -> dict[Suit, list[Card]]:
    """Cards grouped by suit (jokers are spades), each list from high to low."""
    out: dict[Suit, list[Card]] = {suit: [] for suit in ALL_SUITS}
    for card in cards:
        out[card.suit].append(card)
    for cards_of_suit in out.values():
        cards_of_suit.sort(key=lambda c: c.rank, reverse=True)
    return out


# ----- odds of the deal -----------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _at_least(population: int, successes: int, draws: int, k: int) -> float:
    """P(X >= k) for X hypergeometric: `draws` cards from `population`, `successes` of them of one kind."""
    if k <= 0:
        return 1.0
    top = min(successes, draws)
    if k > top:
        return 0.0
    total = math.comb(population, draws)
    hits = sum(
        math.comb(successes, i) * math.comb(population - successes, draws - i) for i in range(k, top + 1)
    )
    return hits / total


@lru_cache(maxsize=4096)
def _expected_max(population: int, successes: int, draws: int, holders: int) -> float:
    """Expected longest holding of one suit among `holders` other hands (treated as independent draws)."""
    expected = 0.0
    for k in range(1, min(successes, draws) + 1):
        expected += 1.0 - (1.0 - _at_least(population, successes, draws, k)) ** holders
    return expected


class _Deal:
    """The shape of a deal under one rule set, as seen by a seat holding a full hand before play."""

    def __init__(self, rules: RuleSet, hand_size: int) -> None:
        self.rules = rules
        self.players = rules.players
        self.deck = rules.deck
        self.hand_size = hand_size
        self.population = len(self.deck) - hand_size  # the cards that are not ours
        self.suit_size = {suit: sum(1 for c in self.deck if c.suit is suit) for suit in ALL_SUITS}
        others = self.players - 1
        self.opponents = others - (1 if rules.partnerships else 0)
        self.others = others
        # how many of the cards that are not ours the other seats hold between them, as a fraction: 1 when
        # every card is dealt; with the draw pile the rest are discards, but a drawing opponent keeps its
        # high cards, so it holds about twice its share of those (as measured in games between these bots)
        held = others * hand_size / self.population if self.population else 1.0
        self.held = min(1.0, 2.0 * held) if rules.deal == "draw" else min(1.0, held)

    def holding_at_least(self, suit: Suit, mine: int, k: int) -> float:
        """P(one given other seat holds at least k cards of `suit`) when we hold `mine` of them."""
        return _at_least(self.population, self.suit_size[suit] - mine, self.hand_size, k)

    def survives(self, suit: Suit, mine: int, rounds: int) -> float:
        """P(every opponent can still follow `suit` in round `rounds`): a side-suit winner is not trumped."""
        follow = self.holding_at_least(suit, mine, rounds)
        void = 1.0 - follow
        return (1.0 - void * RUFF_WILLINGNESS) ** self.opponents

    def longest_other(self, suit: Suit, mine: int, holders: int) -> float:
        return _expected_max(self.population, self.suit_size[suit] - mine, self.hand_size, holders)


# ----- bidding --------------------------------------------------------------------------------------------


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
    deal = _Deal(rules, len(hand))
    mine = set(hand)
    suits = _by_suit(hand)
    total = 0.0

    for suit in SIDE_SUITS:
        cards = suits[suit]
        length = len(cards)
        for j, card in enumerate(cards):
            higher = sum(1 for c in deal.deck if c.suit is suit and c.rank > card.rank and c not in mine)
            above = higher * deal.held  # of those, the ones other seats hold
            need = math.ceil(above - 1e-9)
            if higher == 0:
                value = deal.survives(suit, length, j + 1)
            elif length >= need + j + 1:
                value = 0.55**above * deal.survives(suit, length, need + j + 1)
            else:
                value = 0.12 * 0.5 ** (above - 1) * deal.survives(suit, length, 1)
            total += 0.95 * value if value > 0.05 else 0.0

    spades = suits[SPADES]
    count = len(spades)
    longest = deal.longest_other(SPADES, count, deal.opponents)
    spade_tricks = 0.0
    counted = 0
    for i, card in enumerate(spades):
        higher = sum(1 for c in deal.deck if c.suit is SPADES and c.rank > card.rank and c not in mine)
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
    total += spade_tricks

    spare = count - counted
    if spare > 0:
        ruffs = 0.0
        for suit in SIDE_SUITS:
            length = len(suits[suit])
            if length <= 2:
                rounds = deal.longest_other(suit, length, deal.others)
                ruffs += 0.3 * max(0.0, rounds - length - 0.5 * length)
        total += min(float(spare), ruffs) * 0.8
    return total


def nil_danger(rules: RuleSet, hand: Sequence[Card]) -> float:
    """How exposed a hand is when it tries to take no trick: a rough count of the tricks it may be forced to
    take. High spades are the worst (they win whenever spades are led or trumped); side-suit cards are
    dangerous when few cards held by others rank above them, less so when low cards of the same suit let the
    seat duck. The bidding turns it into odds of making nil, as measured in games between these bots.
    """
    deal = _Deal(rules, len(hand))
    mine = set(hand)
    suits = _by_suit(hand)
    danger = 0.0
    held = deal.held
    spade_table = (1.0, 0.85, 0.6, 0.42, 0.28, 0.18, 0.11, 0.07, 0.05)
    for card in suits[SPADES]:
        higher = sum(1 for c in deal.deck if c.suit is SPADES and c.rank > card.rank and c not in mine)
        danger += _lookup(spade_table, higher * held, 0.02)
    average = deal.suit_size[SPADES] * len(hand) / len(deal.deck)
    danger += max(0.0, len(suits[SPADES]) - average) * 0.3
    side_table = (0.9, 0.55, 0.3, 0.15, 0.06, 0.02)
    for suit in SIDE_SUITS:
        cards = sorted(suits[suit], key=lambda c: c.rank)
        for lower_held, card in enumerate(cards):
            higher = sum(1 for c in deal.deck if c.suit is suit and c.rank > card.rank and c not in mine)
            danger += _lookup(side_table, higher * held, 0.0) * 0.8**lower_held
    return danger


def _lookup(table: Sequence[float], x: float, beyond: float) -> float:
    """`table` read at a fractional index (linear between entries), `beyond` past its end."""
    if x >= len(table) - 1:
        return beyond if x >= len(table) else table[-1] + (beyond - table[-1]) * (x - len(table) + 1)
    i = int(x)
    return table[i] + (table[i + 1] - table[i]) * (x - i)


# ----- what a seat can work out during play ---------------------------------------------------------------


class _Table:
    """The seat's reading of the hand in progress: unseen cards, who may hold them, contracts and needs."""

    def __init__(self, view: SeatView) -> None:
        rules = view.rules
        self.view = view
        self.rules = rules
        self.seat = view.seat
        self.n = rules.players
        self.partner: int | None = (view.seat + 2) % 4 if rules.partnerships else None
        self.hand = view.hand
        played: set[Card] = set()
        for trick in (*view.tricks, view.trick):
            played.update(trick.cards)
        self.played = played
        mine = set(view.hand)
        self.unseen = [c for c in rules.deck if c not in mine and c not in played]
        self.unseen_by_suit = _by_suit(self.unseen)
        others = [s for s in range(self.n) if s != self.seat]
        self.others = others
        held = sum(view.hand_sizes[s] for s in others)
        self.pile = max(0, len(self.unseen) - held)  # draw pile: unseen cards discarded face down
        # P(seat s holds a given unseen card of a suit): its share among the seats that may hold that suit
        self._share: dict[tuple[int, Suit], float] = {}
        for suit in ALL_SUITS:
            holders = [s for s in others if suit not in view.voids[s]]
            room = sum(view.hand_sizes[s] for s in holders) + self.pile
            for s in others:
                share = 0.0
                if s in holders and room > 0:
                    share = min(1.0, view.hand_sizes[s] / room)
                self._share[(s, suit)] = share
        # the trick in progress as (seat, card) plays: the leader first, then clockwise
        leader = view.trick.leader
        plays = [((leader + i) % self.n, card) for i, card in enumerate(view.trick.cards)]
        self.plays = plays
        self.led: Suit | None = plays[0][1].suit if plays else None
        self.winner: int | None = None
        self.best: Card | None = None
        for seat, card in plays:
            if self.best is None or beats(card, self.best):
                self.winner, self.best = seat, card
        self.later = [(self.seat + i) % self.n for i in range(1, self.n - len(plays))]
        self.tricks_left = rules.tricks_per_hand - len(view.tricks)

    # --- bids and contracts ---

    def is_nil(self, seat: int) -> bool:
        bid = self.view.bids[seat]
        return bid is not None and is_nil(self.rules, bid, self.view.blind[seat])

    def nil_alive(self, seat: int) -> bool:
        """A nil bid not yet broken."""
        return self.is_nil(seat) and self.view.tricks_won[seat] == 0

    def need(self, side: int) -> int:
        """Tricks the side still needs for its contract (0 or less: made)."""
        contract = counted = 0
        for seat in self.rules.sides[side]:
            bid = self.view.bids[seat]
            if bid is None:
                continue
            if self.is_nil(seat):
                if self.rules.nil_tricks_count_for_partner:
                    counted += self.view.tricks_won[seat]
            else:
                contract += bid
                counted += self.view.tricks_won[seat]
        return contract - counted

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)

    def opponents(self) -> list[int]:
        return [s for s in self.others if s != self.partner]

    # --- odds ---

    def share(self, seat: int, card: Card) -> float:
        return self._share[(seat, card.suit)]

    def holds_none(self, seat: int, cards: Iterable[Card]) -> float:
        """P(seat holds none of `cards`)."""
        if self.view.hand_sizes[seat] == 0:
            return 1.0
        p = 1.0
        for card in cards:
            p *= 1.0 - self.share(seat, card)
        return p

    def beat_chance(self, seat: int, card: Card, led: Suit) -> float:
        """P(seat, still to play, beats `card` in a trick led in `led`)."""
        if self.view.hand_sizes[seat] == 0:
            return 0.0
        will = NIL_WILLINGNESS if self.nil_alive(seat) else 1.0
        spades = self.unseen_by_suit[SPADES]
        if card.suit is led:
            higher = [c for c in self.unseen_by_suit[led] if c.rank > card.rank]
            p_higher = 1.0 - self.holds_none(seat, higher)
            if led is SPADES:
                return p_higher * will
            void = self.holds_none(seat, self.unseen_by_suit[led])
            p_ruff = void * (1.0 - self.holds_none(seat, spades)) * RUFF_WILLINGNESS
            return min(1.0, p_higher + p_ruff) * will
        if card.suit is SPADES:  # a ruff: beaten only by a higher ruff
            void = self.holds_none(seat, self.unseen_by_suit[led])
            higher_spades = [c for c in spades if c.rank > card.rank]
            return void * (1.0 - self.holds_none(seat, higher_spades)) * RUFF_WILLINGNESS * will
        return 1.0

    def hold_chance(self, card: Card, with_partner: bool = False) -> float:
        """P(`card`, played now, wins the trick). The partner is no threat unless `with_partner` (a nil
        bidder counting on its partner to overtake)."""
        if self.best is not None and not beats(card, self.best):
            return 0.0
        led = self.led if self.led is not None else card.suit
        p = 1.0
        for seat in self.later:
            if seat == self.partner and not with_partner:
                continue
            p *= 1.0 - self.beat_chance(seat, card, led)
        return p

    def top_share(self, card: Card) -> float:
        """How many of the unseen cards of its suit a card outranks, as a fraction: how hard it is to lose."""
        rest = self.unseen_by_suit[card.suit]
        if not rest:
            return 1.0
        return sum(1 for c in rest if c.rank < card.rank) / len(rest)


# ----- the bot --------------------------------------------------------------------------------------------


class HeuristicBot:
    """A bot worth playing against: bids by counting tricks, plays for its contract, avoids bags, covers a
    partner's nil and tries to set an opponent's.

    `HeuristicBot(seed)` is a `Player`: call it with a `Decision`, get back one of `decision.legal`.
    """

    name = "heuristic"

    def __init__(self, seed: int | bytes = 0) -> None:
        self._seed = seed if isinstance(seed, bytes) else b"heuristic-bot" + str(seed).encode()

    def __call__(self, decision: Decision) -> Action:
        legal = decision.legal
        if not legal:
            raise ValueError(f"a {decision.kind.value} decision with no legal choices")
        view = decision.view
        kind = decision.kind
        choice: Action | None
        if kind is DecisionKind.PLAY:
            choice = self._play(view, legal)
        elif kind is DecisionKind.BID:
            choice = self._bid(view, legal)
        elif kind is DecisionKind.BLIND_NIL:
            choice = BlindNil(self._blind_nil(view))
        elif kind is DecisionKind.DRAW:
            choice = Draw(self._keep(view))
        else:  # pragma: no cover - the enum has no other members
            choice = None
        return choice if choice in legal else legal[0]

    def _stream(self, view: SeatView) -> ByteStream:
        """The bot's randomness for this decision: its seed and the view, so choices are reproducible."""
        key = "|".join(
            (
                str(view.seat),
                str(view.hand_number),
                view.phase.value,
                str(len(view.tricks)),
                str(len(view.trick.cards)),
                str(view.stock_left),
                "".join(c.code for c in view.hand),
            )
        )
        return ByteStream(self._seed + b"/" + key.encode())

    # ----- blind nil --------------------------------------------------------------------------------------

    def _blind_nil(self, view: SeatView) -> bool:
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

    # ----- draw pile --------------------------------------------------------------------------------------

    def _keep(self, view: SeatView) -> bool:
        """Keep the top card if it is worth more than the unseen card we would get instead."""
        card = view.draw_card
        if card is None:
            return True
        rules = view.rules
        hand = view.hand
        unknown = [c for c in rules.deck if c not in hand and c is not card]
        if not unknown:
            return True
        average = sum(_draw_value(c, hand) for c in unknown) / len(unknown)
        # a small lean towards the card we have seen: the next one may be worse, and we cannot look back
        return _draw_value(card, hand) >= average - 0.03

    # ----- bidding ----------------------------------------------------------------------------------------

    def _bid(self, view: SeatView, legal: Sequence[Action]) -> Action:
        rules = view.rules
        hand = view.hand
        n = rules.players
        tricks = rules.tricks_per_hand
        partner = (view.seat + 2) % 4 if rules.partnerships else None
        estimate = estimate_tricks(rules, hand)

        def bid_is_nil(seat: int) -> bool:
            bid = view.bids[seat]
            return bid is not None and is_nil(rules, bid, view.blind[seat])

        partner_bid = view.bids[partner] if partner is not None else None
        partner_nil = partner is not None and bid_is_nil(partner)

        # Nil: worth it when the hand is unlikely to be forced to take a trick. The odds of making it, by
        # danger, were measured in games between these bots: a partner who covers helps a great deal.
        if rules.nil and Bid(0) in legal and not partner_nil and _may_bid_nil(rules, hand):
            danger = nil_danger(rules, hand)
            if partner is not None:
                success = math.exp(-((danger / 1.45) ** 2))
                if partner_bid is not None and partner_bid <= 2:
                    success *= 0.85  # a weak partner has little to cover with
            else:
                success = 0.6 * math.exp(-1.8 * danger)
            nil_value = rules.nil_value * (2 * success - 1)
            bid_value = 10.0 * max(1, round(estimate))
            if nil_value > bid_value + 10:
                return Bid(0)

        # Partnership: the partner's bid and ours share the same tricks; shade a total that is too high.
        if partner_bid is not None and not partner_nil:
            team = partner_bid + estimate
            if team > tricks - 1:
                estimate -= (team - (tricks - 1)) * 0.5
        known = sum(
            bid * _bid_trust(view, seat)
            for seat, bid in enumerate(view.bids)
            if bid is not None and seat != view.seat and not bid_is_nil(seat)
        )
        if known + estimate > tricks:
            # the table has bid more tricks than there are: some of ours are spoken for, but not many (a
            # seat bidding wildly should not talk us out of our own tricks)
            estimate -= min(1.5, (known + estimate - tricks) * 0.5 * (1.0 if n > 2 else 0.5))

        estimate += _table_bias(view)
        lean = self._lean(view)
        jitter = (self._stream(view).below(21) - 10) / 100.0  # +/- 0.1
        want = math.floor(estimate + lean + jitter)
        return _closest_bid(legal, want, rules)

    def _lean(self, view: SeatView) -> float:
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

    # ----- play -------------------------------------------------------------------------------------------

    def _play(self, view: SeatView, legal: Sequence[Action]) -> Action:
        plays = {action.card: action for action in legal if isinstance(action, Play)}
        if not plays:
            return legal[0]
        cards = list(plays)
        if len(cards) == 1:
            return plays[cards[0]]
        table = _Table(view)
        if table.nil_alive(table.seat):
            card = _play_nil(table, cards)
        elif not table.plays:
            card = _lead(table, cards)
        else:
            card = _follow(table, cards)
        return plays[card]


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
    spades = [c for c in hand if c.suit is SPADES]
    top = sorted((c for c in rules.deck if c.suit is SPADES), key=lambda c: c.rank, reverse=True)[:3]
    if any(c in top for c in spades):
        return False
    average = sum(1 for c in rules.deck if c.suit is SPADES) * len(hand) / len(rules.deck)
    return len(spades) <= average + 0.5


def _closest_bid(legal: Sequence[Action], want: int, rules: RuleSet) -> Action:
    """The legal bid of tricks nearest to `want`, never nil."""
    bids = [a for a in legal if isinstance(a, Bid) and not (a.tricks == 0 and rules.nil)]
    if not bids:
        return legal[0]
    return min(bids, key=lambda b: (abs(b.tricks - want), b.tricks))


def _draw_value(card: Card, hand: Sequence[Card]) -> float:
    """A rough worth of a card for the draw pile: spades and high cards; a side card in a suit we already hold
    many of is worth less."""
    if card.suit is SPADES:
        return 0.45 + 0.04 * (int(card.rank) - 2)
    value = {Rank.ACE: 0.95, Rank.KING: 0.62, Rank.QUEEN: 0.35, Rank.JACK: 0.18, Rank.TEN: 0.1}.get(
        card.rank, 0.04
    )
    same = sum(1 for c in hand if c.suit is card.suit)
    if same >= 4:
        value *= 0.75
    return value


# ----- play: wanting and not wanting tricks ---------------------------------------------------------------


def _wants_tricks(table: _Table) -> bool:
    """Does our side want to win tricks now? Until the contract is made; after that only where bags are free,
    or to set an opponent side that is short of its contract."""
    rules = table.rules
    if table.is_nil(table.seat):  # a broken nil: our tricks count only as bags
        return not _bags_hurt(rules) or _set_within_reach(table)
    if table.need(table.side) > 0:
        return True
    if not _bags_hurt(rules):
        return True
    return _set_within_reach(table)


def _bags_hurt(rules: RuleSet) -> bool:
    return rules.overtrick_points < 0 or rules.bag_limit is not None


def _set_within_reach(table: _Table) -> bool:
    """Can we set an opponent side by taking one or two of the remaining tricks?"""
    if table.partner is None:
        return False
    opponents = 1 - table.side
    need = table.need(opponents)
    return need > 0 and table.tricks_left - need + 1 <= 2


def _opponent_nils(table: _Table) -> list[int]:
    return [s for s in table.opponents() if table.nil_alive(s)]


def _cheap_to_bust(table: _Table) -> bool:
    """Going after an opponent's nil costs us little: we need few of the tricks left."""
    return table.need(table.side) <= table.tricks_left - 2 or not _wants_tricks(table)


def _lowest(cards: Iterable[Card]) -> Card:
    return min(cards, key=_cost)


def _highest(cards: Iterable[Card]) -> Card:
    return max(cards, key=_cost)


# ----- leading --------------------------------------------------------------------------------------------


def _lead(table: _Table, cards: list[Card]) -> Card:
    if table.partner is not None and table.nil_alive(table.partner):
        # cover: lead our surest high card, so the nil bidder can play under it
        return max(cards, key=lambda c: (round(table.hold_chance(c), 2), int(c.rank)))
    nils = _opponent_nils(table)
    if nils and _cheap_to_bust(table):
        card = _lead_against_nil(table, cards, nils)
        if card is not None:
            return card
    if _wants_tricks(table):
        return _lead_to_win(table, cards)
    return _lead_to_lose(table, cards)


def _lead_against_nil(table: _Table, cards: list[Card], nils: list[int]) -> Card | None:
    """Lead low in a suit the nil bidder still holds: each round it has fewer low cards to duck with."""
    options = [c for c in cards if all(c.suit not in table.view.voids[s] for s in nils)]
    sides = [c for c in options if c.suit is not SPADES] or options
    if not sides:
        return None
    # our longest suit, its lowest card, and only if some unseen card of that suit is below nothing of ours
    suits = _by_suit(sides)
    suit = max((s for s in ALL_SUITS if suits[s]), key=lambda s: (len(suits[s]), -int(suits[s][-1].rank)))
    low = suits[suit][-1]
    if table.top_share(low) > 0.5:
        return None
    return low


def _lead_to_win(table: _Table, cards: list[Card]) -> Card:
    chances = {c: table.hold_chance(c) for c in cards}
    winners = [c for c in cards if chances[c] >= 0.7]
    if winners:
        hand_suits = _by_suit(table.hand)
        spades = hand_suits[SPADES]
        unseen_spades = len(table.unseen_by_suit[SPADES])
        side_winners = [c for c in winners if c.suit is not SPADES]
        spade_winners = [c for c in winners if c.suit is SPADES]
        # draw trumps first when we hold the top spade and most of the rest: our side winners then stand
        if spade_winners and side_winners and len(spades) > unseen_spades:
            return max(spade_winners, key=lambda c: c.rank)
        if side_winners:
            return max(side_winners, key=lambda c: (round(chances[c], 2), int(c.rank)))
        return max(spade_winners, key=lambda c: c.rank)
    # no sure winner: lead low, from a short side suit when we can ruff later, else the longest; never away
    # from a guarded honour (a king or queen waiting for the cards above it to fall)
    suits = _by_suit(cards)
    has_spades = bool(_by_suit(table.hand)[SPADES])
    best: Card | None = None
    best_score = -1e9
    for suit in SIDE_SUITS:
        holding = suits[suit]
        if not holding:
            continue
        low = holding[-1]
        score = 0.0
        if has_spades and len(holding) <= 2:
            score += 2.0 - len(holding)
        else:
            score += len(holding) * 0.3
        top = holding[0]
        if len(holding) >= 2 and 0.25 < table.hold_chance(top) < 0.7:
            score -= 1.5
        score -= int(low.rank) * 0.05
        if score > best_score:
            best, best_score = low, score
    if best is not None:
        return best
    return _lowest(cards)


def _lead_to_lose(table: _Table, cards: list[Card]) -> Card:
    """Contract made, bags hurt: lead the card least likely to win; among those, the highest (unload it)."""
    chances = {c: table.hold_chance(c) for c in cards}
    floor = min(chances.values())
    safe = [c for c in cards if chances[c] <= floor + 0.05]
    return max(safe, key=lambda c: (-_cost(c)[0], int(c.rank)))


# ----- following ------------------------------------------------------------------------------------------


def _follow(table: _Table, cards: list[Card]) -> Card:
    best = table.best
    assert best is not None and table.winner is not None
    winning = [c for c in cards if beats(c, best)]
    losing = [c for c in cards if not beats(c, best)]
    partner = table.partner

    if partner is not None and table.nil_alive(partner):
        card = _cover(table, cards, winning)
        if card is not None:
            return card

    nils = _opponent_nils(table)
    if nils and _cheap_to_bust(table):
        if table.winner in nils and losing:
            # the nil bidder is winning: stay under it
            return _highest(losing) if not _wants_tricks(table) else _lowest(losing)
        if any(s in table.later for s in nils) and losing and table.winner != partner:
            # the nil bidder plays after us: leave it room to be forced over our card
            return _lowest(losing)

    if _wants_tricks(table):
        return _follow_to_win(table, cards, winning, losing)
    return _follow_to_lose(table, cards, winning, losing)


def _cover(table: _Table, cards: list[Card], winning: list[Card]) -> Card | None:
    """Partner bid nil: overtake it when it is winning, and play high ahead of it."""
    partner = table.partner
    if table.winner == partner:
        if winning:
            # any card over the nil bidder's saves it: the cheapest one likely to hold, else the lowest
            holding = [c for c in winning if table.hold_chance(c) >= 0.6]
            return _lowest(holding) if holding else _lowest(winning)
        return None
    if partner not in table.later:
        return None  # partner already played under someone else's card
    best = table.best
    assert best is not None and table.led is not None
    # is the winning card already high enough that partner will fit under it?
    if best.suit is SPADES and table.led is not SPADES:
        return None  # trumped: partner following suit is safe
    if table.top_share(best) >= 0.75:
        return None
    if winning:
        follow = [c for c in winning if c.suit is table.led]
        if follow:
            return _highest(follow)
        return _lowest(winning)  # a ruff is high enough for a partner who follows suit
    return None


def _follow_to_win(table: _Table, cards: list[Card], winning: list[Card], losing: list[Card]) -> Card:
    partner = table.partner
    if partner is not None and table.winner == partner:
        # don't overtake a partner who is already winning, unless its card is likely to be beaten
        best = table.best
        assert best is not None
        partner_holds = _partner_holds(table)
        if partner_holds >= 0.6 or not winning:
            return _discard_low(table, losing) if losing else _lowest(winning)
        options = [(table.hold_chance(c), c) for c in winning]
        chance, card = max(options, key=lambda pc: (round(pc[0], 2), [-x for x in _cost(pc[1])]))
        if chance > partner_holds + 0.2:
            return card
        return _discard_low(table, losing) if losing else _lowest(winning)
    if not winning:
        return _discard_low(table, losing)
    if not table.later:
        return _lowest(winning)  # last to play: win as cheaply as possible
    chances = {c: table.hold_chance(c) for c in winning}
    sure = sorted((c for c in winning if chances[c] >= 0.8), key=_cost)
    if partner is not None and partner in table.later:
        # second hand low: win now only with a card that cannot be beaten in its suit (or a safe ruff)
        if sure and (_is_top(table, sure[0]) or sure[0].suit is not table.led):
            return sure[0]
        return _discard_low(table, losing) if losing else _lowest(winning)
    if sure:
        return sure[0]
    # third hand high: the winner most likely to hold, the cheapest of equals
    card = max(winning, key=lambda c: (round(chances[c], 1), [-x for x in _cost(c)]))
    if chances[card] >= 0.3 or not losing:
        return card
    return _discard_low(table, losing)


def _partner_holds(table: _Table) -> float:
    """P(partner's winning card holds against the seats still to play)."""
    best = table.best
    led = table.led
    assert best is not None and led is not None
    p = 1.0
    for seat in table.later:
        p *= 1.0 - table.beat_chance(seat, best, led)
    return p


def _is_top(table: _Table, card: Card) -> bool:
    """No unseen card of its suit ranks higher."""
    return all(c.rank < card.rank for c in table.unseen_by_suit[card.suit])


def _discard_low(table: _Table, losing: list[Card]) -> Card:
    """Lose as cheaply as possible: the lowest card of the led suit, or, when void, the least useful card,
    preferably from a short side suit (making a void to ruff later)."""
    led = table.led
    follow = [c for c in losing if c.suit is led]
    if follow:
        return _lowest(follow)
    sides = [c for c in losing if c.suit is not SPADES]
    if not sides:
        return _lowest(losing)
    hand_suits = _by_suit(table.hand)

    def worth(card: Card) -> tuple[float, int]:
        keep = table.top_share(card) * 10 + int(card.rank) * 0.1
        if _is_top(table, card):
            keep += 5
        return (keep + 0.3 * len(hand_suits[card.suit]), int(card.rank))

    return min(sides, key=worth)


def _follow_to_lose(table: _Table, cards: list[Card], winning: list[Card], losing: list[Card]) -> Card:
    """Contract made and bags hurt: duck with the highest card that still loses; when void, unload the card
    most likely to win a trick later; when every card wins, give the seats after us the best chance to
    overtake (or, last to play, win with the highest card)."""
    if losing:
        return _dump(table, losing)
    if table.later:
        return min(winning, key=lambda c: (table.hold_chance(c), _cost(c)))
    return _highest(winning)


def _dump(table: _Table, losing: list[Card]) -> Card:
    led = table.led
    follow = [c for c in losing if c.suit is led]
    if follow:
        return _highest(follow)
    # void: throw the card most likely to take an unwanted trick later
    return max(losing, key=lambda c: (table.top_share(c) + (0.5 if c.suit is SPADES else 0.0), int(c.rank)))


# ----- nil ------------------------------------------------------------------------------------------------


def _play_nil(table: _Table, cards: list[Card]) -> Card:
    """Our own nil: play the highest card that still loses; when void, unload the most dangerous card."""
    if not table.plays:
        chances = {c: table.hold_chance(c, with_partner=True) for c in cards}
        floor = min(chances.values())
        safe = [c for c in cards if chances[c] <= floor + 0.02]
        return max(safe, key=lambda c: (-_cost(c)[0], int(c.rank)))
    best = table.best
    assert best is not None
    losing = [c for c in cards if not beats(c, best)]
    if losing:
        return _dump(table, losing)
    if table.later:
        # forced over: the card most likely to be overtaken by the seats after us (partner included)
        return min(cards, key=lambda c: (table.hold_chance(c, with_partner=True), _cost(c)))
    return _highest(cards)  # the trick is ours anyway: get rid of the highest card
