"""What a table machine tells its driver.

A `Table` performs no I/O. Feeding it bytes returns these events, in the order the driver must act on them:
save a `SecretCreated` before appending the `Accepted` entry that commits to it, append every `Accepted` entry
to the log before sending anything from `take_outgoing()`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from p2pspades.checks import Check
from p2pspades.errors import N_
from p2pspades.rules import Action, Card, SeatView

TWICE = N_("two different entries signed by seat {seat} for sequence number {seq}")
"""The detail of an equivocation: a seat signed two entries for one place on the chain."""


class TableStatus(enum.StrEnum):
    """How a game stands: still going, or how it ended."""

    RUNNING = "running"
    COMPLETE = "complete"
    ABANDONED = "abandoned"
    VIOLATION = "violation"
    LEFT = "left"  # a seat said goodbye (signed): its side forfeits
    STOPPED = "stopped"  # every seat agreed to stop (signed): the scores stand, nobody wins


class DropKind(enum.Enum):
    """Why input was dropped without blaming a seat."""

    OVERSIZED = "oversized"
    MALFORMED = "malformed"
    OTHER_GAME = "other game"
    NO_SUCH_SEAT = "no such seat"
    BAD_SIGNATURE = "bad signature"
    STALE = "stale"
    TOO_FAR_AHEAD = "too far ahead"
    NOT_CHAINED = "not chained"
    GAME_OVER = "game over"
    REFUSED = "refused"


class DecisionKind(enum.Enum):
    BLIND_NIL = "blind"
    BID = "bid"
    DRAW = "draw"
    PASS = "pass"  # rule nil_pass: which cards to pass to the partner
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
class Noted:
    """A valid vote or refusal of an abandonment claim (off the chain, PROTOCOL.md §5): keep it in the log
    after what precedes it, and pass it on to the peers (ours, `own`, is also in `take_outgoing()`)."""

    slot: int
    raw: bytes
    seat: int
    type: str
    own: bool = False


@dataclass(frozen=True)
class Superseded:
    """A certificate took slot `first`: the entries we held from there on are off the chain now (they stay
    in the log, after it, as what they are)."""

    first: int
    raws: tuple[bytes, ...]


@dataclass(frozen=True)
class SecretCreated:
    """A new hand seed: persist it (mode 0600) before the commitment that follows is sent."""

    hand: int
    seed: bytes


@dataclass(frozen=True)
class Dropped:
    """Input that could not be attributed to a seat (or harmless noise): logged and ignored.

    `seat` and `seq` are what the entry's header claims (None when it could not be read); `size` is the
    size of an oversized entry; `detail` says what is malformed. `signed`: its signature was checked, so
    `seat` signed it (a flood of signed statements is its signer's, not the seat's that passed it on).
    `describe.dropped` puts it into words.
    """

    kind: DropKind
    seat: int | None = None
    seq: int | None = None
    size: int = 0
    detail: str = ""
    signed: bool = False


@dataclass(frozen=True)
class Rejected:
    """A validly signed entry that may not be appended now (e.g. out of turn). The game goes on."""

    seat: int
    check: Check
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
    check: Check
    detail: str
    seq: int
    evidence: tuple[bytes, ...] = ()
    halts: bool = True


@dataclass(frozen=True)
class FirstDealer:
    """The first-dealer draw is done: `seat` drew the highest card and deals the first hand, or (`given`)
    the genesis of a game that continues another names it (PROTOCOL.md §4.1.1)."""

    seat: int
    given: bool = False


@dataclass(frozen=True)
class CardVerified:
    """`seat` played `card`, and its key opened that card."""

    seat: int
    card: Card


@dataclass(frozen=True)
class ChallengeRaised:
    """`seat` challenged the deal (`why`, in its words): every seat reveals its seed now."""

    seat: int
    why: str


@dataclass(frozen=True)
class PassShown:
    """Rule `nil_pass`, once the hand is revealed: `seat` passed `cards` to its partner `to`, face down. While
    the hand was played only the two of them knew the cards; the others knew only that a pass was made."""

    seat: int
    to: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class HandAudited:
    """Every seat revealed and every peer recomputed the deal: the hand's verdict, and (rule `nil_pass`) the
    passes of the hand, in the order they were made, with the cards the reveal showed."""

    hand: int
    violations: tuple[Violation, ...] = field(default_factory=tuple)
    passes: tuple[PassShown, ...] = ()


@dataclass(frozen=True)
class StopLapsed:
    """The proposal to stop the game at slot `slot` lapsed here: seat `by` declined it, or (None) it was not
    agreed within the wait, or the game moved on (PROTOCOL.md §5.11). The game goes on."""

    slot: int
    by: int | None = None


@dataclass(frozen=True)
class GameEnded:
    """The game is over: complete, abandoned (`seat` stopped answering), halted (`seat` cheated), left (the
    seats `leavers` said goodbye: `seat` is the first of them) or stopped (every seat agreed: `signers`).

    After a fault, `forfeit` says whether `seat`'s side forfeited (rule `on_fault`): `winners` are then the
    best of the other sides; otherwise the game is void and nobody wins. An abandonment names the seats that
    signed its certificate (`signers`) and the timeout each stated (`waits`, seconds); it is `contested`
    when every signer wins by it, which proves nothing, so nobody wins; a stalled ending also names the seats
    that signed nothing (`missing`), and is always contested. An abandonment at an `end` entry leaves the
    game's own result (`scored`): it was decided before. A halt carries its `violation`. A goodbye makes the
    leavers' sides forfeit (`forfeit`; nobody wins if every side has a leaver, or under `on_fault` "void");
    a stop leaves the scores standing and nobody winning; either at an `end` entry leaves the game's own
    result (`scored`). `at` is the slot where the chain stops (PROTOCOL.md §5.6: the order of endings). It
    is data: `describe.ending` puts it into words.
    """

    status: TableStatus
    winners: tuple[int, ...]
    seat: int | None = None
    forfeit: bool = False
    contested: bool = False
    signers: tuple[int, ...] = ()
    waits: tuple[int, ...] = ()
    violation: Violation | None = None
    at: int = 0
    missing: tuple[int, ...] = ()
    scored: bool = False
    leavers: tuple[int, ...] = ()


Event = (
    Accepted
    | Noted
    | Superseded
    | SecretCreated
    | Dropped
    | Rejected
    | Wanted
    | Violation
    | FirstDealer
    | CardVerified
    | ChallengeRaised
    | HandAudited
    | StopLapsed
    | GameEnded
)
