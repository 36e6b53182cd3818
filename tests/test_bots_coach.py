"""The coach and the review: the expert's search shown to a person, from that person's seat only.

The hint and the review read a seat's view alone, so two deals that a seat cannot tell apart (its own cards
the same, the other seats' cards different) get the same advice, and a review replays a game in an engine
that never learns another seat's cards before the reveal.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest
from helpers import games
from helpers.positions import RISKY_NIL
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pspades import i18n
from p2pspades.bots import make_bot
from p2pspades.bots import search as search_module
from p2pspades.bots.bidding import nil_danger, nil_odds
from p2pspades.bots.coach import advise
from p2pspades.bots.review import NOTICEABLE, CannotReview, Judged, Position, judge, positions, review
from p2pspades.describe.coaching import WIDTH, action_text, advice_line, legend
from p2pspades.rules import (
    PRESETS,
    Action,
    Bid,
    BlindNil,
    Card,
    Deal,
    Game,
    Phase,
    Play,
    RuleSet,
    SideTotal,
    deal_from_order,
    parse_cards,
)
from p2pspades.rules.playout import play_game
from p2pspades.table.events import Decision, DecisionKind

KINDS = {Phase.BID: DecisionKind.BID, Phase.PLAY: DecisionKind.PLAY}


def dealt(rules: RuleSet, seed: int) -> list[Card]:
    cards = list(rules.deck)
    random.Random(seed).shuffle(cards)
    return cards


def other_cards_swapped(
    rules: RuleSet, dealer: int, cards: list[Card], seat: int, rng: random.Random
) -> list[Card]:
    """The same deal for `seat`, the other seats' cards dealt again among them."""
    hands = [[c for c in h if c is not None] for h in deal_from_order(rules, dealer, cards).hands]
    n = rules.players
    others = [c for s in range(n) if s != seat for c in hands[s]]
    rng.shuffle(others)
    for s in range(n):
        if s != seat:
            hands[s], others = others[: len(hands[s])], others[len(hands[s]):]
    # deal_from_order deals one card at a time from the dealer's left
    order = [hands[(dealer + j) % n][k] for k in range(len(hands[0])) for j in range(1, n + 1)]
    same = deal_from_order(rules, dealer, cards).hands[seat]
    assert deal_from_order(rules, dealer, order).hands[seat] == same
    return order


def to_first_decision(rules: RuleSet, cards: list[Card], plays: int) -> Decision:
    """The game after everyone bid 3 and `plays` cards of the first trick, at the next seat's decision."""
    game = Game(rules, 0)
    game.apply(deal_from_order(rules, game.dealer, cards))
    while game.phase is Phase.BID:
        game.apply(Bid(3) if Bid(3) in game.legal_actions() else game.legal_actions()[-1])
    for _ in range(plays):
        legal = game.legal_actions()
        game.apply(legal[0])
    assert game.current_seat is not None
    return Decision(KINDS[game.phase], game.view(game.current_seat), game.legal_actions())


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), other=st.integers(0, 10_000))
def test_the_hint_is_the_same_whatever_the_other_seats_hold(seed: int, other: int) -> None:
    rules = PRESETS["classic"]
    cards = dealt(rules, seed)
    # the leader's first card: only its own cards and the bids are known to it
    first = to_first_decision(rules, cards, 0)
    seat = first.view.seat
    swapped = other_cards_swapped(rules, 0, cards, seat, random.Random(other))
    again = to_first_decision(rules, swapped, 0)
    assert again.view == first.view  # the seat cannot tell the deals apart...
    a, b = advise(first, "fast"), advise(again, "fast")
    assert a is not None and b is not None
    assert a == b  # ...and neither can its coach
    assert a.choice in first.legal and all(o.action in first.legal for o in a.options)


def test_the_hint_changes_when_the_seats_own_cards_do() -> None:
    """The advice depends on the view: another hand for the seat, another search (it is not a constant)."""
    rules = PRESETS["classic"]
    seen = set()
    for seed in range(6):
        decision = to_first_decision(rules, dealt(rules, seed), 0)
        advice = advise(decision, "fast")
        assert advice is not None
        seen.add(advice_line(advice, rules))
    assert len(seen) > 1


