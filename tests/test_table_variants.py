"""Whole games on the in-memory wiring under the card-order and bidding variants: every peer ends with the
same log, which verifies, and the verifier's engine agrees with the players'."""

from __future__ import annotations

import pytest

from p2pspades.audit import Status, verify_frames
from p2pspades.bots import HeuristicBot, RandomBot
from p2pspades.rules import RuleSet, preset
from p2pspades.table import Dropped, Rejected, Violation
from p2pspades.table.harness import Wire, play_in_memory


def quick(name: str, **overrides: object) -> RuleSet:
    return preset(name, **{"target": 100, "losing_threshold": -100, **overrides})


def played_and_verified(rules: RuleSet, seed: bytes) -> Wire:
    wire = play_in_memory(rules, [HeuristicBot(i) for i in range(rules.players)], seed=seed)
    first = wire.tables[0]
    assert first.status == "complete"
    assert all(t.entries == first.entries for t in wire.tables), "every peer holds the same chain"
    for events in wire.events:
        assert not [e for e in events if isinstance(e, Violation | Rejected | Dropped)]
    verdict = verify_frames(first.entries)
    assert verdict.status is Status.VALID, verdict.summary
    assert verdict.table is not None and verdict.table.game is not None and first.game is not None
    assert verdict.table.game.totals == first.game.totals
    return wire


@pytest.mark.slow
@pytest.mark.parametrize(("name", "jokers"), [("classic", False), ("classic", True), ("cutthroat3", False)])
def test_a_deuces_high_game_plays_to_the_end_and_verifies(name: str, jokers: bool) -> None:
    rules = quick(name, deuces_high=True, jokers=jokers)
    wire = played_and_verified(rules, b"deuces" + name.encode() + bytes([jokers]))
    game = wire.tables[0].game
    assert game is not None
    raised = [t for h in game.history for t in h.tricks for _, c in t.plays if c.code in ("2D", "2S")]
    assert raised  # the deuces were played, as spades
    for h in game.history:
        for trick in h.tricks:
            assert trick.order is rules.order


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mirror", "whiz", "suicide"])
def test_a_bid_mode_game_plays_to_the_end_and_verifies(name: str) -> None:
    rules = quick(name)
    wire = played_and_verified(rules, b"mode " + name.encode())
    game = wire.tables[0].game
    assert game is not None and game.history
    order = rules.order
    for h in game.history:
        assert h.violations == ()
        spades = [sum(1 for c in hand if order.is_trump(c)) for hand in h.hands]
        if name == "mirror":
            assert list(h.bids) == spades
        elif name == "whiz":
            assert all(bid in (0, count) for bid, count in zip(h.bids, spades, strict=True))
        else:
            for side in rules.sides:
                assert sorted(h.bids[seat] == 0 for seat in side) == [False, True]
                assert max(h.bids[seat] for seat in side) >= rules.min_team_bid


@pytest.mark.slow
def test_a_blind_bid_game_plays_to_the_end_and_verifies() -> None:
    """Margin 0: every seat is asked every hand, and the random bots take blind bids of every size."""
    rules = quick("classic", blind_bid=True, blind_bid_margin=0, blind_nil_margin=0)
    wire = play_in_memory(rules, [RandomBot(i) for i in range(4)], seed=b"blind bids")
    first = wire.tables[0]
    assert first.status == "complete" and first.game is not None
    assert all(t.entries == first.entries for t in wire.tables)
    blind_bids = [h.bids[s] for h in first.game.history for s in range(4) if h.blind[s] and h.bids[s]]
    assert blind_bids, "a blind bid was made"
    assert min(blind_bids) >= rules.blind_bid_min
    verdict = verify_frames(first.entries)
    assert verdict.status is Status.VALID, verdict.summary
    assert verdict.table is not None and verdict.table.game is not None
    assert verdict.table.game.totals == first.game.totals
