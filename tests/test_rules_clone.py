"""`Game.clone` and `Game.public_clone`: independent copies of one engine, for search and for public views.

A clone must behave exactly as its original would, and share nothing that either of them changes. A public
clone of a seat's engine must be, field for field, the engine of an observer that saw the same public record.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades.rules import (
    PRESETS,
    Action,
    Deal,
    Draw,
    Game,
    HandState,
    IllegalAction,
    NotYourTurn,
    Phase,
    Play,
    PublicInconsistency,
    Reveal,
    RuleSet,
    deal_from_order,
    parse_cards,
    preset,
)

VARIANTS = [*sorted(PRESETS), "classic/low_club", "five/low_club", "individual/always"]


def rules_of(name: str) -> RuleSet:
    """A preset (or a preset with one option changed) that ends in a few hands and offers blind nil often."""
    base, _, variant = name.partition("/")
    rules = PRESETS[base].replace(target=150, losing_threshold=-150)
    if rules.blind_nil:
        rules = rules.replace(blind_nil_margin=20)
    if variant == "low_club":
        rules = rules.replace(first_leader="low_club")
    elif variant == "always":
        rules = rules.replace(spade_lead="always")
    return rules


def frozen(value: Any) -> Any:
    """A value with every list and dict turned into tuples, so that it can be kept and compared later."""
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    if isinstance(value, dict):
        return tuple(sorted((key, frozen(item)) for key, item in value.items()))
    return value


def state(game: Game) -> tuple[Any, ...]:
    """Every field of the engine and of its hand in progress, frozen."""
    fields = [(name, frozen(getattr(game, name))) for name in Game.__slots__ if name != "hand"]
    hand = [(name, frozen(getattr(game.hand, name))) for name in HandState.__slots__]
    return (*fields, *hand)


class Seats:
    """One engine that knows every card, one per seat that knows the seat's own, and one observer."""

    def __init__(self, rules: RuleSet, dealer: int) -> None:
        self.truth = Game(rules, dealer)
        self.peers = [Game(rules, dealer) for _ in range(rules.players)]
        self.observer = Game(rules, dealer)

    def deal(self, deal: Deal) -> None:
        self.truth.apply(deal)
        for seat, game in enumerate(self.peers):
            game.apply(deal.seen_by(seat))
        hidden = tuple((None,) * len(hand) for hand in deal.hands)
        self.observer.apply(Deal(hidden, (None,) * len(deal.stock)))

    def act(self, action: Action) -> None:
        truth = self.truth
        seat = truth.current_seat
        assert seat is not None
        index = truth.hand.draw_index
        if truth.phase is Phase.DRAW:
            assert index is not None
            card = truth.hand.stock[index]
            assert card is not None
            self.peers[seat].learn(index, card)  # the drawer sees the top card
        for game in (truth, *self.peers, self.observer):
            game.apply(action, seat=seat)
        if isinstance(action, Draw) and not action.keep:
            assert index is not None
            card = truth.hand.stock[index + 1]
            assert card is not None
            self.peers[seat].learn(index + 1, card)  # and takes the next one, which it sees too

    def reveal(self) -> None:
        hands = self.truth.initial_hands()
        assert hands is not None
        for game in (self.truth, *self.peers, self.observer):
            game.apply(Reveal(hands))


def steps(rules: RuleSet, rng: random.Random, seats: Seats, limit: int) -> None:
    """Up to `limit` steps of a random game: choices, deals and reveals, stopping at the game's end."""
    truth = seats.truth
    for _ in range(limit):
        if truth.phase is Phase.GAME_OVER:
            return
        if truth.phase is Phase.DEAL:
            cards = list(rules.deck)
            rng.shuffle(cards)
            seats.deal(deal_from_order(rules, truth.dealer, cards))
        elif truth.phase is Phase.REVEAL:
            seats.reveal()
        else:
            seats.act(rng.choice(truth.legal_actions()))


