"""benchmarks/endgame.py: its exact ending is the true minimax of the position (checked against a plain
search over every legal card with the simulator's own rules), and bad arguments are refused in one line."""

from __future__ import annotations

import importlib
import json
import random
import signal
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades.bots.simulate import Contract, Playout
from p2pspades.rules import PRESETS, RuleSet

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "endgame.py"


def endgame() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        return importlib.import_module("endgame")
    finally:
        sys.path.remove(str(SCRIPT.parent))


def dealt(name: str, seed: int) -> tuple[RuleSet, list[int], Contract]:
    """A seeded deal of a preset: its rules, every seat's hand (a mask) and the contracts of bids of 3."""
    rules = PRESETS[name]
    deck = [card.index for card in rules.deck]
    random.Random(seed).shuffle(deck)
    per = rules.tricks_per_hand
    hands = [sum(1 << c for c in deck[s * per:(s + 1) * per]) for s in range(rules.players)]
    return rules, hands, Contract(rules, [3] * rules.players, [False] * rules.players)


def plain(playout: Playout, side: int) -> int:
    """Minimax with no pruning and no grouping: the tricks `side` takes from here, every legal card tried."""
    c = playout.contract
    if not playout.plays and not playout.hands[playout.leader]:
        return 0
    seat = (playout.leader + len(playout.plays)) % c.n
    legal = playout.legal()
    results = []
    while legal:
        card = (legal & -legal).bit_length() - 1
        legal &= legal - 1
        after = playout.copy()
        before = [after.won[s] for s in range(c.n)]
        after.play(card)
        gained = sum(after.won[s] - before[s] for s in range(c.n) if c.side_of[s] == side)
        results.append(gained + plain(after, side))
    return max(results) if c.side_of[seat] == side else min(results)


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(["classic", "individual", "cutthroat3", "five"]),
    seed=st.integers(0, 10**6),
    tricks=st.integers(1, 3),
    mid_trick=st.integers(0, 2),
)
def test_the_exact_ending_is_the_minimax_of_every_legal_card(name: str, seed: int, tricks: int, mid_trick: int
                                                               ) -> None:
    module = endgame()
    rules, hands, contract = dealt(name, seed)
    position = Playout.opening(contract, 0, hands)
    module.greedy_to(position, tricks)
    for _ in range(min(mid_trick, rules.players - 1)):  # a trick already begun, as a search may start
        seat = (position.leader + len(position.plays)) % rules.players
        position.play(position.choose(seat, position.legal()))
    seat = (position.leader + len(position.plays)) % rules.players
    solver = module.Solver(position, seat)
    assert solver.solve() == plain(position, contract.side_of[seat])


def test_a_small_run_reports_every_length_of_every_preset_asked() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--positions", "3", "--tricks", "2,3", "--presets", "classic,five"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert sorted(out) == ["classic", "five"]
    for preset in out.values():
        assert sorted(preset) == ["2", "3"]
        for figures in preset.values():
            assert figures["positions"] == 3 and figures["solve_us"] > 0 and figures["nodes"] >= 1


@pytest.mark.parametrize(("flags", "message"), [
    (["--tricks", "two"], "--tricks takes whole numbers"),
    (["--tricks", "13"], "an ending of classic is 1 to 12 tricks, not 13"),
    (["--tricks", "0"], "an ending of classic is 1 to 12 tricks, not 0"),
    (["--presets", "clasic"], "no preset 'clasic'"),
    (["--presets", "two"], "deals from a draw pile"),
    (["--positions", "0"], "--positions takes a positive number"),
])
def test_bad_arguments_are_refused_in_one_line(flags: list[str], message: str) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--presets", "classic", *flags],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(["classic", "individual", "five"]), seed=st.integers(0, 10**6),
       tricks=st.integers(1, 3), played=st.integers(0, 8))
def test_an_exact_ending_plays_the_greedy_policy_then_the_solvers_line(name: str, seed: int, tricks: int,
                                                                      played: int) -> None:
    """`ExactEnding` (what `bots.py --exact-ending K` gives the expert): from a position of the card search,
    the greedy policy to the last K tricks, then the tricks of a line of the exact search, which gives the
    searching seat's side as many as the search says; a whole-hand playout (the bid search's) is greedy."""
    module = endgame()
    rules, hands, contract = dealt(name, seed)
    ending = module.exact_ending(tricks)
    whole = ending.opening(contract, 0, list(hands))
    assert whole.seat == -1 and whole.copy().finish() == Playout.opening(contract, 0, list(hands)).finish()
    position = Playout.opening(contract, 0, list(hands))
    for _ in range(played):  # some cards into the hand, as a search may start mid-hand
        seat = (position.leader + len(position.plays)) % rules.players
        position.play(position.choose(seat, position.legal()))
    seat = (position.leader + len(position.plays)) % rules.players
    exact = ending(contract, list(position.hands), list(position.won), position.leader, list(position.plays),
                   position.broken, position.closed)
    exact.seat = seat
    won = exact.copy().finish()
    greedy = position.copy()
    module.greedy_to(greedy, tricks)
    solver = module.Solver(greedy, seat)
    side = [s for s in range(rules.players) if contract.side_of[s] == contract.side_of[seat]]
    assert sum(won) == rules.tricks_per_hand
    assert sum(won[s] - greedy.won[s] for s in side) == solver.solve()
    assert [w - g for w, g in zip(won, greedy.won, strict=True)] == list(solver.line)


def test_a_bad_preset_is_refused_before_any_is_measured_and_ctrl_c_keeps_what_finished() -> None:
    """A preset it cannot measure, named after one it can, is refused at once (no minutes of work first); a
    run stopped by Ctrl-C prints the lengths that had finished, says it was interrupted and exits 130, with
    no traceback."""
    late = subprocess.run([sys.executable, str(SCRIPT), "--presets", "classic,two", "--positions", "100000"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert late.returncode == 2 and "deals from a draw pile" in late.stderr and "the last" not in late.stderr
    run = subprocess.Popen(
        [sys.executable, str(SCRIPT), "--presets", "classic", "--tricks", "2,6", "--positions", "5000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert run.stderr is not None
    seen = ""
    while "the last 6 tricks" not in seen:  # the length of 2 has finished; the one of 6 would take hours
        line = run.stderr.readline()
        assert line, seen
        seen += line
    run.send_signal(signal.SIGINT)
    stdout, stderr = run.communicate(timeout=60)
    assert run.returncode == 130, stderr
    out = json.loads(stdout)
    assert out["interrupted"] is True and sorted(out["classic"]) == ["2"]
    assert out["classic"]["2"]["positions"] == 5000
    assert "interrupted" in stderr and "Traceback" not in stderr
