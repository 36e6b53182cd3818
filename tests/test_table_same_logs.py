"""A whole game per preset from a fixed seed gives the same log, byte for byte, as the table before it was
split into small machines: the digests below were recorded with that table (protocol version 2, target 100,
random bots), so any change to what a table writes, or in which order, shows here. A preset added later is
recorded when it is added."""

from __future__ import annotations

import hashlib

import pytest

from p2pspades.bots import RandomBot
from p2pspades.rules import PRESETS
from p2pspades.table.harness import play_in_memory

#: preset: (the first 16 hex digits of the sha256 of every seat's records, the chain's length)
RECORDED = {
    "classic": ("5a7bf4a3ea242573", 92),
    "cutthroat3": ("59d552dfb7cf1ba5", 150),
    "house": ("1fde7d2d7ead5df5", 92),  # recorded when the preset was added, after the split
    "five": ("0c35fcb40e7c6a73", 980),
    "individual": ("26d5ecf53ebec40c", 396),
    "partnership": ("62682d8b005b634d", 92),
    "piki": ("662a5e530172356c", 92),
    "two": ("4e26fb45e8189be0", 310),
    "mirror": ("4bd3882e25986595", 92),  # recorded when the bid-mode presets were added
    "whiz": ("c55067374ef8ba35", 92),
    "suicide": ("bc51b0bb91f47b3e", 92),
}


def test_every_preset_is_recorded() -> None:
    assert set(RECORDED) == set(PRESETS)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RECORDED))
def test_a_seeded_game_writes_the_recorded_log(name: str) -> None:
    rules = PRESETS[name].replace(target=100, losing_threshold=-100)
    wire = play_in_memory(rules, [RandomBot(i) for i in range(rules.players)], seed=b"same-" + name.encode())
    digest, length = RECORDED[name]
    for table in wire.tables:
        assert table.status == "complete"
        assert hashlib.sha256(b"".join(table.records)).hexdigest()[:16] == digest, table.seat
        assert len(table.entries) == length
