"""`--web`: the page as the screen of `play`, `host`, `join` and `resume`, instead of the terminal's.

`WebScreen` stands where the terminal's screens stand for a command: it shows the lobby's `LobbyModel`
(`run_lobby`) and the game's `UiState` (`run_game`), the very models the terminal screens draw, and turns the
page's clicks and keys into the same model calls the terminal's keys make (`actions.py`). Before the lobby
and after the game it shows what the command printed. The terminal keeps one status line; Ctrl-C there
leaves the game as the Leave button does (a second Ctrl-C interrupts, as it would anyway).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import shlex
import shutil
import signal
import sys
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

from p2pspades.audit import verify_file
from p2pspades.describe.page import game_page
from p2pspades.errors import LocalError
from p2pspades.i18n import _
from p2pspades.net.lobby_seats import LobbyError
from p2pspades.reasons import Trouble
from p2pspades.ui import lobby_model as ui_lobby
from p2pspades.ui import players as ui_players
from p2pspades.ui import state as ui_state
from p2pspades.web import snapshot, words
from p2pspades.web.actions import Message, Refused, field, game_message, lobby_message
from p2pspades.web.browser import open_page
from p2pspades.web.security import Guard, new_token
from p2pspades.web.server import PageServer, Tab, listening_socket

logger = logging.getLogger(__name__)
T = TypeVar("T")

PAGE_GRACE = 10.0
"""Seconds a game goes on with no tab showing it (a reload takes one or two) before we leave it."""


@dataclass(frozen=True)
class Offer:
    """A way to play again that the game-over window offers as a button: its kind (`words.AGAIN`) and the
    command that does it, as the terminal prints it."""

    kind: str
    command: tuple[str, ...]

    def to_json(self) -> dict[str, str]:
        label, hint = words.again(self.kind)
        return {"kind": self.kind, "label": label, "hint": hint}


def offers_from(lines: Iterable[str], new_game: Sequence[str] | None = None) -> list[Offer]:
    """The buttons for the lines a command prints after a game ("play again with: p2pspades host --rematch
    ...", "carry on with a bot: ...", "join with: ..."), and a new game of the same command (`play`)."""
    out = []
    for line in lines:
        _said, sep, command = line.partition("p2pspades ")
        if not sep:
            continue
        typed = ("p2pspades", *shlex.split(command))
        kind = ("rematch" if "--rematch" in typed else "carry_on" if "--carry-on" in typed
                else "join" if typed[1] == "join" else None)
        if kind is not None:
            out.append(Offer(kind, typed))
    if new_game is not None:
        out.append(Offer("new", tuple(new_game)))
    return out


class StatusLine:
    """The terminal's one line while the page plays, rewritten in place. Where the output is not a terminal
    (a file, a pipe) nothing can be rewritten: only a change of `steady` (how many tabs show the page) is
    written, as a line of its own."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream
        self.live = self.stream.isatty()
        self.text = ""
        self.steady = ""
        self._shown = False

    @property
    def stream(self) -> TextIO:
        return self._stream or sys.stdout  # the process's output as it is now

    def show(self, text: str, steady: str = "") -> None:
        if self.live:
            if text == self.text and self._shown:
                return
            columns = shutil.get_terminal_size().columns
            self.stream.write("\r\x1b[K" + text[: max(10, columns - 1)])
            self._shown = True
        elif steady != self.steady:
            self.stream.write(steady + "\n")
        else:
            return
        self.text, self.steady = text, steady
        self.stream.flush()

    def clear(self) -> None:
        if self.live and self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._shown = False

    def print(self, line: str) -> None:
        """A line of the command's own, above the status line."""
        self.clear()
        self.stream.write(line + "\n")
        self.stream.flush()
        if self.live and self.text:
            self.show(self.text)


class WebScreen:
    """The page of one command: its server, what it shows now, and the person's answers."""

    # what a command takes from its screen, as from the terminal's `p2pspades.ui`
    LobbyModel = ui_lobby.LobbyModel
    UiState = ui_state.UiState
    HumanPlayer = ui_players.HumanPlayer
    ThinkingShown = ui_players.ThinkingShown

    def __init__(self, *, port: int = 0, browser: bool = True, token: str | None = None,
                 status: StatusLine | None = None, new_game: Sequence[str] | None = None) -> None:
        self.port = port
        self.new_game = None if new_game is None else tuple(new_game)
        """The command that plays a new game like this one (`play`), for the game-over window's button."""
        self.browser = browser
        self.token = token or new_token()
        self.status = status or StatusLine()
        self.guard: Guard | None = None
        self.server: PageServer | None = None
        self.lines: list[str] = []
        """What the command said, for the page before the lobby and after the game."""
        self.model: ui_lobby.LobbyModel | None = None
        self.state: ui_state.UiState | None = None
        self.log_path: Path | None = None
        """The log of the game shown (or just ended): the hand records page is made from it."""
        self.offers: list[Offer] = []
        self._again_lines: Callable[[], Sequence[str]] | None = None
        self.again: Offer | None = None
        """The way to play again the person chose on the game-over window."""
        self.confirm_card = False
        """Whether the page last asked before a card was played (the next game started from it does too)."""
        self._records: tuple[Path, asyncio.Future[str]] | None = None
        self._left = asyncio.Event()
        self._interrupt: Callable[[], None] | None = None
        self._interrupted = False
        self._previous_sigint: Any = None
        self._flushing = False
        self._decision: object | None = None
        self._decision_id = 0
        self._seen = False  # a tab has shown the page
        self._closing: asyncio.Future[None] | None = None  # every tab closed: we leave unless one opens

    @property
    def url(self) -> str:
        assert self.guard is not None, "the screen has not started"
        return self.guard.url

    # ------------------------------------------------------------------------------------------ life
    async def start(self) -> str:
        """Serve the page on 127.0.0.1, open the browser (unless asked not to), say where. LocalError if the
        port cannot be had."""
        try:
            sock = listening_socket(self.port)
        except OSError as exc:
            why = exc.strerror or exc
            raise LocalError(_("cannot serve the page on {address}: {why}").format(
                address=f"127.0.0.1:{self.port}", why=why)) from None
        self.guard = Guard(self.token, sock.getsockname()[1])
        self.server = PageServer(self.guard, self)
        await self.server.start(sock)
        self._catch_sigint()
        opened = self.browser and await asyncio.get_running_loop().run_in_executor(None, open_page, self.url)
        for line in words.url_lines(self.url, opened):
            self.say(line)
        return self.url

    async def close(self, *, restarting: str | None = None) -> None:
        """Stop serving: the page shows what the command said last, and that it has ended (or, with
        `restarting`, that the next game starts in this tab)."""
        self._release_sigint()
        self.status.clear()
        if self._records is not None:
            self._records[1].cancel()
        if self.server is not None:
            farewell = {"lines": self.lines[-40:], "restarting": restarting and words.starting(restarting)}
            await self.server.close(farewell)
            self.server = None

    def _catch_sigint(self) -> None:
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
            return  # started as a background job: Ctrl-C is not ours to take
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            self._previous_sigint = signal.getsignal(signal.SIGINT)
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, self._sigint)

    def _release_sigint(self) -> None:
        if self._previous_sigint is None:
            return
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)
            signal.signal(signal.SIGINT, self._previous_sigint)
        self._previous_sigint = None

    def _sigint(self) -> None:
        """Ctrl-C: leave the lobby or the game, as the page's Leave does; again (or with nothing to leave),
        interrupt as Ctrl-C always does."""
        if self._interrupt is not None and not self._interrupted:
            self._interrupted = True
            self.status.print(words.leaving())
            self._interrupt()
            return
        previous = self._previous_sigint
        self._release_sigint()
        if callable(previous):
            previous(signal.SIGINT, None)
        else:
            raise KeyboardInterrupt

    # ------------------------------------------------------------------------------------------ what shows
    def say(self, line: str) -> None:
        """A line the command prints: above the status line, and on the page until the lobby or the game."""
        self.status.print(line)
        self.tell(line)

    def tell(self, line: str) -> None:
        """A line for the page only (the terminal has it already)."""
        self.lines.append(line)
        self.changed()

    def changed(self) -> None:
        """The models changed: draw the page and the status line again, once per turn of the loop."""
        if self._flushing:
            return
        self._flushing = True
        asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flushing = False
        if self.server is not None:
            self.server.push()
            tabs = len(self.server.tabs)
            self.status.show(words.status_line(self.url, tabs, self._prompt()), words.tabs(tabs))

    def _prompt(self) -> str:
        if self.state is not None:
            return self.state.status_text()
        if self.model is not None:
            return self.model.hint().replace("\n", " ")
        return ""  # before the lobby and after the game, the lines the command prints say it

    def labels(self) -> Mapping[str, str]:
        return words.labels()

    def snapshot(self) -> dict[str, Any]:
        state = self.state
        if state is not None:
            out = snapshot.game(state)
            out["d"] = self._decision_now()
            if state.result is not None:
                out["again"] = [offer.to_json() for offer in self._offers()]
                out["records"] = self.log_path is not None
            return out
        if self.model is not None:
            return snapshot.lobby(self.model)
        return snapshot.notice(self.lines)

    def _offers(self) -> list[Offer]:
        """The ways to play again, worked out once the game is over."""
        if self._again_lines is not None:
            self.offers = offers_from(self._again_lines(), self.new_game)
            self._again_lines = None
        return self.offers

    def _decision_now(self) -> int:
        """A number for the decision on the screen, new with each decision: a click carries it, so that one
        meant for a decision that has passed is not taken for the next."""
        decision = None if self.state is None else self.state.decision
        if decision is not self._decision:
            self._decision = decision
            self._decision_id += 1
        return self._decision_id

    def tabs_changed(self) -> None:
        self.changed()
        tabs = 0 if self.server is None else len(self.server.tabs)
        if tabs:
            self._seen = True
            if self._closing is not None:
                self._closing.cancel()
                self._closing = None
        elif self._seen and self._closing is None and self.state is not None:
            self._closing = asyncio.ensure_future(self._page_closed())

    async def _page_closed(self) -> None:
        """Every tab of the page closed while the game is shown: closing the browser tab is leaving, so
        unless a tab opens again within `PAGE_GRACE` seconds (a reload does), we leave as the Leave button
        does (a goodbye, where others still play). The terminal counts it down."""
        try:
            self.status.print(words.page_closed(math.ceil(PAGE_GRACE)))
            for left in range(math.ceil(PAGE_GRACE), 0, -1):
                self.status.show(words.page_closed(left), words.tabs(0))  # (a terminal: counted down)
                await asyncio.sleep(1.0)
        except asyncio.CancelledError:
            self.changed()
            raise
        self._closing = None
        self.status.print(words.left_with_the_page())
        self._leave_game()

    # ------------------------------------------------------------------------------------------ answers
    async def message(self, tab: Tab, message: Message) -> None:
        """A page's message: only the tab that plays may act; the others watch."""
        if not tab.plays:
            assert self.server is not None
            self.server.say(tab, {"t": "note", "text": words.watching_refused()})
            return
        try:
            if self.state is not None:
                self._game_message(self.state, message)
            elif self.model is not None:
                pending = lobby_message(self.model, message)
                if pending is not None:
                    await pending
        finally:
            self.changed()

    def _game_message(self, state: ui_state.UiState, message: Message) -> None:
        do = message["do"]
        if do == "again":
            kind = field(message, "kind", str)
            offer = next((o for o in self._offers() if o.kind == kind), None)
            if offer is None or state.result is None:
                raise Refused(f"no way to play again called {kind!r} now")
            self.again = offer
            state.leave_requested = True
        elif do == "done":
            if state.result is None:
                raise Refused("the game is not over")
            state.leave_requested = True
        else:
            game_message(state, message, current=message.get("d") == self._decision_now())
        if state.leave_requested:
            self._left.set()

    async def records(self) -> str | None:
        """The hand records page of the game shown (or just ended), once it has ended: made from its log
        as `export --format html` makes it, in a worker thread, once."""
        path = self.log_path
        if path is None or (self.state is not None and self.state.result is None):
            return None
        if self._records is None or self._records[0] != path:
            self._records = (path, asyncio.get_running_loop().run_in_executor(
                None, lambda: game_page(verify_file(path), source=path.name)))
        return await asyncio.shield(self._records[1])

    # ------------------------------------------------------------------------------------------ the screens
    async def run_lobby(self, model: ui_lobby.LobbyModel, work: Awaitable[T], *,
                        color: bool = True) -> T | None:
        """Show the lobby while `work` (the lobby) runs: its result, or None if the person left (Leave,
        Decline, Ctrl-C), which cancels `work`."""
        self.model, self.state = model, None
        model.on_change = self.changed
        model.ready = model.asking is not None  # nothing to accept or start before the lobby asks
        left = asyncio.Event()
        model.on_leave = left.set
        self._interrupt, self._interrupted = model.leave, False
        task = asyncio.ensure_future(work)
        waiter = asyncio.ensure_future(left.wait())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            self.model, self._interrupt = None, None
            model.on_change = model.on_leave = None
            self.changed()
        if model.left:
            return None
        if task.cancelled():
            raise LobbyError(Trouble.STOPPED)
        return task.result()

    async def run_game(self, state: ui_state.UiState, game: Awaitable[Any], *, log: Path | None = None,
                       again: Callable[[], Sequence[str]] | None = None) -> None:
        """Show the game while `game` runs, until the person leaves (Leave, Ctrl-C, or a button of the
        game-over window); a failure of the game ends it too, and is raised. Leaving stops the game.
        `again`: the lines the command prints after the game to play again, which become buttons."""
        self.state, self.model = state, None
        self.log_path, self.again, self.offers = log, None, []
        self._again_lines = again or (lambda: ())
        state.confirm_card = state.confirm_card or self.confirm_card
        state.on_change = self.changed
        state.on_bell = None
        self._left.clear()
        self._interrupt, self._interrupted = self._leave_game, False
        task = asyncio.ensure_future(game)
        left = asyncio.ensure_future(self._left.wait())
        try:
            await asyncio.wait({task, left}, return_when=asyncio.FIRST_COMPLETED)
            if task.done() and not left.done():
                task.result()  # a failure ends the screen; a game over stays until the person leaves
                await left
        finally:
            left.cancel()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if self._closing is not None:
                self._closing.cancel()
                self._closing = None
            self._interrupt = None
            self.confirm_card = state.confirm_card
            state.on_change = None
            self.state = None
            self.changed()

    def _leave_game(self) -> None:
        state = self.state
        if state is not None:
            state.quit_requested = state.result is None
            state.leave_requested = True
        self._left.set()
