"""What a player sees of the game's progress, as data: the peer pushes a `Status` whenever it changes, and
the edge puts it into words (`cli.progress.status_text`, the screens)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from p2pspades.table import GameEnded, Proposal, TableStatus


class Phase(enum.Enum):
    """Where the game stands for our seat."""

    OVER = "over"  # the game ended (`Status.ended`)
    SYNCING = "syncing"  # resumed: nothing is written until every other seat answered (`heard` of `others`)
    GAVE_UP = "gave up"  # resumed, and no seat of another process answered within `Timing.alone`: stopped
    IDLE = "idle"  # nobody's entry is awaited
    OUR_TURN = "our turn"  # our player decides
    SENDING = "sending"  # our own automatic entry (`kind`) goes out
    WAITING = "waiting"  # for seat `waiting_for`'s entry (`kind`)


@dataclass(frozen=True)
class ClaimShown:
    """The open abandonment claim of the awaited slot: who voted, with which timeouts (seconds, each once,
    ascending), who refused by taking the entry first (the claim is then void), who did not vote yet."""

    voters: tuple[int, ...]
    waits: tuple[int, ...]
    refused: tuple[int, ...]
    missing: tuple[int, ...]


@dataclass(frozen=True)
class Status:
    """What a player should see about the game's progress, pushed whenever it changes: data only, put into
    words by the CLI (`cli.progress.status_text`)."""

    phase: Phase
    seat: int
    entries: int
    waiting_for: int | None = None
    away: Mapping[int, int] = field(default_factory=dict)
    """Seats we have not heard from for a while, and for how many whole seconds (-1: never heard from)."""
    kind: str = ""
    """The message type awaited (`SENDING`, `WAITING`)."""
    heard: int = 0
    others: int = 0
    ended: GameEnded | None = None
    outcome: TableStatus = TableStatus.RUNNING
    claim: ClaimShown | None = None
    vote_in: int | None = None
    """While we wait for another seat and nobody has voted yet: in how many whole seconds, by the timeout in
    force here, we vote that it stopped answering (None: no such vote ahead, e.g. our own turn)."""
    sync_in: int | None = None
    """While syncing (and after `GAVE_UP`: how long we waited): the whole seconds until we play on without the
    seats that have not answered, once a seat of another process has (`answered`), or else until we give
    up."""
    answered: bool = False
    """While syncing: a seat run by another process has answered (our own bot seats do not count)."""
    behind: tuple[int, ...] = ()
    """Once the game is over: the seats not known to hold its end yet, which we keep serving."""
    linger_in: int | None = None
    """Once the game is over, while some seat is `behind`: the whole seconds we still serve it."""
    proposal: Proposal | None = None
    """A proposal to stop at the slot we wait for (its seconds before it lapses rounded up to whole ones)."""

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER
