"""How this process plays its seats: identities kept under a name, the built-in bots, and `Seat`.

A `Seat` is one seat this process runs (a person's, played through the UI or by the bot with --auto, or a bot
seat); `net.store.LocalSeat` is what of it is saved for `resume`. The seat as the lobby and the other peers
see it is a `net.lobby_seats.LobbySeat`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from p2pspades import bots, crypto, paths
from p2pspades.bots import DEFAULT_BOT, UnknownBot, thinking
from p2pspades.errors import N_, P2PSpadesError, detail_of
from p2pspades.files import write_private
from p2pspades.net.peer import Player
from p2pspades.net.store import LocalSeat


class SessionError(P2PSpadesError):
    """A game cannot be started, joined or resumed here; the message says why and what to do."""


def make_bot(kind: str = DEFAULT_BOT, seed: int | bytes | None = None) -> Player:
    """The built-in bot of that level (`BOT_LEVELS`) for a peer, seeded from `seed` or at random. It thinks
    in a worker thread, so the peer's event loop keeps running meanwhile."""
    try:
        return thinking(bots.make_bot(kind, seed))
    except UnknownBot as exc:
        raise SessionError(detail_of(exc)) from None


def identity_name(player_name: str) -> str:
    """The identity file name for a player name: letters, digits, '-', '_' ("Ann Smith" -> "ann-smith")."""
    slug = re.sub(r"[^a-z0-9_-]+", "-", player_name.lower()).strip("-")[:48]
    return slug or "default"


def load_identity(name: str, home: str | os.PathLike[str] | None = None) -> tuple[crypto.Identity, Path]:
    """The persistent identity called `name` in the data home (created on first use), and its key file."""
    path = crypto.default_identity_path(name, home)
    try:
        return crypto.Identity.load_or_create(path), path
    except (OSError, ValueError) as exc:
        raise SessionError(N_("cannot use the identity {path}: {why}"), path=path, why=exc) from None


BOT_KEY = re.compile(r".+-bot\d+\.key")
"""The key file of a bot seat (`bot_seats`), never a person's."""


def player_identity(profile: str, name: str,
                    home: str | os.PathLike[str] | None = None) -> tuple[crypto.Identity, Path]:
    """The identity of the person the profile `profile` is (created on first use), and its key file.

    A data home from before kept a person's key under each name it played as (`identities/<name>.key`).
    The first time, the key of the profile's own name `name` is adopted (or the only person's key there is),
    copied, not moved, so that games saved with the old file resume; friends keep the fingerprint they know.
    A key that cannot be read is a `SessionError` naming the profile and the file.
    """
    path = crypto.default_identity_path(paths.PLAYER_IDENTITY, home)
    try:
        if not path.exists():
            former = _former_key(path.parent, crypto.default_identity_path(identity_name(name), home))
            if former is not None:
                crypto.Identity.load(former)  # a key that is not one is not copied
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                write_private(path, former.read_bytes())
        return crypto.Identity.load_or_create(path), path
    except (OSError, ValueError) as exc:
        raise SessionError(N_("profile {profile!r} cannot be used: {why}"), profile=profile,
                           why=exc) from None


def _former_key(folder: Path, named: Path) -> Path | None:
    """The person's key a data home from before holds: the one of the profile's name, else the only one."""
    if named.is_file():
        return named
    people = sorted(p for p in folder.glob("*.key") if not BOT_KEY.fullmatch(p.name))
    return people[0] if len(people) == 1 else None


@dataclass
class Seat:
    """A seat this process runs: who signs for it, who decides its moves, and what `resume` must know."""

    identity: crypto.Identity
    identity_path: Path
    name: str | None
    """None for a bot named after the seat it gets (West, North, East, ...)."""
    player: Player | None = None
    """Who decides (None: nobody yet; the UI sets it). A bot seat's bot is made when its game starts."""
    person: bool = True
    """A person's seat (the UI, or the built-in bot with --auto), or a bot seat this process runs."""
    bot: str = DEFAULT_BOT
    """Which built-in bot plays a bot seat (or a person's with --auto)."""
    seed: int | bytes | None = None
    log_path: str | None = None
    lobby: str | None = None
    """The lobby (HOST:PORT) a joiner sat down through, kept for the 'join with:' line of a resumed game."""
    again: tuple[str, ...] = ()
    """The table's part of the command that plays again (`LocalSeat.again`), kept for a resumed game."""

    def saved(self, leader: int, timeouts: dict[str, float]) -> LocalSeat:
        """What `resume` needs to run this seat again (leader: the seat whose process runs it)."""
        return LocalSeat(str(self.identity_path), "person" if self.person else "bot", self.bot, leader,
                         self.log_path, dict(timeouts), self.lobby, self.again)


def bot_seats(count: int, owner: str, kind: str = DEFAULT_BOT, seed: int | None = None, *, first: int = 1,
              home: str | os.PathLike[str] | None = None) -> list[Seat]:
    """`count` bot seats with persistent identities named after their owner's (`<owner>-bot1`, ...)."""
    bots = []
    for k in range(first, first + count):
        identity, path = load_identity(f"{owner}-bot{k}", home)
        bot_seed = None if seed is None else seed * 10 + k
        bots.append(Seat(identity, path, None, None, person=False, bot=kind, seed=bot_seed))
    return bots


def check_log_path(path: str | None) -> str | None:
    """A `--log` path we may create: absolute, not an existing file (it would mix two games)."""
    if path is None:
        return None
    target = Path(path).expanduser().absolute()
    if target.exists():
        raise SessionError(N_("{path} already exists: give a new file for this game's log"), path=target)
    if target.parent.exists() and not target.parent.is_dir():
        raise SessionError(N_("{path} is not a directory"), path=target.parent)
    return str(target)
