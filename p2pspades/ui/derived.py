"""What the game screen derives from the UI's state: whose turn it is, the trick on the table, our cards in
order and which of them may be played, the choices of a dialog, the hands played so far.

Read-only views of `UiState`'s fields, kept apart from the code that changes them; `UiState` inherits them.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pspades.i18n import _
from p2pspades.rules import (
    Action,
    Bid,
    BlindBid,
    BlindNil,
    Card,
    Draw,
    HandResult,
    Pass,
    Phase,
    Play,
    RuleSet,
    SeatView,
    SideTotal,
    Trick,
    is_nil,
    score_hand,
)
from p2pspades.rules.cards import HOLDING_ORDER, Suit
from p2pspades.table import Decision, DecisionKind
from p2pspades.ui.result import GameResult
from p2pspades.ui.text import bid_text, sort_hand


@dataclass(frozen=True)
class Contract:
    """Where one side stands in the hand being played: what it bid together and how many of the tricks that
    count toward it it has taken (as the scoring counts them), and its nil bidders apart."""

    side: int
    bidders: tuple[tuple[int, int], ...]
    """(seat, bid) of the side's seats that bid a number (not nil)."""
    contract: int
    taken: int
    left: int
    """Tricks of the hand not yet played."""
    nils: tuple[tuple[int, bool, int], ...]
    """(seat, blind, tricks taken) of the side's nil bidders."""

    @property
    def to_go(self) -> int:
        return max(0, self.contract - self.taken)

    @property
    def over(self) -> int:
        return max(0, self.taken - self.contract)

    @property
    def lost(self) -> bool:
        """The contract can no longer be made: it needs more tricks than are left."""
        return self.to_go > self.left


def contracts(view: SeatView | None) -> tuple[Contract, ...]:
    """Every side's contract in the hand being played, once every bid is in (none before, or between hands).

    The tricks that count are the scoring's own (`score_hand`): a nil bidder's tricks count for the partner
    only where the rules say so."""
    if view is None or view.phase not in (Phase.PLAY, Phase.REVEAL) or any(b is None for b in view.bids):
        return ()
    rules = view.rules
    bids = tuple(b or 0 for b in view.bids)
    scores, _totals = score_hand(rules, bids, view.blind, view.tricks_won, view.totals)
    left = rules.tricks_per_hand - len(view.tricks)
    out = []
    for score in scores:
        seats = rules.sides[score.side]
        nil = {s for s in seats if is_nil(rules, bids[s], view.blind[s])}
        out.append(
            Contract(
                score.side,
                tuple((s, bids[s]) for s in seats if s not in nil),
                score.contract,
                score.tricks,
                left,
                tuple((s, view.blind[s], view.tricks_won[s]) for s in seats if s in nil),
            )
        )
    return tuple(out)


def played_cards(view: SeatView | None) -> frozenset[Card]:
    """The cards played so far in the hand, as everybody saw them: the completed tricks and the trick on the
    table (nothing hidden: no card of another seat's hand)."""
    if view is None:
        return frozenset()
    return frozenset(card for trick in (*view.tricks, view.trick) for _, card in trick.plays)


def card_tracker(view: SeatView | None) -> list[tuple[Suit, list[Card], list[Card]]]:
    """Per suit (spades first; the jokers with them): the cards played this hand, and the cards of the deck
    neither played nor in our hand, each high to low. Only what our seat may know."""
    if view is None:
        return []
    gone = played_cards(view)
    mine = set(view.hand)
    rows = []
    for suit in HOLDING_ORDER:
        cards = sort_hand(c for c in view.rules.deck if c.suit is suit)
        out = [c for c in cards if c not in gone and c not in mine]
        rows.append((suit, [c for c in cards if c in gone], out))
    return rows


