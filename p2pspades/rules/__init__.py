"""p2pspades.rules: the pure, deterministic Spades engine.

Cards and notation, rule sets and presets, the game engine (turns, legal actions, tricks, scoring, game
end), per-seat views, the end-of-hand audit and the draw for the first dealer. No I/O, no clocks, no
randomness of its own: chance comes in as `Deal`/`Reveal` actions or as bytes.
"""

from p2pspades.rules.actions import (
    Action,
    Bid,
    BlindBid,
    BlindNil,
    Deal,
    Draw,
    Pass,
    Play,
    Reveal,
    SeatAction,
    deal_from_order,
)
from p2pspades.rules.audit import KINDS as VIOLATION_KINDS
from p2pspades.rules.audit import Penalty, Violation, audit_hand, renege_penalty
from p2pspades.rules.cards import (
    FULL_DECK,
    Card,
    Rank,
    Suit,
    cards_of,
    format_cards,
    mask_of,
    parse_cards,
    sort_hand,
)
from p2pspades.rules.chance import ByteStream
from p2pspades.rules.dealer import FirstDealerDraw, choose_first_dealer
from p2pspades.rules.engine import Game
from p2pspades.rules.errors import (
    BadBid,
    BadDeal,
    BadPass,
    BadReveal,
    BadSeat,
    CardError,
    CardNotInHand,
    IllegalAction,
    MustFollowSuit,
    NotYourTurn,
    PublicInconsistency,
    RuleSetError,
    SpadesNotBroken,
    WrongLead,
    WrongPhase,
)
from p2pspades.rules.hand import HandState
from p2pspades.rules.results import (
    MAX_START_SCORE,
    HandResult,
    Outcome,
    Termination,
    ending_at,
    start_problem,
)
from p2pspades.rules.ruleset import PRESETS, RuleSet, default_removed, preset
from p2pspades.rules.scoring import HandScore, SideTotal, bid_notation, is_nil, score_hand
from p2pspades.rules.tricks import Trick, trick_winner
from p2pspades.rules.view import Phase, SeatView

__all__ = [
    "FULL_DECK",
    "MAX_START_SCORE",
    "PRESETS",
    "VIOLATION_KINDS",
    "Action",
    "BadBid",
    "BadDeal",
    "BadPass",
    "BadReveal",
    "BadSeat",
    "Bid",
    "BlindBid",
    "BlindNil",
    "ByteStream",
    "Card",
    "CardError",
    "CardNotInHand",
    "Deal",
    "Draw",
    "FirstDealerDraw",
    "Game",
    "HandResult",
    "HandScore",
    "HandState",
    "IllegalAction",
    "MustFollowSuit",
    "NotYourTurn",
    "Outcome",
    "Pass",
    "Penalty",
    "Phase",
    "Play",
    "PublicInconsistency",
    "Rank",
    "Reveal",
    "RuleSet",
    "RuleSetError",
    "SeatAction",
    "SeatView",
    "SideTotal",
    "SpadesNotBroken",
    "Suit",
    "Termination",
    "Trick",
    "Violation",
    "WrongLead",
    "WrongPhase",
    "audit_hand",
    "bid_notation",
    "cards_of",
    "choose_first_dealer",
    "deal_from_order",
    "default_removed",
    "ending_at",
    "format_cards",
    "is_nil",
    "mask_of",
    "parse_cards",
    "preset",
    "renege_penalty",
    "score_hand",
    "sort_hand",
    "start_problem",
    "trick_winner",
]
