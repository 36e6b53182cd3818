"""The game screen's windows over the table: the dialog of a bid, blind nil or draw, and the overlays (help,
score sheet, last trick, cards played, a hand's summary, leave the game?, game over). Each is a function of
the `UiState` alone, read when it is drawn.
"""

from __future__ import annotations

import textwrap

from p2pspades.audit import Stats, seat_stats
from p2pspades.describe import failed
from p2pspades.describe.rules import described
from p2pspades.i18n import _
from p2pspades.printable import pad, width
from p2pspades.rules import BlindBid, Card, SeatView
from p2pspades.table import DecisionKind
from p2pspades.ui.derived import card_tracker, played_cards
from p2pspades.ui.keys import help_lines
from p2pspades.ui.result import ResultStatus
from p2pspades.ui.state import UiState
from p2pspades.ui.text import bid_text, bidding_order, card_class, clip, plural, score_sheet, score_words
from p2pspades.ui.widgets import Line, join_lines


def dialog_title(state: UiState) -> str:
    kind = state.kind
    v = state.view
    hand = f" (hand {v.hand_number})" if v is not None else ""
    if kind is DecisionKind.BID:
        return "Your bid" + hand
    if kind is DecisionKind.BLIND_NIL:
        return "Blind nil?" + hand
    return "Draw pile" + hand


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
    return [
        [("", "Bids so far: " + (", ".join(so_far) if so_far else "none, you bid first"))],
        [("class:hint", "How many tricks will you take?" + (" (nil: none at all)" if rules.nil else ""))],
    ]


def _blind_nil_lines(state: UiState, v: SeatView) -> list[Line]:
    value = state.rules.blind_nil_value
    mine = v.totals[v.side].score
    best = max(t.score for i, t in enumerate(v.totals) if i != v.side)
    lines: list[Line] = [
        [("", f"Your side trails by {best - mine}. Bid blind nil, before you see your cards?")],
        [("class:hint", f"Blind nil scores +{value} if you take no trick, -{value} if you take one.")],
    ]
    blind_bids = [a for a in state.choices() if isinstance(a, BlindBid)]
    if blind_bids:
        lines.append([("class:hint", f"Or bid {blind_bids[0].tricks} or more tricks blind: your side's "
                                     "contract then scores double, made or failed.")])
    return lines


def _draw_lines(v: SeatView) -> list[Line]:
    top = v.draw_card
    return [
        [
            ("", "Top card of the pile: "),
            *([(card_class(top), top.glyph)] if top else [("", "?")]),
            ("class:hint", f"   ({v.stock_left} cards left)"),
        ],
        [("class:hint", "keep: the next card is discarded unseen · discard: you get the next one unseen")],
    ]


def _dialog_keys(state: UiState) -> str:
    kind = state.kind
    if kind is DecisionKind.BID:
        typed = f"   typed: {state.typed}" if state.typed else ""
        return "←/→ choose · Enter bid · type a number" + (" · n nil" if state.rules.nil else "") + typed
    if kind is DecisionKind.BLIND_NIL:
        blind_bids = any(isinstance(a, BlindBid) for a in state.choices())
        return "y blind nil · n no · or ←/→ and Enter" + (" (blind bids too)" if blind_bids else "")
    return "k keep · d discard · or ←/→ and Enter"


def help_text(state: UiState) -> Line:
    lines: list[Line] = [[("class:key", pad(key, 17)), ("", text)] for key, text in help_lines()]
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
    lines.append([("class:hint", f"target {state.rules.target} · Esc or s closes")])
    return join_lines(lines)


def last_trick_text(state: UiState) -> Line:
    trick = state.last_trick
    if trick is None:
        return [("class:hint", "No trick has been completed yet.  (Esc closes)")]
    names = state.names
    lines: list[Line] = [[("", f"Led by {names[trick.leader]}:")]]
    for seat, card in trick.plays:
        won = "  ← won the trick" if seat == trick.winner else ""
        lines.append(
            [("", f"  {pad(clip(names[seat], 16), 17)}"), (card_class(card), card.glyph), ("class:hint", won)]
        )
    lines.append([])
    lines.append([("class:hint", "Esc or l closes")])
    return join_lines(lines)


def played_title(state: UiState) -> str:
    v = state.view
    return "Cards played" + (f" (hand {v.hand_number})" if v is not None else "")


def _ranks(cards: list[Card]) -> str:
    return " ".join(card.glyph if card.is_joker else card.glyph[:-1] for card in cards)


def played_text(state: UiState) -> Line:
    """The card tracker: per suit, the cards gone this hand, and those neither played nor ours."""
    rows = card_tracker(state.view)
    if not rows:
        return [("class:hint", "No hand has been dealt yet.  (Esc closes)")]
    column = max(12, *(width(_ranks(gone)) for _, gone, _ in rows))
    lines: list[Line] = [[("class:hint", f"   {pad('played', column)}   still out (not in your hand)")]]
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
    played = plural(len(played_cards(state.view)), "card")
    lines.append([("class:hint", f"{played} played · Esc or p closes")])
    return join_lines(lines)


def summary_title(state: UiState) -> str:
    hand = state.summary()
    return f"Hand {hand.number} is over" if hand is not None else "Hand summary"


