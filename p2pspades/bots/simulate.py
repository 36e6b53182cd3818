"""A fast hand simulator for the expert bot's search: one hand played to its end on bit masks, every seat's
cards known (a determinization), each seat choosing by a quick greedy policy that knows the contracts.

Cards are their `FULL_DECK` indexes; a hand is a bit mask (bit `card.index`). Within a suit a higher index is
a higher card and the jokers (52, 53) top the spades, so the highest card of a suit is the highest bit.
Under deuces high (rule `deuces_high`) the 2S and the 2D outrank the ace of spades, so inside a playout the
cards are relabelled (`Contract.relabel`): the 2S, the 2D and the jokers move to indexes 54 to 57, above
every other spade and in their order, and the same bit tricks hold. Only the simulator sees those indexes:
its callers give and get `FULL_DECK` indexes.

The policy plays as the heuristic bot does, but with the cards in view: make the side's contract, take no
more tricks once bags hurt, cover a partner's nil, keep an opponent's nil under pressure. It is what the
search's playouts assume every seat does after the move being weighed. Pure: no I/O, no randomness.

The card play here (legal cards, the lowest-club lead, the spade lead, trick winners) repeats the rules
engine's on bit masks, because the policy reads every seat's cards as masks and because it is fast: a
playout that also stepped a `Game.clone()` along would cost about 1.7 times as much.
`tests/test_bots_simulate_differential.py` plays it against `Game` from random states of every preset; the two
must agree on every legal card, trick winner, trick count and score.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from p2pspades.rules import RuleSet, SeatView, SideTotal, is_nil, score_hand
from p2pspades.rules.audit import first_leader
from p2pspades.rules.cards import (
    BIG_JOKER,
    FULL_DECK,
    LITTLE_JOKER,
    NON_SPADES_MASK,
    CardOrder,
)
from p2pspades.rules.cards import SPADES_MASK as DECK_SPADES_MASK
from p2pspades.rules.cards import SUIT_MASKS as DECK_SUIT_MASKS

RAISED = 54
"""The simulator's first index above the deck's: deuces high relabels the 2S, 2D, LJ and BJ to 54 to 57."""
SUIT_OF: tuple[int, ...] = (*(card.suit.index for card in FULL_DECK), 0, 0, 0, 0)
RANK_OF: tuple[int, ...] = (*(int(card.rank) for card in FULL_DECK), 15, 16, 17, 18)
SPADES_MASK = DECK_SPADES_MASK | 0b1111 << RAISED
"""The spades of a playout: the deck's, and the cards deuces high raises."""
SUIT_MASKS = (SPADES_MASK, *DECK_SUIT_MASKS[1:])
SIDE_MASKS = SUIT_MASKS[1:]


class Relabel:
    """Deuces high: where a card stands in a playout. The cards the order raises above the ace of spades,
    then the jokers, move to `RAISED` and up, in trick order; every other card keeps its index."""

    __slots__ = ("back", "index", "moved")

    def __init__(self, order: CardOrder) -> None:
        top = (*order.high, LITTLE_JOKER, BIG_JOKER)
        moves = {card.index: RAISED + k for k, card in enumerate(top)}
        self.moved = tuple(moves.items())
        self.index = tuple(moves.get(i, i) for i in range(len(FULL_DECK)))
        self.back = {new: old for old, new in moves.items()}

    def mask(self, mask: int) -> int:
        """A mask of `FULL_DECK` indexes as the playout's."""
        out = mask
        for old, new in self.moved:
            if mask >> old & 1:
                out ^= 1 << old | 1 << new
        return out

    def card(self, index: int) -> int:
        """A playout's index as the `FULL_DECK` index of its card."""
        return self.back.get(index, index)


@functools.cache
def relabelling(order: CardOrder) -> Relabel | None:
    """The one `Relabel` of a card order (None for the standard order, whose indexes need none), made once:
    the bid search makes a `Contract` for every deal it plays."""
    return Relabel(order) if order.high else None


