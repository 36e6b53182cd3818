"""The table protocol: a sans-IO state machine per peer, and the in-memory wiring of several."""

from p2pspades.table.deal import DealFault, HandDeal
from p2pspades.table.events import (
    Accepted,
    Decision,
    DecisionKind,
    Dropped,
    Event,
    GameEnded,
    HandAudited,
    Info,
    Outgoing,
    Rejected,
    SecretCreated,
    Violation,
    Wanted,
)
from p2pspades.table.genesis import SeatInfo, Setup, make_genesis, read_genesis
from p2pspades.table.machine import Step, Table

__all__ = [
    "Accepted",
    "DealFault",
    "Decision",
    "DecisionKind",
    "Dropped",
    "Event",
    "GameEnded",
    "HandAudited",
    "HandDeal",
    "Info",
    "Outgoing",
    "Rejected",
    "SeatInfo",
    "SecretCreated",
    "Setup",
    "Step",
    "Table",
    "Violation",
    "Wanted",
    "make_genesis",
    "read_genesis",
]
