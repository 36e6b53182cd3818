"""The review of a finished game from one seat: every bid, blind-nil answer and card it chose, weighed by the
coach.

`positions` replays the hands a log proves, in a rules engine that is told only what the seat knew: its own
cards at the deal (`Deal.seen_by`), then every blind-nil answer, bid and card as they were made, the other
seats' cards unknown until the hand's reveal. At each of the seat's decisions it gives the seat's view, which
is all the coach reads, and the action the seat took. `judge` weighs one position with the coach (the
action taken searched with the others, in the same deals, whether or not the coach would have searched it),
and `review` weighs them all and lists those that cost the most expected points against the expert's
choice. Pure: no I/O; progress goes to a callback, and the weighing may be spread over worker processes by
the caller (`judge` is a function of one position).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from p2pspades.bots.coach import Advice, Option, advise
from p2pspades.errors import N_, LocalError
from p2pspades.rules import (
    Action,
    Bid,
    BlindBid,
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
    SideTotal,
)
from p2pspades.table.events import Decision, DecisionKind

_KINDS = {Phase.BLIND: DecisionKind.BLIND_NIL, Phase.BID: DecisionKind.BID, Phase.PLAY: DecisionKind.PLAY}


class CannotReview(LocalError, ValueError):
    """A game the review cannot replay (the draw pile's unseen draws, or hands that do not replay)."""


@dataclass(frozen=True, slots=True)
class Position:
    """One decision of the seat: hand number (1-based), trick number (1-based; 0 for a bid or a blind-nil
    answer), what the seat saw and could choose, and what it chose."""

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
class Judged:
    """A decision weighed: the coach's advice, the option the seat's action was searched as, and what it
    cost in expected points against the expert's choice (0 when it was the choice, or as good)."""

    position: Position
    advice: Advice
    taken: Option
    cost: float


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    decisions: int  # the seat's decisions with something to choose
    weighed: tuple[Judged, ...]  # costliest first
    agreed: int  # decisions where the seat took the expert's choice (or one as good)

    @property
    def cost(self) -> float:
        return sum(w.cost for w in self.weighed)

    def costliest(self, top: int) -> tuple[Judged, ...]:
        """The `top` costliest decisions that gave up a noticeable cost (`NOTICEABLE`), costliest first."""
        return tuple(w for w in self.weighed[:top] if w.cost >= NOTICEABLE)


class Replay:
    """The seat's decisions hand by hand, replayed in an engine told only what the seat knew (`hand` takes
    the hands a log proves, in order). `totals`: the scores the game started from (a game carried on from
    another's), else nothing."""

    def __init__(self, rules: RuleSet, seat: int, totals: Sequence[SideTotal] | None = None) -> None:
        if rules.deal != "all":
            raise CannotReview(N_("a game with a draw pile cannot be reviewed: its log does not show what "
                                  "each seat saw of the stock"))
        if rules.nil_pass:
            raise CannotReview(N_("a game with the nil card pass cannot be reviewed yet: the hands a log "
                                  "proves are those after the pass, not those dealt"))
        if not 0 <= seat < rules.players:
            raise CannotReview(N_("there is no seat {seat}: this game has seats 0 to {last}"), seat=seat,
                               last=rules.players - 1)
        self.rules = rules
        self.seat = seat
        self.totals = totals
        self.game: Game | None = None

    def hand(self, result: HandResult) -> Iterator[Position]:
        """The seat's decisions in the next hand, `result` as the log proves it, one by one as it replays."""
        if self.game is None:
            self.game = Game(self.rules, result.dealer, self.totals)
        try:
            yield from _hand(self.game, result, self.seat)
        except IllegalAction as exc:
            raise CannotReview(N_("hand {hand} does not replay from seat {seat}'s view: {why}"),
                               hand=result.number, seat=self.seat, why=exc) from exc


def positions(
    rules: RuleSet, hands: Sequence[HandResult], seat: int, totals: Sequence[SideTotal] | None = None
) -> Iterator[Position]:
    """Every decision of `seat` in `hands` (the hands a log proves, in order), as the seat saw it."""
    replay = Replay(rules, seat, totals)
    for result in hands:
        yield from replay.hand(result)


def _blind_answer(result: HandResult, seat: int) -> Action:
    """The seat's answer to the blind-nil question, as the hand's record shows it."""
    if not result.blind[seat]:
        return BlindNil(False)
    return BlindNil(True) if result.bids[seat] == 0 else BlindBid(result.bids[seat])


def _hand(game: Game, result: HandResult, seat: int) -> Iterator[Position]:
    while game.phase is Phase.BLIND:
        asked = game.current_seat
        assert asked is not None
        answer = _blind_answer(result, asked)
        if asked == seat:
            yield Position(result.number, 0, _decision(game, seat), answer)
        game.apply(answer)
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
    return Decision(_KINDS[game.phase], game.view(seat), tuple(game.legal_actions()))


def weighable(position: Position) -> bool:
    """Has the decision something to choose (two legal actions or more)? One that has not is never weighed
    (`judge` gives None at once, as the coach has no advice for it), nor counted: a caller may judge it where
    it stands rather than hand it to a worker process."""
    return len(position.decision.legal) > 1


def judge(position: Position, think: str | None = None) -> Judged | None:
    """One decision weighed by the coach, the action taken among the options (None where there was nothing
    to choose: one legal action, or every card as good as the others)."""
    advice = advise(position.decision, think, also=position.chosen)
    if advice is None:
        return None
    taken = advice.option(position.chosen)
    best = advice.option(advice.choice)
    if taken is None or best is None:  # pragma: no cover - the action taken is always searched
        return None
    return Judged(position, advice, taken, max(0.0, best.points - taken.points))


def summed(seat: int, judged: Iterable[Judged | None]) -> Review:
    """The review of a seat from its decisions weighed (None: nothing to choose), costliest first."""
    weighed = [j for j in judged if j is not None]
    agreed = sum(j.taken is j.advice.best for j in weighed)
    weighed.sort(key=lambda j: (-j.cost, j.position.hand, j.position.trick))
    return Review(seat, len(weighed), tuple(weighed), agreed)


def review(
    rules: RuleSet,
    hands: Sequence[HandResult],
    seat: int,
    think: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Weigh every decision of `seat` with the coach, in this process. `progress(hand, of)` is told as each
    hand starts."""
    judged: list[Judged | None] = []
    last = 0
    for position in positions(rules, hands, seat):
        if progress is not None and position.hand != last:
            last = position.hand
            progress(position.hand, len(hands))
        judged.append(judge(position, think))
    return summed(seat, judged)
