"""The append-only log file: a magic string, then one length-prefixed frame per signed entry.

An entry is on disk (written and fsync'd) before its sender sends it, so after a crash the file holds every
entry anyone else may have seen, and at worst the start of one more frame: a *torn tail*. The reader reports
a torn tail instead of failing, and the writer cuts it off when it reopens the log. A frame that no crash can
leave (a length of zero or over the limit, or a short last frame whose bytes are not the start of an envelope
of the length its prefix claims) means the file was damaged, and is refused.
"""

from __future__ import annotations

import logging
import os
import struct
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from p2pspades.files import fsync_directory, try_lock

from ..errors import N_, Detail, LocalError
from .canonical import DecodeError
from .envelope import ENVELOPE_VERSION, MAX_ENVELOPE, SIGNATURE_SIZE, open_envelope

__all__ = [
    "FRAME_HEADER_SIZE",
    "MAGIC",
    "LogError",
    "LogFormatError",
    "LogRead",
    "LogWriter",
    "TornTail",
    "parse_log",
    "read_log",
]

MAGIC = b"P2PSLOG1"
FRAME_HEADER_SIZE = 4
_LENGTH = struct.Struct(">I")

_logger = logging.getLogger(__name__)


class LogError(LocalError):
    """A log file cannot be used (it is damaged, not a log, or already open for writing elsewhere)."""


class LogFormatError(LogError):
    """The file is not a p2pspades log, or its framing is damaged in a way no crash can produce."""


@dataclass(frozen=True)
class TornTail:
    """A last frame cut short, as a crash during an append leaves it.

    `offset` is where the frame starts in the file, `expected` the bytes the whole frame needs (length prefix
    included; just the 4 of the prefix if the prefix itself is cut), `got` the bytes present from `offset`.
    """

    offset: int
    expected: int
    got: int


@dataclass(frozen=True)
class LogRead:
    """Every complete frame of a log, in order (raw envelopes, not yet checked), and the torn tail if any."""

    frames: list[bytes]
    torn: TornTail | None

    @property
    def end(self) -> int:
        """Bytes of the file up to the end of the last complete frame: where a writer appends next."""
        return len(MAGIC) + sum(FRAME_HEADER_SIZE + len(frame) for frame in self.frames)


def _cut_envelope_problem(data: bytes, length: int) -> Detail | None:
    """Why `data` cannot be the start of a `length`-byte envelope cut short by a crash, or None if it can.

    Every version 1 envelope of `length` bytes has the same framing bytes: 0x93 0x01, the bin header of a
    payload of its length (which `length` fixes), and 0xc4 0x40 before the 64-byte signature. A crash leaves
    a prefix of those; a damaged length prefix almost never does. In particular, when a bit flip makes a
    prefix claim more bytes than the file has, the bytes that are there hold a whole envelope whose own
    lengths disagree with the prefix, and the damage is not mistaken for a crash.
    """
    skeleton = _envelope_skeleton(length)
    if skeleton is None:
        return Detail(N_("no envelope is {length} bytes long"), length=length)
    for position, byte in skeleton:
        if position >= len(data):
            break
        if data[position] != byte:
            return Detail(N_("its byte {position} is {got} where every such envelope has {byte}"),
                          position=position, got=f"{data[position]:#04x}", byte=f"{byte:#04x}")
    return None


def _envelope_skeleton(length: int) -> list[tuple[int, int]] | None:
    """(position, byte) of the framing bytes of every version 1 envelope of `length` bytes, or None."""
    tail = 2 + SIGNATURE_SIZE  # 0xc4 0x40, then the signature
    payload = length - 2 - 2 - tail  # bin 8: 0xc4, one length byte
    if 1 <= payload <= 0xFF:
        header = bytes([0xC4, payload])
    else:
        payload = length - 2 - 3 - tail  # bin 16: 0xc5, two length bytes
        if not 0x100 <= payload <= 0xFFFF:
            return None
        header = bytes([0xC5]) + payload.to_bytes(2, "big")
    fixed = bytes([0x93, ENVELOPE_VERSION]) + header
    skeleton = list(enumerate(fixed))
    skeleton += [(length - tail, 0xC4), (length - tail + 1, SIGNATURE_SIZE)]
    return sorted(skeleton)


def read_log(path: str | os.PathLike[str]) -> LogRead:
    """Read every frame of the log file at `path` (see `parse_log`). OSError if it cannot be read at all."""
    with open(path, "rb") as file:
        data = file.read()
    return parse_log(data, name=os.fspath(path))


def parse_log(data: bytes, *, name: str = "log") -> LogRead:
    """Split the bytes of a log file into its frames.

    A torn last frame is reported in `torn`, never raised. LogFormatError (mentioning `name`) for bytes that
    are not a log (no magic) or have a damaged frame. The frames themselves are not opened here.
    """
    if data[: len(MAGIC)] != MAGIC:
        raise LogFormatError(N_("{name} is not a p2pspades log (a game log file, usually *.p2plog)"),
                             name=name)
    frames: list[bytes] = []
    offset = len(MAGIC)
    size = len(data)
    while offset < size:
        if size - offset < FRAME_HEADER_SIZE:
            return LogRead(frames, TornTail(offset, FRAME_HEADER_SIZE, size - offset))
        (length,) = _LENGTH.unpack_from(data, offset)
        if not 1 <= length <= MAX_ENVELOPE:
            raise LogFormatError(N_("{name}: frame {frame} at byte {offset} has length {length} (allowed "
                                    "1..{most}): the file is damaged"), name=name, frame=len(frames),
                                 offset=offset, length=length, most=MAX_ENVELOPE)
        start = offset + FRAME_HEADER_SIZE
        body = data[start : start + length]
        if len(body) < length:
            problem = _cut_envelope_problem(body, length)
            if problem is not None:
                raise LogFormatError(N_("{name}: frame length corrupted: frame {frame} at byte {offset} "
                                        "claims {length} bytes but the file ends after {got}, and {problem}"),
                                     name=name, frame=len(frames), offset=offset, length=length,
                                     got=len(body), problem=problem)
            return LogRead(frames, TornTail(offset, FRAME_HEADER_SIZE + length, size - offset))
        frames.append(body)
        offset = start + length
    return LogRead(frames, None)


