"""The look shared by every screen: the style sheet (colour or monochrome), titled panels, text windows.

Colour is a convenience, never the only cue: the monochrome style keeps every distinction with bold,
reverse video, dim text and markers in the text itself.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Sequence
from typing import TypeVar

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import OneStyleAndTextTuple, StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import split_lines
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import (
    AnyContainer,
    ConditionalContainer,
    Container,
    DynamicContainer,
    Float,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import UIContent
from prompt_toolkit.layout.dimension import AnyDimension
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

from p2pspades.i18n import _
from p2pspades.printable import printable_lines
from p2pspades.ui.prefs import shown

GetText = Callable[[], StyleAndTextTuples]
#: the text of a window: (style, text) fragments, lines split by "\n"
Line = StyleAndTextTuples
T = TypeVar("T")

_COMMON = {
    "frame.label": "bold",
    "title": "reverse bold",
    "footer": "reverse",
    "card.selected": "reverse bold",
    "card.played": "dim strike",
    "card.winning": "bold underline",
    "seat.turn": "bold",
    "seat.me": "bold",
    "choice.selected": "reverse bold",
    "key": "bold",
    "status": "bold",
    "heading": "bold underline",
    "verdict.good": "bold",
    "verdict.bad": "bold reverse",
    "verdict.warn": "bold",
    "event.bad": "bold",
    "event.dim": "dim",
    "message.warn": "bold",
    "message.bad": "bold reverse",
    "card.illegal": "dim",
    "card.marked": "underline bold",
    "hint": "dim",
}
_COLOUR = {
    "frame.border": "fg:ansicyan",
    "frame.label": "fg:ansicyan bold",
    "title": "bg:ansiblue fg:ansiwhite bold",
    "card.red": "fg:ansired bold",
    "card.black": "bold",
    "card.illegal": "fg:ansibrightblack nobold",
    "card.played": "fg:ansibrightblack strike nobold",
    "seat.turn": "fg:ansiyellow bold",
    "event.good": "fg:ansigreen",
    "event.warn": "fg:ansiyellow",
    "event.bad": "fg:ansired bold",
    "event.dim": "fg:ansibrightblack",
    "verdict.good": "fg:ansigreen bold",
    "verdict.bad": "fg:ansired bold",
    "verdict.warn": "fg:ansiyellow bold",
    "message.warn": "fg:ansiyellow bold",
    "message.bad": "fg:ansired bold",
    "key": "fg:ansicyan bold",
    "hint": "fg:ansibrightblack",
}


def use_color(color: bool = True) -> bool:
    """Colour unless asked not to (`--no-color`) or the NO_COLOR convention (https://no-color.org) is set."""
    return color and not os.environ.get("NO_COLOR")


def build_style(color: bool = True) -> Style:
    """The style sheet of every screen. Without colour, only bold/reverse/dim/underline remain."""
    rules = dict(_COMMON)
    if color:
        rules.update(_COLOUR)
    return Style.from_dict(rules)


def color_depth(color: bool) -> ColorDepth | None:
    """The colour depth to give the Application: None lets prompt_toolkit detect the terminal."""
    return None if color else ColorDepth.DEPTH_1_BIT


class WordWrapped(FormattedTextControl):
    """Text whose lines are broken between words to the width of the window drawing it (prompt_toolkit's own
    wrapping breaks a line anywhere, a word in two), each continuation indented by `hang` columns."""

    def __init__(self, text: GetText, hang: int = 0, *, follow_end: bool = False) -> None:
        super().__init__(text, focusable=False, show_cursor=False)
        self.hang = hang
        self.follow_end = follow_end

    def create_content(self, width: int, height: int | None) -> UIContent:
        fragments = [(f[0], f[1]) for f in self._get_formatted_text_cached()]
        lines = [part for line in split_lines(fragments) for part in word_wrap(line, width, self.hang)]
        end = Point(x=0, y=len(lines) - 1) if self.follow_end and lines else None
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines), show_cursor=False,
                         cursor_position=end)


def word_wrap(line: StyleAndTextTuples, width: int, hang: int = 0) -> list[StyleAndTextTuples]:
    """`line` broken at spaces into lines of at most `width` columns (a word longer than a line is broken
    where it must), the spaces at a break dropped and each continuation indented by `hang` columns."""
    chars = [(style, ch) for style, text, *_ in line for ch in text]
    if width <= 0 or sum(get_cwidth(ch) for _style, ch in chars) <= width:
        return [line]
    hang = min(hang, max(0, width - 20))
    out: list[StyleAndTextTuples] = []
    start, indent = 0, 0
    while start < len(chars):
        room, used, end, last_space = width - indent, 0, start, -1
        while end < len(chars) and used + get_cwidth(chars[end][1]) <= room:
            if chars[end][1] == " " and end > start:
                last_space = end
            used += get_cwidth(chars[end][1])
            end += 1
        if end < len(chars) and last_space > start:
            end = last_space
        part: StyleAndTextTuples = [("", " " * indent)] if indent else []
        part += [(style, ch) for style, ch in chars[start:end]]
        out.append(part)
        start = end
        while start < len(chars) and chars[start][1] == " ":
            start += 1
        indent = hang
    return out


