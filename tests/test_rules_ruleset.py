"""Rule sets: presets, derived decks and hand sizes, the dict round trip and refusal of inconsistent sets."""

from __future__ import annotations

import dataclasses
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from p2pspades.rules import PRESETS, RuleSet, RuleSetError, parse_cards, preset

PRESET_NAMES = ["individual", "partnership", "piki", "classic", "cutthroat3", "five", "two", "house",
                "suicide", "mirror", "whiz"]


def test_the_eight_presets_ship() -> None:
    assert sorted(PRESETS) == sorted(PRESET_NAMES)
    for name, rules in PRESETS.items():
        assert rules.preset == name


@pytest.mark.parametrize(
    ("name", "players", "deck_size", "hand_size", "removed"),
    [
        ("individual", 4, 52, 13, "2D 2C"),  # 54 with the jokers, two 2s out
        ("partnership", 4, 52, 13, ""),
        ("piki", 4, 52, 13, ""),
        ("classic", 4, 52, 13, ""),
        ("cutthroat3", 3, 51, 17, "2C"),
        ("five", 5, 50, 10, "2S 2H 2D 2C"),
        ("two", 2, 52, 13, ""),  # the draw pile: 13 kept each, 26 discarded
        ("house", 4, 52, 13, ""),
    ],
)
def test_preset_decks(name: str, players: int, deck_size: int, hand_size: int, removed: str) -> None:
    rules = PRESETS[name]
    assert rules.players == players
    assert len(rules.deck) == deck_size
    assert rules.hand_size == rules.tricks_per_hand == hand_size
    assert list(rules.removed_cards) == parse_cards(removed)
    assert not set(rules.deck) & set(rules.removed_cards)


def test_three_players_with_jokers_get_18_cards_and_without_17() -> None:
    with_jokers = RuleSet(players=3, partnerships=False, jokers=True)
    assert len(with_jokers.deck) == 54 and with_jokers.hand_size == 18 and with_jokers.removed_cards == ()
    without = RuleSet(players=3, partnerships=False, jokers=False)
    assert len(without.deck) == 51 and without.hand_size == 17
    assert [card.code for card in without.removed_cards] == ["2C"]


def test_default_removed_cards_by_player_count() -> None:
    expected = {
        (2, True): "2D 2C", (3, True): "", (4, True): "2D 2C", (5, True): "2S 2H 2D 2C",
        (2, False): "", (3, False): "2C", (4, False): "", (5, False): "2D 2C",
    }
    for (players, jokers), removed in expected.items():
        rules = RuleSet(players=players, partnerships=False, jokers=jokers)
        assert list(rules.removed_cards) == parse_cards(removed)
        assert len(rules.deck) % players == 0
    assert RuleSet(players=5, partnerships=False, jokers=False).hand_size == 10
    assert RuleSet(players=2, partnerships=False, jokers=False).hand_size == 26  # "deal all"


def test_preset_settings_follow_the_texts() -> None:
    individual = PRESETS["individual"]
    assert (individual.jokers, individual.nil, individual.failed_contract, individual.overtrick_points) == (
        True, False, "zero", 1)
    partnership = PRESETS["partnership"]
    assert (partnership.spade_lead, partnership.overtrick_points, partnership.bag_limit,
            partnership.failed_contract) == ("not_first_trick", -10, 10, "minus")
    piki = PRESETS["piki"]
    assert (piki.first_bidder, piki.first_leader, piki.nil_value, piki.blind_nil_margin) == (
        "dealer", "dealer", 100, 200)
    classic = PRESETS["classic"]
    assert (classic.nil_value, classic.blind_nil_value, classic.blind_nil_margin, classic.target) == (
        100, 200, 100, 500)
    assert PRESETS["two"].deal == "draw" and PRESETS["two"].first_leader == "left"


