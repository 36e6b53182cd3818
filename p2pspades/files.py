"""Small file-system helpers shared by the layers that keep things on disk (keys, logs, hand secrets).

One implementation each of: making a new directory entry durable, writing a private file atomically, and
the advisory lock that keeps a second process off a file (a log, a profile) another one is using.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path
from types import TracebackType

PRIVATE_MODE = 0o600
PRIVATE_DIR_MODE = 0o700


def fsync_directory(directory: Path) -> None:
    """Make a new file's directory entry durable (not possible, nor needed, on every platform)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def write_private(target: Path, data: bytes, *, replace: bool = False) -> bool:
    """Write `data` to `target` with mode 0600, atomically and durably.

    The bytes go to a temporary file in the same directory (0600, fsync'd), which then becomes `target`: by
    a rename with `replace`, else by a hard link, which never overwrites, so of two processes writing one
    new file only one wins. Returns False, writing nothing, if `target` already exists and `replace` is
    False. Raises `OSError` as the file system does.
    """
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
        try:
            if os.name == "posix":
                os.fchmod(fd, PRIVATE_MODE)  # whatever the umask
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)
            except FileExistsError:
                return False
            except OSError:
                # No hard links on this file system: a rename is the best we can do.
                if target.exists():
                    return False
                os.replace(tmp, target)
        fsync_directory(target.parent)
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def try_lock(fd: int) -> bool:
    """Take an exclusive advisory lock (flock) on an open file without waiting. False if another process
    holds it. Where there is no flock (not POSIX, or a file system without locks) there is nothing to
    enforce: True.

    The lock lasts until the file is closed, by us or by our process ending, however abruptly.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:  # a file system without locks (some network ones): nothing to enforce either
        return True
    return True


def is_locked(path: Path) -> bool:
    """Whether another process holds the lock of `try_lock` on `path` (False if the file cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        return not try_lock(fd)
    finally:
        os.close(fd)  # closing drops our lock at once


class FileLock:
    """An exclusive lock held on `path` (created 0600 if need be) while this object is open.

    `acquire()` returns False if another process holds it. Used as a context manager, it acquires on entry
    and raises `BlockingIOError` if it cannot.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> bool:
        if self._fd is not None:
            return True
        self.path.parent.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, PRIVATE_MODE)
        if not try_lock(fd):
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> FileLock:
        if not self.acquire():
            raise BlockingIOError(f"{self.path} is locked by another process")
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
