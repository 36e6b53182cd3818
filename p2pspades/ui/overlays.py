"""The windows shown over the game screen, as a stack: the last opened is on top and takes the keys.

Some are opened by a key (help, score sheet, last trick), some by the game (the hand's summary, the
game-over screen, the completed trick held on the table) and two by a question (leave the game? stop here?).
Where each
goes in the stack is decided here, so the question is never hidden by something the game opens meanwhile
and the game-over screen waits below everything else.
"""

from __future__ import annotations

import enum


class Overlay(enum.StrEnum):
    """Every overlay the game screen knows."""

    HELP = "help"
    SCORES = "scores"
    LAST = "last"  # the last trick
    PLAYED = "played"  # the cards played so far in the hand
    SUMMARY = "summary"  # a finished hand's summary
    QUIT = "quit"  # the question: leave the game?
    STOP = "stop"  # the question: stop here by agreement? (a proposal of ours, or our answer to another's)
    OVER = "over"  # the game-over screen
    TRICK = "trick"  # the completed trick held on the table for a moment


#: the questions a person must answer: nothing opens over them
QUESTIONS = (Overlay.QUIT, Overlay.STOP)
#: what a person must answer or see go by first: the game opens its own windows below these
_IN_FRONT = (*QUESTIONS, Overlay.TRICK)


class OverlayStack(list[Overlay]):
    """The overlays open, bottom first (a list, so a test can look at it as one)."""

    @property
    def top(self) -> Overlay | None:
        return self[-1] if self else None

    def toggle(self, name: Overlay) -> bool:
        """A key's overlay: open it on top, or close it if it is on top. Nothing while the leave question is
        open. True if something changed."""
        if self.top == name:
            self.pop()
        elif self.top in QUESTIONS:
            return False
        else:
            self.discard(name)
            self.append(name)
        return True

    def close_top(self) -> Overlay | None:
        """Close the overlay on top, unless it is the game-over screen (which stays). The name closed."""
        if self and self[-1] is not Overlay.OVER:
            return self.pop()
        return None

    def open_below_all(self, name: Overlay) -> None:
        """Open an overlay under every other one (the game-over screen waits for the last summary)."""
        if name not in self:
            self.insert(0, name)

    def open_under_questions(self, name: Overlay, *, also_under: tuple[Overlay, ...] = ()) -> None:
        """Open `name` (again) on top, but under a pending question (and under `also_under`)."""
        self.discard(name)
        at = len(self)
        while at > 0 and (self[at - 1] in QUESTIONS or self[at - 1] in also_under):
            at -= 1
        self.insert(at, name)

    def open_game_window(self, name: Overlay) -> None:
        """A window the game opens (a hand's summary): on top, but under the question and the held trick."""
        self.open_under_questions(name, also_under=_IN_FRONT)

    def discard(self, name: Overlay) -> bool:
        """Close `name` wherever it is in the stack. True if it was open."""
        if name in self:
            self.remove(name)
            return True
        return False
