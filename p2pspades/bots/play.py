"""Card play for the heuristic bot: make the side's contract and no more, cover a partner's nil, go after an
opponent's nil and set an opponent side when it is within reach.

Pure: no I/O and no randomness.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from p2pspades.bots.odds import ALL_SUITS, SIDE_SUITS, SPADES, Reading
from p2pspades.rules import Action, Card, Play, RuleSet, SeatView


def choose_card(view: SeatView, legal: Sequence[Action]) -> Action:
    """The card to play, as one of the legal `Play` actions."""
    plays = {action.card: action for action in legal if isinstance(action, Play)}
    if not plays:
        return legal[0]
    cards = list(plays)
    if len(cards) == 1:
        return plays[cards[0]]
    table = Reading(view)
    if table.nil_alive(table.seat):
        card = _play_nil(table, cards)
    elif not table.plays:
        card = _lead(table, cards)
    else:
        card = _follow(table, cards)
    return plays[card]


# ----- play: wanting and not wanting tricks ---------------------------------------------------------------


def _wants_tricks(table: Reading) -> bool:
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


def _set_within_reach(table: Reading) -> bool:
    """Can we set an opponent side by taking one or two of the remaining tricks?"""
    if table.partner is None:
        return False
    opponents = 1 - table.side
    need = table.need(opponents)
    return need > 0 and table.tricks_left - need + 1 <= 2


def _opponent_nils(table: Reading) -> list[int]:
    return [s for s in table.opponents() if table.nil_alive(s)]


def _cheap_to_bust(table: Reading) -> bool:
    """Going after an opponent's nil costs us little: we need few of the tricks left."""
    return table.need(table.side) <= table.tricks_left - 2 or not _wants_tricks(table)


def lowest(table: Reading, cards: Iterable[Card]) -> Card:
    return min(cards, key=table.cost)


def highest(table: Reading, cards: Iterable[Card]) -> Card:
    return max(cards, key=table.cost)


# ----- leading --------------------------------------------------------------------------------------------


def _lead(table: Reading, cards: list[Card]) -> Card:
    if table.partner is not None and table.nil_alive(table.partner):
        # cover: lead our surest high card, so the nil bidder can play under it
        return max(cards, key=lambda c: (round(table.hold_chance(c), 2), table.rank(c)))
    nils = _opponent_nils(table)
    if nils and _cheap_to_bust(table):
        card = _lead_against_nil(table, cards, nils)
        if card is not None:
            return card
    if _wants_tricks(table):
        return _lead_to_win(table, cards)
    return _lead_to_lose(table, cards)


def _lead_against_nil(table: Reading, cards: list[Card], nils: list[int]) -> Card | None:
    """Lead low in a suit the nil bidder still holds: each round it has fewer low cards to duck with."""
    options = [c for c in cards if all(table.suit(c) not in table.view.voids[s] for s in nils)]
    sides = [c for c in options if table.suit(c) is not SPADES] or options
    if not sides:
        return None
    # our longest suit, its lowest card, and only if some unseen card of that suit is below nothing of ours
    suits = table.by_suit(sides)
    suit = max((s for s in ALL_SUITS if suits[s]), key=lambda s: (len(suits[s]), -table.rank(suits[s][-1])))
    low = suits[suit][-1]
    if table.top_share(low) > 0.5:
        return None
    return low


def _lead_to_win(table: Reading, cards: list[Card]) -> Card:
    chances = {c: table.hold_chance(c) for c in cards}
    winners = [c for c in cards if chances[c] >= 0.7]
    if winners:
        hand_suits = table.by_suit(table.hand)
        spades = hand_suits[SPADES]
        unseen_spades = len(table.unseen_by_suit[SPADES])
        side_winners = [c for c in winners if table.suit(c) is not SPADES]
        spade_winners = [c for c in winners if table.suit(c) is SPADES]
        # draw trumps first when we hold the top spade and most of the rest: our side winners then stand
        if spade_winners and side_winners and len(spades) > unseen_spades:
            return max(spade_winners, key=lambda c: table.rank(c))
        if side_winners:
            return max(side_winners, key=lambda c: (round(chances[c], 2), table.rank(c)))
        return max(spade_winners, key=lambda c: table.rank(c))
    return _lead_low(table, cards)


