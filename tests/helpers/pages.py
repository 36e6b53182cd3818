"""Real games for the HTML page's tests and its screenshots: a whole game (with hostile names), one a seat
halts with a forged card, and one abandoned when a seat withholds its reveal. Each is a log file."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from helpers import claims
from helpers.logs import write_log
from p2pspades import crypto, log
from p2pspades.bots import RandomBot
from p2pspades.rules import preset
from p2pspades.table import TableStatus
from p2pspades.table.harness import Wire, new_tables, play_in_memory

RULES = preset("classic", target=100, losing_threshold=-300)
SEED = b"page"
#: markup, a script, quotes and a direction override: each must reach the screen as text
HOSTILE = ["Ann", '<b>Bob</b> & "x"', "Cat\u202eevil", "<script>alert(1)</script>"]


@functools.cache
def _whole_game() -> tuple[bytes, ...]:
    """The entries of the whole game (the same seed gives the same game: it is played once a process)."""
    wire = play_in_memory(RULES, [RandomBot(i) for i in range(4)], seed=SEED, names=HOSTILE)
    assert wire.tables[0].status is TableStatus.COMPLETE
    return tuple(wire.tables[0].entries)


def whole_game(path: Path) -> Path:
    return write_log(path, _whole_game())


def forged_card(path: Path) -> Path:
    """A game halted at its first play: the seat signs a lock key that opens no card of its own."""
    entries = list(_whole_game())
    index = next(i for i, e in enumerate(entries) if log.open_envelope(e).payload["t"] == "play")
    payload = dict(log.open_envelope(entries[index]).payload)
    key = bytearray(payload["k"])
    key[0] ^= 1
    payload["k"] = bytes(key)
    signer = crypto.Identity.from_seed(hashlib.sha256(SEED + bytes([payload["s"]])).digest())
    return write_log(path, [*entries[:index], log.seal(payload, signer)])


def out_of_turn(path: Path) -> Path:
    """The whole game's log up to its first bid, where the next seat signs a bid out of turn (for a dispute:
    the honest log's branch stands)."""
    entries = list(_whole_game())
    n = next(i for i, e in enumerate(entries) if log.open_envelope(e).payload["t"] == "bid")
    bid = log.open_envelope(entries[n]).payload
    intruder = (bid["s"] + 1) % 4
    fields = {**bid, "s": intruder, "b": 3}
    signer = crypto.Identity.from_seed(hashlib.sha256(SEED + bytes([intruder])).digest())
    return write_log(path, [*entries[:n], log.seal(fields, signer)])


def signed_bid(path: Path, tricks: object) -> Path:
    """The whole game's log up to its first bid, which its seat signs as `tricks` (a negative number, a
    string: what the rules engine itself refuses, the detail of the failed check it words)."""
    entries = list(_whole_game())
    n = next(i for i, e in enumerate(entries) if log.open_envelope(e).payload["t"] == "bid")
    bid = log.open_envelope(entries[n]).payload
    signer = crypto.Identity.from_seed(hashlib.sha256(SEED + bytes([bid["s"]])).digest())
    return write_log(path, [*entries[:n], log.seal({**bid, "b": tricks}, signer)])


def abandoned(path: Path, gone: int = 1) -> Path:
    """Seat `gone` never sends its first reveal; past the timeout the others certify that it stopped."""
    wire = Wire(new_tables(RULES, seed=SEED, names=HOSTILE), [RandomBot(i) for i in range(4)])
    claims.abandoned_at_a_reveal(wire, gone)
    assert wire.tables[0].status is TableStatus.ABANDONED
    return write_log(path, wire.tables[0].entries)


def three_logs(root: Path) -> dict[str, Path]:
    """A valid whole game, a forged card and an abandoned game, written in `root` (the pages' fixtures)."""
    return {"valid": whole_game(root / "valid.p2plog"),
            "violation": forged_card(root / "violation.p2plog"),
            "abandoned": abandoned(root / "abandoned.p2plog")}
