"""The transition table walked: every stage of `TRANSITIONS` is reached by some game, and every message type
it lists has an effect (and, unless our player decides it, a maker of our own entry)."""

from __future__ import annotations

from p2pspades.bots import RandomBot
from p2pspades.rules import preset
from p2pspades.table import TRANSITIONS, Stage, Table
from p2pspades.table import messages as msg
from p2pspades.table.effects import EFFECTS
from p2pspades.table.harness import Wire, new_tables
from p2pspades.table.makers import MAKERS


def stages_of(rules_name: str, **changes: object) -> set[Stage]:
    rules = preset(rules_name, target=10, losing_threshold=-10, **changes)
    seen: set[Stage] = set()
    tables: list[Table] = new_tables(rules, seed=b"stages " + rules_name.encode(), version=1)
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
