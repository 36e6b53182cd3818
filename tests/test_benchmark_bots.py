"""The bots benchmark itself: deals played in worker processes give the figures one process gives, and
`--split` measures the expert's bids and its card play apart. Small runs: a few duplicate deals, the expert
held to a count of playouts with no clock cap (`--playouts`), so that a loaded machine changes nothing."""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.terminal import as_a_terminal_starts_it

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bots.py"
pytestmark = pytest.mark.slow


def script_module(name: str) -> Any:
    """A benchmark script (`bots`, `pimc`) as a module, imported from its folder."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(SCRIPT.parent))


def bench(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--quiet", "--seed", "7", "--presets", "classic", "--playouts", "300",
         *args],
        capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def test_worker_processes_give_the_figures_of_one_process() -> None:
    one = bench("--deals", "3", "--skip-pimc")
    two = bench("--deals", "3", "--skip-pimc", "--jobs", "2")
    for label in ("expert_over_heuristic", "heuristic_over_random"):
        a, b = one["classic"][label], two["classic"][label]
        assert a["deals"] == b["deals"] == 3
        assert a["points_per_deal"] == b["points_per_deal"]
        assert a["points_per_deal_bags_charged"] == b["points_per_deal_bags_charged"]
        for bot, tally in a["bots"].items():
            other = b["bots"][bot]
            assert tally["decision_time"]["decisions"] == other["decision_time"]["decisions"]
            assert (tally["sets"], tally["nils_made"]) == (other["sets"], other["nils_made"])


def test_split_measures_the_bids_and_the_cards_apart() -> None:
    report = bench("--deals", "1", "--split", "--skip-random", "--pimc-budget", "0.02")["classic"]
    bids, cards = report["expert_bids_over_heuristic"], report["expert_play_over_pimc"]
    assert (bids["a"], bids["b"], bids["deals"]) == ("expert-bids", "normal", 1)
    assert (cards["a"], cards["b"], cards["deals"]) == ("expert-play", "pimc", 1)
    # the split bots decide: the bid-only one bids and plays every card, and so does the card-only one
    assert bids["bots"]["expert-bids"]["decision_time"]["decisions"] > 0
    assert cards["bots"]["expert-play"]["decision_time"]["decisions"] > 0


def test_each_comparison_can_be_skipped_but_not_all() -> None:
    report = bench("--deals", "1", "--skip-heuristic", "--skip-random", "--pimc-budget", "0.02")["classic"]
    assert list(report) == ["expert_over_pimc"] and report["expert_over_pimc"]["deals"] == 1
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--skip-heuristic", "--skip-pimc", "--skip-random"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2 and "every comparison is skipped" in done.stderr
    assert "Traceback" not in done.stderr


def test_bad_arguments_are_refused_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--jobs", "0"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert "--jobs must be at least 1" in done.stderr
    assert "Traceback" not in done.stderr
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--playouts", "0"], capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "--playouts must be at least 1" in done.stderr
    for ending in ("0", "13"):
        done = subprocess.run([sys.executable, str(SCRIPT), "--exact-ending", ending], capture_output=True,
                              text=True, timeout=60, check=False)
        assert done.returncode == 2 and "--exact-ending takes 1 to 12 tricks" in done.stderr, done.stderr
    # an expert setting the expert does not have, the run's own, or a value it refuses: one line each
    for setting, message in (
        ("bid_efort=3", "the expert has no setting 'bid_efort'"),
        ("iterations=5", "'iterations' is the run's to set"),
        ("bag_weight=2", "bag_weight must be from 0 to 1"),
        ("bid_effort=x", "an expert setting is NAME=NUMBER"),
    ):
        for flag in (("--expert", setting), ("--pair", f"expert:{setting}/pimc")):
            done = subprocess.run(
                [sys.executable, str(SCRIPT), *flag], capture_output=True, text=True, timeout=60, check=False
            )
            assert done.returncode == 2 and message in done.stderr, (flag, done.stderr)
            assert "Traceback" not in done.stderr


def test_a_split_bot_bids_with_one_bot_and_plays_with_the_other() -> None:
    bots = script_module("bots")
    from helpers.games import decision, first_bid_and_play

    from p2pspades.rules import Action
    from p2pspades.table.events import Decision, DecisionKind

    asked: list[tuple[str, DecisionKind]] = []

    def recorder(name: str) -> Any:
        def choose(turn: Decision) -> Action:
            asked.append((name, turn.kind))
            return turn.legal[0]
        return choose

    split = bots.Split(recorder("bidder"), recorder("player"))
    bid_turn, play_turn = first_bid_and_play()
    split(decision(bid_turn))
    split(decision(play_turn))
    assert asked == [("bidder", DecisionKind.BID), ("player", DecisionKind.PLAY)]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_keeps_the_deals_that_finished(jobs: str) -> None:
    """A long run stopped by Ctrl-C prints the figures of the deals played so far, without a traceback."""
    run = subprocess.Popen(
        [sys.executable, str(SCRIPT), "--deals", "100", "--presets", "classic", "--skip-pimc",
         "--skip-random", "--playouts", "400", "--jobs", jobs],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=as_a_terminal_starts_it,
    )
    try:
        assert run.stderr is not None
        said = b""
        while b"deal 1/100" not in said:  # its progress line says a deal has landed
            chunk = os.read(run.stderr.fileno(), 4096)
            assert chunk, "the run ended before its first deal"
            said += chunk
        run.send_signal(signal.SIGINT)
        out, rest = run.communicate(timeout=120)
    finally:
        run.kill()
    err = (said + rest).decode()
    assert run.returncode == 130, err
    assert "Traceback" not in err
    assert "interrupted: the figures are of the deals that had finished" in err
    report = json.loads(out)
    played = report["classic"]["expert_over_heuristic"]["deals"]
    assert report["interrupted"] and 0 < played < 100


def disposition(signum: int) -> str:
    """What this process does with a signal: SIG_IGN, SIG_DFL, or "a handler" of its own."""
    handler = signal.getsignal(signum)
    return handler.name if isinstance(handler, signal.Handlers) else "a handler"


def test_the_workers_are_born_deaf_to_ctrl_c() -> None:
    """The pool's workers ignore SIGINT, with SIGTERM at its default, from the moment they are forked, not
    only once their initializer has run, so that Ctrl-C at a busy moment (a worker still starting) cannot
    end one with a traceback. Here the workers run nothing of their own, so what they report is what they
    were born with; and this process has its own handlers back."""
    bots = script_module("bots")

    def kill(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGINT, signal.default_int_handler), signal.signal(signal.SIGTERM, kill)
    try:
        pool = bots.quiet_pool(2, initializer=lambda: None)
        try:
            born = [pool.apply(disposition, (signum,)) for signum in (signal.SIGINT, signal.SIGTERM)]
        finally:
            pool.terminate()
        assert born == ["SIG_IGN", "SIG_DFL"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.getsignal(signal.SIGTERM) is kill
    finally:
        signal.signal(signal.SIGINT, before[0])
        signal.signal(signal.SIGTERM, before[1])


def test_a_paired_expert_takes_its_own_settings_over_the_runs() -> None:
    """`--pair expert:confidence=0.5/...` is an expert with that confidence, whatever the run's `--confidence`
    says; with none of its own it takes the run's."""
    bots = script_module("bots")
    from p2pspades.bots import ExpertBot
    from p2pspades.rules import PRESETS

    comparison = bots.Comparison(PRESETS["classic"], ("expert:confidence=0.5,cover=1", "expert"), 1, None,
                                 confidence=2.0, playouts=100)
    own, run = comparison.bot("expert:confidence=0.5,cover=1", 3), comparison.bot("expert", 3)
    assert isinstance(own, ExpertBot) and isinstance(run, ExpertBot)
    assert (own.confidence, run.confidence) == (0.5, 2.0) and own.iterations == run.iterations == 100


