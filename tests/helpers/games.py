"""Games of the rules engine driven by hand, for the bot tests: constructed deals, decisions, whole hands."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from p2pspades.bots import HeuristicBot
from p2pspades.rules import (
    Action,
    Bid,
    ByteStream,
    Card,
    Deal,
    Game,
    Phase,
    Play,
    Reveal,
    RuleSet,
    deal_from_order,
    parse_cards,
    preset,
)
from p2pspades.table.events import Decision, DecisionKind

Bot = Callable[[Decision], Action]

KINDS = {
    Phase.BLIND: DecisionKind.BLIND_NIL,
    Phase.DRAW: DecisionKind.DRAW,
    Phase.BID: DecisionKind.BID,
    Phase.PASS: DecisionKind.PASS,
    Phase.PLAY: DecisionKind.PLAY,
}


def decision(game: Game) -> Decision:
    """The current seat's decision, as a peer would hand it to its player."""
    seat = game.current_seat
    assert seat is not None
    return Decision(KINDS[game.phase], game.view(seat), tuple(game.legal_actions()))


def dealt(rules: RuleSet, dealer: int, hands: Sequence[str]) -> Game:
    """A game whose first hand deals exactly these hands (card codes, one string per seat)."""
    game = Game(rules, dealer)
    assert game.phase is Phase.DEAL
    game.apply(Deal(tuple(tuple(parse_cards(text)) for text in hands)))
    return game


def apply_all(game: Game, actions: Sequence[Action]) -> None:
    for action in actions:
        game.apply(action)


def plays(text: str) -> list[Action]:
    return [Play(card) for card in parse_cards(text)]


def beats(card: Card, best: Card) -> bool:
    """Whether `card` beats `best` in a trick that `best` is winning (spades trump)."""
    if card.suit is best.suit:
        return card.rank > best.rank
    return card.suit.value == "S"


def shuffled(rules: RuleSet, seed: bytes) -> list[Card]:
    cards = list(rules.deck)
    ByteStream(seed).shuffle(cards)
    return cards


def play_hand(
    game: Game, bots: Sequence[Bot], seed: bytes, seen: Counter[DecisionKind] | None = None
) -> None:
    """Play the current hand to its end; every choice must be one of the legal ones."""
    number = game.hand_number
    while game.hand_number == number and game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.DEAL:
            game.apply(deal_from_order(game.rules, game.dealer, shuffled(game.rules, seed)))
        elif game.phase is Phase.REVEAL:
            hands = game.initial_hands()
            assert hands is not None
            game.apply(Reveal(hands))
        else:
            turn = decision(game)
            seat = turn.view.seat
            action = bots[seat](turn)
            assert action in turn.legal, f"seat {seat} chose {action!r} in {game.phase.value}"
            if seen is not None:
                seen[turn.kind] += 1
            game.apply(action)


def to_first_bid(rules_name: str, seed: bytes) -> Game:
    """A new game of the preset played (draw pile included, by the heuristic) up to its first bid."""
    rules = preset(rules_name)
    game = Game(rules, 0)
    heuristic = HeuristicBot(seed)
    game.apply(deal_from_order(rules, game.dealer, shuffled(rules, seed)))
    while game.phase is not Phase.BID:
        game.apply(heuristic(decision(game)))
    return game


def first_bid_and_play(seed: bytes = b"first-bid-and-play") -> tuple[Game, Game]:
    """Two classic games from one deal: one waiting for its first bid, one for its first card."""
    bidding = to_first_bid("classic", seed)
    playing = bidding.clone()
    while playing.phase is Phase.BID:
        playing.apply(Bid(3))
    return bidding, playing
