"""A game on this machine only: you at seat 0 through the full-screen UI, bots at the other seats.

All tables run in memory in one asyncio loop: every entry one table sends is handed to the others, exactly
the entries the ZeroMQ mesh would carry, and every one is checked by every table. It is the development
and test bed of the UI; `p2pspades play` runs the same screen with the bots as real peers.

    python -m p2pspades.ui.local [--rules PRESET] [--target N] [--name NAME] [--seed TEXT]
                                 [--bot heuristic|random] [--bot-delay S] [--no-color] [--log FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import secrets
import sys
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from p2pspades import crypto, log
from p2pspades.bots import RandomBot
from p2pspades.errors import LocalError
from p2pspades.rules import PRESETS, Action, RuleSet, RuleSetError, preset
from p2pspades.table import Accepted, Decision, DecisionKind, Event, Table, Wanted
from p2pspades.table.harness import new_game, seeded_entropy
from p2pspades.ui.app import create_app, run_alongside
from p2pspades.ui.state import HumanPlayer, UiState

Bot = Callable[[Decision], Action]
HUMAN = 0
BOT_NAMES = ("West", "North", "East", "South", "Centre")

#: exit codes of a local game
EXIT_COMPLETE, EXIT_VIOLATION, EXIT_ABANDONED, EXIT_QUIT = 0, 1, 3, 0


def default_bots(n: int, seed: int) -> list[Bot]:
    """The heuristic bot where it is available, else the random bot; one per seat after ours."""
    try:
        from p2pspades.bots import HeuristicBot  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        return [RandomBot(seed * 10 + seat) for seat in range(1, n)]
    return [HeuristicBot(seed * 10 + seat) for seat in range(1, n)]


class LocalGame:
    """One in-memory game: N tables, a `UiState` for seat 0 and its `HumanPlayer`, bots for the others."""

    def __init__(
        self,
        rules: RuleSet,
        *,
        name: str = "You",
        seed: bytes | None = None,
        bots: Sequence[Bot] | None = None,
        bot_delay: float = 0.0,
        log_path: str | Path | None = None,
        table_name: str = "local table",
    ) -> None:
        n = rules.players
        if bots is not None and len(bots) != n - 1:
            raise LocalError(f"{n - 1} bots needed for a {n}-player game, {len(bots)} given")
        if seed is None:
            identities = [crypto.Identity.generate() for _ in range(n)]
            entropies: list[Callable[[int], bytes]] = [secrets.token_bytes for _ in range(n)]
            game_id = None
            bot_seed = secrets.randbelow(1 << 30)
        else:
            identities = [
                crypto.Identity.from_seed(hashlib.sha256(seed + bytes([i])).digest()) for i in range(n)
            ]
            entropies = [seeded_entropy(seed + b"entropy" + bytes([i])) for i in range(n)]
            game_id = hashlib.sha256(seed + b"game").digest()[:16]
            bot_seed = int.from_bytes(hashlib.sha256(seed + b"bots").digest()[:4], "big")
        names = [name, *BOT_NAMES[: n - 1]]
        genesis = new_game(rules, identities, names, game_id, table_name)
        self.tables = [Table(genesis, identities[i], entropy=entropies[i]) for i in range(n)]
        self.bots: list[Bot] = list(bots) if bots is not None else default_bots(n, bot_seed)
        self.state = UiState(HUMAN, self.tables[HUMAN].setup)
        for seat in range(1, n):
            self.state.set_connection(seat, "bot, in memory")
        self.player = HumanPlayer(self.state)
        self.bot_delay = bot_delay
        self._queue: deque[tuple[int, bytes]] = deque()
        self._writer: log.LogWriter | None = None
        if log_path is not None:
            self.open_log(log_path)

    def open_log(self, path: str | Path) -> None:
        """Write our table's signed log to `path`: every entry so far, then each one as it is accepted."""
        if self._writer is not None:
            raise LocalError("this game already writes a log")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        writer = log.LogWriter(path)
        for raw in self.table.entries:
            writer.append(raw)
        self._writer = writer

    @property
    def table(self) -> Table:
        """Our own table (seat 0)."""
        return self.tables[HUMAN]

    def _record(self, seat: int, events: list[Event]) -> None:
        table = self.tables[seat]
        for ev in events:
            if isinstance(ev, Wanted):
                for other in self.tables:
                    if other is not table:
                        self._queue.extend((seat, raw) for raw in other.entries[ev.first : ev.first + 64])
            elif seat == HUMAN and isinstance(ev, Accepted) and self._writer is not None:
                self._writer.append(ev.raw)
        for out in table.take_outgoing():
            self._queue.extend((dest, out.raw) for dest in range(len(self.tables)) if dest != seat)
        if seat == HUMAN:
            self.state.on_events(events)
            self.state.refresh(table)

    async def play(self) -> None:
        """Run the game until it ends or nothing more can happen (the UI's person answers our decisions)."""
        for seat in range(len(self.tables)):
            self._record(seat, [])
        steps = 0
        while not self.table.finished:
            steps += 1
            if steps % 64 == 0:
                await asyncio.sleep(0)  # let the screen draw and the keys be read
            if self._queue:
                dest, raw = self._queue.popleft()
                self._record(dest, self.tables[dest].receive(raw))
                continue
            if await self._bots_act():
                continue
            decision = self.table.pending_decision()
            if decision is None:
                break
            action = await self.player(decision)
            self._record(HUMAN, self.table.decide(action))
        while self._queue:  # the others' last entries (e.g. their end-of-game signatures)
            dest, raw = self._queue.popleft()
            self._record(dest, self.tables[dest].receive(raw))
        if not self.table.finished:
            waiting = self.table.waiting_for()
            self.state.stop(f"the game cannot go on (waiting for {waiting})")

    async def _bots_act(self) -> bool:
        for seat in range(1, len(self.tables)):
            table = self.tables[seat]
            decision = table.pending_decision()
            if decision is None:
                continue
            if self.bot_delay and decision.kind in (DecisionKind.PLAY, DecisionKind.BID):
                await asyncio.sleep(self.bot_delay)
            self._record(seat, table.decide(self.bots[seat - 1](decision)))
            return True
        return False

    async def run(self, app: Application[None]) -> int:
        """Play with `app` on screen until the person leaves it. Returns the exit code."""
        try:
            await run_alongside(app, self.play())
        finally:
            self.close()
        return self.exit_code()

    def exit_code(self) -> int:
        status = self.table.status
        if status == "complete":
            return EXIT_COMPLETE
        if status == "violation":
            return EXIT_VIOLATION
        if status == "abandoned":
            return EXIT_ABANDONED
        return EXIT_QUIT

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
    bots: Sequence[Bot] | None = None,
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
    parser = argparse.ArgumentParser(
        prog="python -m p2pspades.ui.local", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--rules", default="classic", help=f"rule preset: {', '.join(PRESETS)}")
    parser.add_argument("--target", type=int, help="score that wins the game")
    parser.add_argument("--name", default="You", help="your name at the table")
    parser.add_argument("--seed", help="make the game reproducible (identities, deal and bots)")
    parser.add_argument("--bot", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="seconds a bot waits before it plays")
    parser.add_argument("--no-color", action="store_true", help="monochrome display")
    parser.add_argument("--log", metavar="FILE", help="write our signed game log here")
    args = parser.parse_args(argv)
    try:
        rules = preset(args.rules, **({"target": args.target} if args.target is not None else {}))
    except RuleSetError as exc:
        print(f"p2pspades: {exc}", file=sys.stderr)
        return 2
    seed = args.seed.encode() if args.seed is not None else None
    bots: list[Bot] | None = None
    if args.bot == "random":
        base = int.from_bytes(hashlib.sha256(seed or secrets.token_bytes(8)).digest()[:4], "big")
        bots = [RandomBot(base + seat) for seat in range(1, rules.players)]
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print("p2pspades: the game needs a terminal", file=sys.stderr)
        return 2
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
        print(f"p2pspades: {exc}", file=sys.stderr)
        return 2
    if args.log:
        print(f"game log written to {args.log}")
    return code


if __name__ == "__main__":
    sys.exit(main())
