"""Finding the seats of an unfinished game on this machine and running them again after a crash.

What each seat needs is in its game directory (`local.json` beside the log and the secrets), so `resume`
rebuilds the same group of peers one process ran: our seat and the bot seats it led.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from p2pspades import crypto, log
from p2pspades.errors import N_, LocalError, P2PSpadesError
from p2pspades.net.group import LocalGroup, Settings
from p2pspades.net.peer import Peer, Player, resume_game
from p2pspades.net.seats import SessionError, make_bot
from p2pspades.net.store import GameStore, LocalSeat, StoreError, games_of, list_games
from p2pspades.table import read_genesis


@dataclass(frozen=True)
class Resumable:
    """The seats of one game that one process runs again: the leader (ours) and its bot seats."""

    leader: GameStore
    local: LocalSeat
    bots: tuple[tuple[GameStore, LocalSeat], ...]

    @property
    def game_id(self) -> bytes:
        return self.leader.game_id


def _seats_of(stores: Sequence[GameStore]) -> dict[bytes, list[GameStore]]:
    games: dict[bytes, list[GameStore]] = {}
    for store in stores:
        games.setdefault(store.game_id, []).append(store)
    return games


def _groups(stores: Sequence[GameStore], named: bool) -> tuple[list[Resumable], list[SessionError]]:
    """The resumable groups among one game's seat directories, and why the other seats are not. A seat whose
    last resume heard nobody is only resumed again when the game is `named`: the game may be over."""
    locals_: dict[int, tuple[GameStore, LocalSeat]] = {}
    why: list[SessionError] = []
    for store in stores:
        which = {"game": store.game_id.hex()[:12], "seat": store.seat}
        try:
            local = store.load_local()
            ended = store.ended()
            unanswered = store.unanswered()
        except StoreError as exc:
            why.append(SessionError(N_("game {game}, seat {seat}: {why}"), why=exc, **which))
            continue
        if ended is not None:
            why.append(SessionError(N_("game {game}, seat {seat}: the game is over ({ended})"), ended=ended,
                                    **which))
        elif unanswered is not None and not named and local.leader == store.seat:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(unanswered))
            why.append(SessionError(N_("game {game}, seat {seat}: nobody answered its resume on {when}, so "
                                       "it may have ended without you (give its id to resume it all the "
                                       "same)"), when=when, **which))
        elif store.in_use():
            why.append(SessionError(N_("game {game}, seat {seat}: a running p2pspades process is playing "
                                       "it"), **which))
        elif not store.read_entries():
            why.append(SessionError(N_("game {game}, seat {seat}: its log holds nothing"), **which))
        else:
            locals_[store.seat] = (store, local)
    groups = []
    for seat, (store, local) in sorted(locals_.items()):
        if local.leader == seat:
            bots = tuple(v for s, v in sorted(locals_.items()) if s != seat and v[1].leader == seat)
            groups.append(Resumable(store, local, bots))
    return groups, why


def find_resumable(target: str | None = None, *, seat: int | None = None,
                   home: str | os.PathLike[str] | None = None) -> Resumable:
    """Which seats to resume: of the game `target` names (a game id prefix or a log file), or of the most
    recent unfinished game. `SessionError` says clearly why there is nothing to resume."""
    if target is not None and Path(target).expanduser().is_file():
        candidates, seat = _games_writing(Path(target).expanduser(), seat, home)
    elif target is not None:
        candidates = _games_named(target, home)
    else:
        candidates = _seats_of(list_games(home))
        if not candidates:
            raise SessionError(N_("there is no game on this machine to resume"))
    return _choose(candidates, seat, target is not None)


def _games_writing(path: Path, seat: int | None, home: str | os.PathLike[str] | None,
                   ) -> tuple[dict[bytes, list[GameStore]], int]:
    """The seat directories of the game whose log is `path`, and the seat to resume (that log's, unless
    `seat` says)."""
    try:
        frames = log.read_log(path).frames
        _, setup = read_genesis(frames[0]) if frames else (None, None)
    except (OSError, P2PSpadesError) as exc:
        raise SessionError(N_("{path} is not a game log: {why}"), path=path, why=exc) from None
    if setup is None:
        raise SessionError(N_("{path} holds no entries: nothing to resume"), path=path)
    stores = [s for s in games_of(home, setup.game_id.hex()) if _same_file(s.log_path, path)]
    if not stores:
        raise SessionError(N_("no game directory on this machine writes {path} (game {game}): it can be "
                              "verified, not resumed"), path=path, game=setup.game_id.hex())
    return _seats_of(list(games_of(home, setup.game_id.hex()))), stores[0].seat if seat is None else seat


def _games_named(target: str, home: str | os.PathLike[str] | None) -> dict[bytes, list[GameStore]]:
    """The seat directories of the one game whose id starts with `target`."""
    if not re.fullmatch(r"[0-9a-fA-F]{1,32}", target):
        raise SessionError(N_("{target!r} is neither a game id nor a log file"), target=target)
    candidates = _seats_of(list(games_of(home, target)))
    if not candidates:
        raise SessionError(N_("no game with an id starting {target} on this machine"), target=target.lower())
    if len(candidates) > 1:
        ids = ", ".join(g.hex() for g in candidates)
        raise SessionError(N_("several games start with {target}: {ids}; give more of the id"),
                           target=target.lower(), ids=ids)
    return candidates


def _choose(candidates: dict[bytes, list[GameStore]], seat: int | None, named: bool) -> Resumable:
    """The one group to resume among the candidate games, the most recently changed first (only the first,
    when the game was `named`)."""
    reasons: list[SessionError] = []
    for game_id in reversed(list(candidates)):  # the most recently changed game first
        groups, why = _groups(candidates[game_id], named)
        if seat is not None:
            groups = [g for g in groups if g.leader.seat == seat]
        if len(groups) == 1:
            return groups[0]
        if len(groups) > 1:
            seats = ", ".join(str(g.leader.seat) for g in groups)
            raise SessionError(N_("game {game} has several seats to resume here ({seats}): say which with "
                                  "--seat"), game=game_id.hex(), seats=seats)
        reasons.extend(why)
        if named:
            break
    if not reasons:
        raise SessionError(N_("nothing to resume: no seat was started here"))
    raise SessionError(N_("nothing to resume: {why}"), why=tuple(reasons[-6:]))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and os.path.samefile(a, b)
    except OSError:
        return False


async def resume_seats(
    found: Resumable,
    player: Player | None,
    *,
    settings: Settings | None = None,
    timeouts: Mapping[str, float] | None = None,
) -> LocalGroup:
    """Rebuild the peers of `found` from their logs and secrets, rebind their endpoints and reconnect."""
    settings = settings or Settings()
    peers: list[Peer] = []
    try:
        for store, local, who in [(found.leader, found.local, player),
                                  *((s, lo, make_bot(lo.bot)) for s, lo in found.bots)]:
            try:
                identity = crypto.Identity.load(local.identity)
            except FileNotFoundError:
                raise SessionError(N_("seat {seat}: its identity file {path} is gone; nobody can sign for "
                                      "that seat any more"), seat=store.seat, path=local.identity) from None
            except (OSError, ValueError) as exc:
                raise SessionError(N_("seat {seat}: {why}"), seat=store.seat, why=exc) from None
            steps = dict(local.timeouts)
            steps.update(timeouts or {})
            try:
                peers.append(await resume_game(store, identity, who, timeouts=steps, timing=settings.timing))
            except (LocalError, ValueError) as exc:
                raise SessionError(N_("seat {seat} cannot be resumed: {why}"), seat=store.seat,
                                   why=exc) from None
    except BaseException:
        for peer in peers:
            await peer.close()
        raise
    return LocalGroup(peers[0], peers[1:])
