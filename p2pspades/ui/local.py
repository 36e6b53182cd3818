"""A game on this machine only: you at seat 0 through the full-screen UI, bots at the other seats.

All tables run in memory in one asyncio loop, wired by the same `table.harness.Wire` as the tests: every
entry one table sends is handed to the others, as the ZeroMQ mesh would carry it, and checked by every
table. It is the development and test bed of the UI; `p2pspades play` runs the same screen with the bots
as real peers.

    python -m p2pspades.ui.local [--rules PRESET] [--target N] [--name NAME] [--seed TEXT]
                                 [--bot LEVEL] [--bot-delay S] [--no-color] [--ascii] [--trick-pause S]
                                 [--log FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from p2pspades import i18n, log
from p2pspades.bots import BOT_KINDS, DEFAULT_BOT, SEAT_NAMES, make_bot
from p2pspades.errors import LocalError
from p2pspades.exits import ExitCode, game_exit_code
from p2pspades.i18n import _
from p2pspades.rules import PRESETS, RuleSet, RuleSetError, preset
from p2pspades.table import DecisionKind, Event, Table
from p2pspades.table.harness import Player, Wire, new_tables
from p2pspades.ui.app import create_app, run_alongside
from p2pspades.ui.players import HumanPlayer
from p2pspades.ui.prefs import add_screen_options, apply_screen_options
from p2pspades.ui.state import UiState

HUMAN = 0


def default_bots(n: int, seed: int, level: str = DEFAULT_BOT) -> list[Player]:
    """A bot of `level` (`BOT_LEVELS`) for each seat after ours."""
    return [make_bot(level, seed * 10 + seat) for seat in range(1, n)]


class LocalGame:
    """One in-memory game: N tables on the harness's `Wire`, a `UiState` for seat 0 and its `HumanPlayer`,
    bots for the others (named by seat after `names`, but seat 0, which is `name`)."""

    def __init__(
        self,
        rules: RuleSet,
        *,
        name: str = "You",
        seed: bytes | None = None,
        bots: Sequence[Player] | None = None,
        bot_delay: float = 0.0,
        log_path: str | Path | None = None,
        table_name: str = "local table",
        names: Sequence[str] = SEAT_NAMES,
    ) -> None:
        n = rules.players
        if bots is not None and len(bots) != n - 1:
            raise LocalError(f"{n - 1} bots needed for a {n}-player game, {len(bots)} given")
        if seed is None:
            bot_seed = secrets.randbelow(1 << 30)
        else:
            bot_seed = int.from_bytes(hashlib.sha256(seed + b"bots").digest()[:4], "big")
        tables = new_tables(rules, seed=seed, names=[name, *names[1:n]], table_name=table_name)
        self.bots: list[Player] = list(bots) if bots is not None else default_bots(n, bot_seed)
        self.wire = Wire(tables, [None, *self.bots], on_events=self._on_events)
        self.state = UiState(HUMAN, self.table.setup)
        for seat in range(1, n):
            self.state.set_connection(seat, _("in memory"))
        self.state.set_bots({seat: HUMAN for seat in range(1, n)})
        self.state.resumable = False
        self.player = HumanPlayer(self.state)
        self.bot_delay = bot_delay
        self._writer: log.LogWriter | None = None
        self._written = 0
        if log_path is not None:
            self.open_log(log_path)

    def open_log(self, path: str | Path) -> None:
        """Write our table's signed log to `path`: every frame it took so far (entries, and the votes and
        refusals of abandonment claims), then each one as it is taken."""
        if self._writer is not None:
            raise LocalError("this game already writes a log")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._writer = log.LogWriter(path)
        self._written = 0
        self._write_records()

    def _write_records(self) -> None:
        if self._writer is not None:
            for raw in self.table.records[self._written:]:
                self._writer.append(raw)
            self._written = len(self.table.records)

    @property
    def tables(self) -> list[Table]:
        return self.wire.tables

    @property
    def table(self) -> Table:
        """Our own table (seat 0)."""
        return self.wire.tables[HUMAN]

    def _on_events(self, seat: int, events: list[Event]) -> None:
        if seat != HUMAN:
            return
        self._write_records()
        self.state.on_events(events)
        self.state.refresh(self.table)

    async def play(self) -> None:
        """Run the game until it ends or nothing more can happen (the UI's person answers our decisions)."""
        wire = self.wire
        wire.start()
        steps = 0
        while not self.table.finished:
            steps += 1
            if steps % 64 == 0:
                await asyncio.sleep(0)  # let the screen draw and the keys be read
            if wire.deliver():
                continue
            pending = wire.next_decision()
            if pending is not None:  # a bot's turn
                seat, asked = pending
                self.state.set_thinking(seat, True)  # the screen says "thinking…" for the seat meanwhile
                try:
                    if self.bot_delay and asked.kind in (DecisionKind.PLAY, DecisionKind.BID):
                        await asyncio.sleep(self.bot_delay)
                    # the bot works in a thread: the screen keeps running while it thinks
                    action = await asyncio.to_thread(self.bots[seat - 1], asked)
                finally:
                    self.state.set_thinking(seat, False)
                wire.decide(seat, action)
                continue
            decision = self.table.pending_decision()
            if decision is None:
                break
            wire.decide(HUMAN, await self.player(decision))
        while wire.deliver():  # the others' last entries (e.g. their end-of-game signatures)
            pass
        if not self.table.finished:
            waiting = self.table.waiting_for()
            said = _("nothing more can happen") if waiting is None else self.state.words.waiting(*waiting)
            self.state.stop(_("the game cannot go on: {waiting}").format(waiting=said))

    async def run(self, app: Application[None]) -> int:
        """Play with `app` on screen until the person leaves it. Returns the exit code."""
        try:
            await run_alongside(app, self.play())
        finally:
            self.close()
        return self.exit_code()

    def exit_code(self) -> ExitCode:
        return game_exit_code(self.table.status)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None


async def run_local_game(
    rules: RuleSet,
    *,
    name: str = "You",
    app_input: Input | None = None,
    app_output: Output | None = None,
    seed: bytes | None = None,
    bots: Sequence[Player] | None = None,
    bot_delay: float = 0.3,
    color: bool = True,
    log_path: str | Path | None = None,
) -> int:
    """Play one game in memory against bots on the full screen. Exit code: 0 the game completed, 1 a
    violation stopped it, 3 abandoned; also 0 when the person chose to leave before the end."""
    game = LocalGame(rules, name=name, seed=seed, bots=bots, bot_delay=bot_delay, log_path=log_path)
    app = create_app(game.state, input=app_input, output=app_output, color=color)
    return await game.run(app)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m p2pspades.ui.local`: in the language `P2PSPADES_LANG` or the locale chooses (the commands'
    own order, without `--lang` and a profile)."""
    try:
        i18n.use(i18n.choose(None, os.environ))
    except i18n.UnknownLanguage:
        i18n.use(i18n.fallback(os.environ))
    parser = argparse.ArgumentParser(
        prog="python -m p2pspades.ui.local",
        description=_("Play one game against bots on the full screen, the bots' tables in memory, in one "
                      "process."),
    )
    parser.add_argument("--rules", default="classic", metavar=_("RULES"),
                        help=_("the rule preset: {presets}").format(presets=", ".join(PRESETS)))
    parser.add_argument("--target", type=int, metavar="N", help=_("the score that wins the game"))
    parser.add_argument("--name", default=_("You"), metavar=_("NAME"), help=_("your name at the table"))
    parser.add_argument("--seed", metavar=_("TEXT"),
                        help=_("make the game reproducible (identities, deal and bots)"))
    parser.add_argument("--bot", choices=BOT_KINDS, default=DEFAULT_BOT, metavar=_("LEVEL"),
                        help=_("easy, normal or expert; also heuristic (the same as normal) and random"))
    parser.add_argument("--bot-delay", type=float, default=0.3, metavar=_("SECONDS"),
                        help=_("seconds a bot waits before it plays"))
    add_screen_options(parser)
    parser.add_argument("--log", metavar=_("FILE"), help=_("write our signed game log here"))
    args = parser.parse_args(argv)
    try:
        apply_screen_options(args)
        rules = preset(args.rules, **({"target": args.target} if args.target is not None else {}))
    except (RuleSetError, ValueError) as exc:
        print(f"p2pspades: {i18n.said(exc)}", file=sys.stderr)
        return ExitCode.FAILED
    seed = args.seed.encode() if args.seed is not None else None
    bots: list[Player] | None = None
    if args.bot != DEFAULT_BOT:
        base = int.from_bytes(hashlib.sha256(seed or secrets.token_bytes(8)).digest()[:4], "big")
        bots = default_bots(rules.players, base, args.bot)
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print("p2pspades: " + _("the game needs a terminal"), file=sys.stderr)
        return ExitCode.FAILED
    try:
        code = asyncio.run(
            run_local_game(
                rules,
                name=args.name,
                seed=seed,
                bots=bots,
                bot_delay=max(0.0, args.bot_delay),
                color=not args.no_color,
                log_path=args.log,
            )
        )
    except (OSError, LocalError) as exc:
        print(f"p2pspades: {i18n.said(exc)}", file=sys.stderr)
        return ExitCode.FAILED
    if args.log:
        print(_("game log written to {path}").format(path=args.log))
    return code


if __name__ == "__main__":
    sys.exit(main())
