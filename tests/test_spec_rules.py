"""PROTOCOL.md §3.1, the genesis `rules` map, read from the markdown and held against `RuleSet`.

The table of keys, types and allowed values is parsed from the spec; these tests fail when the spec and the
code disagree in either direction: a key, an optional key or a default that differs; a preset value the
table does not allow; a value just outside a stated range that the code accepts, or a stated bound it refuses.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from p2pspades.rules import PRESETS, RuleSet, RuleSetError
from p2pspades.rules.ruleset import _CHOICES, _OPTIONAL, default_removed

SPEC = Path(__file__).resolve().parent.parent / "protocol" / "PROTOCOL.md"
SECTION = "### 3.1 The `rules` map of the genesis"
HEADER = "| key | type | allowed | omit | meaning |"
TYPES = ("bool", "int", "int or nil", "str", "str or nil", "array of str, or nil")
CARD_CODE = re.compile(r"[2-9TJQKA][SHDC]")
CANONICAL_ORDER = [rank + suit for suit in "SHDC" for rank in "23456789TJQKA"]

Value = bool | int | str


@dataclass(frozen=True)
class Row:
    key: str
    type: str
    allowed: str
    omit: str


def _section() -> str:
    text = SPEC.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.index("\n## ", start)
    return text[start:end]


def _table_after(text: str, header: str) -> list[list[str]]:
    lines = text[text.index(header):].splitlines()
    cells: list[list[str]] = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        cells.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return cells


def _rows() -> dict[str, Row]:
    rows: dict[str, Row] = {}
    for cells in _table_after(_section(), HEADER):
        assert len(cells) == 5, cells
        key = cells[0].strip("`")
        assert key not in rows, f"{key} has two rows"
        rows[key] = Row(key, cells[1], cells[2], cells[3])
    return rows


ROWS = _rows()


def _literal(text: str) -> Value:
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r'"[^"]*"', text):
        return text[1:-1]
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    raise AssertionError(f"not a literal: {text!r}")


@dataclass(frozen=True)
class Allowed:
    """One row's allowed values: literals, or one integer range (an upper bound may be the hand size)."""

    literals: tuple[Value, ...] = ()
    low: int | None = None
    high: int | None = None
    high_is_hand_size: bool = False
    text: str = ""  # the words of a row without backticked values ("card codes", "non-empty")

    def admits(self, value: object, rules: RuleSet) -> bool:
        if self.literals:
            return any(type(value) is type(lit) and value == lit for lit in self.literals)
        if self.text == "card codes":
            return (isinstance(value, list)
                    and all(isinstance(c, str) and CARD_CODE.fullmatch(c) for c in value)
                    and value == sorted(set(value), key=CANONICAL_ORDER.index))
        if self.text == "non-empty":
            return isinstance(value, str) and value != ""
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        high = rules.hand_size if self.high_is_hand_size else self.high
        return (self.low is None or value >= self.low) and (high is None or value <= high)


def _allowed(row: Row) -> Allowed:
    items = re.findall(r"`([^`]*)`", row.allowed)
    if not items:
        assert row.allowed in ("card codes", "non-empty"), row
        return Allowed(text=row.allowed)
    if len(items) == 1 and (match := re.fullmatch(r"(-?\d+)\.\.(-?\d+|hand size)", items[0])):
        hand = match[2] == "hand size"
        return Allowed(low=int(match[1]), high=None if hand else int(match[2]), high_is_hand_size=hand)
    if len(items) == 1 and (match := re.fullmatch(r"(>=|<=) (-?\d+)", items[0])):
        bound = int(match[2])
        return Allowed(low=bound) if match[1] == ">=" else Allowed(high=bound)
    return Allowed(literals=tuple(_literal(item) for item in items))


def _type_admits(type_text: str, value: object) -> bool:
    if value is None:
        return type_text.endswith("or nil")
    base = type_text.removesuffix(", or nil").removesuffix(" or nil")
    checks: dict[str, Callable[[object], bool]] = {
        "bool": lambda v: isinstance(v, bool),
        "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "str": lambda v: isinstance(v, str),
        "array of str": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    }
    return checks[base](value)


