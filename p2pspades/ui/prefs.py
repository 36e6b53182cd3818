"""How the screens look and pace themselves on this terminal: the trick pause and the character set.

One `PREFS` per process, set from the command line (`add_screen_options` / `apply_screen_options`) before a
screen is built; the environment can force the character set (`P2PSPADES_ASCII=1` or `0`).

Terminals without UTF-8 get an ASCII screen: suit letters instead of suit symbols (`10S`, `QH`), `+-|` boxes
and plain arrows. The choice is made from the locale (`LC_ALL`, `LC_CTYPE`, `LANG`) and the output encoding.
Every replacement is one character for one, so every column of the screen stays where it is.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass

from p2pspades.i18n import _

#: how long a completed trick stays on the table before the next lead is shown, in seconds
DEFAULT_TRICK_PAUSE = 1.0
ASCII_ENV = "P2PSPADES_ASCII"

_ASCII = str.maketrans(
    {
        "♠": "S",
        "♥": "H",
        "♦": "D",
        "♣": "C",
        "┌": "+",
        "┐": "+",
        "└": "+",
        "┘": "+",
        "─": "-",
        "│": "|",
        "▶": ">",
        "…": "~",
        "·": "-",
        "←": "<",
        "→": ">",
        "↑": "^",
        "↓": "v",
        "✓": "+",
        "✗": "x",
        "±": "~",
        **{chr(0x2400 + c): "?" for c in range(0x20)},  # control pictures (escaped hostile text)
        "\u2421": "?",
    }
)


@dataclass
class ScreenPrefs:
    trick_pause: float = DEFAULT_TRICK_PAUSE
    ascii: bool = False
    #: ring the terminal's bell when a bid, a card or another choice is ours to make
    bell: bool = False
    #: ask "play Q♠?" before a card is played: a second Enter plays it
    confirm_card: bool = False


def terminal_is_utf8() -> bool:
    """Whether the terminal shows UTF-8, as the locale says (the first of LC_ALL, LC_CTYPE, LANG that is
    set), else as the output's encoding says."""
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = os.environ.get(var)
        if value:
            return "utf8" in value.lower().replace("-", "")
    encoding = getattr(sys.stdout, "encoding", None) or ""
    return encoding.lower().replace("-", "") == "utf8"


def ascii_wanted() -> bool:
    """`P2PSPADES_ASCII=1` forces ASCII, `=0` forces Unicode; otherwise ASCII unless the terminal is UTF-8."""
    forced = os.environ.get(ASCII_ENV, "").strip()
    if forced in ("0", "1"):
        return forced == "1"
    return not terminal_is_utf8()


PREFS = ScreenPrefs(ascii=ascii_wanted())


def to_ascii(text: str) -> str:
    """`text` with the screen's symbols replaced, one character for one, by ASCII ones."""
    return text.translate(_ASCII)


def shown(text: str) -> str:
    """`text` as this terminal can show it (ASCII replacements when the screen is ASCII)."""
    return to_ascii(text) if PREFS.ascii else text


def add_screen_options(p: argparse.ArgumentParser) -> None:
    """--no-color, --ascii, --trick-pause, --bell and --confirm-card, for every command that shows the game
    screen."""
    p.add_argument("--no-color", action="store_true", help=_("monochrome display (also: NO_COLOR=1)"))
    p.add_argument(
        "--ascii",
        action="store_true",
        help=_("ASCII only: suit letters and plain boxes, for terminals without UTF-8 (also: {env}=1; the "
               "default follows the locale)").format(env=ASCII_ENV),
    )
    p.add_argument(
        "--trick-pause",
        type=float,
        metavar=_("S"),
        default=DEFAULT_TRICK_PAUSE,
        help=_("seconds a completed trick stays on the table (default {seconds}; any key goes on; 0: "
               "none)").format(seconds=f"{DEFAULT_TRICK_PAUSE:g}"),
    )
    p.add_argument("--bell", action="store_true",
                   help=_("ring the terminal's bell when it is your turn to bid, play or choose (Ctrl-G "
                          "toggles it)"))
    p.add_argument("--confirm-card", action="store_true",
                   help=_("ask before a card is played: Enter (or a typed card) asks, a second Enter plays "
                          "it"))


def apply_screen_options(args: argparse.Namespace) -> None:
    """Take --ascii, --trick-pause, --bell and --confirm-card into `PREFS`. ValueError for a pause out of
    range."""
    pause = getattr(args, "trick_pause", None)
    if pause is not None:
        if not 0 <= pause <= 60:
            raise ValueError(_("--trick-pause must be between 0 and 60 seconds, not {seconds}").format(
                seconds=f"{pause:g}"))
        PREFS.trick_pause = float(pause)
    if getattr(args, "ascii", False):
        PREFS.ascii = True
    if getattr(args, "bell", False):
        PREFS.bell = True
    if getattr(args, "confirm_card", False):
        PREFS.confirm_card = True
