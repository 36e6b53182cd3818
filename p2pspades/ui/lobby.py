"""The lobby screen: who sits where (names and key fingerprints) and the rules, then accept or decline.

It is a function of plain data, so the network lobby (host or join) only hands over what it knows: the table
name, the rules (a `RuleSet` or its dict), and (seat, name, fingerprint, state) per seat. Nothing is signed
until the person accepts: keys are checked the SSH way, by reading the fingerprints with their owners.

    accepted = await confirm_table("Kitchen", rules, [(0, "Ann", "v8ta-qm57-cw6b-e0a0", "host"), ...], you=1)

For a screen that stays up while players join, build a `LobbyModel`, run `create_lobby_app(model)` and call
`model.set_seats(...)` / `model.set_status(...)` as the lobby changes; the app's result is the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Dimension, HSplit, Window
from prompt_toolkit.output import Output

from p2pspades.rules import RuleSet
from p2pspades.ui.text import clip, rules_lines, rules_of, rules_title
from p2pspades.ui.widgets import full_screen_app, join_lines, panel, text_window

SeatRow = tuple[int, str, str, str]
"""(seat, name, key fingerprint, state such as "host", "joined", "bot", "accepted", "waiting")."""


@dataclass(frozen=True)
class LobbySeat:
    seat: int
    name: str
    fingerprint: str
    state: str = ""


class LobbyModel:
    """What the lobby screen shows, and the person's answer (True: accept, False: decline, None: not yet)."""

    def __init__(
        self,
        table_name: str,
        rules: RuleSet | Mapping[str, object],
        seats: Iterable[SeatRow | LobbySeat] = (),
        *,
        you: int | None = None,
        status: str = "",
        ready: bool = True,
    ) -> None:
        self.table_name = table_name
        self.rules = rules_of(rules)
        self.seats: list[LobbySeat] = []
        self.you = you
        self.status = status
        #: False while seats are still free: the genesis does not exist yet, so there is nothing to accept
        self.ready = ready
        self.choice = 0  # 0 accept, 1 decline
        self.answer: bool | None = None
        self.on_change: Callable[[], None] | None = None
        self.set_seats(seats)

    def set_seats(self, seats: Iterable[SeatRow | LobbySeat]) -> None:
        rows = [s if isinstance(s, LobbySeat) else LobbySeat(*s) for s in seats]
        self.seats = sorted(rows, key=lambda s: s.seat)
        self._changed()

    def set_status(self, text: str, *, ready: bool | None = None) -> None:
        self.status = text
        if ready is not None:
            self.ready = ready
        self._changed()

    def move(self, delta: int) -> None:
        self.choice = max(0, min(1, self.choice + delta))
        self._changed()

    def decide(self, accept: bool) -> bool:
        """Record the answer. Accepting is refused (False) while the table is not ready."""
        if accept and not self.ready:
            self.status = "not every seat is taken yet: nothing to accept"
            self._changed()
            return False
        self.answer = accept
        self._changed()
        return True

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()


def seats_table(model: LobbyModel) -> StyleAndTextTuples:
    header = f"  {'seat':<5} {'name':<24} {'key fingerprint':<21} state"
    lines: list[StyleAndTextTuples] = [[("class:hint", header)]]
    taken = {s.seat for s in model.seats}
    for s in model.seats:
        you = " (you)" if s.seat == model.you else ""
        name = clip(s.name, 24 - len(you)) + you
        style = "class:seat.me" if s.seat == model.you else ""
        lines.append(
            [
                (style, f"  {s.seat:<5} {name:<24} "),
                ("class:key", f"{s.fingerprint:<21}"),
                ("class:hint", f" {s.state}"),
            ]
        )
    for seat in range(model.rules.players):
        if seat not in taken:
            lines.append([("class:hint", f"  {seat:<5} (free)")])
    return join_lines(lines)


def rules_table(model: LobbyModel) -> StyleAndTextTuples:
    return join_lines(
        [[("class:key", f" {label:<8}"), ("", value)] for label, value in rules_lines(model.rules)]
    )


def buttons(model: LobbyModel) -> StyleAndTextTuples:
    out: StyleAndTextTuples = [("", "   ")]
    for i, label in enumerate(("Accept", "Decline")):
        dimmed = i == 0 and not model.ready
        style = "class:choice.selected" if i == model.choice else ("class:hint" if dimmed else "")
        out += [(style, f"[ {label} ]"), ("", "   ")]
    out.append(("class:hint", "←/→ Enter · a accept · d decline"))
    return out


def create_lobby_app(
    model: LobbyModel, *, input: Input | None = None, output: Output | None = None, color: bool = True
) -> Application[bool]:
    """The lobby screen. The application's result is True (accept) or False (decline, q, Ctrl-C)."""

    def title() -> StyleAndTextTuples:
        return [
            ("class:title", f" p2pspades · table {clip(model.table_name, 32)} · {rules_title(model.rules)}")
        ]

    def advice() -> StyleAndTextTuples:
        if model.status:
            return [("class:status", " " + model.status)]
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

    def finish(event: KeyPressEvent, accept: bool) -> None:
        if model.decide(accept):
            event.app.exit(result=accept)

    @kb.add("left")
    @kb.add("s-tab")
    def _left(event: KeyPressEvent) -> None:
        model.move(-1)

    @kb.add("right")
    @kb.add("tab")
    def _right(event: KeyPressEvent) -> None:
        model.move(1)

    @kb.add("enter")
    def _enter(event: KeyPressEvent) -> None:
        finish(event, model.choice == 0)

    @kb.add("a")
    @kb.add("y")
    def _accept(event: KeyPressEvent) -> None:
        finish(event, True)

    @kb.add("d")
    @kb.add("n")
    @kb.add("q")
    @kb.add("escape")
    @kb.add("c-c")
    def _decline(event: KeyPressEvent) -> None:
        finish(event, False)

    app: Application[bool] = full_screen_app(body, kb, color=color, input=input, output=output)
    model.on_change = app.invalidate
    return app


async def confirm_table(
    table_name: str,
    rules: RuleSet | Mapping[str, object],
    seats: Iterable[SeatRow | LobbySeat],
    *,
    you: int | None = None,
    input: Input | None = None,
    output: Output | None = None,
    color: bool = True,
) -> bool:
    """Show the table and ask the person to accept it. True only if they accept."""
    model = LobbyModel(table_name, rules, seats, you=you)
    answer = await create_lobby_app(model, input=input, output=output, color=color).run_async()
    return bool(answer)
