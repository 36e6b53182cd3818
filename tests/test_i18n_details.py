"""The details of a failed check in the reader's language: the rules engine's refusal, the audit's finding,
the deal's fault are made below the edge as `errors.Detail` (English, as the records carry it, with its
template and fields) and said in each language where a person reads them; a count in one takes the Polish
form; the records and the pickles that cross to the proof workers keep it as it is."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest
from helpers import games, pages

from p2pspades.audit import verify_file
from p2pspades.checks import Check
from p2pspades.describe import failed
from p2pspades.errors import N_, Detail, N_plural, detail_of
from p2pspades.i18n import PSEUDO, said, speaking
from p2pspades.i18n.catalogs import CLOSE, OPEN
from p2pspades.rules import PRESETS, Bid, IllegalAction, Play, parse_cards
from p2pspades.rules.audit import audit_hand

HANDS = (
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)


def refusal(action: object, seat: int) -> str:
    """The detail of a refused action of `seat` in a classic game dealt `HANDS` (seat 1 bids first)."""
    game = games.dealt(PRESETS["classic"], 0, HANDS)
    with pytest.raises(IllegalAction) as refused:
        game.apply(action, seat=seat)  # type: ignore[arg-type]
    return detail_of(refused.value)


def test_a_refused_bid_is_said_in_each_language() -> None:
    detail = refusal(Bid(14), 1)
    assert detail == "seat 1 bid 14: bids are 1 to 13 (or 0 for nil)" and isinstance(detail, Detail)
    said_in = {}
    for lang in ("de", "fr", "pl"):
        with speaking(lang):
            said_in[lang] = failed(Check.RULES, detail, 1)
    assert said_in == {
        "de": "Platz 1 hat die Prüfung rules nicht bestanden: Platz 1 bot 14: Gebote sind 1 bis 13 (oder 0 "
              "für Nil)",
        "fr": "la place 1 a échoué à la vérification rules\u00a0: la place 1 a annoncé 14\u00a0: les "
              "enchères vont de 1 à 13 (ou 0 pour nil)",
        "pl": "miejsce 1 nie przeszło kontroli rules: miejsce 1 zadeklarowało 14: deklaracje to 1 do 13 "
              "(albo 0 jako zero)",
    }


def test_a_bid_out_of_turn_names_both_seats_in_german() -> None:
    detail = refusal(Bid(3), 2)
    with speaking("de"):
        assert said(detail) == "Platz 1 ist am Zug, nicht Platz 2"


def test_a_renege_found_by_the_audit_names_the_suit_in_the_language() -> None:
    """Seat 1 leads a heart while seat 2 holds hearts and plays a diamond instead: the audit's finding names
    the led suit as players of each language do."""
    rules = PRESETS["classic"]
    hands = [parse_cards(h) for h in (
        "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2C",
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2D",
        "2H KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2S",
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C AD",
    )]
    plays = parse_cards("AH KD AC 2C")  # seat 1 leads (dealer 0); seat 2 holds the 2H
    found = [v for v in audit_hand(rules, 0, hands, [4, 4, 4, 1], plays) if v.kind == "renege"]
    assert [v.seat for v in found] == [2]
    detail = found[0].detail
    assert detail == "seat 2 played KD on trick 1 while holding hearts, the led suit"
    with speaking("de"):
        assert said(detail) == "Platz 2 spielte KD im Stich 1, obwohl er Herz hielt, die ausgespielte Farbe"
    with speaking("pl"):
        assert said(detail) == "miejsce 2 zagrało KD w lewie 1, mając kiery, kolor wyjścia"


@pytest.mark.parametrize(("n", "spades"), [(1, "1 pik"), (2, "2 piki"), (5, "5 pików"), (22, "22 piki")])
def test_a_count_in_a_detail_takes_the_form_a_polish_player_says(n: int, spades: str) -> None:
    detail = Detail(N_plural("{n} spade{cards}", "{n} spades{cards}"), n=n, cards="")
    assert detail == (f"{n} spade" if n == 1 else f"{n} spades")
    with speaking("pl"):
        assert said(detail) == spades


def test_a_violation_in_a_verified_log_is_said_to_its_detail(tmp_path: Path) -> None:
    """A forged key, verified from the log on disk (the proofs checked on worker processes): the summary is
    the reader's language through the detail, and the JSON record keeps the English."""
    verdict = verify_file(pages.forged_card(tmp_path / "forged.p2plog"))
    assert verdict.violation is not None
    english = verdict.summary
    assert "the key for position 24 does not match the seat's P_24" in english
    with speaking("de"):
        assert "der Schlüssel für Position 24 passt nicht zum P_24 des Platzes" in verdict.summary
    with speaking("fr"):
        assert "la clé de la position 24 ne correspond pas au P_24 de la place" in verdict.summary
    with speaking("pl"):
        assert "klucz dla pozycji 24 nie pasuje do P_24 miejsca" in verdict.summary
        assert verdict.violation.detail in json.dumps(verdict.violation.detail)


def test_a_detail_is_its_english_for_the_records_and_keeps_its_template_across_processes() -> None:
    inner = Detail(N_("the key published for position {j} is wrong"), j=7)
    outer = Detail(N_("position {position}: {detail}"), position=3, detail=inner)
    assert outer == "position 3: the key published for position 7 is wrong"
    assert json.loads(json.dumps({"detail": outer})) == {"detail": str(outer)}
    again = pickle.loads(pickle.dumps(outer))
    assert again == outer and again.template == outer.template
    assert isinstance(again.fields["detail"], Detail) and again.fields["detail"].template == inner.template
    with speaking("fr"):
        assert said(again) == "position 3\u00a0: la clé publiée pour la position 7 est fausse"


def test_in_the_pseudo_locale_a_detail_and_its_fields_are_marked() -> None:
    detail = refusal(Play(parse_cards("AH")[0]), 1)  # a card in the bidding phase
    with speaking(PSEUDO):
        text = said(detail)
    assert text == f"{OPEN}Play is not allowed in the bid phase{CLOSE}"
    spade = Detail(N_("seat {seat} may not lead {card} {why} while holding other suits"), seat=0, card="AS",
                   why=Detail(N_("before spades are broken")))
    with speaking(PSEUDO):
        assert said(spade) == (f"{OPEN}seat 0 may not lead AS {OPEN}before spades are broken{CLOSE} while "
                               f"holding other suits{CLOSE}")
