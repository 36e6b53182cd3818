"""The records of a verified game for people: the text record, in the spirit of bridge's PBN, and the lines
`verify` prints. Both read what the log reader proved (`Verdict.hands`, and the observer table it replayed),
so they show only what the signed log proves; names come from the log and are made printable here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from p2pspades.audit.record import hand_record, record_status
from p2pspades.audit.verdict import Verdict, abandonment, forfeit
from p2pspades.describe import after_text, bonuses, failed, parted
from p2pspades.describe.game import bid_text, renege_words, termination_words
from p2pspades.describe.rules import described, summary
from p2pspades.i18n import _, ngettext
from p2pspades.printable import pad, printable
from p2pspades.rules import HandResult, RuleSet, format_cards, sort_hand
from p2pspades.table import PassShown, Table, TableStatus


def text_record(verdict: Verdict) -> str:
    """A record for people: tag pairs, then per hand the deal, the bids, the play by trick, the score."""
    table = verdict.table
    if table is None:
        return f'[Result "{record_status(verdict)}"]\n{{{printable(verdict.summary)}}}\n'
    rec = hand_record(verdict)
    names = [printable(s.name) for s in table.setup.seats]
    out = _game_tags(table, rec, names)
    out.append("")
    for h in verdict.hands:
        out += _hand_tags(table.rules, h, names, verdict.passes.get(h.number, ()))
        out.append("")
    out.append(f"{{{printable(verdict.summary)}}}")
    return "\n".join(out) + "\n"


def _tag(name: str, value: object) -> str:
    text = printable(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


def _game_tags(table: Table, rec: dict[str, Any], names: Sequence[str]) -> list[str]:
    """The game's tag pairs: table, game, rules, seats, sides, first dealer, result and winners."""
    rules = table.rules
    out = [_tag("Event", table.setup.name), _tag("GameId", rec["game_id"]),
           _tag("Rules", rules.preset or "custom")]
    if summary(rules):
        out.append(_tag("Options", summary(rules)))
    out.append(_tag("Target", rules.target))
    out += [_tag(f"Seat{s.seat}", f"{names[s.seat]} ({s.fingerprint})") for s in table.setup.seats]
    out.append(_tag("Sides", " vs ".join("+".join(names[i] for i in side) for side in rules.sides)))
    out.append(_tag("FirstDealer", names[table.first_dealer] if table.first_dealer is not None else "?"))
    out.append(_tag("Result", rec["result"]["status"]))
    if rec["result"]["winners"]:
        winners = ", ".join("+".join(names[i] for i in rules.sides[w]) for w in rec["result"]["winners"])
        out.append(_tag("Winners", winners))
    return out


def _hand_tags(rules: RuleSet, h: HandResult, names: Sequence[str], passes: Sequence[PassShown]) -> list[str]:
    """One hand: its dealer, the deal, the bids, the passes, the play by trick, the tricks, the score."""
    order = rules.order
    hands = (f"{names[s]}: {format_cards(sort_hand(cards, order))}" for s, cards in enumerate(h.hands))
    bids = (f"{names[s]} {bid_text(h.bids[s], h.blind[s], rules)}" for s in range(rules.players))
    heading = _("Hand {number}, dealer {dealer}").format(number=h.number, dealer=names[h.dealer])
    out = [f"{{{heading}}}", _tag("Hand", h.number),
           _tag("Dealer", names[h.dealer]), _tag("Deal", " / ".join(hands)), _tag("Bids", ", ".join(bids))]
    if passes:
        out.append("{" + _("Passes, face down: while the hand was played only the two partners saw the cards")
                   + "}")
    out += [_tag("Pass", _("{who} to {partner}: {cards}").format(
        who=names[p.seat], partner=names[p.to], cards=format_cards(sort_hand(p.cards, order))))
        for p in passes]
    out.append("{" + _("Play: leader first; * marks the winner") + "}")
    for i, t in enumerate(h.tricks, start=1):
        plays = " ".join(f"{names[s]}:{c.code}{'*' if s == t.winner else ''}" for s, c in t.plays)
        out.append(f"{i:2d}. {plays}")
    out.append(_tag("Tricks", ", ".join(f"{names[s]} {n}" for s, n in enumerate(h.tricks_won))))
    scores = (f"{_side(rules, names, sc.side)} {sc.points:+d} "
              f"({'; '.join([_bags(sc.bags), *bonuses(rules, sc)])})" for sc in h.scores)
    out.append(_tag("Score", ", ".join(scores)))
    totals = (f"{_side(rules, names, side)} {t.score} ({_bags(t.bags)})" for side, t in enumerate(h.totals))
    out.append(_tag("Totals", ", ".join(totals)))
    out += [_tag("Violation", _("{who}: {what} (penalty: {penalty})").format(
        who=names[v.seat], what=failed(v.kind, v.detail), penalty=renege_words(rules))) for v in h.violations]
    return out


