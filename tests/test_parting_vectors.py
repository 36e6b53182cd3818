"""protocol/vectors/partings.json: the players' own word (PROTOCOL.md §5.10, §5.11) on the known-answer
game, made again from the text of the protocol (each note a canonical map signed by its seat's key, each
ending entry its notes in seat order under 64 zero bytes of signature) and from the table, and the file up to
date."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from p2pspades import crypto, log
from p2pspades.table import Table

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
DOC: dict[str, Any] = json.loads((VECTORS / "partings.json").read_text(encoding="utf-8"))
SEED = b"p2pspades known-answer game v1"
GAME = log.read_log(VECTORS / "game.p2plog").frames


def key(seat: int) -> crypto.Identity:
    return crypto.Identity.from_seed(hashlib.sha256(SEED + bytes([seat])).digest())


def slot_header(n: int, seat: int) -> dict[str, Any]:
    """§5.2: a note carries the header of its slot: `n`, `p` the hash of entry n-1, `h` the hand number the
    awaited entry carries, `s` its signer."""
    genesis = log.open_envelope(GAME[0]).payload
    return {"g": genesis["g"], "n": n, "p": hashlib.sha256(GAME[n - 1]).digest(), "s": seat,
            "h": log.open_envelope(GAME[n]).payload["h"]}


def awaited(n: int) -> int:
    """The seat the slot awaits: the signer of the known game's entry there."""
    return int(log.open_envelope(GAME[n]).payload["s"])


def ending(kind: str, n: int, notes: list[bytes]) -> bytes:
    """§5.10: an ending entry is nobody's: the slot's header (`s` the seat awaited), `v` its notes in seat
    order, and a signature of 64 zero bytes."""
    payload = {**slot_header(n, awaited(n)), "t": kind, "v": notes}
    return log.seal(payload, log.UNSIGNED)


def test_the_file_is_what_its_generator_writes() -> None:
    done = subprocess.run([sys.executable, str(VECTORS / "make_parting_vectors.py"), "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_a_stop_by_agreement_from_the_text() -> None:
    stop = DOC["stop"]
    n, totals = stop["slot"], stop["totals"]
    notes = [log.seal({**slot_header(n, s), "t": "stop", "z": totals}, key(s)) for s in range(4)]
    assert [raw.hex() for raw in notes] == stop["notes"]
    assert log.seal({**slot_header(n, 3), "t": "go"}, key(3)).hex() == stop["decline"]
    entry = ending("stopped", n, notes)
    assert entry.hex() == stop["stopped"]
    assert hashlib.sha256(entry).hexdigest() == stop["stopped_hash"]


def test_goodbyes_from_the_text() -> None:
    one, two, late = DOC["goodbye"], DOC["two_goodbyes"], DOC["goodbye_at_the_end"]
    n = one["slot"]
    first = log.seal({**slot_header(n, 1), "t": "leave"}, key(1))
    assert first.hex() == one["note"]
    assert ending("left", n, [first]).hex() == one["left"]
    other = log.seal({**slot_header(n, 0), "t": "leave"}, key(0))
    assert other.hex() == two["note"]
    assert ending("left", n, [other, first]).hex() == two["left"], "the goodbyes in seat order"
    seat = awaited(late["slot"])
    assert log.seal({**slot_header(late["slot"], seat), "t": "leave"}, key(seat)).hex() == late["note"]


@pytest.mark.parametrize("case", ["stop", "goodbye", "two_goodbyes", "goodbye_at_the_end"])
def test_a_table_given_the_notes_ends_with_that_entry_and_result(case: str) -> None:
    vector = DOC[case]
    n = vector["slot"]
    notes = vector["notes"] if case == "stop" else [DOC["goodbye"]["note"], vector["note"]] \
        if case == "two_goodbyes" else [vector["note"]]
    table = Table(GAME[0], entries=GAME[1:n], checked=True)  # the chain up to the slot the notes name
    for raw in reversed(notes):
        table.receive(bytes.fromhex(raw))
    expected = vector["stopped" if case == "stop" else "left"]
    assert table.entries[n].hex() == expected and len(table.entries) == n + 1
    result = table.result
    assert result is not None
    want = vector["result"]
    assert (str(result.status), list(result.winners), result.forfeit, list(result.leavers)) == (
        want["status"], want["winners"], want["forfeit"], want["leavers"])
    assert list(table.view.totals()) == want["totals"]


def test_on_the_whole_game_the_same_notes_change_nothing() -> None:
    """Given after the game's end, the goodbye of a seat that signed entries after its slot is void and the
    stops are void (the awaited entry is on the chain): the game stays complete."""
    table = Table(GAME[0], entries=GAME[1:], checked=True)
    for raw in (DOC["goodbye"]["note"], *DOC["stop"]["notes"]):
        table.receive(bytes.fromhex(raw))
    assert str(table.status) == "complete" and table.entries == GAME
