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

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Dimension, HSplit, Window
from prompt_toolkit.output import Output

from p2pspades.bots import BOT_LEVELS
from p2pspades.net.lobby_seats import LobbyError, LobbySeat
from p2pspades.rules import RuleSet
from p2pspades.table.genesis import After
from p2pspades.table.messages import PROTOCOL_VERSION
from p2pspades.ui.text import after_line, clip, plural, protocol_line, rules_lines, rules_of, rules_title
from p2pspades.ui.widgets import full_screen_app, join_lines, panel, text_window

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
        return "host" if seat.seat == 0 else "joined"
    owner = next((s for s in seats if s.public_key == seat.owner), None)
    if owner is not None and owner.seat == you:
        return f"{level + ' ' if level else ''}bot · you see its cards"
    return f"bot · {clip(owner.name, 12) if owner is not None else 'its owner'} sees its cards"


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
        host_name = host.name if host is not None else "the host"
        if self.hosting:
            if free:
                where = f": p2pspades join {self.join_with}" if self.join_with else ""
                level = self.controls.level if self.controls is not None else ""
                return (f"{plural(len(free), 'seat')} free. Others join{where}\n"
                        f"b seats a bot ({level}; l: level) here; Enter starts once every seat is taken.")
            if self.asking is not None:
                return ("Every seat is taken. Read each fingerprint with its owner,\n"
                        "then press Enter to start.")
            return "Waiting for every player to accept the table ..."
        if self.asking is not None:
            return "Read each fingerprint with its owner, then accept (a) or decline (d)."
        if self.answered:
            return "You accepted: waiting for the others to accept ..."
        if self.you is None:
            return "Joining ..."
        if free:
            return f"Waiting for players: {plural(len(free), 'seat')} free."
        return f"waiting for {host_name} to accept you"

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
            heading = self.doubts_heading or f"Read the {plural(len(self.doubts), 'line')} marked !."
            self.status = f"{heading}\nAccept it all the same? y accepts · n goes back"
            self._changed()
            return False
        self.confirming = False
        if accept and not self.ready:
            what = "start" if self.hosting else "accept"
            if self.free:
                self.status = f"not every seat is taken yet: nothing to {what}"
            else:
                self.status = f"nothing to {what} yet: " + (
                    "waiting for every player to answer" if self.hosting else "the host starts the table")
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
                    raise LobbyError("select a bot or a player to remove (↑/↓)")
                await self.controls.remove(seat)
            elif key == "s":
                to = self.other_side(seat) if here is not None and here.bot else None
                if to is None:
                    raise LobbyError("select a bot (↑/↓) with somewhere to go" if here is None or not here.bot
                                     else "there is no free seat or bot on another side")
                self.controls.move(seat, to)
                self.selected = to
            elif key == "l":
                level = self.level_of(here) if here is not None else None
                if here is not None and level is None:
                    raise LobbyError("select one of your bots, or a free seat for the next bot (↑/↓)")
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
            self.status = str(exc)[:160]
        self._changed()


def next_level(level: str) -> str:
    """The bot level after `level`, round the levels a person chooses from (easy, normal, expert)."""
    if level not in BOT_LEVELS:
        return BOT_LEVELS[0]
    return BOT_LEVELS[(BOT_LEVELS.index(level) + 1) % len(BOT_LEVELS)]


# ------------------------------------------------------------------------------------------------- drawing


SIDE_LETTERS = "ABCDE"
NAME_WIDTH = 18
"""The name column of the seats, with the side column where there is one: every row fits 80 columns."""


def side_column(rules: RuleSet, seat: int) -> str:
    """The side letter of a seat's row ("A", "B"), or nothing where every player is a side of its own."""
    return f"{SIDE_LETTERS[rules.side_of(seat)]:<5}" if rules.partnerships else ""


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
        whom = f"partners {clip(partners[0], 12)}" if partners else "sits on the other side"
        runner = clip(owner.name, 12)
        found.append(f"! {clip(bot.name, 12)} is run by {runner} but {whom}: {runner} can see its cards")
    return found


def wait_words(model: LobbyModel) -> str:
    """What happens when a silent seat's countdown ends: the host frees a joiner's seat; a joiner leaves a
    silent host's table."""
    return "frees" if model.hosting else "we leave"


def seats_table(model: LobbyModel) -> StyleAndTextTuples:
    sides = "side " if model.rules.partnerships else ""
    wide = NAME_WIDTH - len(sides)  # the side column takes its room from the names
    header = f"  {'seat':<5} {sides}{'name':<{wide}} {'key fingerprint':<20} state"
    lines: list[StyleAndTextTuples] = [[("class:hint", header)]]
    for seat in range(model.rules.players):
        cursor = "▸ " if model.hosting and seat == model.selected else "  "
        s = model.at(seat)
        if s is None:
            lines.append([("class:choice.selected" if cursor.strip() else "", cursor),
                          ("class:hint", f"{seat:<5} {side_column(model.rules, seat)}(free)")])
            continue
        you = " (you)" if s.seat == model.you else ""
        name = clip(s.name, wide - len(you)) + you
        style = "class:seat.me" if s.seat == model.you else ""
        lines.append(
            [
                ("class:choice.selected" if cursor.strip() else "", cursor),
                (style, f"{s.seat:<5} {side_column(model.rules, seat)}{name:<{wide}} "),
                ("class:key", f"{s.fingerprint:<20}"),
                ("class:hint", f" {seat_state(s, model.seats, model.you, model.level_of(s))}"),
                *([("class:message.warn", f" · silent: {wait_words(model)} in {model.waits[seat]} s")]
                  if seat in model.waits else []),
            ]
        )
    lines += [[("class:message.warn", line)] for line in partner_warnings(model)]
    return join_lines(lines)


