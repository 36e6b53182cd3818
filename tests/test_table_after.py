"""A game that follows another (the genesis `after`, PROTOCOL.md §4.1): a rematch, or a continuation from the
scores of an abandoned game, played by the in-memory tables and checked by the verifier, alone and against
the old game's log."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.logs import write_log
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades import crypto, log
from p2pspades.audit import Status, hand_record, verify_file, verify_frames
from p2pspades.audit.sequel import Change, ChangeKind, broken, changes
from p2pspades.audit.verdict import follow_problem
from p2pspades.bots import RandomBot
from p2pspades.checks import Check
from p2pspades.describe import change_text
from p2pspades.describe.record import summary_lines
from p2pspades.errors import RemoteError
from p2pspades.rules import SideTotal, preset
from p2pspades.table import CONTINUATION, REMATCH, After, SeatInfo, Table, TableStatus, read_genesis
from p2pspades.table.harness import Wire, new_game, new_tables, seeded_entropy

RULES = preset("classic", target=300, losing_threshold=-300)
HOST, GUEST = crypto.Identity.from_seed(bytes([1]) * 32), crypto.Identity.from_seed(bytes([2]) * 32)
OLD_ID = bytes(range(16, 32))
OLD_SEED = b"old game"


def genesis_with(after: Any, rules: dict[str, Any] | None = None) -> bytes:
    """A two-seat genesis signed by seat 0 whose `after` is exactly `after` (a writer other than this one)."""
    seats = [{"n": "A", "k": HOST.public}, {"n": "B", "k": GUEST.public}]
    payload = {"g": bytes(range(16)), "n": 0, "p": bytes(32), "s": 0, "h": 0, "t": "genesis", "v": 2,
               "name": "t", "rules": rules or preset("two").to_dict(), "seats": seats, "after": after}
    return log.seal(payload, HOST)


def abandoned_after_a_hand(seed: bytes, gone: int = 1) -> Table:
    """A classic game in which seat `gone` stops answering at its commitment to the second hand; the others
    certify that it stopped. Seat 0's table, its game over, one hand scored."""
    wire = Wire(new_tables(RULES, seed=seed), [RandomBot(i) for i in range(4)])

    def withhold(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        p = log.open_envelope(raw).payload
        if sender == gone and p["t"] == "commit" and p["h"] >= 2:  # hand 1 is the first
            return []
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = withhold
    wire.run()
    for seconds in (61, 61):  # past the automatic step's timeout: one seat claims, the others co-sign
        wire.advance_time(seconds)
        wire.run()
    table = wire.tables[0]
    assert table.status is TableStatus.ABANDONED and table.game is not None and len(table.game.history) == 1
    return table


def identity(seed: bytes, seat: int) -> crypto.Identity:
    """The key `new_tables(seed=seed)` gives `seat`."""
    return crypto.Identity.from_seed(hashlib.sha256(seed + bytes([seat])).digest())


def carry_on(old: Table, seed: bytes, after: After | None = None, gone: int = 1) -> Wire:
    """The game of `old` (made by `abandoned_after_a_hand(OLD_SEED)`) carried on: the same keys in every
    seat but `gone`, which a new bot takes."""
    assert old.game is not None
    after = after or After(old.game_id, CONTINUATION, old.game.totals, old.game.dealer)
    ids = [identity(seed if seat == gone else OLD_SEED, seat) for seat in range(4)]
    genesis = new_game(RULES, ids, game_id=hashlib.sha256(seed).digest()[:16], after=after)
    tables = [Table(genesis, ids[i], entropy=seeded_entropy(seed + bytes([i]))) for i in range(4)]
    wire = Wire(tables, [RandomBot(i) for i in range(4)])
    wire.run()
    return wire


# ------------------------------------------------------------------------------------------------- genesis


def test_an_after_reads_back_as_written_and_is_left_out_when_absent() -> None:
    rules = preset("two")
    carried = After(OLD_ID, CONTINUATION, (SideTotal(120, 3), SideTotal(-40, 0)), 1)
    for after in (None, After(OLD_ID, REMATCH), carried):
        tables = new_tables(rules, seed=b"after", after=after)
        genesis = tables[0].entries[0]
        payload = log.open_envelope(genesis).payload
        assert ("after" in payload) is (after is not None)
        assert read_genesis(genesis)[1].after == after


GOOD = {"g": OLD_ID, "k": CONTINUATION, "sc": [120, -40], "bg": [3, 0], "d": 1}
BAD_AFTERS = [
    (None, "field 'after' has the wrong type"),
    ([1], "field 'after' has the wrong type"),
    ({}, "kind"),
    ({"g": OLD_ID, "k": "again"}, "kind"),
    ({"g": OLD_ID[:8], "k": REMATCH}, "game id of 16 bytes"),
    ({"g": OLD_ID, "k": REMATCH, "sc": [0, 0]}, "exactly the fields g, k"),
    ({**GOOD, "x": 1}, "exactly the fields"),
    ({k: v for k, v in GOOD.items() if k != "d"}, "exactly the fields"),
    ({**GOOD, "sc": [120, True]}, "scores are a list"),
    ({**GOOD, "bg": [3]}, "as many bags as scores"),
    ({**GOOD, "sc": [120, -40, 0], "bg": [0, 0, 0]}, "3 starting totals for rules with 2 sides"),
    ({**GOOD, "bg": [10, 0]}, "bags 10"),
    ({**GOOD, "bg": [-1, 0]}, "bags -1"),
    ({**GOOD, "sc": [500, 0]}, "already over"),
    ({**GOOD, "sc": [10**9, 0]}, "within"),
    ({**GOOD, "d": 2}, "not a seat of a 2-seat table"),
    ({**GOOD, "d": -1}, "dealer is a seat number"),
    ({**GOOD, "g": bytes(range(16))}, "cannot follow itself"),
]


@pytest.mark.parametrize(("after", "words"), BAD_AFTERS)
def test_a_bad_after_is_a_refused_genesis_by_seat_0(after: Any, words: str) -> None:
    with pytest.raises(RemoteError) as caught:
        read_genesis(genesis_with(after))
    shape = isinstance(after, dict)  # a map is read; anything else fails the genesis's schema
    assert caught.value.check is (Check.GENESIS if shape else Check.SCHEMA) and caught.value.seat == 0
    assert words in caught.value.detail
    verdict = verify_frames([genesis_with(after)])
    assert verdict.status is Status.VIOLATION and verdict.violation is not None
    assert verdict.violation.check is caught.value.check and verdict.violation.seat == 0


def test_a_good_after_is_read() -> None:
    _, setup = read_genesis(genesis_with(GOOD))
    assert setup.after == After(OLD_ID, CONTINUATION, (SideTotal(120, 3), SideTotal(-40, 0)), 1)


values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.binary(max_size=20) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["g", "k", "sc", "bg", "d", "x"]), inner, max_size=6),
    max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["g", "k", "sc", "bg", "d", "x"]),
                       values | st.sampled_from([OLD_ID, REMATCH, CONTINUATION, [0, 0], [1, 2]]), max_size=6))
