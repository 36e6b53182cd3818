"""Which language a command speaks: --lang, then P2PSPADES_LANG, then the profile's (`p2pspades config lang`),
then the locale in gettext's order, then English; and an unknown language in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.terminal import Terminal

from p2pspades import i18n
from p2pspades.cli.main import main
from p2pspades.i18n import Choice, UnknownLanguage, choose, parse_tag

LOCALE = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.mark.parametrize(
    ("tag", "lang", "locale"),
    [("de", "de", "de"), ("DE", "de", "de"), ("de_DE.UTF-8", "de", "de_DE"), ("de-AT", "de", "de_AT"),
     ("fr_CA.utf8@euro", "fr", "fr_CA"), ("pl_PL", "pl", "pl_PL"), ("en_GB.UTF-8", "en", "en_GB"),
     ("C", "en", "en"), ("POSIX", "en", "en"), ("C.UTF-8", "en", "en")],
)
def test_a_language_is_named_as_people_and_locales_name_it(tag: str, lang: str, locale: str) -> None:
    found = parse_tag(tag)
    assert found is not None and (found.lang, found.locale) == (lang, locale)


@pytest.mark.parametrize("tag", ["es", "es_ES.UTF-8", "xx", "", "deutsch", "de_DE_DE", "../de", "qps"])
def test_a_language_the_program_does_not_speak_is_none(tag: str) -> None:
    assert parse_tag(tag) is None


def test_the_order_is_the_option_the_variable_the_profile_the_locale_then_english() -> None:
    everything = {"P2PSPADES_LANG": "fr", "LANGUAGE": "pl", "LC_ALL": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"}
    assert choose("de", everything, "pl") == Choice("de", "de", "--lang")
    assert choose(None, everything, "pl") == Choice("fr", "fr", "P2PSPADES_LANG")
    without_variable = {k: v for k, v in everything.items() if k != "P2PSPADES_LANG"}
    assert choose(None, without_variable, "de_AT") == Choice("de", "de_AT", "profile")
    assert choose(None, without_variable) == Choice("pl", "pl", "LANGUAGE")
    assert choose(None, {}) == Choice("en", "en", "default")
    assert choose(None, {"P2PSPADES_LANG": ""}) == Choice("en", "en", "default")  # set but empty: not set


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANGUAGE": "es:fr_CA:de", "LANG": "pl_PL.UTF-8"}, ("fr", "LANGUAGE")),  # the first we speak
        ({"LANGUAGE": "", "LC_ALL": "de_DE.UTF-8", "LANG": "pl_PL.UTF-8"}, ("de", "LC_ALL")),  # empty: unset
        ({"LC_MESSAGES": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"}, ("fr", "LC_MESSAGES")),
        ({"LANG": "pl_PL.UTF-8"}, ("pl", "LANG")),
        ({"LANGUAGE": "es", "LANG": "de_DE.UTF-8"}, ("en", "default")),  # the first set decides, as gettext
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, ("en", "LC_ALL")),  # C is English
        ({"LANGUAGE": "C:de"}, ("en", "LANGUAGE")),  # C ends the list
    ],
)
def test_the_locale_is_read_in_gettext_s_order(environ: dict[str, str], expected: tuple[str, str]) -> None:
    found = choose(None, environ)
    assert (found.lang, found.source) == expected


def test_an_unknown_language_asked_for_is_refused_and_one_saved_is_passed_over() -> None:
    with pytest.raises(UnknownLanguage) as asked:
        choose("xx", {})
    assert (asked.value.asked, asked.value.where) == ("xx", "--lang")
    with pytest.raises(UnknownLanguage) as variable:
        choose(None, {"P2PSPADES_LANG": "klingon"})
    assert variable.value.where == "P2PSPADES_LANG"
    assert choose(None, {"LANG": "de_DE.UTF-8"}, "xx") == Choice("de", "de_DE", "LANG")


def clean_locale(monkeypatch: pytest.MonkeyPatch, **values: str) -> None:
    for name in (*LOCALE, i18n.ENV):
        monkeypatch.delenv(name, raising=False)
    for name, value in values.items():
        monkeypatch.setenv(name, value)


def test_an_unknown_language_is_one_line_listing_the_languages_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    clean_locale(monkeypatch)
    assert main(["--lang", "xx", "rules"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("p2pspades: --lang: unknown language 'xx'; the languages are: en (English), de (Deutsch), "
                   "fr (français), pl (polski)\n")
    # said in the language the rest of the order gives: here the locale's
    clean_locale(monkeypatch, LANG="de_DE.UTF-8", P2PSPADES_LANG="xx")
    assert main(["rules"]) == 2
    _out, err = capsys.readouterr()
    assert err == ("p2pspades: P2PSPADES_LANG: unbekannte Sprache 'xx'; die Sprachen sind: en (English), "
                   "de (Deutsch), fr (français), pl (polski)\n")


def test_an_unknown_language_in_a_real_process_is_one_line_and_no_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in (*LOCALE, i18n.ENV)}
    done = subprocess.run([sys.executable, "-m", "p2pspades", "games", "--lang=tlh"], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "p2pspades: --lang: unknown language 'tlh'; the languages are: en (English), de (Deutsch), "
        "fr (français), pl (polski)"]


@pytest.mark.parametrize("command", ["play", "host", "join", "tables", "resume", "verify", "export", "replay",
                                     "games", "stats", "rules", "review", "config"])
def test_every_command_takes_lang_and_its_help_speaks_it(
    command: str, capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help", "--lang", "pl"])
    assert done.value.code == 0
    out, _err = capsys.readouterr()
    assert out.startswith(f"użycie: p2pspades {command} ")
    assert "\nopcje:\n" in out and "pokaż tę pomoc i zakończ" in out and "--lang JĘZYK" in out


def test_the_top_level_takes_lang_anywhere_on_the_line_and_abbreviated(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--lang=fr", "--help"])
    assert capsys.readouterr().out.startswith("utilisation\u00a0: p2pspades ")
    assert main(["rules", "piki", "--lan", "de"]) == 0  # argparse takes an abbreviation: so does the choice
    assert capsys.readouterr().out.startswith("Regeloptionen.")
    assert i18n.current().lang == "de"


def test_argparse_s_own_errors_speak_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--lang", "de", "rules", "--bogus"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Aufruf: p2pspades ")
    assert err.endswith("p2pspades: Fehler: unbekannte Argumente: --bogus\n")
    with pytest.raises(SystemExit):
        main(["--lang", "fr", "games", "--profile"])
    assert "argument --profile\u00a0: un argument attendu" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--lang", "pl", "play", "--bot", "genius"])
    assert "argument --bot: nieprawidłowy wybór: 'genius' (do wyboru: " in capsys.readouterr().err


def test_the_profile_keeps_a_language_that_the_option_and_the_variable_override(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    clean_locale(monkeypatch, LANG="de_DE.UTF-8")
    assert main(["config"]) == 0
    assert capsys.readouterr().out == (
        "Profil 'default' hat keine Einstellungen (p2pspades config lang de stellt seine Sprache ein)\n")
    assert main(["config", "lang", "fr_CA"]) == 0  # said in the language just kept
    assert capsys.readouterr().out == "le profil 'default' parle français (fr)\n"
    assert main(["config", "lang"]) == 0 and capsys.readouterr().out == "fr_CA\n"
    assert main(["rules"]) == 0 and capsys.readouterr().out.startswith("Options de règle.")
    assert main(["--lang", "pl", "rules"]) == 0 and capsys.readouterr().out.startswith("Opcje zasad.")
    monkeypatch.setenv(i18n.ENV, "en")
    assert main(["rules"]) == 0 and capsys.readouterr().out.startswith("Rule options.")
    assert main(["config", "lang", "pl"]) == 0  # the variable still rules this shell: say so
    assert capsys.readouterr().out == (
        "profil 'default' mówi: polski (pl)\n(na razie P2PSPADES_LANG wybiera: English)\n")
    monkeypatch.delenv(i18n.ENV)
    assert main(["config", "--unset", "lang"]) == 0
    assert main(["rules"]) == 0 and capsys.readouterr().out.startswith("Regeloptionen.")  # the locale again


def test_a_profile_of_its_own_keeps_a_language_of_its_own(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    clean_locale(monkeypatch)
    assert main(["config", "lang", "de", "--profile", "bo"]) == 0
    assert capsys.readouterr().out == "Profil 'bo' spricht Deutsch (de)\n"
    with pytest.raises(SystemExit):  # rules has no --profile: its error speaks bo's language all the same
        main(["rules", "--profile", "bo"])
    assert capsys.readouterr().err.endswith("p2pspades: Fehler: unbekannte Argumente: --profile\n")
    assert main(["games", "--profile", "bo"]) == 0
    assert capsys.readouterr().out == "noch keine Spiele für Profil 'bo'\n"
    monkeypatch.setenv("P2PSPADES_PROFILE", "bo")
    assert main(["games"]) == 0 and capsys.readouterr().out == "noch keine Spiele für Profil 'bo'\n"
    monkeypatch.delenv("P2PSPADES_PROFILE")
    assert main(["games"]) == 0 and capsys.readouterr().out == "no games yet for profile 'default'\n"


def test_a_bad_setting_is_refused_and_a_broken_file_is_one_line_of_warning(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], private_home: Path,
) -> None:
    clean_locale(monkeypatch)
    assert main(["config", "lang", "xx"]) == 2
    assert capsys.readouterr().err == (
        "p2pspades config: unknown language 'xx'; the languages are: en (English), de (Deutsch), "
        "fr (français), pl (polski)\n")
    assert main(["config", "colour", "red"]) == 2
    assert capsys.readouterr().err == "p2pspades config: unknown setting 'colour'; the settings are: lang\n"
    private_home.mkdir(parents=True, exist_ok=True)
    (private_home / "settings.json").write_text("{not json")
    assert main(["rules"]) == 0  # the command runs, in the locale's language, after one line of warning
    out, err = capsys.readouterr()
    assert out.startswith("Rule options.") and err.count("\n") == 1
    assert err.startswith(f"p2pspades: cannot read {private_home / 'settings.json'}: ")
    (private_home / "settings.json").write_text('{"lang": "tlh", "theme": "dark"}')
    assert main(["rules"]) == 0
    assert capsys.readouterr().err == ("p2pspades: unknown language 'tlh'; the languages are: en (English), "
                                       "de (Deutsch), fr (français), pl (polski)\n")
    assert main(["config", "lang", "pl"]) == 0  # a setting of a newer version is kept as it is
    assert (private_home / "settings.json").read_text() == '{\n  "lang": "pl",\n  "theme": "dark"\n}\n'


@pytest.mark.slow
@pytest.mark.pty
@pytest.mark.net
def test_a_real_terminal_with_a_polish_locale_hears_polish(tmp_path: Path) -> None:
    env = dict(os.environ, P2PSPADES_LANG="", LANGUAGE="pl_PL", P2PSPADES_HOME=str(tmp_path / "home"))
    screen = Terminal(env, "ola", "tables", "--timeout", "1.5", "--interface", "127.0.0.1")
    try:
        screen.expect(r"nasłuchiwanie stołów w sieci lokalnej +\d,\d / 1,5 s")  # the spinner, in Polish
        # nobody's table, or one another program on this machine advertises: either way, in Polish
        shown = screen.expect(r"żaden stół nie odpowiedział w ciągu 1,5 s|stół +zasady +wolne +protokół", 20)
        assert "Traceback" not in shown
    finally:
        screen.close()


def test_a_profile_name_that_is_no_name_is_said_once_by_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["games", "--profile", "../x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("p2pspades games: a profile name is")