DOUBT_WIDTH = 69
"""A doubt's lines, beside its mark, fit an 80-column screen's rules panel."""


def rules_table(model: LobbyModel) -> StyleAndTextTuples:
    follows = [after_line(model.after)] if model.after is not None else []
    doubts: list[StyleAndTextTuples] = [
        [("class:message.warn", f" {'!' if k == 0 else '':<8}{part}")]
        for line in model.doubts for k, part in enumerate(textwrap.wrap(line, DOUBT_WIDTH) or [""])]
    return join_lines(
        [*([[("class:key", f" {label:<8}"), ("", value)] for label, value in follows]), *doubts,
         *([("class:key", f" {label:<8}"), ("", value)]
           for label, value in [*rules_lines(model.rules), protocol_line(model.version)])]
    )


def buttons(model: LobbyModel) -> StyleAndTextTuples:
    out: StyleAndTextTuples = [("", "   ")]
    labels = ("Start", "Leave") if model.hosting else ("Accept", "Decline")
    for i, label in enumerate(labels):
        if i == 0 and not model.ready:  # nothing to accept or start yet: no button for it
            out += [("", " " * len(f"[ {label} ]")), ("", "   ")]
            continue
        style = "class:choice.selected" if i == model.choice else ""
        out += [(style, f"[ {label} ]"), ("", "   ")]
    if model.hosting:
        out.append(("class:hint", "↑/↓ seat · b bot · x out · l level · s side · q quit"))
    elif model.ready:
        out.append(("class:hint", "←/→ Enter · a accept · d decline"))
    else:
        out.append(("class:hint", "d leaves · accept once the host starts the table"))
    return out


def create_lobby_app(
    model: LobbyModel, *, input: Input | None = None, output: Output | None = None, color: bool = True,
    stays: bool = False,
) -> Application[bool]:
    """The lobby screen. As a one-shot dialog (`stays` False) its result is True (accept) or False (decline,
    q, Ctrl-C); staying up, answers go to `model.ask()` and q / Ctrl-C leave the lobby."""

    def title() -> StyleAndTextTuples:
        name = clip(model.table_name, 32)
        table = name if "table" in name.lower() else f"table {name}"  # never "table ana's table"
        return [("class:title", f" p2pspades · {table} · {rules_title(model.rules)}")]

    def advice() -> StyleAndTextTuples:
        if model.status or stays:
            return [("class:status", "\n".join(" " + line for line in model.hint().splitlines()))]
        return [
            (
                "class:hint",
                " Read each fingerprint with its owner before you accept: "
                "it is the key that will sign their moves.",
            )
        ]

    body = HSplit(
        [
            text_window(title, height=1, style="class:title"),
            panel(
                text_window(lambda: seats_table(model)),
                "Seated players",
                height=Dimension(min=4, preferred=model.rules.players + 3),
            ),
            panel(text_window(lambda: rules_table(model), wrap=True), "Rules"),
            text_window(advice, height=Dimension(min=1, max=2), wrap=True),
            Window(height=1),
            text_window(lambda: buttons(model), height=1),
        ]
    )
    kb = KeyBindings()

    def finish(event: KeyPressEvent, accept: bool, sure: bool = False) -> None:
        if stays and not accept:
            model.leave()  # declining (or the Leave button) ends our part in this lobby
            return
        if model.decide(accept, sure=sure) and not stays:
            event.app.exit(result=accept)

    @kb.add("<any>")
    def _ignore(event: KeyPressEvent) -> None:
        """Every other key is swallowed: nothing echoes on the screen."""

    @kb.add("left")
    @kb.add("s-tab")
    def _left(event: KeyPressEvent) -> None:
        model.move(-1)

    @kb.add("right")
    @kb.add("tab")
    def _right(event: KeyPressEvent) -> None:
        model.move(1)

    @kb.add("up")
    def _up(event: KeyPressEvent) -> None:
        model.select(-1)

    @kb.add("down")
    def _down(event: KeyPressEvent) -> None:
        model.select(1)

    @kb.add("enter")
    def _enter(event: KeyPressEvent) -> None:
        finish(event, model.choice == 0)

    @kb.add("a")
    @kb.add("y")
    @kb.add("g")
    def _accept(event: KeyPressEvent) -> None:
        finish(event, True, sure=event.data == "y")  # y: the explicit yes a game that differs needs

    @kb.add("d")
    @kb.add("n")
    def _decline(event: KeyPressEvent) -> None:
        # the host leaves with q, never by a stray d; n, asked to accept despite the doubts, goes back
        if not model.hosting and not (event.data == "n" and model.back()):
            finish(event, False)

    @kb.add("q")
    @kb.add("escape")
    @kb.add("c-c")
    def _quit(event: KeyPressEvent) -> None:
        if stays:
            model.leave()
        else:
            finish(event, False)

    for key in ("b", "x", "delete", "s", "l"):

        @kb.add(key)
        def _seat_key(event: KeyPressEvent, key: str = key) -> None:
            if model.hosting:
                event.app.create_background_task(model.act("x" if key == "delete" else key))

    app: Application[bool] = full_screen_app(body, kb, color=color, input=input, output=output)
    model.on_change = app.invalidate
    return app


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
        raise LobbyError("the lobby was stopped")
    return task.result()
