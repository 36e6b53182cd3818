"""Modified peers' tables: the attack constructions shared by the in-memory attack tests
(test_table_attacks.py) and by the cheating peer that joins real games over sockets (helpers/cheater.py).

Each is a `Table` whose own entries are altered before they are signed, so they are properly signed hostile
entries, as a modified client would send them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from p2pspades import crypto, log
from p2pspades.table import Outgoing, Step, Table
from p2pspades.table import messages as msg


class Tampering(Table):
    """A tampered client: it alters one of its own automatic entries before signing it."""

    def __init__(
        self, *args: Any, kind: str, change: Callable[[Table, dict[str, Any]], dict[str, Any]], **kwargs: Any
    ) -> None:
        self.attack_kind, self.change, self.done = kind, change, False
        super().__init__(*args, **kwargs)

    def _make(self, kind: type[msg.Message]) -> msg.Message | None:
        made = super()._make(kind)
        if made is not None and self.attack_kind == kind.TYPE and not self.done:
            self.done = True
            made = msg.decode(self.change(self, made.to_fields()), version=self.version)
        return made


def other_point(p: bytes) -> bytes:
    return crypto.mul(crypto.scalar_from_int(7), p)


def wrong_lock(table: Table, p: dict[str, Any]) -> dict[str, Any]:
    """A `Tampering` change for a lock: a point at a position of the seat opposite the locker is not the
    locked one."""
    assert table.deal is not None and table.seat is not None
    victim = table.deal.positions_of((table.seat + 2) % table.seats)[0]
    p["d"][victim] = other_point(p["d"][victim])
    return p


def poison_next_seat(table: Table, p: dict[str, Any]) -> dict[str, Any]:
    """A `Tampering` change for a lock or a shuffle: the identity point at a position of the seat after the
    locker, where that seat would have to open its card."""
    assert table.deal is not None and table.seat is not None
    p["d"][table.deal.positions_of((table.seat + 1) % table.seats)[0]] = crypto.IDENTITY
    return p


class LastLockPoisoner(Table):
    """The last locker puts the identity point at a position of the seat after it."""

    poisoned = False

    def _make(self, kind: type[msg.Message]) -> msg.Message | None:
        made = super()._make(kind)
        d = self.deal
        last = d is not None and len(d.locks) == self.seats - 1
        if isinstance(made, msg.Lock) and d is not None and last and not self.poisoned:
            assert self.seat is not None
            self.poisoned = True
            deck = list(made.deck)
            deck[d.positions_of((self.seat + 1) % self.seats)[0]] = crypto.IDENTITY
            return msg.Lock(tuple(deck))
        return made


class EarlyChallenger(Table):
    """Challenges a deal that is fine, at its first turn of the given kind."""

    def __init__(self, *args: Any, at: type[msg.Message], **kwargs: Any) -> None:
        self.at = at
        super().__init__(*args, **kwargs)

    def _make(self, kind: type[msg.Message]) -> msg.Message | None:
        if kind is self.at:
            self._challenge_due = "I say this deck is wrong"
            return None
        return super()._make(kind)


class Impatient(Table):
    """Votes that the seat the table waits for stopped answering, at its first tick of that seat's turn."""

    def _limit(self, step: Step) -> float:
        return 0.0


def send_unchecked(table: Table, fields: dict[str, Any]) -> None:
    """Sign an entry of `table`'s own seat after its head and send it without its own checks: what a modified
    peer does to get a move its engine would refuse onto the wire."""
    assert table.identity is not None and table.seat is not None
    header = {"g": table.game_id, "n": len(table.entries), "p": table.head, "s": table.seat,
              "h": table.hand_number}
    table._outgoing.append(Outgoing(len(table.entries), log.seal({**header, **fields}, table.identity)))
