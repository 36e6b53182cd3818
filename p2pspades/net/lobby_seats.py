"""The values the lobby agrees on: a seat at a networked table, the table so far, and the agreed result.

Pure, like `net/lobby_machine.py`: no sockets, clocks or randomness (it only imports the pure layers and the
endpoint parser).

There are three seat types in p2pspades, each a different concept:

- `table.SeatInfo`: a seat as the signed genesis fixes it (number, name, key): what the game and the verifier
  know.
- `LobbySeat` (here): a seat at a table on the network: the genesis fields plus where its peer listens and,
  for a bot, whose machine runs it (that machine can read the bot's cards). The lobby, the lobby screen and a
  game's `peers.json` all use it.
- `net.seats.Seat`: how this process plays one of its seats (identity, person or bot, log path); its saved
  form for `resume` is `net.store.LocalSeat`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from p2pspades import crypto, log
from p2pspades.describe.lobby import said
from p2pspades.errors import N_, Detail, P2PSpadesError
from p2pspades.net import endpoints
from p2pspades.reasons import Closing, Reason, Refusal, Said, Trouble
from p2pspades.rules import RuleSet
from p2pspades.table.genesis import After
from p2pspades.table.messages import PROTOCOL_VERSION, SUPPORTED_VERSIONS

NAME_LIMIT = 32


class LobbyError(P2PSpadesError):
    """The lobby could not seat us (refused, declined, cancelled, no answer, the host misbehaved), or refused
    a request of our own player: `reason`, a `Trouble` code and its data; the message is its words
    (`describe.lobby`)."""

    def __init__(self, trouble: Trouble, **data: Any) -> None:
        self.reason = Reason.of(trouble, **data)
        super().__init__(said(self.reason))


class TableRefused(LobbyError):
    """The host refused our join (the table is full, our name is bad, ...): `why`, its `Refusal` code (or an
    older host's own words); `owner` and `game` name the bot's owner and the game a table carries on."""

    def __init__(self, why: Refusal | Said, **data: Any) -> None:
        super().__init__(Trouble.REFUSED, why=why, **data)
        self.why = why


class TableClosed(LobbyError):
    """The host closed the table before the game started: `why`, its `Closing` code (or an older host's own
    words)."""

    def __init__(self, why: Closing | Said) -> None:
        super().__init__(Trouble.CLOSED, why=why)
        self.why = why


class Downgrade(LobbyError):
    """The host proposes a protocol version older than the oldest this player allows (by default the newest
    this program speaks): a downgrade, refused unless the person asked for it."""

    def __init__(self, version: int, allowed: int) -> None:
        newest = allowed == PROTOCOL_VERSION
        super().__init__(Trouble.DOWNGRADE, version=version, allowed=allowed, newest=newest)
        self.version = version
        self.allowed = allowed


def check_version(version: object) -> int:
    """A protocol version this program speaks (`ValueError` otherwise)."""
    if type(version) is not int or version not in SUPPORTED_VERSIONS:
        *known, last = SUPPORTED_VERSIONS
        why = Detail(N_("protocol version {version} is not supported (versions {known} and {last} are)"),
                     version=str(version)[:10], known=", ".join(map(str, known)), last=last)
        raise ValueError(why)
    return version


def check_name(name: object) -> str:
    """A player or table name: 1..32 printable characters, no control characters."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_LIMIT or not name.isprintable():
        raise ValueError(Detail(N_("a name is 1..{most} printable characters, not {name}"), most=NAME_LIMIT,
                                name=repr(name)[:80]))
    return name


def check_endpoint(endpoint: object) -> str:
    """A game endpoint others can connect to: tcp://HOST:PORT (no wildcard host or port)."""
    parsed = endpoints.parse(endpoint) if isinstance(endpoint, str) else None
    if parsed is None or parsed.host in endpoints.WILDCARDS:
        why = Detail(N_("an endpoint is tcp://HOST:PORT, not {endpoint}"), endpoint=repr(endpoint)[:80])
        raise ValueError(why)
    return endpoint  # type: ignore[return-value]


def check_key(key: object) -> bytes:
    if type(key) is not bytes:
        raise ValueError(Detail(N_("a public key is 32 bytes")))
    return crypto.check_public_key(key)  # WeakKey is a ValueError: weak keys are refused like bad frames


def distinct_name(name: str, taken: set[str]) -> str:
    """`name`, or `name (2)`, `name (3)`, ... : the first that nobody at the table has yet."""
    if name not in taken:
        return name
    k = 2
    while True:
        suffix = f" ({k})"
        candidate = name[: NAME_LIMIT - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
        k += 1


@dataclass(frozen=True)
class LobbySeat:
    """A seat at a table on the network: who (name, key), where its peer listens, and who runs it.

    `owner` is None for a person's seat; for a bot it is the key of the player whose machine runs the bot,
    and who can therefore read the bot's cards.
    """

    seat: int
    name: str
    public_key: bytes
    endpoint: str
    owner: bytes | None = None

    @property
    def bot(self) -> bool:
        return self.owner is not None

    @property
    def fingerprint(self) -> str:
        return crypto.fingerprint(self.public_key)


@dataclass(frozen=True)
class TableInfo:
    """A table as its host announces it: what is played and who sits where so far."""

    name: str
    rules: RuleSet
    host_key: bytes
    lobby: bytes
    """A random id of this lobby, which every join and accept names, so they cannot be replayed elsewhere."""
    seated: tuple[LobbySeat, ...]
    version: int = PROTOCOL_VERSION
    """The protocol version of the game's genesis (PROTOCOL.md §4.1)."""
    after: After | None = None
    """The game this table's game follows, as its genesis will say (PROTOCOL.md §4.1.1): a rematch of it,
    or its continuation from its scores."""

    @property
    def seats(self) -> int:
        return self.rules.players

    @property
    def free(self) -> int:
        return self.seats - len(self.seated)

    @property
    def host_fingerprint(self) -> str:
        return crypto.fingerprint(self.host_key)

    def seat_of(self, key: bytes) -> int | None:
        return next((s.seat for s in self.seated if s.public_key == key), None)

    def at(self, seat: int) -> LobbySeat | None:
        return next((s for s in self.seated if s.seat == seat), None)

    def owner_name(self, seat: LobbySeat) -> str | None:
        """The name of the player whose machine runs the bot `seat` (None for a person's seat, or for an
        owner no longer seated)."""
        return None if seat.owner is None else self.name_of(seat.owner)

    def name_of(self, key: bytes) -> str | None:
        """The name seated with `key`, if any."""
        return next((s.name for s in self.seated if s.public_key == key), None)


@dataclass(frozen=True)
class Sequel:
    """A table for the game after another (PROTOCOL.md §4.1.1): what its genesis says it follows (`after`),
    the seat each key held in that game (`places`: each gets its seat back), and whether only those keys
    may sit (`only_places`: a continuation)."""

    after: After
    places: Mapping[bytes, int] = field(default_factory=dict)
    only_places: bool = False


@dataclass(frozen=True)
class LobbyResult:
    """The agreed table: our seat, every seat, and the genesis everyone accepted."""

    seat: int
    table: TableInfo
    genesis: bytes
    game_id: bytes

    @property
    def genesis_hash(self) -> bytes:
        return log.entry_hash(self.genesis)
