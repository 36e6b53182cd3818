"""The game screen's windows over the table: the dialog of a bid, blind nil or draw, and the overlays (help,
score sheet, last trick, cards played, a hand's summary, leave the game?, game over). Each is a function of
the `UiState` alone, read when it is drawn.
"""

from __future__ import annotations

import textwrap

from p2pspades.audit import seat_stats
from p2pspades.describe import failed
from p2pspades.describe.game import card_glyph, rank_glyph
from p2pspades.describe.rules import described
from p2pspades.i18n import _, ngettext, number
from p2pspades.printable import pad, width
from p2pspades.rules import BlindBid, Card, SeatView
from p2pspades.table import DecisionKind
from p2pspades.ui.derived import card_tracker, played_cards
from p2pspades.ui.keys import help_lines
from p2pspades.ui.result import result_level
from p2pspades.ui.state import UiState
from p2pspades.ui.text import (
    bid_text,
    bidding_order,
    card_class,
    clip,
    renege_words,
    score_sheet,
    score_words,
    termination_words,
)
from p2pspades.ui.widgets import Line, join_lines


def dialog_title(state: UiState) -> str:
    kind = state.kind
    v = state.view
    if kind is DecisionKind.BID:
        title = _("Your bid")
    elif kind is DecisionKind.BLIND_NIL:
        title = _("Blind nil?")
    else:
        title = _("Draw pile")
    return title if v is None else _("{title} (hand {number})").format(title=title, number=v.hand_number)


def dialog_text(state: UiState) -> Line:
    """The dialog of a bid, blind nil or the draw pile: what to know first, the options, the keys."""
    kind = state.kind
    v = state.view
    lines: list[Line] = []
    if v is not None and kind is DecisionKind.BID:
        lines = _bid_lines(state, v)
    elif v is not None and kind is DecisionKind.BLIND_NIL:
        lines = _blind_nil_lines(state, v)
    elif v is not None and kind is DecisionKind.DRAW:
        lines = _draw_lines(v)
    lines.append([])
    row: Line = []
    for i, option in enumerate(state.choices()):
        style = "class:choice.selected" if i == state.choice else "class:choice"
        row += [("", " "), (style, f" {state.choice_label(option)} ")]
    lines += [row, [], [("class:hint", _dialog_keys(state))]]
    return join_lines(lines)


def _bid_lines(state: UiState, v: SeatView) -> list[Line]:
    rules = state.rules
    so_far = [
        f"{state.names[s]} {bid_text(v.bids[s], v.blind[s], rules)}"
        for s in bidding_order(rules, v.dealer)
        if v.bids[s] is not None or v.blind[s]
    ]
    said = (_("Bids so far: {bids}").format(bids=", ".join(so_far)) if so_far
            else _("Bids so far: none, you bid first"))
    question = _("How many tricks will you take? (nil: none at all)") if rules.nil else _(
        "How many tricks will you take?")
    return [[("", said)], [("class:hint", question)]]


def _blind_nil_lines(state: UiState, v: SeatView) -> list[Line]:
    value = state.rules.blind_nil_value
    mine = v.totals[v.side].score
    best = max(t.score for i, t in enumerate(v.totals) if i != v.side)
    lines: list[Line] = [
        [("", _("Your side trails by {points}. Bid blind nil, before you see your cards?").format(
            points=best - mine))],
        [("class:hint", _("Blind nil scores +{points} if you take no trick, -{points} if you take "
                          "one.").format(points=value))],
    ]
    blind_bids = [a for a in state.choices() if isinstance(a, BlindBid)]
    if blind_bids:
        lines.append([("class:hint", _("Or bid {n} or more tricks blind: your side's contract then scores "
                                       "double, made or failed.").format(n=blind_bids[0].tricks))])
    return lines


def _draw_lines(v: SeatView) -> list[Line]:
    top = v.draw_card
    return [
        [
            ("", _("Top card of the pile:") + " "),
            *([(card_class(top), card_glyph(top))] if top else [("", "?")]),
            ("class:hint", "   (" + ngettext("{n} card left", "{n} cards left", v.stock_left).format(
                n=v.stock_left) + ")"),
        ],
        [("class:hint", _("keep: the next card is discarded unseen · discard: you get the next one unseen"))],
    ]