def test_the_hint_names_each_option_with_its_chance_and_points() -> None:
    rules = PRESETS["classic"]
    decision = to_first_decision(rules, dealt(rules, 4), 0)
    advice = advise(decision, "fast")
    assert advice is not None and advice.deals > 0
    for option in advice.options:
        assert 0.0 <= option.holds <= 1.0
    assert [o.points for o in advice.options] == sorted((o.points for o in advice.options), reverse=True)
    words = advice_line(advice, rules)
    first = advice.best
    assert isinstance(advice.choice, Play)
    said = f"coach: {advice.choice.card.glyph} ({first.points:+.0f} net, contract made {first.holds:.0%})"
    assert words.startswith(said) and len(words) <= WIDTH
    second = next(o for o in advice.options if o is not first)
    assert f" · {action_text(second.action, rules)} {second.points:+.0f}, {second.holds:.0%}" in words
    assert words.endswith(" · h: meaning")  # h again: the legend, one line on the smallest screen
    said = legend(rules, advice.deals)
    assert len(said) <= WIDTH and f"of {advice.deals} deals tried" in said and "less theirs" in said
    alone = legend(PRESETS["cutthroat3"], 1000)
    assert "less the others' mean" in alone and len(alone) <= WIDTH


@pytest.mark.parametrize("preset", ["classic", "cutthroat3", "five"])
def test_the_hint_and_its_legend_fit_the_smallest_screen_in_every_language(preset: str) -> None:
    rules = PRESETS[preset]
    decision = to_first_decision(rules, dealt(rules, 4), 0)
    advice = advise(decision, "fast")
    assert advice is not None
    said = {}
    for lang in i18n.LANGUAGES:
        with i18n.speaking(lang):
            for limit in (2, 4):
                line = advice_line(advice, rules, limit)
                assert len(line) <= WIDTH, (lang, line)
            for deals in (None, 1, 3, advice.deals, 1000, 123456):
                assert len(legend(rules, deals)) <= WIDTH, (lang, legend(rules, deals))
            said[lang] = advice_line(advice, rules), legend(rules, advice.deals)
    assert said["de"][0].startswith("Trainer: ") and said["de"][1].startswith("netto: ")
    assert said["fr"][0].startswith("coach\u00a0: ") and said["pl"][0].startswith("trener: ")
    assert len({hint for hint, _ in said.values()}) == len(said)  # each in its own words


def test_a_sure_winner_is_what_the_coach_plays_to_make_a_contract() -> None:
    """A constructed position: seat 0 holds every spade but the 2♠, and the 2♥, leads (spades may be led
    from the start) and must take every trick for its bid of 13; the coach leads a spade, never the 2♥ (lost
    to any heart, so the contract fails in every deal), and says the spade leaves the contract a chance."""
    rules = RuleSet(target=500, spade_lead="always")
    game = Game(rules, 3)
    spades = [c for c in rules.deck if c.suit.name == "SPADES"]
    rest = [c for c in rules.deck if c.suit.name != "SPADES"]
    two = Card.parse("2H")
    rest.remove(two)
    hands = [[*spades[1:], two], [spades[0], *rest[0:12]], rest[12:25], rest[25:38]]
    order = [hands[(3 + j) % 4][k] for k in range(13) for j in range(1, 5)]
    game.apply(deal_from_order(rules, 3, order))
    for bid in (13, 0, 0, 0):
        game.apply(Bid(bid) if Bid(bid) in game.legal_actions() else game.legal_actions()[0])
    assert game.current_seat == 0
    decision = Decision(DecisionKind.PLAY, game.view(0), game.legal_actions())
    advice = advise(decision, "fast")
    assert advice is not None
    assert isinstance(advice.choice, Play) and advice.choice.card.suit.name == "SPADES"
    assert advice.best.holds > 0.5
    heart = advice.option(Play(two))
    assert heart is not None and heart.holds == 0.0 and heart.points < advice.best.points


