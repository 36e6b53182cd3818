"""`p2pspades play`: a game against bots. With `--auto`, every seat is a bot and there is no UI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from p2pspades import crypto, log
from p2pspades.audit import verify_file
from p2pspades.bots import RandomBot
from p2pspades.cli.common import add_game_options, default_log_path, fail, progress_line, rules_from_args
from p2pspades.errors import LocalError
from p2pspades.rules import RuleSet
from p2pspades.table import Accepted, GameEnded, Table
from p2pspades.table.harness import Player, Wire, new_game, seeded_entropy

BOT_NAMES = ("North", "East", "South", "West", "Centre")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("play", help="play a game against bots (the main job)")
    add_game_options(p)
    p.add_argument("--name", default="You", help="your name at the table")
    p.add_argument("--auto", action="store_true", help="every seat is a bot; no UI, progress on the terminal")
    p.add_argument("--log", metavar="PATH", help="where to write the signed game log")
    p.add_argument("--seed", type=int, help="seed for the bots' choices (never the cryptography)")
    p.add_argument("--bot", choices=("heuristic", "random"), default="heuristic", help="which bot plays")
    p.add_argument("--no-color", action="store_true", help="monochrome display")
    p.set_defaults(run=run)


def make_bot(kind: str, seed: int) -> Player:
    if kind == "heuristic":
        try:
            from p2pspades.bots import HeuristicBot  # type: ignore[attr-defined]

            return HeuristicBot(seed)  # type: ignore[no-any-return]
        except ImportError:
            pass
    return RandomBot(seed)


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
    except LocalError as exc:
        return fail("play", str(exc))
    if args.auto:
        return run_auto(rules, args)
    try:
        from p2pspades.ui.play import run_play  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return fail("play", "the terminal UI is not available; use --auto for a bots-only game")
    return int(run_play(rules, args))


def run_auto(rules: RuleSet, args: argparse.Namespace) -> int:
    """A bots-only game over the in-memory wiring, with progress and a signed log."""
    seed = args.seed if args.seed is not None else int.from_bytes(crypto.new_seed()[:4], "big")
    n = rules.players
    identities = [crypto.Identity.generate() for _ in range(n)]
    names = list(BOT_NAMES[:n])
    genesis = new_game(rules, identities, names, table_name="p2pspades auto game")
    tables = [Table(genesis, identities[i], entropy=seeded_entropy(crypto.new_seed())) for i in range(n)]
    wire = Wire(tables, [make_bot(args.bot, seed * 10 + i) for i in range(n)])
    path = Path(args.log) if args.log else default_log_path(tables[0].game_id)
    try:
        writer = log.LogWriter(path)
    except (OSError, LocalError) as exc:
        return fail("play", f"cannot write the log {path}: {exc}")
    print(f"p2pspades: {n} bots, rules {rules.preset or 'custom'}, target {rules.target}; log: {path}", flush=True)
    with writer:
        writer.append(genesis)
        watched = tables[0]
        for seat in range(n):
            wire._record(seat, [])
        seen = 0
        while True:
            progressed = wire.step()
            events = wire.events[0][seen:]
            seen = len(wire.events[0])
            for ev in events:
                if isinstance(ev, Accepted):
                    writer.append(ev.raw)
            for line in progress_line(watched, list(events)):
                print(line, flush=True)
            if not progressed or any(isinstance(ev, GameEnded) for ev in events) and watched.finished:
                break
    verdict = verify_file(path)
    print(f"log written to {path}: {verdict.summary}")
    if watched.status != "complete":
        print(f"the game did not complete: {watched.status}", file=sys.stderr)
        return 1
    return 0
