"""`p2pspades games` and `p2pspades stats` as people use them: real games played by real processes, each
profile seeing only its own, the JSON parsed, a damaged log and a game still being played listed plainly."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.net, pytest.mark.timeout(300)]


def machine(root: Path) -> dict[str, str]:
    env = dict(os.environ, P2PSPADES_HOME=str(root / "data"), XDG_CONFIG_HOME=str(root / "config"),
               LC_ALL="C.UTF-8", LANG="C.UTF-8", PYTHONUNBUFFERED="1")
    env.pop("P2PSPADES_PROFILE", None)
    return env


def p2pspades(root: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "p2pspades", *args], env=machine(root), capture_output=True,
                          text=True, timeout=timeout)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def played(root: Path, profile: str, *more: str) -> tuple[str, Path]:
    """Play a short game with `play --auto` as `profile`: its game id and log, as the program printed them."""
    done = p2pspades(root, "play", "--auto", "--target", "10", "--profile", profile, *more)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    match = re.search(r"^log (\S+\.p2plog): valid and complete", done.stdout, re.M)
    assert match is not None, done.stdout
    path = Path(match.group(1))
    return path.parent.parent.name if path.parent.name.startswith("seat-") else path.stem, path


def listed(root: Path, command: str, profile: str) -> Any:
    done = p2pspades(root, command, "--profile", profile, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_each_profile_lists_its_own_games_newest_first_and_its_stats_agree(tmp_path: Path) -> None:
    first, _ = played(tmp_path, "ana", "--seed", "2")
    second, _ = played(tmp_path, "ana", "--seed", "3")
    bo_game, bo_log = played(tmp_path, "bo", "--local", "--seed", "4")

    ana = listed(tmp_path, "games", "ana")["games"]
    assert [g["game_id"] for g in ana] == [second, first]
    for game in ana:
        assert game["verdict"]["status"] == "valid" and game["result"] == "complete"
        assert game["seat"] == 0 and game["players"][0]["name"] == "You" and len(game["players"]) == 4
        ours = game["players"][0]["side"]
        assert game["won"] == (["You", "North"] in game["winners"]) and ours == 0
        assert Path(game["log"]).is_file()
    (bo,) = listed(tmp_path, "games", "bo")["games"]
    assert bo["game_id"] == bo_game and Path(bo["log"]) == bo_log and bo["result"] == "complete"

    text = p2pspades(tmp_path, "games", "--profile", "ana")
    assert text.returncode == 0 and text.stdout.count("\n") == 3, text.stdout  # a header and two games
    assert "valid" in text.stdout and "You*+North vs West+East" in text.stdout

    s = listed(tmp_path, "stats", "ana")
    records = [json.loads(p2pspades(tmp_path, "export", g["log"], "--format", "json").stdout) for g in ana]
    hands = [h for r in records for h in r["hands"]]
    assert s["games"] == 2 and s["wins"] == sum(bool(g["won"]) for g in ana)
    assert s["hands"] == len(hands)
    assert s["points"] == sum(r["hands"][-1]["totals"][0]["score"] for r in records)
    assert s["contracts"]["made"] + s["contracts"]["set"] == sum(
        1 for h in hands if sum(b["bid"] for b in h["bids"] if b["seat"] in (0, 2)) > 0)
    (north,) = s["partners"]
    assert north["name"] == "North" and north["games"] == 2 and north["wins"] == s["wins"]
    assert listed(tmp_path, "stats", "bo")["games"] == 1


@pytest.mark.parametrize("command", [["games"], ["games", "--json"], ["stats"], ["stats", "--json"],
                                     ["resume"], ["resume", "--auto"],
                                     ["host", "--carry-on", "abc", "--auto"],
                                     ["host", "--rematch", "abc", "--auto"]])
def test_a_profile_never_played_is_an_error_that_lists_the_profiles_there_are(
        tmp_path: Path, command: list[str]) -> None:
    """A mistyped profile is not a profile with no games: every command that reads what a profile played
    says so in one line (exit 2), naming the profiles of this machine, and leaves no directory behind."""
    played(tmp_path, "ana", "--seed", "2", "--local")
    played(tmp_path, "bo", "--seed", "3", "--local")
    for chosen in (["--profile", "nosuchname"], []):
        env = dict(machine(tmp_path), **({} if chosen else {"P2PSPADES_PROFILE": "nosuchname"}))
        done = subprocess.run([sys.executable, "-m", "p2pspades", *command, *chosen], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
        assert done.stderr == (f"p2pspades {command[0]}: there is no profile 'nosuchname' on this machine; "
                               "the profiles here are: default, ana, bo\n"), done.stderr
    assert not (tmp_path / "data" / "profiles" / "nosuchname").exists()
    assert listed(tmp_path, "games", "default") == {"profile": "default", "games": []}


def test_a_damaged_log_is_listed_as_unreadable_and_left_out_of_the_stats(tmp_path: Path) -> None:
    _, good = played(tmp_path, "ana", "--seed", "2")
    _, bad = played(tmp_path, "ana", "--seed", "3")
    bad.write_bytes(b"this is not a log at all\n")

    games = p2pspades(tmp_path, "games", "--profile", "ana")
    assert games.returncode == 0, games.stderr
    (line,) = [line for line in games.stdout.splitlines() if str(bad) in line]
    assert "log unreadable" in line and "unreadable" in line.split("log unreadable", 1)[1]
    rows = {g["log"]: g for g in listed(tmp_path, "games", "ana")["games"]}
    assert rows[str(bad)]["result"] == "unreadable" and rows[str(bad)]["verdict"]["status"] == "unreadable"
    assert rows[str(good)]["verdict"]["status"] == "valid"
    s = listed(tmp_path, "stats", "ana")
    assert s["games"] == 1 and s["left_out"] == {"running": 0, "unreadable": 1}

    (good.parent / "local.json").write_text("{ damaged")
    games = p2pspades(tmp_path, "games", "--profile", "ana")
    assert games.returncode == 0 and "local.json" in games.stdout, games.stdout + games.stderr
    (line,) = [line for line in games.stdout.splitlines() if str(good.parent) in line]
    assert "log unreadable: cannot read" in line, line
    assert listed(tmp_path, "stats", "ana")["left_out"]["unreadable"] == 2


def test_a_game_being_played_is_said_so_and_once_killed_it_can_be_carried_on(tmp_path: Path) -> None:
    out = tmp_path / "cy.out"
    with open(out, "wb") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "p2pspades", "play", "--auto", "--target", "500",
                                 "--profile", "cy", "--seed", "1"], env=machine(tmp_path), stdout=sink,
                                stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while "hand  1:" not in out.read_text(errors="replace"):
            assert proc.poll() is None, out.read_text(errors="replace")
            assert time.monotonic() < deadline, out.read_text(errors="replace")
            time.sleep(0.05)
        (game,) = listed(tmp_path, "games", "cy")["games"]
        assert game["result"] == "running" and game["won"] is None
        assert "still being played" in p2pspades(tmp_path, "games", "--profile", "cy").stdout
        assert listed(tmp_path, "stats", "cy")["left_out"]["running"] == 1
    finally:
        proc.kill()
        proc.wait(timeout=10)
    (game,) = listed(tmp_path, "games", "cy")["games"]
    assert game["result"] == "unfinished" and game["verdict"]["status"] == "valid so far"
    shown = p2pspades(tmp_path, "games", "--profile", "cy").stdout
    assert f"carry on with: p2pspades resume {game['game_id'][:12]} --profile cy" in shown, shown
    counted = listed(tmp_path, "stats", "cy")
    assert counted["games"] == counted["unfinished"] == 1 and counted["wins"] == counted["losses"] == 0
    said = p2pspades(tmp_path, "stats", "--profile", "cy").stdout
    assert said.startswith("profile 'cy': 1 game (1 unfinished: no win or loss), 0 wins, 0 losses\n"), said
