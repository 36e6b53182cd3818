"""The lobby screen's model: who sits where, what the person is asked, and what the host may do with the
bots (`SeatControls`). Plain data and its changes, no drawing: the terminal's screen (`lobby.py`) and the
page (`web/`) both draw it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Protocol, TypeVar

from p2pspades.bots import BOT_LEVELS
from p2pspades.i18n import N_, _, ngettext, said
from p2pspades.net.lobby_seats import LobbySeat
from p2pspades.rules import RuleSet
from p2pspades.table.genesis import After
from p2pspades.table.messages import PROTOCOL_VERSION
from p2pspades.ui.text import clip, rules_of

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
