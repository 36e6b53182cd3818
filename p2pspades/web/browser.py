"""Opening the page in the person's browser, without putting its secret where others can read it.

A browser started with the page's URL would carry the token on its command line, which every user of the
machine can read (`ps`). So the browser is given a file instead, readable by this user only, that sends it
on to the URL (as Jupyter does). A text-mode browser, which would take over the terminal the game's status
line is in, is never started: the URL is printed for the person to open.
"""

from __future__ import annotations

import atexit
import html
import os
import shutil
import sys
import tempfile
import webbrowser
from pathlib import Path


def graphical_browser() -> webbrowser.BaseBrowser | None:
    """The default browser if it opens a window of its own (not one that runs in this terminal)."""
    windowed = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if sys.platform.startswith("linux") and not windowed:
        return None  # no screen for a window: only text browsers could open it
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return None
    if isinstance(browser, webbrowser.BackgroundBrowser):
        return browser  # xdg-open, a browser started in the background: a window of its own
    if isinstance(browser, webbrowser.GenericBrowser) or getattr(browser, "background", True) is False:
        return None  # lynx, w3m, www-browser, elinks...: they would run in this terminal
    return browser


def redirect_file(url: str) -> Path:
    """A page in a directory of this user's only (0700) that sends the browser on to `url`; removed when
    the program ends."""
    folder = Path(tempfile.mkdtemp(prefix="p2pspades-page-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "open.html"
    link = html.escape(url, quote=True)
    path.write_text(f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
                    f'<meta http-equiv="refresh" content="0; url={link}"><title>p2pspades</title></head>'
                    f'<body><a href="{link}">p2pspades</a></body></html>\n', encoding="utf-8")
    path.chmod(0o600)
    return path


def open_page(url: str) -> bool:
    """Open `url` in a graphical browser; False if there is none to open it (the caller prints it)."""
    browser = graphical_browser()
    if browser is None:
        return False
    try:
        return bool(browser.open(redirect_file(url).as_uri()))
    except (OSError, webbrowser.Error):
        return False
