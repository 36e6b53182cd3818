"""Playing again at the same table: a rematch after a game ended, or carrying a game on from its scores
(PROTOCOL.md §4.1.1): an abandoned or left game with a bot in each empty seat, a game stopped by agreement
with every seat as it was; and the commands printed for them.

`host --rematch GAME_ID` and `host --carry-on GAME_ID` read this profile's own log of that game to make the
`Sequel` the lobby announces (the genesis `after`, and who sat where); a joiner's `check_after` compares a
continuation a host proposes against the joiner's own log of the old game, if it has one.
"""

from __future__ import annotations

import argparse
import os
import shlex
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from p2pspades import crypto, paths
from p2pspades.audit import verify_file
from p2pspades.audit.sequel import Change, ChangeKind, changes, gone_from, rule_changes, seat_changes
from p2pspades.audit.verdict import Verdict
from p2pspades.bots import DEFAULT_BOT
from p2pspades.cli.common import default_name
from p2pspades.describe import after_text, change_text
from p2pspades.describe.game import status_words
from p2pspades.errors import LocalError
from p2pspades.i18n import N_, _, ngettext, said
from p2pspades.net.lobby_seats import LobbyResult, Sequel, TableInfo
from p2pspades.net.store import GameStore, StoreError, games_of
from p2pspades.rules import RuleSet
from p2pspades.table import CONTINUATION, REMATCH, After, SeatInfo, Table, read_genesis

_NOT_ENDED = N_("game {id} has not ended: carry it on with '{command}' instead")


@dataclass(frozen=True)
class Again:
    """What a table that plays again after game `old` needs: its rules, the lobby's `sequel`, the old
    table's name and the seats the host's bots held in it (`bot_seats`), and where the host's bots for the
    seats gone sit (`bots_for`, a continuation of an abandoned or left game only)."""

    old: Table
    sequel: Sequel
    bot_seats: tuple[int, ...]
    bots_for: tuple[int, ...] = ()

    @property
    def rules(self) -> RuleSet:
        return self.old.rules


def _our_stores(home: str | os.PathLike[str] | None, game_id: str) -> list[GameStore]:
    text = game_id.strip().lower()
    if not text or any(c not in "0123456789abcdef" for c in text):
        raise LocalError(_("{id!r} is not a game id (hexadecimal, as 'p2pspades games' shows it)").format(
            id=game_id))
    ours = []
    for store in games_of(home, text):
        try:
            if store.load_local().player == "person":
                ours.append(store)
        except StoreError:
            continue
    return ours


def our_game(home: str | os.PathLike[str] | None, game_id: str, profile: str | None) -> tuple[Verdict, Table]:
    """The verdict on this profile's own log of the game whose id starts with `game_id`. `LocalError` if
    there is none, several, or it does not read."""
    stores = _our_stores(home, game_id)
    games = {s.game_id for s in stores}
    name = paths.profile_name(profile)
    if not games:
        command = "p2pspades games" + (f" --profile {name}" if name != paths.DEFAULT_PROFILE else "")
        raise LocalError(_("profile {profile!r} played no game {id} ('{command}' lists them)").format(
            profile=name, id=game_id, command=command))
    if len(games) > 1:
        raise LocalError(_("{id} is the start of {n} games' ids: give more of it").format(id=game_id,
                                                                                          n=len(games)))
    store = stores[0]
    if store.in_use():
        raise LocalError(_("game {id} is still being played by another program").format(
            id=store.game_id.hex()[:12]))
    verdict = verify_file(store.log_path)
    if verdict.table is None:
        raise LocalError(_("the log of game {id} does not read: {why}").format(id=store.game_id.hex()[:12],
                                                                               why=verdict.summary))
    return verdict, verdict.table


def _bots_of(old: Table, bot_keys: Collection[bytes]) -> tuple[int, ...]:
    return tuple(s.seat for s in old.setup.seats if s.key in bot_keys)


