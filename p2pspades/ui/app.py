"""The full-screen game: a prompt_toolkit Application over a `UiState`.

`create_layout(state)` and `create_key_bindings(state)` build the screen and the keys from the state alone;
every window reads the state when it is drawn and every key calls a state method, so a driver only has to
update the state (which calls `app.invalidate`). Works from 80x24 up; prompt_toolkit redraws on resize.

    ┌ title: table · rules · hand · dealer ────────────────────────────── ? help ┐
    │ Seats: name, side, bid, tricks won, connection, whose turn                  │
    │ Trick (who led, who is winning)          │ Events (verified cards, audits)  │
    │ Your hand (sorted by suit, illegal cards dimmed)                            │
    │ prompt line / message                                                       │
    └ scores per side ───────────────────────────────────── keys ─────────────────┘
"""

from __future__ import annotations

import asyncio
import contextlib
import textwrap
from collections.abc import Awaitable, Callable
from typing import Any

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.output import Output

from p2pspades.audit import Stats, seat_stats
from p2pspades.describe import failed
from p2pspades.printable import pad, width
from p2pspades.rules import BlindBid, Card, Phase, Trick
from p2pspades.rules.options import described
from p2pspades.table import DecisionKind
from p2pspades.ui.derived import Contract, card_tracker, played_cards
from p2pspades.ui.overlays import Overlay
from p2pspades.ui.state import ResultStatus, UiState
from p2pspades.ui.text import (
    bid_text,
    bidding_order,
    card_class,
    clip,
    plural,
    rules_title,
    score_sheet,
    score_words,
)
from p2pspades.ui.widgets import (
    at_least,
    full_screen_app,
    join_lines,
    overlay,
    panel,
    text_window,
    too_small,
)

TRICK_WIDTH = 34  # inside the trick panel's border
CONTRACT_WIDTH = 14  # "nil failed (1)", "made, 3 over"
MIN_COLUMNS, MIN_ROWS = 80, 24  # the smallest terminal the game screen is made for
Line = StyleAndTextTuples

#: the keys that open (and close) a window over the game
KEY_OVERLAYS = {"?": Overlay.HELP, "s": Overlay.SCORES, "l": Overlay.LAST, "p": Overlay.PLAYED}

HELP_LINES: list[tuple[str, str]] = [
    ("←/→, Home/End", "choose a card (only legal cards when you are to play)"),
    ("Enter", "play the chosen card; confirm a bid; close a window"),
    ("qh, 10s, as, bj…", "type a card code, then Enter, to play that card"),
    ("Backspace/Esc", "correct / clear a typed code; Esc: choose again"),
    ("bid dialog", "←/→ and Enter, or type a number; n = nil"),
    ("blind nil", "y declares blind nil, n says no (asked before the deal)"),
    ("draw pile", "k keeps the top card, d discards it"),
    ("nil card pass", "Space marks/unmarks a card, Enter passes them, Esc clears"),
    ("s, l", "the score sheet (bids, points, totals); l: the last trick"),
    ("p", "the cards played this hand by suit, and those still out"),
    ("h", "the coach: the expert's choice, from your own cards only"),
    ("any key", "after a trick: go on at once (it stays a moment)"),
    ("w", "wait longer for a seat that stopped answering"),
    ("Ctrl-G", "bell on/off: a beep when it is your turn"),
    ("?", "this help"),
    ("Ctrl-Q, Ctrl-C", "leave the game (asks first) · Ctrl-L redraws the screen"),
]


# ====================================================================== text of each part
def title_text(state: UiState) -> Line:
    v = state.view
    table = state.table_name
    named = table.strip().lower() not in ("", "p2pspades")  # the default table name says nothing new
    parts = [" p2pspades", *([clip(table, 20)] if named else []), rules_title(state.rules)]
    if v is not None:
        parts.append(f"hand {v.hand_number}")
        if v.spades_broken:
            parts.append("♠ broken")
    elif state.first_dealer is None:
        parts.append("starting")
    return [("class:title", " · ".join(parts))]


