"""What a game that follows another changes from it (PROTOCOL.md §4.1.1): one comparison, made by
`verify NEW --after OLD` and by a joiner deciding whether to accept a rematch or a continuation that its own
log of the old game can check.

Pure: it takes the old game's table (read from a log) and what the new genesis says (its `after`, its rules
and, once they are known, its seats), and gives data: each difference is a `Change` with a code and the seat,
option or values it concerns (`reasons.Change`). `describe.change_text` puts one into words.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence

from p2pspades.reasons import Change, ChangeKind
from p2pspades.rules import RuleSet
from p2pspades.table import After, GameEnded, SeatInfo, Table, TableStatus

__all__ = ["PROMISED", "Change", "ChangeKind", "broken", "changes", "gone_from", "rule_changes",
           "seat_changes"]


PROMISED = frozenset({ChangeKind.OTHER_GAME, ChangeKind.NOT_OVER})
"""What a rematch promises: it follows that game, which is over. Its rules and seats may differ (its players
see them, and a joiner is asked about each one); a continuation promises everything (`broken`)."""


def broken(after: After, change: Change) -> bool:
    """Whether `change` breaks what the genesis `after` promises (what `verify --after` fails on)."""
    return after.continues or change.kind in PROMISED


def changes(old: Table, after: After, rules: RuleSet,
            seats: Sequence[SeatInfo] | None = None) -> tuple[Change, ...]:
    """Every way a game whose genesis says it follows (`after`) with `rules` and `seats` (None: not known
    yet, as when a table is announced) differs from the game of `old`, the old game's table as its log
    leaves it, in the order a reader checks them: which game, its end, the rules, the seats, the scores and
    the dealer."""
    gid = old.game_id
    if after.game_id != gid:
        return (Change(ChangeKind.OTHER_GAME, gid, new=after.game_id),)
    ended = old.result
    if ended is None:
        return (Change(ChangeKind.NOT_OVER, gid),)
    found: list[Change] = []
    gone: tuple[int, ...] = ()
    if after.continues:
        left = gone_from(ended)
        if left is None:
            return (Change(ChangeKind.NOT_ABANDONED, gid, old=ended.status.value),)
        if old.game is None:
            return (Change(ChangeKind.NO_SCORES, gid),)
        gone = left
    found += rule_changes(gid, old.rules, rules)
    if seats is not None:
        found += seat_changes(gid, old.setup.seats, seats, gone)
    if after.continues and old.game is not None:
        if tuple(after.totals) != old.game.totals:
            found.append(Change(ChangeKind.SCORES, gid, old=old.game.totals, new=tuple(after.totals)))
        if after.dealer != old.game.dealer:
            found.append(Change(ChangeKind.DEALER, gid, old=old.game.dealer, new=after.dealer))
    return tuple(found)


def gone_from(ended: GameEnded) -> tuple[int, ...] | None:
    """The seats a continuation of a game that ended so gives to newcomers: the abandoned seat, the seats
    that left; none after a stop by agreement. None: a game that ended so is not carried on (complete, a
    fault)."""
    if ended.status is TableStatus.ABANDONED and ended.seat is not None:
        return (ended.seat,)
    if ended.status is TableStatus.LEFT:
        return ended.leavers
    if ended.status is TableStatus.STOPPED:
        return ()
    return None


def rule_changes(game_id: bytes, old: RuleSet, new: RuleSet) -> list[Change]:
    """The options whose values differ (not the preset's name: a label, with no effect on play)."""
    return [Change(ChangeKind.RULE, game_id, option=field.name, old=getattr(old, field.name),
                   new=getattr(new, field.name))
            for field in dataclasses.fields(RuleSet)
            if field.name != "preset" and getattr(old, field.name) != getattr(new, field.name)]


def seat_changes(game_id: bytes, old: Sequence[SeatInfo], new: Sequence[SeatInfo],
                 gone: Collection[int] = ()) -> list[Change]:
    """The seats held by another key than in the old game; for a continuation, not the seats `gone` (the
    abandoned seat, those that left) taken by newcomers (bots, in practice): that is what a continuation
    does."""
    places = {s.key: s.seat for s in old}
    found = []
    for seat in range(max(len(old), len(new))):
        before = old[seat] if seat < len(old) else None
        after = new[seat] if seat < len(new) else None
        if before is not None and after is not None and before.key == after.key:
            continue
        was = None if after is None else places.get(after.key)
        if seat in gone and after is not None and was is None:
            continue
        found.append(Change(ChangeKind.SEAT, game_id, seat=seat, old=before, new=after, was=was))
    return found
