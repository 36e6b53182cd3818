"""`python -m p2pspades.i18n.update`: bring every catalog up to date with the code, in one command.

1. Babel extracts the messages from the package, with the mapping of `[tool.babel]` in `pyproject.toml` (the
   same as `pybabel extract -F pyproject.toml`), into the template `p2pspades/locale/p2pspades.pot`.
2. Each language's `.po` is merged with it (as `pybabel update` does): a new message comes in untranslated, a
   changed one keeps its old translation marked fuzzy, a removed one goes.
3. The English catalog is filled from the code's own words (as GNU `msgen` does): English needs no
   translator.

`--check` changes nothing and exits 1, naming the files, if any catalog is not what the command would write
(a test runs it). What is left for translators, untranslated or fuzzy messages, is listed.

Locations are written without line numbers, so moving code does not change the catalogs.
"""

from __future__ import annotations

import argparse
import copy
import io
import re
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

from p2pspades import __version__
from p2pspades.i18n.catalogs import DOMAIN, LOCALE_DIR, TEMPLATE, po_path
from p2pspades.i18n.choice import DEFAULT, LANGUAGES

PACKAGE = LOCALE_DIR.parent
PYPROJECT = PACKAGE.parent / "pyproject.toml"
AUTHORS = "the p2pspades authors"
WIDTH = 110
"""The width the catalogs are wrapped to (the code's own line length)."""


def extracted() -> Catalog:
    """The messages of the code, as `pybabel extract -F pyproject.toml` finds them."""
    if not PYPROJECT.is_file():
        raise SystemExit(f"{PYPROJECT} not found: the catalogs are updated in a checkout of p2pspades")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{DOMAIN}.pot"
        CommandLineInterface().run([  # type: ignore[no-untyped-call]
            "pybabel", "--quiet", "extract", "--mapping-file", str(PYPROJECT), "--sort-output",
            "--width", str(WIDTH), "--project", "p2pspades", "--version", __version__,
            "--copyright-holder", AUTHORS,
            "--msgid-bugs-address", AUTHORS, "--output-file", str(out), str(PACKAGE),
        ])
        with out.open("rb") as f:
            template = read_po(f, domain=DOMAIN)
    for message in template:  # locations relative to the checkout, wherever the command runs
        message.locations = sorted({(_relative(path), 0) for path, _line in message.locations})
    return template


def _relative(path: str) -> str:
    p = Path(path)
    return p.relative_to(PACKAGE.parent).as_posix() if p.is_absolute() else p.as_posix()


def merged(template: Catalog, lang: str, old: Catalog | None) -> Catalog:
    """`lang`'s catalog brought up to date with `template` (a new catalog where there is none yet)."""
    if old is None:
        catalog = Catalog(locale=lang, domain=DOMAIN, project="p2pspades", version=__version__,
                          copyright_holder=AUTHORS, msgid_bugs_address=AUTHORS, last_translator=AUTHORS,
                          language_team=AUTHORS, fuzzy=False)
        catalog.creation_date = template.creation_date
        catalog.revision_date = template.creation_date
    else:
        catalog = copy.deepcopy(old)
    catalog.update(copy.deepcopy(template), update_header_comment=False)
    catalog.obsolete.clear()
    if lang == DEFAULT:
        for message in catalog:
            if message.id:
                message.string = message.id
                message.flags.discard("fuzzy")
    return catalog


def render(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, include_lineno=False, ignore_obsolete=True, include_previous=False)
    return out.getvalue()


def _read(path: Path, lang: str | None) -> Catalog | None:
    if not path.is_file():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def planned() -> dict[Path, bytes]:
    """Every catalog file as the command would write it."""
    template = extracted()
    old_template = _read(TEMPLATE, None)
    if old_template is not None:  # the same messages keep the template's date, so nothing changes
        template.creation_date = old_template.creation_date
    files = {TEMPLATE: render(template)}
    for lang in LANGUAGES:
        files[po_path(lang)] = render(merged(template, lang, _read(po_path(lang), lang)))
    return files


def stale(files: dict[Path, bytes]) -> list[Path]:
    """The files whose content is not `files`' (the version of Babel that wrote a file does not count)."""
    return [path for path, data in files.items()
            if not path.is_file() or _GENERATED.sub(b"", path.read_bytes()) != _GENERATED.sub(b"", data)]


_GENERATED = re.compile(rb'^"Generated-By: [^"]*"\n', re.MULTILINE)


def left_to_translate(lang: str) -> list[str]:
    """The messages of `lang`'s catalog that a translator still has to see: untranslated or fuzzy."""
    catalog = _read(po_path(lang), lang)
    if catalog is None:
        return []
    left = []
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.id and (message.fuzzy or not all(strings)):
            left.append(message.id if isinstance(message.id, str) else message.id[0])
    return left


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m p2pspades.i18n.update",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a catalog is not up to date with the code")
    args = parser.parse_args(argv)
    files = planned()
    changed = stale(files)
    if args.check:
        for path in changed:
            print(f"out of date: {path.relative_to(PACKAGE.parent)}", file=sys.stderr)
        return 1 if changed else 0
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(files[path])
        print(f"updated {path.relative_to(PACKAGE.parent)}")
    for lang in LANGUAGES:
        left = left_to_translate(lang)
        if left:
            print(f"{lang}: {len(left)} message(s) to translate or check (untranslated or fuzzy)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
