"""What a peer keeps on disk for one game, so that it can resume after a crash.

Layout, under the data home (the profile's, see `p2pspades.paths`, or a path given explicitly)::

    games/<game id hex>/seat-<n>/
        game.p2plog       the signed entries, each on disk before any later entry of ours is sent (LogWriter);
                          `log` in directories made before logs were named for what they are
        peers.json        the seat map: names, keys, endpoints (to reconnect on resume)
        local.json        how this machine runs the seat: identity file, person or bot, log path, timeouts
        secrets/hand-<k>  one 32-byte hand seed per file, mode 0600, on disk before its commitment is sent
        ended             written when the game is over ("complete", "abandoned", "violation", "left",
                          "stopped")
        unanswered        written when a resume heard no other seat and gave up (the seconds it waited);
                          removed once a resume syncs again

The seat is part of the path because several peers of one game may run on one machine (bots, tests, four
terminals), and each must keep its own secrets.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from p2pspades import paths
from p2pspades.errors import N_, LocalError
from p2pspades.files import is_locked, write_private
from p2pspades.log import LogWriter, read_log
from p2pspades.net.lobby_seats import LobbySeat

log = logging.getLogger(__name__)

ENV_HOME = paths.ENV_HOME
SEED_BYTES = 32
LOG_NAME = "game.p2plog"
LEGACY_LOG_NAME = "log"
PEERS_VERSION = 1
_SECRET_NAME = re.compile(r"hand-(\d{4,9})")
_GAME_DIR = re.compile(r"[0-9a-f]{16,128}")
_SEAT_DIR = re.compile(r"seat-(\d)")


class StoreError(LocalError):
    """A game directory cannot be used (unreadable, damaged, or about to contradict itself)."""


data_home = paths.data_home


@dataclass(frozen=True)
class PeersFile:
    """The contents of peers.json: who sits where, and which seat is ours."""

    game_id: bytes
    seat: int
    table: str
    seats: tuple[LobbySeat, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "version": PEERS_VERSION,
            "game_id": self.game_id.hex(),
            "seat": self.seat,
            "table": self.table,
            "seats": [
                {"seat": s.seat, "name": s.name, "public_key": s.public_key.hex(), "endpoint": s.endpoint}
                | ({} if s.owner is None else {"owner": s.owner.hex()})
                for s in self.seats
            ],
        }

    @classmethod
    def from_json(cls, data: Any) -> PeersFile:
        """Parse peers.json; `StoreError` naming the bad field otherwise."""
        try:
            if data["version"] != PEERS_VERSION:
                raise StoreError(N_("peers.json version {version} is not {expected}"),
                                 version=repr(data['version']), expected=PEERS_VERSION)
            seats = tuple(
                LobbySeat(int(s["seat"]), str(s["name"]), bytes.fromhex(s["public_key"]), str(s["endpoint"]),
                          bytes.fromhex(s["owner"]) if s.get("owner") else None)
                for s in data["seats"]
            )
            record = cls(bytes.fromhex(data["game_id"]), int(data["seat"]), str(data["table"]), seats)
        except StoreError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(N_("{file} is damaged ({why})"), file="peers.json",
                             why=f"{type(exc).__name__}: {exc}") from None
        if [s.seat for s in seats] != list(range(len(seats))) or not 0 <= record.seat < len(seats):
            raise StoreError(N_("peers.json does not list seats 0..n-1 with ours among them"))
        return record


LOCAL_VERSION = 1
PLAYER_KINDS = ("person", "bot")


@dataclass(frozen=True)
class LocalSeat:
    """How this machine runs one seat (local.json): what `resume` needs besides the log and the secrets."""

    identity: str
    """The identity key file that signs for the seat."""
    player: str = "bot"
    """"person" (the UI, or the built-in bot with --auto) or "bot" (a bot seat the host runs)."""
    bot: str = "heuristic"
    leader: int = 0
    """The seat whose process runs this one: itself, or the host's seat for the host's bot seats."""
    log: str | None = None
    """The log file, if it is not the one in the seat directory."""
    timeouts: Mapping[str, float] = field(default_factory=dict)
    lobby: str | None = None
    """The table's lobby (HOST:PORT) a joiner sat down through, for the 'join with:' line a resumed game
    prints at its end; left out of local.json when unknown."""
    again: tuple[str, ...] = ()
    """The table's part of the command that plays again once the game is over (`cli.again.again_lines`:
    "host --port 45555 ...", "join HOST:PORT ...", "play --rules two ..."), so that a resumed game prints
    it too; left out of local.json when there is none (a bot seat)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "version": LOCAL_VERSION,
            "identity": self.identity,
            "player": self.player,
            "bot": self.bot,
            "leader": self.leader,
            "log": self.log,
            "timeouts": dict(self.timeouts),
        }
        if self.lobby is not None:
            out["lobby"] = self.lobby
        if self.again:
            out["again"] = list(self.again)
        return out

    @classmethod
    def from_json(cls, data: Any) -> LocalSeat:
        """Parse local.json; `StoreError` naming the problem otherwise."""
        try:
            if data["version"] != LOCAL_VERSION:
                raise StoreError(N_("local.json version {version} is not {expected}"),
                                 version=repr(data['version']), expected=LOCAL_VERSION)
            timeouts = {str(k): float(v) for k, v in dict(data["timeouts"]).items()}
            lobby = data.get("lobby")
            again = data.get("again", [])
            if not isinstance(again, list) or not all(isinstance(word, str) for word in again):
                raise StoreError(N_("local.json: 'again' is not a list of words"))
            seat = cls(str(data["identity"]), str(data["player"]), str(data["bot"]), int(data["leader"]),
                       None if data["log"] is None else str(data["log"]), timeouts,
                       None if lobby is None else str(lobby), tuple(again))
        except StoreError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(N_("{file} is damaged ({why})"), file="local.json",
                             why=f"{type(exc).__name__}: {exc}") from None
        if seat.player not in PLAYER_KINDS:
            raise StoreError(N_("local.json: player {player} is not one of {kinds}"),
                             player=repr(seat.player), kinds=', '.join(PLAYER_KINDS))
        return seat