WIN_VALUE = 150.0
"""What winning (or losing) the game in this hand is worth, in points, on top of the hand's score."""


def top(mask: int) -> int:
    """The highest card of a non-empty mask (of one suit)."""
    return mask.bit_length() - 1


def low(mask: int) -> int:
    """The lowest card of a non-empty mask (of one suit)."""
    return (mask & -mask).bit_length() - 1


def above(card: int) -> int:
    """The mask of every card with a higher index (within its suit: the higher cards)."""
    return ~((2 << card) - 1)


def lowest_rank(mask: int) -> int:
    """The lowest-ranked card of a non-empty mask, side suits before spades."""
    sides = mask & NON_SPADES_MASK
    if not sides:
        return low(mask)
    lowest, rank = -1, 99
    for m in SIDE_MASKS:  # the first of the lowest ranks, as min() would take it
        held = sides & m
        if held:
            card = (held & -held).bit_length() - 1
            if RANK_OF[card] < rank:
                lowest, rank = card, RANK_OF[card]
    return lowest


def highest_rank(mask: int) -> int:
    """The highest-ranked card of a non-empty mask, spades first (the card most likely to win later)."""
    if mask & SPADES_MASK:
        return top(mask & SPADES_MASK)
    return max((top(mask & m) for m in SUIT_MASKS[1:] if mask & m), key=RANK_OF.__getitem__)


def bags_hurt(rules: RuleSet) -> bool:
    """Do overtricks cost anything (so that a side that has made its contract stops taking tricks)? Where
    they do not, every seat wants every trick, and no seat's play depends on the bids (nil aside)."""
    return rules.overtrick_points < 0 or rules.bag_limit is not None


class Contract:
    """What one hand's bids mean for play and scoring: sides, partners, nil bidders and contracts."""

    __slots__ = (
        "any_nil",
        "bags_hurt",
        "bids",
        "blind",
        "broken_only",
        "contract",
        "counted",
        "counts",
        "n",
        "nil",
        "partner",
        "relabel",
        "rules",
        "side_of",
        "sides",
    )

    def __init__(self, rules: RuleSet, bids: Sequence[int], blind: Sequence[bool]) -> None:
        self.rules = rules
        #: deuces high: the cards' indexes inside a playout (None: the standard order, every index its own)
        self.relabel = relabelling(rules.order)
        self.n = rules.players
        self.bids = tuple(bids)
        self.blind = tuple(blind)
        self.sides = rules.sides
        self.side_of = tuple(rules.side_of(seat) for seat in range(self.n))
        self.partner = tuple((seat + 2) % 4 if rules.partnerships else -1 for seat in range(self.n))
        self.nil = tuple(is_nil(rules, bid, flag) for bid, flag in zip(bids, blind, strict=True))
        self.any_nil = any(self.nil)
        counts_nil = rules.nil_tricks_count_for_partner
        self.counts = tuple(counts_nil or not nil for nil in self.nil)  # do the seat's tricks count?
        self.counted = tuple(tuple(s for s in side if self.counts[s]) for side in self.sides)
        self.contract = tuple(sum(bids[s] for s in side if not self.nil[s]) for side in self.sides)
        self.bags_hurt = bags_hurt(rules)
        self.broken_only = rules.spade_lead == "broken"  # does a closed lead open only when spades break?

    def need(self, side: int, won: Sequence[int]) -> int:
        """Tricks the side still needs for its contract (0 or less: made)."""
        need = self.contract[side]
        for s in self.counted[side]:
            need -= won[s]
        return need

    def value(
        self, seat: int, won: Sequence[int], totals: Sequence[SideTotal], bag_weight: float = 1.0
    ) -> float:
        """The hand's worth to `seat`'s side: its points less the others' (their mean, in individual games),
        and the game's result if it ends here. `bag_weight` 1: every bag charged at its share of the bag
        penalty (in place of a penalty the hand reaches); 0: the points as the rules score the hand, a
        penalty the hand reaches included; between, the blend."""
        rules = self.rules
        scores, after = score_hand(rules, self.bids, self.blind, won, totals)
        limit = rules.bag_limit
        bag_cost = rules.bag_penalty / limit if limit else 0.0
        worth = [
            s.points - bag_weight * (s.penalty_points + bag_cost * s.bags) if limit else float(s.points)
            for s in scores
        ]
        mine = self.side_of[seat]
        others = [w for i, w in enumerate(worth) if i != mine]
        value = worth[mine] - sum(others) / len(others)
        best = max(t.score for t in after)
        lowest = min(t.score for t in after)
        if best >= rules.target or (rules.losing_threshold is not None and lowest <= rules.losing_threshold):
            leaders = [i for i, t in enumerate(after) if t.score == best]
            if leaders == [mine]:
                value += WIN_VALUE
            elif mine not in leaders:
                value -= WIN_VALUE
        return value


