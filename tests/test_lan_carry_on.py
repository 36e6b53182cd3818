"""A continuation that is what it says, with real processes on 127.0.0.1: a modified host (helpers/liar.py)
proposes to carry on bo's abandoned game with his partner swapped for a bot of its own, another target or
other rules, or to bo who never played it. bo's program checks the whole proposed genesis against his own log
of the old game (what `verify --after` checks): with `--auto` it refuses each in one line; in a real terminal
the lobby shows each difference and accepting needs an explicit yes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.lan import Lan
from helpers.logs import write_log
from helpers.terminal import Terminal
from test_table_after import abandoned_after_a_hand, identity

from p2pspades.exits import ExitCode
from p2pspades.files import write_private
from p2pspades.net.store import GameStore, LocalSeat
from p2pspades.table import Table

pytestmark = [pytest.mark.net, pytest.mark.slow, pytest.mark.timeout(180)]

SEED = b"bo's evening"
GONE = 2
"""ana's partner, whose computer died: the seat a continuation gives a bot (bo sits at 1, his partner 3)."""
LIAR = Path(__file__).with_name("helpers") / "liar.py"


@pytest.fixture(scope="module")
def old() -> Table:
    """The abandoned game: ana (seat 0), bo (1), cy (2, gone after the first hand), dee (3)."""
    return abandoned_after_a_hand(SEED, gone=GONE)


def key_file(path: Path, seat: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_private(path, identity(SEED, seat).private_seed())
    return path


def bo_played(lan: Lan, old: Table, *, with_log: bool = True) -> None:
    """bo's machine: his key, and (`with_log`) his seat of the old game as his own program left it."""
    home = lan.root / "bo" / "data"
    key = key_file(home / "identities" / "player.key", 1)
    if with_log:
        store = GameStore(old.game_id, 1, home)
        store.save_local(LocalSeat(str(key), "person", leader=1))
        write_log(store.log_path, old.records)


def liar(lan: Lan, old: Table, lie: str) -> subprocess.Popen[bytes]:
    """ana's program, modified: it proposes to carry on the old game with `lie`, every seat but bo's taken."""
    old_log = write_log(lan.root / "old.p2plog", old.records)
    ana_key = key_file(lan.root / "ana.key", 0)
    with open(lan.root / "liar.out", "ab") as out:
        proc = subprocess.Popen([sys.executable, str(LIAR), str(lan.port), str(old_log), "--lie", lie,
                                 "--host-key", str(ana_key), "--fill", "--free", "1"],
                                env=dict(lan.env("liar"), PYTHONPATH=os.pathsep.join(sys.path)),
                                stdout=out, stderr=subprocess.STDOUT)
    lan.procs["liar"] = proc
    lan.wait_for("liar", "lobby: ")
    return proc


GID = r"[0-9a-f]{12}"


def said(old: Table, lie: str) -> str:
    """What bo is told about the lie (a pattern), the old game's players named as its genesis names them."""
    host, partner = (old.setup.seats[seat].name for seat in (0, 3))
    assert re.fullmatch(r"[\w ]+", host + partner)
    return {
        "partner": rf"seat 3 \(your partner's\) is {host}'s bot \(2\), who did not play game {GID}; "
                   f"{partner} sat there",
        "target": rf"the target is 1000, where game {GID} had 300",
        "rules": rf"rule deuces_high is true, where game {GID} had false",
        "never played": rf"you have no log of game {GID} here: nothing of it can be checked",
    }[lie]


@pytest.mark.parametrize("lie", ["partner", "target", "rules", "never played"])
def test_with_auto_every_change_and_a_game_never_played_are_refused_in_one_line(
        lan: Lan, old: Table, lie: str) -> None:
    bo_played(lan, old, with_log=lie != "never played")
    liar(lan, old, "nothing" if lie == "never played" else lie)
    lan.join("bo", "--address", "127.0.0.1")
    assert lan.finish("bo", timeout=60)["bo"] == ExitCode.FAILED, lan.out("bo")[-3000:]
    out = lan.out("bo")
    (line,) = [text for text in out.splitlines() if text.startswith("p2pspades join: ")]
    assert re.fullmatch(rf"p2pspades join: refused: the host's game continues game {GID} from \S+ "
                        rf"\(bags \d+, \d+\), seat \d deals: {said(old, lie)} \(to see it and decide, join "
                        r"without --auto\)", line), line
    assert "Traceback" not in out and "accepted" not in lan.out("liar")


def test_with_auto_the_continuation_as_it_should_be_is_accepted(lan: Lan, old: Table) -> None:
    bo_played(lan, old)
    liar(lan, old, "nothing")
    lan.join("bo", "--address", "127.0.0.1")
    lan.wait_for("liar", "accepted", timeout=60)
    assert "refused" not in lan.out("bo")


@pytest.mark.pty
@pytest.mark.parametrize("lie", ["partner", "target", "never played"])
def test_on_the_screen_each_change_is_shown_and_accepting_needs_an_explicit_yes(
        lan: Lan, old: Table, lie: str) -> None:
    bo_played(lan, old, with_log=lie != "never played")
    liar(lan, old, "nothing" if lie == "never played" else lie)
    bo = Terminal(lan.env("bo"), "bo", "join", lan.lobby, "--name", "bo", "--address", "127.0.0.1", rows=24,
                  cols=80)
    try:
        screen = bo.expect(r"accept \(a\) or decline \(d\)", 60)
        rules = " ".join(line[1:-1] for line in screen.split("Rules")[1].splitlines() if line.startswith("│"))
        assert re.search(r"!\s+" + said(old, lie).replace(" ", r"\s+"), rules), screen
        bo.proc.send("a")
        screen = bo.expect(r"Accept it all the same\? y accepts · n goes back")
        heading = ("Your own log cannot vouch for this game" if lie == "never played" else
                   "Your log of the game it follows says otherwise")
        assert f"{heading}: read the line marked !." in screen
        bo.proc.send("n")  # no, not yet: the question goes, nothing is answered
        bo.expect(r"accept \(a\) or decline \(d\)")
        assert "accepted" not in lan.out("liar")
        bo.proc.send("a")
        bo.expect(r"Accept it all the same\?")
        bo.proc.send("y")
        lan.wait_for("liar", "accepted", timeout=60)
    finally:
        bo.close()


@pytest.mark.pty
def test_on_the_screen_the_continuation_as_it_should_be_is_accepted_at_once(lan: Lan, old: Table) -> None:
    bo_played(lan, old)
    liar(lan, old, "nothing")
    bo = Terminal(lan.env("bo"), "bo", "join", lan.lobby, "--name", "bo", "--address", "127.0.0.1", rows=24,
                  cols=80)
    try:
        screen = bo.expect(r"accept \(a\) or decline \(d\)", 60)
        assert "!" not in screen.split("Rules")[1], screen
        bo.proc.send("a")
        lan.wait_for("liar", "accepted", timeout=60)
    finally:
        bo.close()