def _admits(row: Row, value: object, rules: RuleSet) -> bool:
    if not _type_admits(row.type, value):
        return False
    return value is None or _allowed(row).admits(value, rules)


def _full_map(rules: RuleSet) -> dict[str, object]:
    """Every option, the omitted ones included, as the msgpack decoder would give them."""
    out: dict[str, object] = {}
    for field in dataclasses.fields(rules):
        value = getattr(rules, field.name)
        out[field.name] = list(value) if isinstance(value, tuple) else value
    return out


def _default(row: Row) -> Value:
    match = re.fullmatch(r"yes, default `([^`]*)`", row.omit)
    assert match, f"{row.key}: the omit column must be 'no' or 'yes, default `...`', got {row.omit!r}"
    return _literal(match[1])


# ----- the table against the code --------------------------------------------------------------------------


def test_the_table_has_exactly_the_ruleset_fields() -> None:
    assert set(ROWS) == {field.name for field in dataclasses.fields(RuleSet)}


def test_every_row_has_a_known_type() -> None:
    for row in ROWS.values():
        assert row.type in TYPES, row


def test_the_optional_rows_are_exactly_the_optional_options_with_their_defaults() -> None:
    optional = {key: _default(row) for key, row in ROWS.items() if row.omit != "no"}
    assert optional == _OPTIONAL
    for key, value in optional.items():
        assert type(value) is type(_OPTIONAL[key])


def test_the_string_choices_are_the_code_s() -> None:
    listed = {key: set(_allowed(row).literals) for key, row in ROWS.items() if row.type == "str"}
    assert listed == {key: set(choices) for key, choices in _CHOICES.items()}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_satisfies_the_table(name: str) -> None:
    rules = PRESETS[name]
    written = rules.to_dict()
    assert set(ROWS) - set(written) == {key for key in _OPTIONAL if getattr(rules, key) == _OPTIONAL[key]}
    for key, value in _full_map(rules).items():
        assert _admits(ROWS[key], value, rules), f"{name}: {key}={value!r} is outside the spec's table"
    assert RuleSet.from_dict(written) == rules


def test_optional_options_are_written_only_away_from_their_defaults() -> None:
    rules = PRESETS["classic"].replace(on_fault="void", void_proofs=False)
    written = rules.to_dict()
    assert written["on_fault"] == "void" and written["void_proofs"] is False
    assert RuleSet.from_dict({**PRESETS["classic"].to_dict(), **_OPTIONAL}) == PRESETS["classic"]


def _outsiders(row: Row) -> list[object]:
    """Values the table forbids for the row: other types, and values just outside the allowed ones."""
    wrong_types: dict[str, list[object]] = {
        "bool": [1, 0, "true", None],
        "int": [True, "1", None, [1]],
        "int or nil": [True, "1", [1]],
        "str": [1, True, None, b"all"],
        "str or nil": [1, True, b"classic"],
        "array of str, or nil": ["2C", [2], "", True],
    }
    out = list(wrong_types[row.type])
    allowed = _allowed(row)
    if allowed.literals and row.type == "str":
        out.append("bogus")
    elif allowed.literals and row.type == "int":
        ints = [lit for lit in allowed.literals if isinstance(lit, int)]
        out += [value for value in range(min(ints) - 1, max(ints) + 2) if value not in ints]
    elif allowed.text == "card codes":
        out += [["BJ"], ["LJ"], ["2C", "2C"], ["2C", "2c"], ["XX"], ["1S"]]
    elif allowed.text == "non-empty":
        out.append("")
    else:
        if allowed.low is not None:
            out.append(allowed.low - 1)
        if allowed.high is not None:
            out.append(allowed.high + 1)
        if allowed.high_is_hand_size:
            out.append(PRESETS["classic"].hand_size + 1)
    return out


@pytest.mark.parametrize("key", sorted(ROWS))
def test_values_the_table_forbids_are_refused_naming_the_key(key: str) -> None:
    base = PRESETS["classic"].to_dict()
    for value in _outsiders(ROWS[key]):
        with pytest.raises(RuleSetError, match=re.escape(key)):
            RuleSet.from_dict({**base, key: value})


def _constant(value: int) -> Callable[[RuleSet], int]:
    return lambda _: value