def test_sides() -> None:
    classic = PRESETS["classic"]
    assert classic.sides == ((0, 2), (1, 3))
    assert [classic.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    five = PRESETS["five"]
    assert five.sides == ((0,), (1,), (2,), (3,), (4,))
    assert [five.side_of(seat) for seat in range(5)] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_presets_round_trip_through_a_plain_dict(name: str) -> None:
    rules = PRESETS[name]
    data = rules.to_dict()
    assert all(isinstance(value, (str, int, bool, list, type(None))) for value in data.values())
    assert RuleSet.from_dict(data) == rules
    assert RuleSet.from_dict(data).to_dict() == data


def test_preset_overrides() -> None:
    short = preset("classic", target=200, losing_threshold=-200)
    assert short.target == 200 and short.losing_threshold == -200 and short.preset == "classic"
    assert preset("individual", players=3).hand_size == 18
    with pytest.raises(RuleSetError, match="unknown preset 'whist'"):
        preset("whist")
    with pytest.raises(RuleSetError, match="unknown rule option: colour"):
        preset("classic", colour="red")


def test_removed_cards_are_normalised() -> None:
    rules = RuleSet(players=3, partnerships=False, removed=["2c"])  # type: ignore[arg-type]  # a list is accepted too
    assert rules.removed == ("2C",)
    rules = RuleSet(players=5, partnerships=False, jokers=True, removed=("2C", "2s", "2H", "2D"))
    assert rules.removed == ("2S", "2H", "2D", "2C")
    assert rules.to_dict()["removed"] == ["2S", "2H", "2D", "2C"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 3}, "partnerships need 4 players"),
        ({"players": 3, "partnerships": False, "removed": []},
         "52 cards do not divide among 3 players: remove 1 more card or add jokers"),
        ({"players": 5, "partnerships": False, "jokers": True, "removed": []},
         "54 cards do not divide among 5 players: remove 4 more cards"),
        ({"players": 6, "partnerships": False}, "players must be 2 to 5, got 6"),
        ({"players": 1, "partnerships": False}, "players must be 2 to 5, got 1"),
        ({"deal": "draw"}, "the draw pile (deal 'draw') is for 2 players, got 4"),
        ({"players": 2, "partnerships": False, "deal": "draw", "removed": ["2C"]},
         "51 cards do not make a draw pile"),
        ({"min_bid": 14}, "min_bid must be between 0 and 13"),
        ({"min_bid": 0}, "min_bid 0 clashes with nil"),
        ({"nil": False, "blind_nil": True}, "blind_nil needs nil"),
        ({"overtrick_points": 5}, "overtrick_points must be 1"),
        ({"bag_limit": 0}, "bag_limit must be at least 1"),
        ({"bag_penalty": -100}, "bag_penalty must not be negative"),
        ({"target": 0}, "target must be positive"),
        ({"losing_threshold": 0}, "losing_threshold must be below 0"),
        ({"removed": ["BJ"]}, "removed: BJ is a joker"),
        ({"removed": ["2C", "2c", "2D", "2H"]}, "removed: 2C is listed twice"),
        ({"removed": ["XS"]}, "removed: bad card 'XS': rank must be one of 2-9,T,J,Q,K,A"),
        ({"removed": "2C"}, "removed must be a list of card codes"),
        ({"players": "4"}, "players must be a whole number, got '4'"),
        ({"jokers": 1}, "jokers must be true or false, got 1"),
        ({"bag_limit": True}, "bag_limit must be a whole number or none"),
        ({"spade_lead": "never"}, "spade_lead must be one of broken, not_first_trick, always; got 'never'"),
        ({"renege": "forgive"}, "renege must be one of set, three_tricks, stop"),
        ({"first_leader": "low_club", "players": 2, "partnerships": False, "deal": "draw"},
         "first_leader 'low_club' needs every card in a hand"),
        ({"preset": ""}, "preset must be a preset name or none"),
    ],
)
def test_inconsistent_rule_sets_are_refused_with_the_reason(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleSetError) as caught:
        RuleSet(**options)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_from_dict_is_strict() -> None:
    data = PRESETS["classic"].to_dict()
    with pytest.raises(RuleSetError, match="unknown rule option: colour"):
        RuleSet.from_dict({**data, "colour": "red"})
    missing = dict(data)
    del missing["target"]
    with pytest.raises(RuleSetError, match="missing rule option: target"):
        RuleSet.from_dict(missing)
    with pytest.raises(RuleSetError, match="target must be a whole number, got '500'"):
        RuleSet.from_dict({**data, "target": "500"})
    with pytest.raises(RuleSetError, match="removed must be a list of card codes"):
        RuleSet.from_dict({**data, "removed": [2]})
    with pytest.raises(RuleSetError, match="a rule set must be a map"):
        RuleSet.from_dict([("players", 4)])  # type: ignore[arg-type]


