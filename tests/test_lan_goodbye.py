"""Leaving and stopping on purpose, as people do, with real processes on 127.0.0.1 and the person in a real
terminal: bo leaves by the leave dialog, by Ctrl-C, or by closing his terminal, and his program signs a
goodbye. ana's table (her seat and her two bots, another process) ends at once with "bo left", never
"stopped answering": her program says so within seconds, with the carry-on command; every log of the game
verifies to the same result, alone and together (PROTOCOL.md §5.10). And bo proposes to stop, everybody
agrees, and they carry the game on from its scores another day (§5.11)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest
from helpers.lan import Lan
from helpers.terminal import Terminal
from test_lan_leaving import play_until

from p2pspades.audit import verify_file
from p2pspades.exits import ExitCode
from p2pspades.table import TableStatus

pytestmark = [pytest.mark.net, pytest.mark.pty, pytest.mark.slow, pytest.mark.timeout(240)]

ENDS_WITHIN = 10.0
"""How soon ana's program must say the game is over once bo has left (polled, against this deadline)."""


def ana_hosts(lan: Lan) -> None:
    """ana hosts with two bots of hers, a long game, her seat played by her bot (`--auto`)."""
    lan.host(4, "--name", "ana", "--bots", "2", "--target", "3000", name="ana")
    lan.wait_for("ana", "lobby: ")


def bo_joins(lan: Lan, *extra: str) -> Terminal:
    bo = Terminal(lan.env("bo"), "bo", "join", lan.lobby, "--name", "bo", "--address", "127.0.0.1", "--log",
                  str(lan.log("bo")), *extra, rows=30, cols=100)
    if "--auto" not in extra:
        bo.expect(r"accept \(a\) or decline \(d\)", 60)
        bo.proc.send("a")
    return bo


def ana_sees_bo_leave(lan: Lan) -> str:
    """ana's program says, within `ENDS_WITHIN` seconds, that bo left: his side forfeits, and she may carry
    the game on with a bot in his seat. Then it ends, exit code 3 (a game that stopped short)."""
    out = lan.wait_for("ana", "game over: ", timeout=ENDS_WITHIN)
    said = "game over: bo left the game (a signed goodbye); forfeit by bo: ana+ana's bot win"
    assert said in out, out[-2000:]
    assert lan.finish("ana")["ana"] == ExitCode.INCOMPLETE, lan.out("ana")[-2000:]
    out = lan.out("ana")
    assert "stopped answering" not in out and "voted" not in out, out[-2000:]
    assert re.search(r"^carry on with a bot: p2pspades host --carry-on [0-9a-f]{12} ", out, re.M), out[-2000:]
    return out


