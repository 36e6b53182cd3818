"""The expert bot's fast simulator (`bots.simulate.Playout`, bit masks) against the rules engine (`Game`).

The simulator is a second implementation of card play, kept for the search's speed; these tests are what
allow it. From random states of every preset and of the variants the presets leave out (the lowest club
leads, spades always open, blind nil often), the engine and the simulator play the rest of the hand side by
side: the same seat to move and the same legal cards at every step, the same trick winners and tricks won,
and the same scores once the engine scores the hand. The cards come from the policy itself (as in a search),
from random legal choices, and from `Playout.finish`.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades.bots.simulate import Contract, Playout, _lose_low, _win_low
from p2pspades.rules import (
    PRESETS,
    Game,
    Phase,
    Play,
    Reveal,
    RuleSet,
    deal_from_order,
    mask_of,
    score_hand,
)
from p2pspades.rules.cards import FULL_DECK, Card

VARIANTS = [
    *sorted(PRESETS),
    "classic/low_club",
    "five/low_club",
    "cutthroat3/low_club",
    "individual/always",
    "partnership/always",
    "classic/partner_nil",
    "classic/deuces_high",
    "individual/deuces_high",
    "five/deuces_high",
    "cutthroat3/deuces_high",
]


def rules_of(name: str) -> RuleSet:
    """A preset, or a preset with one option changed; blind nil is offered at any score where it exists."""
    base, _, variant = name.partition("/")
    rules = PRESETS[base]
    if rules.blind_nil:
        rules = rules.replace(blind_nil_margin=0)
    changes: dict[str, dict[str, str | bool]] = {
        "": {},
        "low_club": {"first_leader": "low_club"},
        "always": {"spade_lead": "always"},
        "partner_nil": {"nil_tricks_count_for_partner": True},
        "deuces_high": {"deuces_high": True},
    }
    return rules.replace(**changes[variant])


def deal_and_bid(game: Game, rng: random.Random, low_bids: float = 0.0) -> None:
    """Answer blind nil, deal a shuffled deck and bid at random (a bid of at most 3 with chance `low_bids`),
    up to the first lead."""
    while game.phase is Phase.BLIND:
        game.apply(rng.choice(game.legal_actions()))
    cards = list(game.rules.deck)
    rng.shuffle(cards)
    game.apply(deal_from_order(game.rules, game.dealer, cards))
    while game.phase is not Phase.PLAY:
        options = game.legal_actions()
        low = [a for a in options if getattr(a, "tricks", 0) <= 3]
        game.apply(rng.choice(low if low and rng.random() < low_bids else options))


def random_state(rules: RuleSet, rng: random.Random) -> Game:
    """A full-knowledge game in the play phase of a random hand, a random number of cards into it."""
    game = Game(rules, rng.randrange(rules.players))
    while True:
        deal_and_bid(game, rng, low_bids=0.6)
        stop = rng.randrange(rules.tricks_per_hand * rules.players)
        for _ in range(stop):
            game.apply(rng.choice(game.legal_actions()))
        # sometimes a later hand, with scores on the board (and so blind nil where the rules allow it)
        if rng.random() < 0.7 or game.hand_number > 3:
            return game
        while game.phase is Phase.PLAY:
            game.apply(rng.choice(game.legal_actions()))
        game.apply(Reveal(game.initial_hands() or ()))
        if game.phase is Phase.GAME_OVER:
            return random_state(rules, rng)


def contract_of(game: Game) -> Contract:
    bids = [bid if bid is not None else 0 for bid in game.hand.bids]
    return Contract(game.rules, bids, game.hand.blind)


def masks_of(game: Game) -> list[int]:
    return [mask_of(game.hand.hand(seat)) for seat in range(game.rules.players)]


def playout_of(game: Game) -> Playout:
    """The simulator's position for the engine's, built as the expert builds it: from the seat's view."""
    seat = game.current_seat
    assert seat is not None
    return Playout.from_view(contract_of(game), game.view(seat), masks_of(game))


def legal_mask(game: Game, playout: Playout) -> int:
    """The engine's legal cards, as the simulator numbers them (deuces high relabels the top trumps)."""
    legal = mask_of(action.card for action in game.legal_actions() if isinstance(action, Play))
    relabel = playout.contract.relabel
    return legal if relabel is None else relabel.mask(legal)


def card_of(playout: Playout, index: int) -> Card:
    """The card of a simulator's index."""
    relabel = playout.contract.relabel
    return FULL_DECK[index if relabel is None else relabel.card(index)]


def play_side_by_side(game: Game, playout: Playout, choose: str, rng: random.Random) -> None:
    """Play the hand to its end on both, checking every step; the engine is left at the reveal."""
    n = game.rules.players
    while game.phase is Phase.PLAY:
        seat = game.current_seat
        assert seat is not None
        assert (playout.leader + len(playout.plays)) % n == seat
        legal = playout.legal()
        engine = legal_mask(game, playout)
        assert legal == engine, f"seat {seat}: {legal:#x} against {engine:#x}"
        if choose == "random" or legal & (legal - 1) == 0:
            card = rng.choice([i for i in range(legal.bit_length()) if legal >> i & 1])
        else:
            card = playout.choose(seat, legal)
        assert legal >> card & 1, f"the policy chose {card_of(playout, card)}, which it may not play"
        tricks = len(game.hand.tricks)
        game.apply(Play(card_of(playout, card)), seat=seat)
        if choose == "random" and rng.random() < 0.5:
            playout.play_card(card_of(playout, card).index)  # as a caller plays a card of the deck
        else:
            playout.play(card)
        if len(game.hand.tricks) > tricks:
            assert game.hand.tricks[-1].winner == playout.leader
            assert playout.plays == []
        assert playout.won == list(game.hand.tricks_won)
    assert game.phase is Phase.REVEAL
    assert not any(playout.hands), "the simulator's hands ran out with the engine's"


