"""`p2pspades tables`: the tables advertised on the LAN (zeroconf), with what a person needs to pick one."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Awaitable
from typing import TypeVar

from p2pspades.cli.common import fail
from p2pspades.describe.tables import options_text
from p2pspades.exits import ExitCode
from p2pspades.i18n import _, number
from p2pspades.net.discovery import TableAd, browse
from p2pspades.printable import pad, printable, width
from p2pspades.rules import RuleSet
from p2pspades.rules.options import codes


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "tables",
        help=_("list the tables on the LAN"),
        description=_("Listen for tables advertised on the LAN and list them: name, rules, free seats, host "
                      "key fingerprint and address. Nothing advertised is trusted: the lobby checks the "
                      "host's signatures."),
    )
    p.add_argument("--timeout", type=float, default=3.0, metavar=_("S"),
                   help=_("how long to listen, in seconds (default 3)"))
    p.add_argument("--interface", action="append", metavar=_("ADDR"),
                   help=_("listen on this interface only (repeatable; default: every interface)"))
    p.add_argument("--json", action="store_true", help=_("one JSON object per table"))
    p.set_defaults(run=run)


T = TypeVar("T")
SPINNER = "|/-\\"


async def with_spinner(work: Awaitable[T], seconds: float, *, quiet: bool = False) -> T:
    """Run `work` while stderr shows that we are listening (a spinner on a terminal, one line otherwise)."""
    task = asyncio.ensure_future(work)
    if quiet:
        return await task
    if not sys.stderr.isatty():
        print(_("listening for tables on the LAN for {seconds} s ...").format(
            seconds=number(seconds, 1, fixed=False)), file=sys.stderr, flush=True)
        return await task
    start, k = time.monotonic(), 0
    try:
        while not task.done():
            elapsed = min(time.monotonic() - start, seconds)
            sys.stderr.write(f"\r{SPINNER[k % len(SPINNER)]} " + _(
                "listening for tables on the LAN {elapsed} / {seconds} s").format(
                    elapsed=number(elapsed, 1), seconds=number(seconds, 1, fixed=False)))
            sys.stderr.flush()
            k += 1
            await asyncio.wait([task], timeout=0.1)
    finally:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()
    return task.result()


def run(args: argparse.Namespace) -> int:
    if not 0.1 <= args.timeout <= 600:
        return fail("tables", _("--timeout must be between 0.1 and 600 seconds, not {seconds}").format(
            seconds=f"{args.timeout:g}"))
    found = asyncio.run(with_spinner(browse(args.timeout, args.interface), args.timeout, quiet=args.json))
    found.sort(key=lambda t: (t.name, t.endpoint))
    if args.json:
        for t in found:
            base = t.rule_set if t.rule_set is not None else None
            print(json.dumps({"name": t.name, "rules": t.rules, "options": options_text(t),
                              "rule_options": None if base is None else dict(codes(base, RuleSet())),
                              "players": t.players, "free": t.free, "protocol": t.protocol,
                              "host_fingerprint": t.host_fingerprint, "address": f"{t.address}:{t.port}"},
                             ensure_ascii=False))
        return ExitCode.OK
    if not found:
        print(_("no table answered within {seconds} s (where multicast is blocked: join HOST:PORT)").format(
            seconds=number(args.timeout, 1, fixed=False)))
        return ExitCode.OK
    print("\n".join(listing(found)))
    return ExitCode.OK


def listing(found: list[TableAd]) -> list[str]:
    """The tables for people: a row each (name, rules, free seats, protocol, host key), and below it the
    options in force, if any, and the command that joins it."""
    # TRANSLATORS: the headings of the columns of `p2pspades tables`
    head = [_("table"), _("rules"), _("free"), _("protocol"), _("host key")]
    rows = [[printable(t.name), printable(t.rules),
             # TRANSLATORS: free seats of all seats: "2 of 4"
             _("{free} of {seats}").format(free=t.free, seats=t.players), str(t.protocol),
             printable(t.host_fingerprint)] for t in found]
    widths = [max(width(row[i]) for row in (head, *rows)) for i in range(len(head))]
    lines = []
    for k, row in enumerate((head, *rows)):
        cells = [pad(cell, w) if i != 2 else " " * (w - width(cell)) + cell
                 for i, (cell, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
        if not k:
            continue
        t, indent = found[k - 1], " " * (widths[0] + 2)
        if said := options_text(t):
            lines.append(indent + _("options: {options}").format(options=printable(said)))
        lines.append(indent + _("join with: {command}").format(
            command=f"p2pspades join {printable(t.address)}:{t.port}"))
    return lines
