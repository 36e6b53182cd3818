"""The sync of one peer with the others, without sockets: what it knows of their chains, and what it sends
them for it. The lobby's split, for the game: this machine decides, `peer.py` moves the bytes.

- HELLO carries a seat's head (how many entries it holds, and the hash of the last): whoever is behind gets
  pushed what it lacks, or asks for it (GET); a HELLO whose last entry is not ours (a fork, or a certificate
  where we hold our own entry) makes each side send the other its view of that slot;
- a GET is answered with the entries asked for that fit in one frame, at most `ANSWERS_PER_SECOND` answers
  to one seat each second; our own asks for one gap go out once a second at most;
- what our table takes from others is passed on, at the next tick and in runs, to each seat not known to
  hold it (a seat that sent us entry n holds the chain up to n); a note goes to every seat but its signer;
  the evidence of a fault to each peer once; the open claim's notes to a seat that says HELLO;
- a resumed table writes again once every other seat said HELLO and we hold what each holds, or `sync`
  seconds after the first HELLO of a seat another process runs; with no such HELLO within `alone` seconds,
  the peer is alone.

Time comes in as numbers; what to send comes out as `Send` (a frame for one seat).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from p2pspades import log
from p2pspades.errors import RemoteError
from p2pspades.net.frames import MAX_BATCH, MAX_FRAME, Entries, Get, Hello, Message
from p2pspades.table import Accepted, Noted, Violation
from p2pspades.table import messages as msg
from p2pspades.table.slots import Slot

ANSWERS_PER_SECOND = 20
"""How many GET answers (or pushes) one seat gets from us per second at most."""
_ENTRY_OVERHEAD = 8
"""Bytes the ENTRIES framing adds per entry at most (a bin 32 header), used to fit answers in one frame."""
_FRAME_BASE = 64
"""Bytes an ENTRIES frame takes besides its entries, at most."""


@dataclass(frozen=True)
class Send:
    """A frame for one peer."""

    seat: int
    message: Message


class SyncView(Protocol):
    """What the sync reads of our table."""

    @property
    def game_id(self) -> bytes: ...

    @property
    def seats(self) -> int: ...

    @property
    def entries(self) -> list[bytes]: ...

    @property
    def head(self) -> bytes: ...

    @property
    def syncing(self) -> bool: ...

    @property
    def finished(self) -> bool: ...

    @property
    def claim(self) -> Slot | None: ...

    def claim_notes(self) -> list[bytes]: ...


class Sync:
    """What our seat knows of the other seats' chains, and what it owes them."""

    def __init__(self, seat: int, sync: float, alone: float) -> None:
        self.seat = seat
        self._sync, self._alone = sync, alone
        #: how many entries each seat is known to hold (its HELLO, or the entries it sent us)
        self.heads: dict[int, int] = {}
        #: each seat's last HELLO: how many entries it holds, and the hash of its last one
        self.heard: dict[int, tuple[int, bytes]] = {}
        #: the other seats this process runs (our bot seats): their answer to a resumed table says nothing
        #: about whether anyone else is left
        self.companions: frozenset[int] = frozenset()
        #: when our table was resumed, and when a seat of another process first answered it
        self.resumed_at: float | None = None
        self.answered_at: float | None = None
        self._forwards: list[Accepted | Noted] = []
        self._evidence_sent: set[tuple[int, bytes]] = set()
        self._asked: dict[int, float] = {}
        self._served: dict[int, deque[float]] = {}

    # ----------------------------------------------------------------- heads
    def hello(self, view: SyncView) -> Hello:
        """Our HELLO: how many entries we hold, and the hash of the last."""
        return Hello(view.game_id, self.seat, len(view.entries), view.head)

    def on_hello(self, view: SyncView, seat: int, hello: Hello, now: float) -> list[Send]:
        """A HELLO of `seat` (of our game and protocol): what we ask of it and push to it."""
        self.heads[seat] = hello.seq
        self.heard[seat] = (hello.seq, hello.head)
        ours = len(view.entries)
        out: list[Send] = []
        if hello.seq > ours:
            out.append(Send(seat, Get(ours, min(hello.seq, ours + MAX_BATCH))))
        elif not self.holds_chain_of(view, seat):
            # its last entry is not ours (a certificate, say, where we hold our own entry): let our table see
            # it, and let its table compare ours
            out.append(Send(seat, Get(hello.seq - 1, hello.seq)))
            out += self.answer(view, seat, hello.seq - 1, ours, now)
        elif hello.seq < ours:
            out += self.answer(view, seat, hello.seq, ours, now)  # push what it lacks, no need to wait
        return out + self.notes_for(view, seat)

    def holds_chain_of(self, view: SyncView, seat: int) -> bool:
        """Whether our chain holds everything the last HELLO of `seat` says it holds."""
        held, head = self.heard[seat]
        entries = view.entries
        return held == 0 or (held <= len(entries) and log.entry_hash(entries[held - 1]) == head)

    def holds(self, view: SyncView, seat: int, raw: bytes, seq: int | None) -> None:
        """`seat` sent us `raw`: if it is our entry `seq`, the seat holds the chain up to it."""
        entries = view.entries
        if seq is not None and seq < len(entries) and entries[seq] == raw and self.heads.get(seat, 0) <= seq:
            self.heads[seat] = seq + 1

    def caught_up(self, view: SyncView, peers: Iterable[int]) -> bool:
        """Whether every other seat holds our whole chain: the one a certificate named too, since, if it comes
        back (resumed after a crash), its table takes the certificate from us and ends as ours did."""
        ours = len(view.entries)
        return all(self.heads.get(seat, 0) >= ours for seat in peers)

    def behind(self, view: SyncView, peers: Iterable[int]) -> tuple[int, ...]:
        """The seats not known to hold our whole chain."""
        ours = len(view.entries)
        return tuple(seat for seat in sorted(peers) if self.heads.get(seat, 0) < ours)

    # ----------------------------------------------------------------- answers and asks
    def answer(self, view: SyncView, seat: int, start: int, stop: int, now: float) -> list[Send]:
        """Entries start..stop-1 that we hold, as many as fit in one frame; nothing if `seat` had its
        `ANSWERS_PER_SECOND` answers this second already (a flood of GETs queues nothing for it)."""
        recent = self._served.setdefault(seat, deque())
        while recent and now - recent[0] > 1.0:
            recent.popleft()
        if len(recent) >= ANSWERS_PER_SECOND:
            return []
        recent.append(now)
        entries = view.entries
        batch: list[bytes] = []
        size = _FRAME_BASE
        for raw in entries[start:min(stop, len(entries), start + MAX_BATCH)]:
            size += len(raw) + _ENTRY_OVERHEAD
            if size > MAX_FRAME:
                break
            batch.append(raw)
        return [Send(seat, Entries(start, tuple(batch)))] if batch else []

    def ask(self, first: int, peers: Iterable[int], now: float) -> list[Send]:
        """Ask every peer for the entries from `first` on (at most once a second for the same gap)."""
        if now - self._asked.get(first, -1e9) < 1.0:
            return []
        self._asked = {k: v for k, v in self._asked.items() if now - v < 10.0}
        self._asked[first] = now
        return [Send(seat, Get(first, first + MAX_BATCH)) for seat in peers]

    # ----------------------------------------------------------------- passing on what we took
    def forward_later(self, event: Accepted | Noted) -> None:
        """An entry or note our table took from another seat: passed on at the next tick."""
        self._forwards.append(event)

    def superseded(self, first: int) -> None:
        """An ending took slot `first`: no seat is known to hold our chain beyond it, and what we held from
        there on is not passed on."""
        self.heads = {seat: min(held, first) for seat, held in self.heads.items()}
        self._forwards = [e for e in self._forwards if not (isinstance(e, Accepted) and e.seq >= first)]

    def forwards(self, peers: Iterable[int]) -> list[Send]:
        """The frames taken from others since the last tick, for each seat not known to hold them, in runs of
        consecutive entries (as few ENTRIES frames as they fit in). A seat that sent us its own entry n, or
        forwarded us entry n, holds every entry up to n: in a game that moves, most entries need no
        forwarding by the time the tick comes. A certificate goes to the seat it names too (its table takes
        the slot from its own entry); a note goes to every seat but its signer."""
        pending, self._forwards = self._forwards, []
        entries = [e for e in pending if isinstance(e, Accepted)]
        notes = [(e.slot, e) for e in pending if isinstance(e, Noted)]
        out: list[Send] = []
        for seat in peers if pending else ():
            held = self.heads.get(seat, 0)
            wanted = [(e.seq, e.raw) for e in entries
                      if (e.seat != seat or e.type == msg.Certificate.TYPE) and e.seq >= held]
            for run in _runs(wanted):
                out += _frames(seat, run)
            out += _frames(seat, [(slot, e.raw) for slot, e in notes if e.seat != seat])
        return out

    def evidence(self, violation: Violation, peers: Iterable[int]) -> list[Send]:
        """The signed entries and notes that prove a fault that ends the game, to each peer once."""
        out: list[Send] = []
        for seat in peers if violation.halts else ():
            fresh = tuple(raw for raw in violation.evidence
                          if _readable(raw) and (seat, raw) not in self._evidence_sent)
            if fresh:
                self._evidence_sent.update((seat, raw) for raw in fresh)
                out.append(Send(seat, Entries(violation.seq, fresh)))
        return out

    def notes_for(self, view: SyncView, seat: int) -> list[Send]:
        """The open claim's votes and refusals, for a seat that just connected or said HELLO (it may have
        missed them, or come back from a crash)."""
        slot, notes = view.claim, view.claim_notes()
        return _frames(seat, [(slot.seq, raw) for raw in notes]) if slot is not None and notes else []

    # ----------------------------------------------------------------- a resumed table
    def may_write(self, view: SyncView, now: float) -> list[int] | None:
        """A resumed table may write again once every other seat said HELLO and we hold what each holds, or
        `sync` seconds after the first HELLO of a seat another process runs (a seat may be gone for good);
        never before one, unless every other seat is ours. The seats not heard from, if it may; else None."""
        if not view.syncing or view.finished or not self.heard:
            return None
        if self.answered_at is None and any(seat not in self.companions for seat in self.heard):
            self.answered_at = now
        others = [seat for seat in range(view.seats) if seat != self.seat]
        waited = self.answered_at is not None and now - self.answered_at >= self._sync
        return [seat for seat in others if seat not in self.heard] if waited or self._all_held(view) else None

    def _all_held(self, view: SyncView) -> bool:
        """Whether every other seat said HELLO, and our chain holds what each holds."""
        others = (seat for seat in range(view.seats) if seat != self.seat)
        return all(seat in self.heard and self.holds_chain_of(view, seat) for seat in others)

    def alone(self, view: SyncView, now: float) -> bool:
        """Resumed, still syncing, and `alone` seconds passed without a word from another process."""
        return (self.resumed_at is not None and view.syncing and not view.finished
                and not any(seat not in self.companions for seat in self.heard)
                and now - self.resumed_at >= self._alone)


