"""The transition table walked: every stage of `TRANSITIONS` is reachable in the table and reached by some
game, every message type it lists has an effect (and, unless our player decides it, a maker of our own entry)
and a successor, and a game moves only along the stages the table lists."""

from __future__ import annotations

from typing import Any

import pytest

from p2pspades.bots import RandomBot
from p2pspades.errors import LocalError
from p2pspades.rules import preset
from p2pspades.table import TRANSITIONS, Stage, Table
from p2pspades.table import messages as msg
from p2pspades.table.harness import Wire, new_tables, play_in_memory
from p2pspades.table.makers import MAKERS
from p2pspades.table.receiving import EFFECTS
from p2pspades.table.stages import successors


def stages_of(rules_name: str, version: int = 1, **changes: object) -> set[Stage]:
    rules = preset(rules_name, target=10, losing_threshold=-10, **changes)
    seen: set[Stage] = set()
    tables: list[Table] = new_tables(rules, seed=b"stages " + rules_name.encode(), version=version)
    wire = Wire(tables, [RandomBot(i) for i in range(rules.players)])
    wire.on_events = lambda seat, events: seen.add(wire.tables[seat].stage)
    seen.add(tables[0].stage)
    wire.run()
    assert all(t.finished for t in wire.tables)
    return seen


def test_every_stage_is_reached() -> None:
    seen = (
        stages_of("classic", blind_nil=True, blind_nil_margin=0)
        | stages_of("two")
        | stages_of("classic", first_leader="low_club")
        # the nil card pass (version 2 only); every seat is offered blind nil, so some side has a nil
        | stages_of("classic", version=2, nil_pass=1, blind_nil=True, blind_nil_margin=0)
    )
    assert seen == set(TRANSITIONS), set(TRANSITIONS) - seen


def test_every_message_type_a_stage_takes_has_an_effect_and_a_maker() -> None:
    effects = EFFECTS
    makers = MAKERS
    for stage, expect in TRANSITIONS.items():
        for kind in expect.types:
            assert kind in effects, (stage, kind)
        normal = expect.types[:1]
        if expect.decision is None and normal:
            assert normal[0] in makers, (stage, normal[0])
    assert msg.Challenge in effects  # made when a problem is found, not by a maker


def reachable() -> set[Stage]:
    """The stages the transition table's `then` lists lead to, from the genesis."""
    seen, todo = {Stage.ACCEPT}, [Stage.ACCEPT]
    while todo:
        for nxt in (s for after in TRANSITIONS[todo.pop()].then.values() for s in after):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_every_stage_is_reachable_in_the_table_itself() -> None:
    assert reachable() == set(Stage)


def test_only_the_last_stage_has_no_way_on() -> None:
    assert {stage for stage, expect in TRANSITIONS.items() if not expect.then} == {Stage.OVER}


def test_every_type_a_stage_takes_has_a_successor() -> None:
    for stage, expect in TRANSITIONS.items():
        for kind in expect.types:
            assert successors(stage, kind), (stage, kind)
        assert set(expect.then) >= set(expect.types), stage


def test_a_version_2_form_follows_its_version_1_type() -> None:
    assert successors(Stage.LOCK, msg.LockV2) == successors(Stage.LOCK, msg.Lock)
    assert successors(Stage.PLAY, msg.PlayV2) == successors(Stage.PLAY, msg.Play)
    assert successors(Stage.BID, msg.Reveal) == ()


@pytest.mark.parametrize(
    "name,changes",
    [("classic", {"blind_nil": True, "blind_nil_margin": 0}), ("two", {}), ("cutthroat3", {}),
     ("classic", {"first_leader": "low_club"})],
    ids=["blind-nil", "two", "cutthroat3", "low-club"],
)
def test_a_whole_game_moves_only_along_the_table(
    name: str, changes: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every stage a game enters after an entry is listed after that entry's stage and type."""
    moves: set[tuple[Stage, Stage]] = set()
    enter = Table.enter

    def spy(table: Table, stage: Stage, *args: Any, **kwargs: Any) -> None:
        moving = table._moving
        enter(table, stage, *args, **kwargs)
        if moving is not None:
            assert stage is Stage.OVER or stage in successors(*moving), (moving, stage)
            moves.add((moving[0], stage))

    monkeypatch.setattr(Table, "enter", spy)
    rules = preset(name, target=10, losing_threshold=-10, **changes)
    wire = play_in_memory(rules, [RandomBot(i) for i in range(rules.players)], seed=b"walk", version=1)
    assert all(t.finished and t.violation is None for t in wire.tables)
    assert (Stage.REVEAL, Stage.END) in moves and (Stage.END, Stage.OVER) in moves
    assert {after for _, after in moves} >= {Stage.COMMIT, Stage.SHUFFLE, Stage.LOCK, Stage.BID, Stage.PLAY}


def test_a_stage_the_table_does_not_list_is_refused() -> None:
    rules = preset("classic", target=10, losing_threshold=-10)
    table = new_tables(rules, seed=b"walk", version=1)[0]
    table._moving = (Stage.BID, msg.Bid)
    with pytest.raises(LocalError, match="no BID --bid--> COMMIT"):
        table.enter(Stage.COMMIT)
