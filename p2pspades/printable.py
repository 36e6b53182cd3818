"""Text from a log or the network, made safe to show on a terminal.

A name, a table name or a reason comes from a peer, and a peer is hostile until proven otherwise: an escape
sequence in it could erase a line of `verify`'s output, move the cursor, change the window title, or make
text read backwards. `printable` is the one place that makes such text harmless; every command and screen
passes what it did not write itself through it before showing it.

- C0 control characters and DEL are shown as their Unicode control pictures: ESC as `␛`, NUL as `␀`, a line
  feed as `␊`, DEL as `␡`. Each is one column wide, so columns stay aligned.
- C1 controls, the bidirectional overrides and isolates, the line and paragraph separators and lone
  surrogates are shown as Python escapes (`\\x9b`, `\\u202e`).

Everything else (accents, CJK, emoji, and the zero-width joiner inside emoji) is kept as it is. Such text
is measured in terminal columns (`width`, `pad`, `clip`), never with `len()`, so CJK and emoji names line up.
"""

from __future__ import annotations

import re

from wcwidth import wcswidth, wcwidth

__all__ = ["clip", "pad", "plural", "printable", "printable_lines", "width"]

_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f"  # C0, DEL, C1
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks, embeddings, overrides, isolates
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff]"  # lone surrogates (undecodable bytes)
)


def _shown(match: re.Match[str]) -> str:
    ch = match.group()
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def printable(text: object) -> str:
    """`text` (or `str(text)`) with every control, escape or direction-changing character made visible."""
    return _UNSAFE.sub(_shown, text if isinstance(text, str) else str(text))


def printable_lines(text: str) -> str:
    """Like `printable`, but a line feed stays a line break (for messages of several lines)."""
    return "\n".join(printable(line) for line in text.split("\n"))


def width(text: str) -> int:
    """The columns `text` takes on a terminal (CJK and most emoji take two, combining marks none)."""
    n = wcswidth(text)
    return n if n >= 0 else sum(max(0, wcwidth(ch)) for ch in text)


def pad(text: str, columns: int) -> str:
    """`text` followed by spaces up to `columns` columns (as `str.ljust`, measured in columns)."""
    return text + " " * max(0, columns - width(text))


def clip(text: str, columns: int) -> str:
    """`text` cut to at most `columns` columns, with an ellipsis when something was cut."""
    if columns <= 0 or width(text) <= columns:
        return text
    out, used = "", 0
    for ch in text:
        w = max(0, wcwidth(ch))
        if used + w > columns - 1:
            break
        out, used = out + ch, used + w
    return out + "…"


def plural(n: int, word: str, many: str | None = None) -> str:
    """"1 bag", "2 bags"."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