def step(game: Game, rng: random.Random) -> bool:
    """One random step of a full-knowledge game; False at the end."""
    rules = game.rules
    if game.phase is Phase.GAME_OVER:
        return False
    if game.phase is Phase.DEAL:
        cards = list(rules.deck)
        rng.shuffle(cards)
        game.apply(deal_from_order(rules, game.dealer, cards))
    elif game.phase is Phase.REVEAL:
        game.apply(Reveal(game.initial_hands() or ()))
    else:
        game.apply(rng.choice(game.legal_actions()))
    return True


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1), st.integers(0, 120), st.integers(1, 80))
def test_a_clone_plays_as_its_original_and_shares_nothing(
    name: str, seed: int, start: int, ahead: int
) -> None:
    rules = rules_of(name)
    rng = random.Random(seed)
    game = Game(rules, rng.randrange(rules.players))
    for _ in range(start):
        step(game, rng)
    before = state(game)
    copy = game.clone()
    assert state(copy) == before
    # the clone goes on alone: the original does not move
    branch = random.Random(seed ^ 1)
    for _ in range(ahead):
        if not step(copy, branch):
            break
    assert state(game) == before
    after = state(copy)
    # the original takes the same steps: it ends where the clone did, and the clone does not move
    branch = random.Random(seed ^ 1)
    for _ in range(ahead):
        if not step(game, branch):
            break
    assert state(copy) == after
    assert state(game) == after


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1))
def test_the_public_clone_of_every_seat_is_the_observer(name: str, seed: int) -> None:
    rules = rules_of(name)
    rng = random.Random(seed)
    seats = Seats(rules, rng.randrange(rules.players))
    truth = seats.truth
    while truth.phase is not Phase.GAME_OVER and len(truth.history) < 4:
        steps(rules, rng, seats, rng.randrange(1, 12))
        public = state(seats.observer)
        for peer in seats.peers:
            before = state(peer)
            assert state(peer.public_clone()) == public
            assert state(peer) == before
        assert state(truth.public_clone()) == public


def test_the_public_clone_takes_a_play_that_only_our_own_cards_refute() -> None:
    rules = preset("classic")
    cards = list(rules.deck)
    random.Random(7).shuffle(cards)
    deal = deal_from_order(rules, 3, cards)
    mine = Game(rules, 3)
    mine.apply(deal.seen_by(0))
    observer = Game(rules, 3)
    observer.apply(Deal(tuple((None,) * len(hand) for hand in deal.hands)))
    while mine.phase is Phase.BID:
        bid = mine.legal_actions()[3]
        for game in (mine, observer):
            game.apply(bid)
    assert mine.current_seat == 0
    lead = mine.legal_actions()[0]
    for game in (mine, observer):
        game.apply(lead, seat=0)
    # seat 1 plays one of our cards: our engine refuses it, the public record allows it
    ours = next(card for card in mine.hand.hand(0) if card.suit is not mine.hand.trick.plays[0][1].suit)
    with pytest.raises(PublicInconsistency):
        mine.apply(Play(ours), seat=1)
    public = mine.public_clone()
    public.apply(Play(ours), seat=1)
    observer.apply(Play(ours), seat=1)
    assert state(public) == state(observer)
    assert ours in mine.hand.hand(0)  # our own engine did not move
    # what the public record refuses, the public clone refuses too: the card just played
    with pytest.raises(PublicInconsistency):
        public.apply(Play(ours), seat=2)


def test_the_public_clone_does_not_know_who_holds_the_lowest_club() -> None:
    rules = preset("classic", first_leader="low_club")
    hands = ["2C " + " ".join(f"{r}S" for r in "23456789TJQK"), *[""] * 3]
    known: list[tuple[Any, ...]] = [tuple(parse_cards(hands[0]))] + [(None,) * 13] * 3
    mine = Game(rules, 0)
    mine.apply(Deal(tuple(known)))
    while mine.phase is Phase.BID:
        mine.apply(mine.legal_actions()[1])
    assert mine.current_seat == 0  # we hold the two of clubs: we lead
    low = parse_cards("2C")[0]
    with pytest.raises(NotYourTurn):
        mine.apply(Play(low), seat=2)  # seat 2 claims it: our cards say it cannot
    public = mine.public_clone()
    assert public.current_seat is None and public.hand.trick.leader == -1
    assert public.legal_actions() == ()
    public.apply(Play(low), seat=2)
    assert public.hand.trick.plays == ((2, low),) and public.current_seat == 3
    with pytest.raises(IllegalAction):
        mine.public_clone().apply(Play(parse_cards("3C")[0]), seat=2)  # not the lowest club: refused by all