def _dialog_keys(state: UiState) -> str:
    kind = state.kind
    if kind is DecisionKind.BID:
        typed = "   " + _("typed: {typed}").format(typed=state.typed) if state.typed else ""
        keys = _("←/→ choose · Enter bid · type a number · n nil") if state.rules.nil else _(
            "←/→ choose · Enter bid · type a number")
        return keys + typed
    if kind is DecisionKind.BLIND_NIL:
        blind_bids = any(isinstance(a, BlindBid) for a in state.choices())
        return _("y blind nil · n no · or ←/→ and Enter (blind bids too)") if blind_bids else _(
            "y blind nil · n no · or ←/→ and Enter")
    return _("k keep · d discard · or ←/→ and Enter")


def help_column() -> int:
    """The width of the help window's keys, in the language spoken: what each does starts one column after."""
    return max(17, *(width(key) + 1 for key, _text in help_lines()))


def help_text(state: UiState) -> Line:
    column = help_column()
    lines: list[Line] = [[("class:key", pad(key, column)), ("", text)] for key, text in help_lines()]
    lines.append([])
    lines.append([("class:heading", _("Rules: ")), ("", _("{rules}, to {target}").format(
        rules=described(state.rules), target=state.rules.target))])
    lines.append(
        [("class:hint", _("Every card is verified as it is played; every hand is audited at its end."))]
    )
    lines.append([("class:hint", _("Esc or ? closes this window."))])
    return join_lines(lines)


def scores_text(state: UiState) -> Line:
    lines = score_sheet(state.rules, state.names, state.history, last=12)
    lines.append([])
    lines.append([("class:hint", _("target {target} · Esc or s closes").format(target=state.rules.target))])
    return join_lines(lines)


def last_trick_text(state: UiState) -> Line:
    trick = state.last_trick
    if trick is None:
        return [("class:hint", _("No trick has been completed yet.  (Esc closes)"))]
    names = state.names
    lines: list[Line] = [[("", _("Led by {who}:").format(who=names[trick.leader]))]]
    for seat, card in trick.plays:
        won = "  " + _("← won the trick") if seat == trick.winner else ""
        lines.append(
            [("", f"  {pad(clip(names[seat], 16), 17)}"), (card_class(card), card_glyph(card)),
             ("class:hint", won)]
        )
    lines.append([])
    lines.append([("class:hint", _("Esc or l closes"))])
    return join_lines(lines)


def played_title(state: UiState) -> str:
    v = state.view
    if v is None:
        return _("Cards played")
    return _("Cards played (hand {number})").format(number=v.hand_number)


def _ranks(cards: list[Card]) -> str:
    return " ".join(rank_glyph(card) for card in cards)


def played_text(state: UiState) -> Line:
    """The card tracker: per suit, the cards gone this hand, and those neither played nor ours."""
    rows = card_tracker(state.view)
    if not rows:
        return [("class:hint", _("No hand has been dealt yet.  (Esc closes)"))]
    column = max(12, width(_("played")), *(width(_ranks(gone)) for _suit, gone, _out in rows))
    heading = "   " + pad(_("played"), column) + "   " + _("still out (not in your hand)")
    lines: list[Line] = [[("class:hint", heading)]]
    for suit, gone, out in rows:
        lines.append(
            [
                (card_class(Card.parse("A" + suit.value)), f" {suit.glyph} "),
                ("", pad(_ranks(gone) or "-", column)),
                ("class:frame.border", " │ "),
                ("class:hint", _ranks(out) or "-"),
            ]
        )
    lines.append([])
    played = len(played_cards(state.view))
    lines.append([("class:hint", ngettext("{n} card played · Esc or p closes",
                                          "{n} cards played · Esc or p closes", played).format(n=played))])
    return join_lines(lines)


def summary_title(state: UiState) -> str:
    hand = state.summary()
    return _("Hand {number} is over").format(number=hand.number) if hand is not None else _("Hand summary")


