"""Counts, numbers and dates in the reader's language: Polish plurals on real counts against a table written
by hand, numbers and dates through Babel, and the `stats`, `games` and `tables` listings in each language."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from p2pspades import crypto, i18n
from p2pspades.audit import Status
from p2pspades.audit.history import Ending, GameRow, Player, Stats
from p2pspades.cli.games import table_lines
from p2pspades.cli.stats import stats_lines
from p2pspades.cli.tables import listing
from p2pspades.net.discovery import parse_ad, txt_record
from p2pspades.net.lobby import LobbySeat, TableInfo
from p2pspades.rules import HandResult, HandScore, SideTotal, preset
from p2pspades.ui.text import score_sheet, score_words
from p2pspades.web import words as web_words

POLISH = {
    # n: the tricks the seat took, its bags, the games, as a Polish player says them
    1: ("1 lewa wzięta", "1 nadróbka", "1 partia"),
    2: ("2 lewy wzięte", "2 nadróbki", "2 partie"),
    5: ("5 lew wziętych", "5 nadróbek", "5 partii"),
    12: ("12 lew wziętych", "12 nadróbek", "12 partii"),
    22: ("22 lewy wzięte", "22 nadróbki", "22 partie"),
    112: ("112 lew wziętych", "112 nadróbek", "112 partii"),
}


@pytest.mark.parametrize("n", sorted(POLISH))
def test_polish_counts_take_the_form_a_polish_player_says(n: int) -> None:
    tricks, bags, games = POLISH[n]
    with i18n.speaking("pl"):
        lines = stats_lines(Stats(games=n, wins=0, losses=0, hands=n, tricks=n, bags=n, points=10 * n), None)
    assert lines[0].startswith(f"profil 'default': {games}, 0 wygranych, 0 porażek")
    assert f"  {tricks}, {bags}" in lines


def test_german_and_french_counts_take_their_forms() -> None:
    with i18n.speaking("de"):
        assert "  1 Stich gemacht, 2 Sandsäcke" in stats_lines(Stats(tricks=1, bags=2), None)
    with i18n.speaking("fr"):  # French counts nothing in the plural: "0 pli"
        assert "  0 pli remporté, 1 sac" in stats_lines(Stats(tricks=0, bags=1), None)
        assert "  2 plis remportés, 22 sacs" in stats_lines(Stats(tricks=2, bags=22), None)


def test_numbers_are_written_as_the_locale_writes_them() -> None:
    cases = {"en": ("12,345.5", "-3.2"), "de": ("12.345,5", "-3,2"), "fr": ("12\u202f345,5", "-3,2"),
             "pl": ("12\u00a0345,5", "-3,2")}
    for lang, (big, small) in cases.items():
        with i18n.speaking(lang):
            assert (i18n.number(12345.5, 1), i18n.number(-3.25, 1)) == (big, small), lang
    with i18n.speaking(i18n.Choice("en", "en_GB", "LANG")):
        assert i18n.number(1234567) == "1,234,567"
    with i18n.speaking("de"):
        stats = stats_lines(Stats(hands=4, points=50), None)
        assert "  4 Runden: im Schnitt 12,5 Punkte je Runde" in stats


def test_dates_are_written_as_the_locale_writes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    try:
        when = 1796566500.0  # 2026-12-06 14:15 UTC
        shown = {}
        for choice in ("en", "de", "fr", "pl", i18n.Choice("en", "en_GB", "LANG")):
            with i18n.speaking(choice):
                shown[str(choice)] = i18n.moment(when)
        assert list(shown.values()) == ["Dec 6, 2026, 2:15\u202fPM", "06.12.2026, 14:15",
                                        "6 déc. 2026, 14:15", "6 gru 2026, 14:15", "6 Dec 2026, 14:15"]
    finally:
        monkeypatch.undo()
        time.tzset()


def row(ending: Ending, **fields: object) -> GameRow:
    players = (Player(0, "ana", "aaaa-aaaa-aaaa-aaaa", 0), Player(1, "bo", "bbbb-bbbb-bbbb-bbbb", 1),
               Player(2, "cy", "cccc-cccc-cccc-cccc", 0), Player(3, "di", "dddd-dddd-dddd-dddd", 1))
    base: dict[str, object] = {"game_id": "ab" * 16, "table": "Friday", "seat": 0, "players": players,
                               "hands": 3}
    return GameRow("/nowhere/game.p2plog", 1796566500.0, ending, Status.VALID, "valid", **(base | fields))  # type: ignore[arg-type]


def test_the_games_listing_speaks_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    rows = [row(Ending.COMPLETE, winners=(("ana", "cy"),), won=True),
            row(Ending.ABANDONED, winners=(("bo", "di"),), won=False), row(Ending.RUNNING, hands=2)]
    try:
        with i18n.speaking("de"):
            lines = table_lines(rows, None)
        assert lines[0].split() == ["Datum", "Tisch", "Spieler", "(*", "du)", "Ergebnis", "Befund",
                                    "Protokoll"]
        assert lines[1].startswith(
            "06.12.2026, 14:15  Friday  ana*+cy gegen bo+di  Sieger: ana+cy (du hast gewonnen)")
        assert "abgebrochen: Sieger kampflos: bo+di (du hast verloren)" in lines[2]
        assert "läuft noch (2 Runden bisher)" in lines[3] and "gültig" in lines[3]
        with i18n.speaking("pl"):
            lines = table_lines([row(Ending.RUNNING, hands=1), row(Ending.RUNNING, hands=22)], None)
        assert "w toku (1 rozdanie dotąd)" in lines[1] and "w toku (22 rozdania dotąd)" in lines[2]
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_tables_listing_says_each_table_s_rules_in_the_reader_s_language() -> None:
    host = crypto.Identity.generate()
    seats = (LobbySeat(0, "ana", host.public, "tcp://127.0.0.1:7000"),)
    info = TableInfo("Friday", preset("house", deuces_high=True), host.public, bytes(16), seats)
    props = {k.encode(): v.encode() for k, v in txt_record(info).items()}
    ad = parse_ad("x", props, ["192.168.1.9"], 4242)
    with i18n.speaking("de"):
        lines = listing([ad])
    assert lines[0].split() == ["Tisch", "Regeln", "frei", "Version", "Schlüssel", "des", "Gastgebers"]
    assert lines[1].split() == ["Friday", "house", "3", "von", "4", "2", ad.host_fingerprint]
    assert lines[2].strip() == "Optionen: Mindestgebot je Team 4, 10 für 200, Boston +200, Zweien hoch"
    assert lines[3].strip() == "beitreten mit: p2pspades join 192.168.1.9:4242"
    with i18n.speaking("pl"):
        said = listing([ad])[2].strip()
    assert said == "opcje: min. deklaracja pary 4, 10 za 200, Boston +200, wysokie dwójki"
    assert all(len(line) <= 80 for line in lines)


def test_the_rules_listing_fits_80_columns_of_prose_in_every_language(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    from p2pspades.cli.main import main

    for lang in i18n.LANGUAGES:
        assert main(["rules", "piki", "--lang", lang]) == 0
        out = capsys.readouterr().out
        prose = [line for line in out.splitlines() if line.startswith("    ") or not line.startswith(
            tuple("abcdefghijklmnopqrstuvwxyz"))]
        assert all(len(line) <= 80 for line in prose), lang


SCREENS_POLISH = {
    # n: a side's bags on the hand's summary, its total with them, the hands audited on the game over, the
    # earlier hands the score sheet leaves out: as a Polish player says them
    1: ("1 nadróbka +1", "suma 40, 1 nadróbka", "sprawdzono 1 rozdanie: zaliczone 1",
        "(1 wcześniejsze rozdanie"),
    2: ("2 nadróbki +2", "suma 40, 2 nadróbki", "sprawdzono 2 rozdania: zaliczone 2",
        "(2 wcześniejsze rozdania"),
    5: ("5 nadróbek +5", "suma 40, 5 nadróbek", "sprawdzono 5 rozdań: zaliczone 5",
        "(5 wcześniejszych rozdań"),
    22: ("22 nadróbki +22", "suma 40, 22 nadróbki", "sprawdzono 22 rozdania: zaliczone 22",
         "(22 wcześniejsze rozdania"),
}


@pytest.mark.parametrize("n", sorted(SCREENS_POLISH))
def test_polish_counts_on_the_game_screens_take_the_form_a_polish_player_says(n: int) -> None:
    bags, total, audited, earlier = SCREENS_POLISH[n]
    rules = preset("classic")
    score = HandScore(side=0, contract=4, tricks=4 + n, made=True, contract_points=40, bags=n, bag_points=n,
                      penalty_points=0, nil_points=0, penalized=False, points=40 + n)
    hands = [HandResult(number=k + 1, dealer=0, bids=(1, 1, 1, 1), blind=(False,) * 4,
                        tricks_won=(4, 3, 3, 3),
                        tricks_scored=(4, 3, 3, 3), scores=(score, score._replace(side=1)),
                        totals=(SideTotal(), SideTotal()), hands=(),
                        tricks=(), violations=())
             for k in range(n + 3)]
    with i18n.speaking("pl"):
        said = score_words(score, rules)
        summed = web_words.side_total(40, n)
        over = web_words.audited(n, 0)
        sheet = score_sheet(rules, ["ana", "bo", "cy", "di"], hands, last=3)
    assert said == f"deklaracja 4, wzięte {4 + n}: ugrany +40; {bags}"
    assert summed == total and over == audited
    assert any(earlier in text for line in sheet for _style, text in line), sheet
