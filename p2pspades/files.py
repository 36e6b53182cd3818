"""Small file-system helpers shared by the layers that keep things on disk (keys, logs, hand secrets)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


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
