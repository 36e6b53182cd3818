"""The bots' nil card pass: a nil bidder passes its most dangerous cards, its partner its lowest; every bot
answers a pass decision with a legal pass."""

from __future__ import annotations

import pytest
from helpers.games import dealt

from p2pspades.bots import make_bot
from p2pspades.bots.passing import choose_pass, danger
from p2pspades.rules import Bid, Card, Game, Pass, Phase, parse_cards, preset
from p2pspades.table.events import Decision, DecisionKind

HANDS = (
    "AS KS 2S 3H 4H 5H 6H 2D 3D 4D 5D 2C AH",
    "QS JS TS 9S 8S 7S 6S 5S 4S 3S KH QH JH",
    "TH 9H 8H 7H AD KD QD JD TD 9D 8D 7D 6D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2H",
)


def cards(text: str) -> set[Card]:
    return set(parse_cards(text))


def passing(n: int = 3) -> Game:
    game = dealt(preset("classic", nil_pass=n), 3, HANDS)
    for tricks in (0, 4, 4, 4):  # seat 0 bids nil
        game.apply(Bid(tricks))
    assert game.phase is Phase.PASS
    return game


def decision(game: Game) -> Decision:
    seat = game.current_seat
    assert seat is not None
    return Decision(DecisionKind.PASS, game.view(seat), game.legal_actions())


def test_danger_puts_spades_above_every_other_suit() -> None:
    ace_hearts, two_spades = parse_cards("AH 2S")
    assert danger(two_spades) > danger(ace_hearts)


def test_the_nil_bidder_passes_its_highest_cards_and_the_partner_its_lowest() -> None:
    game = passing()
    nil = choose_pass(game.view(0), game.legal_actions())
    assert isinstance(nil, Pass) and set(nil.cards) == cards("AS KS 2S")  # every spade it holds
    game.apply(nil)
    cover = choose_pass(game.view(2), game.legal_actions())
    assert isinstance(cover, Pass) and set(cover.cards) == cards("6D 7D 7H")


@pytest.mark.parametrize("level", ["random", "easy", "normal", "expert"])
def test_every_bot_passes_legally(level: str) -> None:
    game = passing(2)
    for _ in range(2):
        d = decision(game)
        choice = make_bot(level, seed=1)(d)
        assert choice in d.legal
        game.apply(choice)
    assert game.phase is Phase.PLAY
