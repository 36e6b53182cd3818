"""Hands played out with forced cards, for the tests of the scoring house rules."""

from __future__ import annotations

from p2pspades.rules import Bid, Card, Game, Reveal, RuleSet, Suit, deal_from_order


def every_trick_to_seat_0(rules: RuleSet, bids: tuple[int, int, int, int]) -> Game:
    """A whole hand in which seat 0 holds every spade and leads every trick, so side 0 takes all 13."""
    spades = [card for card in rules.deck if card.suit is Suit.SPADES]
    others = [card for card in rules.deck if card.suit is not Suit.SPADES]
    cards: list[Card] = []
    for spade in spades:  # dealer 3: seat 0 gets cards 0, 4, 8, ...
        cards += [spade, others.pop(), others.pop(), others.pop()]
    game = Game(rules, 3)
    game.apply(deal_from_order(rules, 3, cards))
    for bid in bids:
        game.apply(Bid(bid))
    while game.current_seat is not None:
        game.apply(game.legal_actions()[0])
    game.apply(Reveal(game.initial_hands() or ()))
    assert game.history[-1].tricks_won == (13, 0, 0, 0)
    return game
