"""The lobby screen: who sits where (names and key fingerprints), the rules, and what to do next.

It is a function of the lobby's values: the table name, the rules (a `RuleSet` or its dict), and the seats
(`net.lobby_seats.LobbySeat`). Nothing is signed until the person accepts: keys are checked the SSH way, by
reading the fingerprints with their owners. A bot's row says whose machine runs it: that player can see its
cards.

Two uses:

- a one-shot dialog, `await confirm_table("Kitchen", rules, info.seated, you=1)` -> accepted or not;
- the screen that stays up for the whole lobby, `await run_lobby(model, work)`: the lobby (`work`) runs
  beside it and feeds it (`model.set_seats`); the lobby's dialogs are `await model.ask()` (the host starting
  the table, a joiner accepting it). On the host's screen (`controls` given) the person also adds, removes
  and moves bots and sets their levels. Every key goes to the screen: none echoes raw.
"""

from __future__ import annotations

import asyncio
import contextlib
import textwrap
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TypeVar

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import split_lines
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Dimension, HSplit
from prompt_toolkit.output import Output

from p2pspades.i18n import _
from p2pspades.net.lobby_seats import LobbyError, LobbySeat
from p2pspades.printable import pad, width
from p2pspades.reasons import Trouble
from p2pspades.rules import RuleSet
from p2pspades.table.genesis import After
from p2pspades.table.messages import PROTOCOL_VERSION
from p2pspades.ui.lobby_model import LobbyModel, seat_state
from p2pspades.ui.text import after_line, clip, protocol_line, rules_lines, rules_title
from p2pspades.ui.widgets import full_screen_app, join_lines, panel, text_window, word_wrap

T = TypeVar("T")

# ------------------------------------------------------------------------------------------------- drawing


SIDE_LETTERS = "ABCDE"
NAME_WIDTH = 18
"""The name column of the seats, with the side column where there is one: every row fits 80 columns."""


def seat_columns(rules: RuleSet) -> tuple[int, int, int, int]:
    """The widths of the seats' columns in the language spoken, each at least as wide as its heading: the
    seat, the side (0 where every player is a side of their own), the name, the key fingerprint. The state
    follows them."""
    seat = max(6, width(_("seat")) + 1)
    side = max(5, width(_("side")) + 1) if rules.partnerships else 0
    name = max(NAME_WIDTH + 1 - side - (seat - 6), width(_("name")) + 1, 10)
    fingerprint = max(20, width(_("key fingerprint")) + 1)
    return seat, side, name, fingerprint


def state_column(rules: RuleSet) -> int:
    """Where a seat's state starts on its row (the cursor's two columns first): a longer state goes on below,
    from there."""
    return 2 + sum(seat_columns(rules)) + 1


def side_column(rules: RuleSet, seat: int) -> str:
    """The side letter of a seat's row ("A", "B"), or nothing where every player is a side of its own."""
    return pad(SIDE_LETTERS[rules.side_of(seat)], seat_columns(rules)[1]) if rules.partnerships else ""


def partner_warnings(model: LobbyModel) -> list[str]:
    """A line for each bot run by a player of the other side: that player can read its partner's cards."""
    rules = model.rules
    if not rules.partnerships:
        return []
    found = []
    for bot in model.seats:
        owner = next((s for s in model.seats if bot.owner is not None and s.public_key == bot.owner), None)
        if owner is None or rules.side_of(owner.seat) == rules.side_of(bot.seat):
            continue
        partners = [s.name for s in model.seats if s.seat != bot.seat and rules.side_of(s.seat)
                    == rules.side_of(bot.seat)]
        said = (_("! {bot} is run by {runner} but partners {partner}: {runner} can see its cards") if partners
                else _("! {bot} is run by {runner} but sits on the other side: {runner} can see its cards"))
        found.append(said.format(bot=clip(bot.name, 12), runner=clip(owner.name, 12),
                                 partner=clip(partners[0], 12) if partners else ""))
    return found


def wait_words(model: LobbyModel, seconds: int) -> str:
    """A silent seat's countdown, and what happens when it ends: the host frees a joiner's seat; a joiner
    leaves a silent host's table."""
    said = _("silent: frees in {seconds} s") if model.hosting else _("silent: we leave in {seconds} s")
    return said.format(seconds=seconds)


