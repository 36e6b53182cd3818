"""The game screen's keys: `create_key_bindings(state)`, each key calling a `UiState` method, and the help
window's list of them.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.filters import Always, Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from p2pspades.i18n import _
from p2pspades.rules import Card, Rank, Suit
from p2pspades.ui.cardinput import typed_code
from p2pspades.ui.overlays import Overlay
from p2pspades.ui.state import UiState

#: the keys that open (and close) a window over the game
KEY_OVERLAYS = {"?": Overlay.HELP, "s": Overlay.SCORES, "l": Overlay.LAST, "p": Overlay.PLAYED}


def help_lines() -> list[tuple[str, str]]:
    """The help window's rows, in the language spoken: a key, what it does."""
    examples = ", ".join(typed_code(Card(rank, suit)) for rank, suit in (
        (Rank.QUEEN, Suit.HEARTS), (Rank.TEN, Suit.SPADES), (Rank.ACE, Suit.SPADES))) + ", " + typed_code(
            Card.parse("BJ")) + "…"
    if typed_code(Card.parse("QH")) == "qh":
        typing = _("type a card code, then Enter, to play that card")
    else:  # the player's language has codes of its own: say that the English ones work too
        typing = _("type a card code (or English: {codes}), then Enter").format(codes="qh, 10s")
    return [
        (_("←/→, Home/End"), _("choose a card (only legal cards when you are to play)")),
        (_("Enter"), _("play the chosen card; confirm a bid; close a window")),
        (examples, typing),
        (_("Backspace/Esc"), _("correct / clear a typed code; Esc: choose again")),
        (_("bid dialog"), _("←/→ and Enter, or type a number; n = nil")),
        (_("blind nil"), _("y declares blind nil, n says no (asked before the deal)")),
        (_("draw pile"), _("k keeps the top card, d discards it")),
        (_("nil card pass"), _("Space marks/unmarks a card, Enter passes them, Esc clears")),
        ("s, l", _("the score sheet (bids, points, totals); l: the last trick")),
        ("p", _("the cards played this hand by suit, and those still out")),
        ("h", _("the coach's choice, from your cards; h again: its numbers")),
        (_("any key"), _("after a trick: go on at once (it stays a moment)")),
        ("w", _("wait longer for a seat that stopped answering")),
        ("x", _("propose to stop here, scores standing (all must agree)")),
        (_("Ctrl-G"), _("bell on/off: a beep when it is your turn")),
        (_("Ctrl-Q, Ctrl-C"), _("leave the game (asks first) · Ctrl-L redraws the screen")),
    ]

#: a key bound with no condition
ANY_TIME: Filter = Always()

#: the keys that type (a card code, a bid, a dialog's answer) or give a command
CHARACTER_KEYS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?"


def create_key_bindings(state: UiState) -> KeyBindings:
    """The game's keys; each one calls a `UiState` method, then leaves the app if the state asks to.

    While a completed trick is held on the table, any key (but Ctrl-C, Ctrl-Q and Ctrl-L) only ends the pause.
    """
    kb = KeyBindings()
    quitting = Condition(lambda: state.top_overlay is Overlay.QUIT)
    stopping = Condition(lambda: state.top_overlay is Overlay.STOP)
    holding = Condition(lambda: state.top_overlay is Overlay.TRICK)
    free = ~quitting & ~stopping & ~holding

    def bind(keys: str | tuple[str, ...], action: Callable[[str], object], when: Filter = ANY_TIME) -> None:
        def handler(event: KeyPressEvent) -> None:
            action(event.data)
            if state.leave_requested:
                event.app.exit()

        for key in (keys,) if isinstance(keys, str) else keys:
            kb.add(key, filter=when)(handler)

    bind(Keys.Any, lambda _: state.release_trick(), holding)
    bind(("c-c", "c-q"), lambda _: leave(state))
    bind(tuple(CHARACTER_KEYS), lambda ch: press(state, ch), ~holding)
    bind("enter", lambda _: state.submit(), free)
    bind("space", lambda _: state.submit() if state.top_overlay is not None else state.mark(), free)
    bind("escape", lambda _: state.confirm_quit(False), quitting)
    bind("escape", lambda _: state.answer_stop(None), stopping)
    bind("escape", lambda _: escape(state), free)
    bind(("left", "up"), lambda _: state.move(-1), free)
    bind(("right", "down"), lambda _: state.move(1), free)
    bind("home", lambda _: state.move_to(end=False), free)
    bind("end", lambda _: state.move_to(end=True), free)
    bind("backspace", lambda _: state.backspace(), ~holding)
    bind("c-g", lambda _: state.toggle_bell(), free)

    @kb.add("c-l")
    def _redraw(event: KeyPressEvent) -> None:
        event.app.renderer.clear()

    return kb


def press(state: UiState, ch: str) -> None:
    """A letter, digit or `?`: the answer to the leave question, part of a code or a bid, or a command."""
    if state.top_overlay is Overlay.QUIT:
        if ch in "yYnNqQ":
            state.confirm_quit(ch in "yY")
        return
    if state.top_overlay is Overlay.STOP:
        if ch in "yYnN":
            state.answer_stop(ch in "yY")
        return
    if state.type_key(ch):
        return
    lower = ch.lower()
    if lower in KEY_OVERLAYS:
        state.toggle_overlay(KEY_OVERLAYS[lower])
    elif lower == "w":
        state.wait_longer()
    elif lower == "x":
        state.ask_stop()
    elif lower == "h":
        state.coach()
    elif lower == "q" and state.top_overlay is Overlay.OVER:
        state.leave_requested = True
    elif lower == "q":
        state.say(_("Ctrl-Q leaves the game (q is the rank of a queen)"), "dim")


def leave(state: UiState) -> None:
    """Ctrl-C or Ctrl-Q: ask whether to leave, or, asked already, leave."""
    if state.top_overlay is Overlay.QUIT:
        state.confirm_quit(True)
    else:
        state.request_quit()


def escape(state: UiState) -> None:
    """Esc: close the window on top (never the game-over screen), else clear what was typed."""
    if state.top_overlay not in (None, Overlay.OVER):
        state.close_overlay()
    else:
        state.clear_typed()