def logs_agree(lan: Lan) -> None:
    """Every log of the game (bo's, ana's, her bots') verifies to the same result: bo (seat 1) left, his side
    forfeits; and `verify` of them all together says the same, exit code 3."""
    logs = [lan.log("bo"), lan.log("ana"), *_paths(lan.root / "ana" / "data" / "games")]
    results = []
    for path in logs:
        verdict = verify_file(path)
        assert verdict.table is not None and verdict.table.status is TableStatus.LEFT, (path, verdict.summary)
        assert "seat 1 left the game (a signed goodbye)" in verdict.summary, verdict.summary
        results.append((verdict.table.result, verdict.table.entries))
    assert all(r == results[0] for r in results), results
    result = results[0][0]
    assert result is not None and result.leavers == (1,) and result.winners == (0,) and result.forfeit
    done = subprocess.run([sys.executable, "-m", "p2pspades", "verify", *map(str, logs)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == ExitCode.INCOMPLETE, done.stdout + done.stderr
    assert "seat 1 left the game (a signed goodbye)" in done.stdout, done.stdout


def history(lan: Lan, name: str, command: str) -> str:
    """What `p2pspades COMMAND` says in `name`'s profile."""
    done = subprocess.run([sys.executable, "-m", "p2pspades", command], env=lan.env(name),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def bo_said_goodbye(out: str) -> None:
    assert "leaving: your goodbye is on its way; staying up to 5 s until every seat holds it" in out, out
    assert "you left the game: your goodbye ends it on every table, and your side forfeits" in out, out
    assert "valid, ended at entry" in out and "seat 1 left the game (a signed goodbye)" in out, out


def test_a_joiner_who_leaves_by_the_dialog_ends_the_game_at_once_on_every_table(lan: Lan) -> None:
    """bo, mid-game, presses Ctrl-Q: the dialog says what leaving does (his goodbye ends the game for
    everyone, his side forfeits; x would ask to stop instead); he answers y. His program signs the goodbye,
    sends it, and ends (exit 0: he chose to leave)."""
    ana_hosts(lan)
    bo = bo_joins(lan)
    try:
        play_until(bo, lan, 40)
        bo.proc.send("\x11")  # Ctrl-Q
        screen = bo.expect("Leave the game now?")
        assert "ends it at once on every" in screen and "forfeits" in screen and "x asks" in screen, screen
        bo.proc.send("y")
        out = ana_sees_bo_leave(lan)
        bo.proc.expect(pexpect.EOF, timeout=30)
        said = (bo.proc.before or b"").decode(errors="replace")
        bo.proc.close()
        assert bo.proc.exitstatus == ExitCode.LEFT, said
        bo_said_goodbye(said)
    finally:
        bo.close()
    assert "bo left the game (a signed goodbye)" in out
    logs_agree(lan)
    # games and stats of each profile say who left, and count it for the leaver and against the others
    for name, end, count in [("ana", "you won", "0 left by you, 1 by another player"),
                             ("bo", "you lost", "1 left by you, 0 by another player")]:
        games, stats = history(lan, name, "games"), history(lan, name, "stats")
        assert f"bo left: ana+ana's bot won by forfeit ({end})  valid  " in games, games
        assert f"games ended by a goodbye (the leaver's side forfeits): {count}" in stats, stats


def test_a_joiner_who_presses_ctrl_c_leaves_with_a_goodbye(lan: Lan) -> None:
    """bo plays with --auto and presses Ctrl-C in his terminal: a signal, not a key of the game screen. His
    program signs the goodbye before it stops (exit 130, interrupted, as Ctrl-C always is)."""
    ana_hosts(lan)
    bo = bo_joins(lan, "--auto")
    try:
        deadline = time.monotonic() + 60
        while lan.entries("bo") < 40:
            assert time.monotonic() < deadline, bo.text()
            bo.pump()
        bo.proc.send("\x03")  # Ctrl-C: the terminal sends SIGINT
        ana_sees_bo_leave(lan)
        bo.proc.expect(pexpect.EOF, timeout=30)
        said = (bo.proc.before or b"").decode(errors="replace")
        bo.proc.close()
        assert bo.proc.exitstatus == ExitCode.INTERRUPTED, said
        bo_said_goodbye(bo.text().replace("\n", "") + said)
    finally:
        bo.close()
    logs_agree(lan)


def test_a_joiner_who_closes_his_terminal_leaves_with_a_goodbye(lan: Lan) -> None:
    """bo closes the window of his terminal mid-game (SIGHUP): nobody is left to ask, and his program signs
    the goodbye and ends."""
    ana_hosts(lan)
    bo = bo_joins(lan)
    try:
        play_until(bo, lan, 40)
        bo.hang_up()
        ana_sees_bo_leave(lan)
        status = bo.wait_ended()
        assert status == ExitCode.LEFT, status
    finally:
        bo.close()
    logs_agree(lan)


def _paths(root: Path) -> list[Path]:
    return sorted(root.glob("*/seat-*/game.p2plog"))


# ------------------------------------------------------------------ a stop by agreement, and another day
def printed(out: str, label: str) -> list[str]:
    """The command printed after `label: `, as words."""
    found = re.findall(rf"^{re.escape(label)}: (p2pspades .*)$", out, re.M)
    assert len(found) == 1, f"{label!r} printed {len(found)} times:\n{out[-3000:]}"
    return shlex.split(found[0].strip())


def test_a_stop_by_agreement_ends_the_game_with_its_scores_and_carries_on_another_day(lan: Lan) -> None:
    """bo, at his turn after a hand or so, presses x and proposes to stop: ana's program (--auto) and her
    bots agree, and the game ends on every table, stopped by agreement: nobody wins, the scores stand. ana's
    program prints the command that carries it on, bo's the one that joins; another day they type them (bo
    with --auto), and the new game continues the old one from its scores, as `verify --after` confirms."""
    lan.host(4, "--name", "ana", "--bots", "2", "--target", "200", name="ana")
    lan.wait_for("ana", "lobby: ")
    bo = bo_joins(lan)
    try:
        play_until(bo, lan, 140)  # past the first hand: scores to carry on
        deadline = time.monotonic() + 60
        while not re.search(r"Your (bid|turn)", bo.screen.display[-2]):
            assert time.monotonic() < deadline, bo.text()
            bo.pump()
        bo.proc.send("x")
        screen = bo.expect("Propose to stop the game here?")
        assert "scores standing" in screen and "nobody" in screen and "carry it on" in screen, screen
        bo.proc.send("y")
        bo.expect("Game over: stopped by agreement", 30)  # the prompt line (the box may come first)
        bo.proc.send("\r")
        bo.proc.expect(pexpect.EOF, timeout=30)
        said = (bo.proc.before or b"").decode(errors="replace")
        bo.proc.close()
        assert bo.proc.exitstatus == ExitCode.INCOMPLETE, said
    finally:
        bo.close()
    assert lan.finish("ana")["ana"] == ExitCode.INCOMPLETE, lan.out("ana")[-2000:]
    out = lan.out("ana")
    assert "bo proposes to stop here" in out and "game over: stopped by agreement" in out, out[-2000:]
    paused = r"the game pauses for the proposal to stop: every seat has up to \d+ s to agree"
    assert re.search(paused, out), out[-2000:]
    old = verify_file(lan.log("ana"))
    assert old.table is not None and old.table.status is TableStatus.STOPPED and old.table.game is not None
    totals, dealer = old.table.game.totals, old.table.game.dealer
    assert any(t.score for t in totals), "a hand was scored: there are scores to carry on"
    assert verify_file(lan.log("bo")).table.result == old.table.result  # type: ignore[union-attr]
    carry = printed(out, "carry on")  # no seat is gone: no bot to add
    games = history(lan, "ana", "games")  # the host's list offers the same command
    assert re.search(r"stopped by agreement after \d+ hands?: nobody won, the scores stand; carry on with: "
                     rf"{re.escape(shlex.join(carry[:4]))}  valid  ", games), games
    assert "1 game stopped by agreement (nobody won: the scores stand)" in history(lan, "bo", "stats")
    join = printed(said.replace("\r", ""), "join with")
    assert carry[:3] == ["p2pspades", "host", "--carry-on"], carry
    # another day: ana types what her program printed, bo his (letting his bot play, --auto)
    lan.p2pspades("ana", *carry[1:], "--log", str(lan.root / "ana2.p2plog"))
    lan.wait_for("ana", "the game at this table continues game")
    lan.p2pspades("bo", *join[1:], "--auto", "--log", str(lan.root / "bo2.p2plog"))
    codes = lan.finish("ana", "bo", timeout=180)
    assert codes == {"ana": ExitCode.OK, "bo": ExitCode.OK}, (lan.out("ana")[-3000:], lan.out("bo")[-3000:])
    new = verify_file(lan.root / "ana2.p2plog")
    assert new.table is not None and new.table.setup.after is not None, new.summary
    after = new.table.setup.after
    assert after.continues and after.game_id == old.table.game_id
    assert after.totals == totals and after.dealer == dealer
    words = ["verify", str(lan.root / "bo2.p2plog"), "--after", str(lan.log("bo"))]
    check = subprocess.run([sys.executable, "-m", "p2pspades", *words], capture_output=True, text=True,
                           timeout=120)
    assert check.returncode == ExitCode.OK and "continues game" in check.stdout, check.stdout + check.stderr
