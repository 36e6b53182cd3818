"""The message catalogs: one `.po` file per language in `p2pspades/locale/<lang>/LC_MESSAGES/`, compiled by
Babel when a process first needs it, in memory, into the standard `gettext.GNUTranslations`.

Nothing is compiled ahead of time, so a fresh `pip install -e .` (or a wheel) speaks every language with no
build step, and the `.po` files are the only copy of the translations: there is no `.mo` to fall out of step
(`docs/architecture.md` says why, with the cost). English is the code's own language: its catalog mirrors
the code's messages (`python -m p2pspades.i18n.update` fills it, a test holds it to them), so an English
process reads no catalog at all.
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path

from p2pspades.i18n.choice import DEFAULT, PSEUDO

DOMAIN = "p2pspades"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
OPEN, CLOSE = "⟦", "⟧"
"""The pseudo-locale's markers around every translated message."""
CODE_CONTEXTS = frozenset({"card code"})
"""The contexts of messages that are typed, not read (the letters of a card code): the pseudo-locale leaves
them as they are, so a card is typed the same way in it as in English."""


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The translations of `lang`, compiled from its catalog the first time they are asked for.

    Imports Babel only here: a process that speaks English never loads it."""
    if lang == DEFAULT:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(DEFAULT if lang == PSEUDO else lang).open("rb") as f:
        catalog = read_po(f, locale=DEFAULT if lang == PSEUDO else lang, domain=DOMAIN)
    if lang == PSEUDO:
        for message in catalog:
            if message.id and message.context not in CODE_CONTEXTS:
                strings = message.string
                if isinstance(strings, str):
                    message.string = marked(strings)
                elif strings is not None:
                    message.string = tuple(map(marked, strings))
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def marked(text: str) -> str:
    """`text` between the pseudo-locale's markers, its leading and trailing white space left outside (so a
    message that ends a line still does)."""
    core = text.strip()
    if not core:
        return text
    start = text.index(core[0])
    return f"{text[:start]}{OPEN}{core}{CLOSE}{text[start + len(core):]}"
