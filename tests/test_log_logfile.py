"""The log file: entries are durable once appended, a crash leaves at most a torn tail that is reported and
repaired, and no damage to the file passes for a valid log."""

from __future__ import annotations

import functools
import os
import random
import stat
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from p2pspades.crypto import Identity
from p2pspades.log import (
    FRAME_HEADER_SIZE,
    MAGIC,
    MAX_ENVELOPE,
    ZERO_HASH,
    BadSignature,
    DecodeError,
    Header,
    LogError,
    LogFormatError,
    LogWriter,
    TornTail,
    check_signature,
    entry_hash,
    open_envelope,
    parse_log,
    read_log,
    seal,
    validate_header,
)

SEATS = (Identity.from_seed(bytes(range(32))), Identity.from_seed(bytes(range(32, 64))))
KEYS = tuple(identity.public for identity in SEATS)
GAME = bytes(range(16))


def chain(count: int, *, big: bool = False) -> list[bytes]:
    """`count` chained entries, the seats taking turns; with `big`, every fifth carries a 54-point deck."""
    entries: list[bytes] = []
    prev = ZERO_HASH
    for n in range(count):
        payload: dict[str, Any] = {"g": GAME, "n": n, "p": prev, "s": n % 2, "h": n // 10, "t": "test"}
        payload["x"] = n
        if big and n % 5 == 4:
            payload["d"] = [bytes([n, i]) * 16 for i in range(54)]
        raw = seal(payload, SEATS[n % 2])
        entries.append(raw)
        prev = entry_hash(raw)
    return entries


def log_bytes(entries: list[bytes]) -> bytes:
    return MAGIC + b"".join(struct.pack(">I", len(raw)) + raw for raw in entries)


@functools.lru_cache(maxsize=4096)
def verified(raw: bytes) -> tuple[Header, bytes] | None:
    """The header and hash of an entry that opens and verifies under its seat's key, else None."""
    try:
        env = open_envelope(raw)
        head = validate_header(env.payload)
        if head.seat >= len(KEYS):
            return None
        check_signature(env, KEYS[head.seat])
    except (DecodeError, BadSignature):
        return None
    return head, env.hash


def accepted(frames: list[bytes]) -> bool:
    """True if every frame opens, verifies under its seat's key and links to the one before it."""
    prev, game = ZERO_HASH, None
    for n, raw in enumerate(frames):
        result = verified(raw)
        if result is None:
            return False
        head, digest = result
        if head.seq != n or head.prev != prev or (game is not None and head.game_id != game):
            return False
        prev, game = digest, head.game_id
    return True


def test_the_file_is_the_magic_then_length_prefixed_frames(tmp_path: Path) -> None:
    entries = chain(3)
    path = tmp_path / "game.p2plog"
    with LogWriter(path) as writer:
        for raw in entries:
            writer.append(raw)
    assert writer.closed
    assert path.read_bytes() == log_bytes(entries)
    assert read_log(path).frames == entries
    assert read_log(path).torn is None
    assert accepted(read_log(path).frames)


def test_a_new_log_is_private_and_its_directories_are_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "game.p2plog"
    with LogWriter(path):
        pass
    assert path.read_bytes() == MAGIC
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_an_append_is_on_disk_before_append_returns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.p2plog"
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.fstat(fd).st_size)
        real_fsync(fd)

    entries = chain(2)
    with LogWriter(path) as writer:
        monkeypatch.setattr(os, "fsync", fsync)
        writer.append(entries[0])
        assert synced == [len(log_bytes(entries[:1]))]
        assert read_log(path).frames == entries[:1]  # visible to a reader while the writer is still open
        writer.append(entries[1])
        assert synced == [len(log_bytes(entries[:1])), len(log_bytes(entries))]


