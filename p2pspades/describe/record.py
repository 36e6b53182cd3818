"""The records of a verified game for people: the text record, in the spirit of bridge's PBN, and the lines
`verify` prints. Both read what the log reader proved (`Verdict.hands`, and the observer table it replayed),
so they show only what the signed log proves; names come from the log and are made printable here.
"""

from __future__ import annotations

from p2pspades.audit.record import hand_record, record_status
from p2pspades.audit.verdict import Verdict, abandonment, forfeit
from p2pspades.describe import bonuses, failed
from p2pspades.describe.rules import described, summary
from p2pspades.printable import pad, plural, printable
from p2pspades.rules import bid_notation, format_cards, sort_hand


def text_record(verdict: Verdict) -> str:
    """A record for people: tag pairs, then per hand the deal, the bids, the play by trick, the score."""
    table = verdict.table
    if table is None:
        return f'[Result "{record_status(verdict)}"]\n{{{printable(verdict.summary)}}}\n'
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
