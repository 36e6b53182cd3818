"""Every command the program prints for the person to type next works exactly as printed: run in a shell
of the same machine, it does what the line says."""

from __future__ import annotations

import os
import re
import shlex
import sys
import time
from pathlib import Path

import pexpect
import pytest
from helpers.terminal import drain, leave

pytestmark = [pytest.mark.net, pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(180)]


def machine(root: Path) -> dict[str, str]:
    """A shell of one machine: its data home, no profile chosen by the environment."""
    env = dict(os.environ, P2PSPADES_HOME=str(root / "data"), XDG_CONFIG_HOME=str(root / "config"),
               TERM="xterm-256color", LC_ALL="C.UTF-8", LANG="C.UTF-8")
    env.pop("P2PSPADES_PROFILE", None)
    return env


def typed(command: str, env: dict[str, str]) -> pexpect.spawn:
    """`command` as a person types it (`p2pspades ...`), in a terminal of its own."""
    words = shlex.split(command)
    assert words[0] == "p2pspades", command
    return pexpect.spawn(sys.executable, ["-m", "p2pspades", *words[1:]], dimensions=(24, 80), env=env,
                         encoding="utf-8", timeout=30)


def play_a_little_and_leave(child: pexpect.spawn, what: str) -> str:
    """Bid and play on the screen until a key has been pressed a few times, then leave: what it printed."""
    child.expect("Seats", timeout=60)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # Enter bids the default and plays the chosen legal card
        child.send("\r")
        time.sleep(0.3)
        drain(child)
    said = leave(child)
    child.close()
    assert child.exitstatus == 0, f"{what}: {said[-2000:]}"
    return said


def resume_hint(said: str) -> str:
    match = re.search(r"carry on with: (p2pspades [^\r\n]*)", said)
    assert match is not None, said[-2000:]
    return match.group(1).strip()


@pytest.mark.parametrize("chosen", ["option", "environment"])
def test_the_resume_command_printed_after_leaving_resumes_the_game(tmp_path: Path, chosen: str) -> None:
    env = machine(tmp_path)
    if chosen == "option":
        first = typed("p2pspades play --profile ana --target 500 --seed 5", env)
    else:  # the profile chosen by $P2PSPADES_PROFILE: the printed command still names it
        first = typed("p2pspades play --target 500 --seed 5", dict(env, P2PSPADES_PROFILE="ana"))
    try:
        hint = resume_hint(play_a_little_and_leave(first, "play"))
    finally:
        first.close(force=True)
    assert "--profile ana" in hint, hint
    game = hint.split()[2]
    again = typed(hint, env)  # exactly as printed, in a shell with no profile chosen
    try:
        again.expect(f"resuming game {game}", timeout=60)
        hint_again = resume_hint(play_a_little_and_leave(again, hint))
    finally:
        again.close(force=True)
    assert hint_again == hint