def title_keys(state: UiState) -> Line:
    return [("class:title", " ? help  ^Q quit ")]


def seats_text(state: UiState) -> Line:
    rules, v = state.rules, state.view
    turn = state.turn
    partners = rules.partnerships
    my_side = rules.side_of(state.seat)
    name_w = 16
    contracts = {c.side: c for c in state.contracts()}
    need_w = 0 if partners else CONTRACT_WIDTH
    need = "" if partners else f"{'contract':<{need_w}}  "
    side_head = "side " if partners else ""
    header = f"    # {'name':<{name_w}} {side_head}{'bid':<9}  won  {need}connection"
    lines: list[Line] = [[("class:hint", header)]]
    for seat in range(rules.players):
        mark = "▶" if seat == turn else " "
        name = clip(state.names[seat], name_w)
        side = ("us   " if rules.side_of(seat) == my_side else "them ") if partners else ""
        if v is not None:
            bid = bid_text(v.bids[seat], v.blind[seat], rules)
            won = str(v.tricks_won[seat]) if v.phase in (Phase.PLAY, Phase.REVEAL) or v.tricks else "-"
        else:
            bid, won = "-", "-"
        if v is not None and seat == v.dealer:
            name = clip(name, name_w - 4) + " (d)"
        style = "class:seat.turn" if seat == turn else ("class:seat.me" if seat == state.seat else "")
        conn = state.connection.get(seat, "")
        if seat in state.bots:
            owner = state.bots[seat]
            bot = "your bot" if owner == state.seat else f"bot of {state.names[owner]}"
            conn = f"{bot} · {conn}" if conn else bot
        if seat in state.thinking:
            conn = f"thinking… · {conn}" if conn else "thinking…"
        row: Line = [(style, f" {mark} {seat:>1} {pad(name, name_w)} {side}{bid:<9}  {won:>3}  ")]
        if not partners:
            contract = contracts.get(rules.side_of(seat))
            cell = "" if contract is None else state.words.contract_cell(contract)
            row.append((_contract_style(contract), pad(clip(cell, need_w), need_w) + "  "))
        row.append(("class:hint" if seat != state.seat else "", conn))
        lines.append(row)
    if partners:
        for number in range(len(rules.sides)):
            label = "us" if number == my_side else "them"
            contract = contracts.get(number)
            if contract is None:
                bidding = v is not None and v.phase in (Phase.BID, Phase.BLIND, Phase.DRAW)
                lines.append([("class:hint", f" {label}: " + ("bidding…" if bidding else "-"))])
            else:
                lines.append([(_contract_style(contract), " " + state.words.contract_line(contract, label))])
    return join_lines(lines)


def _contract_style(contract: Contract | None) -> str:
    if contract is None:
        return "class:hint"
    failed = contract.lost or any(taken for _, _, taken in contract.nils)
    return "class:event.bad" if failed else ("class:event.good" if contract.to_go == 0 else "")


def seats_height(state: UiState) -> int:
    """The seats panel: a row per seat, the header and the border, and a contract line per side where
    there are partnerships."""
    rules = state.rules
    return rules.players + 3 + (len(rules.sides) if rules.partnerships else 0)


def _center(text: str, columns: int = TRICK_WIDTH) -> str:
    left = max(0, columns - width(text)) // 2
    return " " * left + text


def _trick_card(state: UiState, trick: Trick | None, seat: int, mode: str) -> tuple[str, str]:
    """The card `seat` put on the trick (style, text), or its bid during the bidding."""
    v = state.view
    if v is not None and v.phase in (Phase.BID, Phase.BLIND, Phase.DRAW) and mode != "held":
        bid = v.bids[seat]
        return (
            "class:hint",
            "…" if bid is None and not v.blind[seat] else bid_text(bid, v.blind[seat], state.rules),
        )
    if trick is not None:
        for s, card in trick.plays:
            if s == seat:
                if mode == "last":
                    extra = "class:card.played"
                elif trick.winner == seat and len(trick.plays) > 1:
                    extra = "class:card.winning"
                else:
                    extra = ""
                return (f"{card_class(card)} {extra}".strip(), card.glyph)
    return ("class:hint", "··")


