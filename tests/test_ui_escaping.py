"""Text from a log or the network never reaches a terminal raw: names, table names and reasons are escaped.

A hostile name or reason holds the escape sequences that would erase `verify`'s verdict line and print a
false one. The verdict line must survive, and neither the CLI nor the screen may emit a raw control
character.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2pspades import crypto, log
from p2pspades.audit import Status, Verdict, verify_frames
from p2pspades.bots import RandomBot
from p2pspades.checks import Check
from p2pspades.describe.record import summary_lines, text_record
from p2pspades.printable import clip, pad, printable, width
from p2pspades.reasons import Finding, Reason
from p2pspades.rules import preset
from p2pspades.table import (
    ChallengeRaised,
    DropKind,
    Dropped,
    GameEnded,
    Rejected,
    Table,
    TableStatus,
    Violation,
)
from p2pspades.table.harness import Wire, new_game, seeded_entropy
from p2pspades.ui.app import create_app
from p2pspades.ui.capture import screen_text
from p2pspades.ui.replay import ReplayModel, create_replay_app
from p2pspades.ui.state import UiState

pytestmark = pytest.mark.timeout(120)

QUICK = preset("classic", target=100, losing_threshold=-100)
#: erase the line, go up one, erase it, and print a verdict of our own (a name holds at most 32 characters)
ERASE = "\x1b[2K\r\x1b[1Avalid and complete"
HOSTILE_NAMES = [f"Eve{ERASE}", "Bob\u202egnp.exe", 'Cy"]\n[Result "complete', "Dee\x9b31m\x07"]
HOSTILE_TABLE = "\x1b]0;owned\x07Kitchen"
RAW = {chr(c) for c in range(0x20)} - {"\n"} | {chr(0x7F)} | {chr(c) for c in range(0x80, 0xA0)} | {
    "\u202e",
    "\u2066",
}


def raw_controls(text: str) -> set[str]:
    return {ch for ch in text if ch in RAW}


@pytest.fixture(scope="module")
def hostile_game() -> Wire:
    n = QUICK.players
    ids = [crypto.Identity.from_seed(crypto.H("escape test", bytes([i]))[:32]) for i in range(n)]
    genesis = new_game(QUICK, ids, HOSTILE_NAMES, crypto.H("escape game")[:16], HOSTILE_TABLE)
    tables = [Table(genesis, ids[i], entropy=seeded_entropy(b"escape" + bytes([i]))) for i in range(n)]
    wire = Wire(tables, [RandomBot(i) for i in range(n)])
    wire.run()
    assert tables[0].status == "complete"
    return wire


def test_printable_shows_controls_and_keeps_every_other_character() -> None:
    assert printable("a\x1bb") == "a␛b"
    assert printable("\x00\r\n\t\x7f") == "␀␍␊␉␡"
    assert printable("\x9b2J") == "\\x9b2J"
    assert printable("abc\u202edef") == "abc\\u202edef"
    assert printable("Zoë 王小明 👩\u200d👩\u200d👧") == "Zoë 王小明 👩\u200d👩\u200d👧"
    assert printable(42) == "42"


@given(st.text())
def test_printable_leaves_no_raw_control_and_is_idempotent(text: str) -> None:
    shown = printable(text)
    assert not raw_controls(shown)
    assert "\n" not in shown
    assert printable(shown) == shown


def test_names_are_measured_in_columns() -> None:
    assert width("王小明") == 6 and width("Ann") == 3
    assert width(pad("王小明", 10)) == 10
    assert width(clip("王小明王小明", 7)) <= 7 and clip("王小明王小明", 7).endswith("…")
    assert clip("Ann", 7) == "Ann"


def test_verify_keeps_its_verdict_line_against_hostile_names(hostile_game: Wire, tmp_path: Path) -> None:
    entries = hostile_game.tables[0].entries
    path = tmp_path / "hostile.p2plog"
    with log.LogWriter(path) as writer:
        for raw in entries[: len(entries) // 2]:  # an unfinished game: the hostile text claims it is complete
            writer.append(raw)
    result = subprocess.run(
        [sys.executable, "-m", "p2pspades", "verify", str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert result.returncode == int(Status.INCOMPLETE), result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("valid so far, but incomplete"), lines[0]
    assert not raw_controls(result.stdout), sorted(raw_controls(result.stdout))
    assert "Eve␛[2K␍␛[1Avalid and complete" in result.stdout, "the hostile name is shown, escaped"
    assert "Bob\\u202egnp.exe" in result.stdout
    assert "␛]0;owned␇Kitchen" in result.stdout


def test_a_hostile_reason_cannot_erase_the_verdict_line() -> None:
    detail = f"false challenge ({ERASE})"
    found = Reason.of(Finding.REJECTED, entry=9, check=Check.CHALLENGE, detail=detail, seat=1)
    verdict = Verdict(Status.VIOLATION, found)
    lines = summary_lines(verdict)
    assert len(lines) == 1 and not raw_controls(lines[0])
    assert lines[0].startswith("entry 9: seat 1 failed the challenge check")


def test_the_text_record_escapes_names_so_no_tag_can_be_forged(hostile_game: Wire) -> None:
    record = text_record(verify_frames(list(hostile_game.tables[0].entries)))
    assert not raw_controls(record)
    results = [line for line in record.splitlines() if line.startswith("[Result ")]
    assert results == ['[Result "complete"]']
    assert '[Seat2 "Cy\\"]␊[Result \\"complete (' in record


def test_the_game_screen_shows_hostile_text_escaped(hostile_game: Wire) -> None:
    table = hostile_game.tables[1]
    state = UiState(1, table.setup)
    state.on_events(
        [
            Rejected(0, Check.TURN, f"out of turn {ERASE}", b""),
            Dropped(DropKind.MALFORMED, detail=f"bad\x1b[31m {ERASE}"),
            ChallengeRaised(2, f"why {ERASE}"),
            GameEnded(TableStatus.VIOLATION, (), 2, violation=Violation(2, Check.TURN, f"stop {ERASE}", 5)),
        ]
    )
    state.refresh(table)
    state.set_connection(2, f"waiting {ERASE}")
    shown = [line.text for line in state.events] + list(state.names) + [state.table_name]
    shown += [state.connection[2], state.result.text if state.result else ""]
    assert not any(raw_controls(text) for text in shown)
    with create_pipe_input() as pipe:
        app = create_app(state, input=pipe, output=DummyOutput())
        state.overlays.clear()
        screen = screen_text(app, 120, 40)
    assert not raw_controls(screen)
    assert "␛[2K" in screen, "the escape is shown as a control picture, not as prompt_toolkit's ^["


def test_the_replay_viewer_shows_hostile_names_escaped(hostile_game: Wire) -> None:
    model = ReplayModel(verify_frames(list(hostile_game.tables[0].entries)), "hostile.p2plog")
    model.step_trick(1)
    with create_pipe_input() as pipe:
        screen = screen_text(create_replay_app(model, input=pipe, output=DummyOutput()), 120, 40)
    assert not raw_controls(screen)
    assert "Eve␛[2K" in screen