def seats_table(model: LobbyModel) -> StyleAndTextTuples:
    seat_w, side_w, wide, fingerprint_w = seat_columns(model.rules)
    sides = pad(_("side"), side_w) if side_w else ""
    # TRANSLATORS: the lobby's seat headings: seat, side, name, key fingerprint, state (short: each is at
    # most as wide as its column, which it widens otherwise)
    seat_head, name, fingerprint, state = _("seat"), _("name"), _("key fingerprint"), _("state")
    header = f"  {pad(seat_head, seat_w)}{sides}{pad(name, wide)}{pad(fingerprint, fingerprint_w)} {state}"
    lines: list[StyleAndTextTuples] = [[("class:hint", header)]]
    for seat in range(model.rules.players):
        cursor = "▸ " if model.hosting and seat == model.selected else "  "
        s = model.at(seat)
        if s is None:
            free = f"{pad(str(seat), seat_w)}{side_column(model.rules, seat)}" + _("(free)")
            lines.append([("class:choice.selected" if cursor.strip() else "", cursor), ("class:hint", free)])
            continue
        you = " (" + _("you") + ")" if s.seat == model.you else ""
        name = clip(s.name, wide - 1 - width(you)) + you
        style = "class:seat.me" if s.seat == model.you else ""
        lines.append(
            [
                ("class:choice.selected" if cursor.strip() else "", cursor),
                (style, f"{pad(str(s.seat), seat_w)}{side_column(model.rules, seat)}{pad(name, wide)}"),
                ("class:key", pad(s.fingerprint, fingerprint_w)),
                ("class:hint", f" {seat_state(s, model.seats, model.you, model.level_of(s))}"),
                *([("class:message.warn", f" · {wait_words(model, model.waits[seat])}")]
                  if seat in model.waits else []),
            ]
        )
    lines += [[("class:message.warn", line)] for line in partner_warnings(model)]
    return join_lines(lines)


def seats_height(model: LobbyModel) -> int:
    """The seats panel's rows: its border, the heading, and each seat's row and warning as the panel breaks
    them between words at the terminal's width."""
    try:
        columns = get_app().output.get_size().columns
    except Exception:  # no running app (captures): the smallest supported screen
        columns = 80
    rows = split_lines(seats_table(model))
    return 2 + sum(len(word_wrap(row, columns - 2, state_column(model.rules))) for row in rows)


DOUBT_WIDTH = 69
"""A doubt's lines, beside its mark, fit an 80-column screen's rules panel."""


def rules_column(model: LobbyModel) -> int:
    """The width of the rules panel's labels, in the language spoken: the values start one column after."""
    rows = [*rules_lines(model.rules), protocol_line(model.version)]
    follows = [after_line(model.after)] if model.after is not None else []
    return max(8, *(width(label) + 1 for label, _value in [*follows, *rows]))


def rules_table(model: LobbyModel) -> StyleAndTextTuples:
    follows = [after_line(model.after)] if model.after is not None else []
    doubts: list[StyleAndTextTuples] = [
        [("class:message.warn", f" {'!' if k == 0 else '':<8}{part}")]
        for line in model.doubts for k, part in enumerate(textwrap.wrap(line, DOUBT_WIDTH) or [""])]
    rows = [*rules_lines(model.rules), protocol_line(model.version)]
    column = rules_column(model)
    return join_lines(
        [*([[("class:key", " " + pad(label, column)), ("", value)] for label, value in follows]), *doubts,
         *([("class:key", " " + pad(label, column)), ("", value)] for label, value in rows)]
    )


def buttons(model: LobbyModel) -> StyleAndTextTuples:
    out: StyleAndTextTuples = [("", "   ")]
    labels = (_("Start"), _("Leave")) if model.hosting else (_("Accept"), _("Decline"))
    for i, label in enumerate(labels):
        if i == 0 and not model.ready:  # nothing to accept or start yet: no button for it
            out += [("", " " * width(f"[ {label} ]")), ("", "   ")]
            continue
        style = "class:choice.selected" if i == model.choice else ""
        out += [(style, f"[ {label} ]"), ("", "   ")]
    if model.hosting:
        out.append(("class:hint", _("↑/↓ seat · b bot · x out · l level · s side · q quit")))
    elif model.ready:
        out.append(("class:hint", _("←/→ Enter · a accept · d decline")))
    else:
        out.append(("class:hint", _("d leaves · accept once the host starts the table")))
    return out


def create_lobby_app(
    model: LobbyModel, *, input: Input | None = None, output: Output | None = None, color: bool = True,
    stays: bool = False,
) -> Application[bool]:
    """The lobby screen. As a one-shot dialog (`stays` False) its result is True (accept) or False (decline,
    q, Ctrl-C); staying up, answers go to `model.ask()` and q / Ctrl-C leave the lobby."""
    keys = create_lobby_keys(model, stays)
    app: Application[bool] = full_screen_app(
        create_lobby_layout(model, stays), keys, color=color, input=input, output=output)
    model.on_change = app.invalidate
    return app


