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
    `N_`, and the values of its fields: `SessionError(N_("no game {id} here"), id=game)` (a count: its two
    forms marked with `N_plural`, and its field `n`). Its `str` is the
    English; the edge says it in the reader's language (`i18n.said`), so the layers below ask the catalogs
    for nothing."""

    def __init__(self, *args: object, **fields: object) -> None:
        self.template: str | tuple[str, str] | None = None
        self.fields: dict[str, object] = fields
        if fields and len(args) == 1 and isinstance(args[0], str | tuple):
            self.template = args[0]  # a count's two forms (`N_plural`) with the field `n`, or one template
            english = args[0] if isinstance(args[0], str) else args[0][fields["n"] != 1]
            args = (english.format(**{k: shown(v, str) for k, v in fields.items()}),)
        super().__init__(*args)


def shown(value: object, say: Callable[[BaseException | Detail], str]) -> object:
    """A field of an error's message as it is written into it: an error by `say` (its message), several
    errors one after the other ("a; b"), a `Detail` by `say` too (its English with `str`), anything else as
    it is."""
    if isinstance(value, BaseException | Detail):
        return say(value)
    if isinstance(value, tuple) and value and all(isinstance(v, BaseException) for v in value):
        return "; ".join(say(v) for v in value)
    return value


def N_(message: str) -> str:
    """Mark the template of an error's message for the catalogs (gettext's `N_`): it is said in the reader's
    language where it is shown, not here."""
    return message


class Detail(str):
    """A sentence made below the edge, the detail of a failed check most of all ("the key published for
    position 7 is wrong"): the English text, as the records and the log file carry it, that also keeps its
    template, marked for the catalogs with `N_`, and its fields, so the edge says it in the reader's language
    (`i18n.said`). `Detail(N_("the key published for position {position} is wrong"), position=7)`.

    A count takes its template's two forms (`N_plural`) and the field `n`: `Detail(N_plural("{n} spade",
    "{n} spades"), n=3)`, said with `ngettext` (Polish: 1 pik, 2 piki, 5 pików).

    It is a `str`, equal to its English: the records, the JSON and the comparisons see no difference. What
    makes a new string of it (`+`, an f-string) keeps the English alone; a field may be a `Detail` itself."""

    template: str | tuple[str, str]
    fields: dict[str, object]

    def __new__(cls, template: str | tuple[str, str], **fields: object) -> Detail:
        english = template if isinstance(template, str) else template[fields["n"] != 1]
        self = super().__new__(cls, english.format(**{k: shown(v, str) for k, v in fields.items()})
                               if fields else english)
        self.template = template
        self.fields = fields
        return self

    def __reduce__(self) -> tuple[object, ...]:  # a verdict crosses to the proof workers and back
        return (_detail, (self.template, self.fields))


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a `Detail`'s template with a count for the catalogs: its singular and plural."""
    return singular, plural


def _detail(template: str | tuple[str, str], fields: dict[str, object]) -> Detail:
    return Detail(template, **fields)


def detail_of(error: BaseException) -> str:
    """An error's message as the detail of a failed check: a `Detail` that keeps its template and fields, so
    the edge can say it in the reader's language (a message marked without fields: its text)."""
    template, fields = getattr(error, "template", None), getattr(error, "fields", None)
    if isinstance(template, str) and isinstance(fields, dict) and fields:
        return Detail(template, **fields)
    if len(error.args) == 1 and isinstance(error.args[0], Detail):  # raised with a Detail made before
        return error.args[0]
    return Detail(str(error)) if isinstance(error, P2PSpadesError) else str(error)


class LocalError(P2PSpadesError):
    """We misused an API, or local input (a file, a command-line option) is bad."""


class RemoteError(P2PSpadesError):
    """A peer sent something that fails a check (`check`, a `Check`; `detail` says how)."""

    def __init__(self, check: Check, detail: str, seat: int | None = None) -> None:
        super().__init__(f"{check}: {detail}" if seat is None else f"seat {seat}: {check}: {detail}")
        self.check = check
        self.detail = detail
        self.seat = seat