def rematch(old: Table, me: bytes, bot_keys: Collection[bytes]) -> Again:
    """A rematch of `old`: it must be over. Every key gets its old seat back if it comes."""
    gid = old.game_id.hex()[:12]
    if old.result is None:
        raise LocalError(_(_NOT_ENDED).format(id=gid, command=f"p2pspades resume {gid}"))
    places = {s.key: s.seat for s in old.setup.seats if s.key != me}
    return Again(old, Sequel(After(old.game_id, REMATCH), places), _bots_of(old, bot_keys))


def carry_on(old: Table, me: bytes, bot_keys: Collection[bytes]) -> Again:
    """The continuation of the game `old` from its scores, hosted by its seat 0 (us): after an abandonment
    or a goodbye, with a bot of ours in each seat gone; after a stop by agreement, with every seat as it was.
    Every other seat is kept for the key that held it."""
    gid = old.game_id.hex()[:12]
    ended = old.result
    if ended is None:
        raise LocalError(_(_NOT_ENDED).format(id=gid, command=f"p2pspades resume {gid}"))
    gone = gone_from(ended)
    if gone is None:
        raise LocalError(_("game {id} was not abandoned, left or stopped ({status}): play a new game, or a "
                           "rematch with '{command}'").format(id=gid, status=status_words(ended.status),
                                                              command=f"p2pspades host --rematch {gid}"))
    if old.setup.keys[0] != me:
        raise LocalError(_("game {id} was hosted by {host}: its host (seat 0) carries it on, and the others "
                           "join").format(id=gid, host=old.setup.seats[0].name))
    if 0 in gone:
        raise LocalError(_("in game {id} it was you, the host, who stopped answering or left: a continuation "
                           "keeps every seat but those gone, so it cannot be hosted without you at seat "
                           "0").format(id=gid))
    game = old.game
    if game is None:
        raise LocalError(_("game {id} ended before its first hand: there are no scores to carry "
                           "on").format(id=gid))
    after = After(old.game_id, CONTINUATION, game.totals, game.dealer)
    problem = after.problem(old.rules, None)
    if problem is not None:  # a game that ended at its end (decided, then left or stopped)
        raise LocalError(_("game {id} cannot be carried on: {why}").format(id=gid, why=said(problem)))
    places = {s.key: s.seat for s in old.setup.seats if s.seat != 0 and s.seat not in gone}
    bots = tuple(seat for seat in _bots_of(old, bot_keys) if seat not in gone)
    return Again(old, Sequel(after, places, only_places=True), bots, bots_for=gone)


