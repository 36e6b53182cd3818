"""Time on one table (PROTOCOL.md §5): when we vote that the seat we wait for stopped answering, and when,
under rule "low_club", the seat at the dealer's left challenges a first lead nobody made.

Time is policy, and it comes in from outside as numbers: the clock keeps what it needs of the caller's
readings (the pauses to leave out: a gap between two readings longer than `pause`, a machine that slept or a
process stopped, is no waiting) and our player's choice to wait longer for the seat awaited now. A machine
that knows no table: it reads the narrow `ClockView` and, on a tick, says what our timers make us do
(`Timer`: the claims machine votes or stalls; `Write`: our challenge).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from p2pspades.errors import LocalError
from p2pspades.table import messages as msg
from p2pspades.table.slots import Role, Slot
from p2pspades.table.stages import ANY_SEAT, Stage, Step


@dataclass(frozen=True)
class Timer:
    """Our timer for the slot awaited ran out: we vote, or a timeout after our vote we stall (`wait`: the
    timeout in force, whole seconds, with what our player chose to add)."""

    wait: int


@dataclass(frozen=True)
class Write:
    """An entry of ours to sign and take like any other."""

    message: msg.Message


class ClockView(Protocol):
    """What the clock reads of its table."""

    @property
    def seat(self) -> int | None: ...

    @property
    def finished(self) -> bool: ...

    @property
    def syncing(self) -> bool: ...

    @property
    def stage(self) -> Stage: ...

    @property
    def last_progress(self) -> float:
        """When the chain last grew (or our timers last started), on our clock less its pauses."""

    @property
    def next_seq(self) -> int: ...

    @property
    def timeouts(self) -> Mapping[str, float]: ...

    @property
    def claim(self) -> Slot | None:
        """The claim on the slot awaited, once a seat voted on it."""

    @property
    def deciding(self) -> bool:
        """Whether our player has a decision to make now."""

    @property
    def dealer_left(self) -> int:
        """The seat at the dealer's left in the hand in play."""

    def expected(self) -> Step | None:
        """Who may append the next entry, and of which types."""

    def claimed_step(self) -> Step | None:
        """The step a claim on the slot awaited is about."""


class Clock:
    """The pauses left out of the caller's clock, and our player's patience with the seat awaited now."""

    def __init__(self, now: float, pause: float, timeout: Callable[[Step], float]) -> None:
        self._pause = pause
        self._reading = now
        #: the pauses so far, which no wait counts
        self.paused = 0.0
        #: how long we wait for the seat of a step before we vote (`Makers.limit`)
        self._timeout = timeout
        #: our player's choice to wait longer for the seat awaited now: (that wait, the seconds added)
        self._patience: tuple[tuple[float, int, Step], float] | None = None

    def read(self, now: float) -> float:
        """A reading of the caller's clock, less the pauses so far."""
        gap = now - self._reading
        if gap > self._pause:
            self.paused += gap - self._pause
        self._reading = max(self._reading, now)
        return now - self.paused

    def forget_patience(self) -> None:
        """Our chain was rebuilt: no wait goes on from before."""
        self._patience = None

    def limit(self, view: ClockView, step: Step) -> float:
        """How long we wait for the seat of `step` before we vote: the timeout in force (twice the decision
        timeout for the seat that challenges a lowest club nobody led), and what our player chose to add to
        this wait (`longer`)."""
        extra = 0.0
        if self._patience is not None and self._patience[0] == _wait(view, step):
            extra = self._patience[1]
        twice = 2 if step.types[0] is msg.Challenge else 1
        return twice * self._timeout(step) + extra

    def due(self, view: ClockView) -> float | None:
        """When (on the caller's clock) we vote that the seat awaited stopped answering, unless it answers
        first; None if no such vote is ahead (our own turn, a lead of the lowest club, a claim already voted
        on, a resumed peer still syncing, the game over)."""
        step = _awaited(view)
        if step is None or view.claim is not None:
            return None
        return view.last_progress + self.limit(view, step) + self.paused

    def longer(self, view: ClockView, seconds: float | None) -> float:
        """Our player waits `seconds` longer (default: one more timeout in force) for the seat awaited, for
        this wait only; the seconds added (0 when no vote of ours is ahead)."""
        step = _awaited(view)
        claim = view.claim
        if step is None or (claim is not None and view.seat in claim.votes):
            return 0.0
        added = self._timeout(step) if seconds is None else seconds
        if not (0 < added < math.inf):
            raise LocalError(f"a wait must be a positive number of seconds, not {added}")
        key = _wait(view, step)
        before = self._patience[1] if self._patience is not None and self._patience[0] == key else 0.0
        self._patience = (key, before + added)
        return added

    def tick(self, view: ClockView, now: float, role: Callable[[], Role]) -> list[Timer | Write]:
        """Time passed (`now`, read by `read`; `role()`: ours on the claim on the slot awaited): we vote once
        we waited the timeout in force for the seat awaited, and stall once we waited it twice; rule
        "low_club": the dealer's left challenges a first lead nobody made."""
        step = view.claimed_step()
        if view.finished or view.syncing or view.seat is None or step is None:
            return []
        if view.stage is Stage.LEAD and view.seat == view.dealer_left:
            return _low_club(view, now)  # it challenges; it does not vote
        if step.seat == view.seat:
            return []
        waited, limit = now - view.last_progress, self.limit(view, step)
        ours = role()
        first = ours in (Role.QUIET, Role.OPEN) and waited >= limit
        if first or (ours is Role.VOTED and waited >= 2 * limit):
            return [Timer(round(limit))]
        return []


def _awaited(view: ClockView) -> Step | None:
    """The step of another seat that we wait for, with a vote of ours ahead."""
    step = view.expected()
    if view.finished or view.syncing or view.seat is None or step is None or view.stage is Stage.LEAD:
        return None
    return None if step.seat in (view.seat, ANY_SEAT) else step


def _wait(view: ClockView, step: Step) -> tuple[float, int, Step]:
    """This wait for `step`: it began at the last progress, with the chain as long as it is now."""
    return (view.last_progress, view.next_seq, step)


def _low_club(view: ClockView, now: float) -> list[Timer | Write]:
    """Rule "low_club": nobody leads the lowest club. The seat at the dealer's left (and it alone: a rule
    every table computes alike, so simultaneous timers cannot split the tables) challenges after the decision
    timeout; its holder will be named by the reveal. The others vote against the challenger after twice the
    timeout."""
    limit = view.timeouts["decision"]
    if view.deciding or now - view.last_progress < limit:
        return []
    return [Write(msg.Challenge(view.next_seq - 1, f"nobody led the lowest club within {limit:.0f} s"))]
