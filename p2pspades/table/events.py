"""What a table machine tells its driver.

A `Table` performs no I/O. Feeding it bytes returns these events, in the order the driver must act on them:
save a `SecretCreated` before appending the `Accepted` entry that commits to it, append every `Accepted` entry
to the log before sending anything from `take_outgoing()`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from p2pspades.rules import Action, SeatView


class DecisionKind(enum.Enum):
    BLIND_NIL = "blind"
    BID = "bid"
    DRAW = "draw"
    PLAY = "play"


@dataclass(frozen=True)
class Decision:
    """Our player's turn: what to decide, what the seat may know, and the legal choices."""

    kind: DecisionKind
    view: SeatView
    legal: tuple[Action, ...]


@dataclass(frozen=True)
class Outgoing:
    """An entry we created and must send to every peer, after it is on disk."""

    seq: int
    raw: bytes


@dataclass(frozen=True)
class Accepted:
    """A valid entry was appended to the chain (ours or a peer's)."""

    seq: int
    raw: bytes
    seat: int
    type: str
    own: bool = False


@dataclass(frozen=True)
class SecretCreated:
    """A new hand seed: persist it (mode 0600) before the commitment that follows is sent."""

    hand: int
    seed: bytes


@dataclass(frozen=True)
class Dropped:
    """Input that could not be attributed to a seat (or harmless noise): logged and ignored."""

    reason: str


@dataclass(frozen=True)
class Rejected:
    """A validly signed entry that may not be appended now (e.g. out of turn). The game goes on."""

    seat: int
    check: str
    detail: str
    raw: bytes


@dataclass(frozen=True)
class Wanted:
    """We are missing the entries from `first` on (a gap or a fork): ask the peers for them."""

    first: int


@dataclass(frozen=True)
class Violation:
    """A seat cheated. The evidence is signed entries; the game stops (or a rules penalty applies)."""

    seat: int
    check: str
    detail: str
    seq: int
    evidence: tuple[bytes, ...] = ()
    halts: bool = True


@dataclass(frozen=True)
class Info:
    """Something a person would like to see in the event pane."""

    text: str


@dataclass(frozen=True)
class HandAudited:
    """Every seat revealed and every peer recomputed the deal: the hand's verdict."""

    hand: int
    violations: tuple[Violation, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class GameEnded:
    """The game is over: complete, abandoned or halted."""

    status: str  # "complete" | "abandoned" | "violation"
    winners: tuple[int, ...]
    detail: str = ""


Event = Accepted | SecretCreated | Dropped | Rejected | Wanted | Violation | Info | HandAudited | GameEnded