def test_the_coach_gives_a_nil_the_chance_the_bid_counted_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The risky nil of the expert's tests (AH, AC and KC; its playouts hold it in 9 deals of 10, the
    bidding's odds of its nil danger in 1 of 5), with the search's nil taken halfway to those odds: the coach
    bids the cards, and the nil's chance it shows is the one that bid counted on, halfway between, not the
    playouts' own."""
    monkeypatch.setattr(search_module, "NIL_BLEND", 0.5)
    rules = PRESETS["classic"]
    game = games.dealt(rules, 0, RISKY_NIL)
    assert game.current_seat == 1
    advice = advise(games.decision(game), "normal")
    assert advice is not None
    assert isinstance(advice.choice, Bid) and advice.choice.tricks >= 1
    nil = advice.option(Bid(0))
    assert nil is not None and nil.nil
    odds = nil_odds(rules, nil_danger(rules, parse_cards(RISKY_NIL[1])))
    assert odds < 0.25 and odds + 0.25 < nil.holds < 0.8
    # the nil beside the contract the coach chose: its percentage says it is the nil's
    line = advice_line(dataclasses.replace(advice, options=(advice.best, nil)), rules)
    assert f" · bid nil {nil.points:+.0f}, nil {nil.holds:.0%}" in line and len(line) <= WIDTH


def finished_game(preset: str, seed: int, hands: int = 2) -> Game:
    """A game of `hands` hands (or fewer, if it ends), every choice random and legal."""
    rng = random.Random(seed)
    return play_game(PRESETS[preset], 0, rng.shuffle, rng.choice, max_hands=hands)


@pytest.mark.parametrize(
    ("preset", "hands"), [("classic", 4), ("individual", 2), ("cutthroat3", 2), ("piki", 2)]
)
def test_the_review_reaches_every_decision_of_the_seat(preset: str, hands: int) -> None:
    """Every bid, blind-nil answer and card of the seat, each the action the record shows; random play
    soon leaves a side far enough behind to be asked about blind nil."""
    game = finished_game(preset, 3, hands)
    rules, played = game.rules, list(game.history)
    asked = 0
    for seat in range(rules.players):
        seen = list(positions(rules, played, seat))
        blind = [p for p in seen if p.decision.kind is DecisionKind.BLIND_NIL]
        asked += len(blind)
        bids = sum(not h.blind[seat] for h in played)
        plays = sum(len(h.hands[seat]) for h in played)
        assert len(seen) == bids + plays + len(blind)
        for p in seen:
            assert p.view.seat == seat and p.chosen in p.decision.legal
        for p in blind:
            record = played[p.hand - 1]
            assert p.chosen == BlindNil(record.blind[seat])
        assert [p.chosen for p in seen if p.trick] == [
            Play(c) for h in played for t in h.tricks for s, c in t.plays if s == seat
        ]
    assert asked > 0 or preset != "classic"


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_the_review_never_uses_another_seats_cards_before_the_reveal(seat: int) -> None:
    """The hand as the log proves it, and the same hand with the other seats' cards dealt wrongly among
    them: the review's positions are the same up to the reveal, and only the reveal notices."""
    game = finished_game("classic", 11, hands=1)
    rules, truth = game.rules, game.history[0]
    rng = random.Random(seat)
    others = [c for s in range(4) if s != seat for c in truth.hands[s]]
    rng.shuffle(others)
    wrong_hands = []
    for s in range(4):
        wrong_hands.append(truth.hands[s] if s == seat else tuple(sorted(others[:13])))
        if s != seat:
            others = others[13:]
    wrong = truth._replace(hands=tuple(wrong_hands))
    assert wrong.hands != truth.hands
    honest = list(positions(rules, [truth], seat))
    told: list[Position] = []
    with pytest.raises(CannotReview, match="does not replay"):
        for p in positions(rules, [wrong], seat):
            told.append(p)
    assert [(p.view, p.chosen) for p in told] == [(p.view, p.chosen) for p in honest]


def test_the_draw_pile_game_is_refused_with_a_reason() -> None:
    with pytest.raises(CannotReview, match="draw pile"):
        list(positions(PRESETS["two"], [], 0))


def test_the_review_lists_what_the_random_player_gave_up_costliest_first() -> None:
    rng = random.Random(7)

    def bid_3_play_at_random(legal: Sequence[Action]) -> Action:  # random bids make every hand a set
        return Bid(3) if Bid(3) in legal else rng.choice(legal)

    game = play_game(PRESETS["classic"], 0, rng.shuffle, bid_3_play_at_random, max_hands=2)
    done = review(game.rules, list(game.history), 0, "fast")
    assert done.decisions > 0 and 0 <= done.agreed <= done.decisions
    costs = [w.cost for w in done.weighed]
    assert costs == sorted(costs, reverse=True) and all(c >= 0 for c in costs)
    for w in done.weighed:
        best = w.advice.option(w.advice.choice)
        assert best is not None and w.cost == pytest.approx(max(0.0, best.points - w.taken.points))
    assert done.cost > 0  # a random player gives up points somewhere against the expert
    listed = done.costliest(len(done.weighed))  # what the review prints: half a point or more
    assert listed and listed == tuple(w for w in done.weighed if w.cost >= NOTICEABLE)
    assert done.costliest(1) == listed[:1]


def test_think_scales_the_experts_search_and_one_seed_still_gives_one_choice() -> None:
    from p2pspades.bots import THINK, ExpertBot, set_think
    from p2pspades.bots.registry import UnknownBot, think_budget

    rules = PRESETS["classic"]
    decision = to_first_decision(rules, dealt(rules, 2), 0)
    playouts = {}
    try:
        for level in THINK:
            set_think(level)
            # the level sets a count of playouts; the clock, a cap on a loaded machine, is left out
            first, second = make_bot("expert", 5, clock=False), make_bot("expert", 5, clock=False)
            assert isinstance(first, ExpertBot) and isinstance(second, ExpertBot)
            assert first.iterations == ExpertBot(5, time_budget=think_budget()).iterations
            assert first(decision) == second(decision)
            assert not first.capped and first.playouts == second.playouts
            playouts[level] = first.playouts
        with pytest.raises(UnknownBot, match="choose one of: fast, normal, deep"):
            set_think("slow")
    finally:
        set_think("normal")
    assert playouts["fast"] < playouts["normal"] < playouts["deep"]


def test_a_bid_far_under_the_cards_is_weighed_with_the_bag_penalty_it_costs() -> None:
    """Seat 1 holds eight or so tricks and bids 1, far under anything the coach would search: the review
    still weighs that bid, in the same deals as the coach's own, and charges it the bags it collects; with 9
    bags already carried its side reaches the tenth, and the bid is worth the penalty less."""
    rules = PRESETS["classic"]

    def weighed(bags: int) -> Judged:
        totals = (SideTotal(0, 0), SideTotal(0, bags))  # seat 1 is on side 1
        game = Game(rules, 0, totals)
        game.apply(Deal(tuple(tuple(parse_cards(h)) for h in STRONG)))
        position = Position(1, 0, games.decision(game), Bid(1))
        judged = judge(position, "normal")
        assert judged is not None and judged.taken.action == Bid(1)
        assert Bid(1) not in [o.action for o in advise(position.decision, "normal").options]  # type: ignore[union-attr]
        assert judged.advice.choice != Bid(1) and judged.cost > 20
        return judged

    assert weighed(9).taken.points < weighed(0).taken.points - 40


STRONG = (
    "2S 3S 4S 5H 6H 7H 8D 9D TD 2C 3C 4C 5C",
    "AS KS QS JS AH KH AD KD AC KC 2H 3D 6C",
    "5S 6S 7S 8H 9H TH JH 4D 5D 6D 7C 8C 9C",
    "8S 9S TS QH 3H 4H 2D 7D JD QD TC JC QC",
)


def test_a_blind_nil_answer_is_weighed_against_bidding_on_the_cards() -> None:
    """Seat 1's side trails by 300 and is asked about blind nil before the deal: the review weighs its
    answer, blind nil, against bidding on the cards it has not seen, over deals of its own cards too."""
    rules = PRESETS["classic"]
    game = Game(rules, 0, (SideTotal(400, 0), SideTotal(100, 0)))
    assert game.phase is Phase.BLIND and game.current_seat == 1
    position = Position(1, 0, games.decision(game), BlindNil(True))
    judged = judge(position, "normal")
    assert judged is not None and judged.advice.kind is DecisionKind.BLIND_NIL
    assert judged.taken.action == BlindNil(True) and judged.taken.nil
    other = judged.advice.option(BlindNil(False))
    assert other is not None and not other.nil
    assert action_text(BlindNil(True), rules) == "blind nil"
    assert action_text(BlindNil(False), rules) == "no blind nil"
    assert judged.cost == max(0.0, judged.advice.best.points - judged.taken.points)