class Playout:
    """One hand in progress with every card known, played to its end by the greedy policy."""

    __slots__ = (
        "best",
        "broken",
        "closed",
        "contract",
        "hands",
        "leader",
        "must_lead",
        "plays",
        "winner",
        "won",
    )

    def __init__(
        self,
        contract: Contract,
        hands: list[int],
        won: list[int],
        leader: int,
        plays: list[tuple[int, int]],
        broken: bool,
        closed: bool,
        must_lead: int = -1,
    ) -> None:
        self.contract = contract
        self.hands = hands
        self.won = won
        self.leader = leader
        self.plays = plays
        self.broken = broken
        self.closed = closed  # may spades be led only from a hand of spades?
        self.must_lead = must_lead
        self.winner = self.best = -1  # the seat winning the trick in progress so far, and its card
        for seat, card in plays:
            self._track(seat, card)

    @classmethod
    def from_view(cls, contract: Contract, view: SeatView, hands: list[int]) -> Playout:
        """The hand in progress as `view` shows it, with every seat holding `hands` (a determinization)."""
        rules = view.rules
        trick = [(seat, card.index) for seat, card in view.trick.plays]
        closed = (
            rules.spade_lead != "always"
            and not view.spades_broken
            and not (rules.spade_lead == "not_first_trick" and view.tricks)
        )
        first = rules.first_leader == "low_club" and not view.tricks and not trick
        low_club = rules.low_club if first else None
        must_lead = -1 if low_club is None else low_club.index
        won = list(view.tricks_won)
        relabel = contract.relabel
        if relabel is not None:
            hands = [relabel.mask(hand) for hand in hands]
            trick = [(seat, relabel.index[card]) for seat, card in trick]
        return cls(contract, hands, won, view.trick.leader, trick, view.spades_broken, closed, must_lead)

    @classmethod
    def opening(cls, contract: Contract, dealer: int, hands: list[int]) -> Playout:
        """A hand from its first lead, `dealer` dealing and every seat holding `hands`."""
        rules = contract.rules
        low_club = rules.low_club if rules.first_leader == "low_club" else None
        holder = None
        if low_club is not None:
            holder = next((s for s in range(contract.n) if hands[s] >> low_club.index & 1), None)
        leader = first_leader(rules, dealer, holder)
        must_lead = low_club.index if holder is not None and low_club is not None else -1
        closed = rules.spade_lead != "always"
        relabel = contract.relabel
        if relabel is not None:
            hands = [relabel.mask(hand) for hand in hands]
        return cls(contract, hands, [0] * contract.n, leader, [], False, closed, must_lead)

    def copy(self) -> Playout:
        """An independent copy, to play out another choice from the same position."""
        copy = type(self).__new__(type(self))
        copy.contract = self.contract
        copy.hands = self.hands.copy()
        copy.won = self.won.copy()
        copy.leader = self.leader
        copy.plays = self.plays.copy()
        copy.broken = self.broken
        copy.closed = self.closed
        copy.must_lead = self.must_lead
        copy.winner = self.winner
        copy.best = self.best
        return copy

    def _track(self, seat: int, card: int) -> None:
        best = self.best
        if (
            best < 0
            or (SUIT_OF[card] == SUIT_OF[best] and card > best)
            or (SUIT_OF[card] == 0 != SUIT_OF[best])
        ):
            self.winner, self.best = seat, card

    def play_card(self, card: int) -> None:
        """The seat to move plays the card of `FULL_DECK` index `card` (which must be legal)."""
        relabel = self.contract.relabel
        self.play(card if relabel is None else relabel.index[card])

    def play(self, card: int) -> None:
        """The seat to move plays `card`, an index of the playout's (it must be legal); a full trick ends."""
        c = self.contract
        plays = self.plays
        n = c.n
        seat = (self.leader + len(plays)) % n
        self.hands[seat] &= ~(1 << card)
        plays.append((seat, card))
        best = self.best
        if best < 0:
            self.winner = seat
            self.best = best = card
        else:
            suit, best_suit = SUIT_OF[card], SUIT_OF[best]
            if (suit == best_suit and card > best) or (suit == 0 != best_suit):
                self.winner = seat
                self.best = best = card
        if len(plays) == n:
            winner = self.winner
            self.won[winner] += 1
            self.leader = winner
            self.plays = []
            if SUIT_OF[best] == 0:  # a spade won: spades were played
                self.broken = True
            self.winner = self.best = -1
            if self.closed and (self.broken or not c.broken_only):
                self.closed = False
            self.must_lead = -1

    def legal(self) -> int:
        """The mask of the cards the seat to move may play."""
        plays = self.plays
        hand = self.hands[(self.leader + len(plays)) % self.contract.n]
        if plays:
            return (hand & SUIT_MASKS[SUIT_OF[plays[0][1]]]) or hand
        if self.must_lead >= 0:
            return hand & (1 << self.must_lead) or hand
        if self.closed:
            return (hand & NON_SPADES_MASK) or hand
        return hand

    def finish(self) -> list[int]:
        """Play the hand to its end; the tricks each seat won."""
        n = self.contract.n
        hands = self.hands
        while True:
            plays = self.plays
            seat = (self.leader + len(plays)) % n
            hand = hands[seat]
            if not hand:
                return self.won
            if plays:
                legal = (hand & SUIT_MASKS[SUIT_OF[plays[0][1]]]) or hand
            elif self.must_lead >= 0:
                legal = hand & (1 << self.must_lead) or hand
            elif self.closed:
                legal = (hand & NON_SPADES_MASK) or hand
            else:
                legal = hand
            if legal & (legal - 1) == 0:
                self.play(legal.bit_length() - 1)
            elif plays:
                self.play(self.follow(seat, legal))
            else:
                self.play(self.lead(seat, legal))

    # ----- the policy -------------------------------------------------------------------------------------

    def nil_alive(self, seat: int) -> bool:
        return self.contract.any_nil and self.contract.nil[seat] and self.won[seat] == 0

    def wants(self, seat: int) -> bool:
        """Does the seat's side want tricks: until the contract is made, then only where bags are free or to
        set an opponent side within reach."""
        c = self.contract
        if not c.bags_hurt:
            return True
        side = c.side_of[seat]
        won = self.won
        if c.need(side, won) > 0:
            return True
        if c.partner[seat] < 0:
            return False
        other = 1 - side
        need = c.need(other, won)
        left = self.hands[seat].bit_count()  # tricks left, this one included
        return need > 0 and left - need + 1 <= 2

    def can_beat(self, seat: int, card: int, led: int) -> bool:
        """Could `seat`, still to play in a trick led in `led`, beat `card`?"""
        hand = self.hands[seat]
        follow = hand & SUIT_MASKS[led]
        if follow:
            return SUIT_OF[card] == led and top(follow) > card
        spades = hand & SPADES_MASK
        return bool(spades) and (SUIT_OF[card] != 0 or top(spades) > card)

    def choose(self, seat: int, legal: int) -> int:
        if not self.plays:
            return self.lead(seat, legal)
        return self.follow(seat, legal)

    def lead(self, seat: int, legal: int) -> int:
        c = self.contract
        hands = self.hands
        others = 0
        for s in range(c.n):
            if s != seat:
                others |= hands[s]
        if c.any_nil:
            if self.nil_alive(seat):
                return lowest_rank(legal)
            partner = c.partner[seat]
            if partner >= 0 and self.nil_alive(partner):
                return self._cover_lead(partner, legal, others)
            card = self._lead_at_nil(seat, legal)
            if card >= 0:
                return card
        if self.wants(seat):
            winners = [
                x
                for x in tops(legal)
                if not others & SUIT_MASKS[SUIT_OF[x]] & above(x)
                and (SUIT_OF[x] == 0 or not self._void_ruffer(seat, SUIT_OF[x]))
            ]
            if winners:
                sides = [x for x in winners if SUIT_OF[x] != 0]
                return max(sides or winners, key=RANK_OF.__getitem__)
        return lowest_rank(legal)

    def _cover_lead(self, partner: int, legal: int, others: int) -> int:
        """A lead for a partner's nil: our highest cards, the ones that stand first."""
        return max(tops(legal), key=lambda x: (not others & SUIT_MASKS[SUIT_OF[x]] & above(x), RANK_OF[x]))

    def _lead_at_nil(self, seat: int, legal: int) -> int:
        """A lead under an opponent's live nil: our lowest card under its lowest in a suit it holds (-1:
        no nil, or no such card)."""
        c = self.contract
        side = c.side_of[seat]
        for s in range(c.n):
            if c.side_of[s] != side and self.nil_alive(s):
                nil_hand = self.hands[s]
                for m in SUIT_MASKS[1:] + SUIT_MASKS[:1]:
                    mine = legal & m
                    if mine and nil_hand & m and low(mine) < low(nil_hand & m):
                        return low(mine)
        return -1

    def _void_ruffer(self, seat: int, suit: int) -> bool:
        """Is some opponent of `seat` void in `suit` and holding a spade?"""
        c = self.contract
        side = c.side_of[seat]
        for s in range(c.n):
            hand = self.hands[s]
            if c.side_of[s] != side and hand and not hand & SUIT_MASKS[suit] and hand & SPADES_MASK:
                return True
        return False

    def follow(self, seat: int, legal: int) -> int:
        """A card for a trick already led: a nil bid still alive decides first, then whether the side wants
        the trick."""
        plays = self.plays
        c = self.contract
        n = c.n
        led = SUIT_OF[plays[0][1]]
        win = self._winning(legal, led)
        lose = legal & ~win
        leader = self.leader
        later = [(leader + i) % n for i in range(len(plays) + 1, n)]  # the seats still to play
        if c.any_nil:
            card = self._follow_nils(seat, legal, led, win, later)
            if card >= 0:
                return card
        if self.wants(seat):
            return self._take(seat, led, win, lose, later)
        return _duck(win, lose, led, later)

    def _winning(self, legal: int, led: int) -> int:
        """The legal cards that would win the trick so far."""
        best = self.best
        best_suit = SUIT_OF[best]
        if legal & SUIT_MASKS[led]:
            return legal & above(best) if best_suit == led else 0
        if best_suit == 0:
            return legal & SPADES_MASK & above(best)
        return legal & SPADES_MASK

    def _follow_nils(self, seat: int, legal: int, led: int, win: int, later: list[int]) -> int:
        """The card a nil bid still alive calls for (-1: none does): our own nil ducks, a partner's nil is
        covered, an opponent's nil is kept under: we play under a nil that is winning, and low ahead of one
        still to play, our partner winning or not (overtaking its card there would save the nil)."""
        c = self.contract
        nil, won = c.nil, self.won
        lose = legal & ~win
        if nil[seat] and not won[seat]:
            return _duck(win, lose, led, later)
        partner = c.partner[seat]
        winner = self.winner
        if partner >= 0 and nil[partner] and not won[partner]:
            card = self._cover_follow(partner, legal, led, win, lose, later)
            if card >= 0:
                return card
        side = c.side_of[seat]
        nils = [s for s in range(c.n) if nil[s] and not won[s] and c.side_of[s] != side]
        if nils:
            if winner in nils and lose:
                return dump(lose, led)
            if any(s in later for s in nils):
                return discard(legal, led) if not win or lose else low(win)
        return -1

    def _cover_follow(self, partner: int, legal: int, led: int, win: int, lose: int, later: list[int]) -> int:
        """A card for a partner's nil (-1: none called for): over it when it is winning, high ahead of it."""
        if self.winner == partner:
            return _win_low(win, lose, led)
        if partner in later:
            following = legal & SUIT_MASKS[led]
            return top(following) if following else _win_low(win, lose, led)
        return -1

    def _take(self, seat: int, led: int, win: int, lose: int, later: list[int]) -> int:
        """The side wants the trick: leave it to a partner who holds it safely, else win it with the lowest
        card no opponent still to play can beat, else lose cheaply."""
        c = self.contract
        partner = c.partner[seat]
        partner_wins = partner >= 0 and self.winner == partner
        if not later:
            return _lose_low(win, lose, led) if partner_wins else _win_low(win, lose, led)
        side = c.side_of[seat]
        # what the opponents still to play could beat (`can_beat`, worked out once): the suit led under the
        # highest card they follow with; while one is void there with spades, side cards, spades under its top
        follow = ruff = -1
        for s in later:
            if c.side_of[s] != side:
                hand = self.hands[s]
                if held := hand & SUIT_MASKS[led]:
                    follow = max(follow, held.bit_length() - 1)
                elif spades := hand & SPADES_MASK:
                    ruff = max(ruff, spades.bit_length() - 1)

        def beaten(card: int) -> bool:
            suit = SUIT_OF[card]
            return (suit == led and follow > card) or (ruff >= 0 and (suit != 0 or ruff > card))

        if partner_wins and not beaten(self.best):
            return _lose_low(win, lose, led)
        rest = win
        while rest:
            x = (rest & -rest).bit_length() - 1
            if not beaten(x):
                return x
            rest &= rest - 1
        return _lose_low(win, lose, led)


