"""Typing a card in the player's language (German dh, 10kr; French dc, 10p; Polish dki, 10t) as well as with
the English codes, on the game screen's model, and the help that says how."""

from __future__ import annotations

import pytest
from helpers.games import decision, shuffled

from p2pspades import i18n
from p2pspades.rules import FULL_DECK, Bid, Card, Game, Phase, Play, RuleSet, deal_from_order, preset
from p2pspades.table import Decision
from p2pspades.table.harness import Wire
from p2pspades.ui import cardinput
from p2pspades.ui.keys import help_lines
from p2pspades.ui.state import UiState

pytestmark = pytest.mark.timeout(30)

SPOKEN = {
    # language: a card as its players type it
    "en": {"QH": "qh", "TS": "10s", "KD": "kd", "JC": "jc", "BJ": "bj", "LJ": "lj"},
    "de": {"QH": "dh", "TS": "10p", "KD": "kka", "JC": "bkr", "BJ": "gj", "LJ": "kj"},
    "fr": {"QH": "dc", "TS": "10p", "KD": "rk", "JC": "vt", "BJ": "gj", "LJ": "pj"},
    "pl": {"QH": "dki", "TS": "10p", "KD": "kka", "JC": "wt", "BJ": "dj", "LJ": "mj"},
}
FRENCH_HEARTS = {"ac", *(f"{n}c" for n in range(2, 11))}
"""English codes that name another card in French, where c is cœur: the player's language wins."""


@pytest.mark.parametrize("lang", list(SPOKEN))
def test_every_card_has_one_code_of_the_language_and_it_names_that_card(lang: str) -> None:
    with i18n.speaking(lang):
        for code, typed in SPOKEN[lang].items():
            assert cardinput.typed_code(Card.parse(code)) == typed
        local = [cardinput.typed_code(card) for card in FULL_DECK]
        assert len(set(local)) == len(FULL_DECK)
        for typed, card in zip(local, FULL_DECK, strict=True):
            assert cardinput.card_of(typed) is card and cardinput.card_of(typed.upper()) is card
        assert max(map(len, local)) <= cardinput.MAX_LENGTH
        assert cardinput.card_of("zz") is None and cardinput.card_of("") is None


@pytest.mark.parametrize("lang", list(SPOKEN))
def test_the_english_codes_work_in_every_language_unless_they_name_another_card(lang: str) -> None:
    with i18n.speaking("en"):
        english = {code: cardinput.card_of(code) for code in cardinput.codes()}
    with i18n.speaking(lang):
        differ = {code for code, card in english.items() if cardinput.card_of(code) is not card}
    assert differ == (FRENCH_HEARTS if lang == "fr" else set())
    with i18n.speaking("fr"):
        assert cardinput.card_of("ac") is Card.parse("AH") and cardinput.card_of("kc") is Card.parse("KC")


@pytest.mark.parametrize("lang", list(SPOKEN))
def test_the_keys_that_start_and_continue_a_code_follow_the_language(lang: str) -> None:
    with i18n.speaking(lang):
        codes = [cardinput.typed_code(card) for card in FULL_DECK if not card.is_joker]
        assert all(cardinput.starts_code(code[0], jokers=False) for code in codes)
        assert all(cardinput.continues_code(key) for code in codes for key in code[1:])
        jokers = [cardinput.typed_code(Card.parse("BJ")), cardinput.typed_code(Card.parse("LJ"))]
        assert all(cardinput.starts_code(code[0], jokers=True) for code in jokers)
        # the keys of the game screen's windows still open them: they start no code
        assert not any(cardinput.starts_code(key, jokers=False) for key in "s?")
        help_line = cardinput.codes_help()
        assert len(help_line) <= 80 and SPOKEN[lang]["QH"] in help_line and SPOKEN[lang]["TS"] in help_line


def test_the_help_says_how_to_type_a_card_in_the_language() -> None:
    with i18n.speaking("de"):
        assert cardinput.codes_help() == (
            "Kartencode: Rang (2-10, b, d, k, a) und Farbe (p, h, ka, kr), etwa dh oder 10p")
        rows = dict(help_lines())
        assert rows["dh, 10p, ap, gj…"] == "Kartencode tippen (auch englisch: qh, 10s), dann Enter"
    with i18n.speaking("en"):
        assert dict(help_lines())["qh, 10s, as, bj…"] == "type a card code, then Enter, to play that card"
    with i18n.speaking("pl"):
        row = dict(help_lines())["dki, 10p, ap, dj…"]
    assert row == "wpisz kod karty (lub angielski: qh, 10s), potem Enter"


def first_card_decision(rules: RuleSet) -> Decision:
    game = Game(rules, 3)
    game.apply(deal_from_order(rules, 3, shuffled(rules, b"lang")))
    while game.phase is not Phase.PLAY:
        game.apply(min(decision(game).legal, key=lambda a: a.tricks if isinstance(a, Bid) else 0))
    return decision(game)


@pytest.mark.parametrize("lang", ["de", "fr", "pl"])
async def test_a_card_typed_in_the_language_is_played_on_the_game_screen(
    lang: str, finished_game: Wire,
) -> None:
    table = finished_game.tables[0]
    turn = first_card_decision(preset("classic"))
    legal = sorted(a.card for a in turn.legal if isinstance(a, Play))
    with i18n.speaking(lang):
        for card, english in ((legal[-1], False), (legal[0], True)):
            state = UiState(turn.view.seat, table.setup)
            answer = state.publish(turn)
            code = cardinput._english(card) if english else cardinput.typed_code(card)
            if english and cardinput.card_of(code) is not card:
                continue  # a French clash: the French card wins, as the test above shows
            for key in code:
                assert state.type_key(key), (lang, code, key)
            assert state.selected is card
            assert state.submit() and answer.done() and answer.result() == Play(card)
        state = UiState(turn.view.seat, table.setup)
        state.publish(turn)
        for key in "dd":  # a queen's letter twice: no card, in any language
            assert state.type_key(key)
        assert not state.submit() and state.message is not None
        assert state.message.text == cardinput.why_not_a_card("dd")
        assert state.message.text.split(": ", 1)[1] == cardinput.codes_help()
