"""Log files for the tests, written frame by frame without the writer's checks, so one may hold damage."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from p2pspades import log


def write_log(path: Path, entries: Iterable[bytes]) -> Path:
    """A log file at `path` holding `entries` as they are, in order; returns `path`."""
    path.write_bytes(log.MAGIC + b"".join(len(e).to_bytes(4, "big") + e for e in entries))
    return path