def summary_text(state: UiState) -> Line:
    hand = state.summary()
    if hand is None:
        return [("class:hint", _("No hand has finished yet."))]
    rules, names = state.rules, state.names
    verdict, level = state.audit_text(hand.number)
    lines: list[Line] = [[(f"class:verdict.{level}", verdict)], []]
    lines.append([("class:hint", "  " + pad(_("player"), 17) + pad(_("bid"), 11) + _("won"))])
    for seat in range(rules.players):
        bid = bid_text(hand.bids[seat], hand.blind[seat], rules)
        won = hand.tricks_won[seat]
        scored = hand.tricks_scored[seat]
        moved = " " + _("(scored {n})").format(n=scored) if scored != won else ""
        lines.append([("", f"  {pad(clip(names[seat], 16), 17)}{pad(bid, 11)}{won}{moved}")])
    lines.append([])
    for score in hand.scores:
        total = hand.totals[score.side]
        lines.append(
            [
                ("class:heading", f"{state.side_label(score.side, 14)}"),
                ("", f"  {score.points:+d}  "),
                ("class:hint", score_words(score, rules)),
            ]
        )
        said = (ngettext("total {total}, {n} bag", "total {total}, {n} bags", total.bags) if rules.bag_limit
                else _("total {total}")).format(total=total.score, n=total.bags)
        lines.append([("", "    " + said)])
    for v in hand.violations:
        lines.append([("class:event.bad", _("{who}: {what} (penalty: {penalty})").format(
            who=names[v.seat], what=failed(v.kind, v.detail), penalty=renege_words(rules)))])
    lines.append([])
    lines.append([("class:hint", _("Enter continues · s score sheet"))])
    return join_lines(lines)


def quit_text(state: UiState) -> Line:
    return join_lines(
        [
            *([("", line)] for line in textwrap.wrap(quit_question(state.only_our_bots, state.resumable),
                                                      72)),
            [],
            [("class:key", "y"), ("", " " + _("leave") + "    "), ("class:key", "n"),
             ("", " " + _("or Esc: keep playing"))],
        ]
    )


WINDOW = 70
"""The width of a question's text in its window."""


def quit_question(only_bots: bool, resumable: bool, page: bool = False) -> str:
    """The question before leaving a game: what leaving does to it (the terminal's, and the page's: `page`,
    where a button stops)."""
    if not only_bots and page:
        return _("Leave the game now? Your goodbye, signed, ends it at once on every table, and your side "
                 "forfeits. To end it with nobody losing, Stop here asks the others to stop instead: the "
                 "scores stand for another day.")
    if not only_bots:
        return _("Leave the game now? Your goodbye, signed, ends it at once on every table, and your side "
                 "forfeits. To end it with nobody losing, x asks the others to stop here instead: the scores "
                 "stand for another day.")
    if resumable:
        return _("Leave the game now? Every other seat is your bot: they stop with you, and the command "
                 "printed as you leave carries the game on later.")
    return _("Leave the game now? Every other seat is your bot, in memory: the game ends here, and its log "
             "keeps what was played so far.")


def stop_title(state: UiState) -> str:
    return _("Stop here?")


def stop_question(proposing: bool, who: str, totals: str, lapses_in: float | None) -> str:
    """The question of a stop by agreement: ours to propose, or another's to answer (the terminal's and the
    page's)."""
    if proposing:
        return _("Propose to stop the game here? If every player agrees within a minute, it ends with the "
                 "scores standing ({totals}) and nobody winning, and the host can carry it on from them "
                 "another day.").format(totals=totals)
    seconds = "?" if lapses_in is None else f"{lapses_in:.0f}"
    return _("{who} proposes to stop here: the scores stand ({totals}), nobody wins, and the host can carry "
             "the game on another day. It ends once every player agrees; it lapses in {seconds} s.").format(
        who=who, totals=totals, seconds=seconds)


def stop_text(state: UiState) -> Line:
    """The question of a stop by agreement: ours to propose (`x`), or another's to answer."""
    p = state.proposal
    totals = " – ".join(str(t.score) for t in state.totals)
    if state.proposing or p is None:
        text = stop_question(True, "", totals, None)
        keys = [("class:key", "y"), ("", " " + _("propose") + "    "), ("class:key", "n"),
                ("", " " + _("or Esc: play on"))]
    else:
        text = stop_question(False, state.words.who(p.proposer), totals, p.lapses_in)
        keys = [("class:key", "y"), ("", " " + _("agree") + "    "), ("class:key", "n"),
                ("", " " + _("play on") + "    "), ("class:key", "Esc"), ("", " " + _("later"))]
    return join_lines([*([("", line)] for line in textwrap.wrap(text, WINDOW)), [], keys])


