"""Small things a person meets at the command line, each with a real process: Ctrl-C while a command is
still starting, an address mistyped for `join`, the help of `--bot`, the text export's hands, the docs' log
path."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.terminal import as_a_terminal_starts_it

from p2pspades.bots import BOT_KINDS
from p2pspades.rules import Suit, parse_cards

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

GAME = Path(__file__).parent.parent / "protocol" / "vectors" / "game_v2.p2plog"


def machine(root: Path) -> dict[str, str]:
    env = dict(os.environ, P2PSPADES_HOME=str(root / "data"), XDG_CONFIG_HOME=str(root / "config"),
               LC_ALL="C.UTF-8", LANG="C.UTF-8")
    env.pop("P2PSPADES_PROFILE", None)
    return env


def p2pspades(root: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pspades", *args], env=machine(root), capture_output=True,
                          text=True, timeout=timeout)


def started(pid: int) -> bool:
    """The program's own imports have begun: the first C extension it loads (PyNaCl's cffi backend) is
    mapped. Before that, the interpreter is still reading its own start-up files, which no program can
    make quiet."""
    try:
        return "_cffi_backend" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc to see the program start")
@pytest.mark.parametrize("command", [["verify", str(GAME)], ["tables", "--timeout", "3"],
                                     ["export", str(GAME), "--format", "text"]])
def test_ctrl_c_in_the_first_second_is_one_line_and_exit_130(tmp_path: Path, command: list[str]) -> None:
    interrupted = 0
    for delay in (0.0, 0.05, 0.15, 0.3, 0.6):
        proc = subprocess.Popen([sys.executable, "-m", "p2pspades", *command], env=machine(tmp_path),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=as_a_terminal_starts_it)
        deadline = time.monotonic() + 30
        while not started(proc.pid) and proc.poll() is None:
            assert time.monotonic() < deadline, "the program never started"
            time.sleep(0.002)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert "Traceback" not in err and "Exception ignored" not in err, err
        if proc.returncode == 0:
            continue  # it was done before the key
        interrupted += 1
        assert "Traceback" not in err, err
        lines = [line for line in err.splitlines() if line.strip()]
        if proc.returncode == -signal.SIGINT:
            # a Ctrl-C that strikes inside exec() (a dataclass being made) makes CPython end the process by
            # the signal itself, before any word, which a shell reports as the same 130
            assert lines in ([], ["interrupted"]), err
            continue
        # 130 as the program returns it, and one line (after the progress line a command may have said)
        assert proc.returncode == 130, (proc.returncode, err)
        assert lines[-1:] == ["interrupted"] and len(lines) <= 2, err
    assert interrupted >= 4, "the command ended before it could be interrupted"


FINALIZED = """
import sys
from p2pspades.cli import main, rules

class Finalized:
    def __del__(self) -> None:
        raise KeyboardInterrupt  # a Ctrl-C that strikes while the finalizer runs

def went_on() -> int:
    print("went on", flush=True)
    return 0

def run(args: object) -> int:
    Finalized()  # gone at once: Python can only report what its finalizer raised, and go on
    return {then}