def _shown_trick(state: UiState) -> tuple[Trick | None, str]:
    """The trick on the table and how it is shown: "live" (being played), "held" (just completed, kept for a
    moment with its winner), "last" (the previous one, dimmed until the next lead), or "" (none)."""
    if state.top_overlay is Overlay.TRICK and state.held is not None:
        return state.held[0], "held"
    v = state.view
    if v is None:
        return None, ""
    if v.trick.plays:
        return v.trick, "live"
    if v.tricks:
        return v.tricks[-1], "last"
    return None, ""


def trick_title(state: UiState) -> str:
    if state.top_overlay is Overlay.TRICK and state.held is not None:
        return f"Trick {state.held[1]} of {state.rules.tricks_per_hand}"
    v = state.view
    if v is None or v.phase in (Phase.DEAL,):
        return "Table"
    if v.phase in (Phase.BID, Phase.BLIND, Phase.DRAW):
        return "Bidding" if v.phase is Phase.BID else ("Blind nil" if v.phase is Phase.BLIND else "Draw pile")
    if v.phase is Phase.PLAY:
        return f"Trick {min(len(v.tricks) + 1, state.rules.tricks_per_hand)} of {state.rules.tricks_per_hand}"
    return "Table"


def trick_caption(state: UiState) -> Line:
    v = state.view
    trick, mode = _shown_trick(state)
    names = state.names
    if mode == "held":
        return [("class:seat.turn", clip(state.held_caption(), TRICK_WIDTH))]
    if v is None:
        return [("class:hint", "waiting for the deal")]
    if v.phase is not Phase.PLAY and trick is None:
        turn = state.turn
        if turn is None:
            return [("class:hint", "")]
        return [("class:hint", "your turn" if turn == state.seat else f"{clip(names[turn], 16)}'s turn")]
    if trick is None:
        leader = v.current_seat
        if leader is None:
            return [("class:hint", "")]
        return [("class:hint", "You lead" if leader == state.seat else f"{clip(names[leader], 20)} leads")]
    if mode == "last":
        winner = trick.winner
        who = names[winner] if winner is not None else "?"
        return [("class:hint", clip(f"last trick to {who}", TRICK_WIDTH))]
    winner = trick.winner
    led = f"led by {names[trick.leader]}"
    if winner is None or len(trick.plays) < 2:
        return [("", clip(led, TRICK_WIDTH))]
    winning = f"{names[winner]} winning"
    if width(f"{led} · {winning}") <= TRICK_WIDTH:
        return [("", f"{led} · {winning}")]
    return [("", f"{clip(led, TRICK_WIDTH)}\n{clip(winning, TRICK_WIDTH)}")]  # long names: one line each


def trick_text(state: UiState) -> Line:
    """The table: a compass for four players (you at the bottom), a list in play order otherwise."""
    rules, names = state.rules, state.names
    n = rules.players
    trick, mode = _shown_trick(state)
    turn = None if mode == "held" else state.turn

    def label(seat: int, width: int = 14) -> tuple[str, str]:
        mark = "▶" if seat == turn else ""
        name = "You" if seat == state.seat else clip(names[seat], width)
        style = "class:seat.turn" if seat == turn else ""
        return (style, f"{mark}{name}")

    lines: list[Line] = []
    if n == 4:
        me = state.seat
        left, top, right = (me + 1) % 4, (me + 2) % 4, (me + 3) % 4
        top_label, top_card = label(top), _trick_card(state, trick, top, mode)
        lines.append([(top_label[0], _center(top_label[1]))])
        lines.append([(top_card[0], _center(top_card[1]))])
        l_label, l_card = label(left, 12), _trick_card(state, trick, left, mode)
        r_label, r_card = label(right, 12), _trick_card(state, trick, right, mode)
        left_part = f"{l_label[1]} "
        used = width(left_part) + width(l_card[1]) + width(r_card[1]) + width(r_label[1])
        mid = TRICK_WIDTH - used - 1
        lines.append(
            [
                (l_label[0], left_part),
                (l_card[0], l_card[1]),
                ("", " " * max(1, mid)),
                (r_card[0], r_card[1]),
                ("", " "),
                (r_label[0], r_label[1]),
            ]
        )
        my_card = _trick_card(state, trick, me, mode)
        lines.append([(my_card[0], _center(my_card[1]))])
        my_label = label(me)
        lines.append([(my_label[0], _center(my_label[1]))])
    else:
        order = [(state.seat + k) % n for k in range(n)]
        if trick is not None:
            order = [(trick.leader + k) % n for k in range(n)]
        for seat in order:
            name_style, name = label(seat, 16)
            card_style, card = _trick_card(state, trick, seat, mode)
            led = "  led" if trick is not None and seat == trick.leader and mode == "live" else ""
            lines.append([(name_style, f" {pad(name, 18)}"), (card_style, card), ("class:hint", led)])
    lines.append([])
    lines.append(trick_caption(state))
    return join_lines(lines)


