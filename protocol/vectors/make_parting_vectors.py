"""Write protocol/vectors/partings.json: known answers for the players' own word (PROTOCOL.md §5.10, §5.11),
on the known-answer game of `game.p2plog` (its seats' keys come from its seed, `game.json` says how).

- a stop by agreement at the slot of the first lead (the bids made): each seat's `stop`, one seat's `go`, and
  the `stopped` entry their stops make, with the result (nobody wins, the scores stand);
- a goodbye of seat 1 in the middle of the hand, while seat 2's card is awaited: its `leave`, the `left`
  entry, and the result (seat 1's side forfeits);
- a goodbye of seat 0 for that slot too: the `left` entry of both leavers (a leaver on each side: nobody
  wins);
- a goodbye of the last seat to sign `end`, at the slot of its `end`: the game was decided, its result
  stands.

Every input is fixed and Ed25519 signatures are deterministic, so running this twice writes the same bytes.
`--check` compares instead of writing and exits 1 if the file is stale.

    python protocol/vectors/make_parting_vectors.py [--check]
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from vectorfile import write_or_check

from p2pspades import crypto, log
from p2pspades.table import Table

HERE = Path(__file__).resolve().parent
OUT = HERE / "partings.json"
SEED = b"p2pspades known-answer game v1"
"""The seed of `game.p2plog`: seat `s`'s key is Identity.from_seed(sha256(SEED + bytes([s])))."""


def identity(seat: int) -> crypto.Identity:
    return crypto.Identity.from_seed(hashlib.sha256(SEED + bytes([seat])).digest())


def game() -> list[bytes]:
    return log.read_log(HERE / "game.p2plog").frames


def header(entries: list[bytes], n: int, seat: int) -> dict[str, Any]:
    """The header of a note of `seat` about slot `n` of the chain `entries`: that slot's hand number is the
    one its entry carries (the next entry's, for the slot of an entry the chain holds)."""
    hand = log.validate_header(log.open_envelope(entries[n]).payload).hand
    return {"g": log.open_envelope(entries[0]).payload["g"], "n": n, "p": log.entry_hash(entries[n - 1]),
            "s": seat, "h": hand}


def ended(entries: list[bytes], n: int, notes: list[bytes]) -> tuple[Table, bytes]:
    """An observer of the chain's first `n` entries given `notes`: its table, and the entry it ends with."""
    table = Table(entries[0], entries=entries[1:n], checked=True)
    for raw in notes:
        table.receive(raw)
    assert table.finished and len(table.entries) == n + 1, table.status
    return table, table.entries[n]


def result(table: Table) -> dict[str, Any]:
    r = table.result
    assert r is not None
    return {"status": str(r.status), "winners": list(r.winners), "forfeit": r.forfeit,
            "leavers": list(r.leavers), "totals": list(table.view.totals())}


def build() -> dict[str, Any]:
    entries = game()
    payloads = [log.open_envelope(raw).payload for raw in entries]
    second = next(n for n, p in enumerate(payloads) if p["t"] == "play")  # the first lead: the bids made
    plays = [n for n, p in enumerate(payloads) if p["t"] == "play" and p["s"] == 2]
    middle = plays[2]  # seat 2's third card is awaited there
    last = max(n for n, p in enumerate(payloads) if p["t"] == "end")  # the last `end`: the game decided
    observer = Table(entries[0], entries=entries[1:second], checked=True)
    totals = list(observer.view.totals())
    stops = [log.seal({**header(entries, second, s), "t": "stop", "z": totals}, identity(s))
             for s in range(4)]
    decline = log.seal({**header(entries, second, 3), "t": "go"}, identity(3))
    stopped, stop_entry = ended(entries, second, stops)
    goodbye = log.seal({**header(entries, middle, 1), "t": "leave"}, identity(1))
    left, left_entry = ended(entries, middle, [goodbye])
    second_goodbye = log.seal({**header(entries, middle, 0), "t": "leave"}, identity(0))
    both, both_entry = ended(entries, middle, [goodbye, second_goodbye])
    late = payloads[last]["s"]
    at_end = log.seal({**header(entries, last, late), "t": "leave"}, identity(late))
    decided, end_entry = ended(entries, last, [at_end])
    return {
        "format": "p2pspades-parting-vectors/1",
        "game": "game.p2plog (its seats' keys: Identity.from_seed(sha256(SEED + bytes([seat]))), SEED = "
                "b'p2pspades known-answer game v1')",
        "stop": {
            "slot": second,
            "why": "the slot of the first lead: every bid made, no hand scored yet",
            "totals": totals,
            "notes": [raw.hex() for raw in stops],
            "decline": decline.hex(),
            "stopped": stop_entry.hex(),
            "stopped_hash": log.entry_hash(stop_entry).hex(),
            "result": result(stopped),
        },
        "goodbye": {
            "slot": middle,
            "why": "seat 2's third card is awaited; seat 1 leaves",
            "note": goodbye.hex(),
            "left": left_entry.hex(),
            "left_hash": log.entry_hash(left_entry).hex(),
            "result": result(left),
        },
        "two_goodbyes": {
            "slot": middle,
            "why": "seat 0 leaves at that slot too: each side has a leaver, nobody wins",
            "note": second_goodbye.hex(),
            "left": both_entry.hex(),
            "result": result(both),
        },
        "goodbye_at_the_end": {
            "slot": last,
            "why": f"seat {late}, the last to sign `end`, leaves instead: the game was decided, its result "
                   "stands",
            "note": at_end.hex(),
            "left": end_entry.hex(),
            "result": result(decided) | {"scored": bool(decided.result and decided.result.scored)},
        },
    }


if __name__ == "__main__":
    sys.exit(write_or_check(sys.argv, OUT, build, __doc__))