def create_lobby_layout(model: LobbyModel, stays: bool = False) -> HSplit:
    """The lobby screen's windows: the title, the seats, the rules, the advice or status line, the buttons."""

    def title() -> StyleAndTextTuples:
        name = clip(model.table_name, 32)
        # never "table ana's table"
        table = name if _("table").lower() in name.lower() else _("table {name}").format(name=name)
        return [("class:title", f" p2pspades · {table} · {rules_title(model.rules)}")]

    def advice() -> StyleAndTextTuples:
        if model.status or stays:
            return [("class:status", "\n".join(" " + line for line in model.hint().splitlines()))]
        return [
            (
                "class:hint",
                " " + _("Read each fingerprint with its owner before you accept: it is the key that will "
                        "sign their moves."),
            )
        ]

    return HSplit(
        [
            text_window(title, height=1, style="class:title"),
            panel(
                text_window(lambda: seats_table(model), wrap=True, hang=state_column(model.rules)),
                _("Seated players"),
                height=lambda: Dimension(min=4, preferred=seats_height(model), max=seats_height(model)),
            ),
            panel(text_window(lambda: rules_table(model), wrap=True, hang=rules_column(model) + 1),
                  _("Rules")),
            text_window(advice, height=Dimension(min=1, max=4), wrap=True, hang=1),
            text_window(lambda: buttons(model), height=Dimension(min=1, max=2), wrap=True, hang=3),
        ]
    )


def create_lobby_keys(model: LobbyModel, stays: bool = False) -> KeyBindings:
    """The lobby screen's keys: each calls a `LobbyModel` method (the host's seat keys run as tasks); every
    other key is swallowed, so nothing echoes on the screen."""
    kb = KeyBindings()

    def on(keys: tuple[str, ...], action: Callable[[KeyPressEvent], object]) -> None:
        for key in keys:
            kb.add(key)(action)

    on(("<any>",), lambda event: None)
    on(("left", "s-tab"), lambda event: model.move(-1))
    on(("right", "tab"), lambda event: model.move(1))
    on(("up",), lambda event: model.select(-1))
    on(("down",), lambda event: model.select(1))
    on(("enter",), lambda event: _finish(model, stays, event, model.choice == 0))
    # y: the explicit yes a game that differs needs
    on(("a", "y", "g"), lambda event: _finish(model, stays, event, True, sure=event.data == "y"))
    # the host leaves with q, never by a stray d; n, asked to accept despite the doubts, goes back
    on(("d", "n"), lambda event: _decline(model, stays, event))
    on(("q", "escape", "c-c"), lambda event: model.leave() if stays else _finish(model, stays, event, False))
    on(("b", "x", "delete", "s", "l"), lambda event: _seat_key(model, event))
    return kb


def _finish(model: LobbyModel, stays: bool, event: KeyPressEvent, accept: bool, sure: bool = False) -> None:
    """Accept or decline the table; declining (or the Leave button) a lobby that stays up leaves it."""
    if stays and not accept:
        model.leave()
        return
    if model.decide(accept, sure=sure) and not stays:
        event.app.exit(result=accept)


def _decline(model: LobbyModel, stays: bool, event: KeyPressEvent) -> None:
    """d or n: decline, unless hosting (the host leaves with q), or n goes back from the question that asks
    for the explicit yes."""
    if not model.hosting and not (event.data == "n" and model.back()):
        _finish(model, stays, event, False)


def _seat_key(model: LobbyModel, event: KeyPressEvent) -> None:
    """The host's seat keys (b, x or Delete, s, l): the model acts as a task, so the screen goes on."""
    if model.hosting:
        key = event.key_sequence[0].key
        event.app.create_background_task(model.act("x" if key == Keys.Delete else str(key)))


async def confirm_table(
    table_name: str,
    rules: RuleSet | Mapping[str, object],
    seats: Iterable[LobbySeat],
    *,
    you: int | None = None,
    input: Input | None = None,
    output: Output | None = None,
    color: bool = True,
    version: int = PROTOCOL_VERSION,
    after: After | None = None,
) -> bool:
    """Show the table and ask the person to accept it. True only if they accept."""
    model = LobbyModel(table_name, rules, seats, you=you, version=version, after=after)
    answer = await create_lobby_app(model, input=input, output=output, color=color).run_async()
    return bool(answer)


async def run_lobby(
    model: LobbyModel, work: Awaitable[T], *, input: Input | None = None, output: Output | None = None,
    color: bool = True,
) -> T | None:
    """Show the lobby screen while `work` (the lobby) runs; its result once it is done, or None if the person
    left (q, Ctrl-C, Leave), which cancels `work`."""
    app = create_lobby_app(model, input=input, output=output, color=color, stays=True)
    model.ready = model.asking is not None  # nothing to accept or start before the lobby asks
    task = asyncio.ensure_future(work)
    model.on_leave = lambda: app.exit() if app.is_running else None
    task.add_done_callback(lambda _: app.exit() if app.is_running else None)
    try:
        await app.run_async()
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    if model.left:
        return None
    if task.cancelled():
        raise LobbyError(Trouble.STOPPED)
    return task.result()
