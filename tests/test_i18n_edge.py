"""What a person reads of an error made below the edge is said in their language: a peer's bid the rules
engine refuses (through `verify`), a lobby frame's field of the wrong size (what the lobby says of the host's
bad message), a note a table drops, a seed or a point of the wrong size, and a saved game's unknown bot (what
`resume` prints). In the pseudo-locale every word of such a line is between the markers, so none escapes the
catalogs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import pages

from p2pspades import i18n
from p2pspades.bots.coach import Advice, Option
from p2pspades.bots.registry import UnknownBot, think_budget
from p2pspades.crypto import BadPoint, BadSeed, check_deck, check_seed
from p2pspades.describe.coaching import given_up
from p2pspades.errors import detail_of
from p2pspades.i18n import PSEUDO, said, speaking
from p2pspades.i18n.catalogs import CLOSE, OPEN
from p2pspades.net.lobby_messages import Accept, BadLobbyMessage
from p2pspades.net.seats import SessionError, make_bot
from p2pspades.rules import PRESETS, Bid
from p2pspades.table.events import DecisionKind

MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")


def outside(text: str) -> str:
    """What of `text` is outside the pseudo-locale's markers (messages within messages too)."""
    while (inner := MARKED.sub(" ", text)) != text:
        text = inner
    return text


def words_outside(text: str) -> list[str]:
    """The words of prose outside the markers (not a number, a quoted value or a code in brackets)."""
    rest = re.sub(r"'[^']*'|\[[^\]]*\]", " ", outside(text))
    return re.findall(r"[^\W\d_]{2,}", rest)


def test_outside_finds_a_word_left_out_of_the_markers() -> None:
    """The checks below can fail: a word outside the markers is found, one inside is not."""
    assert words_outside(f"{OPEN}a bid {OPEN}inside{CLOSE}{CLOSE} of length 3") == ["of", "length"]
    assert words_outside(f"{OPEN}unknown bot 'nonsense'{CLOSE}: [1, 2]") == []


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, i18n.PSEUDO_ENV: "1"}
    env.pop(i18n.ENV, None)
    return subprocess.run([sys.executable, "-m", "p2pspades", *args], env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def test_verify_says_a_bid_the_rules_refuse_in_the_reader_language(tmp_path: Path) -> None:
    """A seat signs a bid of -3 (the wire takes any whole number; the rules engine refuses it): the
    verdict's detail is said in the language of `verify`, every word of it marked in the pseudo-locale."""
    game = pages.signed_bid(tmp_path / "negative.p2plog", -3)
    pseudo = run("verify", "--lang", PSEUDO, str(game))
    assert pseudo.returncode == 1, pseudo.stderr
    first = pseudo.stdout.splitlines()[0]
    assert "a bid cannot be negative, got -3" in first and words_outside(first) == [], first
    german = run("verify", "--lang", "de", str(game))
    assert german.returncode == 1
    assert "ein Gebot kann nicht negativ sein, erhalten: -3" in german.stdout
    assert "negative" not in german.stdout
    polish = run("verify", "--lang", "pl", str(game))
    assert "deklaracja nie może być ujemna, otrzymano: -3" in polish.stdout


def test_a_saved_game_with_an_unknown_bot_is_refused_in_the_reader_language() -> None:
    """`resume` makes the bots a seat's local.json names (`net.seats.make_bot`): an unknown one is the
    command's one line, said as the other errors are."""
    with pytest.raises(SessionError) as refused:
        make_bot("nonsense")
    with speaking(PSEUDO):
        text = said(refused.value)
    assert text.startswith(OPEN) and words_outside(text) == [], text
    with speaking("pl"):
        assert said(refused.value) == ("nieznany bot 'nonsense'; wybierz jeden z: easy, normal, expert "
                                       "(albo random)")
    with pytest.raises(UnknownBot) as think:
        think_budget("slow")
    with speaking("de"):
        assert said(detail_of(think.value)) == ("unbekannte Stufe für --think 'slow'; wähle eine von: fast, "
                                                "normal, deep")


def test_a_lobby_field_of_the_wrong_size_is_said_with_what_it_holds() -> None:
    """The host's bad message is a lobby line ("the host sent a bad accept: ..."): the field's name, its size
    and what came instead ("a str of length 3") are words of the reader's language."""
    with pytest.raises(BadLobbyMessage) as bad:
        Accept.decode({"l": "abc", "x": b"\0" * 32})
    assert bad.value.detail == "the lobby id is 16 bytes, not a str of length 3"
    with speaking(PSEUDO):
        text = said(bad.value.detail)
    assert words_outside(text) == [] and text.count(OPEN) == 3, text
    with speaking("fr"):
        assert said(bad.value.detail) == ("l’identifiant du salon\u00a0: 16 octets attendus, "
                                          "reçu\u00a0: un str de longueur 3")
    with pytest.raises(BadLobbyMessage) as missing:
        Accept.decode({"l": b"\0" * 16})
    with speaking(PSEUDO):
        assert words_outside(said(missing.value.detail)) == []


def test_a_seed_or_a_point_of_the_wrong_size_is_said_in_the_reader_language() -> None:
    with pytest.raises(BadSeed) as seed:
        check_seed(b"short")
    with pytest.raises(BadPoint) as point:
        check_deck([b"\1" * 31], 1)
    for error in (seed.value, point.value):
        with speaking(PSEUDO):
            assert words_outside(said(error.detail)) == [], said(error.detail)
    with speaking("de"):
        assert said(seed.value.detail) == "ein Startwert hat 32 Bytes, erhalten: 5"
    with speaking("pl"):
        assert said(point.value.detail).endswith("punkt ma 32 B, otrzymano: 31 B")


def test_the_coach_names_a_bid_it_weighed_where_its_grammar_holds() -> None:
    """A bid the coach weighed is "deklaracja 13", a noun in the nominative: the Polish sentence names it
    after a colon, never after "z" (which would want "z deklaracją 13"); French names it without an article
    that would have to agree with it."""
    rules = PRESETS["classic"]
    chosen, best = Option(Bid(13), -130.0, 0.1, (Bid(13),)), Option(Bid(4), 40.0, 0.8, (Bid(4),))
    advice = Advice(DecisionKind.BID, Bid(4), (best, chosen), 250, False)
    with speaking("pl"):
        text = given_up(advice, chosen, Bid(13), rules)
    assert text == ("twój wybór: deklaracja 13, oczekiwany wynik netto twojej strony w tym rozdaniu: -130 "
                    "(kontrakt ugrany w 10% z 250 rozkładów); wybór eksperta: deklaracja 4, oczekiwany "
                    "wynik: +40 (80%)")
    with speaking("fr"):  # (not "le enchère 4 de l’expert": the article would have to agree with the choice)
        assert "; le choix de l’expert, enchère 4, espérait +40" in given_up(advice, chosen, Bid(13), rules)
