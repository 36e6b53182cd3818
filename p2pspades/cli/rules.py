"""`p2pspades rules [PRESET]`: every rule option with its type, values, default and meaning; with a preset,
the preset's value beside the default, marked where it differs."""

from __future__ import annotations

import argparse
import json
import textwrap

from p2pspades.cli.common import fail
from p2pspades.describe.rules import meaning, summary, values_text
from p2pspades.exits import ExitCode
from p2pspades.i18n import _
from p2pspades.printable import pad, width
from p2pspades.rules import PRESETS
from p2pspades.rules.options import options, value_text


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "rules",
        help=_("list the rule options and presets"),
        description=_("Print every rule option: its type and values, its default (the classic game) and "
                      "what it means. With a preset, also the preset's value, with * where it differs from "
                      "the default."),
    )
    p.add_argument("preset", nargs="?", metavar=_("PRESET"),
                   help=_("a preset: {presets}").format(presets=", ".join(PRESETS)))
    p.add_argument("--json", action="store_true",
                   help=_("one JSON object per option (its type and values as the protocol writes them)"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    name: str | None = args.preset
    if name is not None and name not in PRESETS:
        return fail("rules", _("unknown preset {name!r}; the presets are {presets}").format(
            name=name, presets=", ".join(PRESETS)))
    chosen = PRESETS[name] if name is not None else None
    if args.json:
        for option in options():
            row: dict[str, object] = {"name": option.name, "type": option.type, "allowed": option.allowed,
                                      "default": _plain(option.default), "meaning": meaning(option.name)}
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
        values = values_text(option.type, option.allowed)
        rows.append((option.name, default, value, values, meaning(option.name)))
    head = [_("option"), _("default"), name or ""]
    widths = [max(width(text) for text in (h, *(row[i] for row in rows))) for i, h in enumerate(head)]

    def cells(row: tuple[str, ...]) -> str:
        out = f"{pad(row[0], widths[0])}  {pad(row[1], widths[1])}  "
        if chosen is not None:
            out += f"{pad(row[2], widths[2])}  "
        return out + row[3]

    out = [_("Rule options. The default is the classic partnership game.")]
    if chosen is not None:
        said = summary(chosen)
        out += wrap(_("Preset {name}: * marks what it changes ({options}).").format(name=name, options=said)
                    if said else _("Preset {name}: the defaults.").format(name=name))
    out += ["", cells((*head, _("values")))]
    for row in rows:
        out += [cells(row), *wrap(row[4], indent="    ")]
    out += ["", *wrap(_("Presets: {presets}. \"hand size\" is the number of tricks in a hand.").format(
        presets=", ".join(PRESETS)))]
    return out


def wrap(text: str, *, indent: str = "", columns: int = 80) -> list[str]:
    """`text` in lines of at most `columns` columns, broken between words."""
    return textwrap.wrap(text, columns, initial_indent=indent, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False)
