"""The table protocol: a sans-IO state machine per peer, and the in-memory wiring of several."""

from p2pspades.table.deal import DealFault, HandDeal
from p2pspades.table.events import (
    Accepted,
    CardVerified,
    ChallengeRaised,
    Decision,
    DecisionKind,
    DropKind,
    Dropped,
    Event,
    FirstDealer,
    GameEnded,
    HandAudited,
    Noted,
    Outgoing,
    Rejected,
    SecretCreated,
    Superseded,
    TableStatus,
    Violation,
    Wanted,
)
from p2pspades.table.genesis import SeatInfo, Setup, make_genesis, read_genesis
from p2pspades.table.machine import Table
from p2pspades.table.makers import Makers
from p2pspades.table.stages import TRANSITIONS, Expect, Stage, Step, Who

__all__ = [
    "TRANSITIONS",
    "Accepted",
    "CardVerified",
    "ChallengeRaised",
    "DealFault",
    "Decision",
    "DecisionKind",
    "DropKind",
    "Dropped",
    "Event",
    "Expect",
    "FirstDealer",
    "GameEnded",
    "HandAudited",
    "HandDeal",
    "Makers",
    "Noted",
    "Outgoing",
    "Rejected",
    "SeatInfo",
    "SecretCreated",
    "Setup",
    "Stage",
    "Step",
    "Superseded",
    "Table",
    "TableStatus",
    "Violation",
    "Wanted",
    "Who",
    "make_genesis",
    "read_genesis",
]