class Derived:
    """The getters of the game screen's model (mixed into `UiState`, which owns these fields)."""

    seat: int
    rules: RuleSet
    view: SeatView | None
    decision: Decision | None
    waiting: tuple[int, str] | None
    summary_hand: int | None
    result: GameResult | None

    # ----------------------------------------------------------------- the decision
    @property
    def kind(self) -> DecisionKind | None:
        return None if self.decision is None else self.decision.kind

    def choices(self) -> tuple[Action, ...]:
        """The options of the dialog for the pending bid, blind-nil or draw decision, in the order shown."""
        d = self.decision
        if d is None or d.kind in (DecisionKind.PLAY, DecisionKind.PASS):
            return ()
        if d.kind is DecisionKind.BID:
            bids = [a for a in d.legal if isinstance(a, Bid)]
            return tuple(sorted(bids, key=lambda b: b.tricks))
        if d.kind is DecisionKind.BLIND_NIL:  # "no" first, then blind nil, then the blind bids (house rule)
            answers = sorted((a for a in d.legal if isinstance(a, BlindNil)), key=lambda a: a.declare)
            blind_bids = sorted((a for a in d.legal if isinstance(a, BlindBid)), key=lambda a: a.tricks)
            return (*answers, *blind_bids)
        return tuple(sorted((a for a in d.legal if isinstance(a, Draw)), key=lambda a: not a.keep))

    def choice_label(self, action: Action) -> str:
        if isinstance(action, Bid):
            return bid_text(action.tricks, False, self.rules)
        if isinstance(action, BlindNil):
            return _("blind nil") if action.declare else _("no, see my cards")
        if isinstance(action, BlindBid):
            return _("blind {n}").format(n=action.tricks)
        if isinstance(action, Draw):
            return _("keep it") if action.keep else _("discard it")
        return str(action)

    # ----------------------------------------------------------------- our cards
    def hand_cards(self) -> list[Card]:
        """Our cards in display order."""
        return [] if self.view is None else sort_hand(self.view.hand, self.rules.order)

    def legal_cards(self) -> frozenset[Card]:
        """The cards we may play now (empty unless we are to play)."""
        d = self.decision
        if d is None or d.kind is not DecisionKind.PLAY:
            return frozenset()
        return frozenset(a.card for a in d.legal if isinstance(a, Play))

    def passable_cards(self) -> frozenset[Card]:
        """Rule `nil_pass`: the cards we may pass now, those of some legal pass (a card received may not be
        passed on); empty unless we are to pass."""
        d = self.decision
        if d is None or d.kind is not DecisionKind.PASS:
            return frozenset()
        return frozenset(c for a in d.legal if isinstance(a, Pass) for c in a.cards if c is not None)

    def selectable(self) -> list[Card]:
        """What the arrow keys move over: the legal cards when we are to play, the cards we may pass when we
        are to pass (a code typed for another is refused with the reason), else the whole hand."""
        cards = self.hand_cards()
        legal = self.legal_cards() or self.passable_cards()
        return [c for c in cards if c in legal] if legal else cards

    # ----------------------------------------------------------------- the table
    def contracts(self) -> tuple[Contract, ...]:
        """Each side's contract and the tricks it still needs, while a hand is played (see `contracts`)."""
        return contracts(self.view)

    @property
    def turn(self) -> int | None:
        """The seat everybody is waiting for."""
        if self.result is not None:
            return None
        if self.decision is not None:
            return self.seat
        if (
            self.view is not None
            and self.view.current_seat is not None
            and self.view.phase
            not in (
                Phase.DEAL,
                Phase.REVEAL,
                Phase.GAME_OVER,
            )
        ):
            return self.view.current_seat
        return None if self.waiting is None else self.waiting[0]

    @property
    def trick(self) -> Trick | None:
        return None if self.view is None else self.view.trick

    @property
    def last_trick(self) -> Trick | None:
        """The last completed trick: of this hand, or the last of the previous hand before the first lead."""
        v = self.view
        if v is None:
            return None
        if v.tricks:
            return v.tricks[-1]
        if v.history and v.history[-1].tricks:
            return v.history[-1].tricks[-1]
        return None

    @property
    def totals(self) -> tuple[SideTotal, ...]:
        return tuple(SideTotal() for _ in self.rules.sides) if self.view is None else self.view.totals

    @property
    def history(self) -> tuple[HandResult, ...]:
        return () if self.view is None else self.view.history

    def summary(self, number: int | None = None) -> HandResult | None:
        """The finished hand `number` (default: the one the summary overlay shows, else the last)."""
        number = number if number is not None else self.summary_hand
        for hand in reversed(self.history):
            if number is None or hand.number == number:
                return hand
        return None
