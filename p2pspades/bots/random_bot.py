"""The random bot: a uniformly random legal choice, reproducible from its seed."""

from __future__ import annotations

from p2pspades.rules import Action
from p2pspades.rules.chance import ByteStream
from p2pspades.table.events import Decision


class RandomBot:
    """Picks uniformly among the legal choices. The seed drives only its choices."""

    name = "random"

    def __init__(self, seed: int | bytes = 0) -> None:
        self._stream = ByteStream(seed if isinstance(seed, bytes) else b"random-bot" + str(seed).encode())

    def __call__(self, decision: Decision) -> Action:
        return decision.legal[self._stream.below(len(decision.legal))]