def test_rule_sets_are_frozen_and_hashable() -> None:
    rules = PRESETS["classic"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 100  # type: ignore[misc]
    assert hash(rules) == hash(RuleSet.from_dict(rules.to_dict()))
    assert len({rules, RuleSet.from_dict(rules.to_dict())}) == 1
    assert hash(dataclasses.replace(rules, target=301)) != hash(rules)  # remembered, each its own


def test_a_rule_set_unpickled_in_another_process_hashes_as_that_process_makes_it() -> None:
    """A rule set remembers its hash; a string's hash differs from one process to another (PYTHONHASHSEED),
    so a pickled rule set, sent to a worker process, must not carry the hash of the process it came from."""
    rules = preset("classic", target=300)
    hash(rules)  # worked out here first, so that a pickle of the remembered hash would show
    script = ("import pickle, sys\n"
              "from p2pspades.rules import preset\n"
              "came = pickle.loads(sys.stdin.buffer.read())\n"
              "here = preset('classic', target=300)\n"
              "print(came == here, hash(came) == hash(here), {here: 'found'}.get(came))\n")
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", script], input=pickle.dumps(rules), env=env,
                              capture_output=True, check=True)
        assert done.stdout.decode().split() == ["True", "True", "found"]


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    """Any rule set the validation accepts (a drawn combination that is refused is rejected by `assume`)."""
    players = draw(st.integers(2, 5))
    options: dict[str, Any] = {
        "players": players,
        "partnerships": players == 4 and draw(st.booleans()),
        "jokers": draw(st.booleans()),
        "deal": "draw" if players == 2 and draw(st.booleans()) else "all",
        "nil": draw(st.booleans()),
        "nil_value": draw(st.sampled_from([50, 100])),
        "blind_nil_value": draw(st.sampled_from([100, 200])),
        "blind_nil_margin": draw(st.sampled_from([0, 100, 200])),
        "nil_tricks_count_for_partner": draw(st.booleans()),
        "first_bidder": draw(st.sampled_from(["left", "dealer"])),
        "spade_lead": draw(st.sampled_from(["broken", "not_first_trick", "always"])),
        "overtrick_points": draw(st.sampled_from([1, -10])),
        "bag_limit": draw(st.sampled_from([None, 5, 10])),
        "bag_penalty": draw(st.sampled_from([0, 50, 100])),
        "failed_contract": draw(st.sampled_from(["zero", "minus"])),
        "target": draw(st.sampled_from([100, 200, 500])),
        "losing_threshold": draw(st.sampled_from([None, -100, -500])),
        "tie": draw(st.sampled_from(["another_hand", "shared"])),
        "renege": draw(st.sampled_from(["set", "three_tricks", "stop"])),
        "preset": draw(st.sampled_from([None, "classic", "my table"])),
    }
    options["blind_nil"] = options["nil"] and draw(st.booleans())
    options["min_bid"] = draw(st.integers(1 if options["nil"] else 0, 4))
    leaders = ["left", "dealer"] if options["deal"] == "draw" else ["left", "dealer", "low_club"]
    options["first_leader"] = draw(st.sampled_from(leaders))
    if draw(st.booleans()):
        pool = parse_cards("2S 2H 2D 2C 3S 3H 3D 3C")
        options["removed"] = [card.code for card in draw(st.lists(st.sampled_from(pool), unique=True))]
    try:
        return RuleSet(**options)
    except RuleSetError:
        assume(False)
        raise


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(rule_sets())
def test_any_valid_rule_set_round_trips_exactly(rules: RuleSet) -> None:
    data = rules.to_dict()
    again = RuleSet.from_dict(data)
    assert again == rules
    assert again.to_dict() == data
    assert again.deck == rules.deck and again.hand_size == rules.hand_size
    size = len(rules.deck)
    assert size == rules.hand_size * (4 if rules.deal == "draw" else rules.players)


def test_the_documented_preset_table_is_true() -> None:
    """docs/rules.md shows every preset's settings; keep it in step with the code."""
    text = (Path(__file__).parent.parent / "docs" / "rules.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| option | `individual`"))
    names = [cell.strip(" `") for cell in lines[start].strip("|").split("|")[1:]]
    assert names == PRESET_NAMES
    rows = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0]] = cells[1:]
    for column, name in enumerate(names):
        rules = PRESETS[name]
        for field in dataclasses.fields(rules):
            if field.name == "preset":
                continue
            if field.name == "removed":
                shown = rows["`removed` (default)"][column]
                assert shown == (" ".join(card.code for card in rules.removed_cards) or "—")
            else:
                assert rows[f"`{field.name}`"][column] == str(getattr(rules, field.name)), (name, field.name)
        assert rows["cards in play / each"][column] == f"{len(rules.deck)} / {rules.hand_size}"