def _runs(frames: Sequence[tuple[int, bytes]]) -> list[list[tuple[int, bytes]]]:
    """Frames (sequence number, raw) cut into runs of consecutive sequence numbers."""
    runs: list[list[tuple[int, bytes]]] = []
    for seq, raw in frames:
        if runs and seq == runs[-1][-1][0] + 1:
            runs[-1].append((seq, raw))
        else:
            runs.append([(seq, raw)])
    return runs


def _frames(seat: int, run: Sequence[tuple[int, bytes]]) -> list[Send]:
    """Frames (sequence number or slot, raw) for `seat` in as few ENTRIES frames as they fit in."""
    if not run:
        return []
    out: list[Send] = []
    batch: list[bytes] = []
    size, start = _FRAME_BASE, run[0][0]
    for seq, raw in run:
        size += len(raw) + _ENTRY_OVERHEAD
        if batch and (size > MAX_FRAME or len(batch) >= MAX_BATCH):
            out.append(Send(seat, Entries(start, tuple(batch))))
            batch, size, start = [], _FRAME_BASE + len(raw) + _ENTRY_OVERHEAD, seq
        batch.append(raw)
    out.append(Send(seat, Entries(start, tuple(batch))))
    return out


def _readable(raw: bytes) -> bool:
    try:
        log.validate_header(log.open_envelope(raw).payload)
    except (RemoteError, TypeError):
        return False
    return True
