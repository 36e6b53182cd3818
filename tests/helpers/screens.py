"""A tour of every screen a person can see, drawn in memory: the game screen with each of its dialogs and
windows (four presets, so that blind nil, the draw pile, the nil card pass and a game without partners are
among them), the replay viewer, and the lobby as the host and a joiner see it. `tour()` hands each screen's
application to the caller while it shows that screen, in the language spoken; `fit_problems` says what of
it does not fit its window (a line cut by the screen's edge, or a word broken in two)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text.utils import fragment_list_width
from prompt_toolkit.input import DummyInput, create_pipe_input
from prompt_toolkit.layout import FormattedTextControl, Window, walk
from prompt_toolkit.output import DummyOutput

from p2pspades import crypto
from p2pspades.audit import verify_frames
from p2pspades.audit.sequel import Change, ChangeKind
from p2pspades.cli.again import doubt_lines, doubts_heading
from p2pspades.i18n import _
from p2pspades.net.lobby_seats import LobbySeat
from p2pspades.rules import Bid, RuleSet, preset
from p2pspades.table import DecisionKind
from p2pspades.table.genesis import REMATCH, After, SeatInfo
from p2pspades.ui.app import create_app
from p2pspades.ui.capture import screen_text
from p2pspades.ui.lobby import create_lobby_app
from p2pspades.ui.lobby_model import LobbyModel
from p2pspades.ui.local import LocalGame, default_bots
from p2pspades.ui.overlays import Overlay
from p2pspades.ui.replay import ReplayModel, create_replay_app
from p2pspades.ui.state import UiState
from p2pspades.ui.testing import until
from p2pspades.ui.widgets import WordWrapped

Shown = tuple[str, Application[Any]]
"""A screen's name and the application showing it."""

GAMES: dict[str, RuleSet] = {
    # a short partnership game: every dialog and window of the game screen, the trick held, the game over
    "classic": preset("classic", target=100, losing_threshold=-100),
    # blind nil offered from the first hand (trailing by 0 or more), with blind bids
    "blind": preset("classic", target=100, blind_nil_margin=0, blind_bid=True),
    # the nil card pass
    "pass": preset("classic", target=100, nil_pass=2),
    # the draw pile of two players
    "two": preset("two", target=100),
    # every player a side: their own contracts in the seats panel
    "cutthroat": preset("cutthroat3", target=100),
}


async def tour() -> AsyncIterator[Shown]:
    """Every screen of the tour, one after the other (the game screen's first)."""
    frames: list[bytes] = []
    async for shown in game_screens(GAMES["classic"], b"tour", frames):
        yield shown
    async for shown in dialog_screens():
        yield shown
    for shown in replay_screens(frames):
        yield shown
    for shown in lobby_screens():
        yield shown


async def game_screens(rules: RuleSet, seed: bytes, frames: list[bytes]) -> AsyncIterator[Shown]:
    """A whole game from seat 0, the bots deciding for it too: the bid dialog, a card to play with the cards
    played and the question before a card, the last trick, the help, the score sheet, the leave question, a
    trick held, a hand's summary, the game over. `frames` gets the game's entries (for the replay)."""
    game = LocalGame(rules, name="Ann", seed=seed, bots=default_bots(rules.players, 3),
                     table_name="Kitchen table")
    advisor = default_bots(2, 11)[0]
    state = game.state
    seen: set[str] = set()
    with create_pipe_input() as pipe:
        app = create_app(state, input=pipe, output=DummyOutput())
        running = asyncio.ensure_future(game.run(app))
        state.trick_pause = 600.0  # a completed trick stays until it is shown
        try:
            while state.result is None:
                await until(lambda: state.decision is not None or state.result is not None
                            or state.top_overlay in (Overlay.TRICK, Overlay.SUMMARY), timeout=30)
                for name in _wanted(state, seen):
                    opening, closing = SHOW[name]
                    opening(state)
                    yield name, app
                    closing(state)
                _go_on(state)
                decision = state.decision
                if decision is not None and state.top_overlay is None:
                    state.answer(advisor(decision))
            await until(lambda: Overlay.OVER in state.overlays, timeout=30)
            while state.top_overlay is not Overlay.OVER:
                state.close_overlay()
            yield "over", app
        finally:
            frames.extend(game.table.entries)
            _exit(app)
            await running


def _nothing(state: UiState) -> None:
    """The screen as the game left it."""


def _confirm(state: UiState) -> None:
    state.confirm_card = True
    state.submit()  # Enter asks first


