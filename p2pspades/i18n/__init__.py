"""The players' languages: the one place the edge (`cli/`, `ui/`, `describe`, `web/`) gets its translated
words, and numbers and dates as the reader's locale writes them.

Below the edge, code says what happened with data (codes, seats, cards, counts) and never calls this module:
the log, the records and the wire carry no words, so players with different languages share one game.

A process speaks one language, chosen once (`use`) by the command line (`cli.main`); `speaking` changes it for
a block (tests, and a screen that shows a capture in each language). The catalogs are gettext `.po` files,
compiled by Babel in memory (`catalogs.py`). Every count goes through `ngettext` (Polish has three plural
forms: 1 lewa, 2 lewy, 5 lew); `N_` marks a message that is translated later, where it is shown.

argparse reads gettext's `gettext` and `ngettext` for its own words ("usage:", "options", its errors);
`use` points them at these catalogs, whose `argparse_words.py` lists those words.
"""

from __future__ import annotations

import argparse
import contextlib
import gettext as _gettext
from collections.abc import Iterator, Sequence

from p2pspades.errors import P2PSpadesError, shown
from p2pspades.i18n import formats
from p2pspades.i18n.catalogs import translations
from p2pspades.i18n.choice import (
    DEFAULT,
    ENGLISH,
    ENV,
    LANGUAGES,
    PSEUDO,
    PSEUDO_ENV,
    Choice,
    UnknownLanguage,
    choose,
    fallback,
    listing,
    parse_tag,
)

__all__ = [
    "DEFAULT",
    "ENV",
    "LANGUAGES",
    "N_",
    "PSEUDO",
    "PSEUDO_ENV",
    "Choice",
    "N_plural",
    "UnknownLanguage",
    "_",
    "choose",
    "current",
    "fallback",
    "gettext",
    "listed",
    "listing",
    "moment",
    "ngettext",
    "npgettext",
    "number",
    "page_lang",
    "parse_tag",
    "pgettext",
    "said",
    "speaking",
    "use",
]

_chosen: Choice = ENGLISH
_catalog: _gettext.NullTranslations = translations(DEFAULT)


def use(choice: Choice | str) -> Choice:
    """Speak `choice` (a `Choice`, or a language code we speak) from now on, argparse's own words included.
    `UnknownLanguage` for a code we do not speak. Returns the language spoken before."""
    global _chosen, _catalog
    if isinstance(choice, str):
        found = parse_tag(choice, pseudo=True)
        if found is None:
            raise UnknownLanguage(choice, "use")
        choice = found
    before, _chosen, _catalog = _chosen, choice, translations(choice.lang)
    # argparse bound gettext's functions to these names when it was imported: make it ask our catalogs
    setattr(argparse, "_", gettext)  # noqa: B010
    setattr(argparse, "ngettext", ngettext)  # noqa: B010
    return before


@contextlib.contextmanager
def speaking(choice: Choice | str) -> Iterator[Choice]:
    """Speak `choice` for the block, then the language spoken before."""
    before = use(choice)
    try:
        yield _chosen
    finally:
        use(before)


def current() -> Choice:
    """The language this process speaks."""
    return _chosen


def gettext(message: str) -> str:
    """`message` in the language spoken (the message itself where the catalog has no translation)."""
    return _catalog.gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message that suits the count `n` in the language spoken (Polish: 1 lewa, 2 lewy, 5 lew);
    the caller formats `n` into it."""
    return _catalog.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` as meant in `context` (where one English word is two in another language: "K", the king,
    and "K", a key)."""
    return _catalog.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _catalog.npgettext(context, singular, plural, n)


def said(error: BaseException | str) -> str:
    """An error's message, or a sentence made below the edge (`errors.Detail`), in the language spoken: its
    template translated, with its fields (the errors and details among them said the same way); else the
    message or the text as it is."""
    template = getattr(error, "template", None)
    fields = getattr(error, "fields", None)
    if isinstance(fields, dict) and (isinstance(template, tuple) or (isinstance(template, str) and fields)):
        words = {k: shown(v, said) for k, v in fields.items()}
        if isinstance(template, tuple):  # a count's (`errors.Detail`)
            singular, plural = template
            return ngettext(singular, plural, fields["n"]).format(**words)
        return gettext(template).format(**words)
    if isinstance(error, P2PSpadesError) and len(error.args) == 1 and isinstance(error.args[0], str):
        if getattr(error.args[0], "fields", None):  # raised with a `Detail` made before: said as it is
            return said(error.args[0])
        error = error.args[0]  # a marked message
    text = str(error)
    if isinstance(error, str) and text:  # a marked message without fields
        return gettext(text)
    return text


def page_lang() -> str:
    """The language spoken as a page's `lang` attribute says it ("de"; the pseudo-locale's is English)."""
    lang = _chosen.lang
    return lang if lang in LANGUAGES else DEFAULT


def listed(items: Sequence[str]) -> str:
    """Names or phrases as one, in the language spoken: "ana", "ana and bo", "ana, bo and cy"."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + gettext(" and ") + items[-1]


def N_(message: str) -> str:
    """Mark `message` for the catalogs without translating it: it is translated where it is shown."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a count for the catalogs: its singular and plural, given to `ngettext` later."""
    return singular, plural


def number(value: float, digits: int = 0, *, fixed: bool = True) -> str:
    """`value` as the language's locale writes it ("12.345,5" in German with one digit; with `fixed` false,
    at most `digits` digits: 3 seconds are "3", 0.5 are "0,5")."""
    return formats.number(value, _chosen.locale, digits, fixed=fixed)


def moment(when: float) -> str:
    """A moment (seconds since the epoch, local time) as the locale writes a date and time to the minute."""
    return formats.moment(when, _chosen.locale)