@pytest.mark.parametrize("key", sorted(key for key, row in ROWS.items() if row.type.startswith("int")))
def test_the_stated_integer_bounds_are_accepted_by_some_preset(key: str) -> None:
    allowed = _allowed(ROWS[key])
    bounds = [
        _constant(value)
        for value in [lit for lit in allowed.literals if isinstance(lit, int)] + [allowed.low, allowed.high]
        if value is not None
    ]
    if allowed.high_is_hand_size:
        bounds.append(lambda rules: rules.hand_size)
    assert bounds
    for bound in bounds:
        accepted = []
        for rules in PRESETS.values():
            try:
                accepted.append(RuleSet.from_dict({**rules.to_dict(), key: bound(rules)}))
            except RuleSetError:
                continue
        assert accepted, f"{key}: a bound the spec allows is refused by every preset"


def test_missing_and_unknown_keys_are_refused() -> None:
    base = PRESETS["classic"].to_dict()
    for key, row in ROWS.items():
        reduced = {k: v for k, v in base.items() if k != key}
        if row.omit == "no":
            with pytest.raises(RuleSetError, match=f"missing rule option: {key}"):
                RuleSet.from_dict(reduced)
        else:
            assert RuleSet.from_dict(reduced) == PRESETS["classic"]
    with pytest.raises(RuleSetError, match="unknown rule option: extra"):
        RuleSet.from_dict({**base, "extra": 1})


def test_the_default_removed_table_is_the_code_s() -> None:
    table = _table_after(_section(), "| `players` | `jokers` true | `jokers` false |")
    assert len(table) == 4
    for players_text, with_jokers, without_jokers in table:
        players = int(players_text)
        for jokers, cell in ((True, with_jokers), (False, without_jokers)):
            codes = tuple(re.findall(r"`([^`]*)`", cell)) if cell != "none" else ()
            assert codes == default_removed(players, jokers), (players, jokers)


# ----- the cross-field rules: one map breaking each, refused ------------------------------------------------

CROSS_FIELD: Mapping[int, dict[str, object]] = {
    1: {"players": 3},  # partnerships with 3 players
    2: {"deal": "draw"},  # the draw pile with 4 players
    3: {"removed": ["2C"]},  # 51 cards among 4 players
    4: {"players": 2, "partnerships": False, "deal": "draw", "first_leader": "low_club"},
    5: {"min_bid": 14},
    6: {"min_bid": 0},
    7: {"nil": False},  # blind_nil stays on
    8: {"partnerships": False, "min_team_bid": 4},
    9: {"partnerships": False, "double_nil": False},
    10: {"partnerships": False, "ten_for_200": True,  # 36 cards, 9 tricks a hand
         "removed": [rank + suit for suit in "SHDC" for rank in "2345"]},
    11: {"partnerships": False, "nil_pass": 2},  # a pass with no partner
    12: {"jokers": True, "removed": ["2D", "2C"], "deuces_high": True},
    13: {"bid_mode": "mirror"},  # blind_nil stays on
    14: {"blind_bid": True, "bid_mode": "suicide"},
}


def test_every_cross_field_rule_has_an_example() -> None:
    block = _section().split("**Cross-field rules**", 1)[1].split("**An invalid map.**", 1)[0]
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", block, flags=re.MULTILINE)]
    assert numbers == sorted(CROSS_FIELD)


@pytest.mark.parametrize("number", sorted(CROSS_FIELD))
def test_a_map_breaking_a_cross_field_rule_is_refused(number: int) -> None:
    data = {**PRESETS["classic"].to_dict(), **CROSS_FIELD[number]}
    for key, value in CROSS_FIELD[number].items():
        assert _admits(ROWS[key], value, PRESETS["classic"]) or key == "min_bid", (key, value)
    with pytest.raises(RuleSetError):
        RuleSet.from_dict(data)


def test_clubs_missing_breaks_the_low_club_rule() -> None:
    clubs = [rank + "C" for rank in "23456789TJQKA"]
    data = {**PRESETS["classic"].to_dict(), "players": 3, "partnerships": False, "first_leader": "low_club",
            "removed": clubs}  # 39 cards, 13 each, and no club to lead
    with pytest.raises(RuleSetError, match="clubs"):
        RuleSet.from_dict(data)