def summary_text(state: UiState) -> Line:
    hand = state.summary()
    if hand is None:
        return [("class:hint", "No hand has finished yet.")]
    rules, names = state.rules, state.names
    verdict, level = state.audit_text(hand.number)
    lines: list[Line] = [[(f"class:verdict.{level}", verdict)], []]
    lines.append([("class:hint", f"{'':2}{'player':<17}{'bid':<11}won")])
    for seat in range(rules.players):
        bid = bid_text(hand.bids[seat], hand.blind[seat], rules)
        won = hand.tricks_won[seat]
        moved = f" (scored {hand.tricks_scored[seat]})" if hand.tricks_scored[seat] != won else ""
        lines.append([("", f"  {pad(clip(names[seat], 16), 17)}{bid:<11}{won}{moved}")])
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
        lines.append(
            [("", f"    total {total.score}" + (f", {plural(total.bags, 'bag')}" if rules.bag_limit else ""))]
        )
    for v in hand.violations:
        lines.append(
            [("class:event.bad", f"{names[v.seat]}: {failed(v.kind, v.detail)} (penalty: {rules.renege})")]
        )
    lines.append([])
    lines.append([("class:hint", "Enter continues · s score sheet")])
    return join_lines(lines)


def quit_text(state: UiState) -> Line:
    if not state.only_our_bots:
        said = ["Leave the game now? The others wait for your seat, then vote that you",
                "stopped answering, which ends the game; resume before that to play on."]
    elif state.resumable:
        said = ["Leave the game now? Every other seat is your bot: they stop with you,",
                "and the command printed as you leave carries the game on later."]
    else:
        said = ["Leave the game now? Every other seat is your bot, in memory: the game",
                "ends here, and its log keeps what was played so far."]
    return join_lines(
        [
            *([("", line)] for line in said),
            [],
            [("class:key", "y"), ("", " leave    "), ("class:key", "n"), ("", " or Esc: keep playing")],
        ]
    )


def game_summary(state: UiState) -> list[Line]:
    """The game in numbers, from the hands the engine scored (`audit.seat_stats`, as `p2pspades stats`
    counts them): per side its total, contracts made and set, bags and points per hand; per player the nils
    made and failed (one table where every player is a side)."""
    rules, names = state.rules, state.names
    seats = [seat_stats(rules, state.history, seat) for seat in range(rules.players)]
    blind = rules.blind_nil

    def nils(s: Stats) -> str:
        return f"{s.nils_made}/{s.nils_failed}"

    def blinds(s: Stats) -> str:
        return f"{s.blind_nils_made}/{s.blind_nils_failed}"

    def side_cells(side: int) -> str:
        s = seats[rules.sides[side][0]]
        per_hand = "-" if s.points_per_hand is None else f"{s.points_per_hand:.1f}"
        score = state.totals[side].score
        return f"{score:>6} {s.contracts_made:>5} {s.contracts_set:>4} {s.bags:>5} {per_hand:>9}"

    head = f"{'total':>6} {'made':>5} {'set':>4} {'bags':>5} {'pts/hand':>9}"
    nil_head = f"  {'nil ✓/✗':>8}" + (f"  {'blind ✓/✗':>10}" if blind else "")

    def nil_cells(seat: int) -> str:
        s = seats[seat]
        return f"  {nils(s):>8}" + (f"  {blinds(s):>10}" if blind else "")

    if not rules.partnerships:  # one row per player, narrower names so the nils fit beside
        lines: list[Line] = [[("class:hint", f"  {'player':<14}{head}" + (nil_head if rules.nil else ""))]]
        for seat in range(rules.players):
            cells = side_cells(rules.side_of(seat)) + (nil_cells(seat) if rules.nil else "")
            lines.append([("", f"  {pad(clip(names[seat], 13), 14)}{cells}")])
        return lines
    lines = [[("class:hint", f"  {'side':<20}{head}")]]
    for side in range(len(rules.sides)):
        lines.append([("", f"  {pad(state.side_label(side, 18), 20)}{side_cells(side)}")])
    if rules.nil:
        lines.append([("class:hint", f"  {'player':<20}{nil_head}")])
        for seat in range(rules.players):
            lines.append([("", f"  {pad(clip(names[seat], 18), 20)}{nil_cells(seat)}")])
    return lines


def over_title(state: UiState) -> str:
    return "Game over"


def over_text(state: UiState) -> Line:
    result = state.result
    rules = state.rules
    lines: list[Line] = []
    if result is not None:
        level = {ResultStatus.COMPLETE: "good", ResultStatus.ABANDONED: "warn"}.get(result.status, "bad")
        lines.extend([(f"class:verdict.{level}", part)] for part in textwrap.wrap(result.text, 70))
    v = state.view
    if v is not None and v.outcome is not None:
        lines.append([("class:hint", f"ended by: {v.outcome.termination.value.replace('_', ' ')}")])
    lines.append([])
    lines.extend(game_summary(state))
    lines.append([])
    audited = len(state.audits)
    failed = sum(1 for a in state.audits.values() if a.violations)
    if audited:
        word = "passed" if not failed else f"passed, {failed} with violations"
        lines.append([("class:hint", f"{plural(audited, 'hand')} audited: {audited - failed} {word}")])
    lines.append([("class:hint", f"target {rules.target} · s score sheet · Enter or q leaves")])
    return join_lines(lines)