def events_text(state: UiState, width: int = 0, height: int = 0) -> Line:
    """The newest event lines that fit in `width` x `height` (wrapped, continuation lines indented)."""
    if not state.events:
        return [("class:hint", "nothing yet")]
    lines: list[Line] = []
    for event in reversed(state.events):
        style = f"class:event.{event.level}"
        rows = textwrap.wrap(event.text, width, subsequent_indent="  ") if width > 4 else [event.text]
        lines[:0] = [[(style, row)] for row in rows or [""]]
        if height and len(lines) >= height:
            break
    return join_lines(lines[-height:] if height else lines)


def _events_window(state: UiState) -> Window:
    """The event pane: wrapped to the width of the last drawing, scrolled to keep the newest line in view."""

    def text() -> Line:
        info = window.render_info
        return events_text(state, info.window_width if info is not None else 0, 0)

    window = text_window(text, follow_end=True)
    return window


def hand_title(state: UiState) -> str:
    v = state.view
    if v is None or not v.hand:
        return "Your hand"
    if state.kind is DecisionKind.PASS:
        return f"Your hand ({len(v.hand)}) · *marked · Space marks, Enter passes, Esc clears"
    return f"Your hand ({len(v.hand)})"


def hand_text(state: UiState) -> Line:
    """Our cards by suit. When we are to play or pass: the chosen card in [brackets] (and reverse video), the
    cards the rules forbid dimmed; the cards marked for a pass after a `*` (and underlined)."""
    v = state.view
    cards = state.hand_cards()
    if not cards:
        if v is not None and v.phase is Phase.BLIND:
            return [("class:hint", " not dealt yet: blind nil is decided before anybody sees a card")]
        if v is not None and v.phase is Phase.DRAW:
            return [("class:hint", " no cards yet: draw from the pile")]
        return [("class:hint", " no cards")]
    passing = state.kind is DecisionKind.PASS
    legal = state.passable_cards() if passing else state.legal_cards()
    playing = state.kind is DecisionKind.PLAY or passing
    chosen = state.selected if playing else None
    out: Line = []
    previous: Card | None = None
    for card in cards:
        # one gap between cards (two between suits); the chosen card's gaps become its brackets
        suit = state.rules.order.suit
        gap = " " if previous is None or suit(card) is suit(previous) else "  "
        if previous is not None and previous == chosen:
            out.append(("class:card.selected", "]"))
            gap = gap[1:]
        if card == chosen:
            gap = gap[:-1]
        out.append(("", gap))
        if card == chosen:
            out.append(("class:card.selected", "["))
        extra = "class:card.selected" if card == chosen else ""
        if playing and card not in legal:
            extra = "class:card.illegal"
        if passing and card in state.marked:
            out.append(("class:card.marked", "*"))
            extra += " class:card.marked"
        out.append((f"{card_class(card)} {extra}".strip(), card.glyph))
        previous = card
    if previous is not None and previous == chosen:
        out.append(("class:card.selected", "]"))
    return out


