"""Goodbyes and stops on one table (PROTOCOL.md §5.10, §5.11): the table's narrow view for the partings
machine (`partings.py`, which knows nothing of the table), and the one place that carries out what it says.

The machine is told of goodbyes, stops and declines, of the entries a seat signed, of our clock; it answers
with outputs (`partings.Output`): a note to keep and pass on, one of ours to send, an ending, an ending that
turned out void, a proposal that lapsed. `apply` is where they change the table: its records, its chain (cut
back for an ending at an earlier slot, taken back when the ending is void), its result (only ever to a
stronger one, `endings.py`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from p2pspades import log
from p2pspades.table import messages as msg
from p2pspades.table.abandonment import TableView, carry_out, end_again
from p2pspades.table.claims import Note, Report, Send, Standing, standing
from p2pspades.table.endings import stronger
from p2pspades.table.events import (
    Accepted,
    GameEnded,
    StopLapsed,
    Superseded,
    TableStatus,
)
from p2pspades.table.partings import Lapse, Output, Part, Parted, Parting, Revive, parting_entry
from p2pspades.table.stages import Stage

if TYPE_CHECKING:
    from p2pspades.table.machine import Table


class PartingTableView(TableView):
    """What the partings machine sees of table `t`: the claims machine's view, and the scores at a slot."""

    def answered(self, seq: int) -> bool:
        entry = self.entry_at(seq)
        return entry is not None and _type(entry) not in msg.ENDINGS

    def totals_at(self, seq: int) -> tuple[int, ...]:
        return self._t.totals_at(seq)


def apply(t: Table, outputs: Iterable[Output], now: float) -> bool:
    """Carry out what the partings machine said, in order. Whether the frame that caused it was taken (noted,
    even if its signer is named for it), or refused by nothing."""
    noted = refused = False
    for out in outputs:
        if isinstance(out, Note | Send | Report):
            took, refusal = carry_out(t, out)
            noted, refused = noted or took, refused or refusal
        elif isinstance(out, Part):
            _part(t, out, now)
        elif isinstance(out, Revive):
            _revive(t, out, now)
        else:
            assert isinstance(out, Lapse)
            t.last_progress = max(t.last_progress, now)  # the pause is over: every wait starts again
            t.report(StopLapsed(out.parting.seq, out.by))
    return noted or not refused


def _type(raw: bytes) -> str:
    return str(log.validate_header(log.open_envelope(raw).payload).type)


def _part(t: Table, out: Part, now: float) -> None:
    """The slot's goodbyes (or stops) end the game there: their entry takes the slot on our chain, whatever we
    held from there on is cut back, and the game is over, unless a stronger ending holds already."""
    spot, kind = out.parting, out.kind
    status = TableStatus.LEFT if kind is Parted.LEFT else TableStatus.STOPPED
    if not stronger(GameEnded(status, (), at=spot.seq, leavers=out.seats), t.result):
        return
    raw = parting_entry(t.game_id, spot, kind, out.seats)
    if spot.seq < t.chain.next_seq or t.finished:
        gone = tuple(t.chain.entries[spot.seq:])
        again = t.parted is spot  # our own ending of this slot, replaced: what it cut is what we keep
        t.cut_back(spot.seq)
        if not again:
            spot.cut = gone
        if gone:
            t.report(Superseded(spot.seq, gone))
    t.chain.append(raw, log.entry_hash(raw), spot.at.accused, t.claimed_step())
    t.last_progress = now
    t.report(Accepted(spot.seq, raw, spot.at.accused, _type(raw), False))
    t.parted = spot
    spot.ended = (kind, out.seats)
    scored = t.game is not None and t.game.outcome is not None  # an `end` slot: the result was decided
    t.enter(Stage.OVER)
    t.finish(_result(t, spot, kind, out.seats, scored))


def _result(t: Table, spot: Parting, kind: Parted, leavers: tuple[int, ...], scored: bool) -> GameEnded:
    """A goodbye: each leaver's side forfeits, the other sides ranked by their totals at the slot (nobody wins
    if every side has a leaver, or under rule `on_fault` "void"). A stop: the scores stand, nobody wins. At
    an `end` slot, either leaves the game's own result: it was decided before."""
    winners: tuple[int, ...] = ()
    if scored:
        assert t.game is not None and t.game.outcome is not None
        winners = tuple(t.game.outcome.winners)
    if kind is Parted.STOPPED:
        return GameEnded(TableStatus.STOPPED, winners, at=spot.seq, signers=tuple(sorted(spot.stops)),
                         scored=scored)
    if not scored and t.rules.on_fault == "forfeit":
        losing = {t.rules.side_of(s) for s in leavers}
        totals = t.totals()
        others = [side for side in range(len(t.rules.sides)) if side not in losing]
        top = max((totals[side] for side in others), default=0)
        winners = tuple(side for side in others if totals[side] == top)
    return GameEnded(TableStatus.LEFT, winners, leavers[0], forfeit=bool(winners) and not scored, at=spot.seq,
                     scored=scored, leavers=leavers)


def _revive(t: Table, out: Revive, now: float) -> None:
    """The ending `out.parting` made is void: a goodbye in it is (its signer signed on), or the awaited entry
    `out.answer` voids a stop. The chain goes back to what the ending cut back, the slot's other endings are
    judged again, and the answer is taken."""
    spot = out.parting
    if t.parted is spot and t.result is not None and t.result.at == spot.seq:
        ending = t.chain.entries[spot.seq]
        keep = [*t.chain.entries[:spot.seq], *(raw for raw in spot.cut if _type(raw) not in msg.ENDINGS)]
        t.rebuild(keep)
        t.report(Superseded(spot.seq, (ending,)))
        t.parted = None
        if out.answer is not None:
            t.take(out.answer, now)
        rejudge(t, spot.seq, now)
    elif out.answer is not None:
        t.take(out.answer, now)


def rejudge(t: Table, seq: int, now: float) -> None:
    """The ending at slot `seq` was taken back (or a stronger one there turned out void): what else its notes
    prove ends the game there, the strongest first (a claim's certificate or stalled ending; the goodbyes
    that hold, or the stops)."""
    view = t.parting_view
    prev = log.entry_hash(t.chain.entries[seq - 1]) if 0 < seq <= t.chain.next_seq else None
    if prev is None:
        return
    slot = t.claims.slots.get((seq, prev))
    if slot is not None:
        found, missing = standing(slot, t.seats)
        if found in (Standing.CERTIFIED, Standing.STALLED):
            end_again(t, slot, found, missing, now)
    spot = t.partings.spots.get((seq, prev))
    if spot is not None:
        spot.ended = None if t.parted is not spot else spot.ended
        apply(t, t.partings.judge(view, spot), now)
