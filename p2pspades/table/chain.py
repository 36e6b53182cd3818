"""The chain of one table: its entries in order, who signed each and at which step, the head, the entries that
came early (the pending window), and every frame the table took (its records: the log).

`open_frame` reads a frame's envelope and header and says why it is dropped, if it is. `Chain` keeps what
holds. Neither checks a signature, a turn or a field: the table does, before it appends.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pspades import log
from p2pspades.errors import RemoteError
from p2pspades.table.events import DropKind, Dropped, Wanted
from p2pspades.table.stages import Step

#: how far ahead of our head we keep entries (and claims' votes) that arrived early
WINDOW = 256


@dataclass(frozen=True)
class Frame:
    """A frame whose envelope and header read, of this game and of one of its seats (signature unchecked)."""

    env: log.Envelope
    header: log.Header

    @property
    def raw(self) -> bytes:
        return self.env.raw


def open_frame(raw: bytes, game_id: bytes, seats: int) -> Frame | Dropped:
    """The frame `raw`, or why it is dropped before anything is checked against the chain."""
    if len(raw) > log.MAX_ENVELOPE:
        return Dropped(DropKind.OVERSIZED, size=len(raw))
    try:
        env = log.open_envelope(raw)
        header = log.validate_header(env.payload)
    except RemoteError as exc:
        return Dropped(DropKind.MALFORMED, detail=exc.detail)
    if header.game_id != game_id:
        return Dropped(DropKind.OTHER_GAME, header.seat, header.seq)
    if not 0 <= header.seat < seats:
        return Dropped(DropKind.NO_SUCH_SEAT, header.seat, header.seq)
    return Frame(env, header)


class Chain:
    """The entries that hold, in order, from the genesis."""

    def __init__(self, genesis: bytes, head: bytes) -> None:
        self.entries: list[bytes] = [genesis]
        self.signers: list[int] = [0]
        #: the step each entry was appended at (None: the genesis)
        self.steps: list[Step | None] = [None]
        self.head = head
        #: every frame the table took, in order: the entries and the claims' votes and refusals (the log)
        self.records: list[bytes] = [genesis]
        #: the frames we hold already (peers forward every entry: nothing is checked twice)
        self.known: set[bytes] = {genesis}
        self.pending: dict[int, bytes] = {}

    @property
    def next_seq(self) -> int:
        """The sequence number of the next entry."""
        return len(self.entries)

    def append(self, raw: bytes, digest: bytes, seat: int, step: Step | None) -> None:
        self.entries.append(raw)
        self.signers.append(seat)
        self.steps.append(step)
        self.head = digest
        self.note(raw)

    def note(self, *raws: bytes) -> None:
        """Frames we took that are not (or not yet) on the chain: they are in our records all the same."""
        self.known.update(raws)
        self.records.extend(raws)

    def keep_early(self, seq: int, raw: bytes, seat: int, signed: bool) -> Wanted | Dropped:
        """Keep an entry (or an ending) for a slot beyond the chain until we reach it, within the window:
        then we ask the peers for the gap; else it is refused (`signed`: `seat` signed it)."""
        if seq - self.next_seq <= WINDOW and len(self.pending) < WINDOW:
            self.pending.setdefault(seq, raw)
            return Wanted(self.next_seq)
        return Dropped(DropKind.TOO_FAR_AHEAD, seat, seq, signed=signed)

    def take_next(self) -> bytes | None:
        """The entry that came early for the next slot, if one did."""
        return self.pending.pop(self.next_seq, None)

    def signed_by(self, seq: int, seat: int) -> bytes | None:
        """Our entry at `seq` if `seat` signed it: another entry of that seat for `seq` is equivocation."""
        return self.entries[seq] if self.signers[seq] == seat else None
