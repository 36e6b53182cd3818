"""What every vector script shares: write its JSON file, or with `--check` say whether the file is stale.

The scripts are run as `python protocol/vectors/make_*.py [--check]`, so this module sits beside them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def write_or_check(argv: list[str], out: Path, build: Callable[[], Any], usage: str | None) -> int:
    """Render `build()` as indented JSON into `out`, or with `--check` compare (exit 1 if stale)."""
    text = json.dumps(build(), indent=1) + "\n"
    if argv[1:] == ["--check"]:
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            print(f"{out} is stale: run {Path(argv[0]).name} to rewrite it", file=sys.stderr)
            return 1
        return 0
    if argv[1:]:
        print(usage, file=sys.stderr)
        return 2
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0