def test_any_after_is_read_or_refused_as_a_genesis_fault(after: dict[str, Any]) -> None:
    try:
        _, setup = read_genesis(genesis_with(after))
    except RemoteError as exc:
        assert exc.check in (Check.GENESIS, Check.SCHEMA) and exc.seat == 0
    else:
        assert setup.after is not None and setup.after.to_wire() == after


# ------------------------------------------------------------------------------------------------- games


@pytest.mark.slow
def test_a_continued_game_starts_from_the_old_scores_with_the_next_dealer(tmp_path: Path) -> None:
    old = abandoned_after_a_hand(OLD_SEED)
    assert old.game is not None
    totals, dealer = old.game.totals, old.game.dealer
    wire = carry_on(old, b"new game")
    new = wire.tables[0]
    assert new.status is TableStatus.COMPLETE and new.game is not None
    first = new.game.history[0]
    assert first.dealer == dealer == new.first_dealer
    started = zip(totals, first.scores, strict=True)
    assert [t.score for t in first.totals] == [t.score + s.points for t, s in started]
    assert all(table.entries == new.entries for table in wire.tables)

    old_log = write_log(tmp_path / "old.p2plog", old.entries)
    new_log = write_log(tmp_path / "new.p2plog", new.entries)
    verdict = verify_file(new_log)
    assert verdict.status is Status.VALID, verdict.summary
    scores = "–".join(str(t.score) for t in totals)
    assert f"  continues game {old.game_id.hex()} from {scores}" in "\n".join(summary_lines(verdict))
    assert hand_record(verdict)["after"] == {
        "game_id": old.game_id.hex(), "kind": "continue", "scores": [t.score for t in totals],
        "bags": [t.bags for t in totals], "dealer": dealer}
    assert follow_problem(verify_file(old_log), verdict) is None

    out = run_cli("verify", str(new_log), "--after", str(old_log))
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"continues game {old.game_id.hex()} from {scores}" in out.stdout
    assert f"follows {old_log}: game {old.game_id.hex()}" in out.stdout

    # a host that claims other scores: the new log is valid on its own, but does not follow the old one
    other = (SideTotal(totals[0].score + 10, totals[0].bags), totals[1])
    lie = After(old.game_id, CONTINUATION, other, dealer)
    lied = write_log(tmp_path / "lied.p2plog", carry_on(old, b"lied", lie).tables[0].entries[:10])
    problem = follow_problem(verify_file(old_log), verify_file(lied))
    assert problem is not None and f"but game {old.game_id.hex()} ended at {scores}" in problem
    out = run_cli("verify", str(lied), "--after", str(old_log))
    assert out.returncode == 1 and "does not follow" in out.stdout and "ended at" in out.stdout
    # the new log is not a continuation of itself, nor of a game that is still running
    assert "not game" in (follow_problem(verdict, verify_file(lied)) or "")
    assert "has not ended" in (follow_problem(verify_frames(old.entries[:30]), verdict) or "")


