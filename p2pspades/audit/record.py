"""Hand records built from a verified game: JSON for tools, and a text record in the spirit of bridge's PBN.

Both read what the log reader proved (`Verdict.hands`, and the observer table it replayed), so they show
only what the signed log proves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from p2pspades import log
from p2pspades.audit.verdict import Status, Verdict, abandonment, forfeit
from p2pspades.describe import bonuses, failed
from p2pspades.describe.rules import described, summary
from p2pspades.printable import pad, plural, printable
from p2pspades.rules import HandResult, RuleSet, bid_notation, format_cards, sort_hand
from p2pspades.table import After, PassShown, Table, TableStatus, Violation

FORMAT = "p2pspades-hand-record/1"

_STATUS = {
    Status.VALID: "complete",
    Status.VIOLATION: "violation",
    Status.INCOMPLETE: "abandoned",
    Status.UNREADABLE: "unreadable",
}


def _status(verdict: Verdict) -> str:
    table = verdict.table
    if verdict.status is Status.INCOMPLETE and (table is None or table.status is TableStatus.RUNNING):
        return "incomplete"
    return _STATUS[verdict.status]


def _violation(v: Violation) -> dict[str, Any]:
    return {"seat": v.seat, "seq": v.seq, "check": v.check, "detail": v.detail,
            "evidence": [raw.hex() for raw in v.evidence]}


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
    status = _status(verdict)
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
    if table.abandoned_by is not None:
        result["abandoned_by"] = table.abandoned_by
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


def text_record(verdict: Verdict) -> str:
    """A record for people: tag pairs, then per hand the deal, the bids, the play by trick, the score."""
    table = verdict.table
    if table is None:
        return f'[Result "{_status(verdict)}"]\n{{{printable(verdict.summary)}}}\n'
    rec = hand_record(verdict)
    rules = table.rules
    names = [printable(s.name) for s in table.setup.seats]
    out: list[str] = []

    def tag(name: str, value: object) -> None:
        text = printable(value).replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'[{name} "{text}"]')

    tag("Event", table.setup.name)
    tag("GameId", rec["game_id"])
    tag("Rules", rules.preset or "custom")
    if summary(rules):
        tag("Options", summary(rules))
    tag("Target", rules.target)
    for s in table.setup.seats:
        tag(f"Seat{s.seat}", f"{names[s.seat]} ({s.fingerprint})")
    tag("Sides", " vs ".join("+".join(names[i] for i in side) for side in rules.sides))
    tag("FirstDealer", names[table.first_dealer] if table.first_dealer is not None else "?")
    tag("Result", rec["result"]["status"])
    if rec["result"]["winners"]:
        tag(
            "Winners", ", ".join("+".join(names[i] for i in rules.sides[w]) for w in rec["result"]["winners"])
        )
    out.append("")
    for h in verdict.hands:
        out.append(f"{{Hand {h.number}, dealer {names[h.dealer]}}}")
        tag("Hand", h.number)
        tag("Dealer", names[h.dealer])
        order = rules.order
        hands = (f"{names[s]}: {format_cards(sort_hand(cards, order))}" for s, cards in enumerate(h.hands))
        tag("Deal", " / ".join(hands))
        tag(
            "Bids",
            ", ".join(
                f"{names[s]} {bid_notation(h.bids[s], h.blind[s], rules)}"
                for s in range(rules.players)
            ),
        )
        passes = verdict.passes.get(h.number, ())
        if passes:
            out.append("{Passes, face down: while the hand was played only the two partners saw the cards}")
        for p in passes:
            tag("Pass", f"{names[p.seat]} to {names[p.to]}: {format_cards(sort_hand(p.cards, order))}")
        out.append("{Play: leader first; * marks the winner}")
        for i, t in enumerate(h.tricks, start=1):
            plays = " ".join(f"{names[s]}:{c.code}{'*' if s == t.winner else ''}" for s, c in t.plays)
            out.append(f"{i:2d}. {plays}")
        tag("Tricks", ", ".join(f"{names[s]} {n}" for s, n in enumerate(h.tricks_won)))
        tag(
            "Score",
            ", ".join(
                f"{'+'.join(names[i] for i in rules.sides[sc.side])} {sc.points:+d} "
                f"({'; '.join([plural(sc.bags, 'bag'), *bonuses(rules, sc)])})"
                for sc in h.scores
            ),
        )
        tag(
            "Totals",
            ", ".join(
                f"{'+'.join(names[i] for i in rules.sides[i2])} {t.score} ({plural(t.bags, 'bag')})"
                for i2, t in enumerate(h.totals)
            ),
        )
        for v in h.violations:
            tag("Violation", f"{names[v.seat]}: {failed(v.kind, v.detail)} (penalty: {rules.renege})")
        out.append("")
    out.append(f"{{{printable(verdict.summary)}}}")
    return "\n".join(out) + "\n"


def summary_lines(verdict: Verdict) -> list[str]:
    """What `verify` prints: players, hands, bids, tricks, scores and the winner or the problem."""
    table = verdict.table
    lines = [printable(verdict.summary)]
    if table is None:
        return lines
    rules = table.rules
    names = [printable(s.name) for s in table.setup.seats]
    lines.append(
        f"table '{printable(table.setup.name)}', game {table.game_id.hex()}, rules {described(rules)}"
    )
    if table.setup.after is not None:
        lines.append(f"  {table.setup.after.describe()}")
    for s in table.setup.seats:
        name = pad(names[s.seat], 20)
        lines.append(f"  seat {s.seat}: {name} {s.fingerprint}  side {rules.side_of(s.seat)}")
    for h in verdict.hands:
        bids = " ".join(bid_notation(h.bids[s], h.blind[s], rules, short=True) for s in range(rules.players))
        points = " ".join(f"{sc.points:+d}" for sc in h.scores)
        totals = " ".join(str(t.score) for t in h.totals)
        lines.append(
            f"  hand {h.number:2d} dealer {h.dealer}: bids {bids}; tricks "
            f"{' '.join(map(str, h.tricks_won))}; points {points}; totals {totals}"
            + (f"; {len(h.violations)} violation(s)" if h.violations else "")
        )
    game = table.game
    if game is not None and game.outcome is not None:
        win = ", ".join("+".join(names[i] for i in rules.sides[w]) for w in game.outcome.winners) or "nobody"
        lines.append(f"  winner: {win} ({game.outcome.termination.value})")
    fault = forfeit(table)
    if fault is not None and table.result is not None:
        win = ", ".join("+".join(names[i] for i in rules.sides[w]) for w in table.result.winners) or "nobody"
        lines.append(f"  {printable(fault)}; winner: {win}")
    if table.claim is not None:
        lines.append(f"  abandonment {printable(abandonment(table))}")
    if verdict.violation is not None:
        v = verdict.violation
        lines.append(
            f"  first violation: seat {v.seat} at entry {v.seq}: {printable(failed(v.check, v.detail))}"
        )
        for raw in v.evidence:
            lines.append(f"    evidence (signed entry, hex): {raw.hex()}")
    return lines
