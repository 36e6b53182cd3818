"""Where p2pspades keeps things: the one place that knows the directory layout.

A *data home* holds everything of one player::

    identities/player.key     Ed25519 key (0600) of the person this home is, whatever name they sit under
    identities/<name>.key     those of the bot seats we host (and, in a home from before, of each name used)
    games/<game id>/seat-<n>/ what a seat needs to resume: log, seat map, hand secrets (net/store.py)
    logs/<game id>.p2plog     the logs of in-memory games (`play --local`)
    p2pspades.log             warnings, while the full-screen UI holds the terminal
    settings.json             what `p2pspades config` keeps: the language the profile speaks
    profile.lock              held by the process that uses this home, so no other one signs with its keys

The default home is `$P2PSPADES_HOME`, else the platform's user data directory. A *profile* is another
player on the same machine (or the same person with another key): profile NAME lives in
`<default home>/profiles/NAME`. It is chosen by `--profile NAME` or `$P2PSPADES_PROFILE`; "default" is the
default home itself.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import platformdirs

from p2pspades.errors import N_, LocalError
from p2pspades.files import FileLock

APP = "p2pspades"
ENV_HOME = "P2PSPADES_HOME"
ENV_PROFILE = "P2PSPADES_PROFILE"
DEFAULT_PROFILE = "default"
NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}")
"""A file-name-safe name (of an identity or a profile): no separators, not hidden, at most 64 characters."""

PLAYER_IDENTITY = "player"
"""The identity of the person a profile is: its key, hence its fingerprint, never depends on `--name`."""

Home = str | os.PathLike[str] | None
"""A data home given explicitly, or None for the selected profile's."""


class ProfileError(LocalError):
    """A profile name that is not usable, or a profile that another process is using."""


class ProfileInUse(ProfileError):
    """Another running process holds this profile (its identity would sign twice)."""


class UnknownProfile(ProfileError):
    """A command that reads a profile (its games, its record) was given one that was never used here."""


_BAD_NAMES = {
    "profile": N_("a profile name is 1-64 letters, digits, '.', '_' or '-' (not starting with '.'), got "
                  "{name!r}"),
    "identity": N_("an identity name is 1-64 letters, digits, '.', '_' or '-' (not starting with '.'), got "
                   "{name!r}"),
}


def check_name(name: str, what: str = "profile") -> str:
    """`name` if it is one for a `what` ("profile" or "identity"), else `ProfileError`."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise ProfileError(_BAD_NAMES[what], name=name)
    return name


def profile_name(profile: str | None = None) -> str:
    """The selected profile: `profile` if given, else `$P2PSPADES_PROFILE`, else "default"."""
    name = profile if profile is not None else os.environ.get(ENV_PROFILE) or DEFAULT_PROFILE
    return check_name(name)


def base_home() -> Path:
    """The default profile's data home: `$P2PSPADES_HOME`, else the platform's user data directory."""
    env = os.environ.get(ENV_HOME)
    return Path(env) if env else Path(platformdirs.user_data_dir(APP))


def data_home(home: Home = None, *, profile: str | None = None) -> Path:
    """The data home: `home` if given, else the selected profile's (see `profile_name`)."""
    if home is not None:
        return Path(home)
    name = profile_name(profile)
    return base_home() if name == DEFAULT_PROFILE else base_home() / "profiles" / name


def identity_path(name: str = "default", home: Home = None) -> Path:
    """The key file of the identity called `name` in the data home."""
    check_name(name, "identity")
    root = data_home(home)
    path = root / "identities" / f"{name}.key"
    if root == Path(platformdirs.user_data_dir(APP)) and not path.exists():
        # Before there was one data home, keys were kept in the platform's config directory: keep using
        # one that is there, rather than make its owner a stranger to the games it played.
        legacy = Path(platformdirs.user_config_dir(APP)) / "identities" / f"{name}.key"
        if legacy.exists():
            return legacy
    return path


PROFILE_MARKS = ("identities", "games", "logs", "settings.json")
"""What a data home that has been played from (or set up with `p2pspades config`) holds: a directory that
holds none of them, say one a mistyped name left behind with only its lock file, is no profile."""


def profiles() -> list[str]:
    """The profiles of this machine: "default" (always), then every other that has been played, by name."""
    root = base_home() / "profiles"
    try:
        found = sorted(d.name for d in root.iterdir() if NAME.fullmatch(d.name) and _played(d))
    except OSError:  # no profile but the default yet (or a directory that cannot be read)
        found = []
    return [DEFAULT_PROFILE, *(name for name in found if name != DEFAULT_PROFILE)]


def _played(home: Path) -> bool:
    return any((home / mark).exists() for mark in PROFILE_MARKS)


def known_profile(profile: str | None = None) -> str:
    """The selected profile's name (see `profile_name`), for a command that reads what it played:
    `UnknownProfile`, in one line listing the profiles there are, if it was never used on this machine (a
    typo would otherwise read as a profile with no games). The default profile is always known."""
    name = profile_name(profile)
    if name != DEFAULT_PROFILE and not _played(data_home(profile=name)):
        raise UnknownProfile(N_("there is no profile {name!r} on this machine; the profiles here are: "
                                "{profiles}"), name=name, profiles=", ".join(profiles()))
    return name


def games_dir(home: Home = None) -> Path:
    return data_home(home) / "games"


def logs_dir(home: Home = None) -> Path:
    """Where the logs of in-memory games go."""
    return data_home(home) / "logs"


def default_log_path(game_id: bytes, home: Home = None) -> Path:
    """Where a game's log goes when no `--log` is given and no seat directory holds it."""
    return logs_dir(home) / f"{game_id.hex()}.p2plog"


def diagnostics_log(home: Home = None) -> Path:
    """The file warnings go to while the full-screen UI holds the terminal."""
    return data_home(home) / "p2pspades.log"


def settings_path(home: Home = None) -> Path:
    """The profile's settings (`p2pspades config`): its language."""
    return data_home(home) / "settings.json"


def lock_profile(home: Home = None, *, profile: str | None = None) -> FileLock:
    """Hold the data home for this process: `ProfileInUse`, naming `--profile`, if another process does.

    The lock is held until the returned lock is released or the process ends, however abruptly.
    """
    root = data_home(home, profile=profile)
    lock = FileLock(root / "profile.lock")
    try:
        acquired = lock.acquire()
    except OSError as exc:
        raise ProfileError(N_("cannot use the data directory {path}: {why}"), path=root,
                           why=exc.strerror or exc) from None
    if not acquired:
        name = profile_name(profile) if home is None else str(root)
        raise ProfileInUse(N_("profile {name!r} is in use by another p2pspades process (its identity cannot "
                              "play twice); choose another with --profile NAME"), name=name)
    return lock