def game_summary(state: UiState) -> list[Line]:
    """The game in numbers, from the hands the engine scored (`audit.seat_stats`, as `p2pspades stats`
    counts them): per side its total, contracts made and set, bags and points per hand; per player the nils
    made and failed (one table where every player is a side)."""
    rules, names = state.rules, state.names
    seats = [seat_stats(rules, state.history, seat) for seat in range(rules.players)]
    blind = rules.blind_nil
    # TRANSLATORS: the game-over table's headings, each right-aligned over its column: total (6), made (5),
    # set (4), bags (5), pts/hand (9), nil ✓/✗ (8), blind ✓/✗ (10)
    columns = ((_("total"), 6), (_("made"), 5), (_("set"), 4), (_("bags"), 5), (_("pts/hand"), 9))
    nil_columns = ((_("nil ✓/✗"), 8), *(((_("blind ✓/✗"), 10),) if blind else ()))
    widths = [max(w, width(head)) for head, w in columns]
    nil_widths = [max(w, width(head)) for head, w in nil_columns]

    def right(cells: tuple[str, ...], sizes: list[int], gap: str = " ") -> str:
        return gap.join(" " * max(0, size - width(cell)) + cell
                        for cell, size in zip(cells, sizes, strict=True))

    def side_cells(side: int) -> str:
        s = seats[rules.sides[side][0]]
        per_hand = "-" if s.points_per_hand is None else number(s.points_per_hand, 1)
        cells = (str(state.totals[side].score), str(s.contracts_made), str(s.contracts_set), str(s.bags),
                 per_hand)
        return right(cells, widths)

    def nil_cells(seat: int) -> str:
        s = seats[seat]
        cells = (f"{s.nils_made}/{s.nils_failed}", *((f"{s.blind_nils_made}/{s.blind_nils_failed}",)
                                                        if blind else ()))
        return "  " + right(cells, nil_widths, "  ")

    head = right(tuple(h for h, _w in columns), widths)
    nil_head = "  " + right(tuple(h for h, _w in nil_columns), nil_widths, "  ")
    if not rules.partnerships:  # one row per player, narrower names so the nils fit beside
        heading = "  " + pad(_("player"), 14) + head + (nil_head if rules.nil else "")
        lines: list[Line] = [[("class:hint", heading)]]
        for seat in range(rules.players):
            cells = side_cells(rules.side_of(seat)) + (nil_cells(seat) if rules.nil else "")
            lines.append([("", f"  {pad(clip(names[seat], 13), 14)}{cells}")])
        return lines
    lines = [[("class:hint", "  " + pad(_("side"), 20) + head)]]
    for side in range(len(rules.sides)):
        lines.append([("", f"  {pad(state.side_label(side, 18), 20)}{side_cells(side)}")])
    if rules.nil:
        lines.append([("class:hint", "  " + pad(_("player"), 20) + nil_head)])
        for seat in range(rules.players):
            lines.append([("", f"  {pad(clip(names[seat], 18), 20)}{nil_cells(seat)}")])
    return lines


def over_title(state: UiState) -> str:
    return _("Game over")


def over_text(state: UiState) -> Line:
    result = state.result
    rules = state.rules
    lines: list[Line] = []
    if result is not None:
        shade = result_level(result.status)
        lines.extend([(f"class:verdict.{shade}", part)] for part in textwrap.wrap(result.text, 70))
    v = state.view
    if v is not None and v.outcome is not None:
        how = termination_words(v.outcome.termination)
        lines.append([("class:hint", _("ended by: {how}").format(how=how))])
    lines.append([])
    lines.extend(game_summary(state))
    lines.append([])
    audited = len(state.audits)
    failed = sum(1 for a in state.audits.values() if a.violations)
    if audited:
        said = (ngettext("{n} hand audited: {passed} passed", "{n} hands audited: {passed} passed", audited)
                if not failed else
                ngettext("{n} hand audited: {passed} passed, {failed} with violations",
                         "{n} hands audited: {passed} passed, {failed} with violations", audited))
        lines.append([("class:hint", said.format(n=audited, passed=audited - failed, failed=failed))])
    for again in state.again() if state.again is not None else ():  # printed again as the screen closes
        lines.extend([("class:hint", part)] for part in textwrap.wrap(again, 70, subsequent_indent="  "))
    lines.append([("class:hint", _("target {target} · s score sheet · Enter or q leaves").format(
        target=rules.target))])
    return join_lines(lines)
