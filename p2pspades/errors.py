"""The project's error tree.

Local errors mean *we* misused an API or gave it bad input; remote errors mean a *peer* misbehaved, and are
the start of a cheating record (they name the seat and the check that failed).
"""

from __future__ import annotations

from collections.abc import Callable

from p2pspades.checks import Check


class P2PSpadesError(Exception):
    """Root of every error the project raises on purpose.

    One that a person reads is raised with its message as an English template, marked for the catalogs with
    `N_`, and the values of its fields: `SessionError(N_("no game {id} here"), id=game)`. Its `str` is the
    English; the edge says it in the reader's language (`i18n.said`), so the layers below ask the catalogs
    for nothing."""

    def __init__(self, *args: object, **fields: object) -> None:
        self.template: str | None = None
        self.fields: dict[str, object] = fields
        if fields and len(args) == 1 and isinstance(args[0], str):
            self.template = args[0]
            args = (args[0].format(**{k: shown(v, str) for k, v in fields.items()}),)
        super().__init__(*args)


def shown(value: object, say: Callable[[BaseException], str]) -> object:
    """A field of an error's message as it is written into it: an error by `say` (its message), several
    errors one after the other ("a; b"), anything else as it is."""
    if isinstance(value, BaseException):
        return say(value)
    if isinstance(value, tuple) and value and all(isinstance(v, BaseException) for v in value):
        return "; ".join(say(v) for v in value)
    return value


def N_(message: str) -> str:
    """Mark the template of an error's message for the catalogs (gettext's `N_`): it is said in the reader's
    language where it is shown, not here."""
    return message


class LocalError(P2PSpadesError):
    """We misused an API, or local input (a file, a command-line option) is bad."""


class RemoteError(P2PSpadesError):
    """A peer sent something that fails a check (`check`, a `Check`; `detail` says how)."""

    def __init__(self, check: Check, detail: str, seat: int | None = None) -> None:
        super().__init__(f"{check}: {detail}" if seat is None else f"seat {seat}: {check}: {detail}")
        self.check = check
        self.detail = detail
        self.seat = seat
