"""`p2pspades play`: you against bots, every seat a real peer over ZeroMQ on 127.0.0.1.

The bots are peers of their own (own identity, sockets and game directory) run in this process; the game goes
through the same lobby, mesh, logs and crash recovery as a game across the LAN. `--auto` lets the built-in
bot play our seat too and prints the progress; `--local` keeps everything in memory (no sockets).

This module also holds what `host`, `join` and `resume` share: the network options and the glue between a
running peer and the full-screen UI (what `--auto` prints of the game: `progress.py`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import math
import os
import shlex
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from p2pspades import crypto, log
from p2pspades.audit import Status as Verdict
from p2pspades.audit import tell, verify_file
from p2pspades.bots import DEFAULT_BOT
from p2pspades.bots import make_bot as make_local_bot
from p2pspades.cli.again import again_lines, play_words
from p2pspades.cli.common import (
    ProgressLines,
    add_bot_option,
    add_game_options,
    add_profile_option,
    default_name,
    fail,
    resume_command,
    rules_from_args,
    run_as_profile,
)
from p2pspades.cli.echo import say
from p2pspades.cli.page import add_web_options
from p2pspades.cli.page import check as check_web
from p2pspades.cli.progress import Progress, counting_down, final_lines, status_text
from p2pspades.describe.game import seat_names, status_words
from p2pspades.describe.rules import described
from p2pspades.describe.tables import seat_map
from p2pspades.errors import LocalError
from p2pspades.exits import ExitCode, game_exit_code, game_exit_help
from p2pspades.i18n import N_, _, said
from p2pspades.net.group import LocalGroup, Settings
from p2pspades.net.lobby_seats import TableInfo
from p2pspades.net.peer import Peer
from p2pspades.net.seats import (
    Seat,
    bot_seats,
    check_log_path,
    make_bot,
    player_identity,
)
from p2pspades.net.session import HostedTable
from p2pspades.net.status import Phase, Status
from p2pspades.net.store import StoreError
from p2pspades.paths import PLAYER_IDENTITY, data_home, default_log_path, diagnostics_log, profile_name
from p2pspades.rules import RuleSet
from p2pspades.table import GameEnded, Table, TableStatus
from p2pspades.table.harness import Wire, new_tables
from p2pspades.ui.prefs import add_screen_options

UI_MISSING = N_("the full-screen UI is not available ({why}); use --auto (the built-in bot plays your seat)")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help=_("play a game against bots (the main job)"),
        description=_("You against bots. Every seat is a peer over ZeroMQ on 127.0.0.1 with its own keys "
                      "and signed log; --local plays in memory instead.") + " " + game_exit_help(),
    )
    add_game_options(p)
    p.add_argument("--name", default=_("You"), metavar=_("NAME"), help=_("your name at the table"))
    p.add_argument("--seed", type=int, metavar="N",
                   help=_("seed for the bots' choices (never the cryptography)"))
    add_bot_option(p)
    p.add_argument("--local", action="store_true",
                   help=_("no sockets: every table in memory in this process"))
    add_seat_options(p)
    p.set_defaults(run=run)


def add_seat_options(p: argparse.ArgumentParser) -> None:
    """Options of every command that plays a seat: --auto, --log, the step timeouts, the screen (the
    terminal's or the page's), --profile."""
    p.add_argument("--auto", action="store_true",
                   help=_("the built-in bot plays your seat; no UI, progress on the terminal"))
    p.add_argument("--log", metavar=_("PATH"), help=_("where to write the signed game log (default: under "
                                                      "the data directory; the path is printed)"))
    add_timeout_options(p)
    add_screen_options(p)
    add_web_options(p)
    add_profile_option(p)


def add_timeout_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--timeout-auto", type=float, metavar=_("S"),
                   help=_("seconds to wait for a seat's automatic step (shuffle, keys, ...) before we vote "
                          "that it stopped answering (default 60)"))
    p.add_argument("--timeout-decision", type=float, metavar=_("S"),
                   help=_("seconds to wait for a seat's bid or card before we vote that it stopped answering "
                          "(default 600)"))


def timeouts_from(args: argparse.Namespace) -> dict[str, float]:
    """The step timeouts asked for (local policy: nothing of it goes into the genesis)."""
    steps: dict[str, float] = {}
    for key in ("auto", "decision"):
        value = getattr(args, f"timeout_{key}", None)
        if value is not None:
            if not 0.5 <= value <= 86400:
                raise LocalError(_("--timeout-{step} must be between 0.5 and 86400 seconds, not "
                                   "{seconds}").format(step=key, seconds=f"{value:g}"))
            steps[key] = float(value)
    return steps


def settings_from(args: argparse.Namespace) -> Settings:
    return Settings(home=getattr(args, "home", None), timeouts=timeouts_from(args))


def our_seat(args: argparse.Namespace, *, seed: int | None = None) -> Seat:
    """Our seat: the identity of the profile (whatever `--name` says), played by the UI or (with --auto)
    the bot."""
    identity, path = player_identity(profile_name(args.profile), default_name(args.profile),
                                     getattr(args, "home", None))
    level = getattr(args, "bot", DEFAULT_BOT)
    player = make_bot(level, seed) if args.auto else None
    return Seat(identity, path, args.name, player, bot=level, log_path=check_log_path(args.log))


def load_ui(args: argparse.Namespace) -> Any | None:
    """The UI package if the seat is played by a person (the page's screen with --web); None with --auto.
    LocalError if it cannot run."""
    setup_logging(args.auto, getattr(args, "home", None))
    if args.auto:
        return None
    screen = getattr(args, "screen", None)
    if screen is not None:
        from p2pspades.ui.prefs import apply_screen_options

        try:
            apply_screen_options(args)
        except ValueError as exc:
            raise LocalError(said(exc)) from None
        return screen
    try:
        from p2pspades import ui
        from p2pspades.ui import HumanPlayer, UiState, confirm_table, create_app  # noqa: F401
        from p2pspades.ui.prefs import apply_screen_options
    except ImportError as exc:
        raise LocalError(_(UI_MISSING).format(why=said(exc))) from None
    try:
        apply_screen_options(args)
    except ValueError as exc:
        raise LocalError(said(exc)) from None
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise LocalError(_("the game screen needs a terminal; use --auto for a game without one"))
    return ui


def setup_logging(auto: bool, home: Path | None = None) -> Path | None:
    """Warnings (a refused stranger, a dropped frame) go to stderr with --auto; under the full-screen UI
    they go to a file in the data directory instead (its path is returned), so the screen stays clean."""
    root = logging.getLogger("p2pspades")
    root.setLevel(logging.INFO)
    server = logging.getLogger("aiohttp")  # the page's server (--web): its warnings go where ours go
    if auto:
        handler: logging.Handler = logging.StreamHandler(sys.stderr)
        handler.setLevel(logging.WARNING)
        handler.setFormatter(logging.Formatter("p2pspades: %(message)s"))
        root.addHandler(handler)
        return None
    path = diagnostics_log(home)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    root.addHandler(handler)
    server.addHandler(handler)
    server.propagate = False
    return path


# ------------------------------------------------------------------------------------------------ lobby


def lobby_printer(you: bytes | None = None) -> Callable[[TableInfo], None]:
    """Prints the seat map each time it changes while the lobby is open; for a joiner (`you`: its key), also
    that the host is deciding once the table is full."""

    def show(info: TableInfo) -> None:
        say(seat_map(info))
        host = info.at(0)
        if you is not None and host is not None and info.seat_of(you) is not None and not info.free:
            say(_("waiting for {host} to accept you").format(host=host.name))

    return show


# ------------------------------------------------------------------------------------------------ the game


def announce_game(peer: Peer) -> None:
    table = peer.table
    me = table.setup.seats[peer.seat]
    say(_("game {id}: seat {seat} ({name}, key {fingerprint}); log: {log}").format(
        id=table.game_id.hex(), seat=peer.seat, name=me.name, fingerprint=me.fingerprint,
        log=peer.store.log_path))


async def run_group(group: LocalGroup, ui: Any | None, args: argparse.Namespace, *,
                    again: Callable[[Table], list[str]] | None = None) -> int:
    """Play our seat (and the host's bot seats) to the end, then verify our log. Returns the exit code.
    `args`: the command's options (the screen's colours; the profile, `--auto` and the bot, for the command
    that resumes the game); `again`: the lines that say how to play again at this table once the game is
    over ("play again with: ...")."""
    peer = group.main
    announce_game(peer)
    resume = resume_command(peer.table.game_id, args.profile, auto=ui is None, bot=args.bot)
    others = others_elsewhere(peer)
    hangup = Hangup() if others else None  # closing the terminal (or `kill`) leaves the game, with a goodbye
    left = False
    try:
        if ui is None:
            progress = Progress(peer)
            peer.on_event, peer.on_status = progress.on_event, progress.on_status
            await group.run()
        else:
            await _run_with_screen(group, ui, not args.no_color,
                                   None if again is None else lambda: again(peer.table))
            if not peer.table.finished and others and not peer.gave_up:  # the person left the screen
                await farewell(group)
                left = True
    except asyncio.CancelledError:  # Ctrl-C (asyncio.run cancels us, then raises KeyboardInterrupt), SIGHUP
        if peer.table.finished or not others:
            if not peer.table.finished:
                say(_("you stopped the game before the end; carry on with: {command}").format(command=resume))
            raise
        task = asyncio.current_task()
        assert task is not None
        task.uncancel()
        await farewell(group)
        code = finish(peer, again, left=True)
        if hangup is not None and hangup.happened:
            return code
        raise  # Ctrl-C: the goodbye is signed and sent, and the command is interrupted, as Ctrl-C always is
    finally:
        if hangup is not None:
            hangup.release()
        await group.close()
    table = peer.table
    if peer.gave_up:
        for line in nobody_answered(peer, resume):
            say(line)
        return ExitCode.UNANSWERED
    if left:
        return finish(peer, again, left=True)
    if not table.finished:
        say(_("you left before the end; carry on with: {command}").format(command=resume))
        return ExitCode.LEFT
    return finish(peer, again)


def finish(peer: Peer, again: Callable[[Table], list[str]] | None, left: bool = False) -> int:
    """The end of our game, said: the final score, our log's verdict, how to play again; the exit code
    (`left`: our player left it, by a goodbye)."""
    table = peer.table
    if left:
        say(_("you left the game: your goodbye ends it on every table, and your side forfeits"))
    for line in final_lines(table):
        say(line)
    verdict = verify_file(peer.store.log_path)
    say(_("log {path}: {verdict}").format(path=peer.store.log_path, verdict=verdict.summary))
    for line in again(table) if again is not None and not left else ():
        say(line)
    if left:
        return ExitCode.LEFT
    return game_exit_code(table.status, log_violation=verdict.status is Verdict.VIOLATION)


def others_elsewhere(peer: Peer) -> bool:
    """Whether a seat of the game is played by another process than ours (a person's, or their bots): then
    leaving signs a goodbye. With only our own bots, we stop with them and `resume` carries the game on."""
    return bool(set(range(peer.table.seats)) - {peer.seat} - peer.sync.companions)


async def farewell(group: LocalGroup) -> None:
    """Our player leaves a game others play: our goodbye ends it on every table (PROTOCOL.md §5.10). Our
    seats stay up until every seat holds it (`Timing.farewell`, a few seconds, at most)."""
    for each in group.peers:
        each.timing = dataclasses.replace(each.timing, linger=each.timing.farewell)
    group.main.leave()
    say(_("leaving: your goodbye is on its way; staying up to {seconds} s until every seat holds it").format(
        seconds=math.ceil(group.main.timing.farewell)))
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(group.run(), group.main.timing.farewell + 1.0)


class Hangup:
    """Closing the terminal (SIGHUP) or a polite `kill` (SIGTERM) while others play: the game we play is
    cancelled as Ctrl-C cancels it, so that we leave it with a goodbye. After SIGHUP what we print goes
    nowhere: there is no terminal to print to."""

    def __init__(self) -> None:
        self.happened = False
        self._task = asyncio.current_task()
        self._installed: list[int] = []
        loop = asyncio.get_running_loop()
        for name in ("SIGHUP", "SIGTERM"):
            number = getattr(signal, name, None)
            if number is None:
                continue
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(number, self._hang_up, number == getattr(signal, "SIGHUP", None))
                self._installed.append(number)

    def _hang_up(self, terminal_gone: bool) -> None:
        if self.happened:
            return
        self.happened = True
        if terminal_gone:
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                with contextlib.suppress(OSError):
                    os.dup2(devnull, fd)
        if self._task is not None:
            self._task.cancel()

    def release(self) -> None:
        loop = asyncio.get_running_loop()
        for number in self._installed:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(number)
        self._installed = []


def nobody_answered(peer: Peer, resume: str) -> list[str]:
    """What a resumed seat that heard nobody says: the game may have ended without it, whose log tells how,
    the command that compares the logs, and the one that tries again (`resume`)."""
    table = peer.table
    names = [s.name for s in table.setup.seats]
    owners = bot_owners(peer)  # a bot's log is on its runner's computer
    people = sorted({owners.get(seat, seat) for seat in range(len(names))} - {peer.seat})
    whom = _(" or ").join(names[seat] for seat in people) or _("the other players")
    gid = table.game_id.hex()[:12]
    return [
        _("nobody answered within {seconds} s: the other players' programs have stopped, so the game may "
          "have ended without you (the others may have voted that you stopped answering, which ends it on "
          "their tables)").format(seconds=f"{peer.timing.alone:g}"),
        # TRANSLATORS: THEIR_LOG is typed by the player: the path of the other player's log
        _("to know how it ended, ask {whom} for their log of game {id} ('p2pspades games' on their computer "
          "shows where it is), then: {command}").format(
            whom=whom, id=gid, command=f"p2pspades verify {shlex.quote(str(peer.store.log_path))} "
                                       + _("THEIR_LOG")),
        _("if they are still playing, try again with: {command}").format(command=resume),
    ]


def bot_owners(peer: Peer) -> dict[int, int]:
    """The bot seats of the game, each with the seat of the player whose machine runs it, from the seat map
    the lobby agreed (kept beside our log, so a resumed game knows it too); empty if it cannot be read."""
    try:
        seats = peer.store.load_peers().seats
    except (StoreError, OSError):
        return {}
    keys = {s.key: s.seat for s in peer.table.setup.seats}
    return {s.seat: keys[s.owner] for s in seats if s.owner is not None and s.owner in keys}


async def _run_with_screen(group: LocalGroup, ui: Any, color: bool,
                           again: Callable[[], list[str]] | None) -> None:
    """The game screen for our seat (the terminal's, or the page's) while the peers run; leaving the screen
    stops them. `again`: the lines that say how to play again, which the page makes buttons of."""
    peer = group.main
    state = ui.UiState(peer.seat, peer.table.setup)
    peer.player = ui.HumanPlayer(state)
    for bot in group.bots:  # the bots this process runs: their seats say "thinking…" while they choose
        if bot.player is not None:
            bot.player = ui.ThinkingShown(state, bot.seat, bot.player)
    peer.on_event = state.on_event
    peer.on_update = lambda p: state.refresh(p.table)

    def connection(status: Status) -> None:
        for seat in range(len(peer.table.setup.seats)):
            if seat == peer.seat:
                continue
            gone = status.away.get(seat)
            text = (_("connected") if gone is None else _("not connected yet") if gone < 0
                    else _("disconnected {seconds} s").format(seconds=gone))
            if status.waiting_for == seat and gone is not None:
                text = status_text(dataclasses.replace(status, vote_in=None))  # the prompt line counts down
            state.set_connection(seat, text)
            if not status.finished:
                state.set_lost(seat, gone is not None and gone >= 0)

        state.set_countdown(status.waiting_for, status.vote_in if counting_down(status) else None)
        state.set_proposal(status.proposal)
        counting = status.phase is Phase.SYNCING and not (status.answered and status.heard >= status.others)
        state.set_sync_countdown(status.answered, status.sync_in if counting else None)

    peer.on_status = connection
    state.on_wait_longer = peer.wait_longer
    state.on_stop = peer.stop
    state.again = again  # the game-over screen says at once how to play again (or carry on)
    peer.agrees_to_stop = False  # the person is asked
    state.set_bots(bot_owners(peer))
    state.refresh(peer.table)
    for each in group.peers:  # while the screen is open, a seat that comes back late still gets the end
        each.timing = dataclasses.replace(each.timing, linger=math.inf)
    async def play() -> None:
        await group.run()
        if peer.gave_up:  # resumed, and nobody left to play with: the screen ends, `run_group` says why
            raise NobodyAnswered

    run_game = getattr(ui, "run_game", None)
    with contextlib.suppress(NobodyAnswered):
        if run_game is not None:  # the page (--web)
            await run_game(state, play(), log=peer.store.log_path, again=again)
        else:
            await ui.run_alongside(ui.create_app(state, color=color), play())


class NobodyAnswered(Exception):
    """Out of the game screen: our resumed seat heard nobody and gave up (`Peer.gave_up`)."""


# ------------------------------------------------------------------------------------------------ play


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
        timeouts_from(args)
        check_web(args)
        if args.local:  # fresh keys for every seat, nothing to resume: only the log goes to the profile
            args.home = data_home(profile=args.profile)
    except LocalError as exc:
        return fail("play", said(exc))
    if not args.local:
        return run_as_profile("play", args, lambda: play_over_zeromq(rules, args))
    if args.auto:
        return run_in_memory(rules, args)
    try:
        from p2pspades.ui.play import run_play
    except ImportError as exc:
        return fail("play", _(UI_MISSING).format(why=said(exc)))
    code = int(run_play(rules, args))
    if code != ExitCode.FAILED:
        for line in again_lines(play_words(args), None, args):
            say(line)
    return code


async def play_over_zeromq(rules: RuleSet, args: argparse.Namespace) -> int:
    """Seat 0 is ours; the other seats are bot peers we host; everything on 127.0.0.1."""
    ui = load_ui(args)
    seed = args.seed if args.seed is not None else None
    main = our_seat(args, seed=None if seed is None else seed * 10)
    bots = bot_seats(rules.players - 1, PLAYER_IDENTITY, args.bot, seed, home=args.home)
    hosted = HostedTable(main, table_name="p2pspades", rules=rules, bots=bots, settings=settings_from(args),
                         address="127.0.0.1", advertise=False, compass_names=seat_names(rules.players))
    await hosted.open()
    said = (_("p2pspades: {n} peers on 127.0.0.1, rules {rules}, target {target}; your seat is played by the "
              "bot") if args.auto else
            _("p2pspades: {n} peers on 127.0.0.1, rules {rules}, target {target}; you play seat 0"))
    say(said.format(n=rules.players, rules=described(rules), target=rules.target))
    main.again = play_words(args)  # kept for a resumed game too
    try:
        group = await hosted.seat_everyone()
    except BaseException:
        await hosted.close()
        raise
    return await run_group(group, ui, args, again=lambda table: again_lines(main.again, table, args))


def run_in_memory(rules: RuleSet, args: argparse.Namespace) -> int:
    """A bots-only game over the in-memory wiring (`--local --auto`), with progress and a signed log."""
    seed = args.seed if args.seed is not None else int.from_bytes(crypto.new_seed()[:4], "big")
    n = rules.players
    tables = new_tables(rules, names=seat_names(n), table_name="p2pspades auto game")
    wire = Wire(tables, [make_local_bot(args.bot, seed * 10 + i) for i in range(n)])
    path = Path(args.log) if args.log else default_log_path(tables[0].game_id, args.home)
    try:
        writer = log.LogWriter(path)
    except (OSError, LocalError) as exc:
        return fail("play", _("cannot write the log {path}: {why}").format(path=path, why=said(exc)))
    say(_("p2pspades: {n} bots in memory, rules {rules}, target {target}; log: {path}").format(
        n=n, rules=described(rules), target=rules.target, path=path))
    watched = tables[0]
    progress = ProgressLines(watched.setup, say)
    with writer:
        wire.start()
        seen = written = 0
        while True:
            progressed = wire.step()
            events = wire.events[0][seen:]
            seen = len(wire.events[0])
            for raw in watched.records[written:]:  # every frame the table took: entries, votes, refusals
                writer.append(raw)
            written = len(watched.records)
            tell(watched, events, progress)
            if not progressed or (any(isinstance(ev, GameEnded) for ev in events) and watched.finished):
                break
    for line in final_lines(watched):
        say(line)
    verdict = verify_file(path)
    say(_("log {path}: {verdict}").format(path=path, verdict=verdict.summary))
    if watched.status is not TableStatus.COMPLETE:
        print(_("the game did not complete: {status}").format(status=status_words(watched.status)),
              file=sys.stderr)
    for line in again_lines(play_words(args), watched, args):
        say(line)
    return game_exit_code(watched.status, log_violation=verdict.status is Verdict.VIOLATION)


__all__ = [
    "add_parser",
    "add_seat_options",
    "add_timeout_options",
    "load_ui",
    "lobby_printer",
    "our_seat",
    "run",
    "run_group",
    "settings_from",
    "timeouts_from",
]
