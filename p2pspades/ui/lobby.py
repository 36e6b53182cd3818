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
from typing import Protocol, TypeVar

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import split_lines
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Dimension, HSplit
from prompt_toolkit.output import Output

from p2pspades.bots import BOT_LEVELS
from p2pspades.i18n import N_, _, ngettext, said
from p2pspades.net.lobby_seats import LobbyError, LobbySeat
from p2pspades.printable import pad, width
from p2pspades.reasons import Trouble
from p2pspades.rules import RuleSet
from p2pspades.table.genesis import After
from p2pspades.table.messages import PROTOCOL_VERSION
from p2pspades.ui.text import after_line, clip, protocol_line, rules_lines, rules_of, rules_title
from p2pspades.ui.widgets import full_screen_app, join_lines, panel, text_window, word_wrap

T = TypeVar("T")


class SeatControls(Protocol):
    """What the host's screen may do to the seats (each may raise `P2PSpadesError` with a reason)."""

    def add_bot(self, seat: int | None) -> Awaitable[None]: ...

    def remove(self, seat: int) -> Awaitable[None]: ...

    def move(self, seat: int, to: int) -> None: ...

    level: str
    """The level (`bots.BOT_LEVELS`) of the next bot `add_bot` seats."""

    def level_of(self, public_key: bytes) -> str | None:
        """The level of the host's bot with that key (None: not one of the host's bots)."""

    def set_level(self, seat: int, level: str) -> None: ...


def seat_state(seat: LobbySeat, seats: Iterable[LobbySeat], you: int | None, level: str | None = None) -> str:
    """What a row says about a seat: host, joined, or a bot and who runs it (and so can see its cards); the
    host's screen also gives its own bots' levels."""
    if seat.owner is None:
        return _("host") if seat.seat == 0 else _("joined")
    owner = next((s for s in seats if s.public_key == seat.owner), None)
    if owner is not None and owner.seat == you:
        if level:
            return _("{level} bot · you see its cards").format(level=level_name(level))
        return _("bot · you see its cards")
    if owner is None:
        return _("bot · its owner sees its cards")
    return _("bot · {owner} sees its cards").format(owner=clip(owner.name, 12))


LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "expert": N_("expert")}
"""The bot levels a person chooses from, as the screen names them (the command line's words stay English)."""


def level_name(level: str) -> str:
    """A bot level in the language spoken: "easy", "leicht"."""
    said = LEVEL_NAMES.get(level)
    return _(said) if said else level


