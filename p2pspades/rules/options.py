"""The options of a rule set as data for people: the list `p2pspades rules` prints (each option's name, type,
values and default), and which options a table plays differently from the standard game.

Both are derived from the fields of `RuleSet`, so a new option appears here without a second list to keep up
to date. The words (what each option means, a summary of a rule set) are at the edge, in
`describe/rules.py`: this layer speaks no language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import NamedTuple

from p2pspades.errors import N_
from p2pspades.rules.errors import RuleSetError
from p2pspades.rules.ruleset import RuleSet, allowed_values, value_type

STANDARD = RuleSet()
"""The defaults of every option: the classic partnership game."""


class Option(NamedTuple):
    """One option of a rule set: its name, type and values (as PROTOCOL.md §3.1 writes them) and its
    default."""

    name: str
    type: str
    allowed: str
    default: object


def _names() -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(RuleSet))


def options() -> tuple[Option, ...]:
    """Every option of `RuleSet`, in the order of its fields."""
    return tuple(
        Option(name, value_type(name), allowed_values(name), getattr(STANDARD, name))
        for name in _names()
    )


def value_text(value: object) -> str:
    """An option's value as the rule-set map writes it: true, false, nil, 4, "left", [2C, 2D]."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(str(item) for item in value) + "]"
    return str(value)


def differences(rules: RuleSet) -> tuple[str, ...]:
    """The options whose value in `rules` is not the standard (classic) game's, in the order of the fields:
    what a summary of the rule set names (`describe.rules.summary` puts them into words)."""
    return tuple(name for name in _names() if getattr(rules, name) != getattr(STANDARD, name))


def code(value: object) -> str:
    """An option's value as one word of `codes`: true, false, nil, 4, left, 2C+2D."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "+".join(str(item) for item in value)
    return str(value)


def codes(rules: RuleSet, base: RuleSet) -> tuple[tuple[str, str], ...]:
    """The options where `rules` differs from `base` (its preset), each as (name, `code` of its value), in
    the order of the fields: the rule set in a few words of no language, for the table's advertisement."""
    return tuple((name, code(getattr(rules, name))) for name in _names()
                 if name != "preset" and getattr(rules, name) != getattr(base, name))


def from_codes(base: RuleSet, pairs: Iterable[tuple[str, str]]) -> RuleSet:
    """`base` with the options of `codes` changed. `RuleSetError` for an option or a value it cannot be."""
    known = set(_names()) - {"preset"}
    changes: dict[str, object] = {}
    for name, text in pairs:
        if name not in known:
            raise RuleSetError(N_("unknown rule option {name}"), name=repr(name))
        changes[name] = _value(name, text)
    try:
        return base.replace(**changes)
    except (TypeError, ValueError) as exc:
        raise RuleSetError(str(exc)) from None


def _value(name: str, text: str) -> object:
    kind = value_type(name)
    if text == "nil" and kind.endswith("or nil"):
        return None
    if kind == "bool":
        if text not in ("true", "false"):
            raise RuleSetError(N_("{name}: true or false, not {text}"), name=name, text=repr(text))
        return text == "true"
    if kind.startswith("int"):
        if not text.lstrip("-").isdigit() or len(text) > 9:
            raise RuleSetError(N_("{name}: a whole number, not {text}"), name=name, text=repr(text))
        return int(text)
    if kind.startswith("array"):
        return tuple(text.split("+"))
    return text
