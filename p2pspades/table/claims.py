"""Abandonment claims: votes off the chain, a certificate on it (PROTOCOL.md §5).

A claim is about one *slot*: the sequence number `n` the table waits for, after the entry whose hash is `p`,
and the seat `a` whose entry it awaits. Nothing about it is on the chain until it is settled:

- every other seat signs a **vote** (`abandon`) once its own timer for the slot has run out;
- a seat that took `a`'s entry for the slot before it voted, and then sees a vote, signs a **refusal**
  (`answered`, with the hash of the entry it took): from then on no certificate can exist without that seat's
  vote, so every seat that voted takes the entry after all, and the claim is void;
- the votes of every seat but `a` make the **certificate**, which goes on the chain at `n` and ends the game.
  It beats any entry of `a` for that slot, on every table, `a`'s own included.

An honest seat that voted never takes `a`'s entry for the slot, except on a refusal; an honest seat that took
it never votes. So, among honest seats, a certificate and a refusal exclude each other: a seat with a vote
and a refusal in one slot signed both, which is equivocation.

This module holds what one table knows of one slot and how it moves (`TRANSITIONS`, as data); the table
(`machine.py`) checks each message, feeds the signal in and carries out the act that comes back.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from p2pspades.rules import RuleSet


class ClaimState(enum.Enum):
    """Where one slot's claim stands, as one table sees it."""

    QUIET = "quiet"  # no vote seen, none of ours, and the awaited entry has not come
    OPEN = "open"  # others voted; we did not (an observer, the accused, or our own timer still runs)
    VOTED = "voted"  # we voted: we hold the awaited entry off our chain, unless a refusal comes
    ANSWERED = "answered"  # the awaited entry is on our chain (we took it before any vote of ours)
    REFUTED = "refuted"  # a seat that took the awaited entry before it voted said so: the claim is void
    CERTIFIED = "certified"  # every other seat voted: the certificate is on the chain, the game is over


class Signal(enum.Enum):
    """What can happen to a slot's claim."""

    VOTE = "another seat's vote"
    OWN_VOTE = "our own timer ran out, and we vote"
    ANSWER = "the awaited entry arrives"
    REFUSAL = "a seat says it took the awaited entry before it voted"
    COMPLETE = "the votes of every seat but the accused are in"


class Act(enum.Enum):
    """What the table does on a signal."""

    KEEP = "keep the vote or refusal with the slot"
    VOTE = "sign our vote and send it"
    TAKE = "put the awaited entry on the chain"
    TAKE_AND_REFUSE = "put the awaited entry on the chain, and refuse the votes already out"
    HOLD = "keep the awaited entry off the chain"
    REFUSE = "sign a refusal and send it: we took the awaited entry before any vote of ours"
    RELEASE = "put the awaited entry we hold (or will receive) on the chain"
    CERTIFY = "put the certificate on the chain (cutting back what followed the slot): the game is over"
    NOTHING = "nothing more"


S, G, A = ClaimState, Signal, Act

#: The whole claim logic: (state, signal) -> (next state, act). A pair that is missing does not happen: a
#: slot is created by a vote or just before ours, a finished table takes no more signals, and a refusal after
#: a certificate (or a certificate after a refusal) means one seat signed both, which the table finds first.
TRANSITIONS: Mapping[tuple[ClaimState, Signal], tuple[ClaimState, Act]] = {
    (S.QUIET, G.VOTE): (S.OPEN, A.KEEP),
    (S.QUIET, G.OWN_VOTE): (S.VOTED, A.VOTE),
    (S.QUIET, G.ANSWER): (S.ANSWERED, A.TAKE),
    (S.OPEN, G.VOTE): (S.OPEN, A.KEEP),
    (S.OPEN, G.OWN_VOTE): (S.VOTED, A.VOTE),
    (S.OPEN, G.ANSWER): (S.ANSWERED, A.TAKE_AND_REFUSE),
    (S.OPEN, G.REFUSAL): (S.REFUTED, A.KEEP),
    (S.OPEN, G.COMPLETE): (S.CERTIFIED, A.CERTIFY),
    (S.VOTED, G.VOTE): (S.VOTED, A.KEEP),
    (S.VOTED, G.ANSWER): (S.VOTED, A.HOLD),
    (S.VOTED, G.REFUSAL): (S.REFUTED, A.RELEASE),
    (S.VOTED, G.COMPLETE): (S.CERTIFIED, A.CERTIFY),
    (S.ANSWERED, G.VOTE): (S.ANSWERED, A.REFUSE),
    (S.ANSWERED, G.REFUSAL): (S.ANSWERED, A.KEEP),
    (S.ANSWERED, G.COMPLETE): (S.CERTIFIED, A.CERTIFY),  # the accused's own table, or an observer
    (S.REFUTED, G.VOTE): (S.REFUTED, A.KEEP),
    (S.REFUTED, G.REFUSAL): (S.REFUTED, A.KEEP),
    (S.REFUTED, G.ANSWER): (S.ANSWERED, A.TAKE),
}


