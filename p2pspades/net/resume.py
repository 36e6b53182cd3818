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
from p2pspades.errors import LocalError, P2PSpadesError
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


def _groups(stores: Sequence[GameStore], named: bool) -> tuple[list[Resumable], list[str]]:
    """The resumable groups among one game's seat directories, and why the other seats are not. A seat whose
    last resume heard nobody is only resumed again when the game is `named`: the game may be over."""
    locals_: dict[int, tuple[GameStore, LocalSeat]] = {}
    why: list[str] = []
    for store in stores:
        try:
            local = store.load_local()
            ended = store.ended()
            unanswered = store.unanswered()
        except StoreError as exc:
            why.append(f"seat {store.seat}: {exc}")
            continue
        if ended is not None:
            why.append(f"seat {store.seat}: the game is over ({ended})")
        elif unanswered is not None and not named and local.leader == store.seat:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(unanswered))
            why.append(f"seat {store.seat}: nobody answered its resume on {when}, so it may have ended "
                       "without you (give its id to resume it all the same)")
        elif store.in_use():
            why.append(f"seat {store.seat}: a running p2pspades process is playing it")
        elif not store.read_entries():
            why.append(f"seat {store.seat}: its log holds nothing")
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
        path = Path(target).expanduser()
        try:
            frames = log.read_log(path).frames
            _, setup = read_genesis(frames[0]) if frames else (None, None)
        except (OSError, P2PSpadesError) as exc:
            raise SessionError(f"{path} is not a game log: {exc}") from None
        if setup is None:
            raise SessionError(f"{path} holds no entries: nothing to resume")
        stores = [s for s in games_of(home, setup.game_id.hex()) if _same_file(s.log_path, path)]
        if not stores:
            raise SessionError(f"no game directory on this machine writes {path} (game "
                               f"{setup.game_id.hex()}): it can be verified, not resumed")
        seat = stores[0].seat if seat is None else seat
        candidates = _seats_of(list(games_of(home, setup.game_id.hex())))
    elif target is not None:
        if not re.fullmatch(r"[0-9a-fA-F]{1,32}", target):
            raise SessionError(f"{target!r} is neither a game id nor a log file")
        candidates = _seats_of(list(games_of(home, target)))
        if not candidates:
            raise SessionError(f"no game with an id starting {target.lower()} on this machine")
        if len(candidates) > 1:
            ids = ", ".join(g.hex() for g in candidates)
            raise SessionError(f"several games start with {target.lower()}: {ids}; give more of the id")
    else:
        candidates = _seats_of(list_games(home))
        if not candidates:
            raise SessionError("there is no game on this machine to resume")
    reasons: list[str] = []
    for game_id in reversed(list(candidates)):  # the most recently changed game first
        groups, why = _groups(candidates[game_id], target is not None)
        if seat is not None:
            groups = [g for g in groups if g.leader.seat == seat]
        if len(groups) == 1:
            return groups[0]
        if len(groups) > 1:
            seats = ", ".join(str(g.leader.seat) for g in groups)
            raise SessionError(f"game {game_id.hex()} has several seats to resume here ({seats}): "
                               f"say which with --seat")
        reasons.extend(f"game {game_id.hex()[:12]}, {w}" for w in why)
        if target is not None:
            break
    detail = "; ".join(reasons[-6:]) if reasons else "no seat was started here"
    raise SessionError(f"nothing to resume: {detail}")


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
                raise SessionError(f"seat {store.seat}: its identity file {local.identity} is gone; "
                                   f"nobody can sign for that seat any more") from None
            except (OSError, ValueError) as exc:
                raise SessionError(f"seat {store.seat}: {exc}") from None
            steps = dict(local.timeouts)
            steps.update(timeouts or {})
            try:
                peers.append(await resume_game(store, identity, who, timeouts=steps, timing=settings.timing))
            except (LocalError, ValueError) as exc:
                raise SessionError(f"seat {store.seat} cannot be resumed: {exc}") from None
    except BaseException:
        for peer in peers:
            await peer.close()
        raise
    return LocalGroup(peers[0], peers[1:])