def test_hands_records_every_table_and_adds_up_to_the_margins() -> None:
    """`--hands`: each deal's two tables, every seat's 13 cards (the same at both tables), bids and tricks,
    and each side's score; bot A's side points less bot B's, over both tables and halved, are the deal's
    margin."""
    report = bench("--deals", "2", "--skip-pimc", "--skip-random", "--hands")["classic"]
    comparison = report["expert_over_heuristic"]
    hands = comparison["hands"]
    assert sorted((h["deal"], h["table"]) for h in hands) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    for d, margin, _ in comparison["margins"]:
        first, second = sorted((h for h in hands if h["deal"] == d), key=lambda h: h["table"])
        assert first["cards"] == second["cards"] and all(len(c.split()) == 13 for c in first["cards"])
        assert (first["a"], second["a"]) == ([0, 2], [1, 3])
        total = 0.0
        for h in (first, second):
            assert sum(h["won"]) == 13
            mine = h["a"][0] % 2
            total += h["sides"][mine]["points"] - h["sides"][1 - mine]["points"]
            for side, score in enumerate(h["sides"]):
                assert score["contract"] == sum(b for s, b in enumerate(h["bids"]) if s % 2 == side and b)
        assert total / 2 == margin
    assert "hands" not in bench("--deals", "1", "--skip-pimc", "--skip-random")["classic"][
        "expert_over_heuristic"]


