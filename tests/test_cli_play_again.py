"""The commands printed at the end of a LAN game to play again ("play again with: ...", "carry on with a bot:
...", "join with: ...") work exactly as printed, typed in a shell of the same machine: a rematch at the same
table, and an abandoned game carried on from its scores with a bot in the empty seat."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.lan import Outputs
from helpers.net import free_port
from helpers.terminal import as_a_terminal_starts_it

from p2pspades import log
from p2pspades.audit import verify_file
from p2pspades.table import CONTINUATION, REMATCH

pytestmark = [pytest.mark.net, pytest.mark.slow, pytest.mark.timeout(420)]

FAST = ["--timeout-auto", "5", "--timeout-decision", "5"]


class Shell(Outputs):
    """One machine's shell: a data home, each player a profile of it; commands typed as a person types them,
    their output kept per name."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.env = dict(os.environ, P2PSPADES_HOME=str(root / "data"), XDG_CONFIG_HOME=str(root / "config"),
                        PYTHONUNBUFFERED="1")
        self.env.pop("P2PSPADES_PROFILE", None)

    def typed(self, name: str, command: str) -> subprocess.Popen[bytes]:
        words = shlex.split(command)
        assert words[0] == "p2pspades", command
        with open(self.root / f"{name}.out", "wb") as out:
            proc = subprocess.Popen([sys.executable, "-m", "p2pspades", *words[1:]], env=self.env,
                                    stdout=out, stderr=subprocess.STDOUT, preexec_fn=as_a_terminal_starts_it)
        self.procs[name] = proc
        return proc

    def wait_for(self, name: str, text: str, timeout: float = 120) -> str:
        return super().wait_for(name, text, timeout)

    def finish(self, name: str, timeout: float = 240) -> int:
        return self.procs[name].wait(timeout=timeout)

    def printed(self, name: str, label: str) -> str:
        """The command `name` printed after `label: `."""
        found = re.findall(rf"^{re.escape(label)}: (p2pspades .*)$", self.out(name), re.M)
        assert len(found) == 1, f"{name} printed {label!r} {len(found)} times:\n{self.out(name)[-3000:]}"
        return str(found[0]).strip()

    def log_of(self, name: str) -> Path:
        match = re.findall(r"^game [0-9a-f]{32}: seat \d .*; log: (.+)$", self.out(name), re.M)
        assert match, self.out(name)[-3000:]
        return Path(match[-1].strip())

    def close(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
            proc.wait()


@pytest.fixture
def shell(tmp_path: Path) -> Iterator[Shell]:
    machine = Shell(tmp_path)
    yield machine
    machine.close()


def genesis_after(path: Path) -> dict[str, object] | None:
    after = log.open_envelope(log.read_log(path).frames[0]).payload.get("after")
    return None if after is None else dict(after)


def verify_after(shell: Shell, new: Path, old: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pspades", "verify", str(new), "--after", str(old)],
                          env=shell.env, capture_output=True, text=True, timeout=240, check=False)


def test_play_again_and_join_with_as_printed_make_a_rematch_at_the_same_table(shell: Shell) -> None:
    port = free_port()
    shell.typed("ana", f"p2pspades host --profile ana --auto --rules two --target 30 --address 127.0.0.1 "
                f"--port {port} --no-advertise")
    shell.wait_for("ana", "lobby: ")
    shell.typed("bo", f"p2pspades join 127.0.0.1:{port} --profile bo --auto --address 127.0.0.1")
    assert shell.finish("ana") == 0 and shell.finish("bo") == 0, shell.out("ana")[-3000:]
    first = shell.log_of("ana")
    again, join = shell.printed("ana", "play again with"), shell.printed("bo", "join with")
    assert "--profile ana" in again and f"--port {port}" in again, again
    assert join.startswith(f"p2pspades join 127.0.0.1:{port} ") and "--profile bo" in join, join

    shell.typed("ana2", again)
    shell.wait_for("ana2", "lobby: ")
    shell.typed("bo2", join)
    assert shell.finish("ana2") == 0 and shell.finish("bo2") == 0, shell.out("ana2")[-3000:]
    second = shell.log_of("ana2")
    assert second != first
    old_id = log.open_envelope(log.read_log(first).frames[0]).payload["g"]
    assert genesis_after(second) == {"g": old_id, "k": REMATCH}
    assert f"a rematch of game {old_id.hex()}" in shell.out("bo2")  # the joiner was shown it
    checked = verify_after(shell, second, first)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"a rematch of game {old_id.hex()}" in checked.stdout
    # the same seats: each profile's key where it sat before
    before, after = verify_file(first).table, verify_file(second).table
    assert before is not None and after is not None and before.setup.keys == after.setup.keys
    # and the rematch offers a rematch of itself, the same way
    assert shell.printed("ana2", "play again with") == again.replace(old_id.hex()[:12], second_id(second))


def abandoned(shell: Shell) -> tuple[int, str]:
    """A cutthroat game of ana (host), bo and cy, all --auto; cy's machine dies after the first hand, and the
    others certify it. Returns the table's port and the options every command of the test shares."""
    port = free_port()
    common = f"--auto --address 127.0.0.1 {' '.join(FAST)}"
    shell.typed("ana", f"p2pspades host --profile ana --rules cutthroat3 --target 300 --port {port} "
                f"--no-advertise {common}")
    shell.wait_for("ana", "lobby: ")
    shell.typed("bo", f"p2pspades join 127.0.0.1:{port} --profile bo {common}")
    shell.wait_for("bo", "table ")
    cy = shell.typed("cy", f"p2pspades join 127.0.0.1:{port} --profile cy {common}")
    shell.wait_for("cy", "hand  1:", timeout=240)
    os.kill(cy.pid, signal.SIGKILL)
    cy.wait()
    return port, common


def second_id(path: Path) -> str:
    return bytes(log.open_envelope(log.read_log(path).frames[0]).payload["g"]).hex()[:12]


def test_carry_on_with_a_bot_as_printed_continues_an_abandoned_game_from_its_scores(shell: Shell) -> None:
    port, common = abandoned(shell)
    assert shell.finish("ana") == 3 and shell.finish("bo") == 3, shell.out("ana")[-3000:]
    old = shell.log_of("ana")
    table = verify_file(old).table
    assert table is not None and table.game is not None and table.result is not None
    gone = table.result.seat
    assert gone is not None and table.setup.seats[gone].name == "cy"
    totals = table.game.totals
    carry, join = shell.printed("ana", "carry on with a bot"), shell.printed("bo", "join with")
    assert "--carry-on" in carry and "--profile ana" in carry, carry

    shell.typed("ana2", carry)
    shell.wait_for("ana2", "lobby: ")
    scores = "–".join(str(t.score) for t in totals)
    assert f"continues game {table.game_id.hex()} from {scores}" in shell.out("ana2")
    # cy, back, may not sit down at the continuation: its seat is the bot's now
    shell.typed("cy2", f"p2pspades join 127.0.0.1:{port} --profile cy {common}")
    assert shell.finish("cy2", 120) == 2
    refusal = shell.out("cy2").strip().splitlines()[-1]
    assert refusal.startswith("p2pspades join: ") and "only its players may sit" in refusal, refusal
    shell.typed("bo2", join)
    assert f"from {scores}" in shell.wait_for("bo2", "continues game")  # the joiner is shown the scores
    assert shell.finish("ana2") == 0 and shell.finish("bo2") == 0, shell.out("ana2")[-3000:]
    new = shell.log_of("ana2")
    assert genesis_after(new) == {"g": table.game_id, "k": CONTINUATION, "sc": [t.score for t in totals],
                                  "bg": [t.bags for t in totals], "d": table.game.dealer}
    continued = verify_file(new).table
    assert continued is not None and continued.game is not None
    assert continued.game.history[0].dealer == table.game.dealer
    hand = continued.game.history[0]
    assert [t.score for t in hand.totals] == [t.score + s.points for t, s in zip(totals, hand.scores,
                                                                               strict=True)]
    seats = continued.setup.seats
    assert [s.key for i, s in enumerate(seats) if i != gone] == [
        s.key for i, s in enumerate(table.setup.seats) if i != gone]
    assert seats[gone].key != table.setup.seats[gone].key  # a bot of ana's sits there
    checked = verify_after(shell, new, old)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "follows" in checked.stdout
    assert f"continues game {table.game_id.hex()} from {scores}" in checked.stdout


def test_a_joiner_refuses_a_continuation_its_own_log_contradicts_in_one_line(shell: Shell) -> None:
    """A host whose table claims to continue a game from other scores than the joiner's own log of it ends
    at: the joiner takes no seat, and says why in one line."""
    _, common = abandoned(shell)
    assert shell.finish("bo") == 3, shell.out("bo")[-3000:]
    old = shell.log_of("bo")
    table = verify_file(old).table
    assert table is not None and table.game is not None
    liar_port = free_port()
    with open(shell.root / "liar.out", "wb") as out:
        shell.procs["liar"] = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("helpers") / "liar.py"), str(liar_port), str(old)],
            env=dict(shell.env, PYTHONPATH=os.pathsep.join(sys.path)), stdout=out, stderr=subprocess.STDOUT)
    shell.wait_for("liar", "lobby: ")
    shell.typed("bo2", f"p2pspades join 127.0.0.1:{liar_port} --profile bo {common}")
    assert shell.finish("bo2", 120) == 2, shell.out("bo2")[-3000:]
    said = shell.out("bo2")
    (line,) = [text for text in said.splitlines() if text.startswith("p2pspades join: ")]
    gid = table.game_id.hex()[:12]
    ours = "–".join(str(t.score) for t in table.game.totals)
    claimed = "–".join(str(t.score + (10 if side == 0 else 0)) for side, t in enumerate(table.game.totals))
    bags = ", ".join(str(t.bags) for t in table.game.totals)
    assert line == (f"p2pspades join: refused: the host's game continues game {gid} from {claimed} "
                    f"(bags {bags}), seat {table.game.dealer} deals: it starts from {claimed} (bags {bags}), "
                    f"but game {gid} ended at {ours} (bags {bags}) (to see it and decide, join without "
                    "--auto)"), line
    assert "Traceback" not in said
    assert not re.search(r"^table ", said, re.M), "refused before it asked for a seat: no seat map shown"


