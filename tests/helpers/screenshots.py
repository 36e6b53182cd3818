"""The screenshots of the game page in docs/auditing.md, made from real logs with the tests' own games and
browser: a valid game, a forfeit (a forged card), and an abandonment.

    cd tests && python -m helpers.screenshots ../docs/images
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from helpers import pages
from helpers.browser import Browser

SHOTS = {"page-valid": pages.whole_game, "page-forfeit": pages.forged_card, "page-abandoned": pages.abandoned}


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, Browser(width=900, height=900) as browser:
        for name, make in SHOTS.items():
            log_path = make(Path(tmp) / f"{name}.p2plog")
            page = Path(tmp) / f"{name}.html"
            subprocess.run([sys.executable, "-m", "p2pspades", "export", str(log_path), "--format", "html",
                            "-o", str(page)], check=True, capture_output=True)
            browser.open(page)
            browser.screenshot(out / f"{name}.png", full=False)
            print(f"{out / name}.png", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../docs/images")))