rules.run = run
sys.exit(main.main(["rules"]))
"""


@pytest.mark.parametrize("then", ["went_on()", "0"])
def test_a_ctrl_c_that_python_cannot_raise_where_it_strikes_comes_again(tmp_path: Path, then: str) -> None:
    """A Ctrl-C in a finalizer, or in a callback of the import machinery while a command is still loading,
    would be printed as 'Exception ignored' with a traceback, and lost: the command takes it again at the next
    function it calls (or as it ends, if it calls none), and stops on it with its one line and 130."""
    done = subprocess.run([sys.executable, "-c", FINALIZED.format(then=then)], env=machine(tmp_path),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 130, (done.returncode, done.stdout, done.stderr)
    assert done.stdout == "", "the command stopped at the next function it called"
    assert done.stderr.split() == ["interrupted"], done.stderr


@pytest.mark.parametrize(("given", "says"), [
    ("127.0.0.1", "127.0.0.1 is an address without the lobby's port: give HOST:PORT"),
    ("127.0.0.1:abc", "127.0.0.1:abc: 'abc' is not a port number: give HOST:PORT"),
    ("tcp://127.0.0.1", "tcp://127.0.0.1 is an address without the lobby's port: give HOST:PORT"),
])
def test_an_address_without_a_whole_port_is_a_hint_not_a_search_for_a_table(
        tmp_path: Path, given: str, says: str) -> None:
    done = p2pspades(tmp_path, "join", given, "--auto")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith(f"p2pspades join: {says}") and done.stderr.count("\n") == 1, done.stderr
    assert "looking for table" not in done.stdout, done.stdout


@pytest.mark.parametrize("command", ["play", "host", "join", "resume"])
def test_every_bot_level_bot_takes_is_in_its_help_and_the_readme(tmp_path: Path, command: str) -> None:
    done = p2pspades(tmp_path, command, "--help")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    bot_help = text[text.index("--bot LEVEL bot level"):]
    for kind in BOT_KINDS:
        assert re.search(rf"\b{kind}\b", bot_help[:200]), (kind, bot_help[:200])
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    (line,) = [line for line in readme.splitlines() if line.startswith("| `p2pspades play [")]
    assert all(re.search(rf"\b{kind}\b", line) for kind in BOT_KINDS), line


@pytest.mark.net
def test_the_log_path_the_docs_give_is_where_play_writes_it(tmp_path: Path) -> None:
    done = p2pspades(tmp_path, "play", "--auto", "--target", "10", "--seed", "2", timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    match = re.search(r"; log: (\S+)", done.stdout)
    assert match is not None, done.stdout
    written = Path(match.group(1)).relative_to(tmp_path / "data")
    game = re.search(r"^game ([0-9a-f]{32}): seat (\d+)", done.stdout, re.M)
    assert game is not None, done.stdout
    docs = (Path(__file__).parent.parent / "docs" / "playing.md").read_text()
    pattern = re.search(r"by default the data directory's\s+`([^`]+)`", docs)
    assert pattern is not None
    documented = pattern.group(1).replace("<game id>", game.group(1)).replace("<n>", game.group(2))
    assert written == Path(documented) and (tmp_path / "data" / written).is_file()


def test_the_text_export_writes_each_deal_sorted_by_suit_high_to_low(tmp_path: Path) -> None:
    done = p2pspades(tmp_path, "export", str(GAME), "--format", "text")
    assert done.returncode == 0, done.stderr
    deals = re.findall(r'^\[Deal "(.*)"\]$', done.stdout, re.M)
    assert deals, done.stdout[:2000]
    order = [Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS]
    for deal in deals:
        for hand in deal.split(" / "):
            cards = parse_cards(hand.split(": ", 1)[1])
            keys = [(order.index(c.suit), -int(c.rank)) for c in cards]
            assert keys == sorted(keys) and len(set(keys)) == len(keys), hand


def test_the_auto_progress_says_connected_again_only_when_the_lost_seat_is_heard_again(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A seat killed while we waited for it: once the table waits for another seat, or the game is over, the
    lost seat is still silent, and nobody is "connected again" until it is heard from."""
    from types import SimpleNamespace

    from p2pspades.cli.progress import Progress
    from p2pspades.net.status import Phase, Status
    from p2pspades.rules import preset
    from p2pspades.table.genesis import SeatInfo, Setup

    setup = Setup(bytes(16), "Kitchen", preset("classic"),
                  tuple(SeatInfo(s, n, bytes([s + 1]) * 32) for s, n in enumerate(["ana", "bo", "cy", "di"])))
    progress = Progress(SimpleNamespace(table=SimpleNamespace(setup=setup)), grace=0)  # type: ignore[arg-type]
    progress.on_status(Status(Phase.WAITING, 0, 40, waiting_for=2, away={2: 7}))
    assert "waiting for seat 2 (disconnected 7 s)" in capsys.readouterr().out
    progress.on_status(Status(Phase.WAITING, 0, 41, waiting_for=3, away={2: 8}))  # moved on; cy still gone
    assert "connected again" not in capsys.readouterr().out
    progress.on_status(Status(Phase.WAITING, 0, 42, waiting_for=2, away={2: 9}))
    progress.on_status(Status(Phase.WAITING, 0, 43, waiting_for=2, away={}))  # cy is back
    assert "every seat is connected again" in capsys.readouterr().out