def _unconfirm(state: UiState) -> None:
    state.clear_typed()
    state.confirm_card = False


SHOW: dict[str, tuple[Callable[[UiState], object], Callable[[UiState], object]]] = {
    "bid": (_nothing, _nothing),
    "scores": (lambda state: state.toggle_overlay(Overlay.SCORES), lambda state: state.close_overlay()),
    "quit": (lambda state: state.request_quit(), lambda state: state.confirm_quit(False)),
    "play": (_nothing, _nothing),
    "played": (lambda state: state.toggle_overlay(Overlay.PLAYED), lambda state: state.close_overlay()),
    "confirm": (_confirm, _unconfirm),
    "last": (lambda state: state.toggle_overlay(Overlay.LAST), lambda state: state.close_overlay()),
    "help": (lambda state: state.toggle_overlay(Overlay.HELP), lambda state: state.close_overlay()),
    "trick": (_nothing, _nothing),
    "summary": (_nothing, _nothing),
}
"""How each screen of the game is opened over the game as it stands, and closed again."""


def _wanted(state: UiState, seen: set[str]) -> list[str]:
    """The screens the moment shows that the tour has not shown yet: a trick held (won by another seat,
    later in the hand), a hand's summary, and on our turn the dialogs and windows over it."""
    held, trick, view, decision = state.held, state.trick, state.view, state.decision
    wanted = []
    if state.top_overlay is Overlay.TRICK and held is not None and held[0].winner != 0 and held[1] >= 2:
        wanted.append("trick")
    elif state.top_overlay is Overlay.SUMMARY and state.summary() is not None:
        wanted.append("summary")
    elif decision is not None and state.top_overlay is None:
        if decision.kind is DecisionKind.BID:
            wanted += ["bid", *(["scores", "quit"] if state.history else [])]
        if decision.kind is DecisionKind.PLAY and trick is not None and len(trick.plays) >= 2:
            wanted += ["play", "played", "confirm"]
        if decision.kind is DecisionKind.PLAY and view is not None and len(view.tricks) >= 3:
            wanted += ["last", "help"]
    names = [name for name in wanted if name not in seen]
    seen.update(names)
    return names


def _go_on(state: UiState) -> None:
    """Past a trick held or a summary (one at a time: a hand's summary waits under its last trick), as a key
    would go."""
    if state.top_overlay in (Overlay.TRICK, Overlay.SUMMARY):
        state.close_overlay()


async def dialog_screens() -> AsyncIterator[Shown]:
    """The dialogs the classic game does not show: blind nil, the draw pile, the nil card pass, and the seats
    of a game where every player is a side."""
    wanted = {"blind": DecisionKind.BLIND_NIL, "two": DecisionKind.DRAW, "pass": DecisionKind.PASS,
              "cutthroat": DecisionKind.PLAY}
    for key, kind in wanted.items():
        async for shown in _at_decision(GAMES[key], kind):
            yield shown


async def _at_decision(rules: RuleSet, kind: DecisionKind) -> AsyncIterator[Shown]:
    """The game screen at our first decision of `kind` (a card: from the fourth trick on); for the nil card
    pass, we bid nil, so that our partner and we pass."""
    game = LocalGame(rules, name="Ann", seed=b"tour " + kind.value.encode(),
                     bots=default_bots(rules.players, 5), table_name="Kitchen table")
    advisor = default_bots(2, 13)[0]
    state = game.state
    state.trick_pause = 0
    with create_pipe_input() as pipe:
        app = create_app(state, input=pipe, output=DummyOutput())
        running = asyncio.ensure_future(game.run(app))
        try:
            while True:
                await until(lambda: state.decision is not None, timeout=30)
                while state.top_overlay is not None:
                    state.close_overlay()
                decision = state.decision
                assert decision is not None
                tricks = len(state.view.tricks) if state.view is not None else 0
                if decision.kind is kind and (kind is not DecisionKind.PLAY or tricks >= 3):
                    break
                nil = (kind is DecisionKind.PASS and decision.kind is DecisionKind.BID
                       and Bid(0) in decision.legal)
                state.answer(Bid(0) if nil else advisor(decision))
            yield f"{kind.value} ({rules.preset})", app
        finally:
            _exit(app)
            await running


def _exit(app: Application[Any]) -> None:
    if app.future is not None and not app.future.done():
        app.exit()


