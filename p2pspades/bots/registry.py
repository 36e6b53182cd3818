"""The one place that turns a bot's name into a bot, and the names bots sit under.

Difficulty levels for people choosing an opponent or a partner: `easy` (the heuristic with deliberate
mistakes), `normal` (the heuristic bot) and `expert` (search). `heuristic` is another name for `normal`,
kept for saved games and scripts, and `random` plays any legal card (for tests and benchmarks).
"""

from __future__ import annotations

import secrets

from p2pspades.bots.base import Player
from p2pspades.bots.easy import EasyBot
from p2pspades.bots.expert import DEFAULT_BUDGET, ExpertBot
from p2pspades.bots.heuristic import HeuristicBot
from p2pspades.bots.random_bot import RandomBot
from p2pspades.errors import N_, Detail

BOT_LEVELS = ("easy", "normal", "expert")
"""The difficulty levels, from the weakest."""
BOT_KINDS = (*BOT_LEVELS, "heuristic", "random")
"""Every name `make_bot` accepts."""
DEFAULT_BOT = "normal"
THINK = {"fast": 0.25, "normal": 1.0, "deep": 4.0}
"""How long the expert searches (`--think`), as a share of its default budget: seconds and playouts alike,
so one seed still gives the same decisions at each level."""
DEFAULT_THINK = "normal"
_think = [DEFAULT_THINK]  # the process's level, set once from the command line (`set_think`)


class UnknownBot(ValueError):
    """A bot name that is not one of `BOT_KINDS`, or a `--think` level that is not one of `THINK` (a saved
    game's `local.json` may name one): its message a `Detail`, said in the reader's language."""


def think_budget(think: str | None = None) -> float:
    """The expert's seconds per decision at a `--think` level (the process's level when None)."""
    think = _think[0] if think is None else think
    if think not in THINK:
        raise UnknownBot(Detail(N_("unknown --think {think}; choose one of: {levels}"),
                                think=repr(think)[:40], levels=", ".join(THINK)))
    return DEFAULT_BUDGET * THINK[think]


def set_think(think: str) -> None:
    """How long this process's expert bots (and the coach) search from now on."""
    think_budget(think)
    _think[0] = think


def make_bot(
    level: str = DEFAULT_BOT,
    seed: int | bytes | None = None,
    *,
    time_budget: float | None = None,
    clock: bool = True,
) -> Player:
    """A bot of the given level (or kind), seeded from `seed`, or at random when it is None.

    `time_budget` is the expert's seconds per decision (when None, the process's `--think` level's), which
    sets its count of playouts; `clock=False` leaves that count alone to end a decision, with no wall-clock
    cap (an exact replay on a loaded machine). The other bots are fast.
    """
    if seed is None:
        seed = secrets.token_bytes(16)
    if level == "easy":
        return EasyBot(seed)
    if level in ("normal", "heuristic"):
        return HeuristicBot(seed)
    if level == "expert":
        budget = think_budget() if time_budget is None else time_budget
        return ExpertBot(seed, time_budget=budget, clock=clock)
    if level == "random":
        return RandomBot(seed)
    raise UnknownBot(Detail(N_("unknown bot {level}; choose one of: {levels} (or random)"),
                            level=repr(level)[:40], levels=", ".join(BOT_LEVELS)))
