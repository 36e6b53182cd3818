"""The one paths module: what the data home is for each profile, and the lock that keeps a profile to one
process at a time."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pspades import paths


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv(paths.ENV_HOME, str(tmp_path / "home"))
    monkeypatch.delenv(paths.ENV_PROFILE, raising=False)
    return tmp_path / "home"


def test_every_path_follows_the_home_and_the_profile(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = bytes.fromhex("00ff" * 8)
    assert paths.data_home() == home
    assert paths.games_dir() == home / "games"
    assert paths.identity_path("ann") == home / "identities" / "ann.key"
    assert paths.default_log_path(game) == home / "logs" / f"{game.hex()}.p2plog"
    assert paths.diagnostics_log() == home / "p2pspades.log"
    assert paths.data_home(profile="bob") == home / "profiles" / "bob"
    monkeypatch.setenv(paths.ENV_PROFILE, "carol")
    assert paths.data_home() == home / "profiles" / "carol"
    assert paths.identity_path("ann") == home / "profiles" / "carol" / "identities" / "ann.key"
    assert paths.data_home(profile="default") == home  # an explicit choice wins over the environment
    assert paths.data_home(home / "elsewhere") == home / "elsewhere"


@pytest.mark.parametrize("name", ["", "../x", "a/b", ".hidden", "x" * 65, "two words"])
def test_a_profile_name_must_be_a_plain_file_name(home: Path, name: str) -> None:
    with pytest.raises(paths.ProfileError, match="a profile name is"):
        paths.data_home(profile=name)


def test_a_profile_is_held_by_one_lock_at_a_time(home: Path) -> None:
    held = paths.lock_profile(profile="bob")
    try:
        with pytest.raises(paths.ProfileInUse, match=r"profile 'bob' is in use.*--profile"):
            paths.lock_profile(profile="bob")
        other = paths.lock_profile(profile="carol")  # another profile is another player
        other.release()
    finally:
        held.release()
    paths.lock_profile(profile="bob").release()  # free again


def test_a_profile_is_known_once_it_has_played_and_the_default_always_is(home: Path) -> None:
    assert paths.known_profile() == "default" and paths.profiles() == ["default"]
    (home / "profiles" / "ghost").mkdir(parents=True)  # what a mistyped name may have left: no profile
    (home / "profiles" / "ghost" / "profile.lock").touch()
    (home / "profiles" / "bea" / "identities").mkdir(parents=True)
    (home / "profiles" / "al" / "logs").mkdir(parents=True)
    (home / "profiles" / "cy").mkdir(parents=True)
    (home / "profiles" / "cy" / "settings.json").write_text("{}")  # `p2pspades config` made it
    assert paths.profiles() == ["default", "al", "bea", "cy"]
    assert paths.known_profile("bea") == "bea"
    for name in ("ghost", "nobody"):
        with pytest.raises(paths.UnknownProfile) as raised:
            paths.known_profile(name)
        assert str(raised.value) == (f"there is no profile {name!r} on this machine; the profiles here are: "
                                     "default, al, bea, cy")
