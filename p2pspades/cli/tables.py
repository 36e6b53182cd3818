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
from p2pspades.exits import ExitCode
from p2pspades.net.discovery import browse
from p2pspades.printable import pad, printable, width


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "tables",
        help="list the tables on the LAN",
        description="Listen for tables advertised on the LAN and list them: name, rules, free seats, host "
        "key fingerprint and address. Nothing advertised is trusted: the lobby checks the host's signatures.",
    )
    p.add_argument("--timeout", type=float, default=3.0, metavar="S", help="how long to listen (default 3)")
    p.add_argument("--interface", action="append", metavar="ADDR",
                   help="listen on this interface only (repeatable; default: every interface)")
    p.add_argument("--json", action="store_true", help="one JSON object per table")
    p.set_defaults(run=run)


T = TypeVar("T")
SPINNER = "|/-\\"


async def with_spinner(work: Awaitable[T], seconds: float, *, quiet: bool = False) -> T:
    """Run `work` while stderr shows that we are listening (a spinner on a terminal, one line otherwise)."""
    task = asyncio.ensure_future(work)
    if quiet:
        return await task
    if not sys.stderr.isatty():
        print(f"listening for tables on the LAN for {seconds:g} s ...", file=sys.stderr, flush=True)
        return await task
    start, k = time.monotonic(), 0
    try:
        while not task.done():
            elapsed = min(time.monotonic() - start, seconds)
            sys.stderr.write(f"\r{SPINNER[k % len(SPINNER)]} listening for tables on the LAN "
                             f"{elapsed:4.1f} / {seconds:g} s")
            sys.stderr.flush()
            k += 1
            await asyncio.wait([task], timeout=0.1)
    finally:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()
    return task.result()


def run(args: argparse.Namespace) -> int:
    if not 0.1 <= args.timeout <= 600:
        return fail("tables", f"--timeout must be between 0.1 and 600 seconds, not {args.timeout:g}")
    found = asyncio.run(with_spinner(browse(args.timeout, args.interface), args.timeout, quiet=args.json))
    found.sort(key=lambda t: (t.name, t.endpoint))
    if args.json:
        for t in found:
            print(json.dumps({"name": t.name, "rules": t.rules, "options": t.options, "players": t.players,
                              "free": t.free, "protocol": t.protocol, "host_fingerprint": t.host_fingerprint,
                              "address": f"{t.address}:{t.port}"}))
        return ExitCode.OK
    if not found:
        print(f"no table answered within {args.timeout:g} s (where multicast is blocked: join HOST:PORT)")
        return ExitCode.OK
    names = [printable(t.name) for t in found]
    columns = max(width(name) for name in names)
    print(f"{pad('table', columns)}  {'rules':<12} {'free':>9}  {'protocol':<8}  {'host key':<19}  join with")
    for t, name in zip(found, names, strict=True):
        free = f"{t.free} of {t.players}"
        print(f"{pad(name, columns)}  {pad(printable(t.rules), 12)} {free:>9}  {t.protocol:<8}  "
              f"{pad(printable(t.host_fingerprint), 19)}  p2pspades join {printable(t.address)}:{t.port}")
        if t.options:
            print(f"{pad('', columns)}  options: {printable(t.options)}")
    return ExitCode.OK
