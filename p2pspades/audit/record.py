"""The JSON hand record of a verified game, for tools (the text record for people is `describe.record`).

It reads what the log reader proved (`Verdict.hands`, and the observer table it replayed), so it shows only
what the signed log proves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from p2pspades import log
from p2pspades.audit.verdict import Status, Verdict, abandonment, forfeit
from p2pspades.describe import parted
from p2pspades.rules import HandResult, RuleSet
from p2pspades.table import After, PassShown, Table, TableStatus, Violation

FORMAT = "p2pspades-hand-record/1"

_STATUS = {
    Status.VALID: "complete",
    Status.VIOLATION: "violation",
    Status.INCOMPLETE: "abandoned",
    Status.UNREADABLE: "unreadable",
}


def record_status(verdict: Verdict) -> str:
    """The record's `result.status`: complete, violation, abandoned, left, stopped, incomplete or
    unreadable."""
    table = verdict.table
    if verdict.status is Status.INCOMPLETE and (table is None or table.status is TableStatus.RUNNING):
        return "incomplete"
    if verdict.status is Status.INCOMPLETE and table is not None and table.status in _PARTED:
        return str(table.status)  # "left", "stopped"
    return _STATUS[verdict.status]


_PARTED = (TableStatus.LEFT, TableStatus.STOPPED)


def _violation(v: Violation) -> dict[str, Any]:
    return {"seat": v.seat, "seq": v.seq, "check": v.check, "detail": v.detail,
            "evidence": [raw.hex() for raw in v.evidence], "ends_game": v.halts}


def genesis_rules(table: Table) -> dict[str, Any]:
    """The `rules` map exactly as the signed genesis carries it: every key it writes (defaults written out
    included, later options at their default left out) and `removed` as written, in the map's own order."""
    rules: dict[str, Any] = log.open_envelope(table.entries[0]).payload["rules"]
    return rules


def winning_sides(table: Table) -> list[int]:
    """The sides that won: by the signed result of a forfeit or an abandonment, else by the game's outcome
    (empty while nobody has won)."""
    if table.result is not None:
        return list(table.result.winners)
    game = table.game
    return list(game.outcome.winners) if game is not None and game.outcome is not None else []


def hand_record(verdict: Verdict) -> dict[str, Any]:
    """The JSON hand record of a verified log (its format: docs/auditing.md, "The hand record")."""
    table = verdict.table
    status = record_status(verdict)
    if table is None:  # no table: the log is unreadable, empty, or its genesis was refused
        result: dict[str, Any] = {"status": status, "winners": [], "detail": verdict.summary}
        if verdict.violation is not None:
            result["violation"] = _violation(verdict.violation)
        return {"format": FORMAT, "result": result}
    rules = table.rules
    result = {"status": status, "winners": winning_sides(table), "detail": verdict.summary}
    fault = forfeit(table)
    if fault is not None and table.result is not None:
        result["forfeit"] = {"seat": table.result.seat, "text": fault}
    if verdict.violation is not None:
        result["violation"] = _violation(verdict.violation)
    elif verdict.unattributed is not None:
        u = verdict.unattributed
        result["violation"] = {"seat": None, "seq": None, "frame": u.frame, "check": u.check,
                               "detail": u.detail, "evidence": [u.raw.hex()], "ends_game": False}
    if table.abandoned_by is not None:
        result["abandoned_by"] = table.abandoned_by
    ended = table.result
    if ended is not None and ended.status in _PARTED:
        result[str(ended.status)] = parting_record(table)
    slot = table.claim
    if slot is not None:
        result["abandonment"] = {
            "seat": slot.accused,
            "slot": slot.seq,
            "awaited": slot.awaited,
            "claimed_by": list(slot.voters),
            "waits_s": [slot.waits[v] for v in slot.voters],
            "certificate": table.certified is slot,
            "missing": list(slot.missing(table.seats)),
            "refused_by": sorted(slot.refusals),
            "contested": bool(table.result is not None and table.result.contested),
            "stalled": bool(table.result is not None and table.result.missing),
            "scored": bool(table.result is not None and table.result.scored),
            "text": abandonment(table),
        }
    record: dict[str, Any] = {
        "format": FORMAT,
        "game_id": table.game_id.hex(),
        "table": table.setup.name,
        "rules": genesis_rules(table),
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "key": s.key.hex(),
                "fingerprint": s.fingerprint,
                "side": rules.side_of(s.seat),
            }
            for s in table.setup.seats
        ],
        "sides": [list(side) for side in rules.sides],
        "first_dealer": table.first_dealer,
        "hands": [_hand(rules, h, verdict.passes.get(h.number, ())) for h in verdict.hands],
        "result": result,
    }
    after = table.setup.after
    if after is not None:
        record["after"] = after_record(after)
    return record


def parting_record(table: Table) -> dict[str, Any]:
    """A game ended by the players' own word (PROTOCOL.md §5.10, §5.11), in the hand record: the slot, who
    left (a goodbye) or that every seat signed a stop, each side's score there, and whether the game was
    decided before (its own result stands)."""
    ended = table.result
    assert ended is not None
    out: dict[str, Any] = {"slot": ended.at, "scores": list(table.view.totals()), "scored": ended.scored}
    if ended.status is TableStatus.LEFT:
        out["seats"] = list(ended.leavers)
    else:
        out["signed_by"] = list(ended.signers)
    return out | {"text": parted(ended)}


def after_record(after: After) -> dict[str, Any]:
    """The genesis `after` in the hand record: the game followed, the kind and, for a continuation, the
    scores and bags per side and the first dealer."""
    out: dict[str, Any] = {"game_id": after.game_id.hex(), "kind": after.kind}
    if after.continues:
        out |= {"scores": [t.score for t in after.totals], "bags": [t.bags for t in after.totals],
                "dealer": after.dealer}
    return out


def _hand(rules: RuleSet, h: HandResult, passes: Sequence[PassShown]) -> dict[str, Any]:
    order = [(h.dealer + 1 + i) % rules.players for i in range(rules.players)]
    bid_order = order if rules.first_bidder == "left" else [h.dealer, *order[:-1]]
    out = {
        "number": h.number,
        "dealer": h.dealer,
        "dealt": {str(seat): [c.code for c in cards] for seat, cards in enumerate(h.hands)},
        "bids": [{"seat": s, "bid": h.bids[s], "blind": h.blind[s]} for s in bid_order],
        "tricks": [
            {
                "leader": t.leader,
                "plays": [{"seat": s, "card": c.code} for s, c in t.plays],
                "winner": t.winner,
            }
            for t in h.tricks
        ],
        "tricks_won": list(h.tricks_won),
        "score": [{"side": sc.side, "points": sc.points, "bags": sc.bags} for sc in h.scores],
        "totals": [{"side": i, "score": t.score, "bags": t.bags} for i, t in enumerate(h.totals)],
        "violations": [
            {"seat": v.seat, "kind": v.kind, "detail": v.detail, "penalty": rules.renege}
            for v in h.violations
        ],
    }
    if rules.nil_pass:
        out["passes"] = [pass_record(p) for p in passes]
    return out


def pass_record(p: PassShown) -> dict[str, Any]:
    """A pass of rule `nil_pass` in the hand record: who passed which cards to whom, and who saw them while
    the hand was played (the two partners; the other seats saw only that the pass was made)."""
    return {"seat": p.seat, "to": p.to, "cards": [c.code for c in p.cards], "seen_by": sorted((p.seat, p.to))}
