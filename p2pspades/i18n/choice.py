"""Which language a process speaks: `--lang`, else `$P2PSPADES_LANG`, else the profile's saved language, else
the locale (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`, in gettext's order), else English.

Pure: the caller hands in the option, the environment and the saved language, so the order is tested without
touching the process.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from p2pspades.errors import LocalError

LANGUAGES: Mapping[str, str] = MappingProxyType(
    {"en": "English", "de": "Deutsch", "fr": "français", "pl": "polski"}
)
"""The languages the program speaks, each with its own name for itself."""
DEFAULT = "en"
"""The language of the code's own messages, and of a process nothing chooses one for."""
PSEUDO = "qps"
"""The pseudo-locale of the tests: English with every translated message between ⟦ and ⟧. Never offered to a
person: it is accepted only where `PSEUDO_ENV` is "1"."""
PSEUDO_ENV = "P2PSPADES_PSEUDO"
ENV = "P2PSPADES_LANG"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where gettext looks for the locale, in its order: the first that is set decides."""
_TAG = re.compile(r"([A-Za-z]{2,3})(?:[-_]([A-Za-z]{2}|[0-9]{3}))?(?:\.[A-Za-z0-9_-]+)?(?:@[A-Za-z0-9_-]+)?")


class UnknownLanguage(LocalError):
    """A language was asked for (`--lang`, `$P2PSPADES_LANG`, a saved setting) that the program does not
    speak. `asked` is what was given, `where` where it was given."""

    def __init__(self, asked: str, where: str) -> None:
        super().__init__(f"{where}: unknown language {asked!r}")
        self.asked = asked
        self.where = where


@dataclass(frozen=True)
class Choice:
    """A language and where it came from. `locale` keeps the region for numbers and dates ("de_AT", "en_GB"),
    `lang` is the catalog ("de", "en")."""

    lang: str
    locale: str
    source: str
    """"--lang", `ENV`, "profile", the locale variable that decided, or "default"."""


ENGLISH = Choice(DEFAULT, DEFAULT, "default")


def parse_tag(tag: str, *, pseudo: bool = False) -> Choice | None:
    """The language a tag names, as people write one: "de", "DE", "de-AT", "de_DE.UTF-8", "pl_PL@euro".
    "C" and "POSIX" are English. None for a language the program does not speak (or not a tag at all);
    `pseudo`: the pseudo-locale counts as one it speaks."""
    text = tag.strip()
    if text in ("C", "POSIX") or text.startswith(("C.", "POSIX.")):
        return ENGLISH
    match = _TAG.fullmatch(text)
    if match is None:
        return None
    lang, region = match.group(1).lower(), match.group(2)
    if lang == PSEUDO and pseudo:
        return Choice(PSEUDO, DEFAULT, "")
    if lang not in LANGUAGES:
        return None
    return Choice(lang, f"{lang}_{region.upper()}" if region else lang, "")


def from_locale(environ: Mapping[str, str]) -> Choice | None:
    """The language of the locale, as gettext finds it: the first of `LOCALE_VARIABLES` that is set, read as
    a list ("fr_CA:de"), whose first language the program speaks wins; "C" ends the list. None if it names
    none of ours."""
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if not value:
            continue
        for tag in value.split(":"):
            found = parse_tag(tag)
            if found is not None:
                return Choice(found.lang, found.locale, name)
        return None
    return None


def choose(option: str | None, environ: Mapping[str, str], saved: str | None = None) -> Choice:
    """The language of a process: `option` (`--lang`), else `environ[ENV]`, else `saved` (the profile's), else
    the locale, else English. `UnknownLanguage` if the option or the variable names a language the program
    does not speak (a saved language was checked when it was saved: one that is not ours is passed over)."""
    pseudo = environ.get(PSEUDO_ENV) == "1"
    for asked, where in ((option, "--lang"), (environ.get(ENV) or None, ENV)):
        if asked is None:
            continue
        found = parse_tag(asked, pseudo=pseudo)
        if found is None:
            raise UnknownLanguage(asked, where)
        return Choice(found.lang, found.locale, where)
    if saved is not None and (found := parse_tag(saved)) is not None:
        return Choice(found.lang, found.locale, "profile")
    return from_locale(environ) or ENGLISH


def fallback(environ: Mapping[str, str], saved: str | None = None) -> Choice:
    """The language to say that an asked-for language is unknown in: what the order gives without the
    option and the variable."""
    return choose(None, {k: v for k, v in environ.items() if k != ENV}, saved)


def listing() -> str:
    """The languages there are, for a message: "en (English), de (Deutsch), fr (français), pl (polski)"."""
    return ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
