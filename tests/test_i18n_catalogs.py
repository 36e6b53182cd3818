"""The message catalogs: every language complete, every placeholder kept, the catalogs up to date with the
code, English the code's own words, the pseudo-locale marking every message, and no layer below the edge
asking for words."""

from __future__ import annotations

import ast
import re
import string
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from p2pspades import i18n
from p2pspades.i18n import update
from p2pspades.i18n.catalogs import CLOSE, CODE_CONTEXTS, OPEN, TEMPLATE, marked, po_path, translations

PACKAGE = Path(i18n.__file__).resolve().parent.parent
LANGUAGES = list(i18n.LANGUAGES)
TRANSLATED = [lang for lang in LANGUAGES if lang != i18n.DEFAULT]
PLURALS = {"en": 2, "de": 2, "fr": 3, "pl": 3}
"""How many forms a count takes in each language, as CLDR says (French has one of its own for millions)."""
BELOW_THE_EDGE = ("rules", "table", "net", "crypto", "log", "audit", "bots")
"""The layers that produce data, never words: they must not ask the catalogs for any."""


def catalog(lang: str | None) -> Catalog:
    path = TEMPLATE if lang is None else po_path(lang)
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def messages(lang: str | None) -> Iterator[Message]:
    return (m for m in catalog(lang) if m.id)


def ids(m: Message) -> tuple[str, ...]:
    """A message's English: (text,), or (singular, plural) for a count."""
    return (m.id,) if isinstance(m.id, str) else tuple(m.id)


def strings(m: Message) -> tuple[str, ...]:
    """A message's translation: (text,), or each form of a count ("" where there is none)."""
    if m.string is None:
        return ("",)
    return (m.string,) if isinstance(m.string, str) else tuple(m.string)


def key(m: Message) -> tuple[str | None, tuple[str, ...]]:
    return m.context, ids(m)


_PERCENT = re.compile(r"%(?:\([a-z_]+\))?[sdr%]")


def placeholders(text: str) -> Counter[str]:
    """Every placeholder of a message: `{name!r:>4}` fields of str.format and `%(name)s`, `%s` of %."""
    fields: Counter[str] = Counter()
    for _literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None:
            fields[f"{{{name}!{conversion or ''}:{spec or ''}}}"] += 1
    fields.update(_PERCENT.findall(text))
    return fields


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_is_complete_and_keeps_every_placeholder(lang: str) -> None:
    template = {key(m) for m in messages(None)}
    found = catalog(lang)
    assert {key(m) for m in messages(lang)} == template, "run python -m p2pspades.i18n.update"
    assert not found.obsolete
    assert found.num_plurals == PLURALS[lang]
    problems = []
    for m in messages(lang):
        english, texts = ids(m), strings(m)
        if m.fuzzy:
            problems.append(f"fuzzy: {m.id!r}")
        if not all(texts):
            problems.append(f"untranslated: {m.id!r}")
            continue
        if len(english) > 1 and len(texts) != found.num_plurals:
            problems.append(f"{len(texts)} forms, not {found.num_plurals}: {m.id!r}")
        for text in texts if lang != i18n.DEFAULT else ():  # English is the code's own (its singular may say
            # "the line" where the plural says "the {n} lines": a translation keeps the count in every form)
            if placeholders(text) != placeholders(english[-1]):
                problems.append(f"placeholders {dict(placeholders(text))} for {m.id!r}: {text!r}")
        problems += [f"{m.id!r}: {error}" for _message, errors in [(m, m.check(found))] for error in errors]
    assert problems == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_translation_keeps_the_shape_of_its_message(lang: str) -> None:
    # a message that ends a line ends one in every language; argparse's heading keeps its space; no line
    # feeds inside a message where the English has none
    for m in messages(lang):
        english = ids(m)[0]
        for text in strings(m):
            assert text.endswith("\n") == english.endswith("\n"), m.id
            assert text.endswith(" ") == english.endswith(" "), m.id
            assert text.startswith(" ") == english.startswith(" "), m.id
            assert text.count("\n") == english.count("\n"), m.id


def test_the_english_catalog_is_the_code_s_own_words() -> None:
    for m in messages("en"):
        assert strings(m) == ids(m), m.id


@pytest.mark.slow
def test_the_catalogs_are_up_to_date_with_the_code() -> None:
    # what `python -m p2pspades.i18n.update` would write is what is there: no message of the code is missing
    # from the catalogs, and no catalog keeps a message the code no longer has
    assert update.stale(update.planned()) == []


def test_the_pseudo_locale_marks_every_message_but_the_typed_letters() -> None:
    pseudo = translations(i18n.PSEUDO)
    for m in messages(None):
        english = ids(m)
        if len(english) > 1:
            one, many = english
            shown = [pseudo.npgettext(m.context, one, many, n) if m.context else pseudo.ngettext(one, many, n)
                     for n in (1, 2)]
        else:
            shown = [pseudo.pgettext(m.context, english[0]) if m.context else pseudo.gettext(english[0])]
        for text, english_text in zip(shown, english, strict=True):
            if m.context in CODE_CONTEXTS:
                assert text == english_text  # a card code is typed the same way as in English
            else:
                assert text == marked(english_text) and OPEN in text and CLOSE in text, text


def test_the_pseudo_locale_is_offered_to_nobody() -> None:
    assert i18n.parse_tag(i18n.PSEUDO) is None
    with pytest.raises(i18n.UnknownLanguage):
        i18n.choose(i18n.PSEUDO, {})
    assert i18n.choose(i18n.PSEUDO, {i18n.PSEUDO_ENV: "1"}).lang == i18n.PSEUDO
    assert i18n.PSEUDO not in i18n.LANGUAGES and i18n.PSEUDO not in i18n.listing()


def test_marked_keeps_the_white_space_around_a_message_outside_its_markers() -> None:
    assert marked("usage: ") == "⟦usage:⟧ "
    assert marked("%(prog)s: error: %(message)s\n") == "⟦%(prog)s: error: %(message)s⟧\n"
    assert marked(" and ") == " ⟦and⟧ "
    assert marked(", ") == "⟦,⟧ "


def test_a_fresh_process_compiles_a_catalog_from_its_po_file_alone(tmp_path: Path) -> None:
    # nothing compiled lies beside the catalogs: the .po files are the only copy of the translations
    assert not list((PACKAGE / "locale").rglob("*.mo"))
    translations.cache_clear()
    try:
        shown = translations("de").gettext("show this help message and exit")
        assert shown == "diese Hilfe anzeigen und beenden"
    finally:
        translations.cache_clear()


def test_no_layer_below_the_edge_asks_the_catalogs_for_words() -> None:
    offenders = []
    for layer in BELOW_THE_EDGE:
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom):
                    names = [node.module or ""]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                else:
                    continue
                if any(name == "p2pspades.i18n" or name.startswith("p2pspades.i18n.") for name in names):
                    offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []


GETTEXT = frozenset({"_", "gettext", "ngettext", "pgettext", "npgettext", "N_", "N_plural"})


def test_no_message_is_asked_for_inside_an_f_string() -> None:
    # Babel's extractor does not look inside an f-string: a message asked for there never reaches the catalogs
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                found += [f"{path.relative_to(PACKAGE)}:{call.lineno}" for call in ast.walk(node)
                          if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                          and call.func.id in GETTEXT]
    assert found == []
