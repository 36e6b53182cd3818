"""The nil card pass on the table (PROTOCOL.md §7.6), on the in-memory wiring: honest games with passes
verify; the opponents' tables hold nothing that reveals a passed card; a pass of a card the passer does not
hold, a malformed pass, and a wrong key handed over are each named, with evidence the verifier accepts."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.cheats import BadPass, PassedCardPlayer, WrongPassKey
from helpers.logs import write_log

from p2pspades import crypto, log
from p2pspades.audit import Status, verify_frames
from p2pspades.bots.heuristic import HeuristicBot
from p2pspades.checks import Check
from p2pspades.errors import RemoteError
from p2pspades.rules import Action, Bid, Phase, RuleSet, preset
from p2pspades.table import Decision, DecisionKind, Table, TableStatus, Violation
from p2pspades.table import messages as msg
from p2pspades.table.harness import Wire, new_game, seeded_entropy
from p2pspades.table.makers import Makers, MakerView

RULES = preset("classic", nil_pass=2, target=100, losing_threshold=-100)
NIL = 0  # the seat that bids nil whenever it may; seat 2 is its partner, 1 and 3 the opponents


class NilSeat:
    """A heuristic bot that bids nil whenever nil is offered."""

    def __init__(self, seed: int) -> None:
        self.bot = HeuristicBot(seed)

    def __call__(self, decision: Decision) -> Action:
        if decision.kind is DecisionKind.BID and Bid(0) in decision.legal:
            return Bid(0)
        return self.bot(decision)


def seated(
    rules: RuleSet = RULES,
    seed: bytes = b"nil pass",
    table: type[Table] = Table,
    makers: Makers | None = None,
    **table_kw: Any,
) -> Wire:
    """Four tables of a version 2 game; seat `NIL` bids nil and may be a modified peer."""
    ids = identities(seed)
    genesis = new_game(rules, ids, game_id=crypto.H("game", seed)[:16], version=2)
    tables = []
    for i in range(4):
        entropy = seeded_entropy(seed + bytes([i]))
        if i == NIL:
            tables.append(table(genesis, ids[i], entropy=entropy, makers=makers, **table_kw))
        else:
            tables.append(Table(genesis, ids[i], entropy=entropy))
    players: list[Any] = [NilSeat(0), HeuristicBot(1), HeuristicBot(2), HeuristicBot(3)]
    return Wire(tables, players)


def kinds(entries: list[bytes]) -> list[str]:
    return [str(log.open_envelope(raw).payload["t"]) for raw in entries]


def assert_named(wire: Wire, seat: int, check: Check) -> Violation:
    """Every honest peer halted naming `seat` for `check`, they agree, and the verifier says the same from
    the log and the evidence."""
    found = []
    for table in wire.tables:
        if table.seat == seat:
            continue
        v = table.violation
        assert table.status == "violation" and v is not None, f"seat {table.seat} did not halt"
        assert (v.seat, v.check) == (seat, check), v
        found.append((v.seq, v.detail))
        verdict = verify_frames([*table.entries, *v.evidence])
        assert verdict.status is Status.VIOLATION, verdict.summary
        assert verdict.violation is not None
        assert (verdict.violation.seat, verdict.violation.check) == (seat, check)
    assert len(set(found)) == 1
    v = next(t.violation for t in wire.tables if t.seat != seat)
    assert v is not None
    return v


# ----- honest games -----------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("n", [1, 3])
def test_an_honest_game_with_passes_verifies(n: int) -> None:
    wire = seated(preset("classic", nil_pass=n, target=100, losing_threshold=-100), seed=b"honest %d" % n)
    wire.run()
    table = wire.tables[1]
    assert all(t.status == "complete" for t in wire.tables)
    assert all(t.entries == table.entries for t in wire.tables)
    written = kinds(table.entries)
    assert written.count("pass") >= 2 and written.count("pass") % 2 == 0
    verdict = verify_frames(table.entries)
    assert verdict.status is Status.VALID, verdict.summary
    # the hands the verifier audited are the hands after the pass: seat 0 played cards dealt to seat 2
    first = verdict.hands[0]
    assert first.bids[NIL] == 0


def run_until_passed(wire: Wire) -> None:
    """Run the game until every pass of the first hand is in and the first lead is due."""
    wire.start()
    while not all(t.deal is not None and t.deal.passes and t.view.game.phase is Phase.PLAY
                  and not t.deal.played for t in wire.tables):
        assert wire.step(), "the game stopped before the pass"


def holds(obj: object, needle: bytes, seen: set[int] | None = None, depth: int = 0) -> bool:
    """Whether `needle` appears anywhere in the object graph of `obj` (bytes, containers, attributes)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 12:
        return False
    seen.add(id(obj))
    if isinstance(obj, bytes | bytearray):
        return needle in bytes(obj)
    if isinstance(obj, str | int | float | bool) or obj is None:
        return False
    if isinstance(obj, dict):
        return any(holds(x, needle, seen, depth + 1) for pair in obj.items() for x in pair)
    if isinstance(obj, list | tuple | set | frozenset):
        return any(holds(x, needle, seen, depth + 1) for x in obj)
    fields: list[object] = list(getattr(obj, "__dict__", {}).values())
    for cls in type(obj).__mro__:
        fields += [getattr(obj, name) for name in getattr(cls, "__slots__", ()) if hasattr(obj, name)]
    return any(holds(x, needle, seen, depth + 1) for x in fields)