def _lead_low(table: Reading, cards: list[Card]) -> Card:
    """No sure winner: lead low, from a short side suit when we can ruff later, else the longest; never away
    from a guarded honour (a king or queen waiting for the cards above it to fall)."""
    suits = table.by_suit(cards)
    has_spades = bool(table.by_suit(table.hand)[SPADES])
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
        score -= table.rank(low) * 0.05
        if score > best_score:
            best, best_score = low, score
    if best is not None:
        return best
    return lowest(table, cards)


def _lead_to_lose(table: Reading, cards: list[Card]) -> Card:
    """Contract made, bags hurt: lead the card least likely to win; among those, the highest (unload it)."""
    chances = {c: table.hold_chance(c) for c in cards}
    floor = min(chances.values())
    safe = [c for c in cards if chances[c] <= floor + 0.05]
    return max(safe, key=lambda c: (-table.cost(c)[0], table.rank(c)))


# ----- following ------------------------------------------------------------------------------------------


def _follow(table: Reading, cards: list[Card]) -> Card:
    best = table.best
    assert best is not None and table.winner is not None
    winning = [c for c in cards if table.beats(c, best)]
    losing = [c for c in cards if not table.beats(c, best)]
    partner = table.partner

    if partner is not None and table.nil_alive(partner):
        card = _cover(table, cards, winning)
        if card is not None:
            return card

    nils = _opponent_nils(table)
    if nils and _cheap_to_bust(table):
        if table.winner in nils and losing:
            # the nil bidder is winning: stay under it
            return highest(table, losing) if not _wants_tricks(table) else lowest(table, losing)
        if any(s in table.later for s in nils) and losing and table.winner != partner:
            # the nil bidder plays after us: leave it room to be forced over our card
            return lowest(table, losing)

    if _wants_tricks(table):
        return _follow_to_win(table, cards, winning, losing)
    return _follow_to_lose(table, cards, winning, losing)


def _cover(table: Reading, cards: list[Card], winning: list[Card]) -> Card | None:
    """Partner bid nil: overtake it when it is winning, and play high ahead of it."""
    partner = table.partner
    if table.winner == partner:
        if winning:
            # any card over the nil bidder's saves it: the cheapest one likely to hold, else the lowest
            holding = [c for c in winning if table.hold_chance(c) >= 0.6]
            return lowest(table, holding) if holding else lowest(table, winning)
        return None
    if partner not in table.later:
        return None  # partner already played under someone else's card
    best = table.best
    assert best is not None and table.led is not None
    # is the winning card already high enough that partner will fit under it?
    if table.suit(best) is SPADES and table.led is not SPADES:
        return None  # trumped: partner following suit is safe
    if table.top_share(best) >= 0.75:
        return None
    if winning:
        follow = [c for c in winning if table.suit(c) is table.led]
        if follow:
            return highest(table, follow)
        return lowest(table, winning)  # a ruff is high enough for a partner who follows suit
    return None


def _follow_to_win(table: Reading, cards: list[Card], winning: list[Card], losing: list[Card]) -> Card:
    partner = table.partner
    if partner is not None and table.winner == partner:
        return _over_partner(table, winning, losing)
    if not winning:
        return _discard_low(table, losing)
    if not table.later:
        return lowest(table, winning)  # last to play: win as cheaply as possible
    chances = {c: table.hold_chance(c) for c in winning}
    sure = sorted((c for c in winning if chances[c] >= 0.8), key=table.cost)
    if partner is not None and partner in table.later:
        # second hand low: win now only with a card that cannot be beaten in its suit (or a safe ruff)
        if sure and (_is_top(table, sure[0]) or table.suit(sure[0]) is not table.led):
            return sure[0]
        return _discard_low(table, losing) if losing else lowest(table, winning)
    if sure:
        return sure[0]
    # third hand high: the winner most likely to hold, the cheapest of equals
    card = max(winning, key=lambda c: (round(chances[c], 1), [-x for x in table.cost(c)]))
    if chances[card] >= 0.3 or not losing:
        return card
    return _discard_low(table, losing)