def hand_height(state: UiState) -> int:
    """One line of cards, two when the hand is wider than the terminal (large hands, narrow screens)."""
    try:
        columns = get_app().output.get_size().columns
    except Exception:  # no running app (captures): assume the smallest supported screen
        columns = 80
    used = sum(width(text) for _, text, *_ in hand_text(state))
    return 1 if used <= columns - 2 else 2


def status_fragments(state: UiState) -> Line:
    if state.message is not None:
        return [(f"class:message.{state.message.level}", " " + state.message.text)]
    return [("class:status", " " + state.status_text())]


def footer_scores(state: UiState) -> Line:
    rules = state.rules
    out: Line = [("class:footer", " ")]
    width = 18 if len(rules.sides) <= 2 else 8
    for i, total in enumerate(state.totals):
        if i:
            out.append(("class:footer", " │ "))
        bags = f" ({plural(total.bags, 'bag')})" if rules.bag_limit is not None else ""
        out.append(("class:footer", f"{state.side_label(i, width)} {total.score}{bags}"))
    return out


def footer_keys(state: UiState) -> Line:
    return [("class:footer", " s scores l last p played")]


# ====================================================================== dialogs and overlays
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
    kind = state.kind
    v = state.view
    rules = state.rules
    lines: list[Line] = []
    if kind is DecisionKind.BID and v is not None:
        so_far = [
            f"{state.names[s]} {bid_text(v.bids[s], v.blind[s], rules)}"
            for s in bidding_order(rules, v.dealer)
            if v.bids[s] is not None or v.blind[s]
        ]
        lines.append([("", "Bids so far: " + (", ".join(so_far) if so_far else "none, you bid first"))])
        lines.append(
            [("class:hint", "How many tricks will you take?" + (" (nil: none at all)" if rules.nil else ""))]
        )
    elif kind is DecisionKind.BLIND_NIL and v is not None:
        mine = v.totals[v.side].score
        best = max(t.score for i, t in enumerate(v.totals) if i != v.side)
        lines.append([("", f"Your side trails by {best - mine}. Bid blind nil, before you see your cards?")])
        lines.append(
            [
                (
                    "class:hint",
                    f"Blind nil scores +{rules.blind_nil_value} if you take no trick, "
                    f"-{rules.blind_nil_value} if you take one.",
                )
            ]
        )
        blind_bids = [a for a in state.choices() if isinstance(a, BlindBid)]
        if blind_bids:
            lines.append([("class:hint", f"Or bid {blind_bids[0].tricks} or more tricks blind: your side's "
                                         "contract then scores double, made or failed.")])
    elif kind is DecisionKind.DRAW and v is not None:
        top = v.draw_card
        lines.append(
            [
                ("", "Top card of the pile: "),
                *([(card_class(top), top.glyph)] if top else [("", "?")]),
                ("class:hint", f"   ({v.stock_left} cards left)"),
            ]
        )
        lines.append(
            [
                (
                    "class:hint",
                    "keep: the next card is discarded unseen · discard: you get the next one unseen",
                )
            ]
        )
    lines.append([])
    row: Line = []
    for i, option in enumerate(state.choices()):
        style = "class:choice.selected" if i == state.choice else "class:choice"
        row += [("", " "), (style, f" {state.choice_label(option)} ")]
    lines.append(row)
    lines.append([])
    if kind is DecisionKind.BID:
        typed = f"   typed: {state.typed}" if state.typed else ""
        keys = "←/→ choose · Enter bid · type a number" + (" · n nil" if rules.nil else "") + typed
    elif kind is DecisionKind.BLIND_NIL:
        keys = "y blind nil · n no · or ←/→ and Enter" + (
            " (blind bids too)" if any(isinstance(a, BlindBid) for a in state.choices()) else "")
    else:
        keys = "k keep · d discard · or ←/→ and Enter"
    lines.append([("class:hint", keys)])
    return join_lines(lines)


