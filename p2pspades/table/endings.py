"""How a game ends, as a function of the signed evidence a table holds (PROTOCOL.md §5.6).

Every ending is at a slot (`GameEnded.at`: the sequence number where the chain stops): the last `end` of a
complete game, the slot a certificate or a stalled ending takes, the slot of a fault. Evidence reaches tables
in different orders, and a table that has ended must still be able to learn more, so the result must not
depend on that order. It does not: a table holds the *strongest* ending its evidence proves, and more
evidence can only move it up this one order, which every table and the verifier compute alike:

1. an ending at an earlier slot beats one at a later slot: whatever follows an ending is not the game;
2. at one slot, by kind, weakest first: `ORDER` (a complete game < a stalled ending < a stop by agreement <
   a goodbye < a certificate < a fault);
3. between two faults at one slot: the lower seat, then the one proven by fewer signed entries (an entry
   that breaks the rules proves its seat's fault alone; the same seat's second, valid entry for that slot
   adds nothing), then the check and the evidence's bytes; between two stalled endings: the one naming fewer
   seats as silent; between two goodbyes: the one of more leavers (a goodbye more is more evidence).

The provisional endings (a stalled ending, a stop: void when the awaited entry turns up; a goodbye: void when
an entry its signer signed at or after its slot turns up) sit below every ending that the same entry leaves
standing, so that voiding one never uncovers another at its slot that was weaker.
"""

from __future__ import annotations

import enum

from p2pspades.rules import RuleSet
from p2pspades.table.events import GameEnded, TableStatus, Violation


class EndingKind(enum.Enum):
    COMPLETE = "complete"  # every seat signed `end`
    STALLED = "stalled"  # the seats still playing ended a claim the others would not sign: contested
    STOPPED = "stopped"  # every seat signed a stop: the scores stand, nobody wins
    LEFT = "left"  # a seat signed its goodbye: its side forfeits
    CERTIFIED = "certified"  # the votes of every seat but the one awaited
    FAULT = "fault"  # a signed proof that a seat broke the protocol or the rules


#: the kinds of ending at one slot, weakest first
ORDER: tuple[EndingKind, ...] = (
    EndingKind.COMPLETE, EndingKind.STALLED, EndingKind.STOPPED, EndingKind.LEFT, EndingKind.CERTIFIED,
    EndingKind.FAULT,
)


def kind_of(ended: GameEnded) -> EndingKind:
    if ended.status is TableStatus.VIOLATION:
        return EndingKind.FAULT
    if ended.status is TableStatus.ABANDONED:
        return EndingKind.STALLED if ended.missing else EndingKind.CERTIFIED
    if ended.status is TableStatus.LEFT:
        return EndingKind.LEFT
    if ended.status is TableStatus.STOPPED:
        return EndingKind.STOPPED
    return EndingKind.COMPLETE


def _tie(ended: GameEnded) -> tuple[object, ...]:
    """Between two endings of one kind at one slot: the larger key is the stronger."""
    v = ended.violation
    if v is not None:
        return (-v.seat, -len(v.evidence), str(v.check), tuple(sorted(v.evidence)))
    if ended.leavers:
        return (len(ended.leavers), tuple(-s for s in ended.leavers))
    return (-len(ended.missing), tuple(-m for m in ended.missing))


def rank(ended: GameEnded) -> tuple[object, ...]:
    """The place of `ended` in the order of endings: the larger, the stronger."""
    return (-ended.at, ORDER.index(kind_of(ended)), _tie(ended))


def stronger(new: GameEnded, old: GameEnded | None) -> bool:
    """Whether the ending `new` replaces `old` (None: the game had not ended)."""
    return old is None or rank(new) > rank(old)


def ranked_without(rules: RuleSet, loser: int, totals: list[int]) -> tuple[int, ...]:
    """The sides with the best total once side `loser` forfeited (all of them on equal totals)."""
    sides = range(len(rules.sides))
    top = max(totals[side] for side in sides if side != loser)
    return tuple(side for side in sides if side != loser and totals[side] == top)


def fault_ending(rules: RuleSet, violation: Violation, totals: list[int], at: int) -> GameEnded:
    """How a game ends by a fault at slot `at` (the sides' `totals` then): the culprit's side forfeits, the
    others ranked, unless the rules say void (rule `on_fault`)."""
    forfeit = rules.on_fault == "forfeit"
    winners = ranked_without(rules, rules.side_of(violation.seat), totals) if forfeit else ()
    return GameEnded(TableStatus.VIOLATION, winners, violation.seat, forfeit, violation=violation, at=at)
