"""Leaving and coming back as people do, with real processes on 127.0.0.1 and the person in a real terminal:
a resume that finds nobody left ends, in plain words, instead of waiting for ever."""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
import time

import pexpect
import pytest
from helpers.lan import Lan
from helpers.terminal import Terminal

from p2pspades.exits import ExitCode

pytestmark = [pytest.mark.net, pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(240)]


def play_until(bo: Terminal, lan: Lan, entries: int) -> None:
    """bo plays his own turns at once (the default bid, the chosen card, no blind nil) until his log holds
    `entries` entries."""
    deadline = time.monotonic() + 120
    while lan.entries("bo") < entries:
        assert time.monotonic() < deadline, bo.text()
        bo.pump()
        prompt = bo.screen.display[-2]
        if re.search(r"Your (bid|turn)", prompt):
            bo.proc.send("\r")
        elif "Blind nil?" in prompt:
            bo.proc.send("n")


def run(lan: Lan, name: str, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "p2pspades", *args], env=lan.env(name), capture_output=True,
                          text=True, timeout=120)
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


def test_a_late_resume_with_nobody_left_counts_down_then_says_how_to_learn_the_end(lan: Lan) -> None:
    """bo's computer dies mid-game; ana's program (her seat and her two bots) votes him out, ends the game
    and stops. When bo resumes, nobody answers: his screen counts down, then the program says the game may
    have ended without him, whose log tells how and the command that compares the logs, and exits with its
    own code. `games` marks the game, a plain `resume` no longer offers it, `stats` counts it unfinished,
    and the printed `verify`, given ana's log, says how it ended."""
    lan.host(4, "--name", "ana", "--bots", "2", "--target", "300", "--timeout-auto", "3",
             "--timeout-decision", "10", name="ana")
    lan.wait_for("ana", "lobby: ")
    bo = Terminal(lan.env("bo"), "bo", "join", lan.lobby, "--name", "bo", "--address", "127.0.0.1", "--log",
                  str(lan.log("bo")), rows=30, cols=100)
    try:
        bo.expect(r"accept \(a\) or decline \(d\)", 60)
        bo.proc.send("a")
        play_until(bo, lan, 40)
        bo.proc.kill(signal.SIGKILL)  # the computer dies: no goodbye, nothing flushed
    finally:
        bo.close()
    assert lan.finish("ana")["ana"] == ExitCode.INCOMPLETE, lan.out("ana")[-3000:]
    # every seat by name, as the lines of --auto say an abandonment (docs/playing.md)
    assert "ana, ana's bot and ana's bot 2 signed that bo stopped answering" in lan.out("ana"), lan.out("ana")
    assert "staying up to 10 s so that bo can take the end if it comes back" in lan.out("ana")

    late = Terminal(lan.env("bo"), "bo", "resume", "--timeout-sync", "6", rows=24, cols=80)
    screen = late.expect(r"nobody has answered yet; we give up in [1-6] s", 60)
    seconds = [int(re.findall(r"we give up in (\d) s", screen)[0])]
    while (left := re.findall(r"we give up in (\d) s", late.text())) or not seconds:
        if left and int(left[0]) != seconds[-1]:
            seconds.append(int(left[0]))
        try:
            late.pump()
        except AssertionError:  # the program ended: the countdown is over
            break
    late.proc.expect(pexpect.EOF, timeout=30)
    late.stream.feed(late.proc.before or b"")
    late.proc.close()
    assert late.proc.exitstatus == ExitCode.UNANSWERED, late.text()
    assert seconds == sorted(seconds, reverse=True) and len(seconds) >= 2, seconds
    said = late.text().replace("\n", "")  # the lines as the program printed them, unwrapped
    game = re.search(r"log of game ([0-9a-f]{12})", said)
    assert game is not None, said
    assert "nobody answered within 6 s: the other players' programs have stopped, so the game may" in said
    assert "ask ana for their log of game" in said
    verify = re.search(r"then: (p2pspades verify .+ THEIR_LOG)", said)
    assert verify is not None, said
    assert f"try again with: p2pspades resume {game.group(1)}" in said

    listed = run(lan, "bo", "games")
    assert "nobody answered its resume on" in listed.stdout and "carry on with" not in listed.stdout, listed
    again = run(lan, "bo", "resume")
    assert again.returncode == ExitCode.FAILED and "nobody answered its resume on" in again.stderr, again
    assert "(1 unfinished: no win or loss)" in run(lan, "bo", "stats").stdout

    ana_log = lan.log("ana")
    words = shlex.split(verify.group(1).replace("THEIR_LOG", shlex.quote(str(ana_log))))
    settled = run(lan, "bo", *words[1:])
    assert settled.returncode == ExitCode.INCOMPLETE, settled.stdout + settled.stderr
    seat = re.search(r"seat (\d): bo ", settled.stdout)
    # ana's log is upheld: as the longest, or, where bo's last entry never reached her, as a branch of a fork
    upheld = re.search(rf"^upheld: (the branch of )?{re.escape(str(ana_log))}", settled.stdout, re.M)
    assert upheld is not None, settled.stdout
    assert seat is not None, settled.stdout
    assert f"seat {seat.group(1)} kept the table waiting" in settled.stdout, settled.stdout
