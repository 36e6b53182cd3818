"""Bots: decide a bid or a card from one seat's view. A bot is an ordinary peer's player."""

from p2pspades.bots.base import Player
from p2pspades.bots.heuristic import HeuristicBot, estimate_tricks, nil_danger
from p2pspades.bots.random_bot import RandomBot

__all__ = ["HeuristicBot", "Player", "RandomBot", "estimate_tricks", "nil_danger"]
