"""Modified peers: the attack constructions shared by the in-memory attack tests (test_table_attacks.py)
and by the cheating peer that joins real games over sockets (helpers/cheater.py).

Each is a `Makers` (the public seam of `p2pspades.table.makers`) that alters the table's own entries before
they are signed, so they are properly signed hostile entries, as a modified client would send them. A test
gives one to its table with `Table(..., makers=...)`; `playing` makes a table class of one, for code that
builds its tables from a class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from p2pspades import crypto
from p2pspades.rules import Action, Card, Pass, Play
from p2pspades.table import Event, Makers, Stage, Step, Table
from p2pspades.table import messages as msg
from p2pspades.table.makers import MakerView, challenge


class Tampering(Makers):
    """A tampered client: it alters one of its own automatic entries before signing it."""

    def __init__(self, kind: str, change: Callable[[MakerView, dict[str, Any]], dict[str, Any]]) -> None:
        self.attack_kind, self.change, self.done = kind, change, False

    def make(self, table: MakerView, kind: type[msg.Message]) -> msg.Message:
        made = super().make(table, kind)
        if self.attack_kind == kind.TYPE and not self.done:
            self.done = True
            made = msg.decode(self.change(table, made.to_fields()), version=table.version)
        return made


def other_point(p: bytes) -> bytes:
    return crypto.mul(crypto.scalar_from_int(7), p)


def wrong_lock(table: MakerView, p: dict[str, Any]) -> dict[str, Any]:
    """A `Tampering` change for a lock: a point at a position of the seat opposite the locker is not the
    locked one."""
    assert table.deal is not None and table.seat is not None
    victim = table.deal.positions_of((table.seat + 2) % table.seats)[0]
    p["d"][victim] = other_point(p["d"][victim])
    return p


def poison_next_seat(table: MakerView, p: dict[str, Any]) -> dict[str, Any]:
    """A `Tampering` change for a lock or a shuffle: the identity point at a position of the seat after the
    locker, where that seat would have to open its card."""
    assert table.deal is not None and table.seat is not None
    p["d"][table.deal.positions_of((table.seat + 1) % table.seats)[0]] = crypto.IDENTITY
    return p


class LastLockPoisoner(Makers):
    """The last locker puts the identity point at a position of the seat after it."""

    poisoned = False

    def make(self, table: MakerView, kind: type[msg.Message]) -> msg.Message:
        made = super().make(table, kind)
        if not isinstance(made, msg.Lock) or self.poisoned:
            return made
        d = table.deal
        if len(d.locks) == table.seats - 1:
            assert table.seat is not None
            self.poisoned = True
            deck = list(made.deck)
            deck[d.positions_of((table.seat + 1) % table.seats)[0]] = crypto.IDENTITY
            return msg.Lock(tuple(deck))
        return made


class EarlyChallenger(Makers):
    """Challenges a deal that is fine, at its first turn of the given kind."""

    def __init__(self, at: type[msg.Message]) -> None:
        self.at = at

    def make(self, table: MakerView, kind: type[msg.Message]) -> msg.Message:
        if kind is self.at:
            return challenge(table, "I say this deck is wrong")
        return super().make(table, kind)


class Impatient(Makers):
    """Votes that the seat the table waits for stopped answering, at its first tick of that seat's turn."""

    def limit(self, table: MakerView, step: Step) -> float:
        return 0.0


def playing(makers: Callable[..., Makers], **kwargs: Any) -> type[Table]:
    """A `Table` class whose every table plays with its own `makers(**kwargs)`: for code that builds its
    tables from a class (a peer given a table class, say)."""

    class Cheating(Table):
        def __init__(self, *args: Any, **kw: Any) -> None:
            super().__init__(*args, **{**kw, "makers": makers(**kwargs)})

    return Cheating


def send_unchecked(table: Table, fields: dict[str, Any]) -> None:
    """Sign an entry of `table`'s own seat after its head and send it without its own checks: what a modified
    peer does to get a move its engine would refuse onto the wire."""
    table.emit(table.sign(fields))


class WrongPassKey(Makers):
    """Rule `nil_pass`: hands its partner a wrong key for the first card it passes. The entry is its honest
    `pass` with one bit of the first sealed key changed, signed like any other, so its own checks pass it."""

    def pass_cards(self, table: MakerView, cards: tuple[Card | None, ...]) -> msg.Message:
        made = super().pass_cards(table, cards)
        assert isinstance(made, msg.Pass)
        first = bytes([made.keys[0][0] ^ 1]) + made.keys[0][1:]
        return msg.Pass(made.positions, (first, *made.keys[1:]))


class BadPass(Table):
    """Rule `nil_pass`: a modified client that signs a `pass` its own checks would refuse (`change` alters
    the honest entry's fields) and sends it without them; then it has nothing more to say."""

    def __init__(self, *args: Any, change: Callable[[Table, dict[str, Any]], dict[str, Any]],
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.change = change

    def decide(self, action: Action) -> list[Event]:
        if not isinstance(action, Pass):
            return super().decide(action)
        honest = self.makers.pass_cards(self.view, action.cards)
        send_unchecked(self, self.change(self, honest.to_fields()))
        self.stage = Stage.OVER  # the honest peers decide now
        return []


class PassedCardPlayer(Table):
    """Rule `nil_pass`: at its first play after a pass, a modified client plays a position it does not hold
    by the key of its choice (`pick(table)` gives the position and the key), signed properly and sent
    without its own checks; then it has nothing more to say."""

    def __init__(self, *args: Any, pick: Callable[[Table], tuple[int, bytes] | None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pick = pick

    def decide(self, action: Action) -> list[Event]:
        chosen = self.pick(self) if isinstance(action, Play) else None
        if chosen is None:
            return super().decide(action)
        j, key = chosen
        send_unchecked(self, {"t": "play", "j": j, "k": key, "x": b""})
        self.stage = Stage.OVER
        return []
