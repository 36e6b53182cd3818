"""Why something was refused, closed, dropped or found, as data: the codes below the edge.

The layers under the UI and the CLI say what happened with a code and the data its words need (seats,
numbers, names, a check and its detail), never with a sentence; `describe` puts a `Reason` into words, one
place for every language. Like `checks.Check`, each code is a `StrEnum` whose value is the word the wire
carries where it travels (the lobby's `refuse`, `closed` and `decline`, protocol/network.md §6).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from p2pspades.checks import Check


class Refusal(enum.StrEnum):
    """Why a host turns a join down, or takes a seat away (the lobby's `refuse`)."""

    FULL = "full"  # every seat is taken, or the game is being started
    BAD_NAME = "bad_name"  # the join's name is not 1..32 printable characters
    BAD_ENDPOINT = "bad_endpoint"  # the join's endpoint is not tcp://HOST:PORT
    BAD_OWNER_KEY = "bad_owner_key"  # the join's owner key is no key
    BAD_JOIN = "bad_join"  # another field of the join is missing, extra or malformed
    SEATED_ELSEWHERE = "seated_elsewhere"  # another running program holds a seat with this key
    OTHER_TABLE = "other_table"  # the join names another lobby
    OWNER_NOT_SEATED = "owner_not_seated"  # a bot's owner must be a person seated at this table
    ONLY_PLAYERS = "only_players"  # a continuation: only the old game's players may sit
    HOST_KEY = "host_key"  # the key is the host's or one of its bots'
    OWNER_LEFT = "owner_left"  # the person whose machine runs this bot left
    REPLACED = "replaced"  # the host gave the seat to someone else
    SILENT = "silent"  # the joiner's keep-alives stopped
    LEFT = "left"  # the joiner left or declined: its seat is free


class Closing(enum.StrEnum):
    """Why a host closes its table before the game starts (the lobby's `closed`)."""

    CANCELLED = "cancelled"  # the host's player did not start the game
    LEFT = "left"  # the host's player left the lobby
    STOPPED = "stopped"  # the host's program stopped
    FAILED = "failed"  # the host's lobby failed


class Objection(enum.StrEnum):
    """What is wrong with a host's proposal (a `start`), as a joiner's `decline` says."""

    DOWNGRADE = "downgrade"  # the genesis is of a protocol version below the joiner's floor
    VERSION = "version"  # its protocol version differs from the announced one
    SIGNER = "signer"  # it is not signed by the host
    SEATS = "seats"  # its seats differ from the seat map
    RULES = "rules"  # its rules differ from the announced ones
    FOLLOWS = "follows"  # the game it follows differs from the announced one
    TABLE = "table"  # it is for another table
    NOT_SEATED = "not_seated"  # the joiner is not seated in it


class Trouble(enum.StrEnum):
    """Why the lobby could not seat us, or refused a request of our own player (a `LobbyError`)."""

    REFUSED = "refused"  # the host refused us: `why`, a Refusal (or an older host's words)
    CLOSED = "closed"  # the host closed the table: `why`, a Closing (or an older host's words)
    DOWNGRADE = "downgrade"  # the host proposes protocol `version`, below `allowed`
    NO_ANSWER = "no_answer"  # no table answers at `where`
    HOST_SILENT = "host_silent"  # the host at `where` stopped answering for `seconds`
    CANNOT_LISTEN = "cannot_listen"  # the lobby cannot bind `where`: `error`
    CANNOT_CONNECT = "cannot_connect"  # cannot connect to `where`: `error`
    BAD_MESSAGE = "bad_message"  # the host sent a bad `kind`: `detail` (the check's own words)
    BAD_GENESIS = "bad_genesis"  # the host's genesis does not read: `detail`
    BAD_PROPOSAL = "bad_proposal"  # the host's proposal fails `objections`
    FINGERPRINT = "fingerprint"  # the host's key has fingerprint `got`, not `expected`
    CHANGED = "changed"  # the host changed the table's rules, version, id or the game it follows
    SEAT_TAKEN = "seat_taken"  # the host took our seat away
    FOLLOWS = "follows"  # the game the table says it follows is not as our log has it: `problem`
    DECLINED = "declined"  # we declined the table
    CANCELLED = "cancelled"  # our player cancelled the table
    STOPPED = "stopped"  # the lobby was stopped
    # the host's own requests (its lobby screen)
    ALREADY_SEATED = "already_seated"  # that key is seated already
    NOT_FREE = "not_free"  # `seat` is not free
    FULL = "full"  # every seat is taken
    CANNOT_EMPTY = "cannot_empty"  # `seat` cannot be emptied (the host's, or nobody's)
    NOT_A_BOT = "not_a_bot"  # `seat` holds no bot
    NO_PLACE = "no_place"  # `seat` is taken by a person (a bot cannot move there)
    NOT_HOST_BOT = "not_host_bot"  # `seat` is not one of the host's bots
    NOT_READY = "not_ready"  # the table starts only once every seat is taken
    OVER = "over"  # the lobby is over


class LobbyDrop(enum.StrEnum):
    """Why a lobby machine dropped a frame without acting on it (logged; nothing changes)."""

    OVER = "over"  # the lobby is over
    BAD_FRAME = "bad_frame"  # the frame fails its checks: `detail`
    SECOND_PROGRAM = "second_program"  # a second program joined with the key of `seat`
    OTHER_GENESIS = "other_genesis"  # `seat` accepted another genesis
    UNEXPECTED = "unexpected"  # a `kind` message at this moment


class Finding(enum.StrEnum):
    """What a verifier's reading of one log proves: the verdict's summary (`audit.Verdict.finding`)."""

    NO_FILE = "no_file"  # `path` does not exist
    DIRECTORY = "directory"  # `path` is a directory
    CANNOT_READ = "cannot_read"  # `path` cannot be read: `error`
    UNREADABLE = "unreadable"  # the file is no log: `detail`, the log layer's own words
    HAND_RECORD = "hand_record"  # `path` is a hand record `export` wrote, not a log
    EMPTY = "empty"  # the log holds no entry
    NOT_GENESIS = "not_genesis"  # entry 0 is no genesis entry: `detail`
    BAD_GENESIS = "bad_genesis"  # the genesis fails `check`: `detail`
    PROOF = "proof"  # a proof of `entry` does not verify
    HALTED = "halted"  # a violation halts the game: `entry`, `check`, `detail`, `seat`, `ended`
    EARLIER_CLAIM = "earlier_claim"  # valid up to `last`, then an earlier release's claim at `at`
    EARLIER_REFUSAL = "earlier_refusal"  # valid up to `last`, then an earlier release's refusal (a hash)
    REJECTED = "rejected"  # `entry` was refused: `check`, `detail`, `seat`
    DROPPED = "dropped"  # `entry` was dropped: `drop`, the table's `Dropped` event
    BROKEN = "broken"  # `entry` is out of sequence
    REPEATED = "repeated"  # `entry` repeats an earlier one
    PENALISED = "penalised"  # complete, but a fault that did not end the game: `entry`, `check`, `detail`,
    # `seat`, and what it cost: the audit's penalty under rule `renege` (`audit`), or only its name (a note)
    COMPLETE = "complete"  # valid and complete: `entries`
    ABANDONED = "abandoned"  # abandoned at entry `last`: `claim`, `ended` (and a `fault`, a PENALISED)
    INCOMPLETE = "incomplete"  # stops after entry `last`: `waiting` (seat, entry type) or None, `claim`
    # (and a `fault`: a PENALISED reason, a fault that did not end the game)
    PARTED = "parted"  # ended at entry `last` by the players' word (a goodbye, a stop): `parted`, the
    # table's `GameEnded`; `ended`, a goodbye's forfeit (and a `fault`, a PENALISED reason)


class Follows(enum.StrEnum):
    """Why a game does not follow another as its genesis `after` says (PROTOCOL.md §4.1.1)."""

    NO_GENESIS = "no_genesis"  # the new log has no readable genesis
    NO_AFTER = "no_after"  # game `game` follows no game
    OLD_UNREADABLE = "old_unreadable"  # the old log has no readable genesis: `old`, its finding
    CHANGES = "changes"  # `changes`: what differs from the old game and breaks the promise of `after`


class Settled(enum.StrEnum):
    """What comparing several players' logs of one game found (`audit.Dispute`)."""

    NO_LOG = "no_log"  # no file is a readable log
    SAME_ID = "same_id"  # `first` and `other` hold different genesis entries for one game id `game`
    OTHER_GAMES = "other_games"  # `first` is game `game`, `other` is game `other_game`
    ORDER = "order"  # the outcome depends on the order: `orders`, (log, its verdict's finding) per reading
    ONLY_LOG = "only_log"  # it is the only readable log
    PREFIX = "prefix"  # every other log is a prefix of it
    TAKEN = "taken"  # the observer takes entry `seq` of the upheld branch: `refused`, (logs, why) per other
    HALTS = "halts"  # the observer halts on a violation: `entry`, `check`, `detail`, `seat`
    EITHER = "either"  # the observer keeps whichever entry `seq` it reads first
    NONE_STANDS = "none_stands"  # no forked entry stands as entry `seq`, and no violation settles the fork
    VIOLATION = "violation"  # (an entry not taken) entry `entry` fails `check`: `detail`, `seat`
    REJECTED = "rejected"  # (an entry not taken) refused: `check`, `detail`, `seat`
    DROPPED = "dropped"  # (an entry not taken) dropped: `drop`
    NOT_TAKEN = "not_taken"  # (an entry not taken) for no reason reported


@dataclass(frozen=True)
class ClaimFacts:
    """An abandonment claim as a log proves it: the seats that voted that `accused` kept the table waiting
    for its `awaited` entry (`seq`) past the timeouts in force (`waits`, seconds), and what came of it: a
    certificate (`claimed`: one that only seats who win by it signed; `stalled`: a stalled ending, with the
    seats that signed nothing), a claim made void by the seats that took the entry first, or the seats yet
    to sign (`missing`)."""

    voters: tuple[int, ...]
    accused: int
    awaited: str | None
    seq: int
    waits: tuple[int, ...]
    certified: bool
    refusers: tuple[int, ...]
    missing: tuple[int, ...]
    claimed: bool = False
    stalled: tuple[int, ...] = ()


@dataclass(frozen=True)
class EndFacts:
    """How a game that ended on a fault of `seat` ends for the sides: `contested` (every signer wins by it:
    nobody wins), void (no `forfeit`), or a forfeit that makes `winners` win; and the fault: the certificate
    of `signers` (an abandonment), or the `check` its violation failed, with the `detail`."""

    seat: int
    contested: bool
    forfeit: bool
    winners: tuple[int, ...]
    abandoned: bool
    signers: tuple[int, ...] = ()
    check: Check | None = None
    detail: str = ""
    scored: bool = False
    """An ending at the game's `end` entry: the game was decided before it, and its result stands."""
    missing: tuple[int, ...] = ()
    """A stalled ending: the seats that signed nothing (contested: nobody wins)."""
    left: bool = False
    """The fault is a goodbye: `seat` left the game (the first of the seats that left), PROTOCOL.md §5.10."""
    answer: tuple[str, int, str] | None = None
    """The accused's own answer that the ending took the slot from, where this log holds it: its entry type,
    its sequence number and the first 16 hex digits of its hash (a claim against a signed answer)."""


class ChangeKind(enum.Enum):
    """How a following game differs from the game it says it follows."""

    OTHER_GAME = "other game"
    """It names another game than the old log's (`new`: the game id it names)."""
    NOT_OVER = "not over"
    """The old game has not ended (in the old log)."""
    NOT_ABANDONED = "not abandoned"
    """A continuation of a game that did not end by a certificate of abandonment, a goodbye or a stop by
    agreement (`old`: how it ended)."""
    NO_SCORES = "no scores"
    """A continuation of a game abandoned before its first scored hand: nothing to carry on."""
    RULE = "rule"
    """A rule option differs (`option`, `old` and `new` values); the target is one."""
    SEAT = "seat"
    """`seat` is held by another key than in the old game (`old`, `new`: `SeatInfo`, None where there was no
    such seat); `was`: where the new key sat in the old game (None: it did not play it)."""
    SCORES = "scores"
    """A continuation starts from other totals than the old game's end (`old`, `new`: `SideTotal`s)."""
    DEALER = "dealer"
    """A continuation's first dealer is not the dealer of the hand the old game did not finish."""
    NO_LOG = "no log"
    """(A joiner's check) It has no log of the old game: nothing could be checked."""
    LOG_UNENDED = "log unended"
    """(A joiner's check) Its log of the old game stops before the end: the scores could not be checked."""


@dataclass(frozen=True)
class Change:
    """One difference (`kind`) between a following game and the game it says it follows."""

    kind: ChangeKind
    game_id: bytes
    """The old game's id."""
    seat: int | None = None
    option: str | None = None
    old: object = None
    new: object = None
    was: int | None = None


@dataclass(frozen=True)
class Said:
    """A reason as an older peer sent it, in its own words: shown as it came (escaped), never translated."""

    text: str


Code: TypeAlias = Refusal | Closing | Objection | Trouble | LobbyDrop | Finding | Follows | Settled


@dataclass(frozen=True)
class Reason:
    """A code and the data its words need, by name (seats, numbers, names, cards, a check's detail)."""

    code: Code
    data: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, code: Code, **data: Any) -> Reason:
        return cls(code, tuple(sorted(data.items())))

    @property
    def args(self) -> Mapping[str, Any]:
        return dict(self.data)

    def plus(self, **data: Any) -> Reason:
        """The same reason with more data."""
        return Reason.of(self.code, **{**self.args, **data})
