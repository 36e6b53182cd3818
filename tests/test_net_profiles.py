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
    assert sorted(p.name for p in (home / "identities").iterdir()) == ["player-bot1.key", "player.key"]
    keys = {"ann": home / "identities" / "player.key",
            "bob": home / "profiles" / "bob" / "identities" / "player.key",
            "carol": home / "profiles" / "carol" / "identities" / "player.key"}
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


def test_a_profile_is_a_person_one_key_and_its_own_name_whatever_the_command_or_name(tmp_path: Path) -> None:
    machine = Machine(tmp_path)
    lobby = f"127.0.0.1:{free_port()}"
    nobody = f"127.0.0.1:{free_port()}"
    host = ("host", "--auto", "--bots", "2", "--target", "10", "--address", "127.0.0.1", "--no-advertise")
    try:
        # no --name: the profile's name is the seat's, and the table is named after it
        machine.start("ana", *host, "--port", lobby.split(":")[1], "--profile", "ana")
        out = machine.wait_for("ana", "lobby: ")
        assert "hosting table \"ana's table\"" in out and " as ana, key " in out, out
        machine.start("bo", "join", lobby, "--auto", "--profile", "bo")
        codes = {name: proc.wait(timeout=120) for name, proc in machine.procs.items()}
        assert codes == {"ana": 0, "bo": 0}, {n: machine.out(n)[-2000:] for n in codes}
        assert re.search(r"\[0:ana, .*\b\d:bo[,\]]", machine.out("ana")), machine.out("ana")
        prints = {"ana": {machine.key_printed("ana")}, "bo": {machine.key_printed("bo")}}
        # the same people under other names and other commands: each line prints the key it signs with
        others = {
            "ana-named": ("ana", [*host, "--port", "0", "--name", "Ana Banana"]),
            "ana-plays": ("ana", ["play", "--auto", "--target", "10"]),
            "bo-named": ("bo", ["join", nobody, "--auto", "--name", "Bo"]),
            "bo-plays": ("bo", ["play", "--auto", "--target", "10", "--name", "Bob"]),
            "bo-env": ("bo", ["join", nobody, "--auto"]),
        }
        for run, (person, args) in others.items():
            if run == "bo-env":
                machine.start(run, *args, profile=person)
            else:
                machine.start(run, *args, "--profile", person)
            machine.wait_for(run, " key ")
            prints[person].add(machine.key_printed(run))
            machine.procs[run].kill()
            machine.procs[run].wait(timeout=10)
    finally:
        machine.stop()
    assert " as Ana Banana, key " in machine.out("ana-named") and " as Bo, key " in machine.out("bo-named")
    assert " as bo, key " in machine.out("bo-env")
    assert len(prints["ana"]) == 1 and len(prints["bo"]) == 1, prints
    assert prints["ana"] != prints["bo"]
    bo_key = machine.home / "profiles" / "bo" / "identities" / "player.key"
    assert prints["bo"] == {crypto.Identity.load(bo_key).fingerprint}


def test_a_profile_from_before_keeps_its_key_and_an_unreadable_one_is_one_clear_line(tmp_path: Path) -> None:
    machine = Machine(tmp_path)
    nobody = f"127.0.0.1:{free_port()}"
    # a home from before: a key per name used (cy's own, one for `play`'s "You"), and bot keys
    keys = machine.home / "profiles" / "cy" / "identities"
    keys.mkdir(parents=True)
    old = crypto.Identity.load_or_create(keys / "cy.key")
    for name in ("you", "cy-bot1"):
        crypto.Identity.load_or_create(keys / f"{name}.key")
    # only one person's key, under another name, and a bot's
    (only := machine.home / "profiles" / "dee" / "identities").mkdir(parents=True)
    dee = crypto.Identity.load_or_create(only / "Dee-Smith.key")
    crypto.Identity.load_or_create(only / "dee-smith-bot3.key")
    try:
        for run, profile in (("cy", "cy"), ("cy-again", "cy"), ("dee", "dee")):
            machine.start(run, "join", nobody, "--auto", "--name", "Someone", "--profile", profile)
            machine.wait_for(run, " key ")
            machine.procs[run].kill()
            machine.procs[run].wait(timeout=10)
    finally:
        machine.stop()
    assert machine.key_printed("cy") == machine.key_printed("cy-again") == old.fingerprint
    assert machine.key_printed("dee") == dee.fingerprint
    assert (keys / "cy.key").is_file(), "the old file stays, for the games saved with it"
    # a key file that is not a key: one line that names the profile and the file, no traceback
    (keys / "player.key").write_bytes(b"not a key")
    done = machine.run("join", nobody, "--auto", "--profile", "cy")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "profile 'cy' cannot be used" in done.stderr and str(keys / "player.key") in done.stderr
