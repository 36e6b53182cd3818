"""Bots: decide a bid or a card from one seat's view. A bot is an ordinary peer's player.

`make_bot(level, seed)` makes one by name (`BOT_LEVELS`: easy, normal, expert); `set_think` sets how long the
expert searches (`THINK`: fast, normal, deep); `thinking` runs one in a worker thread for a peer's event loop.
The coach (`bots.coach`) shows the expert's search to a person, and `bots.review` weighs a finished game.
"""

from p2pspades.bots.background import thinking
from p2pspades.bots.base import Player
from p2pspades.bots.easy import EasyBot
from p2pspades.bots.expert import ExpertBot
from p2pspades.bots.heuristic import HeuristicBot, estimate_tricks, nil_danger
from p2pspades.bots.random_bot import RandomBot
from p2pspades.bots.registry import (
    BOT_KINDS,
    BOT_LEVELS,
    DEFAULT_BOT,
    DEFAULT_THINK,
    THINK,
    UnknownBot,
    make_bot,
    set_think,
)
from p2pspades.table.harness import SEAT_NAMES

__all__ = [
    "BOT_KINDS",
    "BOT_LEVELS",
    "DEFAULT_BOT",
    "DEFAULT_THINK",
    "SEAT_NAMES",
    "THINK",
    "EasyBot",
    "ExpertBot",
    "HeuristicBot",
    "Player",
    "RandomBot",
    "UnknownBot",
    "estimate_tricks",
    "make_bot",
    "nil_danger",
    "set_think",
    "thinking",
]
