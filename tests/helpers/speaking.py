"""The real program in a pseudo-terminal, in one language: a game against bots played through by Enter and
any key, the screens it passes taken as the terminal shows them (the bid dialog, a trick held on the table,
a hand's summary, the game over, the help), and the host's lobby screen. The words each screen is known by
come from the catalogs, in the language spoken, so one driver serves every language and the pseudo-locale.

Also: the captures of docs/languages.md, rewritten between their markers when `$P2PSPADES_CAPTURES` names
the file."""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

import pexpect

from helpers.terminal import Terminal
from p2pspades import i18n
from p2pspades.i18n import _

ROWS, COLUMNS = 24, 80
WAIT = 120.0
"""Seconds a game may take to reach a screen (a test never measures speed)."""
CAPTURES = os.environ.get("P2PSPADES_CAPTURES")


@dataclass(frozen=True)
class Words:
    """What the screens say, in one language: how the driver knows where it is."""

    bid: str
    """The prompt line of our bid (the classic rules have nil)."""
    play: str
    """How the prompt line of our card begins."""
    held: str
    """How the prompt line of a trick held on the table ends."""
    summary: str
    """A hand's summary: its title (a pattern, any hand)."""
    over: str
    keys: str
    help_end: str
    """The help window's last line."""
    seats: str
    seated: str

    @classmethod
    def of(cls, lang: str) -> Words:
        """The words in `lang` (their no-break spaces plain: the terminal draws them as spaces)."""
        with i18n.speaking(lang):
            summary = plain(_("Hand {number} is over"))
            return cls(
                bid=plain(_("Your bid: ←/→ Enter, or type a number, n for nil")),
                play=plain(_("Your turn: play a card (←/→ Enter, or type a code like {code})")).split(
                    "{code}")[0],
                held=plain(_("{caption} · any key continues")).split("{caption}")[1],
                summary=re.escape(summary).replace(re.escape("{number}"), r"\d+"),
                over=plain(_("Game over")),
                keys=plain(_("Keys")),
                help_end=plain(_("Esc or ? closes this window.")),
                seats=plain(_("Seats")),
                seated=plain(_("Seated players")),
            )


def settled(term: Terminal) -> str:
    """The screen once the program has finished drawing it: no more output for a moment (at most a few
    seconds: a game goes on while it is read)."""
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        try:
            term.stream.feed(term.proc.read_nonblocking(65536, timeout=0.2))
        except pexpect.TIMEOUT:
            break
    return term.text()


def plain(text: str) -> str:
    """`text` with its no-break spaces as the screen shows them: spaces."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def status(screen: str) -> str:
    """The prompt line: the screen's last line but one."""
    lines = screen.splitlines()
    return lines[ROWS - 2].strip() if len(lines) >= ROWS - 1 else ""


def titled(screen: str, title: str) -> bool:
    """A window titled `title` (a pattern) is on the screen: ─ Title ─."""
    return re.search(f"─ {title} ─", screen) is not None


class Player:
    """A person at `term` who answers what the screen asks as soon as it asks: Enter for a bid, a card or a
    hand's summary, any key for a trick held on the table (and `?`, then Esc, once for the help). A key is
    sent once per question: the next one waits until the screen asks something else."""

    def __init__(self, term: Terminal, words: Words, *, want_help: bool = False) -> None:
        self.term = term
        self.words = words
        self.want_help = want_help
        self.shots: dict[str, str] = {}
        self.screens: list[str] = []
        self.asked: tuple[str, str] | None = None

    def step(self) -> bool:
        """Read the screen and answer it; True once it shows the game over."""
        self.term.pump(0.02)
        screen = self.term.text()
        if titled(screen, re.escape(self.words.over)):
            screen = settled(self.term)
            self.shots["over"] = screen
            self._seen(screen)
            return True
        question = self.question(screen)
        if question is None or question == self.asked:
            return False
        self.asked = question
        name = question[0]
        if name not in self.shots:
            screen = settled(self.term)
            self.shots[name] = screen
        self._seen(screen)
        if name == "play" and self.want_help and "help" not in self.shots:
            self.term.proc.send("?")
            self.term.expect(re.escape(self.words.help_end), WAIT)
            self.shots["help"] = settled(self.term)
            self.term.proc.send("\x1b")
            self.term.expect(f"─ {re.escape(self.words.seats)} ─", WAIT)
        self.term.proc.send(" " if name == "trick" else "\r")
        return False

    def question(self, screen: str) -> tuple[str, str] | None:
        """What the screen asks, and the line that says it (the same question twice is one question)."""
        line = status(screen)
        summary = re.search(f"─ ({self.words.summary}) ─", screen)
        if summary is not None:
            return "summary", summary.group(1)
        if line.endswith(self.words.held):
            return "trick", line
        if line == self.words.bid:
            return "bid", line + _hand_size(screen)
        if line.startswith(self.words.play):
            return "play", line + _hand_size(screen)
        return None

    def _seen(self, screen: str) -> None:
        if not self.screens or self.screens[-1] != screen:
            self.screens.append(screen)


