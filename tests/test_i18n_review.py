"""`p2pspades review` in the reader's language: its lines, the coach's options and the cards in the letters
of the language, every word of prose from the catalogs (the pseudo-locale marks them all), a count in the
form each language says it."""

from __future__ import annotations

import re

import pytest
from helpers import pages

from p2pspades.audit import Status, verify_file
from p2pspades.bots.review import Review, review
from p2pspades.cli.review import as_text
from p2pspades.i18n import PSEUDO, speaking
from p2pspades.rules import RuleSet


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Review, RuleSet, list[str]]:
    path = pages.whole_game(tmp_path_factory.mktemp("review") / "game.p2plog")
    verdict = verify_file(path)
    assert verdict.status is Status.VALID and verdict.table is not None
    rules = verdict.table.rules
    done = review(rules, verdict.hands[:1], 0, think="fast")
    assert done.decisions > 0 and done.costliest(3)
    return done, rules, [s.name for s in verdict.table.setup.seats]


def test_in_the_pseudo_locale_every_word_of_the_review_is_marked(
    reviewed: tuple[Review, RuleSet, list[str]],
) -> None:
    done, rules, names = reviewed
    with speaking(PSEUDO):
        text = as_text(done, rules, names, 3, Status.VALID)
    for name in names:
        text = text.replace(name, " ")
    unmarked = text
    while (inner := re.sub(r"⟦[^⟦⟧]*⟧", " ", unmarked)) != unmarked:
        unmarked = inner
    assert re.findall(r"[^\W\d_]{2,}", unmarked) == [], unmarked


@pytest.mark.parametrize(("lang", "says", "faces"), [
    ("de", ("Platz 0 (", "Entscheidung", "Die teuersten Entscheidungen:", "deine Karten: ", "Gebote: "),
     "DB"),
    ("fr", ("place 0 (", "décision", "Les décisions les plus coûteuses\u00a0:", "vos cartes\u00a0: ",
            "enchères\u00a0: "), "DV"),
    ("pl", ("miejsce 0 (", "decyz", "Najdroższe decyzje:", "twoje karty: ", "deklaracje: "), "DW"),
])
def test_the_review_speaks_the_language_and_writes_its_cards_in_its_letters(
    reviewed: tuple[Review, RuleSet, list[str]], lang: str, says: tuple[str, ...], faces: str,
) -> None:
    done, rules, names = reviewed
    with speaking(lang):
        text = as_text(done, rules, names, 3, Status.VALID)
    for words in says:
        assert words in text, (words, text)
    for english in ("decisions weighed", "your cards", "the expert would", "bids: "):
        assert english not in text
    # a queen or a jack in the hands is written as the language types it, never with the English letter
    hands = " ".join(line for line in text.splitlines() if line.strip().startswith(says[3]))
    assert not re.search(r"\b[QJ][♠♥♦♣]", hands), hands
    assert re.search(rf"\b[{faces}][♠♥♦♣]", hands), hands