def killed(shell: Shell, name: str, after: str) -> None:
    """The computer of `name` dies (SIGKILL) once it has printed `after`."""
    shell.wait_for(name, after, timeout=240)
    os.kill(shell.procs[name].pid, signal.SIGKILL)
    shell.procs[name].wait()


def test_after_a_resume_the_host_and_the_joiner_print_what_plays_again_and_it_works_as_printed(
        shell: Shell) -> None:
    """bo's computer dies in the first hand, ana's in a later one; each types `p2pspades resume` and the game
    goes on to its end. The resumed host prints 'play again with' and the resumed joiner 'join with', with
    the port, the address, the profile and the options they played with: typed as printed, they make a
    rematch of that game at the same table."""
    port = free_port()
    slow = "--timeout-auto 60 --timeout-decision 60"  # a friend's computer may take a while to come back
    shell.typed("ana", f"p2pspades host --profile ana --auto --rules two --target 200 --address 127.0.0.1 "
                f"--port {port} --no-advertise {slow}")
    shell.wait_for("ana", "lobby: ")
    shell.typed("bo", f"p2pspades join 127.0.0.1:{port} --profile bo --auto --address 127.0.0.1 {slow}")
    killed(shell, "bo", "hand  1:")
    shell.typed("bo2", "p2pspades resume --profile bo --auto")
    shell.wait_for("bo2", "synced with the other seats")
    killed(shell, "ana", "hand  2:")
    shell.typed("ana2", "p2pspades resume --profile ana --auto")
    assert shell.finish("ana2") == 0 and shell.finish("bo2") == 0, shell.out("ana2")[-3000:]
    first = shell.log_of("ana2")
    gid = second_id(first)
    again, join = shell.printed("ana2", "play again with"), shell.printed("bo2", "join with")
    assert again == (f"p2pspades host --rematch {gid} --port {port} --no-advertise --address 127.0.0.1 "
                     "--auto --timeout-auto 60 --timeout-decision 60 --profile ana"), again
    assert join == (f"p2pspades join 127.0.0.1:{port} --address 127.0.0.1 --auto --timeout-auto 60 "
                    f"--timeout-decision 60 --profile bo"), join

    shell.typed("ana3", again)
    shell.wait_for("ana3", "lobby: ")
    shell.typed("bo3", join)
    assert shell.finish("ana3") == 0 and shell.finish("bo3") == 0, shell.out("ana3")[-3000:]
    second = shell.log_of("ana3")
    old_id = log.open_envelope(log.read_log(first).frames[0]).payload["g"]
    assert genesis_after(second) == {"g": old_id, "k": REMATCH}


