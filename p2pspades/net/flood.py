"""The flood accounting of one peer: what every failed check costs the seat that caused it, and what a peer
remembers so that no copy of the same bad bytes is checked twice.

Pure: time comes in as numbers. The peer (`peer.py`) asks `Strikes.ignoring` before it even decodes a seat's
entry frames, notes each entry's outcome (`charged`, `Strikes.failed`), and mutes at the mesh a seat over its
budget for as long as `Strikes.until` says.
"""

from __future__ import annotations

from collections import Counter, OrderedDict, deque
from collections.abc import Sequence

from p2pspades.net.frames import MAX_BATCH
from p2pspades.table import DropKind, Dropped, Event, Rejected

FAILURE_BUDGET = 2 * MAX_BATCH
"""How many of one seat's entries may fail their checks within `FAILURE_WINDOW` seconds (an honest seat's
stale duplicates stay far below it) before its entries are ignored for a while."""
FAILURE_WINDOW = 2.0
PENALTY = 5.0
"""Seconds a seat's entries are first ignored for; each further penalty doubles it, up to `MAX_PENALTY`."""
MAX_PENALTY = 60.0
REFUSALS_KEPT = 4096
"""How many refused entries a peer remembers (by hash, the least recently seen forgotten first)."""
LASTING = frozenset({DropKind.OVERSIZED, DropKind.MALFORMED, DropKind.OTHER_GAME, DropKind.NO_SUCH_SEAT,
                     DropKind.BAD_SIGNATURE})
"""Refusals that the bytes alone decide, whatever the state of the game: the same bytes are refused again
every time, so they are remembered instead of checked again. A stale, early or unchained entry is not among
them, nor one out of turn: the same bytes may hold later (after a sync, or once a timeout has run out)."""


class Refusals:
    """Entries refused for good (`LASTING`), by hash, with the reason, at most `kept` of them."""

    def __init__(self, kept: int = REFUSALS_KEPT) -> None:
        self._kept = kept
        self._why: OrderedDict[bytes, str] = OrderedDict()

    def __len__(self) -> int:
        return len(self._why)

    def why(self, digest: bytes) -> str | None:
        """Why the entry of this hash was refused, if it was."""
        why = self._why.get(digest)
        if why is not None:
            self._why.move_to_end(digest)
        return why

    def note(self, digest: bytes, events: Sequence[Event]) -> None:
        """Remember the entry if the table's answer to it (`events`) refuses it for good."""
        first = events[0] if events else None
        if isinstance(first, Dropped) and first.kind in LASTING:
            self._why[digest] = first.kind.value
            if len(self._why) > self._kept:
                self._why.popitem(last=False)


class Strikes:
    """Per seat: its entries that failed their checks lately, and until when its entries are ignored; and the
    entries refused for good, whoever sent them."""

    def __init__(self) -> None:
        self._failed: dict[int, deque[float]] = {}
        self._why: dict[int, Counter[str]] = {}
        self._until: dict[int, float] = {}
        self._next_penalty: dict[int, float] = {}
        self.refused = Refusals()

    def ignoring(self, seat: int, now: float) -> bool:
        return now < self._until.get(seat, 0.0)

    def until(self, seat: int) -> float:
        """Until when the seat's entries are ignored (event loop time; in the past if they are not)."""
        return self._until.get(seat, 0.0)

    def failed(self, seat: int, now: float, why: str) -> str | None:
        """Note one failed entry; when the seat goes over its budget, the reason its entries are now
        ignored (to log), else None."""
        recent = self._failed.setdefault(seat, deque())
        reasons = self._why.setdefault(seat, Counter())
        while recent and now - recent[0] > FAILURE_WINDOW:
            recent.popleft()
        if not recent:
            reasons.clear()
        recent.append(now)
        reasons[why] += 1
        if len(recent) <= FAILURE_BUDGET:
            return None
        penalty = self._next_penalty.get(seat, PENALTY)
        self._next_penalty[seat] = min(2 * penalty, MAX_PENALTY)
        self._until[seat] = now + penalty
        summary = ", ".join(f"{n} {reason}" for reason, n in reasons.most_common(3))
        recent.clear()
        reasons.clear()
        return (f"seat {seat} sent more than {FAILURE_BUDGET} entries that failed their checks within "
                f"{FAILURE_WINDOW:g} s ({summary}): its entries are ignored for {penalty:g} s")


def charged(sender: int, events: Sequence[Event]) -> list[tuple[int, str]]:
    """Who pays for what the table refused of a frame `sender` sent us, and why: a refused statement whose
    signature checked (out of turn, a stale or early note, one refused against its slot) costs its signer,
    whoever passed it on or whatever entry moved the chain past it; unsigned junk costs its sender. An entry
    that came after the end costs nobody: peers forward the last ones to each other."""
    costs: list[tuple[int, str]] = []
    for event in events:
        if isinstance(event, Rejected):
            costs.append((event.seat, f"{event.check} check failed"))
        elif isinstance(event, Dropped) and event.kind is not DropKind.GAME_OVER:
            culprit = event.seat if event.signed and event.seat is not None else sender
            costs.append((culprit, event.kind.value))
    return costs
