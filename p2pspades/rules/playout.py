"""Driving a game by hand-written policy: for tests, simulations and bots' look-ahead.

The engine has no randomness of its own, so the shuffle and the choices come in as functions (for example a
seeded `random.Random`'s `shuffle` and `choice`). Everything here works with full knowledge of the cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2pspades.rules.actions import Action, Reveal, deal_from_order
from p2pspades.rules.cards import Card
from p2pspades.rules.engine import Game
from p2pspades.rules.errors import IllegalAction
from p2pspades.rules.results import HandResult
from p2pspades.rules.ruleset import RuleSet
from p2pspades.rules.view import Phase

Shuffle = Callable[[list[Card]], None]
Choose = Callable[[Sequence[Action]], Action]


def play_hand(game: Game, shuffle: Shuffle, choose: Choose) -> HandResult:
    """Play the game's current hand to its end (blind-nil answers, deal, draw, bids, cards, reveal)."""
    if game.phase is Phase.GAME_OVER:
        raise IllegalAction("the game is over")
    number = game.hand_number
    while game.phase is Phase.BLIND:
        game.apply(choose(game.legal_actions()))
    if game.phase is Phase.DEAL:
        cards = list(game.rules.deck)
        shuffle(cards)
        game.apply(deal_from_order(game.rules, game.dealer, cards))
    while game.current_seat is not None:
        game.apply(choose(game.legal_actions()))
    hands = game.initial_hands()
    if game.phase is not Phase.REVEAL or hands is None:
        raise IllegalAction("play_hand needs every card known to this engine")
    game.apply(Reveal(hands))
    result = game.history[-1]
    assert result.number == number
    return result


def play_game(rules: RuleSet, first_dealer: int, shuffle: Shuffle, choose: Choose, max_hands: int) -> Game:
    """Play a whole game, or `max_hands` hands if it has not ended by then."""
    game = Game(rules, first_dealer)
    while game.phase is not Phase.GAME_OVER and len(game.history) < max_hands:
        play_hand(game, shuffle, choose)
    return game