class LobbyModel:
    """What the lobby screen shows, and the person's answers.

    `answer` is the one-shot dialog's answer (True accept, False decline, None not yet). On the screen that
    stays up, `ask()` is the current question (start the table / accept it) and `left` says the person left.
    """

    def __init__(
        self,
        table_name: str,
        rules: RuleSet | Mapping[str, object],
        seats: Iterable[LobbySeat] = (),
        *,
        you: int | None = None,
        status: str = "",
        ready: bool = True,
        controls: SeatControls | None = None,
        join_with: str = "",
        version: int = PROTOCOL_VERSION,
        after: After | None = None,
    ) -> None:
        self.table_name = table_name
        self.rules = rules_of(rules)
        self.version = version
        """The game's protocol version (the genesis `v`), shown with the rules."""
        self.after = after
        """The game this table's game follows (a rematch of it, or its continuation from its scores), shown
        with the rules."""
        self.seats: list[LobbySeat] = []
        self.you = you
        self.status = status
        #: False while seats are still free: the genesis does not exist yet, so there is nothing to accept
        self.ready = ready
        self.controls = controls
        """The host's seat management (None: a joiner, or the one-shot dialog)."""
        self.join_with = join_with
        """How others join (HOST:PORT), for the host's hints."""
        self.choice = 0  # 0 accept / start, 1 decline / leave
        self.selected = 0
        self.answer: bool | None = None
        self.asking: asyncio.Future[bool] | None = None
        self.answered = False
        self.left = False
        self.on_change: Callable[[], None] | None = None
        self.on_leave: Callable[[], None] | None = None
        #: the status that says an early accept was refused: it goes once the seats change
        self._refusal = ""
        self.doubts: list[str] = []
        """How the game differs from the player's own log of the game it follows, or why that could not be
        checked, a line each: shown with the rules, and accepting then needs an explicit yes."""
        self.doubts_heading = ""
        self.waits: dict[int, int] = {}
        """The seats whose program went silent (on a joiner's screen, the host's), each with the seconds until
        it is given up on: its row counts down."""
        self.confirming = False
        """Accept was chosen despite `doubts`: the status asks for that yes (y); n goes back."""
        self.set_seats(seats)

    # ------------------------------------------------------------------------------------- reading

    @property
    def hosting(self) -> bool:
        return self.controls is not None

    @property
    def free(self) -> list[int]:
        taken = {s.seat for s in self.seats}
        return [s for s in range(self.rules.players) if s not in taken]

    def at(self, seat: int) -> LobbySeat | None:
        return next((s for s in self.seats if s.seat == seat), None)

    def hint(self) -> str:
        """What to do next, in one or two lines (at most 78 characters each)."""
        if self.status:
            return self.status
        free = self.free
        host = self.at(0)
        if self.hosting:
            if free:
                level = level_name(self.controls.level) if self.controls is not None else ""
                said = (ngettext("{n} seat free. Others join: p2pspades join {lobby}",
                                 "{n} seats free. Others join: p2pspades join {lobby}", len(free))
                        if self.join_with else
                        ngettext("{n} seat free. Others join", "{n} seats free. Others join", len(free)))
                return (said.format(n=len(free), lobby=self.join_with) + "\n"
                        + _("b seats a bot ({level}; l: level) here; Enter starts once every seat is "
                            "taken.").format(level=level))
            if self.asking is not None:
                return _("Every seat is taken. Read each fingerprint with its owner,\nthen press Enter to "
                         "start.")
            return _("Waiting for every player to accept the table ...")
        if self.asking is not None:
            return _("Read each fingerprint with its owner, then accept (a) or decline (d).")
        if self.answered:
            return _("You accepted: waiting for the others to accept ...")
        if self.you is None:
            return _("Joining ...")
        if free:
            return ngettext("Waiting for players: {n} seat free.", "Waiting for players: {n} seats free.",
                            len(free)).format(n=len(free))
        if host is None:
            return _("waiting for the host to accept you")
        return _("waiting for {host} to accept you").format(host=host.name)

    # ------------------------------------------------------------------------------------- changes

    def set_seats(self, seats: Iterable[LobbySeat]) -> None:
        seats = sorted(seats, key=lambda s: s.seat)
        if self._refusal and self.status == self._refusal and seats != self.seats:
            self.status = self._refusal = ""  # what was refused was about the seats as they were
        self.seats = seats
        if self.free:
            self.answered = False  # someone left: whatever was accepted is void, a new question will come
        self.selected = max(0, min(self.selected, self.rules.players - 1))
        self._changed()

    def set_waits(self, waits: Mapping[int, int]) -> None:
        self.waits = dict(waits)
        self._changed()

    def set_doubts(self, lines: Iterable[str], heading: str = "") -> None:
        """The doubts, and what the question that asks for the yes says of them (`heading`, one line)."""
        self.doubts = list(lines)
        self.doubts_heading = heading
        self._changed()

    def set_status(self, text: str, *, ready: bool | None = None) -> None:
        self.status = text
        self._refusal = ""
        if ready is not None:
            self.ready = ready
        self._changed()

    def move(self, delta: int) -> None:
        self.choice = max(0, min(1, self.choice + delta))
        self._changed()

    def select(self, delta: int) -> None:
        self.selected = (self.selected + delta) % self.rules.players
        self._changed()

    async def ask(self) -> bool:
        """The lobby's question to the person (start the table / accept it); cancelled if it goes stale."""
        self.asking = asyncio.get_running_loop().create_future()
        self.ready, self.choice, self.status, self._refusal, self.confirming = True, 0, "", "", False
        self._changed()
        try:
            answer = await self.asking
        finally:
            self.asking = None
            self.ready = False
            self._changed()
        self.answered = answer
        return answer

    def decide(self, accept: bool, *, sure: bool = False) -> bool:
        """Record the answer. Accepting is refused (False) while there is nothing to accept yet; with
        `doubts`, it first asks for an explicit yes, which `sure` (y, once asked) gives."""
        if accept and self.ready and self.doubts and not (sure and self.confirming):
            self.confirming = True
            n = len(self.doubts)
            heading = self.doubts_heading or ngettext(
                "Read the line marked !.", "Read the {n} lines marked !.", n).format(n=n)
            self.status = heading + "\n" + _("Accept it all the same? y accepts · n goes back")
            self._changed()
            return False
        self.confirming = False
        if accept and not self.ready:
            if self.free:
                self.status = (_("not every seat is taken yet: nothing to start") if self.hosting
                               else _("not every seat is taken yet: nothing to accept"))
            else:
                self.status = (_("nothing to start yet: waiting for every player to answer") if self.hosting
                               else _("nothing to accept yet: the host starts the table"))
            self._refusal = self.status
            self._changed()
            return False
        if self.asking is not None and not self.asking.done():
            self.asking.set_result(accept)
        self.answer = accept
        self._changed()
        return True

    def back(self) -> bool:
        """n while asked to accept despite the doubts: no answer yet (False: nothing was asked)."""
        if not self.confirming:
            return False
        self.confirming, self.status = False, ""
        self._changed()
        return True

    def leave(self) -> None:
        self.left = True
        if self.asking is not None and not self.asking.done():
            self.asking.set_result(False)
        if self.on_leave is not None:
            self.on_leave()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    # ------------------------------------------------------------------------------------- the host's seats

    def other_side(self, seat: int) -> int | None:
        """Where the bot at `seat` goes to switch sides: a free seat on another side, else another side's bot
        (or, without sides, the next free seat)."""
        sides = self.rules.sides
        mine = next((side for side in sides if seat in side), ())
        others = [s for side in sides if side != mine for s in side] if len(sides) > 1 else []
        if not self.rules.partnerships:
            others = [(seat + k) % self.rules.players for k in range(1, self.rules.players)]
        for pick in ([s for s in others if s in self.free],
                     [s for s in others if (b := self.at(s)) is not None and b.bot]):
            if pick:
                return pick[0]
        return None

    def level_of(self, seat: LobbySeat) -> str | None:
        return None if self.controls is None else self.controls.level_of(seat.public_key)

    async def act(self, key: str) -> None:
        """A seat key on the host's screen: b add a bot, x remove, s switch a bot's side, l change the level
        of the selected bot of ours (or, at a free seat, of the next bot)."""
        if self.controls is None:
            return
        seat, here = self.selected, self.at(self.selected)
        try:
            if key == "b":
                await self.controls.add_bot(seat if here is None else None)
            elif key == "x":
                if here is None or seat == 0:
                    raise Hint(_("select a bot or a player to remove (↑/↓)"))
                await self.controls.remove(seat)
            elif key == "s":
                to = self.other_side(seat) if here is not None and here.bot else None
                if to is None:
                    raise Hint(_("select a bot (↑/↓) with somewhere to go") if here is None or not here.bot
                               else _("there is no free seat or bot on another side"))
                self.controls.move(seat, to)
                self.selected = to
            elif key == "l":
                level = self.level_of(here) if here is not None else None
                if here is not None and level is None:
                    raise Hint(_("select one of your bots, or a free seat for the next bot (↑/↓)"))
                level = next_level(level or self.controls.level)
                if here is None:
                    self.controls.level = level
                else:
                    self.controls.set_level(seat, level)
                    self.controls.level = level
                self.status = ""
                self._changed()
                return
            self.status = ""
        except Exception as exc:  # shown, never a traceback: the lobby goes on
            self.status = said(exc)[:160]
        self._changed()


class Hint(Exception):
    """A key that means nothing for the selected seat: what to do instead, on the status line."""


def next_level(level: str) -> str:
    """The bot level after `level`, round the levels a person chooses from (easy, normal, expert)."""
    if level not in BOT_LEVELS:
        return BOT_LEVELS[0]
    return BOT_LEVELS[(BOT_LEVELS.index(level) + 1) % len(BOT_LEVELS)]


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