@dataclass
class Slot:
    """What one table knows of the claim on one slot: `seq` after the entry hashed `prev`, awaiting `accused`.

    `votes` and `refusals` are the signed messages by seat (a refusal with the hash of the entry it took);
    `held` the awaited entries we hold off the chain, by hash.
    """

    seq: int
    prev: bytes
    accused: int
    hand: int
    wait: int  # the timeout in force on our clock, in whole seconds (what our vote says)
    awaited: str = ""  # the type of the entry the slot waits for
    state: ClaimState = ClaimState.QUIET
    votes: dict[int, bytes] = field(default_factory=dict)
    waits: dict[int, int] = field(default_factory=dict)  # each vote's stated timeout
    refusals: dict[int, tuple[bytes, bytes]] = field(default_factory=dict)  # seat -> (raw, hash taken)
    held: dict[bytes, bytes] = field(default_factory=dict)
    refused: bool = False  # our own refusal is out

    def fire(self, signal: Signal) -> Act:
        """Move on `signal`; the act the table must carry out. A pair the table does not list is a no-op."""
        nxt, act = TRANSITIONS.get((self.state, signal), (self.state, Act.NOTHING))
        self.state = nxt
        return act

    @property
    def voters(self) -> tuple[int, ...]:
        return tuple(sorted(self.votes))

    def complete(self, seats: int) -> bool:
        """Whether every seat but the accused voted."""
        return len(self.votes) == seats - 1

    def notes(self) -> list[bytes]:
        """The signed votes and refusals of this slot, in seat order (what a peer that lacks them needs)."""
        refusals = [raw for _, (raw, _) in sorted(self.refusals.items())]
        return [raw for _, raw in sorted(self.votes.items())] + refusals

    def missing(self, seats: int) -> tuple[int, ...]:
        """The seats whose vote the certificate still lacks."""
        return tuple(s for s in range(seats) if s != self.accused and s not in self.votes)


@dataclass(frozen=True)
class Outcome:
    """The result a certificate gives: who forfeits, and whether a signer vouches against its interest."""

    winners: tuple[int, ...]
    forfeit: bool
    contested: bool


def ranked_without(rules: RuleSet, loser: int, totals: list[int]) -> tuple[int, ...]:
    """The sides with the best total once side `loser` forfeited (all of them on equal totals)."""
    sides = range(len(rules.sides))
    top = max(totals[side] for side in sides if side != loser)
    return tuple(side for side in sides if side != loser and totals[side] == top)


def outcome(rules: RuleSet, accused: int, voters: tuple[int, ...], totals: list[int]) -> Outcome:
    """The result of a certificate against `accused`, signed by `voters`, with the sides' `totals` then.

    By rule `on_fault` "forfeit" the accused's side loses and the best of the other sides win, but only if
    some signer's own side is not among those winners (its partner, or a seat that does not gain by it):
    signers who all win by the certificate prove nothing, so the game ends contested, with no winner. With
    "void" nobody wins.
    """
    if rules.on_fault != "forfeit":
        return Outcome((), False, False)
    winners = ranked_without(rules, rules.side_of(accused), totals)
    if any(rules.side_of(v) not in winners for v in voters):
        return Outcome(winners, True, False)
    return Outcome((), False, True)
