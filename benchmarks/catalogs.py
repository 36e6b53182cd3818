"""What a language costs a process: its catalog compiled from the `.po` file by Babel in memory (what
p2pspades does), beside loading the same catalog compiled ahead of time (a `.mo` file, the alternative it
did not choose), measured alternately in the same run; and the import of Babel's catalog reader, which only a
process that speaks another language than English pays, in fresh processes.

For each language:
- `compile_ms`: `p2pspades.i18n.catalogs.translations(lang)` with its cache cleared (read_po, write_mo into
  memory, `gettext.GNUTranslations`), the median of `--repeat` runs;
- `mo_ms`: `gettext.GNUTranslations` over the `.mo` bytes compiled once before the timing;
- `ratio`: compile_ms over mo_ms;
- `messages`: the messages of the catalog.
And once: `import_babel_ms`, the median of `--processes` fresh interpreters importing `babel.messages.pofile`
and `babel.messages.mofile`, less one importing nothing (`python -c pass`), measured alternately.

Ratios matter; absolute times move with the load on a shared machine. Prints one JSON object.

    python benchmarks/catalogs.py [--repeat 30] [--processes 5]
"""

from __future__ import annotations

import argparse
import gettext
import io
import json
import statistics
import subprocess
import sys
import time
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from p2pspades.i18n import LANGUAGES
from p2pspades.i18n.catalogs import po_path, translations


def timed(work: Any) -> float:
    started = time.perf_counter()
    work()
    return (time.perf_counter() - started) * 1000


def language(lang: str, repeat: int) -> dict[str, Any]:
    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    mo = compiled.getvalue()

    def ours() -> None:
        translations.cache_clear()
        translations(lang)

    compile_ms, mo_ms = [], []
    for _ in range(repeat):  # alternately, so the load of the machine falls on both alike
        compile_ms.append(timed(ours))
        mo_ms.append(timed(lambda: gettext.GNUTranslations(io.BytesIO(mo))))
    best, bare = statistics.median(compile_ms), statistics.median(mo_ms)
    return {"messages": sum(1 for m in catalog if m.id), "compile_ms": round(best, 2),
            "mo_ms": round(bare, 3), "ratio": round(best / bare, 1)}


def process_ms(code: str) -> float:
    return timed(lambda: subprocess.run([sys.executable, "-c", code], check=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--processes", type=int, default=5)
    args = parser.parse_args()
    result: dict[str, Any] = {lang: language(lang, args.repeat) for lang in LANGUAGES if lang != "en"}
    with_babel, without = [], []
    for _ in range(args.processes):
        with_babel.append(process_ms("import babel.messages.pofile, babel.messages.mofile"))
        without.append(process_ms("pass"))
    result["import_babel_ms"] = round(statistics.median(with_babel) - statistics.median(without), 1)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
