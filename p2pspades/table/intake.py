"""The checks every frame passes before a machine sees it, in the order PROTOCOL.md §1 gives them: its size
and encoding, its game and seat, its signature (an ending carries none: its notes are signed), and then for
an entry its place against our chain. The first that fails decides.

A machine that knows no table: it reads the narrow `IntakeView` and says where a frame goes (`Route`): a copy
we hold, refused (with what to report), kept for a slot beyond our chain, a claim's note, an ending, an
entry for a slot we hold already or after our end (`late.py`), or the next entry of our chain; and, for an
entry in turn, its message (`decoded`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from p2pspades import log
from p2pspades.checks import Check
from p2pspades.errors import N_, Detail, RemoteError
from p2pspades.rules import RuleSet
from p2pspades.table import messages as msg
from p2pspades.table.chain import Frame, open_frame
from p2pspades.table.events import DropKind, Dropped, Event, Wanted


@dataclass(frozen=True)
class Copy:
    """A frame we hold already (peers forward every entry): nothing to check twice."""


@dataclass(frozen=True)
class Refused:
    """Refused before anything else is checked: what to report."""

    events: tuple[Event, ...]


@dataclass(frozen=True)
class Early:
    """An entry (or an ending) for a slot beyond our chain: kept until we reach it, if the window allows
    (`signed`: its seat signed it)."""

    seq: int
    raw: bytes
    seat: int
    signed: bool


@dataclass(frozen=True)
class Note:
    """A claim's vote, refusal or stall (`claims.py`), or a goodbye, a stop, a decline (`partings.py`), its
    signature checked."""

    env: log.Envelope
    header: log.Header


@dataclass(frozen=True)
class Ending:
    """A certificate or a stalled ending for a slot we reached: a bundle of notes."""

    frame: Frame


@dataclass(frozen=True)
class Behind:
    """A signed entry for a slot our chain holds already (`late.competing`)."""

    frame: Frame


@dataclass(frozen=True)
class AfterEnd:
    """A signed entry for the slot after our chain's end, the game over (`late.after_the_end`)."""

    frame: Frame


@dataclass(frozen=True)
class Next:
    """A signed entry for the next slot, chained to our head: its turn, fields and effect are checked next."""

    frame: Frame


Route = Copy | Refused | Early | Note | Ending | Behind | AfterEnd | Next


class IntakeView(Protocol):
    """What the intake reads of its table."""

    @property
    def game_id(self) -> bytes: ...

    @property
    def seats(self) -> int: ...

    @property
    def next_seq(self) -> int: ...

    @property
    def head(self) -> bytes: ...

    @property
    def finished(self) -> bool: ...

    @property
    def version(self) -> int: ...

    @property
    def rules(self) -> RuleSet: ...

    @property
    def hand_number(self) -> int:
        """The hand in play (0 before the first)."""

    def known(self, raw: bytes) -> bool:
        """Whether we hold these very bytes already (taken, or checked and set aside)."""

    def signed(self, env: log.Envelope, header: log.Header) -> bool:
        """Whether `env` is validly signed by the seat its header names."""


def route(view: IntakeView, raw: bytes) -> Route:
    """Where the frame `raw` goes."""
    if view.known(raw):
        return Copy()
    frame = open_frame(raw, view.game_id, view.seats)
    if isinstance(frame, Dropped):
        return Refused((frame,))
    env, header = frame.env, frame.header
    seat, seq = header.seat, header.seq
    if header.type in msg.ENDINGS:  # nobody signs an ending: its notes are signed
        if env.signature != log.NO_SIGNATURE:
            return Refused((Dropped(DropKind.BAD_SIGNATURE, seat, seq),))
        return Early(seq, raw, seat, False) if seq > view.next_seq else Ending(frame)
    if not view.signed(env, header):
        return Refused((Dropped(DropKind.BAD_SIGNATURE, seat, seq),))
    if header.type in (*msg.NOTES, *msg.PARTINGS):
        return Note(env, header)
    if seq < view.next_seq:
        return Behind(frame)
    if view.finished:
        return AfterEnd(frame)
    if seq > view.next_seq:
        return Early(seq, raw, seat, True)
    if header.prev != view.head:
        return Refused((Dropped(DropKind.NOT_CHAINED, seat, seq, signed=True), Wanted(seq - 1)))
    return Next(frame)


def signed_entry(route: Route) -> tuple[int, int] | None:
    """The seat and slot of a chain entry whose signature checked, wherever it goes (a goodbye of that seat
    for that slot or an earlier one is void: `partings.py`); None for anything else."""
    if isinstance(route, Behind | AfterEnd | Next):
        return route.frame.header.seat, route.frame.header.seq
    if isinstance(route, Early):
        return (route.seat, route.seq) if route.signed else None
    if isinstance(route, Refused):
        return next(((e.seat, e.seq) for e in route.events if isinstance(e, Dropped) and e.signed
                     and e.seat is not None and e.seq is not None), None)
    return None


def decoded(view: IntakeView, frame: Frame) -> msg.Message:
    """The message of an entry in turn, checked against its type's schema (in the game's protocol version) and
    the hand in play: RemoteError naming its signer if it is not one."""
    header = frame.header
    m = msg.decode(frame.env.payload, header.seat, view.version, bool(view.rules.nil_pass))
    if header.hand != view.hand_number:
        why = Detail(N_("hand number {hand}, the game is in hand {current}"), hand=header.hand,
                     current=view.hand_number)
        raise RemoteError(Check.HEADER, why, header.seat)
    return m
