"""The game as a page for a browser: one self-contained HTML file (`export --format html`, `verify --html`,
`replay --browser`).

Built only from what the verifier proved (`Verdict`, its observer table and its audited hands) and, for
several logs, from the `Dispute`: the banner says what `verify --json` says, in the same words, and nothing
here applies a rule of the game. Every string from a log (names, the table's name, a peer's detail, a file
name) goes through `printable` and then `html.escape`, so a name is always text: no markup, no script, no
direction override. The page fetches nothing: its CSS and script are inline and the cards are drawn with the
suit glyphs, so it works from a file:// URL with no network. Without script it is a static record; the
script adds the trick-by-trick stepper (buttons and the ← → keys).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from p2pspades import log
from p2pspades.audit.dispute import Dispute, Entry
from p2pspades.audit.record import genesis_rules, hand_record
from p2pspades.audit.verdict import Verdict, abandonment, forfeit
from p2pspades.describe import failed, parted, violation
from p2pspades.describe.dispute import because, problem, upheld_words
from p2pspades.describe.document import document, t
from p2pspades.describe.game import bid_text, card_glyph, rank_glyph, renege_words, status_words
from p2pspades.describe.rules import described
from p2pspades.describe.scores import bags_words, penalty_words, score_section
from p2pspades.errors import RemoteError
from p2pspades.i18n import N_, _, listed, ngettext, pgettext
from p2pspades.rules import Card, HandResult, RuleSet
from p2pspades.table import PassShown, Table, TableStatus, Violation

__all__ = ["dispute_page", "game_page"]

#: the status words of the hand record (`verify --json`'s `result.status`), with the banner's mark
_MARK = {"complete": "✓", "violation": "✗", "unreadable": "✗", "abandoned": "…", "incomplete": "…",
         "left": "…", "stopped": "…"}
_TEXT = "\ufe0e"  # text presentation: a suit glyph is never drawn as an emoji
_RED = ("H", "D")
#: the entry types whose count the page shows per hand, in the order of a hand, with their label
_STEPS = (("commit", N_("commitments")), ("shuffle", N_("shuffles")), ("lock", N_("locks")),
          ("keys", N_("deal keys")), ("play", N_("cards opened")), ("void", N_("void claims")),
          ("reveal", N_("seed reveals")))
#: the steps that carry a zero-knowledge proof in protocol version 2
_PROVEN = {"shuffle", "lock", "void"}


class Names:
    """The players of a game by name: a seat, a side (its players' names joined), and the verifier's words
    with every "seat N" and "side N" in them put as the names they stand for (its record keeps the
    numbers)."""

    def __init__(self, table: Table) -> None:
        self.names = [s.name for s in table.setup.seats]
        self.rules = table.rules
        self._seat_words, self._side_words, numbered = _numbered()
        self._numbered = re.compile(numbered)

    def seat(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else _("seat {seat}").format(seat=seat)

    def side(self, side: int) -> str:
        if not 0 <= side < len(self.rules.sides):
            return _("side {side}").format(side=side)
        return " + ".join(self.names[s] for s in self.rules.sides[side])

    def several(self, words: Sequence[str]) -> str:
        return listed(list(words))

    def text(self, sentence: str) -> str:
        def named(found: re.Match[str]) -> str:
            numbers = [int(n) for n in re.findall(r"\d+", found.group(2))]
            name = self.side if found.group(1) in self._side_words else self.seat
            return self.several([name(n) for n in numbers])

        return self._numbered.sub(named, sentence)

    def outcome(self, table: Table) -> str:
        """Who won, in one sentence with the names and the final score."""
        result, game = table.result, table.game
        totals = game.totals if game is not None and game.history else ()  # no hand scored: no score
        if len(totals) == 2:
            # TRANSLATORS: the final score of two sides, after who won: ", 520 to 310"
            scores = _(", {first} to {second}").format(first=totals[0].score, second=totals[1].score) \
                if result is not None else ""
        else:
            scores = "".join(f", {self.side(k)} {t.score}" for k, t in enumerate(totals))
        if result is None:
            return _("Nobody has won yet: the log stops before the end of the game") + scores
        winners = self.several([self.side(w) for w in result.winners]) if result.winners else ""
        if result.status is TableStatus.COMPLETE:
            if not winners:
                return _("Nobody won the game") + scores
            return ngettext("{winners} won the game", "{winners} won the game", len(result.winners)).format(
                winners=winners) + scores
        if result.contested:
            return _("Nobody won: every seat that signed the certificate wins by it, so it proves nothing")
        if result.status in (TableStatus.LEFT, TableStatus.STOPPED):
            how = parted(result, self.seat)
            if not winners:
                return _("Nobody won: {how}").format(how=how) + scores
            return ngettext("{winners} won: {how}", "{winners} won: {how}", len(result.winners)).format(
                winners=winners, how=how) + scores
        fault = self.seat(result.seat) if result.seat is not None else _("a seat")
        if result.status is TableStatus.ABANDONED:
            why = _("{seat} stopped answering").format(seat=fault)
        else:
            why = _("{seat} broke the rules").format(seat=fault)
        if result.forfeit and winners:
            return _("{winners} won by forfeit: {why}").format(winners=winners, why=why) + scores
        return _("Nobody won: {why}, and the game is void (rule on_fault=void)").format(why=why) + scores


def _numbered() -> tuple[set[str], set[str], str]:
    """The words the verifier names a seat, several seats and a side with in the language spoken ("seat",
    "seats", "side"; "Platz", "Plätze", "Partei"), and the pattern of such a word and its numbers."""
    def word(template: str, field: str) -> str:
        before = template.split("{" + field + "}")[0]
        found = re.search(r"(\w+)\W*$", before)
        return found.group(1) if found else ""

    seats = {word(_("seat {seat}"), "seat")} | {
        word(ngettext("seat {seats}", "seats {seats}", n), "seats") for n in (1, 2, 5)}
    sides = {word(_("side {side}"), "side")}
    words = sorted((seats | sides) - {""}, key=len, reverse=True)
    joined = "|".join(re.escape(w) for w in (", ", _(" and ")))
    return seats, sides, rf"\b({'|'.join(map(re.escape, words))}) (\d+(?:(?:{joined})\d+)*)\b"


def game_page(verdict: Verdict, source: str = "") -> str:
    """The page of one verified log (`source` names the file in the page's title)."""
    record = hand_record(verdict)
    table = verdict.table
    if table is None:
        body = [_banner(record["result"]["status"], verdict.summary, [])]
    else:
        named = Names(table)
        body = [_banner(record["result"]["status"], verdict.summary, _banner_notes(verdict, named),
                        named=named, outcome=named.outcome(table))]
    body += _game_sections(verdict)
    name = verdict.table.setup.name if verdict.table is not None else source
    return document(f"p2pspades: {name}" + (f" ({source})" if source and verdict.table else ""), body)


def dispute_page(d: Dispute) -> str:
    """The referee's page for several logs of one game: each log's own verdict side by side, the entries
    around the fork, which branch stands and why, and then the upheld game itself."""
    upheld = d.verdict
    if not d.one_game:
        banner = _banner("unreadable", _("one game: no: {why}").format(why=problem(d)), [])
    elif upheld is None:
        banner = _banner("unsettled", _("a fork the rules cannot settle"),
                         [_("because {why}").format(why=because(d))])
    else:
        named = Names(upheld.table) if upheld.table is not None else None
        notes = [] if named is None else _banner_notes(upheld, named)
        outcome = None if named is None or upheld.table is None else named.outcome(upheld.table)
        banner = _banner(hand_record(upheld)["result"]["status"], upheld.summary,
                         [_("upheld: {branch}, because {why}").format(branch=upheld_words(d), why=because(d)),
                          *notes], named=named,
                         outcome=outcome)
    body = [banner, _logs_section(d)]
    if d.one_game:
        body.append(_chains_section(d))
    if upheld is not None:
        body += _game_sections(upheld)
    title = ngettext("p2pspades: dispute over {n} log", "p2pspades: dispute over {n} logs", len(d.logs))
    return document(title.format(n=len(d.logs)), body)


# ----------------------------------------------------------------------------------------------- the parts
#: the banner's word for a status of the hand record the table's status words do not have
_STATUS_WORDS = {"unreadable": N_("unreadable"), "incomplete": N_("incomplete"), "unsettled": N_("unsettled")}


def _banner(status: str, summary: str, notes: Iterable[str], *, named: Names | None = None,
            outcome: str | None = None) -> str:
    """The verdict as `verify` gives it (its exact words in `data-detail`; on the page, with the players'
    names for the seat numbers), and who won."""
    mark = _MARK.get(status, "?")
    said = _STATUS_WORDS.get(status)
    word = _(said) if said is not None else status_words(status)
    items = "".join(f"<li>{t(n)}</li>" for n in notes)
    shown = named.text(summary) if named is not None else summary
    return (
        f'<section id="verdict" class="verdict {status}" data-status="{status}" aria-labelledby="verdict-h">'
        f'<h1 id="verdict-h"><span aria-hidden="true">{mark}</span> <span class="status">{t(word)}</span>'
        "</h1>"
        + (f'<p class="outcome">{t(outcome)}</p>' if outcome else "")
        + f'<p class="summary" data-detail="{t(summary)}">{t(shown)}</p>'
        + (f"<ul>{items}</ul>" if items else "") + "</section>"
    )


def _banner_notes(verdict: Verdict, named: Names) -> list[str]:
    table = verdict.table
    if table is None:
        return []
    notes = [forfeit(table), abandonment(table) if table.claim is not None else None]
    return [named.text(n) for n in notes if n is not None and n not in verdict.summary]


def _game_sections(verdict: Verdict) -> list[str]:
    table = verdict.table
    if table is None:
        return []
    names = [s.name for s in table.setup.seats]
    counts = _entries_by_hand(table)
    fault_hand = _hand_of(verdict.violation) if verdict.violation is not None else None
    named = Names(table)
    sides = [named.side(i) for i in range(len(table.rules.sides))]
    out = [_nav(verdict), _table_section(table), score_section(table.rules, verdict.hands, sides)]
    for h in verdict.hands:
        out.append(_hand_section(table, h, names, counts.get(h.number, Counter()), verdict.violation
                                 if fault_hand == h.number else None, verdict.passes.get(h.number, ())))
    audited = {h.number for h in verdict.hands}
    unfinished = [n for n in counts if n > 0 and n not in audited]
    for n in unfinished:
        v = verdict.violation if fault_hand == n else None
        out.append(_unfinished_section(table, n, counts[n], v))
    if verdict.violation is not None or table.claim is not None:
        out.append(_fault_section(verdict, names))
    return out


def _nav(verdict: Verdict) -> str:
    hand = _("hand {number}")
    links = [("table", _("table")), ("scores", _("scores"))]
    links += [(f"hand-{h.number}", hand.format(number=h.number)) for h in verdict.hands]
    if verdict.violation is not None or (verdict.table is not None and verdict.table.claim is not None):
        links.append(("fault", _("the fault")))
    items = "".join(f'<li><a href="#{anchor}">{t(words)}</a></li>' for anchor, words in links)
    sections = _("sections")
    return f'<nav aria-label="{t(sections)}"><ul>{items}</ul></nav>'


def _table_section(table: Table) -> str:
    rules = table.rules
    named = Names(table)
    names = named.names
    rows = "".join(
        f"<tr><td>{s.seat}</td><td>{t(s.name)}</td><td><code>{t(s.fingerprint)}</code></td>"
        f"<td>{t(named.side(rules.side_of(s.seat)))}</td></tr>"
        for s in table.setup.seats
    )
    sides = _(" against ").join(named.side(i) for i in range(len(rules.sides)))
    signed = "".join(f"<tr><th scope=row>{t(k)}</th><td>{t(_value(v))}</td></tr>"
                     for k, v in genesis_rules(table).items())
    first = table.first_dealer
    facts = [
        (_("table"), table.setup.name),
        (_("game id"), table.game_id.hex()),
        (_("rule set"), described(rules)),
        (_("protocol version"), table.setup.version),
        (_("sides"), sides),
        (_("first dealer"), _("not drawn") if first is None else names[first]),
        (_("entries"), len(table.entries)),
    ]
    dl = "".join(f"<dt>{t(k)}</dt><dd>{t(v)}</dd>" for k, v in facts)
    heads = "".join(f"<th scope=col>{t(h)}</th>"
                    for h in (_("seat"), _("name"), _("key fingerprint"), _("side")))
    title, caption = _("The table"), _("Seats and their keys")
    genesis = _("The rules as the genesis signs them")
    return (
        f'<section id="table" aria-labelledby="table-h"><h2 id="table-h">{t(title)}</h2>'
        f"<dl>{dl}</dl>"
        f'<div class="scroll"><table class="seats"><caption>{t(caption)}</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table></div>"
        f"<details><summary>{t(genesis)}</summary><div class=scroll><table>"
        f"{signed}</table></div></details></section>"
    )


def _value(v: object) -> str:
    if isinstance(v, list | tuple):
        return ", ".join(map(str, v)) or _("none")
    return _("none") if v is None else str(v)


def _card(c: Card, trick: int | None = None) -> str:
    red = " red" if c.suit.value in _RED and not c.is_joker else ""
    face = card_glyph(c) if c.is_joker else card_glyph(c) + _TEXT
    at = "" if trick is None else f' data-t="{trick}"'
    return f'<span class="cd{red}"{at}>{face}</span>'


def _hand_section(table: Table, h: HandResult, names: Sequence[str], counts: Counter[str],
                  fault: Violation | None, passes: Sequence[PassShown] = ()) -> str:
    rules = table.rules
    played = {(seat, card): i for i, tr in enumerate(h.tricks) for seat, card in tr.plays}
    suit_names = {suit: _(name) for suit, name in _SUIT_NAME.items()}
    dealt_by, led, won = _("dealer"), pgettext("trick", "led"), pgettext("trick", "won")
    seats = []
    for seat, cards in enumerate(h.hands):
        lines = []
        for suit in "SHDC":
            held = sorted((c for c in cards if c.suit.value == suit), key=lambda c: -int(c.rank))
            glyph = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit] + _TEXT
            red = " red" if suit in _RED else ""
            faces = " ".join(_card_face(c, played.get((seat, c))) for c in held) or "—"
            lines.append(
                f'<li><span class="suit{red}" aria-label="{t(suit_names[suit])}">{glyph}</span> '
                f"{faces}</li>"
            )
        bid = bid_text(h.bids[seat], h.blind[seat], rules)
        dealer = f' <span class="tag">{t(dealt_by)}</span>' if seat == h.dealer else ""
        took = _("bid {bid}, took {tricks}").format(bid=bid, tricks=h.tricks_won[seat])
        seats.append(
            f'<div class="seat p{seat}" data-seat="{seat}"><h4>{t(names[seat])}{dealer}</h4>'
            f"<p>{t(took)}</p>"
            f'<ul class="suits">{"".join(lines)}</ul></div>'
        )
    tricks = []
    for i, tr in enumerate(h.tricks, start=1):
        plays = "".join(
            f'<li class="{"led" if seat == tr.leader else ""}{" won" if seat == tr.winner else ""}">'
            f"{t(names[seat])} {_card(card)}"
            + (f' <span class="tag">{t(led)}</span>' if seat == tr.leader else "")
            + (f' <span class="tag win">{t(won)}</span>' if seat == tr.winner else "")
            + "</li>"
            for seat, card in tr.plays
        )
        if tr.winner is None:
            said = _("Trick {n}: {leader} led").format(n=i, leader=names[tr.leader])
        else:
            said = _("Trick {n}: {leader} led, {winner} won").format(n=i, leader=names[tr.leader],
                                                                     winner=names[tr.winner])
        tricks.append(
            f'<li class="trick" data-n="{i}" data-leader="{tr.leader}" data-winner="{tr.winner}">'
            f"<p>{t(said)}</p><ol>{plays}</ol></li>"
        )
    n = len(h.tricks)
    back, back_long, dealt = _("previous"), _("previous trick"), _("As dealt")
    on, on_long, keys = _("next"), _("next trick"), _("or ← → keys")
    stepper = (
        '<div class="stepper" hidden><button type="button" data-step="-1" '
        f'aria-label="{t(back_long)}">← {t(back)}</button> '
        f'<span class="pos" aria-live="polite">{t(dealt)}</span> '
        f'<button type="button" data-step="1" aria-label="{t(on_long)}">{t(on)} →</button> '
        f"<small>{t(keys)}</small></div>"
    )
    named = Names(table)
    score = "; ".join(f"{named.side(sc.side)} {sc.points:+d} ({bags_words(sc.bags)}"
                      f"{penalty_words(table.rules, h, sc.side)})" for sc in h.scores)
    heading = _("Hand {number}, dealer {dealer}").format(number=h.number, dealer=names[h.dealer])
    return (
        f'<section class="hand" id="hand-{h.number}" tabindex="-1" data-tricks="{n}" '
        f'aria-labelledby="hand-{h.number}-h"><h2 id="hand-{h.number}-h">{t(heading)}</h2>'
        f'<div class="deal players-{rules.players}">{"".join(seats)}'
        f'<div class="centre">{stepper}<ol class="tricks">{"".join(tricks)}</ol></div></div>'
        + _passes(passes, names)
        + "<p>" + t(_("Score: {score}.").format(score=score)) + "</p>"
        + _proofs(table, h.number, counts, fault)
        + _hand_audit(h, names, rules)
        + "</section>"
    )


def _passes(passes: Sequence[PassShown], names: Sequence[str]) -> str:
    """Rule `nil_pass`: the hand's passes, with who saw the cards while it was played."""
    if not passes:
        return ""
    items = "".join(
        "<li>" + t(_("{who} to {partner}: {cards}")).format(
            who=t(names[p.seat]), partner=t(names[p.to]), cards=" ".join(_card(c) for c in p.cards)) + "</li>"
        for p in passes)
    said = _("Passed face down (the hands above are as play started; while the hand was played only the two "
             "partners saw these cards):")
    return f'<div class="passes"><p>{t(said)}</p><ul>{items}</ul></div>'


_SUIT_NAME = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
"""The suits' names, read aloud for a suit's glyph."""


def _card_face(c: Card, trick: int | None) -> str:
    """A card in a seat's diagram: the rank only (its suit is the line's)."""
    rank = rank_glyph(c)
    at = "" if trick is None else f' data-t="{trick}"'
    return f'<span class="cd"{at}>{rank}</span>'


def _proofs(table: Table, hand: int, counts: Counter[str], fault: Violation | None) -> str:
    """What the log proved live in this hand: the entries the table took, by kind (each took every check,
    its proof included), and the one it refused, if the game stopped on it."""
    v2 = table.setup.version >= 2
    rows = []
    for kind, label in _STEPS:
        n = counts.get(kind, 0)
        if kind in _PROVEN:
            how = _("each with its proof, verified live") if v2 else _(
                "no live proof (protocol version 1): the end-of-hand audit recomputes it")
        elif kind == "play":
            how = _("each key opened a card of the seat's own, unplayed")
        elif kind == "keys":
            how = _("each opens only positions of other seats")
        else:
            how = _("every check passed")
        step = _(label)
        rows.append(f"<tr><th scope=row>{t(step)}</th><td>{n}</td><td>{t(how)}</td></tr>")
    if fault is not None:
        refused = _("refused")
        rows.append(f'<tr class="bad"><th scope=row>{t(refused)}</th><td>1</td>'
                    f'<td>{t(Names(table).text(violation(fault)))}</td></tr>')
    heads = "".join(f"<th scope=col>{t(h)}</th>" for h in (_("step"), _("entries"), _("result")))
    caption = _("Proven live, entry by entry")
    return ('<div class="scroll"><table class="proofs">'
            f"<caption>{t(caption)}</caption><thead><tr>{heads}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def _hand_audit(h: HandResult, names: Sequence[str], rules: RuleSet) -> str:
    found = "".join(
        '<li class="bad">' + t(_("{who}: {what} (penalty: {penalty})").format(
            who=names[v.seat], what=failed(v.kind, v.detail), penalty=renege_words(rules))) + "</li>"
        for v in h.violations
    )
    n = len(h.violations)
    plays = _("no renege") if not n else ngettext(
        "{n} violation, settled by the penalty", "{n} violations, settled by the penalty", n).format(n=n)
    lines = (_("every seed revealed matches its commitment"),
             _("the deck recomputed from the seeds: every shuffle, every lock and every card dealt"),
             _("every play checked with all hands known: {plays}").format(plays=plays))
    return ("<h3>" + t(_("The end-of-hand audit")) + '</h3><ul class="audit">'
            + "".join(f"<li>{t(line)}</li>" for line in lines) + f"{found}</ul>")


def _unfinished_section(table: Table, n: int, counts: Counter[str], fault: Violation | None) -> str:
    return (
        f'<section class="unfinished" id="hand-{n}" aria-labelledby="hand-{n}-h">'
        + f'<h2 id="hand-{n}-h">' + t(_("Hand {number}, not finished").format(number=n)) + "</h2>"
        + "<p>" + t(_("The game stopped before the seeds were revealed: the cards stay hidden and this "
                      "hand was not audited.")) + "</p>"
        + _proofs(table, n, counts, fault) + "</section>"
    )


def _fault_section(verdict: Verdict, names: Sequence[str]) -> str:
    table = verdict.table
    assert table is not None
    items: list[str] = []
    v = verdict.violation
    slot = table.claim
    last = v.seq if v is not None else slot.seq if slot is not None else len(table.entries)
    for raw in table.entries[max(1, last - 3):min(last, len(table.entries))]:
        items.append(_timeline_entry(raw, names, _("before")))
    named = Names(table)
    if slot is not None:
        items.append(f'<li class="step claim"><p>{t(named.text(abandonment(table)))}</p></li>')
        for seat in slot.voters:
            vote = _("vote, timeout {seconds} s").format(seconds=slot.waits[seat])
            items.append(_timeline_entry(slot.votes[seat], names, vote))
        for _seat, (raw, _hash) in sorted(slot.refusals.items()):
            items.append(_timeline_entry(raw, names, _("refusal: it took the entry")))
        if table.certified is slot and slot.seq < len(table.entries):
            items.append(_timeline_entry(table.entries[slot.seq], names, _("certificate")))
    if v is not None:
        items.append(f'<li class="step bad"><p>{t(named.text(violation(v)))}</p></li>')
        for raw in v.evidence:
            items.append(_timeline_entry(raw, names, _("evidence")))
    fault = forfeit(table)
    if fault is not None:
        items.append(f'<li class="step"><p>{t(named.text(fault))}</p></li>')
    title = _("How the game ended")
    return ('<section id="fault" tabindex="-1" aria-labelledby="fault-h"><h2 id="fault-h">'
            f'{t(title)}</h2><ol class="timeline">{"".join(items)}</ol></section>')


def _timeline_entry(raw: bytes, names: Sequence[str], role: str) -> str:
    entry = Entry.of(raw)
    if entry is None:
        unread = _("{role}: an entry whose header cannot be read").format(role=role)
        return f'<li class="entry"><p>{t(unread)}</p>{_raw(raw)}</li>'
    who = names[entry.seat] if entry.seat < len(names) else _("no such seat")
    signer = _("signed by {who} (seat {seat})")
    if entry.type == "certificate":  # its envelope is signed by nobody: the votes in it are
        signer = _("at the slot of {who} (seat {seat}), signed by the votes it carries")
    said = _("entry {seq}, {type}, {signer}").format(seq=entry.seq, type=entry.type,
                                                      signer=signer.format(who=who, seat=entry.seat))
    return (
        f'<li class="entry"><p><b>{t(role)}</b>: {t(said)}</p>'
        + "<p>" + t(_("hash")) + f" <code>{entry.hash.hex()}</code></p>{_raw(raw)}</li>"
    )


def _raw(raw: bytes) -> str:
    said = ngettext("the signed entry ({n} byte, hex)", "the signed entry ({n} bytes, hex)", len(raw))
    return (f"<details><summary>{t(said.format(n=len(raw)))}</summary><code class=hex>{raw.hex()}</code>"
            "</details>")


# ------------------------------------------------------------------------------------------- several logs
def _logs_section(d: Dispute) -> str:
    cols = []
    for case in d.logs:
        status = hand_record(case.verdict)["result"]["status"]
        head = log.entry_hash(case.chain[-1]).hex()[:16] + "…" if case.chain else _("none")
        said = _STATUS_WORDS.get(status)
        word = _(said) if said is not None else status_words(status)
        counted = ngettext("{n} entry; last hash {hash}", "{n} entries; last hash {hash}", len(case.chain))
        cols.append(
            f'<div class="log {status}"><h3>{t(case.path)}</h3><p><span class="status">{t(word)}</span>: '
            f"{t(case.verdict.summary)}</p>"
            f"<p>{t(counted).format(n=len(case.chain), hash=f'<code>{t(head)}</code>')}</p></div>"
        )
    title = _("The logs, each verified alone")
    return ('<section id="logs" aria-labelledby="logs-h">'
            f'<h2 id="logs-h">{t(title)}</h2><div class="logs">{"".join(cols)}</div></section>')


def _chains_section(d: Dispute) -> str:
    readable = [i for i, c in enumerate(d.logs) if c.readable]
    end = max(len(d.logs[i].chain) for i in readable)
    fork = d.fork.seq if d.fork is not None else None
    centre = fork if fork is not None else end - 1
    upheld = d.upheld.entry.hash if d.upheld is not None else None
    head = "".join(f"<th scope=col>{t(d.logs[i].path)}</th>" for i in readable)
    rows = []
    for slot in range(max(0, centre - 4), min(end, centre + 3)):
        cells = []
        for i in readable:
            chain = d.logs[i].chain
            entry = Entry.of(chain[slot]) if slot < len(chain) else None
            if entry is None:
                cells.append("<td>—</td>")
                continue
            mark = ' class="upheld"' if slot == fork and entry.hash == upheld else ""
            which = _("seat {seat} {type}").format(seat=entry.seat, type=entry.type)
            upheld_mark = " <b>" + t(_("upheld")) + "</b>" if mark else ""
            cells.append(f"<td{mark}>{t(which)}<br><code>{entry.hash.hex()[:16]}…</code>{upheld_mark}</td>")
        row = ' class="fork"' if slot == fork else ""
        label = f"{slot} <b>" + t(_("fork")) + "</b>" if slot == fork else str(slot)
        rows.append(f"<tr{row}><th scope=row>{label}</th>{''.join(cells)}</tr>")
    where = (_("agree up to entry {entry}, fork at entry {fork}.").format(entry=d.agreed - 1, fork=fork)
             if fork is not None else
             _("agree up to entry {entry}, where the longest log ends; no fork.").format(entry=d.agreed - 1))
    behind_said = _("behind: {log} stops after entry {entry}")
    behind = "".join(f"<li>{t(behind_said.format(log=d.logs[i].path, entry=len(d.logs[i].chain) - 1))}</li>"
                     for i in d.behind)
    title, entry_word = _("Side by side"), _("entry")
    upheld_said = _("upheld: {branch}, because {why}").format(branch=upheld_words(d), why=because(d))
    return (
        f'<section id="chains" aria-labelledby="chains-h"><h2 id="chains-h">{t(title)}</h2>'
        f"<p>{t(where)}</p>" + (f"<ul>{behind}</ul>" if behind else "")
        + '<div class="scroll"><table class="chains">'
        f"<thead><tr><th scope=col>{t(entry_word)}</th>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
        f"<p>{t(upheld_said)}</p></section>"
    )


# ----------------------------------------------------------------------------------------------- the log
def _entries_by_hand(table: Table) -> dict[int, Counter[str]]:
    """Per hand (the header's `h`), how many entries of each kind the table took; `void` counts the plays
    that carry a void proof."""
    out: dict[int, Counter[str]] = {}
    for raw in table.entries:
        try:
            payload = log.open_envelope(raw).payload
        except RemoteError:  # pragma: no cover - the table took it, so it opens
            continue
        counts = out.setdefault(int(payload.get("h", 0)), Counter())
        counts[str(payload.get("t"))] += 1
        if payload.get("t") == "play" and payload.get("x"):
            counts["void"] += 1
    return out


def _hand_of(v: Violation) -> int | None:
    """The hand the entry a violation names belongs to (its header's `h`)."""
    for raw in v.evidence:
        try:
            payload = log.open_envelope(raw).payload
            if log.validate_header(payload).seq == v.seq:
                return int(payload["h"])
        except RemoteError:
            continue
    return None