def test_an_opponents_table_holds_nothing_that_reveals_a_passed_card() -> None:
    wire = seated()
    run_until_passed(wire)
    passes = wire.tables[1].deal.passes  # type: ignore[union-attr]
    assert {(p.seat, p.partner) for p in passes} >= {(0, 2), (2, 0)}
    for p in passes:
        sender = wire.tables[p.seat]
        assert sender.hand_secrets is not None and sender.deal is not None
        for j in p.positions:
            key, card = sender.hand_secrets.lock_keys[j], sender.deal.opened[j]
            # the partner holds the key and knows the card: the search below would find it
            partner = wire.tables[p.partner]
            assert partner.deal is not None and partner.deal.received_keys[j] == key
            assert holds(partner, key) and card in partner.view.game.hand.hand(p.partner)
            for opponent in (t for t in wire.tables if t.seat not in (p.seat, p.partner)):
                d, g = opponent.deal, opponent.view.game
                assert d is not None
                assert not holds(opponent, key), f"seat {opponent.seat}'s table holds the key of position {j}"
                assert j not in d.opened and j not in d.received_keys
                assert p.seat not in d.keys[j]  # the key seat's key of j is not out
                assert card not in g.hand.hand(p.seat) and card not in g.hand.hand(p.partner)
                assert d.holder(j) == p.partner  # the move itself is public
    for opponent in (wire.tables[1], wire.tables[3]):
        g = opponent.view.game
        assert g.hand.hand(0) == () and g.hand.hand(2) == ()
        assert all(cards == (None, None) for seat, _, cards in g.hand.passes if seat in (0, 2))


# ----- cheats -----------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_wrong_key_handed_over_is_named_by_the_audit() -> None:
    wire = seated(seed=b"wrong key", makers=WrongPassKey())
    wire.run()
    v = assert_named(wire, NIL, Check.PASS)
    assert kinds(wire.tables[1].entries).count("challenge") == 1
    evidence = log.open_envelope(v.evidence[0]).payload
    assert evidence["t"] == "pass" and evidence["s"] == NIL and v.seq == evidence["n"]
    # the challenge came from the partner, the only seat that could open the key
    challenge = next(log.open_envelope(raw).payload for raw in wire.tables[1].entries
                     if log.open_envelope(raw).payload["t"] == "challenge")
    assert challenge["s"] == (NIL + 2) % 4


def _theirs(table: Table, fields: dict[str, Any]) -> dict[str, Any]:
    """A position dealt to the next seat instead of the first one passed."""
    assert table.deal is not None and table.seat is not None
    fields["j"] = sorted([table.deal.dealt_to((table.seat + 1) % 4)[0], *fields["j"][1:]])
    return fields


def _partners(table: Table, fields: dict[str, Any]) -> dict[str, Any]:
    """A position dealt to the partner."""
    assert table.deal is not None and table.seat is not None
    fields["j"] = sorted([table.deal.dealt_to((table.seat + 2) % 4)[0], *fields["j"][1:]])
    return fields