def _lock(fd: int, path: Path) -> None:
    """Refuse a second writer on one log: two peers appending to one file would interleave frames."""
    if not try_lock(fd):
        raise LogError(N_("{path} is already open for writing by another process"), path=path)


class LogWriter:
    """Appends signed entries to a log file, each one durable (fsync'd) before `append` returns.

    A new file is created with mode 0600 (its parent directories too). An existing file must be a log; a torn
    tail left by a crash is logged as a warning, kept in `torn`, and cut off as the writer opens the file.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.torn: TornTail | None = None
        self._fd: int | None = None
        self._unsynced = False
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            self._open_existing()
            return
        try:
            _lock(fd, self.path)
            self._write_all(fd, MAGIC)
            os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        fsync_directory(self.path.parent)
        self._fd = fd
        self._size = len(MAGIC)

    def _open_existing(self) -> None:
        fd = os.open(self.path, os.O_RDWR)
        try:
            _lock(fd, self.path)
            size = os.fstat(fd).st_size
            if size < len(MAGIC):
                with open(self.path, "rb") as file:
                    start = file.read()
                if start != MAGIC[: len(start)]:
                    raise LogFormatError(N_("{path} exists and is not a p2pspades log; refusing to write"),
                                         path=self.path)
                # created, then the crash came before the magic was on disk
                if start:
                    self.torn = TornTail(0, len(MAGIC), len(start))
                    _logger.warning("%s: cut off a torn log header (%d of %d bytes)", self.path,
                                    len(start), len(MAGIC))
                os.ftruncate(fd, 0)
                os.lseek(fd, 0, os.SEEK_SET)
                self._write_all(fd, MAGIC)
                os.fsync(fd)
                end = len(MAGIC)
            else:
                try:
                    contents = read_log(self.path)
                except LogFormatError as exc:
                    raise LogFormatError(N_("refusing to append: {exc}"), exc=exc) from None
                for index, frame in enumerate(contents.frames):
                    try:
                        open_envelope(frame)
                    except DecodeError as exc:
                        raise LogFormatError(N_("refusing to append to {path}: entry {index} is not a "
                                                "valid envelope ({exc})"), path=self.path, index=index,
                                             exc=exc) from None
                end = contents.end
                if contents.torn is not None:
                    self.torn = contents.torn
                    torn = contents.torn
                    _logger.warning("%s: cut off a torn last frame at byte %d (%d of %d bytes were written)",
                                    self.path, torn.offset, torn.got, torn.expected)
                    os.ftruncate(fd, end)
                    os.fsync(fd)
            os.lseek(fd, end, os.SEEK_SET)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        self._size = end

    @staticmethod
    def _write_all(fd: int, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]

    def append(self, raw: bytes, sync: bool = True) -> None:
        """Write one entry as a frame and fsync it: once this returns, the entry survives a crash.

        With `sync=False` the frame is written but not yet fsync'd: the caller batches several entries and
        calls `sync()` once, before it sends anything that depends on them (a peer fsyncs before its own
        next entry goes out, not once per entry it receives).

        Refuses (LogError) bytes that are not a well-formed envelope, so the file only ever holds frames a
        reader can tell from damage. If the write fails, the partial frame is cut off again.
        """
        if self._fd is None:
            raise LogError(f"{self.path} is closed")
        try:
            open_envelope(raw)
        except DecodeError as exc:
            raise LogError(N_("refusing to append to {path}: not an envelope ({exc})"), path=self.path,
                           exc=exc) from None
        frame = _LENGTH.pack(len(raw)) + bytes(raw)
        try:
            self._write_all(self._fd, frame)
            if sync:
                os.fsync(self._fd)
                self._unsynced = False
            else:
                self._unsynced = True
        except BaseException:
            try:
                os.ftruncate(self._fd, self._size)
                os.lseek(self._fd, self._size, os.SEEK_SET)
            except OSError:
                os.close(self._fd)
                self._fd = None
            raise
        self._size += len(frame)

    def sync(self) -> None:
        """Make every entry appended so far durable (one fsync; nothing to do if all are already)."""
        if self._fd is None:
            raise LogError(f"{self.path} is closed")
        if self._unsynced:
            os.fsync(self._fd)
            self._unsynced = False

    @property
    def unsynced(self) -> bool:
        """Whether some appended entries are not fsync'd yet."""
        return self._unsynced

    def close(self) -> None:
        """Close the file, fsync'ing any entries appended with `sync=False`. Closing twice is harmless."""
        if self._fd is not None:
            try:
                if self._unsynced:
                    os.fsync(self._fd)
                    self._unsynced = False
            finally:
                os.close(self._fd)
                self._fd = None

    @property
    def closed(self) -> bool:
        return self._fd is None

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()