def check_scores(game: Game, won: list[int]) -> None:
    """Score the engine's hand; the simulator's tricks must give the same scores through `score_hand`."""
    rules = game.rules
    contract = contract_of(game)
    totals = game.totals
    game.apply(Reveal(game.initial_hands() or ()))
    result = game.history[-1]
    assert list(result.tricks_won) == won
    assert score_hand(rules, contract.bids, contract.blind, won, totals) == (result.scores, result.totals)


class Recorder(Playout):
    """A playout that writes down the cards it plays."""

    __slots__ = ("cards",)
    cards: list[int]

    def play(self, card: int) -> None:
        self.cards.append(card)
        super().play(card)


def check_finish(game: Game, start: Playout) -> None:
    """`finish` (which works out the legal cards on its own) plays only what the engine allows."""
    recorder = Recorder.__new__(Recorder)
    copy = start.copy()
    for name in Playout.__slots__:
        setattr(recorder, name, getattr(copy, name))
    recorder.cards = []
    won = recorder.finish()
    for card in recorder.cards:
        refused = f"finish played {card_of(start, card)}, which the engine refuses"
        assert legal_mask(game, start) >> card & 1, refused
        game.apply(Play(card_of(start, card)))
    assert game.phase is Phase.REVEAL
    check_scores(game, won)


def check_state(name: str, seed: int) -> None:
    rules = rules_of(name)
    rng = random.Random(seed)
    game = random_state(rules, rng)
    start = playout_of(game)
    check_finish(game.clone(), start)
    for choose in ("policy", "random"):
        copy = game.clone()
        playout = start.copy()
        play_side_by_side(copy, playout, choose, rng)
        check_scores(copy, playout.won)
    if not game.hand.tricks and not game.hand.trick.plays:
        # the hand's first lead, as the bid search starts it
        opening = Playout.opening(contract_of(game), game.dealer, masks_of(game))
        play_side_by_side(game, opening, "policy", rng)
        check_scores(game, opening.won)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1))
def test_the_simulator_plays_as_the_engine_from_random_states(name: str, seed: int) -> None:
    check_state(name, seed)


def test_the_simulator_plays_as_the_engine_in_every_preset_and_variant() -> None:
    for name in VARIANTS:
        for seed in range(12):
            check_state(name, seed)


def test_the_opening_leader_is_the_engines() -> None:
    """From the first lead (as the bid search plays whole hands), for every preset and variant."""
    for name in VARIANTS:
        rules = rules_of(name)
        for seed in range(8):
            rng = random.Random(seed)
            game = Game(rules, rng.randrange(rules.players))
            deal_and_bid(game, rng)
            opening = Playout.opening(contract_of(game), game.dealer, masks_of(game))
            assert (opening.leader, opening.must_lead >= 0) == (
                game.current_seat,
                rules.first_leader == "low_club",
            )
            play_side_by_side(game, opening, "policy", rng)
            check_scores(game, opening.won)


class Taking(Playout):
    """A playout whose every `_take` (the side wants the trick) is checked against the rule as `can_beat`
    states it, one opponent and one card at a time."""

    __slots__ = ("taken",)
    taken: int

    def _take(self, seat: int, led: int, win: int, lose: int, later: list[int]) -> int:
        card = super()._take(seat, led, win, lose, later)
        assert card == self.by_can_beat(seat, led, win, lose, later)
        self.taken += 1
        return card

    def by_can_beat(self, seat: int, led: int, win: int, lose: int, later: list[int]) -> int:
        """Leave the trick to a partner no opponent still to play can beat, else win with the lowest card none
        of them can beat, else lose cheaply."""
        c = self.contract
        partner_wins = c.partner[seat] >= 0 and self.winner == c.partner[seat]
        if not later:
            return _lose_low(win, lose, led) if partner_wins else _win_low(win, lose, led)
        opponents = [s for s in later if c.side_of[s] != c.side_of[seat]]
        if partner_wins and not any(self.can_beat(s, self.best, led) for s in opponents):
            return _lose_low(win, lose, led)
        for x in sorted(i for i in range(win.bit_length()) if win >> i & 1):
            if not any(self.can_beat(s, x, led) for s in opponents):
                return x
        return _lose_low(win, lose, led)


def takes(name: str, seed: int) -> int:
    """Play a random state's hand out with every `_take` checked; how many there were."""
    start = playout_of(random_state(rules_of(name), random.Random(seed)))
    taking = Taking.__new__(Taking)
    for slot in Playout.__slots__:
        setattr(taking, slot, getattr(start, slot))
    taking.taken = 0
    taking.finish()
    return taking.taken


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(VARIANTS), st.integers(0, 2**32 - 1))
def test_a_seat_that_wants_the_trick_takes_it_as_can_beat_says(name: str, seed: int) -> None:
    """`_take` works out once what the opponents still to play could beat; its cards are those of the rule
    written with `can_beat`, in every preset and variant (deuces high's raised spades too)."""
    takes(name, seed)


def test_every_variant_has_tricks_to_take() -> None:
    """The check above is not idle: in every preset and variant, hands played out want tricks."""
    for name in VARIANTS:
        assert sum(takes(name, seed) for seed in range(4)) > 0, name
