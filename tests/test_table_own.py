"""Our own seat alone (`table/own.py`): no table, a fake view of what the table waits for over a real rules
engine, and what it says: the decision our player has to make, or the entry that is ours to write.

- our player decides on its own turn only, not while syncing, nor while a challenge of ours is due;
- rule "low_club": the first lead is any seat's, so the decision is offered to the holder of the lowest club
  alone, with that card as its only choice, even under a challenge that nobody led it;
- what we write ourselves: the challenge we owe first (where the stage takes one), then our automatic entry;
  nothing for a decision or another seat's turn, nor while a low-club challenge is held.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pspades.rules import Bid, Card, Deal, Game, Phase, Play, RuleSet, preset
from p2pspades.table import messages as msg
from p2pspades.table.events import DecisionKind
from p2pspades.table.own import decision, holding_lead_claim, next_entry
from p2pspades.table.stages import ANY_SEAT, LeadClaim, Stage, Step

RULES = preset("classic", first_leader="low_club")


def lowest_club() -> Card:
    low = RULES.low_club
    assert low is not None
    return low


LOW = lowest_club()


def engine(holding_low: bool) -> Game:
    """A game at its first lead: our seat 0 knows its own thirteen cards, the others' are unknown."""
    g = Game(RULES, 3)
    rest = [c for c in RULES.deck if c != LOW]
    mine = [LOW, *rest[:12]] if holding_low else rest[:13]
    g.apply(Deal((tuple(mine), *(tuple(None for _ in range(13)) for _ in range(3)))))
    return g


def bidding() -> Game:
    g = engine(holding_low=False)
    assert g.phase is Phase.BID and g.current_seat == 0
    return g


@dataclass
class FakeView:
    step: Step | None
    game: Game = field(default_factory=bidding)
    rules: RuleSet = RULES
    seat: int | None = 0
    syncing: bool = False
    stage: Stage = Stage.BID
    next_seq: int = 30
    clock: float = 0.0
    lead_claim: LeadClaim | None = None
    challenge_due: str | None = None

    def expected(self) -> Step | None:
        return self.step


OUR_BID = Step(0, (msg.Bid, msg.Challenge), DecisionKind.BID)
THEIR_BID = Step(1, (msg.Bid, msg.Challenge), DecisionKind.BID)
OUR_SHUFFLE = Step(0, (msg.Shuffle, msg.Challenge))
FIRST_LEAD = Step(ANY_SEAT, (msg.Play, msg.Challenge), DecisionKind.PLAY)


def test_our_player_decides_on_its_own_turn_with_the_engines_legal_choices() -> None:
    view = FakeView(OUR_BID)
    d = decision(view)
    assert d is not None and d.kind is DecisionKind.BID and d.view.seat == 0
    assert d.legal == view.game.legal_actions() and Bid(3) in d.legal
    assert decision(FakeView(THEIR_BID)) is None
    assert decision(FakeView(OUR_BID, syncing=True)) is None, "a resumed peer writes nothing yet"
    assert decision(FakeView(OUR_BID, challenge_due="a key does not open")) is None, "the challenge first"
    assert decision(FakeView(OUR_SHUFFLE, stage=Stage.SHUFFLE)) is None, "our own entry, not our player's"
    assert decision(FakeView(OUR_BID, seat=None)) is None, "an observer decides nothing"


def test_the_first_lead_of_rule_low_club_is_offered_to_the_holder_of_the_lowest_club_alone() -> None:
    held = FakeView(FIRST_LEAD, game=engine(holding_low=True), stage=Stage.LEAD)
    d = decision(held)
    assert d is not None and d.legal == (Play(LOW),)
    assert decision(FakeView(FIRST_LEAD, game=engine(holding_low=False), stage=Stage.LEAD)) is None


def test_under_a_low_club_challenge_its_holder_may_still_lead_and_the_others_hold_their_reveals() -> None:
    claim = LeadClaim(FIRST_LEAD, entry=29, since=100.0, limit=600.0, signer=1)
    reveal = Step(2, (msg.Reveal,))
    holder = FakeView(reveal, engine(holding_low=True), stage=Stage.REVEAL, lead_claim=claim, clock=200.0)
    d = decision(holder)
    assert d is not None and d.legal == (Play(LOW),)
    ours = Step(0, (msg.Reveal,))
    other = FakeView(ours, engine(holding_low=False), stage=Stage.REVEAL, lead_claim=claim, clock=699.0)
    assert decision(other) is None
    assert holding_lead_claim(other) and next_entry(other) is None, "our reveal waits out the challenge"
    other.clock = 700.0
    assert not holding_lead_claim(other) and next_entry(other) is msg.Reveal


def test_what_we_write_ourselves_is_the_challenge_we_owe_then_our_automatic_entry() -> None:
    assert next_entry(FakeView(OUR_SHUFFLE, stage=Stage.SHUFFLE)) is msg.Shuffle
    owed = FakeView(OUR_SHUFFLE, stage=Stage.SHUFFLE, challenge_due="x" * 300)
    assert next_entry(owed) == msg.Challenge(29, "x" * msg.MAX_WHY), "the entry before, the reason cut"
    assert next_entry(FakeView(OUR_BID, challenge_due="a card I hold was played")) == msg.Challenge(
        29, "a card I hold was played")
    reveal = FakeView(Step(0, (msg.Reveal,)), stage=Stage.REVEAL, challenge_due="late")
    assert next_entry(reveal) is msg.Reveal, "no challenge where the stage takes none"
    assert next_entry(FakeView(OUR_BID)) is None, "our player's turn"
    assert next_entry(FakeView(THEIR_BID)) is None
    assert next_entry(FakeView(None)) is None
