"""Errors of the rules layer.

Every one is a `LocalError` (the caller asked for something the rules do not allow) and a `ValueError` (the
input was a bad value). The table layer turns an `IllegalAction` caused by a peer's message into a remote
error that names the seat; `IllegalAction.seat` carries it when the engine knows it.
"""

from __future__ import annotations

from p2pspades.errors import LocalError


class CardError(LocalError, ValueError):
    """A card code that does not parse, or something that is not a card where a card is needed."""


class RuleSetError(LocalError, ValueError):
    """A rule set that is inconsistent or malformed; the message says what is wrong."""


class IllegalAction(LocalError, ValueError):
    """An action the rules do not allow at this point of the game. Its message is a template marked with `N_`
    and its `fields` where a person may read it (a peer's refused action becomes the detail of its failed
    check: `errors.detail_of`)."""

    def __init__(self, message: str, seat: int | None = None, /, **fields: object) -> None:
        super().__init__(message, **fields)
        self.seat = seat


class BadSeat(IllegalAction):
    """A seat number outside the table."""


class WrongPhase(IllegalAction):
    """An action of the wrong kind for the phase (a bid during play, a card during bidding, ...)."""


class NotYourTurn(IllegalAction):
    """A seat acted when it was not its turn."""


class BadDeal(IllegalAction):
    """A deal (or a learned stock card) that does not fit the rule set or what is already known."""


class BadBid(IllegalAction):
    """A bid outside the allowed range."""


class BadPass(IllegalAction):
    """A nil card pass of the wrong number of cards, or of a card the seat was not dealt or still holds."""


class CardNotInHand(IllegalAction):
    """A card the seat does not hold (or that is not in this game's deck)."""


class MustFollowSuit(IllegalAction):
    """The seat holds a card of the led suit and played another suit (a renege)."""


class SpadesNotBroken(IllegalAction):
    """A spade lead that the spade-lead rule does not allow yet."""


class WrongLead(IllegalAction):
    """The first lead must be the lowest club (rule `first_leader="low_club"`)."""


class PublicInconsistency(IllegalAction):
    """A play that contradicts the public record: a card already played, known to be elsewhere, or of a suit
    the seat has already shown to be void in."""


class BadReveal(IllegalAction):
    """The hands revealed at the end of a hand contradict what this engine saw during the hand."""
