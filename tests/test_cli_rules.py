"""`p2pspades rules`: every option with its type, values, default and meaning, from the fields of `RuleSet`;
and the short summary of what a rule set plays differently from the classic game."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from p2pspades.cli.main import main
from p2pspades.describe.rules import _MEANINGS as MEANINGS
from p2pspades.describe.rules import _PHRASES, described, summary
from p2pspades.rules import PRESETS, RuleSet, preset
from p2pspades.rules.options import options, value_text

FIELDS = [f.name for f in dataclasses.fields(RuleSet)]
PROTOCOL_MD = Path(__file__).resolve().parent.parent / "protocol" / "PROTOCOL.md"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["rules", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def test_every_option_has_a_meaning_and_a_few_words() -> None:
    assert list(MEANINGS) == FIELDS
    assert all(MEANINGS[name].strip() and "\n" not in MEANINGS[name] for name in FIELDS)
    assert list(_PHRASES) == FIELDS
    assert [option.name for option in options()] == FIELDS


def test_the_json_listing_gives_every_option_with_the_defaults_of_the_rule_set(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "--json")
    assert code == 0 and err == ""
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row["name"] for row in rows] == FIELDS
    standard = RuleSet()
    for row in rows:
        assert row["default"] == plain(getattr(standard, row["name"])), row
        assert row["meaning"] == MEANINGS[row["name"]]
        assert "value" not in row


def test_the_text_listing_prints_each_default_beside_its_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0
    standard = RuleSet()
    for name in FIELDS:
        row = re.search(rf"^{name} +(\S+(?: \S+)*?)  +(\S.*)$", out, re.MULTILINE)
        assert row is not None, name
        assert row.group(1) == value_text(getattr(standard, name)), name
        assert " ".join(MEANINGS[name].split()) in " ".join(out.split())  # its meaning, wrapped at 80 columns
    assert max(len(line) for line in out.splitlines() if line.startswith("    ")) <= 80


def protocol_rows() -> dict[str, tuple[str, str]]:
    """The key, type and allowed columns of the table in PROTOCOL.md §3.1."""
    rows = {}
    for line in PROTOCOL_MD.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"`\w+`", cells[0]):
            rows[cells[0].strip("`")] = (cells[1], cells[2].replace("`", ""))
    return rows


def test_types_and_values_are_the_protocol_s() -> None:
    spec = protocol_rows()
    assert set(spec) == set(FIELDS)
    for option in options():
        assert (option.type, option.allowed) == spec[option.name], option.name


def test_a_preset_is_shown_beside_the_default_with_its_changes_marked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "house")
    assert code == 0
    marked = {line.split()[0] for line in out.splitlines() if re.match(r"^[a-z_0-9]+ .* \* ", line)}
    assert marked == {"min_team_bid", "ten_for_200", "boston", "preset"}
    assert "min team bid 4, 10 for 200, Boston +200" in out
    code, out, _ = run(capsys, "house", "--json")
    rows = {row["name"]: row for row in map(json.loads, out.splitlines())}
    house = PRESETS["house"]
    for name, row in rows.items():
        assert row["preset"] == "house" and row["value"] == plain(getattr(house, name))
        assert row["differs"] == (name in marked)


def test_an_unknown_preset_is_one_line_that_lists_the_presets(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "moon")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "unknown preset 'moon'" in err
    assert all(name in err for name in PRESETS)


# ----- the summary --------------------------------------------------------------------------------------

#: one change from the classic game per option that has words of its own
ONE_CHANGE: dict[str, dict[str, Any]] = {
    "players": {"players": 3, "partnerships": False},
    "partnerships": {"partnerships": False},
    "jokers": {"jokers": True, "removed": ("2C", "2D")},
    "removed": {"removed": ("2C", "2D", "2H", "2S")},
    "deal": {"players": 2, "partnerships": False, "deal": "draw"},
    "min_bid": {"min_bid": 2},
    "nil": {"nil": False, "blind_nil": False},
    "nil_value": {"nil_value": 50},
    "blind_nil": {"blind_nil": False},
    "blind_nil_value": {"blind_nil_value": 300},
    "blind_nil_margin": {"blind_nil_margin": 200},
    "nil_tricks_count_for_partner": {"nil_tricks_count_for_partner": True},
    "first_bidder": {"first_bidder": "dealer"},
    "first_leader": {"first_leader": "low_club"},
    "spade_lead": {"spade_lead": "always"},
    "overtrick_points": {"overtrick_points": -10},
    "bag_limit": {"bag_limit": 5},
    "bag_penalty": {"bag_penalty": 50},
    "failed_contract": {"failed_contract": "zero"},
    "losing_threshold": {"losing_threshold": -200},
    "tie": {"tie": "shared"},
    "renege": {"renege": "stop"},
    "on_fault": {"on_fault": "void"},
    "void_proofs": {"void_proofs": False},
    "min_team_bid": {"min_team_bid": 5},
    "double_nil": {"double_nil": False},
    "ten_for_200": {"ten_for_200": True},
    "boston": {"boston": "win"},
    "nil_bags": {"nil_bags": False},
    "nil_pass": {"nil_pass": 2},
    "deuces_high": {"deuces_high": True},
    "bid_mode": {"bid_mode": "suicide"},
    "blind_bid": {"blind_bid": True},
}
SAID_ELSEWHERE = {"target", "preset", "ten_for_200_value", "boston_value", "blind_bid_margin",
                  "blind_bid_min"}


def test_the_classic_game_has_nothing_to_summarise() -> None:
    assert summary(RuleSet()) == summary(PRESETS["classic"]) == summary(preset("classic", target=300)) == ""
    assert described(PRESETS["classic"]) == "classic"


def test_every_option_with_words_of_its_own_shows_in_the_summary_when_changed() -> None:
    assert set(ONE_CHANGE) | SAID_ELSEWHERE == set(FIELDS)
    seen = set()
    for name, change in ONE_CHANGE.items():
        words = summary(RuleSet(**change))
        assert words, name
        seen.add(_PHRASES[name](RuleSet(**change)))
    assert len(seen) == len(ONE_CHANGE)  # every option says something of its own


def test_the_house_summary_names_its_three_house_rules_and_their_values() -> None:
    assert described(PRESETS["house"]) == "house (min team bid 4, 10 for 200, Boston +200)"
    assert summary(preset("house", ten_for_200_value=300, boston_value=500)) == (
        "min team bid 4, 10 for 300, Boston +500")
    assert summary(preset("classic", boston="win", boston_value=500)) == "Boston wins the game"
    assert summary(preset("classic", boston_value=500)) == ""  # no Boston: its value plays no part
    assert summary(preset("piki")) == "blind nil when 200 behind, dealer bids first, dealer leads first"


def test_option_sets_any_rule_option_over_the_preset() -> None:
    import argparse

    from p2pspades.cli.common import option_value, rules_from_args
    from p2pspades.errors import LocalError

    assert option_value("deuces_high=true") == ("deuces_high", True)
    assert option_value("bag_limit = 7") == ("bag_limit", 7)
    assert option_value("losing_threshold=none") == ("losing_threshold", None)
    assert option_value("bid_mode=whiz") == ("bid_mode", "whiz")
    assert option_value("removed=2C,2D") == ("removed", ("2C", "2D"))
    for bad, why in [("deuces_high", "NAME=VALUE"), ("colour=red", "NAME=VALUE"), ("preset=x", "NAME=VALUE"),
                     ("nil=maybe", "true or false"), ("target=lots", "a whole number")]:
        with pytest.raises(LocalError, match=why):
            option_value(bad)
    args = argparse.Namespace(rules="suicide", players=None, target=None,
                              option=["deuces_high=true", "blind_nil=false"])
    rules = rules_from_args(args)
    assert rules.deuces_high and not rules.blind_nil
    assert (rules.bid_mode, rules.preset) == ("suicide", "suicide")
    args.option = ["blind_bid=true"]  # not with suicide bids
    with pytest.raises(LocalError, match="blind_bid needs bid_mode 'free'"):
        rules_from_args(args)