def test_a_rematch_follows_a_finished_game_and_carries_nothing() -> None:
    rules = preset("two", target=30, losing_threshold=-30)
    first = Wire(new_tables(rules, seed=b"first"), [RandomBot(0), RandomBot(1)])
    first.run()
    old = first.tables[0]
    assert old.status is TableStatus.COMPLETE
    rematch = new_tables(rules, seed=b"second", after=After(old.game_id, REMATCH))
    second = Wire(rematch, [RandomBot(0), RandomBot(1)])
    second.run()
    new = second.tables[0]
    assert new.status is TableStatus.COMPLETE and new.game is not None
    hand = new.game.history[0]
    assert [t.score for t in hand.totals] == [s.points for s in hand.scores]  # from 0, as any new game
    verdict = verify_frames(new.entries)
    assert f"  a rematch of game {old.game_id.hex()}" in summary_lines(verdict)
    assert follow_problem(verify_frames(old.entries), verdict) is None
    assert "has not ended" in (follow_problem(verify_frames(old.entries[:20]), verdict) or "")
    assert "follows no game" in (follow_problem(verdict, verify_frames(old.entries)) or "")


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "p2pspades", *args], capture_output=True, text=True,
                          timeout=300, check=False)


# ------------------------------------------------------------------------------------------------- changes


