"""Peers as separate processes on 127.0.0.1: `python -m p2pspades host|join|resume ...` and the cheating peer
of helpers/cheater.py, each with a home of its own, as if on its own machine."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from helpers.net import free_port
from helpers.terminal import Terminal
from p2pspades import log

T = TypeVar("T")

PRESET = {4: "partnership", 3: "cutthroat3", 2: "two"}
SHORT = ["--target", "10"]
"""A game of one or two hands."""
CHEATER = Path(__file__).with_name("cheater.py")


class Outputs:
    """Processes of one test under names, each writing to `<root>/<name>.out`, which a test reads."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def out(self, name: str) -> str:
        path = self.root / f"{name}.out"
        return path.read_text(errors="replace") if path.exists() else ""

    def wait_for(self, name: str, text: str, timeout: float = 60) -> str:
        """Wait until `name` printed `text`; returns everything it printed."""
        deadline = time.monotonic() + timeout
        while text not in (out := self.out(name)):
            proc = self.procs[name]
            assert proc.poll() is None, f"{name} exited with {proc.returncode}:\n{out[-3000:]}"
            assert time.monotonic() < deadline, f"{name} never printed {text!r}:\n{out[-3000:]}"
            time.sleep(0.05)
        return out


class Lan(Outputs):
    """The peer processes of one test, each with a home of its own; all killed and reaped at the end."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.port = free_port()
        self.lobby = f"127.0.0.1:{self.port}"
        self.table = f"Test table {self.port}"
        """Unique on the LAN, so tables other test runs advertise meanwhile cannot be confused with it."""

    def env(self, name: str) -> dict[str, str]:
        home = self.root / name
        return dict(os.environ, P2PSPADES_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
                    PYTHONUNBUFFERED="1")

    def log(self, name: str) -> Path:
        return self.root / f"{name}.p2plog"

    def p2pspades(self, name: str, *args: str, key: str | None = None) -> subprocess.Popen[bytes]:
        with open(self.root / f"{name}.out", "ab") as out:
            proc = subprocess.Popen([sys.executable, "-m", "p2pspades", *args], env=self.env(name),
                                    stdout=out, stderr=subprocess.STDOUT)
        self.procs[key or name] = proc
        return proc

    def cheater(self, attack: str, *extra: str, name: str = "cheater") -> subprocess.Popen[bytes]:
        """The modified peer of helpers/cheater.py, running `attack`, joins this table."""
        home = self.root / name
        with open(self.root / f"{name}.out", "ab") as out:
            proc = subprocess.Popen([sys.executable, str(CHEATER), attack, self.lobby, str(home / "data"),
                                     *extra], env=self.env(name), stdout=out, stderr=subprocess.STDOUT)
        self.procs[name] = proc
        return proc

    def host(self, players: int, *extra: str, name: str = "p0") -> subprocess.Popen[bytes]:
        return self.p2pspades(name, "host", "--name", name, "--auto", "--rules", PRESET[players], "--address",
                              "127.0.0.1", "--port", str(self.port), "--log", str(self.log(name)),
                              "--table", self.table, *SHORT, *extra)

    def join(self, name: str, *extra: str, table: str | None = None) -> subprocess.Popen[bytes]:
        return self.p2pspades(name, "join", table or self.lobby, "--name", name, "--auto", "--log",
                              str(self.log(name)), *extra)

    def start(self, players: int, *extra: str) -> None:
        self.host(players, *extra)
        self.wait_for("p0", "lobby: ")
        for i in range(1, players):
            self.join(f"p{i}", *extra)

    def entries(self, name: str) -> int:
        path = self.log(name)
        try:
            return len(log.read_log(path).frames)
        except (OSError, log.LogError):  # not there yet, or created but its magic not yet written
            return 0

    def kill_when(self, name: str, entries: int) -> int:
        """SIGKILL `name` as soon as its log holds `entries` entries; returns how many it held."""
        deadline = time.monotonic() + 60
        while (held := self.entries(name)) < entries:
            assert self.procs[name].poll() is None, self.out(name)[-3000:]
            assert time.monotonic() < deadline
            time.sleep(0.005)
        self.procs[name].send_signal(signal.SIGKILL)
        assert self.procs[name].wait(timeout=10) == -signal.SIGKILL
        return held

    def finish(self, *names: str, timeout: float = 90) -> dict[str, int]:
        return {n: self.procs[n].wait(timeout=timeout) for n in names}

    def seat_of(self, name: str) -> int:
        match = re.search(r"^game [0-9a-f]{32}: seat (\d)", self.out(name), re.M)
        assert match is not None, self.out(name)
        return int(match.group(1))

    def close(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
            proc.wait()


class Stalled:
    """A joiner's screen (`bo`) at a table whose host stopped answering (SIGSTOP); `resume()` continues it."""

    def __init__(self, host: subprocess.Popen[bytes], bo: Terminal) -> None:
        self.host, self.bo = host, bo
        self.stopped = False

    def stop(self) -> None:
        os.kill(self.host.pid, signal.SIGSTOP)
        self.stopped = True

    def resume(self) -> None:
        if self.stopped:
            os.kill(self.host.pid, signal.SIGCONT)
            self.stopped = False

    def play_until(self, done: Callable[[str], T | None], what: str, seconds: float = 90) -> T:
        """Play bo's own turns (the default bid, the chosen card, no blind nil) until `done(prompt line)`
        gives something, which it returns; `what` names it if it never comes."""
        bo = self.bo
        deadline = time.monotonic() + seconds
        while (found := done(bo.screen.display[-2])) is None:
            assert time.monotonic() < deadline, f"{what} never shown:\n{bo.text()}"
            bo.pump()
            if re.search(r"Your (bid|turn)", bo.screen.display[-2]):
                bo.proc.send("\r")
                while re.search(r"Your (bid|turn)", bo.screen.display[-2]):
                    bo.pump()
            elif "Blind nil?" in bo.text():
                bo.proc.send("n")
        return found


@contextmanager
def stalled_host(lan: Lan) -> Iterator[Stalled]:
    """ana hosts with two bots, bo joins in a terminal (timeouts of 40 s) and accepts; once the game is under
    way ana's program (her seat and her bots) stops answering. Continued and closed at the end."""
    host = lan.p2pspades("ana", "host", "--name", "ana", "--auto", "--bots", "2", "--address", "127.0.0.1",
                         "--port", str(lan.port), "--no-advertise", "--target", "100")
    lan.wait_for("ana", "lobby: ")
    bo = Terminal(lan.env("bo"), "bo", "join", lan.lobby, "--name", "bo", "--address", "127.0.0.1",
                  "--timeout-decision", "40", "--timeout-auto", "40", rows=40, cols=200)
    stalled = Stalled(host, bo)
    try:
        bo.expect(r"accept \(a\) or decline \(d\)", 60)
        bo.proc.send("a")
        bo.expect(r"Your (bid|turn)|Blind nil\?|Waiting for", 120)
        stalled.stop()
        yield stalled
    finally:
        stalled.resume()
        bo.close()
