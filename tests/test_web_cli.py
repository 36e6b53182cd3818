"""`--web` on the command line: options that do not go together are refused in one line, a port that is
taken is said so, the browser is opened only where it opens a window (and never with the page's secret on
its command line), and the lines a command prints after a game become the page's buttons."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import textwrap
import time
import webbrowser
from pathlib import Path

import pytest

from p2pspades.cli.page import command_words
from p2pspades.web import browser
from p2pspades.web.screen import Offer, offers_from


def p2pspades(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pspades", *args], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.parametrize(("args", "said"), [
    (["play", "--web-port", "8123"], "p2pspades play: --web-port goes with --web"),
    (["play", "--no-browser"], "p2pspades play: --no-browser goes with --web"),
    (["play", "--web", "--auto"], "p2pspades play: --web shows the game to a person in the browser"),
    (["play", "--web", "--local"], "p2pspades play: --web plays over the peers on 127.0.0.1"),
    (["play", "--web", "--web-port", "70000"], "p2pspades play: --web-port 70000 is not a port number"),
    (["join", "127.0.0.1:1", "--web", "--auto"], "p2pspades join: --web shows the game to a person"),
    (["resume", "--no-browser"], "p2pspades resume: --no-browser goes with --web"),
])
def test_options_that_do_not_go_together_are_refused_in_one_line(args: list[str], said: str) -> None:
    done = p2pspades(*args)
    assert done.returncode == 2
    assert done.stderr.startswith(said) and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.net
def test_a_port_that_is_taken_is_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = p2pspades("play", "--web", "--no-browser", "--web-port", str(port))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == (f"p2pspades play: cannot serve the page on 127.0.0.1:{port}: "
                           "Address already in use\n")


def test_the_page_leaves_out_its_own_options_from_a_new_game() -> None:
    assert command_words(["play", "--web", "--rules", "piki", "--web-port", "8123", "--no-browser"]) == [
        "p2pspades", "play", "--rules", "piki"]
    words = command_words(["play", "--web-port=8123", "--web", "--name", "Ann"])
    assert words == ["p2pspades", "play", "--name", "Ann"]


def test_the_lines_after_a_game_become_buttons() -> None:
    lines = ["play again with: p2pspades host --rematch 3f2a1b0c9d8e --port 45555 --name 'ana b'",
             "carry on with a bot: p2pspades host --carry-on 3f2a1b0c9d8e --port 45555",
             "join with: p2pspades join 192.168.1.20:45555 --bots 1", "final score: ana 120"]
    assert offers_from(lines) == [
        Offer("rematch", ("p2pspades", "host", "--rematch", "3f2a1b0c9d8e", "--port", "45555", "--name",
                          "ana b")),
        Offer("carry_on", ("p2pspades", "host", "--carry-on", "3f2a1b0c9d8e", "--port", "45555")),
        Offer("join", ("p2pspades", "join", "192.168.1.20:45555", "--bots", "1"))]
    assert offers_from([], ["p2pspades", "play"]) == [Offer("new", ("p2pspades", "play"))]
    labels = [o.to_json()["label"] for o in offers_from(lines)]
    assert labels == ["Rematch", "Carry on", "Join again"]


def test_no_browser_is_started_without_a_window(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert browser.graphical_browser() is None
    assert browser.open_page("http://127.0.0.1:1/" + "t" * 43 + "/") is False


def test_a_text_browser_is_never_started(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(webbrowser, "get", lambda *a: webbrowser.GenericBrowser("lynx"))
    assert browser.graphical_browser() is None


def test_the_browser_gets_a_private_file_not_the_secret(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """A windowed browser (here a program that notes what it was given) is given a file only this user can
    read, which sends it on to the page: the token is never on a command line `ps` shows."""
    seen = tmp_path / "seen"
    program = tmp_path / "windowed-browser"
    program.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import sys
        open({str(seen)!r}, "w").write(" ".join(sys.argv[1:]))
        """))
    program.chmod(0o700)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(webbrowser, "get", lambda *a: webbrowser.BackgroundBrowser(str(program)))
    url = "http://127.0.0.1:8123/" + "s" * 43 + "/"
    assert browser.open_page(url) is True
    deadline = time.monotonic() + 30  # the browser starts in the background: poll for what it was given
    while not (seen.exists() and seen.read_text()):
        assert time.monotonic() < deadline, "the browser was never started"
        time.sleep(0.02)
    given = seen.read_text()
    assert given.startswith("file://") and "s" * 43 not in given
    page = Path(given.removeprefix("file://"))
    assert stat.S_IMODE(page.stat().st_mode) == 0o600 and stat.S_IMODE(page.parent.stat().st_mode) == 0o700
    assert f'content="0; url={url}"' in page.read_text() and page.stat().st_uid == os.getuid()
