"""The stages of the table protocol and its transition table, as data.

`TRANSITIONS` says, for each stage, which message types it takes, from whom, what our player decides there,
and which stages may follow each type (`then`). The machine (`machine.py`) picks among the listed successors
(the last turn of a stage or not, the rules engine's phase) and refuses to enter any stage the table does not
list: the table is the protocol, the code only chooses within it. Besides the listed moves, any stage goes to
`OVER` on a violation or an abandonment certificate.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from p2pspades.checks import Check
from p2pspades.errors import N_, Detail
from p2pspades.rules import Game, Phase, RuleSet
from p2pspades.table import messages as msg
from p2pspades.table.deal import HandDeal
from p2pspades.table.events import DecisionKind, Violation


class Stage(enum.Enum):
    """Where the protocol is: what the table waits for next."""

    ACCEPT = "accept"  # every seat accepts the genesis
    DRAW_COMMIT = "dcommit"  # the first-dealer draw: commitments, then reveals
    DRAW_REVEAL = "dreveal"
    COMMIT = "commit"  # a hand starts: every seat commits to its seed
    BLIND = "blind"  # eligible seats answer "blind nil?" before the deal
    SHUFFLE = "shuffle"  # every seat shuffles and encrypts the deck
    LOCK = "lock"  # every seat locks each position with its own key
    KEYS = "keys"  # seats publish the keys others need to open their cards
    DRAW = "draw"  # two players: the drawer keeps or discards the top card
    BID = "bid"
    PASS = "pass"  # rule nil_pass: a nil bidder and its partner pass cards to each other
    PLAY = "play"
    LEAD = "lead"  # rule "low_club": whoever holds the lowest club leads it
    REVEAL = "reveal"  # every seat reveals its seed: the hand is audited
    END = "end"  # every seat signs the result
    OVER = "over"


class Who(enum.Enum):
    """Whose entry a stage takes."""

    IN_TURN = "in_turn"  # each seat of the stage's order, one after the other
    MOVER = "mover"  # the seat whose move it is in the rules engine
    ANY = "any"  # any seat (the only one able to make it)
    NOBODY = "nobody"


@dataclass(frozen=True)
class Expect:
    """What a stage takes: message types (the first is the normal one), from whom, and our player's part;
    `then`: the stages that may follow an entry of each type (the stage itself, for another seat's turn in
    it, is not listed unless the machine enters it anew)."""

    types: tuple[type[msg.Message], ...]
    who: Who
    decision: DecisionKind | None = None
    then: Mapping[type[msg.Message], tuple[Stage, ...]] = field(default_factory=dict)


ANY_SEAT = -1  # a step any seat may take: leading the lowest club, which only its holder can open


@dataclass(frozen=True)
class Step:
    """Who may append the next entry, and of which types (the first is the normal one)."""

    seat: int
    types: tuple[type[msg.Message], ...]
    decision: DecisionKind | None = None


@dataclass
class LeadClaim:
    """Rule "low_club": seat `signer` challenged (entry `entry`) because nobody led the lowest club within
    `limit` seconds of `since` on its clock. Until the last reveal its holder may still lead it, which makes
    the challenge a violation by its signer."""

    step: Step
    entry: int
    since: float
    limit: float
    signer: int
    answered: int | None = None  # the sequence number of the lead that refuted the challenge

    def refuted(self, seat: int, seq: int, challenge: bytes, lead: bytes) -> Violation:
        """Seat `seat` led the lowest club in time after all (entry `seq`, `lead`): the challenge (its entry
        `challenge`) was its signer's fault."""
        why = Detail(N_("seat {signer} claimed that nobody led the lowest club in time, but seat {seat} led "
                        "it in time (entry {seq})"), signer=self.signer, seat=seat, seq=seq)
        return Violation(self.signer, Check.CHALLENGE, why, self.entry, (challenge, lead))


#: the stage of each phase in which the rules engine says whose move it is
ENGINE_STAGES: Mapping[Phase, Stage] = {
    Phase.BLIND: Stage.BLIND,
    Phase.DRAW: Stage.DRAW,
    Phase.BID: Stage.BID,
    Phase.PASS: Stage.PASS,
    Phase.PLAY: Stage.PLAY,
}

_S = Stage
#: the stages the rules engine may hand the turn to (`Stage.LEAD`: rule "low_club", the first lead of a hand)
_ENGINE = (_S.BLIND, _S.DRAW, _S.BID, _S.PASS, _S.PLAY, _S.LEAD)
#: a challenge: everyone reveals, the audit names the culprit
_CHALLENGED: dict[type[msg.Message], tuple[Stage, ...]] = {msg.Challenge: (_S.REVEAL,)}