def _descending(table: Table, fields: dict[str, Any]) -> dict[str, Any]:
    fields["j"] = list(reversed(fields["j"]))
    fields["k"] = list(reversed(fields["k"]))
    return fields


def _one_short(table: Table, fields: dict[str, Any]) -> dict[str, Any]:
    fields["j"], fields["k"] = fields["j"][:1], fields["k"][:1]
    return fields


def _unreduced(table: Table, fields: dict[str, Any]) -> dict[str, Any]:
    fields["k"] = [b"\xff" * 32, *fields["k"][1:]]
    return fields


def _too_long(table: Table, fields: dict[str, Any]) -> dict[str, Any]:
    fields["j"] = [*fields["j"], 0, 1]
    return fields


@pytest.mark.slow
@pytest.mark.parametrize(
    ("change", "check"),
    [
        (_theirs, Check.OWNERSHIP),
        (_partners, Check.OWNERSHIP),
        (_descending, Check.OWNERSHIP),
        (_one_short, Check.PASS),
        (_unreduced, Check.PASS),
        (_too_long, Check.SCHEMA),
    ],
)
def test_a_bad_pass_is_named_at_once(
    change: Callable[[Table, dict[str, Any]], dict[str, Any]], check: Check
) -> None:
    wire = seated(seed=b"bad pass", table=BadPass, change=change)
    wire.run()
    v = assert_named(wire, NIL, check)
    assert log.open_envelope(v.evidence[0]).payload["t"] == "pass"


def identities(seed: bytes) -> list[crypto.Identity]:
    return [crypto.Identity.from_seed(crypto.H("test identity", seed, bytes([i]))[:32]) for i in range(4)]


def resealed_commit(change: Callable[[dict[str, Any]], None], seed: bytes) -> Callable[[int, bytes],
                                                                                     list[tuple[int, bytes]]]:
    """A wire tamper: the nil seat's first `commit` is changed and signed again."""
    done: list[bool] = []
    cheater = identities(seed)[NIL]

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        payload = dict(log.open_envelope(raw).payload)
        if sender == NIL and payload["t"] == "commit" and not done:
            done.append(True)
            change(payload)
            raw = log.seal(payload, cheater)
        return [(d, raw) for d in range(4) if d != sender]

    return tamper


def _identity_e(payload: dict[str, Any]) -> None:
    payload["E"] = crypto.IDENTITY


def _no_e(payload: dict[str, Any]) -> None:
    del payload["E"]


def _other_e(payload: dict[str, Any]) -> None:
    payload["E"] = crypto.mul(crypto.scalar_from_int(5), payload["E"])


@pytest.mark.parametrize(
    ("change", "check", "words"),
    [
        (_identity_e, Check.COMMIT, "E is not a valid point"),
        (_no_e, Check.SCHEMA, "missing ['E']"),
    ],
)
def test_a_bad_pass_key_in_the_commit_is_named_at_the_commit(
    change: Callable[[dict[str, Any]], None], check: Check, words: str
) -> None:
    seed = b"bad E"
    wire = seated(seed=seed)
    wire.tamper = resealed_commit(change, seed)
    wire.run()
    others = [t for t in wire.tables if t.seat != NIL]
    for table in others:
        v = table.violation
        assert v is not None and (v.seat, v.check) == (NIL, check) and words in v.detail, v
        assert log.open_envelope(v.evidence[0]).payload["t"] == "commit"
        verdict = verify_frames([*table.entries, *v.evidence])
        found = verdict.violation
        assert found is not None and (found.seat, found.check) == (NIL, check)


class OtherE(Makers):
    """Publishes a valid point as `E` that is not its pass key's: its own checks take it."""

    def make(self, table: MakerView, kind: type[msg.Message]) -> msg.Message:
        made = super().make(table, kind)
        if isinstance(made, msg.CommitPass):
            other = crypto.mul(crypto.scalar_from_int(5), made.pass_public)
            return msg.CommitPass(made.commitment, made.shuffle_commitment, other)
        return made


