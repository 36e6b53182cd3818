"""Random whole games for every preset, checked against the invariants of the game.

Each game runs twice over: one engine knows every card; one engine per seat knows only what that seat may
know (its own cards; in the draw pile, the cards it sees). All of them must agree on every hand.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades.rules import (
    PRESETS,
    Action,
    Bid,
    Deal,
    Draw,
    Game,
    HandResult,
    IllegalAction,
    NotYourTurn,
    Phase,
    Play,
    Reveal,
    RuleSet,
    SideTotal,
    Termination,
    audit_hand,
    deal_from_order,
    mask_of,
    trick_winner,
)

MAX_HANDS = 150


def phase(game: Game) -> Phase:
    """The game's phase, read afresh (mypy would otherwise keep the phase an earlier test narrowed)."""
    return game.phase


def quick(name: str) -> RuleSet:
    """The preset with a low target and a losing threshold, so that random games end in a few hands."""
    return PRESETS[name].replace(target=150, losing_threshold=-150)


class Table:
    """One engine that knows everything and one per seat that knows what the seat knows."""

    def __init__(self, rules: RuleSet, dealer: int) -> None:
        self.truth = Game(rules, dealer)
        self.peers = [Game(rules, dealer) for _ in range(rules.players)]

    def everyone(self) -> list[Game]:
        return [self.truth, *self.peers]

    def deal(self, deal: Deal) -> None:
        self.truth.apply(deal)
        for seat, game in enumerate(self.peers):
            game.apply(deal.seen_by(seat))

    def act(self, action: Action) -> None:
        truth = self.truth
        seat = truth.current_seat
        assert seat is not None
        drawing = truth.phase is Phase.DRAW
        index = truth.hand.draw_index
        for game in self.everyone():
            game.apply(action, seat=seat)
        if drawing and isinstance(action, Draw) and not action.keep:
            assert index is not None
            card = truth.hand.stock[index + 1]
            assert card is not None
            self.peers[seat].learn(index + 1, card)  # the seat takes the next card and sees it

    def before_decision(self) -> None:
        truth = self.truth
        seat = truth.current_seat
        if truth.phase is Phase.DRAW and seat is not None:
            index = truth.hand.draw_index
            assert index is not None
            card = truth.hand.stock[index]
            assert card is not None
            self.peers[seat].learn(index, card)  # the drawer sees the top card
            assert self.peers[seat].view(seat).draw_card is card
        if seat is not None:
            # a seat's own engine offers it exactly what the all-knowing engine does
            assert self.peers[seat].view(seat).legal_actions == truth.view(seat).legal_actions


def play_hand(table: Table, rng: random.Random) -> HandResult:
    truth = table.truth
    rules = truth.rules
    while truth.phase is Phase.BLIND:
        table.before_decision()
        table.act(rng.choice(truth.legal_actions()))
    cards = list(rules.deck)
    rng.shuffle(cards)
    table.deal(deal_from_order(rules, truth.dealer, cards))
    while truth.current_seat is not None:
        table.before_decision()
        options = truth.legal_actions()
        # bid low more often than not, so that contracts are made and scores move both ways
        if rng.random() < 0.4:
            action = min(options, key=lambda a: getattr(a, "tricks", 0))
        else:
            action = rng.choice(options)
        table.act(action)
    hands = truth.initial_hands()
    assert hands is not None
    for game in table.peers:
        assert game.phase is Phase.REVEAL
    reveal = Reveal(hands)
    for game in table.everyone():
        game.apply(reveal)
    return truth.history[-1]


def check_hand(rules: RuleSet, result: HandResult) -> None:
    n = rules.players
    # cards are conserved: the hands are disjoint, the right size, from the deck; every card is played once
    masks = [mask_of(hand) for hand in result.hands]
    assert all(len(hand) == rules.hand_size for hand in result.hands)
    assert sum(masks) == mask_of(card for hand in result.hands for card in hand)
    assert sum(masks) & ~rules.deck_mask == 0
    if rules.deal == "all":
        assert sum(masks) == rules.deck_mask
    played = [card for trick in result.tricks for _, card in trick.plays]
    assert len(played) == len(set(played)) == rules.hand_size * n
    assert mask_of(played) == sum(masks)
    for seat in range(n):
        assert mask_of(card for trick in result.tricks for s, card in trick.plays if s == seat) == masks[seat]
    # each trick has one winner, among its players, the one trick_winner names; the winner leads next
    for number, trick in enumerate(result.tricks):
        assert sorted(seat for seat, _ in trick.plays) == list(range(n))
        assert trick.winner == trick_winner(trick.plays, rules.order)
        if number + 1 < len(result.tricks):
            assert result.tricks[number + 1].leader == trick.winner
    # tricks add up to the hand size
    assert len(result.tricks) == rules.tricks_per_hand
    assert sum(result.tricks_won) == rules.tricks_per_hand == sum(result.tricks_scored)
    assert list(result.tricks_won) == [sum(t.winner == seat for t in result.tricks) for seat in range(n)]
    # every play kept the rules
    assert audit_hand(rules, result.dealer, result.hands, result.bids, played) == []