def tops(mask: int) -> list[int]:
    """The highest card of each suit in the mask."""
    return [(mask & m).bit_length() - 1 for m in SUIT_MASKS if mask & m]


def discard(mask: int, led: int) -> int:
    """Lose cheaply: the lowest card of the led suit, else the lowest-ranked side card."""
    follow = mask & SUIT_MASKS[led]
    return low(follow) if follow else lowest_rank(mask)


def dump(mask: int, led: int) -> int:
    """Lose expensively: the highest card of the led suit under the winner, else the most dangerous card."""
    follow = mask & SUIT_MASKS[led]
    return top(follow) if follow else highest_rank(mask)


def _win_low(win: int, lose: int, led: int) -> int:
    """Win with the lowest winning card, else lose cheaply."""
    return low(win) if win else discard(lose, led)


def _lose_low(win: int, lose: int, led: int) -> int:
    """Lose cheaply, else win with the lowest winning card."""
    return discard(lose, led) if lose else low(win)


def _duck(win: int, lose: int, led: int, later: Sequence[int]) -> int:
    """Stay out of the trick: lose expensively; forced to win, win low while others are still to play
    (one of them may overtake), or with the most dangerous card when last."""
    if lose:
        return dump(lose, led)
    return low(win) if later else highest_rank(win)
