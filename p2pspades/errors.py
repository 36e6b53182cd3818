"""The project's error tree.

Local errors mean *we* misused an API or gave it bad input; remote errors mean a *peer* misbehaved, and are
the start of a cheating record (they name the seat and the check that failed).
"""

from __future__ import annotations

from p2pspades.checks import Check


class P2PSpadesError(Exception):
    """Root of every error the project raises on purpose."""


class LocalError(P2PSpadesError):
    """We misused an API, or local input (a file, a command-line option) is bad."""


class RemoteError(P2PSpadesError):
    """A peer sent something that fails a check (`check`, a `Check`; `detail` says how)."""

    def __init__(self, check: Check, detail: str, seat: int | None = None) -> None:
        super().__init__(f"{check}: {detail}" if seat is None else f"seat {seat}: {check}: {detail}")
        self.check = check
        self.detail = detail
        self.seat = seat