def run_game(name: str, seed: int) -> None:
    run_rules(quick(name), seed)


def run_rules(rules: RuleSet, seed: int) -> None:
    """A random game under `rules`, checked against every invariant."""
    rng = random.Random(seed)
    table = Table(rules, rng.randrange(rules.players))
    truth = table.truth
    while truth.phase is not Phase.GAME_OVER and len(truth.history) < MAX_HANDS:
        result = play_hand(table, rng)
        check_hand(rules, result)
        for game in table.peers:
            assert game.history == truth.history and game.totals == truth.totals
    # the game ends
    assert truth.phase is Phase.GAME_OVER and truth.outcome is not None
    assert all(game.outcome == truth.outcome for game in table.peers)
    # totals are the sums of the hands' scores, and each hand's totals are the running sums
    running = [SideTotal()] * len(rules.sides)
    for result in truth.history:
        for score in result.scores:
            parts = score.contract_points + score.bag_points + score.penalty_points + score.nil_points
            assert score.points == parts + score.ten_for_200_points + score.boston_points
            assert score.boston == (sum(result.tricks_scored[seat] for seat in rules.sides[score.side])
                                    == rules.tricks_per_hand and not score.penalized)
        running = [SideTotal(total.score + score.points, after.bags)
                   for total, score, after in zip(running, result.scores, result.totals, strict=True)]
        assert [total.score for total in running] == [total.score for total in result.totals]
    assert tuple(running) == truth.totals
    for side in range(len(rules.sides)):
        assert truth.totals[side].score == sum(result.scores[side].points for result in truth.history)
    scores = [total.score for total in truth.totals]
    if truth.outcome.termination is Termination.BOSTON:  # house rule boston="win": the side that took all
        last = truth.history[-1].scores
        assert rules.boston == "win" and truth.outcome.winners == tuple(s.side for s in last if s.boston)
        assert len(truth.outcome.winners) == 1
        return
    # the winners hold the top score; the game ended at the target or the threshold
    assert truth.outcome.winners == tuple(i for i, s in enumerate(scores) if s == max(scores))
    assert max(scores) >= rules.target or min(scores) <= (rules.losing_threshold or 0)
    # dealers went round clockwise
    assert [result.dealer for result in truth.history] == [
        (truth.history[0].dealer + k) % rules.players for k in range(len(truth.history))
    ]


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(name: str, seed: int) -> None:
    run_game(name, seed)


def test_every_preset_is_played() -> None:
    for name in sorted(PRESETS):
        run_game(name, 2024)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.integers(0, 2**32 - 1))
def test_a_refused_action_changes_nothing(name: str, seed: int) -> None:
    rules = quick(name)
    rng = random.Random(seed)
    game = Game(rules, rng.randrange(rules.players))
    for _ in range(2):
        while game.phase is Phase.BLIND:
            game.apply(rng.choice(game.legal_actions()))
        cards = list(rules.deck)
        rng.shuffle(cards)
        game.apply(deal_from_order(rules, game.dealer, cards))
        while game.current_seat is not None:
            legal = game.legal_actions()
            wrong: list[Action] = []
            if game.phase is Phase.PLAY:
                wrong = [Play(card) for card in rules.deck if Play(card) not in legal]
            elif game.phase is Phase.BID:
                wrong = [Bid(rules.tricks_per_hand + 1)]
            before = [game.view(seat) for seat in range(rules.players)]
            for action in rng.sample(wrong, min(3, len(wrong))):
                with pytest.raises(IllegalAction):
                    game.apply(action)
                assert not game.is_legal(action)
            if wrong:
                with pytest.raises(NotYourTurn):
                    game.apply(legal[0], seat=(game.current_seat + 1) % rules.players)
            assert [game.view(seat) for seat in range(rules.players)] == before
            game.apply(rng.choice(legal))
        if game.phase is Phase.GAME_OVER:
            break
        game.apply(Reveal(game.initial_hands() or ()))
        if phase(game) is Phase.GAME_OVER:
            break
