"""The nil card pass in the records of a finished game: the JSON and text hand records, the HTML page and the
terminal replay say who passed which cards to whom, and that only the two partners saw them during the hand.

The known-answer pass game (protocol/vectors/game_pass.p2plog) is the source; each pass is checked against
what the log proves independently: the cards as play started, the bids, and the sides."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pspades.audit import Status, hand_record, verify_file
from p2pspades.audit.verdict import Verdict
from p2pspades.describe.page import game_page
from p2pspades.describe.record import text_record
from p2pspades.rules import is_nil
from p2pspades.ui.replay import ReplayModel, trick_text

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"


@pytest.fixture(scope="module")
def verdict() -> Verdict:
    found = verify_file(VECTORS / "game_pass.p2plog")
    assert found.status is Status.VALID, found.summary
    return found


def test_each_pass_goes_between_partners_of_a_nil_bid_and_its_cards_change_hands(verdict: Verdict) -> None:
    assert verdict.table is not None
    rules = verdict.table.rules
    record = hand_record(verdict)
    assert record["hands"], "the vector plays at least one hand"
    for h, result in zip(record["hands"], verdict.hands, strict=True):
        passes = h["passes"]
        nils = [s for s in range(rules.players) if is_nil(rules, result.bids[s], result.blind[s])]
        nil_sides = {rules.side_of(s) for s in nils}
        # a pass each way in every side with a nil bid, and nowhere else
        assert sorted(rules.side_of(p["seat"]) for p in passes) == sorted(2 * list(nil_sides))
        for p in passes:
            seat, to = p["seat"], p["to"]
            assert rules.side_of(seat) == rules.side_of(to) and seat != to
            assert p["seen_by"] == sorted((seat, to))
            assert len(p["cards"]) == rules.nil_pass == len(set(p["cards"]))
            # the record's hands are as play started: the passed cards are the receiver's now, not the
            # passer's (a card received may not be passed back)
            assert set(p["cards"]) <= set(h["dealt"][str(to)])
            assert not set(p["cards"]) & set(h["dealt"][str(seat)])
        given = [c for p in passes for c in p["cards"]]
        assert len(given) == len(set(given)), "no card is passed twice in a hand"


def test_a_game_without_the_rule_has_no_passes_in_its_record() -> None:
    record = hand_record(verify_file(VECTORS / "game.p2plog"))
    assert record["hands"] and all("passes" not in h for h in record["hands"])


def test_the_text_record_and_the_page_name_every_pass(verdict: Verdict) -> None:
    assert verdict.table is not None
    names = [s.name for s in verdict.table.setup.seats]
    text = text_record(verdict)
    page = game_page(verdict)
    shown = [p for h in hand_record(verdict)["hands"] for p in h["passes"]]
    assert text.count('[Pass "') == len(shown) > 0
    assert "only the two partners saw the cards" in text
    for p in shown:
        assert f'[Pass "{names[p["seat"]]} to {names[p["to"]]}: ' in text
        assert f"<li>{names[p['seat']]} to {names[p['to']]}: " in page
    assert page.count('<div class="passes">') == sum(1 for h in hand_record(verdict)["hands"] if h["passes"])


def test_the_replay_shows_the_passes_before_the_first_card(verdict: Verdict) -> None:
    model = ReplayModel(verdict, "game_pass.p2plog")
    said = "".join(part[1] for part in trick_text(model))
    first = verdict.passes[verdict.hands[0].number]
    assert "Passed face down: " in said
    for p in first:
        assert " ".join(c.glyph for c in p.cards) in said
    model.step_card(1)  # once a card is on the table the line gives way to the trick
    assert "Passed face down" not in "".join(part[1] for part in trick_text(model))
