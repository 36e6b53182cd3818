"""Endings every honest table agrees on (PROTOCOL.md §5): schedules of delays, reorderings and duplicates with
one seat that stalls, withholds its answer, or crashes and resumes, at drawn points.

In every schedule: the tables end with the same result and the same chain, `verify` gives every log the
same verdict, the faulty seat never wins by its fault, and no honest seat is ever named.
"""

from __future__ import annotations

import random

import pytest
from helpers.schedules import Faults, Schedule
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pspades.audit.verdict import Status
from p2pspades.audit.verify import verify_frames
from p2pspades.rules import preset
from p2pspades.table import Table, TableStatus

pytestmark = pytest.mark.slow

PRESETS = {
    "classic": preset("classic", target=10, losing_threshold=-10),
    "cutthroat3": preset("cutthroat3", target=10, losing_threshold=-10),
}


@st.composite
def schedules(draw: st.DrawFn) -> tuple[str, Faults, int]:
    name = draw(st.sampled_from(sorted(PRESETS)))
    n = PRESETS[name].players
    seat = draw(st.integers(0, n - 1))
    kind = draw(st.sampled_from(["none", "stall", "withhold", "crash"]))
    at = draw(st.integers(1, 40))
    # around the timeouts (10 s automatic steps, 20 s decisions) is where the races are
    release = draw(st.sampled_from([0.0, 5.0, 9.0, 10.5, 12.0, 19.0, 21.0, 25.0, 40.0, 300.0]))
    others = [s for s in range(n) if s != seat]
    to = tuple(draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others))))
    sent = draw(st.booleans())
    return name, Faults(seat, kind, at, release, to, sent), draw(st.integers(0, 2**32 - 1))


def run(name: str, faults: Faults, seed: int) -> Schedule:
    rng = random.Random(seed)
    slow = rng.random() < 0.5  # half the schedules have some slow deliveries

    def delay() -> float:
        # an honest seat's entry reaches every other seat, even through a forward, well within the shortest
        # timeout (10 s): a network slower than the timeouts makes any seat look silent, honest or not
        if slow and rng.random() < 0.2:
            return rng.uniform(0.0, 4.5)
        return rng.uniform(0.0, 1.0)

    def duplicate() -> bool:
        return rng.random() < 0.1

    schedule = Schedule(PRESETS[name], faults, delay, duplicate, seed=b"endings" + bytes([seed % 251]))
    schedule.run()
    return schedule


def check(schedule: Schedule) -> None:
    tables: list[Table] = [t for t in schedule.tables if t is not None]
    assert len(tables) == len(schedule.tables), "the crashed seat came back"
    faulty = schedule.faults.seat
    first = tables[0]
    assert all(t.finished for t in tables), [(t.seat, t.status, t.waiting_for()) for t in tables]
    for t in tables:
        assert t.entries == first.entries, f"seat {t.seat} holds another chain"
        assert t.result == first.result, (t.seat, t.result, first.result)
    result = first.result
    assert result is not None
    if result.status is TableStatus.ABANDONED:
        assert result.seat == faulty, "an honest seat is never claimed silent"
        assert schedule.rules.side_of(faulty) not in result.winners, "a staller never wins by stalling"
        assert result.forfeit or result.contested
    if result.status is TableStatus.VIOLATION:
        assert first.violation is not None and first.violation.seat == faulty, first.violation
    verdicts = {(v.status, v.summary) for v in (verify_frames(t.records) for t in tables)}
    assert len(verdicts) == 1, verdicts
    status = next(iter(verdicts))[0]
    expected = {
        TableStatus.COMPLETE: Status.VALID,
        TableStatus.ABANDONED: Status.INCOMPLETE,
        TableStatus.VIOLATION: Status.VIOLATION,
    }[result.status]
    assert status is expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schedules())
def test_every_schedule_ends_the_same_on_every_table(case: tuple[str, Faults, int]) -> None:
    check(run(*case))


@pytest.mark.parametrize("kind", ["stall", "withhold", "crash"])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_fault_at_a_decision_and_at_an_automatic_step(name: str, kind: str) -> None:
    """Fixed points of each kind, so that every run of the suite covers them whatever hypothesis draws."""
    for at, release in ((3, 10.5), (12, 25.0), (20, 5.0)):
        check(run(name, Faults(1, kind, at, release, (), at % 2 == 0), at))


def test_a_stall_ends_in_a_certificate_that_the_stallers_side_forfeits() -> None:
    schedule = run("classic", Faults(1, "stall", 10), 7)
    check(schedule)
    result = schedule.tables[0].result if schedule.tables[0] else None
    assert result is not None and result.status is TableStatus.ABANDONED and result.forfeit
    assert result.signers == (0, 2, 3) and result.seat == 1


def test_an_answer_released_to_one_seat_before_its_timeout_voids_the_claim() -> None:
    """Seat 1 stays silent; the others' timers differ by their delays. Its answer reaches seat 2 only, 9 s
    into a 10 or 20 s timeout, so seat 2 takes it, refuses the others' votes, and the game goes on."""
    schedule = Schedule(
        PRESETS["classic"], Faults(1, "withhold", 5, 9.0, (2,)), lambda: 0.5, lambda: False, seed=b"refuse"
    )
    schedule.run()
    check(schedule)
    table = schedule.tables[0]
    assert table is not None and table.result is not None
    assert table.result.status is TableStatus.COMPLETE, table.result