def test_play_auto_stopped_by_ctrl_c_prints_the_resume_command_and_then_play_again_both_as_printed(
        shell: Shell) -> None:
    """Ctrl-C stops `play --auto` with the command that carries the game on; typed as printed, it resumes the
    game (the bots with it) to its end, which prints the command that plays another such game; typed as
    printed, that plays one and says the same."""
    shell.typed("first", "p2pspades play --auto --rules two --target 150 --profile ana --seed 3")
    shell.wait_for("first", "hand  1:")
    shell.procs["first"].send_signal(signal.SIGINT)
    assert shell.finish("first") == 130, shell.out("first")[-3000:]
    resume = shell.printed("first", "you stopped the game before the end; carry on with")
    assert re.fullmatch(r"p2pspades resume [0-9a-f]{12} --auto --profile ana", resume), resume
    assert shell.out("first").rstrip().endswith("interrupted") and "Traceback" not in shell.out("first")

    shell.typed("resumed", resume)
    assert shell.finish("resumed") == 0, shell.out("resumed")[-3000:]
    assert f"resuming game {resume.split()[2]}" in shell.out("resumed")
    assert shell.log_of("resumed") == shell.log_of("first")
    again = shell.printed("resumed", "play again with")
    assert again == "p2pspades play --rules two --target 150 --auto --profile ana", again

    shell.typed("again", again)
    assert shell.finish("again") == 0, shell.out("again")[-3000:]
    assert shell.log_of("again") != shell.log_of("first")
    assert shell.printed("again", "play again with") == again
