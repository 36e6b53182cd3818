"""The full-screen game: a prompt_toolkit Application over a `UiState`.

`create_layout(state)` (here) and `create_key_bindings(state)` (`keys.py`) build the screen and the keys from
the state alone; the panels always shown are drawn by `panels.py`, the dialogs and overlays by `screens.py`;
every window reads the state when it is drawn and every key calls a state method, so a driver only has to
update the state (which calls `app.invalidate`). Works from 80x24 up; prompt_toolkit redraws on resize.

    ┌ title: table · rules · hand · dealer ────────────────────────────── ? help ┐
    │ Seats: name, side, bid, tricks won, connection, whose turn                  │
    │ Trick (who led, who is winning)          │ Events (verified cards, audits)  │
    │ Your hand (sorted by suit, illegal cards dimmed)                            │
    │ prompt line / message                                                       │
    └ scores per side ───────────────────────────────────── keys ─────────────────┘
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.input import Input
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
)
from prompt_toolkit.output import Output

from p2pspades.i18n import _
from p2pspades.table import DecisionKind
from p2pspades.ui.keys import create_key_bindings
from p2pspades.ui.overlays import Overlay
from p2pspades.ui.panels import (
    TRICK_WIDTH,
    events_window,
    footer_keys,
    footer_keys_width,
    footer_scores,
    hand_height,
    hand_text,
    hand_title,
    seats_height,
    seats_text,
    status_fragments,
    title_keys,
    title_keys_width,
    title_text,
    trick_text,
    trick_title,
)
from p2pspades.ui.screens import (
    dialog_text,
    dialog_title,
    help_column,
    help_text,
    last_trick_text,
    over_text,
    over_title,
    played_text,
    played_title,
    quit_text,
    scores_text,
    stop_text,
    stop_title,
    summary_text,
    summary_title,
)
from p2pspades.ui.state import UiState
from p2pspades.ui.widgets import at_least, full_screen_app, overlay, panel, text_window, too_small

MIN_COLUMNS, MIN_ROWS = 80, 24  # the smallest terminal the game screen is made for


def create_layout(state: UiState) -> Layout:
    """The game screen for `state`. Every window reads the state when it is drawn."""
    deciding = Condition(
        lambda: (
            state.kind in (DecisionKind.BID, DecisionKind.BLIND_NIL, DecisionKind.DRAW)
            and state.top_overlay is None
        )
    )
    title = VSplit(
        [
            text_window(lambda: title_text(state), height=1, style="class:title"),
            text_window(lambda: title_keys(state), height=1, style="class:title",
                        width=lambda: Dimension.exact(title_keys_width())),
        ],
        height=1,
    )
    seats = panel(
        text_window(lambda: seats_text(state)), _("Seats"), height=Dimension.exact(seats_height(state))
    )
    middle = VSplit(
        [
            panel(
                text_window(lambda: trick_text(state)),
                lambda: trick_title(state),
                width=Dimension.exact(TRICK_WIDTH + 2),
            ),
            panel(events_window(state), _("Events")),
        ],
        height=Dimension(min=8, weight=1),
        window_too_small=too_small(MIN_COLUMNS, MIN_ROWS),
    )
    hand = panel(
        text_window(lambda: hand_text(state), wrap=True, height=lambda: Dimension.exact(hand_height(state))),
        lambda: hand_title(state),
    )
    status = text_window(lambda: status_fragments(state), height=1)
    footer = VSplit(
        [
            text_window(lambda: footer_scores(state), height=1, style="class:footer"),
            text_window(
                lambda: footer_keys(state), height=1, style="class:footer",
                width=lambda: Dimension.exact(footer_keys_width()),
            ),
        ],
        height=1,
    )
    body = HSplit(
        [title, seats, middle, hand, status, footer], window_too_small=too_small(MIN_COLUMNS, MIN_ROWS)
    )

    def showing(name: Overlay) -> bool:
        return state.top_overlay is name

    floats = [
        Float(
            content=ConditionalContainer(
                panel(text_window(lambda: dialog_text(state), wrap=True, hang=2), lambda: dialog_title(state),
                      pad=True),
                filter=deciding,
            ),
            bottom=5,
        ),
        overlay(text_window(lambda: help_text(state), wrap=True, hang=help_column()), _("Keys"),
                lambda: showing(Overlay.HELP)),
        overlay(text_window(lambda: scores_text(state)), _("Score sheet"), lambda: showing(Overlay.SCORES)),
        overlay(text_window(lambda: last_trick_text(state)), _("Last trick"), lambda: showing(Overlay.LAST)),
        overlay(text_window(lambda: played_text(state)), lambda: played_title(state),
                lambda: showing(Overlay.PLAYED)),
        overlay(
            text_window(lambda: summary_text(state)), lambda: summary_title(state),
            lambda: showing(Overlay.SUMMARY),
        ),
        overlay(
            text_window(lambda: over_text(state)), lambda: over_title(state), lambda: showing(Overlay.OVER)
        ),
        overlay(text_window(lambda: stop_text(state)), lambda: stop_title(state),
                lambda: showing(Overlay.STOP)),
        overlay(text_window(lambda: quit_text(state)), _("Leave the game?"), lambda: showing(Overlay.QUIT)),
    ]
    return Layout(at_least(FloatContainer(content=body, floats=floats), MIN_COLUMNS, MIN_ROWS,
                           _("Ctrl-Q, then y, leaves the game.")))


def create_app(
    state: UiState,
    *,
    input: Input | None = None,
    output: Output | None = None,
    color: bool = True,
) -> Application[None]:
    """The game screen as an Application. The state's changes redraw it; leaving sets `state.quit_requested`
    (the person quit) or `state.leave_requested` (also after the game-over screen)."""
    app: Application[None] = full_screen_app(
        create_layout(state).container,
        create_key_bindings(state),
        color=color,
        input=input,
        output=output,
    )
    state.on_change = app.invalidate
    state.on_bell = app.output.bell
    return app


async def run_alongside(app: Application[Any], game: Awaitable[Any]) -> None:
    """Show `app` while `game` runs: a failure of the game ends the app; leaving the app stops the game."""
    task = asyncio.ensure_future(game)

    def finished(done: asyncio.Future[Any]) -> None:
        error = None if done.cancelled() else done.exception()
        if error is not None and app.is_running:
            app.exit(exception=error)

    task.add_done_callback(finished)
    try:
        await app.run_async()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