class GameStore:
    """One peer's directory for one game."""

    def __init__(self, game_id: bytes, seat: int, home: str | os.PathLike[str] | None = None,
                 *, log_path: str | os.PathLike[str] | None = None) -> None:
        if not isinstance(game_id, bytes) or not 8 <= len(game_id) <= 64:
            raise StoreError(N_("a game id is 8..64 bytes"))
        if not 0 <= seat <= 9:
            raise StoreError(N_("seat {seat} is out of range"), seat=seat)
        self.game_id = game_id
        self.seat = seat
        self.path = paths.games_dir(home) / game_id.hex() / f"seat-{seat}"
        self._log_path = Path(log_path).absolute() if log_path is not None else None

    def __repr__(self) -> str:
        return f"GameStore({self.path})"

    @property
    def log_path(self) -> Path:
        """The game's log: the path given, else the one local.json names, else the seat directory's."""
        if self._log_path is None:
            local = self._local_or_none()
            if local is not None and local.log is not None:
                self._log_path = Path(local.log)
        if self._log_path is not None:
            return self._log_path
        legacy = self.path / LEGACY_LOG_NAME
        return legacy if legacy.exists() else self.path / LOG_NAME

    @property
    def local_path(self) -> Path:
        return self.path / "local.json"

    @property
    def ended_path(self) -> Path:
        return self.path / "ended"

    @property
    def peers_path(self) -> Path:
        return self.path / "peers.json"

    @property
    def secrets_dir(self) -> Path:
        return self.path / "secrets"

    def create(self) -> None:
        """Make the directories (mode 0700: hand secrets live here)."""
        for directory in (self.path, self.secrets_dir):
            try:
                directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(N_("cannot create {path}: {why}"), path=directory,
                                 why=exc.strerror) from None

    # ---------------------------------------------------------------------------------------------- log

    def open_log(self) -> LogWriter:
        """The writer for this game's log (created if new; a torn tail from a crash is cut off)."""
        self.create()
        try:
            return LogWriter(self.log_path)
        except OSError as exc:
            raise StoreError(N_("cannot write the log {path}: {why}"), path=self.log_path,
                             why=exc.strerror or exc) from None

    def in_use(self) -> bool:
        """Whether a running peer holds this game's log open for writing (it locks the file)."""
        return is_locked(self.log_path)

    # ---------------------------------------------------------------------------------------------- ending

    def mark_ended(self, status: str) -> None:
        """Note that the game is over here ("complete", "abandoned", "violation", "left", "stopped"): nothing
        to resume."""
        self.create()
        _write_private(self.ended_path, status.encode() + b"\n", replace=True)

    def ended(self) -> str | None:
        """How the game ended, if this seat saw it end; None while it can still be resumed."""
        try:
            return self.ended_path.read_text(encoding="utf-8").strip() or "ended"
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise StoreError(N_("cannot read {path}: {why}"), path=self.ended_path, why=exc) from None

    @property
    def unanswered_path(self) -> Path:
        return self.path / "unanswered"

    def mark_unanswered(self, waited: float) -> None:
        """Note that a resume heard no other seat within `waited` seconds and gave up: the game may have
        ended without this seat, so nothing offers to resume it again (an explicit `resume GAME_ID` may)."""
        self.create()
        _write_private(self.unanswered_path, f"{waited:g}\n".encode(), replace=True)

    def unanswered(self) -> float | None:
        """When a resume of this seat last gave up unanswered (seconds since the epoch), or None."""
        try:
            return self.unanswered_path.stat().st_mtime
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(N_("cannot read {path}: {why}"), path=self.unanswered_path,
                             why=exc.strerror) from None

    def clear_unanswered(self) -> None:
        try:
            self.unanswered_path.unlink(missing_ok=True)
        except OSError as exc:
            raise StoreError(N_("cannot remove {path}: {why}"), path=self.unanswered_path,
                             why=exc.strerror) from None

    def read_entries(self) -> list[bytes]:
        """Every complete entry of the log, in order (none if there is no log yet)."""
        if not self.log_path.exists():
            return []
        return read_log(self.log_path).frames

    # ---------------------------------------------------------------------------------------------- secrets

    def save_secret(self, hand: int, seed: bytes) -> None:
        """Persist a hand seed durably (0600, fsync'd, atomic) before anything commits to it.

        Saving the same seed again is harmless; a different seed for a hand already saved is refused, because
        using it would make this peer sign two different commitments (equivocation).
        """
        if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
            raise StoreError(N_("a hand seed is {size} bytes"), size=SEED_BYTES)
        if not 0 <= hand < 10**9:
            raise StoreError(N_("hand number {hand} is out of range"), hand=hand)
        self.create()
        target = self.secrets_dir / f"hand-{hand:04d}"
        existing = self._read_secret(target) if target.exists() else None
        if existing is not None:
            if existing != seed:
                raise StoreError(N_("{target} already holds a different seed for hand {hand}"),
                                 target=target, hand=hand)
            return
        _write_private(target, seed)

    def load_secrets(self) -> dict[int, bytes]:
        """Every saved hand seed, by hand number."""
        found: dict[int, bytes] = {}
        if not self.secrets_dir.is_dir():
            return found
        for entry in sorted(self.secrets_dir.iterdir()):
            match = _SECRET_NAME.fullmatch(entry.name)
            if match is None:
                if not entry.name.startswith("."):
                    log.warning("ignoring %s: not a hand secret", entry)
                continue
            found[int(match.group(1))] = self._read_secret(entry)
        return found

    @staticmethod
    def _read_secret(path: Path) -> bytes:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise StoreError(N_("cannot read {path}: {why}"), path=path, why=exc.strerror) from None
        if len(data) != SEED_BYTES:
            raise StoreError(N_("{path} holds {count} bytes, not a {size}-byte hand seed"), path=path,
                             count=len(data), size=SEED_BYTES)
        return data

    # ---------------------------------------------------------------------------------------------- peers

    def save_peers(self, peers: PeersFile) -> None:
        if peers.game_id != self.game_id or peers.seat != self.seat:
            raise StoreError(N_("that seat map belongs to another game or seat"))
        self.create()
        _write_private(self.peers_path, json.dumps(peers.to_json(), indent=2).encode() + b"\n", replace=True)

    def load_peers(self) -> PeersFile:
        try:
            data = json.loads(self.peers_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise StoreError(N_("{path} does not exist: this game cannot be resumed here"),
                             path=self.peers_path) from None
        except (OSError, ValueError) as exc:
            raise StoreError(N_("cannot read {path}: {why}"), path=self.peers_path, why=str(exc)) from None
        peers = PeersFile.from_json(data)
        if peers.game_id != self.game_id or peers.seat != self.seat:
            raise StoreError(N_("{path} belongs to another game or seat"), path=self.peers_path)
        return peers


    # ---------------------------------------------------------------------------------------------- local

    def save_local(self, local: LocalSeat) -> None:
        """Record how this machine runs the seat (and where its log is)."""
        self.create()
        _write_private(self.local_path, json.dumps(local.to_json(), indent=2).encode() + b"\n", replace=True)
        if local.log is not None:
            self._log_path = Path(local.log)

    def load_local(self) -> LocalSeat:
        local = self._local_or_none()
        if local is None:
            raise StoreError(N_("{path} does not exist: this seat was not started by this machine's "
                                "p2pspades commands, so it cannot be resumed here"), path=self.local_path)
        return local

    def _local_or_none(self) -> LocalSeat | None:
        try:
            data = json.loads(self.local_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise StoreError(N_("cannot read {path}: {why}"), path=self.local_path, why=str(exc)) from None
        return LocalSeat.from_json(data)


def list_games(home: str | os.PathLike[str] | None = None) -> list[GameStore]:
    """Every (game, seat) directory under the data home, least recently changed game first."""
    root = paths.games_dir(home)
    found: list[GameStore] = []
    if not root.is_dir():
        return found
    for game in sorted(root.iterdir(), key=_mtime):
        if not _GAME_DIR.fullmatch(game.name):
            continue
        for seat_dir in sorted(game.iterdir()):
            match = _SEAT_DIR.fullmatch(seat_dir.name)
            if match is not None:
                found.append(GameStore(bytes.fromhex(game.name), int(match.group(1)), home))
    return found


@dataclass(frozen=True)
class OurLog:
    """A log of a game this data home's person played (for `games` and `stats`)."""

    path: Path
    seat: int | None
    """Our seat; None if the seat directory cannot be read (`problem` says why)."""
    when: float
    """When the log was last written (seconds since the epoch; 0 if it cannot be told)."""
    running: bool = False
    """A peer holds the log open for writing: the game is being played."""
    problem: str | None = None
    unanswered: float | None = None
    """When a resume of it last heard nobody and gave up (seconds since the epoch; None: never)."""


def our_logs(home: str | os.PathLike[str] | None = None) -> list[OurLog]:
    """The logs of the games the person of this data home played: its own seat of each game directory (not
    the bot seats it ran), and the in-memory games of `play --local`, whose seat 0 is ours."""
    found: list[OurLog] = []
    for store in list_games(home):
        try:
            local = store.load_local()
        except StoreError as exc:
            found.append(OurLog(store.path, None, _mtime(store.path), problem=str(exc)))
            continue
        if local.player != "person":
            continue
        path = store.log_path
        try:
            unanswered = store.unanswered()
        except StoreError:
            unanswered = None  # the log still says how the game stands
        found.append(OurLog(path, store.seat, _mtime(path), running=store.in_use(), unanswered=unanswered))
    logs = paths.logs_dir(home)
    if logs.is_dir():
        for path in sorted(logs.glob("*.p2plog")):
            found.append(OurLog(path, 0, _mtime(path), running=is_locked(path)))
    return found


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _write_private(target: Path, data: bytes, *, replace: bool = False) -> None:
    try:
        written = write_private(target, data, replace=replace)
    except OSError as exc:
        raise StoreError(N_("cannot write {target}: {strerror}"), target=target,
                         strerror=exc.strerror) from None
    if not written:
        raise StoreError(N_("{target} appeared while it was being written"), target=target)


def games_of(home: str | os.PathLike[str] | None, game_id_prefix: str) -> Iterator[GameStore]:
    """The game directories whose id starts with `game_id_prefix` (hex), for `resume GAME_ID`."""
    prefix = game_id_prefix.lower()
    return (store for store in list_games(home) if store.game_id.hex().startswith(prefix))