class CheckAfter:
    """A joiner's check of a table whose game follows another (PROTOCOL.md §4.1.1) against this profile's own
    log of that game, in the data home `home`: the comparison `verify --after` makes (`audit.sequel`), of
    the rules and a continuation's scores and dealer as soon as the table is announced, and of every seat
    once the host proposes the genesis. Every difference, and a log that is missing or stops before the end,
    is a doubt: the lobby screen shows each and accepting then needs an explicit yes; with `auto` (nobody to
    ask) a doubt refuses the table, in one line."""

    def __init__(self, home: str | os.PathLike[str] | None, *, auto: bool = False) -> None:
        self.home = home
        self.auto = auto
        self._read: dict[bytes, Table | None] = {}

    def old(self, game_id: bytes) -> Table | None:
        """Our own log of that game, verified (once): None if we have none that reads."""
        if game_id not in self._read:
            stores = _our_stores(self.home, game_id.hex())
            self._read[game_id] = verify_file(stores[0].log_path).table if stores else None
        return self._read[game_id]

    def doubts(self, after: After, rules: RuleSet,
               seats: Sequence[SeatInfo] | None = None) -> tuple[Change, ...]:
        """What the person must agree to before accepting a game that says it follows `after`, with `rules`
        and `seats` (None: not known yet): how it differs from our log, or why it could not be checked."""
        old = self.old(after.game_id)
        if old is None:
            return (Change(ChangeKind.NO_LOG, after.game_id),)
        if old.result is not None:
            return changes(old, after, rules, seats)
        # our log stops before the end (we were away when it ended): what it holds is compared
        found = rule_changes(old.game_id, old.rules, rules)
        if seats is not None:
            found += seat_changes(old.game_id, old.setup.seats, seats)
        return (*found, *([Change(ChangeKind.LOG_UNENDED, old.game_id)] if after.continues else []))

    def __call__(self, info: TableInfo) -> str | None:
        """The lobby's check of an announced table: with `auto`, the one line that refuses it for what our log
        contradicts already (what it cannot check waits for the proposal: the host may refuse us first, as
        it refuses at a continuation whoever did not play on to its end)."""
        if not self.auto or info.after is None:
            return None
        found = [c for c in self.doubts(info.after, info.rules) if c.kind not in UNCHECKED]
        return refusal(info.after, doubt_lines(found, info.rules, None)) if found else None

    def proposal(self, result: LobbyResult) -> tuple[Change, ...]:
        """The doubts about the genesis a host proposes, every seat included (none: it follows no game)."""
        _, setup = read_genesis(result.genesis)  # checked against the seat map by the lobby already
        return () if setup.after is None else self.doubts(setup.after, setup.rules, setup.seats)


UNCHECKED = frozenset({ChangeKind.NO_LOG, ChangeKind.LOG_UNENDED})
"""Doubts that are no difference: our log could not check the game."""


def refusal(after: After, doubts: Sequence[str]) -> str:
    """The one line that refuses, without a person to ask, a game that follows `after` with these doubts
    (`doubt_lines`)."""
    said = (_("refused: the host's game {after}: {doubts} (to see it and decide, join without --auto)")
            if after.continues else
            _("refused: the host's game is {after}: {doubts} (to see it and decide, join without --auto)"))
    return said.format(after=after_text(after, short=True), doubts="; ".join(doubts))


def doubts_heading(doubts: Sequence[Change]) -> str:
    """What the question that asks for the yes says of the doubts (under 78 characters): that the game
    differs from our log, or that our log cannot check it."""
    n = len(doubts)
    if all(c.kind in UNCHECKED for c in doubts):
        said = ngettext("Your own log cannot vouch for this game: read the line marked !.",
                        "Your own log cannot vouch for this game: read the {n} lines marked !.", n)
    else:
        said = ngettext("Your log of the game it follows says otherwise: read the line marked !.",
                        "Your log of the game it follows says otherwise: read the {n} lines marked !.", n)
    return said.format(n=n)


def doubt_lines(doubts: Sequence[Change], rules: RuleSet, you: int | None) -> list[str]:
    """The doubts as the lobby screen shows them, a line each, the reader's own and partner's seats named."""
    partners = () if you is None else tuple(s for s in rules.sides[rules.side_of(you)] if s != you)
    return [change_text(c, you=you, partners=partners, short=True) for c in doubts]


def our_bot_keys(home: str | os.PathLike[str] | None, owner: str) -> dict[bytes, int]:
    """The keys of the bot seats this profile has run (`<owner>-botK`, as `net.seats.bot_seats` names
    them), each with its K; a key file that does not read is left out."""
    found: dict[bytes, int] = {}
    for k in range(1, 10):
        path = crypto.default_identity_path(f"{owner}-bot{k}", home)
        if path.is_file():
            try:
                found[crypto.Identity.load(path).public] = k
            except (OSError, ValueError):
                continue
    return found


