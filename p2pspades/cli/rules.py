"""`p2pspades rules [PRESET]`: every rule option with its type, values, default and meaning; with a preset,
the preset's value beside the default, marked where it differs."""

from __future__ import annotations

import argparse
import json

from p2pspades.cli.common import fail
from p2pspades.describe.rules import options, summary, value_text
from p2pspades.exits import ExitCode
from p2pspades.rules import PRESETS


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "rules",
        help="list the rule options and presets",
        description="Print every rule option: its type and values, its default (the classic game) and what "
        "it means. With a preset, also the preset's value, with * where it differs from the default.",
    )
    p.add_argument("preset", nargs="?", metavar="PRESET", help=f"a preset: {', '.join(PRESETS)}")
    p.add_argument("--json", action="store_true", help="one JSON object per option")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    name: str | None = args.preset
    if name is not None and name not in PRESETS:
        return fail("rules", f"unknown preset {name!r}; the presets are {', '.join(PRESETS)}")
    chosen = PRESETS[name] if name is not None else None
    if args.json:
        for option in options():
            row: dict[str, object] = {"name": option.name, "type": option.type, "allowed": option.allowed,
                                      "default": _plain(option.default), "meaning": option.meaning}
            if chosen is not None:
                mine = getattr(chosen, option.name)
                row |= {"preset": name, "value": _plain(mine), "differs": mine != option.default}
            print(json.dumps(row, ensure_ascii=False))
        return ExitCode.OK
    for line in lines(name):
        print(line)
    return ExitCode.OK


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def lines(name: str | None) -> list[str]:
    """The listing for people: a row per option (name, default, the preset's value, type and values), its
    meaning indented below."""
    chosen = PRESETS[name] if name is not None else None
    rows = []
    for option in options():
        default = value_text(option.default)
        if chosen is None:
            value = ""
        else:
            mine = getattr(chosen, option.name)
            value = value_text(mine) + (" *" if mine != option.default else "")
        rows.append((option.name, default, value, f"{option.type}: {option.allowed}", option.meaning))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    head = ["option", "default", name or ""]
    widths = [max(w, len(h)) for w, h in zip(widths, head, strict=True)]

    def cells(row: tuple[str, ...]) -> str:
        out = f"{row[0]:<{widths[0]}}  {row[1]:<{widths[1]}}  "
        if chosen is not None:
            out += f"{row[2]:<{widths[2]}}  "
        return out + row[3]

    out = ["Rule options. The default is the classic partnership game."]
    if chosen is not None:
        said = summary(chosen)
        out.append(f"Preset {name}: " + (f"* marks what it changes ({said})." if said else "the defaults."))
    out += ["", cells((*head, "type: values"))]
    for row in rows:
        out += [cells(row), f"    {row[4]}"]
    out += ["", f"Presets: {', '.join(PRESETS)}. \"hand size\" is the number of tricks in a hand."]
    return out