def help_text(state: UiState) -> Line:
    lines: list[Line] = [[("class:key", f"{key:<17}"), ("", text)] for key, text in HELP_LINES]
    lines.append([])
    lines.append([("class:heading", "Rules: "), ("", f"{described(state.rules)}, to {state.rules.target}")])
    lines.append(
        [("class:hint", "Every card is verified as it is played; every hand is audited at its end.")]
    )
    lines.append([("class:hint", "Esc or ? closes this window.")])
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


# ====================================================================== the factories
def create_layout(state: UiState) -> Layout:
    """The game screen for `state`. Every window reads the state when it is drawn."""
    deciding = Condition(
        lambda: (
            state.kind in (DecisionKind.BID, DecisionKind.BLIND_NIL, DecisionKind.DRAW)
            and state.top_overlay is None
        )
    )
    title = VSplit(
        [
            text_window(lambda: title_text(state), height=1, style="class:title"),
            text_window(lambda: title_keys(state), height=1, style="class:title", width=Dimension.exact(17)),
        ],
        height=1,
    )
    seats = panel(
        text_window(lambda: seats_text(state)), "Seats", height=Dimension.exact(seats_height(state))
    )
    middle = VSplit(
        [
            panel(
                text_window(lambda: trick_text(state)),
                lambda: trick_title(state),
                width=Dimension.exact(TRICK_WIDTH + 2),
            ),
            panel(_events_window(state), "Events"),
        ],
        height=Dimension(min=8, weight=1),
        window_too_small=too_small(MIN_COLUMNS, MIN_ROWS),
    )
    hand = panel(
        text_window(lambda: hand_text(state), wrap=True, height=lambda: Dimension.exact(hand_height(state))),
        lambda: hand_title(state),
    )
    status = text_window(lambda: status_fragments(state), height=1)
    footer = VSplit(
        [
            text_window(lambda: footer_scores(state), height=1, style="class:footer"),
            text_window(
                lambda: footer_keys(state), height=1, style="class:footer", width=Dimension.exact(25)
            ),
        ],
        height=1,
    )
    body = HSplit(
        [title, seats, middle, hand, status, footer], window_too_small=too_small(MIN_COLUMNS, MIN_ROWS)
    )

    def showing(name: Overlay) -> bool:
        return state.top_overlay is name

    floats = [
        Float(
            content=ConditionalContainer(
                panel(text_window(lambda: dialog_text(state)), lambda: dialog_title(state), pad=True),
                filter=deciding,
            ),
            bottom=5,
        ),
        overlay(text_window(lambda: help_text(state)), "Keys", lambda: showing(Overlay.HELP)),
        overlay(text_window(lambda: scores_text(state)), "Score sheet", lambda: showing(Overlay.SCORES)),
        overlay(text_window(lambda: last_trick_text(state)), "Last trick", lambda: showing(Overlay.LAST)),
        overlay(text_window(lambda: played_text(state)), lambda: played_title(state),
                lambda: showing(Overlay.PLAYED)),
        overlay(
            text_window(lambda: summary_text(state)), lambda: summary_title(state),
            lambda: showing(Overlay.SUMMARY),
        ),
        overlay(
            text_window(lambda: over_text(state)), lambda: over_title(state), lambda: showing(Overlay.OVER)
        ),
        overlay(text_window(lambda: quit_text(state)), "Leave the game?", lambda: showing(Overlay.QUIT)),
    ]
    return Layout(at_least(FloatContainer(content=body, floats=floats), MIN_COLUMNS, MIN_ROWS,
                           "Ctrl-Q, then y, leaves the game."))