def text_window(
    get_text: GetText,
    *,
    height: AnyDimension = None,
    width: AnyDimension = None,
    wrap: bool = False,
    style: str = "",
    follow_end: bool = False,
    fit: bool = False,
    hang: int = 0,
) -> Window:
    """A window of formatted text computed at every render. `wrap` breaks long lines between words (each
    continuation indented by `hang` columns); `follow_end` keeps the last line in view; `fit` makes it no
    taller than its text. Whatever the text holds, no control character reaches the terminal."""

    def safe() -> StyleAndTextTuples:
        return [(f[0], shown(printable_lines(f[1])), *f[2:]) for f in get_text()]

    source = safe
    if follow_end and not wrap:

        def source() -> StyleAndTextTuples:
            fragments = list(safe())
            at = max((i for i, (_, text, *_) in enumerate(fragments) if "\n" in text), default=-1)
            fragments.insert(at + 1, ("[SetCursorPosition]", ""))
            return fragments

    control = WordWrapped(source, hang, follow_end=follow_end) if wrap else FormattedTextControl(
        source, focusable=False, show_cursor=False)
    return Window(
        control,
        height=height,
        width=width,
        wrap_lines=wrap,
        style=style,
        always_hide_cursor=True,
        dont_extend_height=fit,
    )


def panel(
    body: AnyContainer,
    title: str | Callable[[], str] = "",
    *,
    width: AnyDimension = None,
    height: AnyDimension = None,
    style: str = "",
    pad: bool = False,
) -> Container:
    """A box with the title in its top border: ┌─ Title ─────┐. `pad` leaves a blank column on each side."""
    if pad:
        body = VSplit([Window(width=1), body, Window(width=1)])

    def label() -> StyleAndTextTuples:
        text = title() if callable(title) else title
        return [("class:frame.label", f" {text} ")] if text else []

    border = "class:frame.border"
    top = VSplit(
        [
            Window(width=1, height=1, char=shown("┌"), style=border),
            Window(width=1, height=1, char=shown("─"), style=border),
            Window(FormattedTextControl(label), height=1, dont_extend_width=True),
            Window(height=1, char=shown("─"), style=border),
            Window(width=1, height=1, char=shown("┐"), style=border),
        ],
        height=1,
    )
    middle = VSplit(
        [
            Window(width=1, char=shown("│"), style=border),
            body,
            Window(width=1, char=shown("│"), style=border),
        ]
    )
    bottom = VSplit(
        [
            Window(width=1, height=1, char=shown("└"), style=border),
            Window(height=1, char=shown("─"), style=border),
            Window(width=1, height=1, char=shown("┘"), style=border),
        ],
        height=1,
    )
    return HSplit([top, middle, bottom], width=width, height=height, style=style)


def overlay(body: AnyContainer, title: str | Callable[[], str], when: Callable[[], bool]) -> Float:
    """A centred dialog box, shown while `when()` is true."""
    return Float(content=ConditionalContainer(panel(body, title, pad=True), filter=Condition(when)))


def join_lines(lines: Sequence[Sequence[OneStyleAndTextTuple]]) -> StyleAndTextTuples:
    """Lines of fragments as one fragment list separated by newlines."""
    out: StyleAndTextTuples = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(line)
    return out


def too_small(columns: int, rows: int, keys: str = "") -> Container:
    """What a screen shows in a terminal smaller than it needs: the size it needs, and the size it has, in
    lines broken between words; `keys`, what still works (e.g. how to leave)."""

    def text() -> StyleAndTextTuples:
        try:
            size = get_app().output.get_size()
            need = _("Window too small: make the terminal at least {columns}x{rows} (this one is {have}).")
            need = need.format(columns=columns, rows=rows, have=f"{size.columns}x{size.rows}")
            fits = max(10, size.columns - 2)
        except Exception:  # no running app
            need = _("Window too small: make the terminal at least {columns}x{rows}.").format(columns=columns,
                                                                                             rows=rows)
            fits = columns
        need += f" {keys}" if keys else ""
        return [("class:message.bad", "\n".join(" " + line for line in textwrap.wrap(need, fits)))]

    return Window(FormattedTextControl(text), wrap_lines=True)


def at_least(body: AnyContainer, columns: int, rows: int, keys: str = "") -> Container:
    """`body` (with its dialogs) in a terminal of at least `columns` x `rows`; in a smaller one only the
    `too_small` warning, so that no dialog is drawn over it and nothing is cut off without a word."""
    small = too_small(columns, rows, keys)

    def pick() -> AnyContainer:
        try:
            size = get_app().output.get_size()
        except Exception:  # no running app: draw the screen
            return body
        return body if size.columns >= columns and size.rows >= rows else small

    return DynamicContainer(pick)


def full_screen_app(
    container: AnyContainer,
    key_bindings: KeyBindings,
    *,
    color: bool = True,
    input: Input | None = None,
    output: Output | None = None,
) -> Application[T]:
    """A screen of the game (the table, the lobby, the replay viewer): full screen, no mouse, the shared style
    (in colour unless `color` is False or NO_COLOR is set); `input`/`output` for tests."""
    colour = use_color(color)
    return Application(
        layout=Layout(container),
        key_bindings=key_bindings,
        style=build_style(colour),
        color_depth=color_depth(colour),
        full_screen=True,
        erase_when_done=True,  # where the terminal has no alternate screen, leave no line of it behind
        mouse_support=False,
        input=input,
        output=output,
    )
