"""The clock alone (`table/clock.py`): no table, a fake view of what the table waits for, readings of a
clock given by hand, and what our timers make us do read back (a vote or a stall for the claims machine, a
challenge of ours).

- the pauses of our own process are left out of every wait;
- we vote once we waited the timeout in force for the seat awaited, and stall once we waited it twice;
  never on our own turn, nor while syncing, nor after the end;
- our player may wait longer, for this wait only;
- rule "low_club": the dealer's left alone challenges a first lead nobody made, after the decision timeout.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pytest

from p2pspades.errors import LocalError
from p2pspades.table import messages as msg
from p2pspades.table.clock import Clock, Timer, Write
from p2pspades.table.events import DecisionKind
from p2pspades.table.slots import Awaited, Role, Slot
from p2pspades.table.stages import Stage, Step

BID = Step(2, (msg.Bid, msg.Challenge), DecisionKind.BID)
COMMIT = Step(2, (msg.Commit,))
LEAD_CHALLENGE = Step(1, (msg.Challenge, msg.Play), DecisionKind.PLAY)


@dataclass
class FakeView:
    """We are seat 0; the table waits for `step` since `last_progress`."""

    step: Step | None = BID
    seat: int | None = 0
    finished: bool = False
    syncing: bool = False
    stage: Stage = Stage.BID
    last_progress: float = 0.0
    next_seq: int = 40
    timeouts: Mapping[str, float] = field(default_factory=lambda: {"auto": 60.0, "decision": 600.0})
    claim: Slot | None = None
    deciding: bool = False
    dealer_left: int = 1

    def expected(self) -> Step | None:
        return self.step

    def claimed_step(self) -> Step | None:
        return self.step


def clock(view: FakeView, pause: float = 5.0) -> Clock:
    return Clock(0.0, pause, lambda step: view.timeouts["decision" if step.decision else "auto"])


def test_a_gap_between_readings_longer_than_the_pause_is_left_out_of_every_wait() -> None:
    c = clock(FakeView())
    assert c.read(3.0) == 3.0
    assert c.read(20.0) == 8.0, "17 s between two readings: 12 of them a pause of ours"
    assert c.read(21.0) == 9.0 and c.paused == 12.0
    view = FakeView()
    assert c.due(view) == 0.0 + 600.0 + 12.0, "the vote is due later on the caller's clock by the pause"


def test_we_vote_at_the_timeout_in_force_and_stall_at_twice_it() -> None:
    view = FakeView()
    c = clock(view)
    assert c.tick(view, 599.0, lambda: Role.QUIET) == []
    assert c.tick(view, 600.0, lambda: Role.QUIET) == [Timer(600)]
    assert c.tick(view, 600.0, lambda: Role.OPEN) == [Timer(600)], "others voted: our own vote all the same"
    assert c.tick(view, 1199.0, lambda: Role.VOTED) == []
    assert c.tick(view, 1200.0, lambda: Role.VOTED) == [Timer(600)], "a timeout after our vote: we stall"
    assert c.tick(view, 5000.0, lambda: Role.STALLED) == [], "stalled: nothing more of ours"
    auto = FakeView(step=COMMIT, stage=Stage.COMMIT)
    assert c.tick(auto, 60.0, lambda: Role.QUIET) == [Timer(60)], "an automatic step: the auto timeout"


NO_VOTE = [FakeView(step=Step(0, (msg.Bid,), DecisionKind.BID)), FakeView(syncing=True),
           FakeView(finished=True), FakeView(seat=None), FakeView(step=None)]


@pytest.mark.parametrize("view", NO_VOTE, ids=["our-turn", "syncing", "over", "observer", "nobody-awaited"])
def test_no_vote_of_ours_on_our_turn_while_syncing_after_the_end_or_as_an_observer(view: FakeView) -> None:
    c = clock(view)
    assert c.tick(view, 10_000.0, lambda: Role.QUIET) == []
    assert c.due(view) is None and c.longer(view, None) == 0.0


def test_our_player_waits_longer_for_this_wait_only() -> None:
    view = FakeView()
    c = clock(view)
    assert c.longer(view, None) == 600.0 and c.longer(view, 30.0) == 30.0
    assert c.limit(view, BID) == 1230.0 and c.due(view) == 1230.0
    assert c.tick(view, 1229.0, lambda: Role.QUIET) == []
    assert c.tick(view, 1230.0, lambda: Role.QUIET) == [Timer(1230)], "our vote states what we waited"
    view.last_progress = 50.0  # the chain moved: a new wait
    assert c.limit(view, BID) == 600.0
    with pytest.raises(LocalError, match="positive number of seconds"):
        c.longer(view, 0.0)
    voted = Slot(Awaited(40, bytes(32), 2, 3, "bid", 600), Role.VOTED, votes={0: b"our vote"})
    view.claim = voted
    assert c.longer(view, None) == 0.0 and c.due(view) is None, "our vote is cast: no wait of ours is ahead"


def test_rule_low_club_the_dealers_left_alone_challenges_a_first_lead_nobody_made() -> None:
    view = FakeView(step=LEAD_CHALLENGE, stage=Stage.LEAD, dealer_left=0)
    c = clock(view)
    assert c.tick(view, 599.0, lambda: Role.QUIET) == []
    (write,) = c.tick(view, 600.0, lambda: Role.QUIET)
    assert write == Write(msg.Challenge(39, "nobody led the lowest club within 600 s"))
    view.deciding = True  # we hold the lowest club ourselves: we lead it, we do not challenge
    assert c.tick(view, 600.0, lambda: Role.QUIET) == []
    other = FakeView(step=LEAD_CHALLENGE, stage=Stage.LEAD, dealer_left=1)
    assert c.limit(other, LEAD_CHALLENGE) == 1200.0, "the others give the challenger twice the timeout"
    assert c.tick(other, 1200.0, lambda: Role.QUIET) == [Timer(1200)]
    assert c.due(other) is None, "no countdown shown for a first lead: nobody knows whose it is"