def create_key_bindings(state: UiState) -> KeyBindings:
    """The game's keys; each one calls a `UiState` method, then leaves the app if the state asks to.

    While a completed trick is held on the table, any key (but Ctrl-C, Ctrl-Q and Ctrl-L) only ends the pause.
    """
    kb = KeyBindings()
    quitting = Condition(lambda: state.top_overlay is Overlay.QUIT)
    holding = Condition(lambda: state.top_overlay is Overlay.TRICK)
    free = ~quitting & ~holding

    def done(event: KeyPressEvent) -> None:
        if state.leave_requested:
            event.app.exit()

    @kb.add(Keys.Any, filter=holding)
    def _skip(event: KeyPressEvent) -> None:
        state.release_trick()

    @kb.add("c-c")
    @kb.add("c-q")
    def _leave(event: KeyPressEvent) -> None:
        if state.top_overlay is Overlay.QUIT:
            state.confirm_quit(True)
        else:
            state.request_quit()
        done(event)

    def toggling(name: Overlay) -> Callable[[], None]:
        return lambda: state.toggle_overlay(name)

    commands: dict[str, Callable[[], None]] = {
        **{key: toggling(name) for key, name in KEY_OVERLAYS.items()},
        "w": state.wait_longer,
        "h": state.coach,
    }

    def on_char(event: KeyPressEvent) -> None:
        ch = event.data
        if state.top_overlay is Overlay.QUIT:
            if ch in "yY":
                state.confirm_quit(True)
            elif ch in "nNqQ":
                state.confirm_quit(False)
            done(event)
            return
        if state.type_key(ch):
            done(event)
            return
        lower = ch.lower()
        command = commands.get(lower)
        if command is not None:
            command()
        elif lower == "q":
            if state.top_overlay is Overlay.OVER:
                state.leave_requested = True
            else:
                state.say("Ctrl-Q leaves the game (q is the rank of a queen)", "dim")
        done(event)

    for ch in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?":
        kb.add(ch, filter=~holding)(on_char)

    @kb.add("enter", filter=free)
    def _enter(event: KeyPressEvent) -> None:
        state.submit()
        done(event)

    @kb.add("space", filter=free)
    def _space(event: KeyPressEvent) -> None:
        if state.top_overlay is not None:
            state.submit()
        else:
            state.mark()
        done(event)

    @kb.add("escape", filter=quitting)
    def _esc_quit(event: KeyPressEvent) -> None:
        state.confirm_quit(False)

    @kb.add("escape", filter=free)
    def _esc(event: KeyPressEvent) -> None:
        if state.top_overlay not in (None, Overlay.OVER):
            state.close_overlay()
        else:
            state.clear_typed()

    for key, delta in (("left", -1), ("right", 1), ("up", -1), ("down", 1)):

        def _move(event: KeyPressEvent, delta: int = delta) -> None:
            state.move(delta)

        kb.add(key, filter=free)(_move)

    @kb.add("home", filter=free)
    def _home(event: KeyPressEvent) -> None:
        state.move_to(end=False)

    @kb.add("end", filter=free)
    def _end(event: KeyPressEvent) -> None:
        state.move_to(end=True)

    @kb.add("backspace", filter=~holding)
    def _backspace(event: KeyPressEvent) -> None:
        state.backspace()

    @kb.add("c-g", filter=free)
    def _bell(event: KeyPressEvent) -> None:
        state.toggle_bell()

    @kb.add("c-l")
    def _redraw(event: KeyPressEvent) -> None:
        event.app.renderer.clear()

    return kb


def create_app(
    state: UiState,
    *,
    input: Input | None = None,
    output: Output | None = None,
    color: bool = True,
) -> Application[None]:
    """The game screen as an Application. The state's changes redraw it; leaving sets `state.quit_requested`
    (the person quit) or `state.leave_requested` (also after the game-over screen)."""
    app: Application[None] = full_screen_app(
        create_layout(state).container,
        create_key_bindings(state),
        color=color,
        input=input,
        output=output,
    )
    state.on_change = app.invalidate
    state.on_bell = app.output.bell
    return app


async def run_alongside(app: Application[Any], game: Awaitable[Any]) -> None:
    """Show `app` while `game` runs: a failure of the game ends the app; leaving the app stops the game."""
    task = asyncio.ensure_future(game)

    def finished(done: asyncio.Future[Any]) -> None:
        error = None if done.cancelled() else done.exception()
        if error is not None and app.is_running:
            app.exit(exception=error)

    task.add_done_callback(finished)
    try:
        await app.run_async()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
