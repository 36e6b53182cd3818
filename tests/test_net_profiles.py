"""Profiles, with real processes: several players on one machine, each its own identity and data directory;
one identity never plays in two processes at once; everything lives under the data home."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.net import free_port

from p2pspades import crypto
from p2pspades.audit import Status, verify_file

pytestmark = [pytest.mark.net, pytest.mark.slow, pytest.mark.timeout(150)]


class Machine:
    """One computer's worth of p2pspades processes: one data home, no profile chosen by default."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "data"
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def env(self, profile: str | None = None) -> dict[str, str]:
        env = dict(os.environ, P2PSPADES_HOME=str(self.home), XDG_CONFIG_HOME=str(self.root / "xdg-config"),
                   XDG_DATA_HOME=str(self.root / "xdg-data"), PYTHONUNBUFFERED="1")
        env.pop("P2PSPADES_PROFILE", None)
        if profile is not None:
            env["P2PSPADES_PROFILE"] = profile
        return env

    def start(self, name: str, *args: str, profile: str | None = None) -> None:
        with open(self.root / f"{name}.out", "wb") as out:
            self.procs[name] = subprocess.Popen([sys.executable, "-m", "p2pspades", *args],
                                                env=self.env(profile), stdout=out, stderr=subprocess.STDOUT)

    def run(self, *args: str, profile: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "p2pspades", *args], env=self.env(profile),
                              capture_output=True, text=True, timeout=60)

    def out(self, name: str) -> str:
        return (self.root / f"{name}.out").read_text(errors="replace")

    def wait_for(self, name: str, text: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while text not in (out := self.out(name)):
            assert self.procs[name].poll() is None, f"{name} exited:\n{out[-3000:]}"
            assert time.monotonic() < deadline, f"{name} never printed {text!r}:\n{out[-3000:]}"
            time.sleep(0.05)
        return out

    def key_printed(self, name: str) -> str:
        match = re.search(r" key ([0-9a-z]{4}(?:-[0-9a-z]{4}){3})", self.out(name))
        assert match is not None, self.out(name)
        return match.group(1)

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=10)


def assert_refused(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "in use by another p2pspades process" in done.stderr and "--profile" in done.stderr


def test_three_profiles_on_one_machine_play_and_a_profile_in_use_is_refused(tmp_path: Path) -> None:
    machine = Machine(tmp_path)
    lobby = f"127.0.0.1:{free_port()}"
    try:
        machine.start("ann", "host", "--name", "Ann", "--bots", "1", "--rules", "partnership", "--address",
                      "127.0.0.1", "--port", lobby.split(":")[1], "--no-advertise", "--log",
                      str(tmp_path / "ann.p2plog"), "--auto", "--target", "10")
        machine.wait_for("ann", "lobby: ")
        # the host holds the default profile: a second process on it is refused, before it does anything
        assert_refused(machine.run("join", lobby, "--name", "Ann", "--auto"))
        machine.start("bob", "join", lobby, "--name", "Bob", "--log", str(tmp_path / "bob.p2plog"), "--auto",
                      profile="bob")
        machine.wait_for("bob", "connecting to ")
        # $P2PSPADES_PROFILE chose Bob's profile; --profile names the same one, which is in use
        assert_refused(machine.run("join", lobby, "--profile", "bob", "--name", "Bob", "--auto"))
        machine.start("carol", "join", lobby, "--profile", "carol", "--name", "Carol", "--log",
                      str(tmp_path / "carol.p2plog"), "--auto")
        codes = {name: proc.wait(timeout=120) for name, proc in machine.procs.items()}
    finally:
        machine.stop()
    assert codes == {"ann": 0, "bob": 0, "carol": 0}, {n: machine.out(n)[-2000:] for n in codes}
    for name in codes:
        verdict = verify_file(tmp_path / f"{name}.p2plog")
        assert verdict.status is Status.VALID, verdict.summary
    # every key is under the data home: the default profile's at its top, the others' in profiles/NAME
    home = machine.home
    assert sorted(p.name for p in (home / "identities").iterdir()) == ["ann-bot1.key", "ann.key"]
    keys = {"ann": home / "identities" / "ann.key",
            "bob": home / "profiles" / "bob" / "identities" / "bob.key",
            "carol": home / "profiles" / "carol" / "identities" / "carol.key"}
    prints = {name: crypto.Identity.load(path).fingerprint for name, path in keys.items()}
    assert prints == {name: machine.key_printed(name) for name in keys}
    assert len(set(prints.values())) == 3
    assert not list(tmp_path.glob("xdg-*/**/*.key"))
    assert [p.name for p in (home / "profiles" / "bob" / "games").iterdir()]  # bob's seat directory is his


def test_a_profile_is_free_again_once_its_process_is_gone(tmp_path: Path) -> None:
    machine = Machine(tmp_path)
    lobby = f"127.0.0.1:{free_port()}"
    try:
        machine.start("host", "host", "--auto", "--address", "127.0.0.1", "--port", lobby.split(":")[1],
                      "--no-advertise", profile="dana")
        machine.wait_for("host", "lobby: ")
        assert_refused(machine.run("host", "--auto", "--port", "0", "--address", "127.0.0.1", profile="dana"))
        machine.procs["host"].kill()  # however abruptly it ends, its lock goes with it
        machine.procs["host"].wait(timeout=10)
        done = machine.run("resume", "--auto", profile="dana")  # takes the profile, finds nothing to resume
        assert done.returncode == 2 and "no game on this machine to resume" in done.stderr, done.stderr
    finally:
        machine.stop()