@pytest.mark.slow
def test_another_pass_key_in_the_commit_is_found_by_the_audit() -> None:
    """The partner cannot open what it is passed and challenges; the audit finds the `E` that is not the
    seed's, and names its seat at the commit."""
    wire = seated(seed=b"other E", makers=OtherE())
    wire.run()
    v = assert_named(wire, NIL, Check.PASS)
    assert "the pass key E is not the one the revealed seed gives" in v.detail
    assert log.open_envelope(v.evidence[0]).payload["t"] == "commit"
    assert kinds(wire.tables[1].entries).count("challenge") == 1


def test_the_pass_needs_protocol_version_2() -> None:
    ids = [crypto.Identity.from_seed(bytes([i + 1]) * 32) for i in range(4)]
    with pytest.raises(RemoteError, match="nil_pass needs protocol version 2"):
        new_game(RULES, ids, version=1)


def _passed_away(table: Table) -> tuple[int, bytes] | None:
    """A position this seat passed to its partner, with this seat's own (right) key for it."""
    d, my = table.deal, table.hand_secrets
    assert d is not None and my is not None
    mine = [j for p in d.passes if p.seat == table.seat for j in p.positions if j not in d.played]
    return (mine[0], my.lock_keys[mine[0]]) if mine else None


def _received_with_own_key(table: Table) -> tuple[int, bytes] | None:
    """A position passed to this seat, played with this seat's own lock key instead of the key seat's."""
    d, my = table.deal, table.hand_secrets
    assert d is not None and my is not None
    got = [j for j in d.received_keys if j not in d.played]
    return (got[0], my.lock_keys[got[0]]) if got else None


@pytest.mark.slow
@pytest.mark.parametrize(
    ("pick", "check"), [(_passed_away, Check.OWNERSHIP), (_received_with_own_key, Check.KEY)]
)
def test_a_play_of_a_passed_card_is_checked_for_its_new_holder(
    pick: Callable[[Table], tuple[int, bytes] | None], check: Check
) -> None:
    wire = seated(seed=b"passed play", table=PassedCardPlayer, pick=pick)
    wire.run()
    v = assert_named(wire, NIL, check)
    assert log.open_envelope(v.evidence[0]).payload["t"] == "play"


@pytest.mark.slow
def test_p2pspades_verify_names_the_seat_that_handed_over_a_wrong_key(tmp_path: Path) -> None:
    """The honest peer's log file, with the evidence, read by the `verify` command in a process of its own."""
    wire = seated(seed=b"wrong key", makers=WrongPassKey())
    wire.run()
    table = wire.tables[1]
    assert table.violation is not None
    path = write_log(tmp_path / "wrong-key.p2plog", [*table.entries, *table.violation.evidence])
    done = subprocess.run([sys.executable, "-m", "p2pspades", "verify", str(path)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith(f"entry {table.violation.seq}: seat {NIL} failed the pass check")
    assert "is not the seat's lock key" in first
    # the valid part of the same game verifies: without the pass nothing is wrong
    honest = write_log(tmp_path / "honest.p2plog", kinds_until(table.entries, "pass"))
    done = subprocess.run([sys.executable, "-m", "p2pspades", "verify", str(honest)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 3, done.stdout + done.stderr  # valid so far, incomplete


def kinds_until(entries: list[bytes], kind: str) -> list[bytes]:
    """The entries before the first of type `kind`."""
    types = kinds(entries)
    return entries[: types.index(kind)]


def test_a_seat_that_never_passes_is_certified_to_have_stopped() -> None:
    """The pass is a decision like a bid: past the decision timeout the other seats vote, and the
    certificate names the seat that kept the table waiting; the log verifies to the same ending."""
    wire = seated(seed=b"no pass")
    wire.start()
    while any((t.waiting_for() or (None, ""))[1] != "pass" for t in wire.tables):
        assert wire.step(), "the game ended before the pass"
    waiting = wire.tables[0].waiting_for()
    assert waiting is not None
    gone = waiting[0]
    wire.players[gone] = None  # it stops answering
    wire.advance_time(5000)
    wire.run()
    for table in wire.tables:
        if table.seat == gone:
            continue
        result = table.result
        assert result is not None and result.status is TableStatus.ABANDONED and result.seat == gone, result
        verdict = verify_frames(table.records)
        assert verdict.status is Status.INCOMPLETE, verdict.summary  # abandoned: a claim, not a proof
        assert f"seat {gone} kept the table waiting for its pass" in verdict.summary
