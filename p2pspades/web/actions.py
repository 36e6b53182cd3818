"""What the page may ask for: a key, a click on a card or a choice, a window. Each message is checked like any
bytes from outside (size, JSON, the fields and their types), then done through the models' own methods, the
ones the terminal's keys call: so the page can do nothing the terminal cannot, and the model refuses a card
or a bid the rules do not allow, with its reason, as it does on the terminal.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from p2pspades.rules import Card, CardError, Play
from p2pspades.table import DecisionKind
from p2pspades.ui import keys
from p2pspades.ui.lobby_model import LobbyModel
from p2pspades.ui.overlays import Overlay
from p2pspades.ui.state import UiState
from p2pspades.web import words
from p2pspades.web.snapshot import action_of

MAX_MESSAGE = 1024
"""The longest message a page sends (a card code or a key, and a few fields): anything longer is refused."""

#: the keys the page passes on, by the name the browser gives them
NAMED_KEYS = frozenset({"ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End", "Enter", " ",
                        "Escape", "Backspace", "Delete"})
#: the windows a page's button may open: those the terminal's letters open
WINDOWS = {overlay.value: overlay for overlay in keys.KEY_OVERLAYS.values()}


class Refused(ValueError):
    """A message that is not one a page of ours sends (the page is told nothing; it is logged)."""


Message = dict[str, Any]


def parse(text: str | bytes) -> Message:
    """A page's message: a JSON object of at most `MAX_MESSAGE` bytes whose `do` is a short string."""
    if len(text) > MAX_MESSAGE:
        raise Refused(f"a message of {len(text)} bytes (at most {MAX_MESSAGE})")
    try:
        message = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise Refused("a message that is not JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("do"), str) or len(message["do"]) > 20:
        raise Refused("a message without a `do`")
    return message


def field(message: Message, name: str, kind: type, limit: int = 16) -> Any:
    """`message[name]`, which must be of `kind` (a string at most `limit` long)."""
    value = message.get(name)
    if kind is bool and not isinstance(value, bool):
        raise Refused(f"`{name}` must be true or false")
    if kind is int and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1 << 31):
        raise Refused(f"`{name}` must be a whole number")
    if kind is str and (not isinstance(value, str) or not 0 < len(value) <= limit):
        raise Refused(f"`{name}` must be a string of at most {limit} characters")
    return value


def key_of(message: Message) -> str:
    key = field(message, "key", str)
    if key not in NAMED_KEYS and not (len(key) == 1 and ((key.isascii() and key.isalnum()) or key == "?")):
        raise Refused(f"a key the page does not pass on: {key!r}")
    return str(key)


# ------------------------------------------------------------------------------------------ the game
def press(state: UiState, key: str) -> None:
    """A key on the page, as the terminal's key bindings take it (`ui.keys`), but Enter on the game-over
    window, whose buttons say what comes next."""
    top = state.top_overlay
    if top is Overlay.TRICK:
        state.release_trick()  # any key ends the pause, and only that
    elif len(key) == 1 and key != " ":
        _character(state, key)
    elif top is Overlay.QUIT:
        if key == "Escape":
            state.confirm_quit(False)
    elif top is Overlay.STOP:
        if key == "Escape":
            state.answer_stop(None)
    elif key == "Enter":
        if top is not Overlay.OVER:
            state.submit()
    elif key == " ":
        state.submit() if top is not None else state.mark()
    elif key == "Escape":
        keys.escape(state)
    elif key in ("ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown"):
        state.move(-1 if key in ("ArrowLeft", "ArrowUp") else 1)
    elif key in ("Home", "End"):
        state.move_to(end=key == "End")
    elif key == "Backspace":
        state.backspace()


def _character(state: UiState, key: str) -> None:
    """A letter, digit or `?`, as on the terminal; but a q that types nothing says how a page leaves (a
    browser keeps Ctrl-Q for itself)."""
    if key in "qQ" and state.top_overlay not in (Overlay.QUIT, Overlay.OVER):
        if not state.type_key(key):
            state.say(words.queen_key(), "dim")
        return
    keys.press(state, key)