def replay_screens(frames: list[bytes]) -> list[Shown]:
    """The replay viewer of the tour's game: in a trick of the first hand, with its keys' window, and at the
    end of the game."""
    models = [ReplayModel(verify_frames(frames), "kitchen.p2plog") for _name in range(3)]
    inside, helping, ended = models
    for _trick in range(3):
        inside.step_trick(1)
    inside.step_card(1)
    helping.show_help = True
    ended.end()
    return [(name, create_replay_app(model, input=DummyInput(), output=DummyOutput()))
            for name, model in zip(("replay", "replay help", "replay end"), models, strict=True)]


@dataclass
class _Controls:
    """The host's seat keys, as the lobby screen sees them (nothing happens: the screen is only drawn)."""

    level: str = "normal"
    bots: frozenset[bytes] = frozenset()

    async def add_bot(self, seat: int | None) -> None: ...

    async def remove(self, seat: int) -> None: ...

    def move(self, seat: int, to: int) -> None: ...

    def level_of(self, public_key: bytes) -> str | None:
        return "expert" if public_key in self.bots else None

    def set_level(self, seat: int, level: str) -> None: ...


def lobby_screens() -> list[Shown]:
    """The lobby: the host's screen with a bot and a free seat, a joiner asked to accept while its silent
    host is counted down, and a joiner asked about a rematch whose seats differ from its own log."""
    ann, bob, bot, cy, dan = (crypto.Identity.generate().public for _key in range(5))
    seats = [LobbySeat(0, "Ann", ann, "tcp://127.0.0.1:7000"), LobbySeat(1, "Bob", bob, "tcp://127.0.0.1:7001"),
             LobbySeat(2, "Ann's bot", bot, "tcp://127.0.0.1:7002", ann)]
    full = [*seats, LobbySeat(3, "Cy", cy, "tcp://127.0.0.1:7003")]
    rules = preset("house", target=300)
    hosting = LobbyModel("Kitchen table", rules, seats, you=0, controls=_Controls(bots=frozenset({bot})),
                         join_with="192.168.1.20:7000")
    joining = LobbyModel("Kitchen table", rules, full, you=1)
    joining.asking = asyncio.get_running_loop().create_future()
    joining.set_waits({0: 42})
    after = After(bytes(range(16)), REMATCH)
    doubting = LobbyModel("Kitchen table", rules, full, you=1, after=after)
    doubts = (Change(ChangeKind.SEAT, after.game_id, seat=3, old=SeatInfo(3, "Dan", dan),
                     new=SeatInfo(3, "Cy", cy)),)
    doubting.set_doubts(doubt_lines(doubts, rules, 1), doubts_heading(doubts))
    doubting.asking = asyncio.get_running_loop().create_future()
    doubting.decide(True)  # asks for the explicit yes
    models = {"lobby host": hosting, "lobby join": joining, "lobby doubts": doubting}
    return [(name, create_lobby_app(model, input=DummyInput(), output=DummyOutput(), stays=True))
            for name, model in models.items()]


def fit_problems(app: Application[Any], width: int = 80, height: int = 24) -> list[str]:
    """Draw `app` on a `width` x `height` screen; every line of text a window holds that is wider than the
    window as drawn (cut by its edge, or broken inside a word), a window holding more lines than it shows
    (but the event pane, which scrolls to its newest), and a screen too small to be drawn."""
    windows = [w for w in walk(app.layout.container)
               if isinstance(w, Window) and isinstance(w.content, FormattedTextControl)]
    for window in windows:
        window.render_info = None  # only the windows drawn now are judged
    text = screen_text(app, width, height)
    problems = []
    for window in windows:
        info = window.render_info
        if info is None:
            continue
        content = info.ui_content
        scrolls = isinstance(window.content, WordWrapped) and window.content.follow_end
        if content.line_count > info.window_height and not scrolls:
            said = " / ".join("".join(f[1] for f in content.get_line(i)) for i in range(content.line_count))
            problems.append(f"{said!r}: {content.line_count} lines in a window of {info.window_height} rows")
        for i in range(content.line_count):
            line = content.get_line(i)
            wide = fragment_list_width(line)
            if wide > info.window_width:
                said = "".join(fragment[1] for fragment in line)
                problems.append(f"{said!r}: {wide} columns in a window of {info.window_width}")
    small = _("Window too small: make the terminal at least {columns}x{rows}.").split(":")[0]
    if small in text or not any(w.render_info is not None for w in windows):
        problems.append(f"the screen is too small for it:\n{text}")
    return problems