def test_the_yardsticks_bids_with_the_experts_cards_and_the_other_way_round() -> None:
    """`--pair pimc-bids/pimc` is the yardstick's bidding with the expert's card play, and "pimc-play" the
    expert's bidding with the yardstick's card play, each held to the run's counts."""
    bots, pimc = script_module("bots"), script_module("pimc")
    from p2pspades.bots import ExpertBot
    from p2pspades.rules import PRESETS

    comparison = bots.Comparison(PRESETS["classic"], ("pimc-bids", "pimc"), 1, None, playouts=100,
                                 pimc_playouts=90)
    yard_bids, yard_play = comparison.bot("pimc-bids", 3), comparison.bot("pimc-play", 3)
    assert isinstance(yard_bids, bots.Split) and isinstance(yard_play, bots.Split)
    assert isinstance(yard_bids.bidder, pimc.PimcSearcher) and isinstance(yard_bids.player, ExpertBot)
    assert isinstance(yard_play.bidder, ExpertBot) and isinstance(yard_play.player, pimc.PimcSearcher)
    assert yard_bids.bidder.playouts == 90 and yard_bids.player.iterations == 100


def test_an_exact_ending_is_given_to_the_experts_of_the_run_alone() -> None:
    """`--exact-ending K`: every expert of the run (its own settings or the run's) plays its card playouts'
    last K tricks exactly; the yardstick and the heuristic do not change."""
    bots = script_module("bots")
    endgame = script_module("endgame")
    from p2pspades.bots import ExpertBot
    from p2pspades.bots.simulate import Playout
    from p2pspades.rules import PRESETS

    comparison = bots.Comparison(PRESETS["classic"], ("expert", "pimc"), 1, None, playouts=100,
                                 exact_ending=4)
    for kind in ("expert", "expert:confidence=0.5"):
        bot = comparison.bot(kind, 3)
        assert isinstance(bot, ExpertBot) and issubclass(bot.playout, endgame.ExactEnding)
        ending: Any = bot.playout
        assert ending.TRICKS == 4
    assert not isinstance(comparison.bot("pimc", 3), ExpertBot)
    plain = bots.Comparison(PRESETS["classic"], ("expert", "pimc"), 1, None, playouts=100)
    assert plain.bot("expert", 3).playout is Playout
    assert comparison.fresh().exact_ending == 4