def test_appended_entries_survive_the_writer_being_killed(tmp_path: Path) -> None:
    path = tmp_path / "game.p2plog"
    script = (
        "import sys\n"
        "from p2pspades.log import LogWriter\n"
        "writer = LogWriter(sys.argv[1])\n"
        "for line in sys.stdin:\n"
        "    writer.append(bytes.fromhex(line))\n"
        "    print('ok', flush=True)\n"
    )
    entries = chain(5)
    with subprocess.Popen([sys.executable, "-c", script, str(path)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as child:
        assert child.stdin is not None and child.stdout is not None
        for raw in entries:
            child.stdin.write(raw.hex() + "\n")
            child.stdin.flush()
            assert child.stdout.readline() == "ok\n"
        child.kill()  # no close, no flush at exit
    assert read_log(path).frames == entries
    with LogWriter(path) as writer:
        writer.append(seal({"g": GAME, "n": 5, "p": entry_hash(entries[-1]), "s": 1, "h": 0, "t": "test"},
                           SEATS[1]))
    assert accepted(read_log(path).frames)


def test_reopening_a_log_appends_after_what_is_there(tmp_path: Path) -> None:
    path = tmp_path / "game.p2plog"
    entries = chain(4)
    with LogWriter(path) as writer:
        writer.append(entries[0])
        writer.append(entries[1])
    with LogWriter(path) as writer:
        assert writer.torn is None
        writer.append(entries[2])
        writer.append(entries[3])
    assert path.read_bytes() == log_bytes(entries)


def test_every_cut_of_the_last_frame_is_a_torn_tail_that_reopening_repairs(tmp_path: Path) -> None:
    entries = chain(3)
    whole = log_bytes(entries)
    start = len(log_bytes(entries[:2]))
    frame_size = FRAME_HEADER_SIZE + len(entries[2])
    for got in range(1, frame_size):
        result = parse_log(whole[: start + got])
        assert result.frames == entries[:2]
        expected = FRAME_HEADER_SIZE if got < FRAME_HEADER_SIZE else frame_size
        assert result.torn == TornTail(offset=start, expected=expected, got=got)
    path = tmp_path / "game.p2plog"
    for got in (1, 3, 4, 5, 40, frame_size - 1):
        path.write_bytes(whole[: start + got])
        torn = read_log(path).torn
        assert torn is not None
        with LogWriter(path) as writer:
            assert writer.torn == torn
            assert path.read_bytes() == whole[:start]  # cut off before the first append
            writer.append(entries[2])
        assert path.read_bytes() == whole


def test_a_crash_while_creating_the_file_is_repaired(tmp_path: Path) -> None:
    path = tmp_path / "game.p2plog"
    path.write_bytes(MAGIC[:3])
    with pytest.raises(LogFormatError, match="not a p2pspades log"):
        read_log(path)
    with LogWriter(path) as writer:
        assert writer.torn == TornTail(0, len(MAGIC), 3)
        writer.append(chain(1)[0])
    assert read_log(path).frames == chain(1)
    empty = tmp_path / "empty.p2plog"
    empty.touch()
    with LogWriter(empty) as writer:
        assert writer.torn is None
    assert empty.read_bytes() == MAGIC


@pytest.mark.parametrize(
    ("contents", "why"),
    [
        (b"", "not a p2pspades log"),
        (b"P2PSLOG2" + b"\x00\x00\x00\x01\x00", "not a p2pspades log"),
        (b"#!/bin/sh\necho hello\n", "not a p2pspades log"),
        (MAGIC + b"\x00\x00\x00\x00", "length 0"),
        (MAGIC + struct.pack(">I", MAX_ENVELOPE + 1) + b"\x00" * 10, f"length {MAX_ENVELOPE + 1}"),
        (MAGIC + b"\xff\xff\xff\xff", "length 4294967295"),
        (MAGIC + struct.pack(">I", 200) + b"\x93\x02", "frame length corrupted"),
        (MAGIC + struct.pack(">I", 326) + b"\x93", "no envelope is 326 bytes long"),
    ],
)
def test_what_no_crash_can_leave_is_refused(tmp_path: Path, contents: bytes, why: str) -> None:
    path = tmp_path / "game.p2plog"
    path.write_bytes(contents)
    with pytest.raises(LogFormatError, match=why):
        read_log(path)
    if contents:
        with pytest.raises(LogFormatError, match=why):
            LogWriter(path)
        assert path.read_bytes() == contents  # never "repaired" into something else


def test_a_length_prefix_that_grew_past_the_end_is_damage_not_a_torn_tail() -> None:
    entries = chain(3)
    start = len(log_bytes(entries[:2]))
    for bit in range(8 * FRAME_HEADER_SIZE):
        damaged = bytearray(log_bytes(entries))
        damaged[start + bit // 8] ^= 0x80 >> (bit % 8)
        (length,) = struct.unpack_from(">I", damaged, start)
        if length <= len(entries[2]):
            continue
        with pytest.raises(LogFormatError, match=r"frame length corrupted|allowed"):
            parse_log(bytes(damaged))


def test_the_writer_refuses_a_log_holding_something_that_is_not_an_envelope(tmp_path: Path) -> None:
    path = tmp_path / "game.p2plog"
    contents = log_bytes(chain(1)) + struct.pack(">I", 1) + b"\x01"
    path.write_bytes(contents)
    with pytest.raises(LogFormatError, match="entry 1 is not a valid envelope"):
        LogWriter(path)
    assert path.read_bytes() == contents


def test_append_refuses_bytes_that_are_not_an_envelope(tmp_path: Path) -> None:
    path = tmp_path / "game.p2plog"
    with LogWriter(path) as writer:
        for junk in (b"", b"\x01", chain(1)[0][:-1], chain(1)[0] + b"\x00"):
            with pytest.raises(LogError, match="not an envelope"):
                writer.append(junk)
    assert path.read_bytes() == MAGIC
    with pytest.raises(LogError, match="closed"):
        writer.append(chain(1)[0])


@pytest.mark.skipif(os.name != "posix", reason="the writer lock uses flock")
def test_only_one_writer_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "game.p2plog"
    entries = chain(2)
    with LogWriter(path) as first:
        first.append(entries[0])
        with pytest.raises(LogError, match="already open"):
            LogWriter(path)
        first.append(entries[1])
    with LogWriter(path):
        pass
    assert read_log(path).frames == entries


def test_a_missing_file_is_an_os_error() -> None:
    with pytest.raises(FileNotFoundError):
        read_log("/nonexistent/game.p2plog")


# --- no single flipped bit passes for a valid log -----------------------------------------------------------


def check_flip(original: bytes, entries: list[bytes], bit: int) -> None:
    damaged = bytearray(original)
    damaged[bit // 8] ^= 1 << (bit % 8)
    try:
        result = parse_log(bytes(damaged))
    except LogFormatError:
        return
    # A reader must never take a damaged file for a valid log: not the same entries, not fewer entries
    # with a torn tail (a crash), not any chain that verifies.
    assert not accepted(result.frames), f"flipping bit {bit} left a log whose frames all verify"
    assert result.frames != entries


def test_every_single_bit_flip_of_a_small_log_is_caught() -> None:
    entries = chain(3)
    original = log_bytes(entries)
    assert accepted(parse_log(original).frames)
    for bit in range(8 * len(original)):
        check_flip(original, entries, bit)


def test_single_bit_flips_of_a_larger_log_are_caught() -> None:
    entries = chain(40, big=True)
    original = log_bytes(entries)
    assert accepted(parse_log(original).frames)
    bits = set(range(8 * len(MAGIC)))
    offset = len(MAGIC)
    for raw in entries:  # every bit of every length prefix and of every envelope's framing bytes
        bits.update(range(8 * offset, 8 * (offset + FRAME_HEADER_SIZE + 5)))
        bits.update(range(8 * (offset + FRAME_HEADER_SIZE + len(raw) - 66), 8 * (offset + FRAME_HEADER_SIZE +
                                                                                len(raw) - 62)))
        offset += FRAME_HEADER_SIZE + len(raw)
    bits.update(random.Random(2024).sample(range(8 * len(original)), 1500))
    for bit in sorted(bits):
        check_flip(original, entries, bit)
