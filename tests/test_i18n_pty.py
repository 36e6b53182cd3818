"""The game in each language, as a person sees it: the real program in a pseudo-terminal (80x24), read back
through a terminal emulator.

- In English, German, French and Polish: a game against bots played through (the bid dialog, a trick held on
  the table, the help, a hand's summary, the game over) and the host's lobby, each screen in the language
  asked for. `P2PSPADES_CAPTURES=docs/languages.md` writes them into the document.
- In the pseudo-locale, which wraps every translated message in ⟦ ⟧: the same screens, the lobby, and the
  replay viewer with its help; no word of prose on any of them is outside the markers. That is what shows
  that nothing a person reads escapes the catalogs.
- A German and a Polish player at one table, each in their own process, profile and language, over real
  sockets on 127.0.0.1: each sees the game in their own words, and their logs are the same, byte for byte.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pexpect
import pytest
from helpers.lan import Lan
from helpers.net import free_port
from helpers.speaking import (
    COLUMNS,
    ROWS,
    WAIT,
    Player,
    Words,
    game_terminal,
    lobby_screen,
    plain,
    play_through,
    press,
    status,
    write_captures,
)
from helpers.terminal import Terminal

from p2pspades import i18n, log
from p2pspades.audit import Status, verify_file
from p2pspades.i18n import _
from p2pspades.ui.cardinput import codes

pytestmark = [pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(400)]

LANGUAGES = list(i18n.LANGUAGES)


def english_words(screen: str) -> set[str]:
    """The words of a screen that are words of the English screens, and no name: the English left."""
    found = set(re.findall(r"[A-Za-z][a-z]{3,}", screen))
    return found & {"Your", "hand", "Seats", "Events", "Trick", "Bidding", "score", "Leave", "Game", "over",
                    "audit", "passed", "Rules", "players", "free", "Keys", "choose", "play", "card", "trick",
                    "Waiting", "bots", "seats", "made", "bags", "fingerprint"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_and_the_lobby_speak_the_language_asked_for(lang: str, tmp_path: Path, lan: Lan) -> None:
    words = Words.of(lang)
    term = game_terminal(lan.env("ann"), lang, tmp_path / "game.p2plog")
    try:
        shots = play_through(term, words)
        term.proc.send("\r")  # Enter leaves the game-over screen
        term.proc.expect(pexpect.EOF, timeout=WAIT)
    finally:
        term.close()
    assert {"bid", "help", "trick", "summary", "over"} <= set(shots)
    shots = {name: shots[name] for name in ("bid", "help", "trick", "summary", "over")}
    with i18n.speaking(lang):
        expected = {"bid": _("Your bid"), "help": _("propose to stop here, scores standing (all must agree)"),
                    "trick": _("Events"), "summary": _("Seats"), "over": _("Game over")}
        over_line = _("Game over: {result}").split("{result}")[0].strip()
    for name, screen in shots.items():
        assert plain(expected[name]) in screen, (name, screen)
        assert len(screen.splitlines()) <= ROWS and max(map(len, screen.splitlines())) <= COLUMNS
        if lang != i18n.DEFAULT:
            assert english_words(screen) == set(), (name, screen)
    assert status(shots["over"]).startswith(plain(over_line)), shots["over"]
    lobby = lobby_screen(lan.env("ann"), lang, free_port(), words)
    if lang != i18n.DEFAULT:
        assert english_words(lobby) == set(), lobby
    write_captures({f"{lang} {name}": screen for name, screen in {**shots, "lobby": lobby}.items()})


# ------------------------------------------------------------------------------------------ the pseudo-locale

PSEUDO = {i18n.PSEUDO_ENV: "1"}
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
NOT_PROSE = [
    re.compile(r"(?<![\w])(10|[2-9JQKA])[♠♥♦♣]"),  # a card
    re.compile(r"\b[0-9a-z]{4}(-[0-9a-z]{4}){3}\b"),  # a key fingerprint
    re.compile(r"\b[0-9a-f]{12,64}\b"),  # a game id
    re.compile(r"\S*[/\\]\S*"),  # a path, a key like ←/→
    re.compile(r"\S+\.p2plog\b"),
]


KEYS = frozenset(codes())
"""What a person types (a card's code: "qh", "10s", "bj"): keys, not prose."""


def unmarked(screen: str, names: set[str]) -> list[str]:
    """The words of prose on `screen` that are outside the pseudo-locale's markers, but the names (players,
    tables, rule presets, the program), the keys (a letter, a card's code) and what a window drawn over
    another leaves of it: a marker cut off by the edge of a window counts to that edge, and so does the
    rest of a word that starts under a window's right border."""
    found = []
    for line in screen.splitlines():
        for k, segment in enumerate(re.split(r"[│┌┐└┘]", line)):
            text = segment
            while (inner := MARKED.sub(" ", text)) != text:  # messages within messages too
                text = inner
            if "⟦" in text:  # cut off by the window's edge: marked to it
                text = text[:text.index("⟦")]
            if "⟧" in text:  # the end of a message broken onto this line, or covered at its start
                text = text[text.rindex("⟧") + 1:]
            elif k and text[:1].islower():  # the end of a word a window covers the start of
                text = text.partition(" ")[2]
            for pattern in NOT_PROSE:
                text = pattern.sub(" ", text)
            found += [word for word in re.findall(r"[^\W\d_][\w'’-]*", text)
                      if word not in names and len(word) > 1 and word.lower() not in KEYS]
    return found


def test_in_the_pseudo_locale_no_word_on_any_screen_escapes_the_catalogs(tmp_path: Path, lan: Lan) -> None:
    lang = i18n.PSEUDO
    words = Words.of(lang)
    env = dict(lan.env("ann"), **PSEUDO)
    game_log = tmp_path / "game.p2plog"
    term = game_terminal(env, lang, game_log)
    try:
        shots = play_through(term, words)
        term.proc.send("\r")
        term.proc.expect(pexpect.EOF, timeout=WAIT)
    finally:
        term.close()
    shots["lobby"] = lobby_screen(env, lang, free_port(), words)
    shots |= replay_screens(env, game_log)
    with i18n.speaking(lang):
        bots = {word for name in ("South", "West", "North", "East") for word in re.findall(r"\w+", _(name))}
    names = {"Ann", "Kitchen", "table", "p2pspades", "replay", "classic", *bots}
    assert {"bid", "help", "trick", "summary", "over", "lobby", "replay", "replay help"} <= set(shots)
    problems = {name: found for name, screen in shots.items() if (found := unmarked(screen, names))}
    assert problems == {}, "\n\n".join(f"{name}: {found}\n{shots[name]}" for name, found in problems.items())
    # the markers are there: the screens are the pseudo-locale's, not screens with no words at all
    assert all("⟦" in screen for screen in shots.values())


def replay_screens(env: dict[str, str], game_log: Path) -> dict[str, str]:
    """The replay viewer of `game_log` in the pseudo-locale, a few tricks in, and its help window."""
    term = Terminal(env, "replay", "replay", str(game_log), "--lang", i18n.PSEUDO, rows=ROWS, cols=COLUMNS)
    try:
        with i18n.speaking(i18n.PSEUDO):
            trick, players = _("Trick"), _("Players")
        term.expect(re.escape(trick), WAIT)
        for key in ("\x1b[C", "\x1b[C", "\x1b[B"):  # two tricks on, a card on
            press(term, key, term.text())
        shots = {"replay": term.text()}
        term.proc.send("?")
        shots["replay help"] = term.expect(f"─ {re.escape(players)} ─", WAIT)
        term.proc.send("q")
        term.proc.send("q")
        return shots
    finally:
        term.close()


# ------------------------------------------------------------------------------ a German and a Polish player

def test_a_german_and_a_polish_player_share_one_table_each_in_their_language(lan: Lan) -> None:
    """ana hosts in German (with two bots of hers), bo joins in Polish, each in a terminal of their own; the
    game is played to its end by Enter and any key on both screens."""
    quick = ["--target", "10", "--trick-pause", "30"]
    ana = Terminal(lan.env("ana"), "ana", "host", "--lang", "de", "--profile", "ana", "--name", "ana",
                   "--address", "127.0.0.1", "--port", str(lan.port), "--no-advertise", "--rules", "classic",
                   "--bots", "2", "--log", str(lan.log("ana")), *quick, rows=ROWS, cols=COLUMNS)
    bo = None
    try:
        with i18n.speaking("de"):
            full = _("Every seat is taken. Read each fingerprint with its owner,\nthen press Enter to start.")
        ana.expect(re.escape(plain(_free_seats("de", 1))), WAIT)
        bo = Terminal(lan.env("bo"), "bo", "join", lan.lobby, "--lang", "pl", "--profile", "bo", "--name",
                      "bo", "--address", "127.0.0.1", "--log", str(lan.log("bo")), "--trick-pause", "30",
                      rows=ROWS, cols=COLUMNS)
        ana.expect(re.escape(plain(full).split(",")[0]), WAIT, others=(bo,))
        ana.proc.send("\r")  # the host starts the table
        with i18n.speaking("pl"):
            accept = _("Read each fingerprint with its owner, then accept (a) or decline (d).")
        bo.expect(re.escape(plain(accept).split(",")[0]), WAIT, others=(ana,))
        bo.proc.send("a")
        seen = both_play_through(ana, Words.of("de"), bo, Words.of("pl"))
        for term in (ana, bo):
            term.proc.send("\r")
            term.proc.expect(pexpect.EOF, timeout=WAIT)
    finally:
        ana.close()
        if bo is not None:
            bo.close()
    # each saw the game in their own language
    with i18n.speaking("de"):
        german = (_("Your hand"), _("Seats"), _("Events"), _("Game over"))
    with i18n.speaking("pl"):
        polish = (_("Your hand"), _("Seats"), _("Events"), _("Game over"))
    assert all(any(word in screen for screen in seen["ana"]) for word in german), seen["ana"][-1]
    assert all(any(word in screen for screen in seen["bo"]) for word in polish), seen["bo"][-1]
    assert not any(word in screen for screen in seen["ana"] for word in polish)
    assert not any(word in screen for screen in seen["bo"] for word in german)
    # one game, one log: the same bytes on both computers, and valid
    assert lan.log("ana").read_bytes() == lan.log("bo").read_bytes()
    assert log.read_log(lan.log("ana")).frames
    assert verify_file(lan.log("bo")).status is Status.VALID


def _free_seats(lang: str, n: int) -> str:
    with i18n.speaking(lang):
        said = i18n.ngettext("{n} seat free. Others join: p2pspades join {lobby}",
                             "{n} seats free. Others join: p2pspades join {lobby}", n)
    return said.split(":")[0].format(n=n)


def both_play_through(a: Terminal, a_words: Words, b: Terminal, b_words: Words) -> dict[str, list[str]]:
    """Both players answer their screens until both show the game over; the screens each saw, by name."""
    players = [Player(a, a_words), Player(b, b_words)]
    done: set[str] = set()
    deadline = time.monotonic() + WAIT * 4
    while len(done) < 2:
        assert time.monotonic() < deadline, f"{a.text()}\n\n{b.text()}"
        done |= {player.term.name for player in players if player.step()}
    return {player.term.name: player.screens for player in players}
