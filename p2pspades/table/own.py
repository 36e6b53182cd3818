"""Our own seat: what our player may decide now, and which entry is ours to write ourselves.

A machine that knows no table: it reads the narrow `OwnView`. Our player decides bids, draws, passes and
cards (`decision`); every other entry of ours the table writes itself (`next_entry`: the challenge we owe,
or the type of the entry our makers make). Rule "low_club": while a challenge that nobody led the lowest club
is open, its holder may still lead it, and the other seats hold their reveals for as long as that challenge's
own timeout ran.
"""

from __future__ import annotations

from typing import Protocol

from p2pspades.rules import Game, Play, RuleSet
from p2pspades.table import messages as msg
from p2pspades.table.events import Decision
from p2pspades.table.stages import ANY_SEAT, LeadClaim, Stage, Step


class OwnView(Protocol):
    """What our own seat reads of its table."""

    @property
    def seat(self) -> int | None: ...

    @property
    def rules(self) -> RuleSet: ...

    @property
    def syncing(self) -> bool: ...

    @property
    def stage(self) -> Stage: ...

    @property
    def game(self) -> Game: ...

    @property
    def next_seq(self) -> int: ...

    @property
    def clock(self) -> float:
        """The latest reading of our clock."""

    @property
    def lead_claim(self) -> LeadClaim | None: ...

    @property
    def challenge_due(self) -> str | None:
        """Why we challenge at our next turn, if something we alone can see is wrong."""

    def expected(self) -> Step | None:
        """Who may append the next entry, and of which types."""


def decision(view: OwnView) -> Decision | None:
    """Our player's turn, if it is one: what to decide, the seat's view, the legal choices."""
    step = my_step(view, deciding=True)
    if view.syncing or step is None or step.decision is None or view.challenge_due or view.seat is None:
        return None
    g = view.game
    if step.seat == ANY_SEAT:
        low = view.rules.low_club
        seen = g.view(view.seat)
        if low is None or low not in seen.hand:
            return None
        return Decision(step.decision, seen, (Play(low),))
    if step.seat != view.seat:
        return None
    return Decision(step.decision, g.view(step.seat), tuple(g.legal_actions()))


def next_entry(view: OwnView) -> msg.Challenge | type[msg.Message] | None:
    """What is ours to write now: the challenge we owe, or the type of the entry our makers make; None while a
    peer or our player must act."""
    step = my_step(view)
    if step is None or step.seat not in (view.seat, ANY_SEAT) or holding_lead_claim(view):
        return None
    due = view.challenge_due
    if due and msg.Challenge in step.types:
        return msg.Challenge(view.next_seq - 1, due[: msg.MAX_WHY])
    if step.seat != view.seat or step.decision is not None:
        return None
    return step.types[0]


def open_lead_claim(view: OwnView) -> LeadClaim | None:
    """Rule "low_club": the challenge that nobody led the lowest club, until every reveal is in."""
    return view.lead_claim if view.stage is Stage.REVEAL else None


def holding_lead_claim(view: OwnView) -> bool:
    """A low-club challenge we are to reveal on, when nobody led for that long by our own clock (yet)."""
    lead = open_lead_claim(view)
    return lead is not None and view.clock - lead.since < lead.limit


def my_step(view: OwnView, deciding: bool = False) -> Step | None:
    """What the table waits for, for our own entries (`deciding`: our player's). While a low-club challenge is
    open, the holder of the lowest club may still lead it."""
    lead = open_lead_claim(view) if deciding else None
    if lead is not None and view.seat is not None:
        low = view.rules.low_club
        if low is not None and low in view.game.view(view.seat).hand:
            return lead.step  # we hold the lowest club: we may still lead it
    return view.expected()