def _bags(n: int) -> str:
    return ngettext("{n} bag", "{n} bags", n).format(n=n)


def _side(rules: RuleSet, names: Sequence[str], side: int) -> str:
    return "+".join(names[i] for i in rules.sides[side])


def summary_lines(verdict: Verdict) -> list[str]:
    """What `verify` prints: players, hands, bids, tricks, scores and the winner or the problem."""
    table = verdict.table
    lines = [printable(verdict.summary)]
    if table is None:
        return lines
    rules = table.rules
    names = [printable(s.name) for s in table.setup.seats]
    lines.append(_("table '{table}', game {id}, rules {rules}").format(
        table=printable(table.setup.name), id=table.game_id.hex(), rules=described(rules)))
    if table.setup.after is not None:
        lines.append(f"  {after_text(table.setup.after)}")
    for s in table.setup.seats:
        name = pad(names[s.seat], 20)
        lines.append("  " + _("seat {seat}: {name} {fingerprint}  side {side}").format(
            seat=s.seat, name=name, fingerprint=s.fingerprint, side=rules.side_of(s.seat)))
    lines += [_hand_line(rules, h) for h in verdict.hands]
    lines += _ending_lines(verdict, table, names)
    return lines


def _hand_line(rules: RuleSet, h: HandResult) -> str:
    bids = " ".join(bid_text(h.bids[s], h.blind[s], rules, short=True) for s in range(rules.players))
    points = " ".join(f"{sc.points:+d}" for sc in h.scores)
    totals = " ".join(str(t.score) for t in h.totals)
    line = "  " + _("hand {number} dealer {dealer}: bids {bids}; tricks {tricks}; points {points}; totals "
                    "{totals}").format(number=f"{h.number:2d}", dealer=h.dealer, bids=bids,
                                       tricks=" ".join(map(str, h.tricks_won)), points=points, totals=totals)
    found = len(h.violations)
    return line + ("; " + ngettext("{n} violation", "{n} violations", found).format(n=found) if found else "")


def _ending_lines(verdict: Verdict, table: Table, names: Sequence[str]) -> list[str]:
    """The winner, a fault's forfeit, the abandonment claim, a goodbye or a stop by agreement, and the first
    violation with its evidence."""
    rules = table.rules
    lines = []
    game = table.game
    if game is not None and game.outcome is not None:
        win = ", ".join(_side(rules, names, w) for w in game.outcome.winners) or _("nobody")
        lines.append("  " + _("winner: {winners} ({how})").format(
            winners=win, how=termination_words(game.outcome.termination)))
    fault = forfeit(table)
    if fault is not None and table.result is not None:
        win = ", ".join(_side(rules, names, w) for w in table.result.winners) or _("nobody")
        lines.append("  " + _("{fault}; winner: {winners}").format(fault=printable(fault), winners=win))
    if table.claim is not None:
        lines.append("  " + _("abandonment {claim}").format(claim=printable(abandonment(table))))
    ended = table.result
    if ended is not None and ended.status in (TableStatus.LEFT, TableStatus.STOPPED):
        lines.append("  " + printable(parted(ended, lambda seat: names[seat])))
    if verdict.violation is not None:
        v = verdict.violation
        lines.append("  " + _("first violation: seat {seat} at entry {entry}: {what}").format(
            seat=v.seat, entry=v.seq, what=printable(failed(v.check, v.detail))))
        evidence = _("evidence (signed entry, hex): {hex}")
        lines += ["    " + evidence.format(hex=raw.hex()) for raw in v.evidence]
    return lines
