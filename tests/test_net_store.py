"""The per-game directory: secrets (0600, durable, never contradicted), the seat map, and the log."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from p2pspades import crypto, log
from p2pspades.net.lobby_seats import LobbySeat
from p2pspades.net.store import (
    ENV_HOME,
    GameStore,
    LocalSeat,
    PeersFile,
    StoreError,
    data_home,
    games_of,
    list_games,
)

GAME = bytes(range(16))


def test_secrets_are_private_files_that_survive_a_restart(tmp_path: Path) -> None:
    store = GameStore(GAME, 2, tmp_path)
    store.save_secret(1, b"\x01" * 32)
    store.save_secret(0, b"\x00" * 32)
    store.save_secret(12, b"\x0c" * 32)
    files = sorted(store.secrets_dir.iterdir())
    assert [f.name for f in files] == ["hand-0000", "hand-0001", "hand-0012"]
    for file in files:
        assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o700
    again = GameStore(GAME, 2, tmp_path)
    assert again.load_secrets() == {0: b"\x00" * 32, 1: b"\x01" * 32, 12: b"\x0c" * 32}
    assert GameStore(GAME, 3, tmp_path).load_secrets() == {}


def test_a_hand_secret_is_never_replaced(tmp_path: Path) -> None:
    store = GameStore(GAME, 0, tmp_path)
    store.save_secret(4, b"a" * 32)
    store.save_secret(4, b"a" * 32)  # the same seed again: fine (a resumed peer re-announcing it)
    with pytest.raises(StoreError, match="different seed"):
        store.save_secret(4, b"b" * 32)
    assert store.load_secrets() == {4: b"a" * 32}
    with pytest.raises(StoreError, match="32 bytes"):
        store.save_secret(5, b"short")


def test_damaged_secrets_are_reported(tmp_path: Path) -> None:
    store = GameStore(GAME, 0, tmp_path)
    store.create()
    (store.secrets_dir / "hand-0003").write_bytes(b"cut")
    (store.secrets_dir / ".hand-0004.abc.tmp").write_bytes(b"x")  # a write a crash interrupted
    with pytest.raises(StoreError, match="3 bytes"):
        store.load_secrets()


def test_seat_map_round_trips_and_is_checked(tmp_path: Path) -> None:
    store = GameStore(GAME, 1, tmp_path)
    peers = PeersFile(GAME, 1, "Friday", (
        LobbySeat(0, "Ann", b"\x01" * 32, "tcp://127.0.0.1:5000"),
        LobbySeat(1, "Bo", b"\x02" * 32, "tcp://127.0.0.1:5001"),
    ))
    store.save_peers(peers)
    assert stat.S_IMODE(store.peers_path.stat().st_mode) == 0o600
    assert GameStore(GAME, 1, tmp_path).load_peers() == peers
    with pytest.raises(StoreError, match="another game"):
        GameStore(GAME, 0, tmp_path).save_peers(peers)
    store.peers_path.write_text('{"version": 1, "seats": 3}')
    with pytest.raises(StoreError, match="damaged"):
        store.load_peers()
    store.peers_path.write_text("not json")
    with pytest.raises(StoreError, match="cannot read"):
        store.load_peers()
    with pytest.raises(StoreError, match="does not exist"):
        GameStore(GAME, 3, tmp_path).load_peers()


def test_log_is_kept_per_seat_and_listed(tmp_path: Path) -> None:
    identity = crypto.Identity.generate()
    raw = log.seal({"g": GAME, "h": 0, "n": 0, "p": bytes(32), "s": 0, "t": "x"}, identity)
    store = GameStore(GAME, 0, tmp_path)
    assert store.read_entries() == []
    with store.open_log() as writer:
        writer.append(raw)
    assert GameStore(GAME, 0, tmp_path).read_entries() == [raw]
    GameStore(b"\xee" * 16, 1, tmp_path).create()
    listed = [(s.game_id, s.seat) for s in list_games(tmp_path)]
    assert sorted(listed) == [(GAME, 0), (b"\xee" * 16, 1)]
    assert [s.seat for s in games_of(tmp_path, GAME.hex()[:6])] == [0]


def test_data_home_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_HOME, os.fspath(tmp_path / "env"))
    assert data_home() == tmp_path / "env"
    assert data_home(tmp_path / "arg") == tmp_path / "arg"
    assert GameStore(GAME, 0).path.is_relative_to(tmp_path / "env")
    with pytest.raises(StoreError):
        GameStore(b"x", 0, tmp_path)


def test_how_a_seat_is_run_here_round_trips_and_moves_the_log(tmp_path: Path) -> None:
    store = GameStore(GAME, 2, tmp_path)
    assert store.log_path == store.path / "game.p2plog"
    elsewhere = tmp_path / "kept" / "friday.p2plog"
    local = LocalSeat("/keys/ann.key", "person", "random", 2, str(elsewhere), {"auto": 5.0})
    store.save_local(local)
    assert stat.S_IMODE(store.local_path.stat().st_mode) == 0o600
    again = GameStore(GAME, 2, tmp_path)
    assert again.load_local() == local
    assert again.log_path == elsewhere  # a later `resume` writes where the game began writing
    store.local_path.write_text('{"version": 1, "identity": "x", "player": "ghost", "bot": "b", '
                                '"leader": 0, "log": null, "timeouts": {}}')
    with pytest.raises(StoreError, match="player 'ghost'"):
        GameStore(GAME, 2, tmp_path).load_local()
    store.local_path.write_text('{"version": 1}')
    with pytest.raises(StoreError, match="damaged"):
        GameStore(GAME, 2, tmp_path).load_local()
    with pytest.raises(StoreError, match="cannot be resumed here"):
        GameStore(GAME, 3, tmp_path).load_local()


def test_the_end_of_a_game_and_a_running_writer_are_visible(tmp_path: Path) -> None:
    identity = crypto.Identity.generate()
    store = GameStore(GAME, 0, tmp_path)
    assert store.ended() is None and not store.in_use()
    writer = store.open_log()
    writer.append(log.seal({"g": GAME, "h": 0, "n": 0, "p": bytes(32), "s": 0, "t": "x"}, identity))
    assert store.in_use()  # the writer holds the log's lock
    writer.close()
    assert not store.in_use()
    store.mark_ended("abandoned")
    assert GameStore(GAME, 0, tmp_path).ended() == "abandoned"


def test_entries_from_others_are_written_at_once_and_fsynced_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    identity = crypto.Identity.generate()
    raws = [log.seal({"g": GAME, "h": 0, "n": n, "p": bytes(32), "s": 0, "t": "x"}, identity)
            for n in range(4)]
    store = GameStore(GAME, 0, tmp_path)
    writer = store.open_log()
    fsyncs: list[int] = []
    real = os.fsync

    def counted(fd: int) -> None:
        fsyncs.append(fd)
        real(fd)

    monkeypatch.setattr(os, "fsync", counted)
    for raw in raws[:3]:
        writer.append(raw, sync=False)
    assert fsyncs == [] and writer.unsynced
    assert store.read_entries() == raws[:3]  # written, only not yet forced to the disk
    writer.sync()
    writer.sync()  # nothing new: no second fsync
    assert len(fsyncs) == 1 and not writer.unsynced
    writer.append(raws[3])  # the default stays one fsync per entry
    assert len(fsyncs) == 2
    writer.append(raws[0], sync=False)
    writer.close()  # closing makes the last entries durable too
    assert len(fsyncs) == 3


def test_a_seat_directory_from_before_logs_had_their_extension_keeps_its_log(tmp_path: Path) -> None:
    store = GameStore(GAME, 1, tmp_path)
    store.create()
    (store.path / "log").write_bytes(b"P2PSLOG1")
    assert GameStore(GAME, 1, tmp_path).log_path == store.path / "log"
