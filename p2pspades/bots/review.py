"""The review of a finished game from one seat: every bid and card it chose, weighed by the coach.

`positions` replays the hands a log proves, in a rules engine that is told only what the seat knew: its own
cards at the deal (`Deal.seen_by`), then every bid and card as they were made, the other seats' cards unknown
until the hand's reveal. At each of the seat's decisions it gives the seat's view, which is all the coach
reads. `review` weighs each decision with the coach and lists those that cost the most expected points
against the expert's choice. Pure: no I/O; progress goes to a callback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from p2pspades.bots.coach import Advice, Option, advise
from p2pspades.errors import N_, LocalError
from p2pspades.rules import (
    Action,
    Bid,
    BlindNil,
    Deal,
    Game,
    HandResult,
    IllegalAction,
    Phase,
    Play,
    Reveal,
    RuleSet,
    SeatView,
)
from p2pspades.table.events import Decision, DecisionKind

_KINDS = {Phase.BID: DecisionKind.BID, Phase.PLAY: DecisionKind.PLAY}


class CannotReview(LocalError, ValueError):
    """A game the review cannot replay (the draw pile's unseen draws, or hands that do not replay)."""


@dataclass(frozen=True, slots=True)
class Position:
    """One decision of the seat: hand number (1-based), trick number (1-based; 0 for a bid), what the seat
    saw and could choose, and what it chose."""

    hand: int
    trick: int
    decision: Decision
    chosen: Action

    @property
    def view(self) -> SeatView:
        return self.decision.view


NOTICEABLE = 0.5
"""A decision is listed as costly only from half a point given up: less is within the search's own noise, and
would be written as 0 points."""


@dataclass(frozen=True, slots=True)
class Weighed:
    """A decision weighed: the coach's advice, the option the seat took, and what it cost in expected points
    against the expert's choice (0 when it was the choice, or as good)."""

    position: Position
    advice: Advice
    taken: Option
    cost: float


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    decisions: int  # the seat's decisions with something to choose
    weighed: tuple[Weighed, ...]  # costliest first
    agreed: int  # decisions where the seat took the expert's choice (or one as good)

    @property
    def cost(self) -> float:
        return sum(w.cost for w in self.weighed)

    def costliest(self, top: int) -> tuple[Weighed, ...]:
        """The `top` costliest decisions that gave up a noticeable cost (`NOTICEABLE`), costliest first."""
        return tuple(w for w in self.weighed[:top] if w.cost >= NOTICEABLE)


def positions(rules: RuleSet, hands: Sequence[HandResult], seat: int) -> Iterator[Position]:
    """Every decision of `seat` in `hands` (the hands a log proves, in order), as the seat saw it."""
    if rules.deal != "all":
        raise CannotReview(N_("a game with a draw pile cannot be reviewed: its log does not show what each "
                              "seat saw of the stock"))
    if rules.nil_pass:
        raise CannotReview(N_("a game with the nil card pass cannot be reviewed yet: the hands a log proves "
                              "are those after the pass, not those dealt"))
    if not 0 <= seat < rules.players:
        raise CannotReview(N_("there is no seat {seat}: this game has seats 0 to {last}"), seat=seat,
                           last=rules.players - 1)
    if not hands:
        return
    game = Game(rules, hands[0].dealer)
    for result in hands:
        try:
            yield from _hand(game, result, seat)
        except IllegalAction as exc:
            raise CannotReview(N_("hand {hand} does not replay from seat {seat}'s view: {why}"),
                               hand=result.number, seat=seat, why=exc) from exc


def _hand(game: Game, result: HandResult, seat: int) -> Iterator[Position]:
    while game.phase is Phase.BLIND:
        game.apply(BlindNil(result.blind[game.current_seat or 0]))
    game.apply(Deal(result.hands).seen_by(seat))
    while game.phase is Phase.BID:
        bidder = game.current_seat
        assert bidder is not None
        bid = Bid(result.bids[bidder])
        if bidder == seat:
            yield Position(result.number, 0, _decision(game, seat), bid)
        game.apply(bid)
    for number, trick in enumerate(result.tricks, 1):
        for player, card in trick.plays:
            action = Play(card)
            if player == seat:
                yield Position(result.number, number, _decision(game, seat), action)
            game.apply(action)
    game.apply(Reveal(result.hands))


def _decision(game: Game, seat: int) -> Decision:
    return Decision(_KINDS[game.phase], game.view(seat), game.legal_actions())


def review(
    rules: RuleSet,
    hands: Sequence[HandResult],
    seat: int,
    think: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Weigh every decision of `seat` with the coach. `progress(hand, of)` is told as each hand starts."""
    weighed: list[Weighed] = []
    decisions = agreed = 0
    last = 0
    for position in positions(rules, hands, seat):
        if progress is not None and position.hand != last:
            last = position.hand
            progress(position.hand, len(hands))
        advice = advise(position.decision, think)
        if advice is None:
            continue
        taken = advice.option(position.chosen)
        best = advice.option(advice.choice)
        if taken is None or best is None:  # a choice outside the search (cannot happen for a legal one)
            continue
        decisions += 1
        cost = max(0.0, best.points - taken.points)
        agreed += taken is best
        weighed.append(Weighed(position, advice, taken, cost))
    weighed.sort(key=lambda w: (-w.cost, w.position.hand, w.position.trick))
    return Review(seat, decisions, tuple(weighed), agreed)
