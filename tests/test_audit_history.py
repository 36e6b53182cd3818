"""The rows of `games` and the totals of `stats`, from verdicts on real logs of a whole game (no files)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades.audit import hand_record, verify_frames
from p2pspades.audit.history import Ending, PlayedGame, game_rows, stats
from p2pspades.audit.verify import Status, Verdict, unreadable
from p2pspades.describe.findings import summary
from p2pspades.table.harness import Wire


@pytest.fixture(scope="module")
def whole(finished_game: Wire) -> Verdict:
    verdict = verify_frames(finished_game.tables[0].entries)
    assert verdict.status is Status.VALID and verdict.hands
    return verdict


@pytest.fixture(scope="module")
def halfway(finished_game: Wire) -> Verdict:
    entries = finished_game.tables[0].entries
    verdict = verify_frames(entries[: len(entries) // 2])
    assert verdict.status is Status.INCOMPLETE
    return verdict


def test_each_seat_counts_its_own_side_points_and_result(finished_game: Wire, whole: Verdict) -> None:
    table = finished_game.tables[0]
    game = table.game
    assert game is not None and game.outcome is not None
    rules = table.rules
    for seat in range(rules.players):
        side = rules.side_of(seat)
        s = stats([PlayedGame("log", whole, seat, 1.0)])
        won = side in game.outcome.winners
        assert (s.games, s.wins, s.losses) == (1, int(won), int(not won))
        assert s.hands == len(game.history)
        assert s.points == game.totals[side].score  # the hands' points add up to the final score
        assert s.contracts_made + s.contracts_set <= s.hands
        (partner,) = s.partners
        assert partner.name == table.setup.seats[next(o for o in rules.sides[side] if o != seat)].name
        assert (partner.games, partner.wins, partner.losses) == (1, s.wins, s.losses)


def test_nils_are_counted_from_the_seat_s_own_bids(whole: Verdict) -> None:
    record = hand_record(whole)
    for seat in range(4):
        nils = [h for h in record["hands"]
                if any(b["seat"] == seat and (b["bid"] == 0 or b["blind"]) for b in h["bids"])]
        made = [h for h in nils if h["tricks_won"][seat] == 0]
        s = stats([PlayedGame("log", whole, seat, 1.0)])
        assert s.nils_made + s.blind_nils_made == len(made)
        assert s.nils_failed + s.blind_nils_failed == len(nils) - len(made)


def test_a_stopped_game_is_unfinished_and_counts_no_result(halfway: Verdict) -> None:
    (row,) = game_rows([PlayedGame("log", halfway, 0, 1.0)])
    assert row.ending is Ending.UNFINISHED and row.won is None and row.winners == ()
    s = stats([PlayedGame("log", halfway, 0, 1.0)])
    assert (s.games, s.wins, s.losses, s.hands) == (1, 0, 0, len(halfway.hands))


def test_running_and_unreadable_logs_are_listed_but_left_out_of_the_totals(whole: Verdict) -> None:
    broken = unreadable("not a p2pspades log")
    games = [PlayedGame("a", whole, 0, 3.0, running=True), PlayedGame("b", broken, None, 2.0)]
    rows = game_rows(games)
    assert [r.ending for r in rows] == [Ending.RUNNING, Ending.UNREADABLE]
    assert rows[0].won is None and summary(rows[1].finding) == "not a p2pspades log"
    s = stats(games)
    assert (s.games, s.hands, s.running, s.unreadable) == (0, 0, 1, 1)


pool = st.tuples(st.sampled_from(["whole", "halfway"]), st.integers(0, 3), st.floats(0, 1e9),
                 st.booleans())


@settings(max_examples=60, deadline=None)
@given(st.lists(pool, max_size=8), st.randoms())
def test_totals_add_up_game_by_game_and_rows_are_newest_first(whole: Verdict, halfway: Verdict,
                                                                picks: list[tuple[str, int, float, bool]],
                                                                rnd: random.Random) -> None:
    verdicts = {"whole": whole, "halfway": halfway}
    games = [PlayedGame(f"log{i}", verdicts[v], seat, when, running)
             for i, (v, seat, when, running) in enumerate(picks)]
    rows = game_rows(games)
    assert [r.when for r in rows] == sorted((g.when for g in games), reverse=True)
    assert sorted(r.path for r in rows) == sorted(g.path for g in games)
    total = stats(games)
    shuffled = list(games)
    rnd.shuffle(shuffled)
    assert stats(shuffled) == total
    parts = [stats([g]) for g in games]
    for name in ("games", "wins", "losses", "hands", "contracts_made", "contracts_set", "nils_made",
                 "nils_failed", "bags", "points", "running"):
        assert getattr(total, name) == sum(getattr(p, name) for p in parts), name
    assert sum(p.games for p in total.partners) == total.games


def test_a_contested_ending_counts_against_the_seat_that_claimed_it() -> None:
    """Two players: seat 1 claims at once that seat 0 stopped answering. Nobody wins; `stats` counts the
    contested ending as claimed by seat 1 and against seat 0, and neither as a win or a loss."""
    from helpers.cheats import Impatient

    from p2pspades.bots import RandomBot
    from p2pspades.rules import preset
    from p2pspades.table.harness import new_tables

    tables = new_tables(preset("two", target=10, losing_threshold=-10), seed=b"claimant", version=1)
    tables[1].makers = Impatient()
    wire = Wire(tables, [RandomBot(0), RandomBot(1)])
    wire.start()
    while tables[0].pending_decision() is None:
        assert wire.step()
    wire._record(1, tables[1].tick(wire.now))
    wire.run()
    verdict = verify_frames(tables[0].records)
    assert verdict.table is not None and verdict.table.result is not None and verdict.table.result.contested
    counts = {seat: stats([PlayedGame("log", verdict, seat, 1.0)]) for seat in (0, 1)}
    got = {seat: (s.contested_claimed, s.contested_against, s.wins, s.losses) for seat, s in counts.items()}
    assert got == {1: (1, 0, 0, 0), 0: (0, 1, 0, 0)}, "claimed by seat 1, against seat 0; no win, no loss"
    (row,) = game_rows([PlayedGame("log", verdict, 0, 1.0)])
    assert row.ending is Ending.CONTESTED and row.claimed_by == (tables[1].setup.seats[1].name,)
