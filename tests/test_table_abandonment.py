"""The endings of claims alone (`table/abandonment.py`): no table, a fake view of how its game stands, a slot
whose notes the claims machine found to end the game, and what follows read back: whether that ending holds
here, its canonical entry, and how the game ended by it.

- a provisional ending (a stalled one, or any of rule "low_club"'s first lead) is void where the awaited
  entry is held: on the accused's own table, or where the entry took the slot; a voter that holds it back
  takes it after all;
- an ending no stronger than the one the table holds changes nothing;
- a certificate makes the accused's side forfeit unless every signer wins by it (then it is contested), a
  stalled ending is contested and names who did not sign, and at an `end` the game's own result stands.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from p2pspades import log
from p2pspades.rules import Outcome, RuleSet, Termination, preset
from p2pspades.table.abandonment import Ending, ended, settle
from p2pspades.table.events import GameEnded, TableStatus
from p2pspades.table.slots import Awaited, End, Reopen, Role, Slot, Standing, ending_entry

GAME = hashlib.sha256(b"abandonment alone").digest()[:16]
PREV = hashlib.sha256(b"entry 19").digest()


@dataclass
class FakeView:
    seat: int | None = 0
    rules: RuleSet = field(default_factory=lambda: preset("classic"))
    game_id: bytes = GAME
    result: GameEnded | None = None
    outcome: Outcome | None = None
    scores: list[int] = field(default_factory=lambda: [120, 80])
    chain: dict[int, bytes] = field(default_factory=dict)

    def entry_at(self, seq: int) -> bytes | None:
        return self.chain.get(seq)

    def totals(self) -> list[int]:
        return self.scores


def ending_of(view: FakeView, end: End) -> Ending:
    (ending,) = settle(view, end)
    assert isinstance(ending, Ending)
    return ending


def slot(accused: int = 1, voters: tuple[int, ...] = (0, 2, 3), anyone: bool = False) -> Slot:
    s = Slot(Awaited(20, PREV, accused, 3, "bid", 600, anyone), Role.VOTED)
    for v in voters:
        s.votes[v], s.waits[v] = b"vote of %d" % v, 600
    return s


def test_a_certificate_takes_the_slot_with_its_canonical_entry_and_the_accused_side_forfeits() -> None:
    s = slot()
    ending = ending_of(FakeView(), End(s, Standing.CERTIFIED))
    assert ending == Ending(s, Standing.CERTIFIED, (), ending_entry(GAME, s, Standing.CERTIFIED, ()))
    assert ending.type == "certificate"
    result = ended(FakeView(), ending)
    assert (result.status, result.seat, result.winners, result.forfeit, result.contested) == (
        TableStatus.ABANDONED, 1, (0,), True, False)
    assert (result.signers, result.waits, result.at) == ((0, 2, 3), (600, 600, 600), 20)


def test_a_certificate_only_its_winners_signed_is_contested_and_nobody_wins() -> None:
    two = FakeView(rules=preset("two"), scores=[40, 60])
    s = slot(accused=1, voters=(0,))
    ending = ending_of(two, End(s, Standing.CERTIFIED))
    result = ended(two, ending)
    assert (result.winners, result.forfeit, result.contested) == ((), False, True)


def test_a_stalled_ending_is_contested_and_names_who_did_not_sign() -> None:
    s = slot(voters=(0, 2))
    s.stalls = {0: {(3,): b"stall of 0"}, 2: {(3,): b"stall of 2"}}
    ending = ending_of(FakeView(), End(s, Standing.STALLED, (3,)))
    assert ending.missing == (3,) and ending.type == "stalled"
    result = ended(FakeView(), ending)
    assert (result.winners, result.contested, result.missing, result.signers) == ((), True, (3,), (0, 2))


def test_at_an_end_the_games_own_result_stands() -> None:
    view = FakeView(outcome=Outcome((1,), Termination.TARGET))
    ending = ending_of(view, End(slot(), Standing.CERTIFIED))
    result = ended(view, ending)
    assert (result.winners, result.scored, result.forfeit) == ((1,), True, False)


def test_a_provisional_ending_is_void_where_the_awaited_entry_is_held() -> None:
    answer = log.seal({"g": GAME, "n": 20, "p": PREV, "s": 1, "h": 3, "t": "bid", "b": 2}, log.UNSIGNED)
    s = slot()
    assert settle(FakeView(seat=1), End(s, Standing.STALLED, (3,))) == [], "the accused's own table"
    assert settle(FakeView(chain={20: answer}), End(s, Standing.STALLED, (3,))) == [], "it took the slot here"
    s.held[log.entry_hash(answer)] = answer
    assert settle(FakeView(), End(s, Standing.STALLED, (3,))) == [Reopen(s, answer)], "we hold it: we take it"
    lead = slot(anyone=True)
    assert settle(FakeView(seat=1), End(lead, Standing.CERTIFIED)) == [], "a first lead: nobody knows whose"
    certificate = ending_entry(GAME, s, Standing.CERTIFIED, ())
    assert settle(FakeView(chain={20: certificate}), End(slot(), Standing.CERTIFIED)) != [], "not provisional"


def test_an_ending_no_stronger_than_the_one_held_changes_nothing() -> None:
    earlier = GameEnded(TableStatus.ABANDONED, (0,), 1, at=12)
    assert settle(FakeView(result=earlier), End(slot(), Standing.CERTIFIED)) == []
    stalled_here = GameEnded(TableStatus.ABANDONED, (), 1, at=20, missing=(3,))
    stronger = settle(FakeView(result=stalled_here), End(slot(), Standing.CERTIFIED))
    assert stronger != [], "a certificate is stronger than a stalled ending at its slot"
    same = GameEnded(TableStatus.ABANDONED, (0,), 1, at=20)
    assert settle(FakeView(result=same), End(slot(), Standing.CERTIFIED)) == []