def player_words(args: argparse.Namespace, timeouts: Mapping[str, float] | None = None) -> list[str]:
    """The options of the person running the command now that the next command needs to work the same way:
    `--auto`, `--bot`, the step timeouts (`timeouts`: those in force, else the ones the options gave) and
    `--profile` (named even when `$P2PSPADES_PROFILE` chose it)."""
    words: list[str] = []
    if args.auto:
        words.append("--auto")
    if args.bot != DEFAULT_BOT:
        words += ["--bot", args.bot]
    for key in ("auto", "decision"):
        value = getattr(args, f"timeout_{key}", None) if timeouts is None else timeouts.get(key)
        if value is not None:
            words += [f"--timeout-{key}", f"{value:g}"]
    name = paths.profile_name(args.profile)
    if name != paths.DEFAULT_PROFILE:
        words += ["--profile", name]
    return words


def _seated_as(args: argparse.Namespace, default: str) -> list[str]:
    """`--name` and `--address`, where they were given otherwise than by default."""
    words = ["--name", args.name] if args.name != default else []
    return words + (["--address", args.address] if getattr(args, "address", None) else [])


def host_words(args: argparse.Namespace, port: int) -> tuple[str, ...]:
    """The table's part of a host's play-again commands (`again_lines`): the same port, announced or not,
    under the same name and address."""
    return ("host", "--port", str(port), *(["--no-advertise"] if args.no_advertise else []),
            *_seated_as(args, default_name(args.profile)))


def join_words(args: argparse.Namespace, lobby: str) -> tuple[str, ...]:
    """The table's part of a joiner's 'join with:' (`again_lines`): the same lobby (HOST:PORT), with as many
    bots of its own, under the same name and address."""
    return ("join", lobby, *(["--bots", str(args.bots)] if args.bots else []),
            *_seated_as(args, default_name(args.profile)))


def play_words(args: argparse.Namespace) -> tuple[str, ...]:
    """The game's part of `play`'s 'play again with:' (`again_lines`): the same rules, target and options,
    in memory or not, under the same name (a new log, and new choices for the bots: no --log, no --seed)."""
    words = ["play", *(["--local"] if args.local else [])]
    if args.rules != "classic":
        words += ["--rules", args.rules]
    for option, value in (("--players", args.players), ("--target", args.target)):
        if value is not None:
            words += [option, str(value)]
    for text in args.option or ():
        words += ["--option", text]
    return (*words, *_seated_as(args, _("You")))


def again_lines(table_words: Sequence[str], table: Table | None, args: argparse.Namespace,
                timeouts: Mapping[str, float] | None = None) -> list[str]:
    """What to type to play again once the game of `table` is over, from the table's part of the command
    (`host_words`, `join_words`, `play_words`: kept beside a seat's log, so a resumed game says it too) and
    the person's own options now (`player_words`). A host gets 'play again with: ... --rematch GAME ...', and
    after an abandonment of another seat 'carry on with a bot: ... --carry-on GAME ...'; a joiner 'join
    with: ...' (for a rematch and a continuation alike); `play` 'play again with: ...'."""
    if not table_words:
        return []
    kind, rest, player = table_words[0], list(table_words[1:]), player_words(args, timeouts)
    if kind == "join":
        return [_("join with: {command}").format(command=shlex.join(["p2pspades", kind, *rest, *player]))]
    if kind == "play":
        command = shlex.join(["p2pspades", kind, *rest, *player])
        return [_("play again with: {command}").format(command=command)]
    ended = None if table is None else table.result
    if table is None or ended is None:
        return []
    gid = table.game_id.hex()[:12]
    rematch_command = shlex.join(["p2pspades", "host", "--rematch", gid, *rest, *player])
    lines = [_("play again with: {command}").format(command=rematch_command)]
    gone = gone_from(ended)
    decided = ended.scored or (table.game is not None and table.game.outcome is not None)
    if gone is not None and 0 not in gone and table.game is not None and not decided:
        carry = shlex.join(["p2pspades", "host", "--carry-on", gid, *rest, *player])
        label = _("carry on with a bot: {command}") if gone else _("carry on: {command}")
        lines.append(label.format(command=carry))
    return lines
