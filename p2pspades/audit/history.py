"""A profile's past games and its statistics, from the verdicts on its logs.

Pure: the caller reads the logs (`verify_file`) and says which seat was the profile's, when each log was last
written and whether a peer still writes it; these functions turn that into one row per game and the totals
over them. Every number comes from what a log proves: the hands the reader audited (`Verdict.hands`) and the
signed result, never from a log that does not read or a game still being played.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field

from p2pspades.audit.record import winning_sides
from p2pspades.audit.verify import Status, Verdict
from p2pspades.reasons import Reason
from p2pspades.rules import HandResult, RuleSet, is_nil
from p2pspades.table import GameEnded, TableStatus


class Ending(enum.StrEnum):
    """How a game in the list stands (its words are the CLI's)."""

    COMPLETE = "complete"
    ABANDONED = "abandoned"
    CONTESTED = "contested"
    VIOLATION = "violation"
    LEFT = "left"  # a seat said goodbye: its side forfeited
    STOPPED = "stopped"  # stopped by agreement: the scores stand, nobody won
    UNFINISHED = "unfinished"  # stopped before the end; it can be resumed
    UNANSWERED = "unanswered"  # stopped before the end, and a resume heard nobody: it may be over elsewhere
    RUNNING = "running"  # a peer of this machine is writing the log right now
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class PlayedGame:
    """One log of a game the profile played, as the caller found it."""

    path: str
    verdict: Verdict
    seat: int | None
    """The profile's seat in the game (None if the seat directory does not say)."""
    when: float
    """When the log was last written, in seconds since the epoch (0 if unknown)."""
    running: bool = False
    unanswered: float | None = None
    """When a resume of the game last heard no other seat and gave up (None: never)."""


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    fingerprint: str
    side: int


@dataclass(frozen=True)
class GameRow:
    """One line of `p2pspades games`."""

    path: str
    when: float
    ending: Ending
    status: Status
    """The verdict on the log."""
    finding: Reason
    """What the verdict found (`describe.findings.summary` words it)."""
    game_id: str | None = None
    table: str | None = None
    seat: int | None = None
    players: tuple[Player, ...] = ()
    winners: tuple[tuple[str, ...], ...] = ()
    """The names of each winning side (none while nobody has won)."""
    won: bool | None = None
    """Whether the profile's side won; None if nobody won or the seat is unknown."""
    hands: int = 0
    claimed_by: tuple[str, ...] = ()
    """A contested ending: the names of the seats that claimed it (the claim counts against them)."""
    left_by: tuple[str, ...] = ()
    """`Ending.LEFT`: the names of the seats that left (signed goodbyes)."""
    unanswered: float | None = None
    """`Ending.UNANSWERED`: when the resume that heard nobody gave up."""


def ending_of(game: PlayedGame) -> Ending:
    verdict, table = game.verdict, game.verdict.table
    if game.running:
        return Ending.RUNNING
    if verdict.status is Status.VIOLATION:  # a refused genesis too, which leaves no table
        return Ending.VIOLATION
    if verdict.status is Status.UNREADABLE or table is None:
        return Ending.UNREADABLE
    if table.result is not None and table.result.contested:
        return Ending.CONTESTED
    if table.status is TableStatus.ABANDONED:
        return Ending.ABANDONED
    if table.status is TableStatus.LEFT:
        return Ending.LEFT
    if table.status is TableStatus.STOPPED:
        return Ending.STOPPED
    if table.status is TableStatus.COMPLETE:
        return Ending.COMPLETE
    return Ending.UNFINISHED if game.unanswered is None else Ending.UNANSWERED


def game_row(game: PlayedGame) -> GameRow:
    verdict, table = game.verdict, game.verdict.table
    ending = ending_of(game)
    claimants = table.result.signers if table is not None and table.result is not None else ()
    row = GameRow(game.path, game.when, ending, verdict.status, verdict.finding, seat=game.seat)
    if table is None:
        return row
    rules = table.rules
    names = [s.name for s in table.setup.seats]
    players = tuple(Player(s.seat, s.name, s.fingerprint, rules.side_of(s.seat)) for s in table.setup.seats)
    sides = [] if ending is Ending.RUNNING else winning_sides(table)
    won = None
    if sides and game.seat is not None and 0 <= game.seat < rules.players:
        won = rules.side_of(game.seat) in sides
    return GameRow(
        game.path, game.when, ending, verdict.status, verdict.finding, game_id=table.game_id.hex(),
        table=table.setup.name, seat=game.seat, players=players,
        winners=tuple(tuple(names[i] for i in rules.sides[k]) for k in sides), won=won,
        hands=len(verdict.hands), unanswered=game.unanswered if ending is Ending.UNANSWERED else None,
        claimed_by=tuple(names[s] for s in claimants) if ending is Ending.CONTESTED else (),
        left_by=tuple(names[s] for s in table.result.leavers) if table.result is not None else (),
    )


def game_rows(games: Iterable[PlayedGame]) -> list[GameRow]:
    """One row per game, newest first (by when its log was last written; then by path, to be stable)."""
    rows = [game_row(g) for g in games]
    rows.sort(key=lambda r: r.path)
    rows.sort(key=lambda r: r.when, reverse=True)
    return rows


@dataclass
class Partner:
    """A player the profile sat beside: how often, and the record together."""

    fingerprint: str
    name: str
    games: int = 0
    wins: int = 0
    losses: int = 0


@dataclass
class Stats:
    """`p2pspades stats`: totals over the games whose logs read and are no longer being written, each counted
    from the profile's seat and its side."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    hands: int = 0
    contracts_made: int = 0
    contracts_set: int = 0
    nils_made: int = 0
    nils_failed: int = 0
    blind_nils_made: int = 0
    blind_nils_failed: int = 0
    bags: int = 0
    tricks: int = 0
    """The tricks the profile's own seat took."""
    points: int = 0
    partners: list[Partner] = field(default_factory=list)
    """Most games together first."""
    contested_claimed: int = 0
    """Contested endings the profile's seat claimed: it signed a claim of silence that only seats who win
    by it signed (with two players, every claim), or a stalled ending. They count against the claimant."""
    contested_against: int = 0
    """Contested endings that claimed the profile's seat was silent (or, stalled, signed nothing)."""
    running: int = 0
    unreadable: int = 0
    """Logs left out: still being written, or not readable (or the seat unknown)."""
    unfinished: int = 0
    """Of `games`, those that stopped before the end (no win, no loss): resumable, or unanswered."""
    stopped: int = 0
    """Of `games`, those stopped by agreement (no win, no loss: the scores stand, to carry on another day)."""
    left: int = 0
    """Of `games`, those the profile's seat left (a signed goodbye: its side forfeited)."""
    left_by_others: int = 0
    """Of `games`, those another seat left (its side forfeited)."""

    @property
    def points_per_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None


def stats(games: Iterable[PlayedGame]) -> Stats:
    totals = Stats()
    partners: dict[str, Partner] = {}
    for game in games:
        table = game.verdict.table
        ending = ending_of(game)
        if ending is Ending.RUNNING:
            totals.running += 1
            continue
        if table is None or game.seat is None or not 0 <= game.seat < table.rules.players:
            totals.unreadable += 1
            continue
        rules, seat = table.rules, game.seat
        side = rules.side_of(seat)
        winners = winning_sides(table)
        won, lost = side in winners, bool(winners) and side not in winners
        _count_claim(totals, table.result, seat)
        totals.games += 1
        totals.wins += won
        totals.losses += lost
        totals.unfinished += ending in (Ending.UNFINISHED, Ending.UNANSWERED)
        totals.stopped += ending is Ending.STOPPED
        if ending is Ending.LEFT and table.result is not None:
            totals.left += seat in table.result.leavers
            totals.left_by_others += seat not in table.result.leavers
        for hand in game.verdict.hands:
            _count_hand(totals, rules, hand, seat, side)
        for other in rules.sides[side]:
            if other == seat:
                continue
            info = table.setup.seats[other]
            partner = partners.setdefault(info.fingerprint, Partner(info.fingerprint, info.name))
            partner.name = info.name
            partner.games += 1
            partner.wins += won
            partner.losses += lost
    totals.partners = sorted(partners.values(), key=lambda p: (-p.games, -p.wins, p.name, p.fingerprint))
    return totals


def _count_claim(totals: Stats, result: GameEnded | None, seat: int) -> None:
    """A contested ending, counted by who claimed it (PROTOCOL.md §5.5) and against whom."""
    if result is None or not result.contested:
        return
    if seat in result.signers:
        totals.contested_claimed += 1
    elif seat == result.seat or seat in result.missing:
        totals.contested_against += 1


def seat_stats(rules: RuleSet, hands: Iterable[HandResult], seat: int) -> Stats:
    """The counts of `stats` over the hands of one game, from one seat and its side: the end-of-game
    screen's summary of each player (contracts, bags and points are the side's; nils the seat's own)."""
    totals = Stats()
    for hand in hands:
        _count_hand(totals, rules, hand, seat, rules.side_of(seat))
    return totals


def _count_hand(totals: Stats, rules: RuleSet, hand: HandResult, seat: int, side: int) -> None:
    score = hand.scores[side]
    totals.hands += 1
    totals.points += score.points
    totals.bags += score.bags
    totals.tricks += hand.tricks_won[seat]
    if score.contract > 0:
        if score.made:
            totals.contracts_made += 1
        else:
            totals.contracts_set += 1
    if is_nil(rules, hand.bids[seat], hand.blind[seat]):
        made = hand.tricks_scored[seat] == 0 and not score.penalized  # as scoring decides a nil
        if hand.blind[seat]:
            totals.blind_nils_made += made
            totals.blind_nils_failed += not made
        else:
            totals.nils_made += made
            totals.nils_failed += not made

