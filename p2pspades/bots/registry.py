"""The one place that turns a bot's name into a bot, and the names bots sit under.

Difficulty levels for people choosing an opponent or a partner: `easy` (the heuristic with deliberate
mistakes), `normal` (the heuristic bot) and `expert` (search). `heuristic` is another name for `normal`,
kept for saved games and scripts, and `random` plays any legal card (for tests and benchmarks).
"""

from __future__ import annotations

import secrets

from p2pspades.bots.base import Player
from p2pspades.bots.easy import EasyBot
from p2pspades.bots.expert import ExpertBot
from p2pspades.bots.heuristic import HeuristicBot
from p2pspades.bots.random_bot import RandomBot

BOT_LEVELS = ("easy", "normal", "expert")
"""The difficulty levels, from the weakest."""
BOT_KINDS = (*BOT_LEVELS, "heuristic", "random")
"""Every name `make_bot` accepts."""
DEFAULT_BOT = "normal"


class UnknownBot(ValueError):
    """A bot name that is not one of `BOT_KINDS`."""


def make_bot(
    level: str = DEFAULT_BOT, seed: int | bytes | None = None, *, time_budget: float | None = None
) -> Player:
    """A bot of the given level (or kind), seeded from `seed`, or at random when it is None.

    `time_budget` is the expert's seconds per decision (its default when None); the other bots are fast.
    """
    if seed is None:
        seed = secrets.token_bytes(16)
    if level == "easy":
        return EasyBot(seed)
    if level in ("normal", "heuristic"):
        return HeuristicBot(seed)
    if level == "expert":
        return ExpertBot(seed) if time_budget is None else ExpertBot(seed, time_budget=time_budget)
    if level == "random":
        return RandomBot(seed)
    raise UnknownBot(f"unknown bot {level!r}; choose one of: {', '.join(BOT_LEVELS)} (or random)")
