"""Verifying a file a person names, which may not be a log at all."""

from __future__ import annotations

import concurrent.futures
import os

from p2pspades.audit.reader import GameVisitor, read_game
from p2pspades.audit.record import FORMAT
from p2pspades.audit.verify import Status, Verdict
from p2pspades.reasons import Finding, Reason


def verify_log(
    path: str | os.PathLike[str],
    *visitors: GameVisitor,
    jobs: int = 1,
    pool: concurrent.futures.Executor | None = None,
) -> Verdict:
    """`read_game` on a file a person names (`visitors`, `jobs` and `pool` are its own), with a plain word for
    a file that is a hand record `export` wrote rather than a log."""
    verdict = read_game(path, *visitors, jobs=jobs, pool=pool)
    if verdict.status is Status.UNREADABLE and verdict.table is None and _is_hand_record(path):
        verdict.finding = Reason.of(Finding.HAND_RECORD, path=os.fspath(path))
    return verdict


def _is_hand_record(path: str | os.PathLike[str]) -> bool:
    try:
        with open(path, "rb") as file:
            head = file.read(4096)
    except OSError:
        return False
    if head.lstrip()[:1] == b"{":
        return f'"format": "{FORMAT}"'.encode() in head
    return head.startswith(b'[Event "') and b'[GameId "' in head
