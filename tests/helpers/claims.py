"""One abandonment claim delivered by hand: a game stopped at a seat's turn, its answer and the others' votes
made but not sent, and each frame given to the seats a test chooses, in the order it chooses."""

from __future__ import annotations

from p2pspades import crypto, log
from p2pspades.bots import RandomBot
from p2pspades.rules import preset
from p2pspades.table import Table
from p2pspades.table.harness import Wire, new_game, seeded_entropy

RULES = preset("classic", target=10, losing_threshold=-10)


def classic(seed: bytes, cheaters: dict[int, type[Table]] | None = None) -> Wire:
    rules = RULES
    ids = [crypto.Identity.from_seed(crypto.H("endings", seed, bytes([i]))[:32]) for i in range(4)]
    genesis = new_game(rules, ids, game_id=crypto.H("game", seed)[:16], version=1)
    kinds = [(cheaters or {}).get(i, Table) for i in range(4)]
    entropy = [seeded_entropy(seed + bytes([i])) for i in range(4)]
    tables = [kind(genesis, ids[i], entropy=entropy[i]) for i, kind in enumerate(kinds)]
    return Wire(tables, [RandomBot(i) for i in range(4)])


def until_waiting_for(wire: Wire, seat: int, what: str) -> None:
    wire.start()
    while any(t.waiting_for() != (seat, what) for t in wire.tables):
        assert wire.step(), "the game ended before that turn"


def answer(wire: Wire, seat: int) -> bytes:
    """Seat `seat` makes its decision; the signed entry, not sent to anyone yet."""
    table = wire.tables[seat]
    decision = table.pending_decision()
    player = wire.players[seat]
    assert decision is not None and player is not None
    table.decide(player(decision))
    (out,) = table.take_outgoing()
    return out.raw


def vote(wire: Wire, seat: int) -> bytes:
    """Seat `seat`'s timer runs out: its vote, not sent to anyone yet."""
    table = wire.tables[seat]
    table.tick(wire.now + 10_000)
    (out,) = table.take_outgoing()
    assert log.open_envelope(out.raw).payload["t"] == "abandon"
    return out.raw


def give(wire: Wire, seat: int, *raws: bytes) -> list[bytes]:
    """Deliver `raws` to seat `seat` only, in order; what it sends in return (its refusal, say)."""
    table = wire.tables[seat]
    for raw in raws:
        table.receive(raw, wire.now)
    return [out.raw for out in table.take_outgoing()]


def abandoned_at_a_reveal(wire: Wire, gone: int) -> Table:
    """Seat `gone` never sends its first reveal; past the timeout the others certify that it stopped. Seat
    0's table, its game over."""

    def withhold(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        if sender == gone and log.open_envelope(raw).payload["t"] == "reveal":
            return []
        return [(d, raw) for d in range(len(wire.tables)) if d != sender]

    wire.tamper = withhold
    wire.run()
    for seconds in (30, 61):  # past the reveal's timeout: one seat claims, the others co-sign
        wire.advance_time(seconds)
        wire.run()
    return wire.tables[0]