#: The one transition table. The order of an IN_TURN stage: ACCEPT (from seat 1: the genesis is seat 0's),
#: the draw and END from seat 0; COMMIT, SHUFFLE, LOCK and REVEAL from the dealer's left; KEYS the seats that
#: hold keys others need. An abandonment claim is not a stage: it is settled off the chain (`claims.py`).
TRANSITIONS: Mapping[Stage, Expect] = {
    _S.ACCEPT: Expect((msg.Accept,), Who.IN_TURN, then={msg.Accept: (_S.DRAW_COMMIT,)}),
    _S.DRAW_COMMIT: Expect((msg.DrawCommit,), Who.IN_TURN, then={msg.DrawCommit: (_S.DRAW_REVEAL,)}),
    _S.DRAW_REVEAL: Expect((msg.DrawReveal,), Who.IN_TURN, then={msg.DrawReveal: (_S.COMMIT,)}),
    # with blind nil on offer, the engine asks before the deal
    _S.COMMIT: Expect((msg.Commit,), Who.IN_TURN, then={msg.Commit: (_S.SHUFFLE, _S.BLIND)}),
    _S.BLIND: Expect(
        (msg.Blind, msg.BlindBid, msg.Challenge), Who.MOVER, DecisionKind.BLIND_NIL,
        then={msg.Blind: (_S.SHUFFLE, _S.BLIND), msg.BlindBid: (_S.SHUFFLE, _S.BLIND), **_CHALLENGED},
    ),
    _S.SHUFFLE: Expect(
        (msg.Shuffle, msg.Challenge), Who.IN_TURN, then={msg.Shuffle: (_S.LOCK,), **_CHALLENGED}
    ),
    # the whole deal: every seat publishes keys; a draw pile: the keys of its top card, or the engine's turn
    _S.LOCK: Expect(
        (msg.Lock, msg.Challenge), Who.IN_TURN, then={msg.Lock: (_S.KEYS, *_ENGINE), **_CHALLENGED}
    ),
    # the cards are open: the engine's turn; a draw pile: the keys of the next card
    _S.KEYS: Expect(
        (msg.Keys, msg.Challenge), Who.IN_TURN, then={msg.Keys: (*_ENGINE, _S.KEYS), **_CHALLENGED}
    ),
    # kept: the next draw (the keys of its card) or the bidding; discarded: the keys of the card under it
    _S.DRAW: Expect(
        (msg.Draw, msg.Challenge), Who.MOVER, DecisionKind.DRAW,
        then={msg.Draw: (_S.KEYS, *_ENGINE), **_CHALLENGED},
    ),
    _S.BID: Expect(
        (msg.Bid, msg.Challenge), Who.MOVER, DecisionKind.BID, then={msg.Bid: _ENGINE, **_CHALLENGED}
    ),
    # rule nil_pass: the next pass, or the first lead
    _S.PASS: Expect(
        (msg.Pass, msg.Challenge), Who.MOVER, DecisionKind.PASS,
        then={msg.Pass: (_S.PASS, _S.PLAY, _S.LEAD), **_CHALLENGED},
    ),
    _S.PLAY: Expect(
        (msg.Play, msg.Challenge), Who.MOVER, DecisionKind.PLAY,
        then={msg.Play: (_S.PLAY, _S.LEAD, _S.REVEAL), **_CHALLENGED},
    ),
    _S.LEAD: Expect(
        (msg.Play, msg.Challenge), Who.ANY, DecisionKind.PLAY,
        then={msg.Play: (_S.PLAY, _S.LEAD, _S.REVEAL), **_CHALLENGED},
    ),
    # a reveal: the next hand, or the end of the game. A play here is the lowest club led after all, under
    # a challenge that nobody led it (rule "low_club"): it applies in the lead where it was due
    _S.REVEAL: Expect(
        (msg.Reveal,), Who.IN_TURN, then={msg.Reveal: (_S.COMMIT, _S.END), msg.Play: (_S.LEAD, _S.PLAY)}
    ),
    _S.END: Expect((msg.End,), Who.IN_TURN, then={msg.End: (_S.OVER,)}),
    _S.OVER: Expect((), Who.NOBODY),
}


def successors(stage: Stage, kind: type[msg.Message]) -> tuple[Stage, ...]:
    """The stages that may follow an entry of type `kind` (or a subclass: a version 2 form) in `stage`."""
    then = TRANSITIONS[stage].then
    return next((then[c] for c in kind.__mro__ if c in then), ())


def engine_stage(game: Game, rules: RuleSet, deal: HandDeal | None) -> Stage:
    """The stage in which the rules engine says whose move it is: that of its phase; rule "low_club": the
    first lead of a hand is LEAD (only the seat holding the lowest club knows that it leads)."""
    stage = ENGINE_STAGES[game.phase]
    first_lead = rules.first_leader == "low_club" and deal is not None and not deal.played
    if stage is Stage.PLAY and (game.current_seat is None or first_lead):
        return Stage.LEAD
    return stage
