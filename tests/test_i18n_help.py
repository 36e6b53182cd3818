"""Every command's `--help` comes from the catalogs, argparse's own words included: in the pseudo-locale no
word of prose is left outside the markers; in every language the help fits 80 columns; and every word argparse
can show a person is in the catalogs."""

from __future__ import annotations

import argparse
import re

import pytest
from babel.messages.extract import extract_python

from p2pspades import i18n
from p2pspades.cli.main import COMMANDS, build_parser, main
from p2pspades.i18n.argparse_words import PLURAL_WORDS, WORDS

COMMAND_LINES = [[], *([name] for name in COMMANDS)]
ARGPARSE_INTERNALS = {
    ".__call__() not defined", "conflicting subparser: %s", "conflicting subparser alias: %s",
    'argument "-" with mode %r', "cannot merge actions - two groups are named %r",
    "'required' is an invalid argument for positionals",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "dest= is required for options like %r", "invalid conflict_resolution value: %r",
    "mutually exclusive arguments must be optional", "cannot have multiple subparser arguments",
    "%r is not callable", "conflicting option string: %s",
}
"""argparse's messages for a mistake in a parser's definition: for the program's authors, never a player."""


def help_of(argv: list[str], lang: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help", "--lang", lang])
    assert done.value.code == 0
    return capsys.readouterr().out


def names_of(parser: argparse.ArgumentParser) -> set[str]:
    """The words of a parser that are code, not prose: option names, commands, choices, the program's name."""
    words = {"p2pspades"}
    for action in parser._actions:
        words.update(option.lstrip("-") for option in action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                words.add(name)
                words |= names_of(sub)
        elif action.choices is not None:
            words.update(str(choice) for choice in action.choices)
    return words


@pytest.mark.parametrize("argv", COMMAND_LINES, ids=lambda argv: " ".join(argv) or "p2pspades")
def test_in_the_pseudo_locale_every_word_of_the_help_is_a_translated_one(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(i18n.PSEUDO_ENV, "1")
    monkeypatch.setenv("COLUMNS", "80")
    text = help_of(argv, "qps", capsys)
    assert "⟦usage:⟧" in text and "⟦show this help message and exit⟧" in text
    unmarked = text
    while (inner := re.sub(r"⟦[^⟦⟧]*⟧", " ", unmarked)) != unmarked:  # messages within messages too
        unmarked = inner
    assert "⟦" not in unmarked and "⟧" not in unmarked
    with i18n.speaking("en"):
        code = names_of(build_parser())
    code |= {"N", "K", "V", "FP"}  # metavars that are letters in every language
    prose = [word for word in re.findall(r"[^\W\d_][\w'-]*", unmarked) if word not in code]
    assert prose == [], unmarked


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_every_help_fits_80_columns_in_every_language(
    lang: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for argv in COMMAND_LINES:
        text = help_of(argv, lang, capsys)
        too_long = [line for line in text.splitlines() if len(line) > 80]
        assert too_long == [], (argv, too_long)
        choices = re.sub(r"\{[a-z0-9]+(,[a-z0-9]+)+\}", "", text)  # {fast,normal,deep}: argparse's choices
        assert "⟦" not in text and "%(" not in text and "{" not in choices, argv


def test_argparse_asks_the_catalogs_for_every_word_a_person_can_read() -> None:
    with open(argparse.__file__, "rb") as f:
        asked = {message for _line, _function, message, _comments in extract_python(
            f, {"_": None, "ngettext": (1, 2)}, [], {}) if message}
    singular = {m for m in asked if isinstance(m, str)}
    plural = {(m[0], m[1]) for m in asked if not isinstance(m, str)}
    assert singular - ARGPARSE_INTERNALS - set(WORDS) == set(), "argparse shows words our catalogs lack"
    assert {m for m in plural if m[0] not in ARGPARSE_INTERNALS} <= set(PLURAL_WORDS)
    with i18n.speaking("fr"):
        assert argparse._("usage: ") == "utilisation\u00a0: "  # type: ignore[attr-defined]
        shown = argparse.ngettext("expected %s argument", "expected %s arguments", 2)  # type: ignore[attr-defined]
        assert shown == "%s arguments attendus"


def test_the_local_game_s_help_comes_from_the_catalogs_and_speaks_the_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`python -m p2pspades.ui.local --help`: in the language of P2PSPADES_LANG (the program's own order
    without `--lang`), every word of prose from the catalogs, and within 80 columns in every language."""
    from p2pspades.bots import BOT_KINDS
    from p2pspades.ui import local

    monkeypatch.setenv("COLUMNS", "80")
    before = i18n.current()
    try:
        for lang in (*i18n.LANGUAGES, "qps"):
            monkeypatch.setenv(i18n.ENV, lang)
            monkeypatch.setenv(i18n.PSEUDO_ENV, "1" if lang == "qps" else "0")
            with pytest.raises(SystemExit) as done:
                local.main(["--help"])
            assert done.value.code == 0
            text = capsys.readouterr().out
            assert all(len(line) <= 80 for line in text.splitlines()), (lang, text)
        assert "⟦usage:⟧" in text and "⟦write our signed game log here⟧" in text
        unmarked = text
        while (inner := re.sub(r"⟦[^⟦⟧]*⟧", " ", unmarked)) != unmarked:
            unmarked = inner
        code = set(re.findall(r"--?([\w-]+)", text)) | set(BOT_KINDS) | {"python", "m", "p2pspades", "ui",
                                                                          "local", "N"}
        assert [w for w in re.findall(r"[^\W\d_][\w'-]*", unmarked) if w not in code] == [], unmarked
    finally:
        i18n.use(before)
    monkeypatch.setenv(i18n.ENV, "de")
    monkeypatch.setenv(i18n.PSEUDO_ENV, "0")
    with pytest.raises(SystemExit):
        local.main(["--help"])
    assert "unser signiertes Spielprotokoll hierhin schreiben" in capsys.readouterr().out
    i18n.use(before)