def _hand_size(screen: str) -> str:
    """The hand panel's title: how many cards are left (it tells one turn from the next)."""
    found = re.search(r"─ [^─]*\((\d+)\)[^─]* ─", screen)
    return found.group(1) if found else ""


def play_through(term: Terminal, words: Words, *, want_help: bool = True) -> dict[str, str]:
    """Play the game on `term` to its end as `Player` does and return the screens passed: "bid", "help",
    "trick", "summary", "over"."""
    player = Player(term, words, want_help=want_help)
    deadline = time.monotonic() + WAIT * 3
    while not player.step():
        assert time.monotonic() < deadline, f"the game never ended:\n{term.text()}"
    return player.shots


def press(term: Terminal, key: str, before: str) -> None:
    """Send `key` and wait until the screen is no longer `before`."""
    term.proc.send(key)
    deadline = time.monotonic() + WAIT
    while term.text() == before:
        assert time.monotonic() < deadline, f"nothing happened after {key!r}:\n{before}"
        term.pump(0.05)


def capture_block(name: str, screen: str) -> str:
    """A screen as docs/languages.md shows it: in a text block, each line's right end trimmed."""
    body = "\n".join(line.rstrip() for line in screen.splitlines()).rstrip("\n")
    return f"<!-- capture: {name} -->\n```text\n{body}\n```\n<!-- /capture: {name} -->"


def write_captures(shots: dict[str, str]) -> None:
    """Put `shots` (by name, "de bid") into the file `$P2PSPADES_CAPTURES` names, between their markers; a
    name without markers there is an error (the document says where each capture goes)."""
    if not CAPTURES:
        return
    path = Path(CAPTURES)
    text = path.read_text(encoding="utf-8")
    for name, screen in shots.items():
        pattern = re.compile(rf"<!-- capture: {re.escape(name)} -->.*?<!-- /capture: {re.escape(name)} -->",
                             re.DOTALL)
        assert pattern.search(text), f"{path} has no place for the capture {name!r}"
        block = capture_block(name, screen)
        text = pattern.sub(lambda _match: block, text)  # noqa: B023 - used at once
    path.write_text(text, encoding="utf-8")


def lobby_screen(env: dict[str, str], lang: str, port: int, words: Words, *extra: str) -> str:
    """The host's lobby screen of a table with one bot and free seats, in `lang`, as the terminal shows
    it; the host then leaves (q)."""
    term = Terminal(env, f"host {lang}", "host", "--lang", lang, "--name", "Ann", "--table", "Kitchen table",
                    "--address", "127.0.0.1", "--port", str(port), "--no-advertise", "--bots", "1",
                    *extra, rows=ROWS, cols=COLUMNS)
    try:
        with i18n.speaking(lang):
            free = i18n.ngettext("{n} seat free. Others join: p2pspades join {lobby}",
                                 "{n} seats free. Others join: p2pspades join {lobby}", 2).split("{n}")[1]
        term.expect(re.escape(plain(free).split(":")[0].strip()), WAIT)
        screen = settled(term)
        assert words.seated in screen, screen
        term.proc.send("q")
        return screen
    finally:
        term.close()


def game_terminal(env: dict[str, str], lang: str, log: Path, *extra: str) -> Terminal:
    """`p2pspades play --local` in `lang` on an 80x24 pseudo-terminal: a short game (to 10 points) against
    the normal bots, each completed trick held until a key."""
    return Terminal(env, f"play {lang}", "play", "--local", "--lang", lang, "--name", "Ann", "--target", "10",
                    "--trick-pause", "30", "--log", str(log), *extra, rows=ROWS, cols=COLUMNS)