def card_clicked(state: UiState, card: Card) -> None:
    """A click on a card of our hand: play it (or ask first, with the confirm option), or mark it for the
    pass; a card the rules refuse is refused with the reason, as a typed code would be."""
    if state.top_overlay is Overlay.TRICK:
        state.release_trick()
    if state.top_overlay is not None:
        return
    state.typed = ""
    if state.kind is DecisionKind.PASS:
        state.selected = card
        state.mark()
    elif state.kind is DecisionKind.PLAY and card in state.selectable():
        state.selected = card
        state.submit()
    else:
        state.answer(Play(card))  # says why not (or that there is nothing to decide)


def game_message(state: UiState, message: Message, current: bool) -> None:
    """Do what a page's message asks on the game screen. `current`: the message answers the decision on
    the screen now (a click meant for one that has passed is refused with a word, not applied to the next)."""
    do = message["do"]
    if do == "key":
        press(state, key_of(message))
    elif do in ("card", "choose", "pass") and not current:
        state.say(words.stale(), "warn")
    elif do == "card":
        try:
            card = Card.parse(field(message, "card", str, 3))
        except CardError:
            raise Refused("not a card") from None
        card_clicked(state, card)
    elif do == "choose":
        action = action_of(field(message, "a", str))
        if action is None:
            raise Refused("not a choice")
        if state.top_overlay is None:
            state.answer(action)
    elif do == "pass":
        if state.kind is DecisionKind.PASS and state.top_overlay is None:
            state.submit()
    else:
        _command(state, do, message)


#: the answers the page's stop question sends: propose or agree, play on, decide later
STOP_ANSWERS: dict[str, bool | None] = {"yes": True, "no": False, "later": None}
#: the page's commands that take no field: each does what its key does on the terminal
PLAIN_COMMANDS: dict[str, Callable[[UiState], None]] = {
    "close": UiState.close_overlay,
    "cancel": UiState.clear_typed,
    "coach": UiState.coach,
    "wait": UiState.wait_longer,
    "leave": UiState.request_quit,
    "stop": UiState.ask_stop,
}


def _command(state: UiState, do: str, message: Message) -> None:
    if do in PLAIN_COMMANDS:
        PLAIN_COMMANDS[do](state)
    elif do == "window":
        name = field(message, "name", str)
        if name not in WINDOWS:
            raise Refused("not a window")
        state.toggle_overlay(WINDOWS[name])
    elif do == "confirm":
        if state.confirming is not None and state.top_overlay is None:
            state.submit()
    elif do == "quit":
        state.confirm_quit(field(message, "yes", bool))
    elif do == "stop_answer":
        answer = field(message, "answer", str)
        if answer not in STOP_ANSWERS:
            raise Refused("not an answer to the question of a stop")
        state.answer_stop(STOP_ANSWERS[answer])
    elif do == "confirm_card":
        state.confirm_card = field(message, "on", bool)
        state.confirming = None
        state.say(words.confirm_card(state.confirm_card), "dim")
    else:
        raise Refused(f"not something the game screen does: {do!r}")


# ------------------------------------------------------------------------------------------ the lobby
def lobby_message(model: LobbyModel, message: Message) -> Awaitable[None] | None:
    """Do what a page's message asks on the lobby screen; the host's seat changes are awaited by the caller
    (they talk to the lobby)."""
    do = message["do"]
    if do == "seat":
        seat = field(message, "seat", int)
        what = field(message, "what", str)
        if not model.hosting or seat >= model.rules.players or what not in ("b", "x", "s", "l"):
            raise Refused("not a seat change")
        model.selected = seat
        return model.act(what)
    if do in ("accept", "start"):
        model.decide(True)
    elif do in ("decline", "leave"):
        model.leave()
    elif do == "key":
        return _lobby_key(model, key_of(message))
    else:
        raise Refused(f"not something the lobby does: {do!r}")
    return None


def _lobby_key(model: LobbyModel, key: str) -> Awaitable[None] | None:
    """The lobby screen's keys, as on the terminal."""
    if key in ("ArrowUp", "ArrowDown"):
        model.select(-1 if key == "ArrowUp" else 1)
    elif key in ("ArrowLeft", "ArrowRight"):
        model.move(-1 if key == "ArrowLeft" else 1)
    elif key == "Enter":
        model.decide(True) if model.choice == 0 else model.leave()
    elif key in "ayg":
        model.decide(True)
    elif (key in "dn" and not model.hosting) or key in ("q", "Escape"):
        model.leave()
    elif model.hosting and key in ("b", "x", "s", "l", "Delete"):
        return model.act("x" if key == "Delete" else key)
    return None