def _over_partner(table: Reading, winning: list[Card], losing: list[Card]) -> Card:
    """The partner is winning: don't overtake it, unless its card is likely to be beaten and ours is
    likelier to hold."""
    partner_holds = _partner_holds(table)
    if partner_holds >= 0.6 or not winning:
        return _discard_low(table, losing) if losing else lowest(table, winning)
    options = [(table.hold_chance(c), c) for c in winning]
    chance, card = max(options, key=lambda pc: (round(pc[0], 2), [-x for x in table.cost(pc[1])]))
    if chance > partner_holds + 0.2:
        return card
    return _discard_low(table, losing) if losing else lowest(table, winning)


def _partner_holds(table: Reading) -> float:
    """P(partner's winning card holds against the seats still to play)."""
    best = table.best
    led = table.led
    assert best is not None and led is not None
    p = 1.0
    for seat in table.later:
        p *= 1.0 - table.beat_chance(seat, best, led)
    return p


def _is_top(table: Reading, card: Card) -> bool:
    """No unseen card of its suit ranks higher."""
    return all(table.rank(c) < table.rank(card) for c in table.unseen_by_suit[table.suit(card)])


def _discard_low(table: Reading, losing: list[Card]) -> Card:
    """Lose as cheaply as possible: the lowest card of the led suit, or, when void, the least useful card,
    preferably from a short side suit (making a void to ruff later)."""
    led = table.led
    follow = [c for c in losing if table.suit(c) is led]
    if follow:
        return lowest(table, follow)
    sides = [c for c in losing if table.suit(c) is not SPADES]
    if not sides:
        return lowest(table, losing)
    hand_suits = table.by_suit(table.hand)

    def worth(card: Card) -> tuple[float, float]:
        keep = table.top_share(card) * 10 + table.rank(card) * 0.1
        if _is_top(table, card):
            keep += 5
        return (keep + 0.3 * len(hand_suits[table.suit(card)]), table.rank(card))

    return min(sides, key=worth)


def _follow_to_lose(table: Reading, cards: list[Card], winning: list[Card], losing: list[Card]) -> Card:
    """Contract made and bags hurt: duck with the highest card that still loses; when void, unload the card
    most likely to win a trick later; when every card wins, give the seats after us the best chance to
    overtake (or, last to play, win with the highest card)."""
    if losing:
        return _dump(table, losing)
    if table.later:
        return min(winning, key=lambda c: (table.hold_chance(c), table.cost(c)))
    return highest(table, winning)


def _dump(table: Reading, losing: list[Card]) -> Card:
    led = table.led
    follow = [c for c in losing if table.suit(c) is led]
    if follow:
        return highest(table, follow)
    # void: throw the card most likely to take an unwanted trick later
    return max(
        losing, key=lambda c: (table.top_share(c) + (0.5 if table.suit(c) is SPADES else 0.0), table.rank(c))
    )


# ----- nil ------------------------------------------------------------------------------------------------


def _play_nil(table: Reading, cards: list[Card]) -> Card:
    """Our own nil: play the highest card that still loses; when void, unload the most dangerous card."""
    if not table.plays:
        chances = {c: table.hold_chance(c, with_partner=True) for c in cards}
        floor = min(chances.values())
        safe = [c for c in cards if chances[c] <= floor + 0.02]
        return max(safe, key=lambda c: (-table.cost(c)[0], table.rank(c)))
    best = table.best
    assert best is not None
    losing = [c for c in cards if not table.beats(c, best)]
    if losing:
        return _dump(table, losing)
    if table.later:
        # forced over: the card most likely to be overtaken by the seats after us (partner included)
        return min(cards, key=lambda c: (table.hold_chance(c, with_partner=True), table.cost(c)))
    return highest(table, cards)  # the trick is ours anyway: get rid of the highest card