def test_every_change_a_continuation_makes_is_found_and_said_and_breaks_its_promise() -> None:
    """One comparison of the old game with the new genesis (what `verify --after` and a joiner check): each
    swap a dishonest host could make is found, in the order a reader checks them, and said in words."""
    old = abandoned_after_a_hand(OLD_SEED)
    assert old.game is not None and old.result is not None and old.result.seat == 1
    gid = old.game_id.hex()
    honest = After(old.game_id, CONTINUATION, old.game.totals, old.game.dealer)
    seats = list(old.setup.seats)
    bot = SeatInfo(1, "Ann's bot", identity(b"a bot", 1).public)
    seats[1] = bot  # the abandoned seat, taken by a newcomer: what a continuation does
    assert changes(old, honest, old.rules, seats) == ()
    assert changes(old, honest, old.rules) == ()  # the seats not known yet: what is known is compared

    partner = list(seats)
    partner[2] = SeatInfo(2, "Ann's bot 2", identity(b"a bot", 2).public)
    moved = list(seats)
    moved[1], moved[3] = SeatInfo(1, "D", old.setup.seats[3].key), SeatInfo(3, "Ann's bot", bot.key)
    other = SideTotal(old.game.totals[0].score + 10, old.game.totals[0].bags), old.game.totals[1]
    found = {
        "partner": changes(old, honest, old.rules, partner),
        "moved": changes(old, honest, old.rules, moved),
        "target": changes(old, honest, old.rules.replace(target=1000), seats),
        "scores": changes(old, After(old.game_id, CONTINUATION, other, old.game.dealer), old.rules, seats),
        "dealer": changes(old, After(old.game_id, CONTINUATION, old.game.totals, (old.game.dealer + 1) % 4),
                          old.rules, seats),
    }
    words = {name: [change_text(c, you=0, partners=(2,), short=True) for c in found[name]] for name in found}
    names = [s.name for s in old.setup.seats]
    assert words["partner"] == [f"seat 2 (your partner's) is Ann's bot 2, who did not play game {gid[:12]}; "
                                f"{names[2]} sat there"]
    assert words["moved"] == [f"seat 1 is D, who sat at seat 3 in game {gid[:12]}; {names[1]} sat there",
                              f"seat 3 is Ann's bot, who did not play game {gid[:12]}; {names[3]} sat there"]
    assert words["target"] == [f"the target is 1000, where game {gid[:12]} had 300"]
    assert [c.kind for c in found["scores"]] == [ChangeKind.SCORES]
    assert "but game" in words["scores"][0] and "ended at" in words["scores"][0]
    dealer = old.game.dealer
    assert words["dealer"] == [f"seat {(dealer + 1) % 4} deals first, but seat {dealer} was to deal in game "
                               f"{gid[:12]}"]
    full = change_text(found["partner"][0])
    assert gid in full and identity(b"a bot", 2).fingerprint in full  # for a reader without the seat map
    assert all(broken(honest, c) for cs in found.values() for c in cs)


def test_a_rematch_may_change_its_seats_and_rules_and_says_so_without_breaking_its_promise(
        tmp_path: Path) -> None:
    rules = preset("two", target=30, losing_threshold=-30)
    first = Wire(new_tables(rules, seed=b"first"), [RandomBot(0), RandomBot(1)])
    first.run()
    old = first.tables[0]
    again = After(old.game_id, REMATCH)
    newcomer = SeatInfo(1, "Ed", identity(b"ed", 1).public)
    found = changes(old, again, rules.replace(target=60), [old.setup.seats[0], newcomer])
    assert [c.kind for c in found] == [ChangeKind.RULE, ChangeKind.SEAT]
    assert not any(broken(again, c) for c in found)
    assert changes(old, After(bytes(16), REMATCH), rules)[0].kind is ChangeKind.OTHER_GAME

    # verify --after says what changed, and the rematch still follows
    second = Wire(new_tables(rules.replace(target=60), seed=b"second", after=again),
                  [RandomBot(0), RandomBot(1)])
    second.run()
    old_log = write_log(tmp_path / "old.p2plog", old.entries)
    new_log = write_log(tmp_path / "new.p2plog", second.tables[0].entries)
    out = run_cli("verify", str(new_log), "--after", str(old_log))
    assert out.returncode == 0, out.stdout + out.stderr
    gid = old.game_id.hex()
    said = f"  changed since game {gid[:12]}: the target is 60, where game {gid} had 30; seat 0 is "
    assert said in out.stdout and "seat 1 is " in out.stdout and f"who did not play game {gid}" in out.stdout


def test_every_kind_of_change_has_its_own_words() -> None:
    said = {kind: change_text(Change(kind, OLD_ID, seat=1, option="target", old=1, new=2))
            for kind in ChangeKind}
    assert len(set(said.values())) == len(ChangeKind) and all(OLD_ID.hex() in text for text in said.values())
