"""Partial knowledge of hidden hands: what an engine that does not see every card may conclude.

A peer's engine knows its own cards and the public record only; an observer (the verifier, a table with no
seat) knows none. A hand is then a mask of the known cards plus a count of unknown ones (`HandState`). These
functions answer, from the public record alone, what such an engine must ask: which cards a seat might still
hold, whether a card played from its unknown ones is possible at all, who leads the lowest club, what a
stock card seen later makes known, whether the hands revealed at the end agree with everything seen, and how
an engine forgets every hidden card to become an observer (`Game.public_clone`).

With every card known none of this runs: that is the engine's fast path.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pspades.errors import N_, Detail
from p2pspades.rules.actions import Reveal
from p2pspades.rules.cards import SUITS, Card, cards_of
from p2pspades.rules.errors import (
    BadDeal,
    BadReveal,
    BadSeat,
    CardNotInHand,
    IllegalAction,
    NotYourTurn,
    PublicInconsistency,
    WrongLead,
)
from p2pspades.rules.hand import HandState
from p2pspades.rules.ruleset import RuleSet

Hands = tuple[tuple[Card, ...], ...]  # every seat's cards


def possible_unknown(rules: RuleSet, hand: HandState, seat: int) -> int:
    """The cards a seat might be holding among its unknown cards, given the public record: in the deck, not
    played, not discarded, not known to be elsewhere, not of a suit it has shown void in."""
    mask = rules.deck_mask & ~sum(hand._played_by()) & ~hand._discarded
    for known in hand._known:
        mask &= ~known
    voids = hand._voids[seat]
    suit_masks = rules.order.suit_masks
    for suit in range(4):
        if voids >> suit & 1:
            mask &= ~suit_masks[suit]
    return mask


def legal_mask_partial(rules: RuleSet, hand: HandState, seat: int) -> int:
    """The cards a seat holding unknown cards may play now, as far as the public record can tell: a card it
    might hold, of the led suit if it is known to hold one, the lowest club for a "low_club" first lead, no
    spade lead while the spade rule forbids it and it is known to hold another suit."""
    known = hand._known[seat]
    candidates = known | possible_unknown(rules, hand, seat)
    led = hand._led
    if led >= 0:
        return (known & rules.order.suit_masks[led]) or candidates
    if hand._must_lead is not None:
        return candidates & hand._must_lead._bit
    if hand._closed:
        non_spades = rules.order.non_spades_mask
        return candidates & non_spades if known & non_spades else candidates
    return candidates


def check_unknown_play(rules: RuleSet, hand: HandState, seat: int, card: Card) -> None:
    """A card that is not among the seat's known cards: possible only from its unknown ones, and only if the
    public record does not place it elsewhere or show the seat void in its suit."""
    bit = card._bit
    if not hand._unknown[seat]:
        raise CardNotInHand(N_("seat {seat} does not hold {card}"), seat, seat=seat, card=card)
    if not bit & rules.deck_mask:
        raise CardNotInHand(N_("{card} is not in this game's deck"), seat, card=card)
    played_by = hand._played_by()
    if bit & sum(played_by):
        player = next(s for s in range(len(played_by)) if played_by[s] & bit)
        raise PublicInconsistency(N_("{card} was already played by seat {player} this hand"), seat,
                                  card=card, player=player)
    for other, known in enumerate(hand._known):
        if known & bit:
            raise PublicInconsistency(N_("seat {seat} cannot hold {card}: seat {other} holds it"), seat,
                                      seat=seat, card=card, other=other)
    if bit & hand._discarded:
        raise PublicInconsistency(N_("seat {seat} cannot hold {card}: it was discarded"), seat, seat=seat,
                                  card=card)
    suit = rules.order.suit_of[card.index]
    note = hand._void_notes.get((seat, suit))
    if note is not None:
        trick, spade = note
        if spade is None:
            raise PublicInconsistency(N_("seat {seat} showed void in {suit} on trick {trick} and now plays "
                                         "{card}"), seat, seat=seat, suit=Detail(SUITS[suit].noun),
                                      trick=trick + 1, card=card)
        raise PublicInconsistency(N_("seat {seat} led {spade} on trick {trick}, which only a hand of spades "
                                     "could do, and now plays {card}"), seat, seat=seat, spade=spade,
                                  trick=trick + 1, card=card)


def holder(hand: HandState, card: Card) -> int | None:
    """The seat that holds `card` (the lowest club, who leads first under "low_club"): the seat known to
    hold it, else the only seat with unknown cards; None when this engine cannot tell."""
    holders = [seat for seat, known in enumerate(hand._known) if known & card._bit]
    if not holders:
        holders = [seat for seat, unknown in enumerate(hand._unknown) if unknown]
    return holders[0] if len(holders) == 1 else None


def claim_first_lead(hand: HandState, card: Card, seat: int | None) -> int:
    """Rule "low_club" when this engine does not know who holds the lowest club: the sender says so, and
    the lead is taken if the seat may hold it."""
    low = hand._must_lead
    if seat is None:
        raise NotYourTurn(
            f"this engine does not know who holds {low}; pass the seat that leads it: apply(action, seat)")
    if not isinstance(seat, int) or not 0 <= seat < len(hand._known):
        raise BadSeat(f"no seat {seat!r} at this table")
    if card is not low:
        raise WrongLead(N_("the first lead must be {low}, not {card}"), seat, low=low, card=card)
    if not hand._unknown[seat] and not hand._known[seat] & card._bit:
        raise CardNotInHand(N_("seat {seat} does not hold {card}"), seat, seat=seat, card=card)
    return seat


def learn(rules: RuleSet, hand: HandState, stock_index: int, card: Card) -> None:
    """Draw pile: the stock card at `stock_index` is `card` (seen by this engine's seat); a contradiction
    with what is known is refused."""
    if not isinstance(card, Card):
        raise BadDeal(f"learn() needs a card, got {card!r}")
    if not isinstance(stock_index, int) or isinstance(stock_index, bool) or not (
        0 <= stock_index < len(hand._stock)
    ):
        raise BadDeal(N_("stock index must be 0 to {count}, got {stock_index}"), count=len(hand._stock) - 1,
                      stock_index=repr(stock_index))
    current = hand._stock[stock_index]
    if current is card:
        return
    if current is not None:
        raise PublicInconsistency(N_("stock card {stock_index} is known to be {current}, not {card}"),
                                  stock_index=stock_index, current=current, card=card)
    if not card._bit & rules.deck_mask:
        raise BadDeal(N_("{card} is not in this game's deck"), card=card)
    if card._bit & hand._stock_known:
        raise PublicInconsistency(N_("{card} is already known to be stock card {index}"), card=card,
                                  index=hand._stock.index(card))
    hand._stock[stock_index] = card
    hand._stock_known |= card._bit
    owner = hand._stock_owner[stock_index]
    if owner == -1:
        hand._discarded |= card._bit
    elif owner is not None:
        hand._known[owner] |= card._bit
        hand._unknown[owner] -= 1


def check_revealed(rules: RuleSet, hand: HandState, reveal: Reveal) -> None:
    """`BadReveal` unless the hands revealed at the end of a hand agree with what this engine saw: a hand
    per seat, each of the size dealt, the deck's cards, every card known to be a seat's in its hand, and
    every card it played from cards this engine did not know among them."""
    hands = reveal.hands
    n = len(hand._known)
    if len(hands) != n:
        raise BadReveal(N_("a reveal needs {n} hands, got {count}"), n=n, count=len(hands))
    size = rules.hand_size
    dealt = hand._dealt if len(hand._dealt) == n else ()
    masks: tuple[int, ...] = ()
    played_by: list[int] = []
    for seat, cards in enumerate(hands):
        if len(cards) != size:
            raise BadReveal(N_("seat {seat} revealed {count} cards; it held {size}"), seat, seat=seat,
                            count=len(cards), size=size)
        if dealt and cards is dealt[seat] and not hand._start_unknown[seat]:
            continue  # the very tuple of cards the deal checked and this engine knew all along
        masks = masks or _revealed_masks(rules, reveal)
        mask = masks[seat]
        if hand._start_known[seat] & ~mask:
            card = cards_of(hand._start_known[seat] & ~mask)[0]
            raise BadReveal(N_("seat {seat} was known to hold {card}, but its revealed hand does not"),
                            seat, seat=seat, card=card)
        if hand._start_unknown[seat]:  # it played cards this engine did not know: were they its own?
            played_by = played_by or hand._played_by()
            if played_by[seat] & ~mask:
                card = cards_of(played_by[seat] & ~mask)[0]
                raise BadReveal(N_("seat {seat} played {card}, but its revealed hand lacks it"), seat,
                                seat=seat, card=card)


def _revealed_masks(rules: RuleSet, reveal: Reveal) -> tuple[int, ...]:
    """The revealed hands as masks, once they are known to hold no card twice and only the deck's."""
    try:
        masks = reveal.masks()
    except IllegalAction as exc:
        raise BadReveal(N_("the revealed hands: {exc}"), exc=exc) from None
    strays = sum(masks) & ~rules.deck_mask
    if strays:
        raise BadReveal(N_("{card} is revealed, but it is not in this game's deck"), card=cards_of(strays)[0])
    return masks


def initial_hands(hand: HandState, masks: Sequence[int], unknown: Sequence[int]) -> Hands | None:
    """Every seat's cards from `masks` (the known cards at the start of play, or during the bidding), if
    this engine knows them all (`unknown` all 0), else None."""
    if any(unknown):
        return None
    if len(hand._dealt) == len(masks):
        return hand._dealt  # type: ignore[return-value]  # every card known, so no None in it
    return tuple(cards_of(mask) for mask in masks)


def forget_cards(hand: HandState) -> None:
    """Forget every card still hidden, in the hands and in the stock, as an observer never knew them; the
    cards each seat holds become a count (see `Game.public_clone`)."""
    n = hand._n
    hand._unknown = [hand.hand_size(seat) for seat in range(n)]
    hand._known = [0] * n
    if hand._start_known:
        starts = zip(hand._start_known, hand._start_unknown, strict=True)
        hand._start_unknown = tuple(known.bit_count() + unknown for known, unknown in starts)
        hand._start_known = (0,) * n
    hand._dealt = tuple((None,) * len(cards) for cards in hand._dealt)
    received = zip(hand._received, hand._received_unknown, strict=True)
    hand._received_unknown = [known.bit_count() + unknown for known, unknown in received]
    hand._received = [0] * n
    hand._passes = [(seat, partner, (None,) * len(cards)) for seat, partner, cards in hand._passes]
    hand._suits = [[(), (), (), ()] for _ in hand._suits]
    hand._slow = True
    hand._stock = [None] * len(hand._stock)
    hand._stock_known = 0
    hand._discarded = 0
