"""What a claim's ending makes of the game (PROTOCOL.md §5).

The claims machine (`claims.py`) says that a slot's notes end the game there (`slots.End`). This machine,
which knows no table either, decides from the narrow `EndingView` whether that ending holds on our table and
what it is: a provisional ending (`provisional`) is void where its awaited entry is already held; an ending
no stronger than the one the table holds changes nothing (`endings.py`); else its canonical entry takes the
slot (`Ending`), and once the table has put it there (cutting its chain back to the slot if it went further)
`ended` says how the game ended: a forfeit, contested, or, at an `end`, the game's own result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from p2pspades import log
from p2pspades.rules import Outcome, RuleSet
from p2pspades.table import messages as msg
from p2pspades.table.endings import stronger
from p2pspades.table.events import GameEnded, TableStatus
from p2pspades.table.slots import End, Reopen, Slot, Standing, ending_entry, outcome, provisional


class EndingView(Protocol):
    """What the endings of claims read of their table."""

    @property
    def seat(self) -> int | None: ...

    @property
    def rules(self) -> RuleSet: ...

    @property
    def game_id(self) -> bytes: ...

    @property
    def result(self) -> GameEnded | None:
        """How the game ended on our table so far (None: it has not)."""

    @property
    def outcome(self) -> Outcome | None:
        """The rules engine's result, once the game is decided (an ending at an `end` slot)."""

    def entry_at(self, seq: int) -> bytes | None:
        """Our chain's entry at `seq` (None beyond it)."""

    def totals(self) -> list[int]:
        """Every side's total score now."""


@dataclass(frozen=True)
class Ending:
    """The claim on `slot` ends the game: its canonical entry `raw` (a certificate, or a stalled ending naming
    `missing` as silent) takes the slot on our chain."""

    slot: Slot
    standing: Standing
    missing: tuple[int, ...]
    raw: bytes

    @property
    def type(self) -> str:
        return msg.Stalled.TYPE if self.standing is Standing.STALLED else msg.Certificate.TYPE


def settle(view: EndingView, out: End) -> list[Reopen | Ending]:
    """Whether the ending `out` the claims machine found holds on our table, and how it is carried out."""
    slot = out.slot
    stalled = out.standing is Standing.STALLED
    if provisional(slot, stalled) and (view.seat == slot.accused or _answered(view, slot)):
        if slot.held:  # we voted and hold the awaited entry: it voids the ending, so we take it after all
            return [Reopen(slot, min(slot.held.values()))]
        return []  # the awaited entry is there (or, ours, about to be): a provisional ending is void by it
    missing = out.missing if stalled else ()
    probe = GameEnded(TableStatus.ABANDONED, (), slot.accused, at=slot.seq, missing=missing)
    if not stronger(probe, view.result):
        return []
    return [Ending(slot, out.standing, missing, ending_entry(view.game_id, slot, out.standing, out.missing))]


def ended(view: EndingView, ending: Ending) -> GameEnded:
    """How the game ended by `ending`, once its entry holds the slot (the chain as it stands then)."""
    slot = ending.slot
    stalled = ending.standing is Standing.STALLED
    signers = tuple(s for s in slot.voters if s not in ending.missing)
    waits = tuple(slot.waits[v] for v in signers)
    common = {"seat": slot.accused, "signers": signers, "waits": waits, "at": slot.seq}
    scored = view.outcome  # an `end` slot: the result was decided
    if scored is not None:
        return GameEnded(TableStatus.ABANDONED, tuple(scored.winners), scored=True, missing=ending.missing,
                         **common)  # type: ignore[arg-type]
    if stalled:
        return GameEnded(TableStatus.ABANDONED, (), contested=True, missing=ending.missing,
                         **common)  # type: ignore[arg-type]
    result = outcome(view.rules, slot.accused, signers, view.totals())
    return GameEnded(TableStatus.ABANDONED, result.winners, forfeit=result.forfeit,
                     contested=result.contested, **common)  # type: ignore[arg-type]


def _answered(view: EndingView, slot: Slot) -> bool:
    """Whether we hold an entry for `slot`: on our chain (its writer's, not an ending), or held back."""
    if slot.held:
        return True
    entry = view.entry_at(slot.seq)
    return entry is not None and _type(entry) not in msg.ENDINGS


def _type(raw: bytes) -> str:
    return str(log.validate_header(log.open_envelope(raw).payload).type)
