"""The small things a person notices: grammar, the title, bidding order, the events after `resume`, display
widths, the ASCII screen, the size a too-small window needs, and `verify` on a file that is not a log."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2pspades import crypto, log
from p2pspades.audit import hand_record, verify_frames
from p2pspades.bots import RandomBot
from p2pspades.printable import width
from p2pspades.rules import preset
from p2pspades.table import DecisionKind, Table
from p2pspades.table.harness import Wire, new_game, seeded_entropy
from p2pspades.ui.app import create_app
from p2pspades.ui.capture import screen_text
from p2pspades.ui.panels import seats_text, title_text, trick_caption, trick_text
from p2pspades.ui.prefs import PREFS, to_ascii
from p2pspades.ui.screens import dialog_text
from p2pspades.ui.state import UiState
from p2pspades.ui.testing import until
from p2pspades.ui.text import bid_text, bidding_order

pytestmark = pytest.mark.timeout(120)

QUICK = preset("classic", target=100, losing_threshold=-100)
NAMES = ["王小明", "West", "👩‍🚀 Nova", "East"]


def text_of(fragments: StyleAndTextTuples) -> str:
    return "".join(f[1] for f in fragments)


def seated(
    names: list[str], table_name: str = "Kitchen", seed: bytes = b"frictions", ours: int = 0
) -> Wire:
    """A game where our seat decides nothing by itself: the test steps it (see `advance`)."""
    n = QUICK.players
    ids = [crypto.Identity.from_seed(crypto.H("frictions", seed, bytes([i]))[:32]) for i in range(n)]
    rules = preset("classic", target=1000)
    genesis = new_game(rules, ids, names, crypto.H("frictions", seed)[:16], table_name)
    tables = [Table(genesis, ids[i], entropy=seeded_entropy(seed + bytes([i]))) for i in range(n)]
    wire = Wire(tables, [None if i == ours else RandomBot(i) for i in range(n)])
    wire.start()
    return wire


def advance(wire: Wire, done: Callable[[], bool], ours: int = 0, limit: int = 500_000) -> None:
    """Run the table (our seat played by a random bot) until `done()`."""
    bot = RandomBot(99)
    for _ in range(limit):
        if done():
            return
        if not wire.step():
            decision = wire.tables[ours].pending_decision()
            assert decision is not None, "the game stopped"
            wire.decide(ours, bot(decision))
    pytest.fail("the condition never held")


@pytest.fixture
def ascii_screen() -> Iterator[None]:
    before = PREFS.ascii
    PREFS.ascii = True
    try:
        yield
    finally:
        PREFS.ascii = before


@pytest.mark.slow
def test_the_events_pane_tells_the_earlier_hands_after_a_resume() -> None:
    wire = seated(["Ann", "Bob", "Cat", "Dan"])
    table = wire.tables[0]

    def second_hand_under_way() -> bool:
        game = table.game
        return game is not None and len(game.history) == 1 and len(game.view(0).tricks) >= 2

    advance(wire, second_hand_under_way)
    state = UiState(0, table.setup)  # a screen that starts now, as after `p2pspades resume`
    state.refresh(table)
    lines = [e.text for e in state.events]
    first = table.game.history[0] if table.game is not None else None
    assert first is not None
    dealer = "You deal" if first.dealer == 0 else f"{state.names[first.dealer]} deals"
    assert lines[0] == f"hand 1: {dealer}"
    bids = [line for line in lines[1:5]]
    order = bidding_order(table.rules, first.dealer)
    said = ["You" if s == 0 else state.names[s] for s in order]  # our own seat is "you" on our screen
    assert [b.split(" bid ")[0] for b in bids] == said, "bids in bidding order"
    tricks_1 = [line for line in lines if line.startswith("trick ")][: table.rules.tricks_per_hand]
    assert tricks_1 == [f"trick {k + 1} to {'you' if t.winner == 0 else state.names[t.winner or 0]}"
                        for k, t in enumerate(first.tricks)]
    assert any(line.startswith("hand 1 scored: ") for line in lines)
    assert any(line.startswith("hand 2: ") for line in lines)
    view = state.view
    assert view is not None
    assert sum(line.startswith("trick ") for line in lines) == table.rules.tricks_per_hand + len(view.tricks)
    assert state.top_overlay is None, "no summary pops up for hands told from the record"
    assert state.audit_text(1)[0].startswith("audit passed"), "a recorded hand was audited"
    assert "hand 1: audit passed" in " ".join(lines)


@pytest.mark.slow
async def test_bids_so_far_are_in_bidding_order() -> None:
    names = ["Ann", "Bob", "Cat", "Dan"]
    wire = seated(names, ours=2)
    table = wire.tables[2]

    def our_bid_after_the_deal_wrapped() -> bool:  # dealer 2: seats 3, 0 and 1 bid before us, in that order
        decision = table.pending_decision()
        return decision is not None and decision.kind is DecisionKind.BID and decision.view.dealer == 2

    advance(wire, our_bid_after_the_deal_wrapped, ours=2)
    decision = table.pending_decision()
    assert decision is not None

    state = UiState(2, table.setup)
    state.refresh(table)
    state.publish(decision)
    dialog, title = text_of(dialog_text(state)), text_of(title_text(state))
    view = decision.view
    rules = table.rules
    expected = [f"{names[s]} {bid_text(view.bids[s], view.blind[s], rules)}" for s in (3, 0, 1)]
    assert "Bids so far: " + ", ".join(expected) in dialog, dialog
    assert "Kitchen" in title and title.count("p2pspades") == 1


@pytest.mark.slow
async def test_you_lead_and_you_deal() -> None:
    wire = seated(["Ann", "Bob", "Cat", "Dan"], table_name="p2pspades")
    table = wire.tables[0]

    def we_lead() -> bool:
        decision = table.pending_decision()
        if decision is None or decision.kind is not DecisionKind.PLAY:
            return False
        return not decision.view.tricks and not decision.view.trick.plays  # the first lead of a hand

    advance(wire, we_lead)
    decision = table.pending_decision()
    assert decision is not None

    state = UiState(0, table.setup)
    state.refresh(table)
    state.publish(decision)
    caption, title = text_of(trick_caption(state)), text_of(title_text(state))
    lines = [e.text for e in state.events]
    assert caption == "You lead"
    assert not any("You deals" in line or "You leads" in line for line in lines)
    assert "p2pspades · p2pspades" not in title and title.startswith(" p2pspades · classic")


def test_wide_names_line_up_in_the_seats_panel() -> None:
    wire = seated(NAMES)
    state = UiState(0, wire.tables[0].setup)
    rows = text_of(seats_text(state)).split("\n")[1:5]  # the seats (the side's contract lines follow)
    starts = {width(row[: row.index(" -")]) for row in rows}  # the column of the bid, in terminal columns
    assert len(starts) == 1, rows


@pytest.mark.slow
def test_the_ascii_screen_has_suit_letters_and_plain_boxes(ascii_screen: None) -> None:
    wire = seated(["Ann", "Bob", "Cat", "Dan"])
    table = wire.tables[0]
    advance(wire, lambda: table.pending_decision() is not None and table.game is not None)
    state = UiState(0, table.setup)
    state.refresh(table)
    with create_pipe_input() as pipe:
        screen = screen_text(create_app(state, input=pipe, output=DummyOutput()), 80, 24)
    assert screen.isascii(), sorted({ch for ch in screen if not ch.isascii()})
    hand = state.hand_cards()
    assert hand and all(to_ascii(card.glyph) in screen for card in hand)
    assert "+-" in screen and "|" in screen
    assert to_ascii("10♠ Q♥ ▶ ─│┌") == "10S QH > -|+"


def test_a_window_too_small_says_the_size_it_needs() -> None:
    wire = seated(["Ann", "Bob", "Cat", "Dan"])
    state = UiState(0, wire.tables[0].setup)
    with create_pipe_input() as pipe:
        screen = screen_text(create_app(state, input=pipe, output=DummyOutput()), 60, 16)
    assert "Window too small: make the terminal at least 80x24" in screen


@pytest.mark.slow
def test_verify_says_an_export_is_not_a_log(tmp_path: Path) -> None:
    wire = seated(["Ann", "Bob", "Cat", "Dan"])
    advance(wire, lambda: len(wire.tables[0].entries) > 30)
    exported = tmp_path / "game.json"
    exported.write_text(json.dumps(hand_record(verify_frames(list(wire.tables[0].entries))), indent=2))
    junk = tmp_path / "notes.txt"
    junk.write_text("hello\n")
    logged = tmp_path / "game.p2plog"
    with log.LogWriter(logged) as writer:
        for raw in wire.tables[0].entries:
            writer.append(raw)

    def verify(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "p2pspades", "verify", str(path)],
            capture_output=True, text=True, timeout=120, check=False,
        )

    as_export = verify(exported)
    assert as_export.returncode == 2
    assert "is a hand record written by 'p2pspades export', not a game log" in as_export.stdout
    as_junk = verify(junk)
    assert as_junk.returncode == 2 and "is not a p2pspades log" in as_junk.stdout
    assert "P2PSLOG1" not in as_junk.stdout + as_junk.stderr and "b'" not in as_junk.stdout
    assert verify(logged).returncode == 3


def test_bot_names_are_the_compass_points_where_the_screen_puts_them() -> None:
    from p2pspades.table.harness import SEAT_NAMES
    from p2pspades.ui.local import LocalGame
    from p2pspades.ui.panels import trick_text

    game = LocalGame(QUICK, seed=b"compass", bots=[RandomBot(i) for i in range(1, 4)])
    state = game.state
    assert state.names[1:] == SEAT_NAMES[1:4] == ("West", "North", "East")
    lines = text_of(trick_text(state)).split("\n")
    assert lines[0].strip() == "North"
    assert lines[2].startswith("West") and lines[2].endswith("East")
    assert lines[4].strip() == "You"


def test_one_card_notation_and_both_accepted() -> None:
    from p2pspades.rules import FULL_DECK, Card
    from p2pspades.ui.cardinput import card_of, codes_help, typed_code

    assert all(card_of(typed_code(card)) is card for card in FULL_DECK)
    assert typed_code(Card.parse("TS")) == "10s" and typed_code(Card.parse("QH")) == "qh"
    assert card_of("ts") is card_of("10s") is card_of("TS") is Card.parse("TS")
    assert card_of("zz") is None and card_of("q") is None
    assert "qh" in codes_help() and "10s" in codes_help() and "'TS'" not in codes_help()


def test_a_bot_that_is_choosing_shows_as_thinking() -> None:
    wire = seated(["Ann", "Bob", "Cat", "Dan"])
    state = UiState(0, wire.tables[0].setup)
    changes: list[int] = []
    state.on_change = lambda: changes.append(1)
    state.waiting = (1, "bid")
    state.set_thinking(1, True)
    rows = text_of(seats_text(state)).split("\n")
    assert "thinking…" in rows[2] and "thinking" not in rows[3]
    assert state.status_text() == "Waiting for Bob to bid (thinking…)"
    state.set_thinking(1, False)
    assert "thinking" not in text_of(seats_text(state)) and "thinking" not in state.status_text()
    assert len(changes) == 2, "each change redraws the screen once"


@pytest.mark.parametrize(
    ("env", "ascii_only"),
    [
        ({"LANG": "en_US.UTF-8"}, False),
        ({"LC_ALL": "C", "LANG": "en_US.UTF-8"}, True),
        ({"LC_CTYPE": "de_DE.ISO-8859-1"}, True),
        ({"LANG": "C.utf8"}, False),
        ({"LANG": "C", "P2PSPADES_ASCII": "0"}, False),
        ({"LANG": "en_GB.UTF-8", "P2PSPADES_ASCII": "1"}, True),
    ],
)
def test_the_character_set_follows_the_locale_unless_forced(
    env: dict[str, str], ascii_only: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from p2pspades.ui.prefs import ascii_wanted

    for var in ("LC_ALL", "LC_CTYPE", "LANG", "P2PSPADES_ASCII"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert ascii_wanted() is ascii_only


def test_screen_options_are_checked() -> None:
    import argparse

    from p2pspades.ui.prefs import add_screen_options, apply_screen_options

    parser = argparse.ArgumentParser()
    add_screen_options(parser)
    before = (PREFS.trick_pause, PREFS.ascii)
    try:
        apply_screen_options(parser.parse_args(["--trick-pause", "2.5"]))
        assert PREFS.trick_pause == 2.5
        with pytest.raises(ValueError, match="--trick-pause must be between 0 and 60 seconds"):
            apply_screen_options(parser.parse_args(["--trick-pause", "-1"]))
    finally:
        PREFS.trick_pause, PREFS.ascii = before


async def test_the_local_game_shows_a_bot_thinking() -> None:
    import asyncio

    from p2pspades.ui.local import LocalGame

    game = LocalGame(QUICK, seed=b"thinking", bots=[RandomBot(i) for i in range(1, 4)], bot_delay=0.3)
    state = game.state
    with create_pipe_input() as keys:
        app = create_app(state, input=keys, output=DummyOutput())
        running = asyncio.ensure_future(game.run(app))
        try:
            await until(lambda: bool(state.thinking), what="a bot to think")
            seat = next(iter(state.thinking))
            row = text_of(seats_text(state)).split("\n")[1 + seat]
            keys.send_text("\x11y")
            await asyncio.wait_for(running, 10)
        finally:
            running.cancel()
    assert "thinking…" in row
    assert not state.thinking, "nobody thinks once the game has stopped"


async def test_a_bot_of_this_process_shows_as_thinking_while_it_chooses() -> None:
    import asyncio

    from p2pspades.rules import Action
    from p2pspades.table import Decision
    from p2pspades.ui.players import ThinkingShown

    wire = seated(["Ann", "Bob", "Cat", "Dan"])
    table = wire.tables[0]
    advance(wire, lambda: table.pending_decision() is not None)
    decision = table.pending_decision()
    assert decision is not None
    state = UiState(0, table.setup)
    seen: list[bool] = []

    def at_once(d: Decision) -> Action:
        seen.append(0 in state.thinking)
        return d.legal[0]

    async def slowly(d: Decision) -> Action:
        await asyncio.sleep(0.01)
        seen.append(0 in state.thinking)
        return d.legal[-1]

    assert await ThinkingShown(state, 0, at_once)(decision) == decision.legal[0]
    assert await ThinkingShown(state, 0, slowly)(decision) == decision.legal[-1]
    assert seen == [True, True] and not state.thinking


def test_long_names_are_never_cut_to_the_same_text_on_the_table() -> None:
    """A host's bots are "ana's bot" and "ana's bot 2": the trick panel, its caption and the footer tell
    them apart, also on the screen of seat 1 (where they sit left and right)."""
    wire = seated(["ana", "bo", "ana's bot", "ana's bot 2"], ours=1)
    table = wire.tables[1]
    state = UiState(1, table.setup)

    def both_bots_in_the_caption() -> bool:
        state.refresh(table)
        v = state.view
        return v is not None and len(v.trick.plays) >= 2 and {v.trick.leader, v.trick.winner} == {2, 3}

    advance(wire, both_bots_in_the_caption, ours=1)
    trick = text_of(trick_text(state))
    assert "ana's bot 2" in trick and "…" not in trick, trick
    caption = text_of(trick_caption(state))
    assert caption.split("\n") in (["led by ana's bot", "ana's bot 2 winning"],
                                   ["led by ana's bot 2", "ana's bot winning"]), caption
    with create_pipe_input() as pipe:
        screen = screen_text(create_app(state, input=pipe, output=DummyOutput()), 80, 24)
    assert "bo+ana's bot 2 " in screen and "ana+ana's bot " in screen, screen
