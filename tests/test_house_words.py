"""The score sheet names the house bonuses ("10 for 200 +200", "Boston +200", "Boston: wins the game") beside
the bag penalty, and the options in force are shown wherever a table is described: the lobby, the game
screen's help, the replay, the text record. Scores come from hands the engine plays with forced cards."""

from __future__ import annotations

import dataclasses

import pytest
from helpers.hands import every_trick_to_seat_0
from prompt_toolkit.formatted_text import StyleAndTextTuples
from test_ui_dialogs import setup_for

from p2pspades.audit import Verdict, verify_frames
from p2pspades.bots import RandomBot
from p2pspades.describe import bonuses
from p2pspades.describe.record import text_record
from p2pspades.rules import (
    PRESETS,
    HandResult,
    Phase,
    SideTotal,
    preset,
    score_hand,
)
from p2pspades.table.harness import play_in_memory
from p2pspades.ui.replay import ReplayModel, trick_text
from p2pspades.ui.replay import help_text as replay_help
from p2pspades.ui.screens import help_text, summary_text
from p2pspades.ui.state import UiState
from p2pspades.ui.text import rules_lines, score_words

HOUSE = "min team bid 4, 10 for 200, Boston +200"
HouseGame = tuple[Verdict, HandResult]


def text(line: StyleAndTextTuples) -> str:
    return "".join(fragment[1] for fragment in line)


# ----- the words of a hand's score --------------------------------------------------------------------------


def test_a_house_hand_names_10_for_200_and_boston() -> None:
    rules = PRESETS["house"]
    hand = every_trick_to_seat_0(rules, (13, 1, 0, 3)).history[-1]
    made, set_ = hand.scores
    assert score_words(made, rules) == (
        "bid 13, took 13: made +130; nil +100; 10 for 200 +200; Boston +200")
    assert made.points == 130 + 100 + 200 + 200
    assert score_words(set_, rules) == "bid 4, took 0: set -40"


def test_boston_that_wins_the_game_says_so_and_scores_no_bonus() -> None:
    rules = preset("classic", boston="win")
    game = every_trick_to_seat_0(rules, (13, 1, 0, 1))
    assert game.phase is Phase.GAME_OVER
    assert score_words(game.history[-1].scores[0], rules) == (
        "bid 13, took 13: made +130; nil +100; Boston: wins the game")


def test_without_house_rules_the_same_hand_names_no_bonus() -> None:
    rules = PRESETS["classic"]
    words = score_words(every_trick_to_seat_0(rules, (13, 1, 0, 1)).history[-1].scores[0], rules)
    assert words == "bid 13, took 13: made +130; nil +100"


def test_the_bag_penalty_is_named_beside_the_bonuses() -> None:
    rules = preset("house", bag_limit=3)
    scores, _ = score_hand(rules, [10, 2, 0, 2], [False] * 4, [12, 1, 0, 0], (SideTotal(0, 2), SideTotal()))
    assert bonuses(rules, scores[0]) == ["bag penalty -100", "10 for 200 +200"]
    assert score_words(scores[0], rules) == (
        "bid 10, took 12: made +100; 2 bags +2; nil +100; bag penalty -100; 10 for 200 +200")


# ----- the records, the replay and the screens ------------------------------------------------------------


@pytest.fixture(scope="module")
def house_game() -> HouseGame:
    """A real house game (random bots, verified from its log) and a real Boston hand of the same rules. The
    game is short (the first hand that scores ends it) and of protocol version 1, which proves less live."""
    rules = PRESETS["house"].replace(target=1, losing_threshold=-1)
    wire = play_in_memory(rules, [RandomBot(i) for i in range(4)], seed=b"house words", version=1)
    verdict = verify_frames(list(wire.tables[0].entries))
    assert verdict.table is not None and verdict.hands
    boston = every_trick_to_seat_0(rules, (13, 1, 0, 3)).history[-1]
    assert verdict.table.rules == rules
    return verdict, boston


def test_the_text_record_names_the_options_and_each_hand_s_bonuses(house_game: HouseGame) -> None:
    verdict, boston = house_game
    record = text_record(verdict)
    assert f'[Rules "house"]\n[Options "out at -1, {HOUSE}"]\n' in record
    shown = text_record(dataclasses.replace(verdict, hands=[boston]))
    score = next(line for line in shown.splitlines() if line.startswith("[Score "))
    assert "(0 bags; 10 for 200 +200; Boston +200)" in score
    assert "(0 bags)" in score  # the other side: no bonus


def test_a_classic_record_names_only_what_differs_from_the_classic_game() -> None:
    rules = PRESETS["classic"].replace(target=1, losing_threshold=-1)
    wire = play_in_memory(rules, [RandomBot(i) for i in range(4)], seed=b"classic words", version=1)
    record = text_record(verify_frames(list(wire.tables[0].entries)))
    assert '[Rules "classic"]\n[Options "out at -1"]\n' in record
    assert "10 for 200" not in record and "Boston" not in record


def test_the_replay_names_the_bonuses_at_the_hand_s_end(house_game: HouseGame) -> None:
    verdict, boston = house_game
    model = ReplayModel(dataclasses.replace(verdict, hands=[boston, *verdict.hands]))
    model.step_hand(1)
    model.step_hand(-1)
    model.step_hand(-1)  # the start of the Boston hand: nothing scored yet
    assert "Boston" not in text(trick_text(model))
    while not model.at_end:
        model.step_card(1)
    words = text(trick_text(model))
    assert "10 for 200 +200; Boston +200" in words
    assert f"rules house (out at -1, {HOUSE}), to 1" in text(replay_help(model))


def test_the_lobby_and_the_game_screen_show_the_options_in_force(house_game: HouseGame) -> None:
    verdict, _ = house_game
    assert rules_lines(PRESETS["house"])[0] == ("rules", f"house ({HOUSE})")
    assert rules_lines(PRESETS["classic"])[0] == ("rules", "classic")
    assert verdict.table is not None
    state = UiState(0, verdict.table.setup)
    assert f"Rules: house (out at -1, {HOUSE}), to 1" in text(help_text(state))
    game = every_trick_to_seat_0(PRESETS["house"], (13, 1, 0, 3))
    state = UiState(0, setup_for(PRESETS["house"]))
    state.view = game.view(0)
    assert "10 for 200 +200; Boston +200" in text(summary_text(state))
