"""The game screen's panels, always shown: the title, the seats, the trick on the table, the event pane, our
hand, the prompt line and the footer. Each is a function of the `UiState` alone, read when it is drawn.
"""

from __future__ import annotations

from prompt_toolkit.application import get_app
from prompt_toolkit.layout import Window

from p2pspades.describe.game import card_glyph
from p2pspades.i18n import _, npgettext
from p2pspades.printable import pad, width
from p2pspades.rules import Card, Phase, Trick
from p2pspades.table import DecisionKind
from p2pspades.ui.derived import Contract
from p2pspades.ui.overlays import Overlay
from p2pspades.ui.state import UiState
from p2pspades.ui.text import bid_text, card_class, clip, rules_title
from p2pspades.ui.widgets import Line, join_lines, text_window

TRICK_WIDTH = 34  # inside the trick panel's border
CONTRACT_WIDTH = 14  # "nil failed (1)", "made, 3 over"


def title_text(state: UiState) -> Line:
    """" p2pspades · table · rules · hand 3 · ♠ broken": as much as fits beside the keys, the program's name
    and then the table's name given up first."""
    v = state.view
    table = state.table_name
    named = table.strip().lower() not in ("", "p2pspades")  # the default table name says nothing new
    game = [rules_title(state.rules)]
    if v is not None:
        game.append(_("hand {number}").format(number=v.hand_number))
        if v.spades_broken:
            game.append(_("♠ broken"))
    elif state.first_dealer is None:
        game.append(_("starting"))
    room = columns() - title_keys_width() - 1
    said = " " + " · ".join(["p2pspades", *([clip(table, 20)] if named else []), *game])
    if width(said) > room:
        said = " " + " · ".join([*([clip(table, 20)] if named else []), *game])
    if width(said) > room and named:
        rest = " · ".join(game)
        said = f" {clip(table, max(6, room - width(rest) - 4))} · {rest}"
    return [("class:title", said)]


def columns() -> int:
    """The terminal's width (80, the smallest supported, where no application runs: captures)."""
    try:
        return get_app().output.get_size().columns
    except Exception:
        return 80


def title_keys(state: UiState) -> Line:
    # TRANSLATORS: the keys at the right end of the game screen's title: ? opens the help, Ctrl-Q leaves
    return [("class:title", " " + _("? help  ^Q quit") + " ")]


def footer_keys_width() -> int:
    """The columns of the footer's keys (`footer_keys`) in the language spoken."""
    return width(_("s scores l last p played")) + 2


def title_keys_width() -> int:
    """The columns of the title's keys (`title_keys`) in the language spoken."""
    return width(_("? help  ^Q quit")) + 2


NAME_WIDTH = 16  # a name in the seats panel


def seats_text(state: UiState) -> Line:
    """A row per seat (whose turn, name, side, bid, tricks won, its own contract where every player is a
    side, connection), then each side's contract where there are partnerships."""
    rules = state.rules
    partners = rules.partnerships
    contracts = {c.side: c for c in state.contracts()}
    # TRANSLATORS: the seats panel's headings, each as wide as its column: name (16), side (4), bid (9),
    # won (3), contract (14)
    heads = {"name": _("name"), "side": _("side"), "bid": _("bid"), "won": _("won"),
             "contract": _("contract")}
    need = "" if partners else pad(heads["contract"], CONTRACT_WIDTH) + "  "
    side_head = pad(heads["side"], 4) + " " if partners else ""
    header = (f"    # {pad(heads['name'], NAME_WIDTH)} {side_head}{pad(heads['bid'], 9)}  {heads['won']:>3}  "
              f"{need}" + _("connection"))
    lines: list[Line] = [[("class:hint", header)]]
    for seat in range(rules.players):
        row: Line = [_seat_cells(state, seat)]
        if not partners:
            contract = contracts.get(rules.side_of(seat))
            cell = "" if contract is None else state.words.contract_cell(contract)
            row.append((_contract_style(contract), pad(clip(cell, CONTRACT_WIDTH), CONTRACT_WIDTH) + "  "))
        row.append(("class:hint" if seat != state.seat else "", _connection(state, seat)))
        lines.append(row)
    if partners:
        lines.extend(_side_contract(state, side, contracts.get(side)) for side in range(len(rules.sides)))
    return join_lines(lines)


def _seat_cells(state: UiState, seat: int) -> tuple[str, str]:
    """A seat's row up to its contract: whose turn, number, name ("(d)": the dealer), side, bid, won."""
    rules, v = state.rules, state.view
    turn = state.turn
    mark = "▶" if seat == turn else " "
    name = clip(state.names[seat], NAME_WIDTH)
    side = ""
    if rules.partnerships:
        # TRANSLATORS: a seat's side in the seats panel, ours or the other (at most 4 characters)
        side = pad(_("us") if rules.side_of(seat) == rules.side_of(state.seat) else _("them"), 4) + " "
    bid, won = "-", "-"
    if v is not None:
        bid = bid_text(v.bids[seat], v.blind[seat], rules)
        won = str(v.tricks_won[seat]) if v.phase in (Phase.PLAY, Phase.REVEAL) or v.tricks else "-"
        if seat == v.dealer:
            # TRANSLATORS: after the dealer's name in the seats panel: (d), the first letter of "dealer"
            dealer = _("(d)")
            name = clip(name, NAME_WIDTH - 1 - width(dealer)) + " " + dealer
    style = "class:seat.turn" if seat == turn else ("class:seat.me" if seat == state.seat else "")
    return (style, f" {mark} {seat:>1} {pad(name, NAME_WIDTH)} {side}{pad(bid, 9)}  {won:>3}  ")


def _connection(state: UiState, seat: int) -> str:
    """A seat's last cell: whose bot it is, whether it is thinking, the network driver's word on it."""
    parts = []
    if seat in state.thinking:
        parts.append(_("thinking…"))
    if seat in state.bots:
        owner = state.bots[seat]
        mine = owner == state.seat
        parts.append(_("your bot") if mine else _("bot of {owner}").format(owner=state.names[owner]))
    conn = state.connection.get(seat, "")
    if conn:
        parts.append(conn)
    return " · ".join(parts)


def _side_contract(state: UiState, side: int, contract: Contract | None) -> Line:
    """A side's contract line under the seats: "us: bid 7 (...), 5 taken, 2 to go", or "them: bidding…"."""
    label = _("us") if side == state.rules.side_of(state.seat) else _("them")
    if contract is not None:
        return [(_contract_style(contract), " " + state.words.contract_line(contract, label))]
    v = state.view
    bidding = v is not None and v.phase in (Phase.BID, Phase.BLIND, Phase.DRAW)
    return [("class:hint", f" {label}: " + (_("bidding…") if bidding else "-"))]


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
                return (f"{card_class(card)} {extra}".strip(), card_glyph(card))
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
    of = state.rules.tricks_per_hand
    if state.top_overlay is Overlay.TRICK and state.held is not None:
        return _("Trick {number} of {of}").format(number=state.held[1], of=of)
    v = state.view
    if v is None or v.phase in (Phase.DEAL,):
        return _("Table")
    if v.phase in (Phase.BID, Phase.BLIND, Phase.DRAW):
        return _("Bidding") if v.phase is Phase.BID else (_("Blind nil") if v.phase is Phase.BLIND
                                                          else _("Draw pile"))
    if v.phase is Phase.PLAY:
        return _("Trick {number} of {of}").format(number=min(len(v.tricks) + 1, of), of=of)
    return _("Table")


def trick_caption(state: UiState) -> Line:
    v = state.view
    trick, mode = _shown_trick(state)
    names = state.names
    if mode == "held":
        return [("class:seat.turn", clip(state.held_caption(), TRICK_WIDTH))]
    if v is None:
        return [("class:hint", _("waiting for the deal"))]
    if v.phase is not Phase.PLAY and trick is None:
        turn = state.turn
        if turn is None:
            return [("class:hint", "")]
        return [("class:hint", _("your turn") if turn == state.seat else _("{who}'s turn").format(
            who=clip(names[turn], 16)))]
    if trick is None:
        leader = v.current_seat
        if leader is None:
            return [("class:hint", "")]
        return [("class:hint", _("You lead") if leader == state.seat else _("{who} leads").format(
            who=clip(names[leader], 20)))]
    if mode == "last":
        winner = trick.winner
        who = names[winner] if winner is not None else "?"
        return [("class:hint", clip(_("last trick to {who}").format(who=who), TRICK_WIDTH))]
    winner = trick.winner
    led = _("led by {who}").format(who=names[trick.leader])
    if winner is None or len(trick.plays) < 2:
        return [("", clip(led, TRICK_WIDTH))]
    winning = _("{who} winning").format(who=names[winner])
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
        name = clip(_("You"), width) if seat == state.seat else clip(names[seat], width)
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
            led = "  " + _("led") if trick is not None and seat == trick.leader and mode == "live" else ""
            lines.append([(name_style, f" {pad(name, 18)}"), (card_style, card), ("class:hint", led)])
    lines.append([])
    lines.append(trick_caption(state))
    return join_lines(lines)


def events_text(state: UiState) -> Line:
    """The event lines, oldest first (the window breaks them between words, continuations indented)."""
    if not state.events:
        return [("class:hint", _("nothing yet"))]
    return join_lines([[(f"class:event.{event.level}", event.text)] for event in state.events])


def events_window(state: UiState) -> Window:
    """The event pane: each line broken between words to the pane's width, scrolled to keep the newest line in
    view."""
    return text_window(lambda: events_text(state), wrap=True, hang=2, follow_end=True)


def hand_title(state: UiState) -> str:
    v = state.view
    if v is None or not v.hand:
        return _("Your hand")
    if state.kind is DecisionKind.PASS:
        return _("Your hand ({n}) · *marked · Space marks, Enter passes, Esc clears").format(n=len(v.hand))
    return _("Your hand ({n})").format(n=len(v.hand))


def hand_text(state: UiState) -> Line:
    """Our cards by suit. When we are to play or pass: the chosen card in [brackets] (and reverse video), the
    cards the rules forbid dimmed; the cards marked for a pass after a `*` (and underlined)."""
    cards = state.hand_cards()
    if not cards:
        return [("class:hint", _no_cards(state))]
    passing = state.kind is DecisionKind.PASS
    legal = state.passable_cards() if passing else state.legal_cards()
    playing = state.kind is DecisionKind.PLAY or passing
    chosen = state.selected if playing else None
    suit = state.rules.order.suit
    out: Line = []
    previous: Card | None = None
    for card in cards:
        # one gap between cards (two between suits); the chosen card's gaps become its brackets
        gap = " " if previous is None or suit(card) is suit(previous) else "  "
        if previous is not None and previous == chosen:
            out.append(("class:card.selected", "]"))
            gap = gap[1:]
        if card == chosen:
            out += [("", gap[:-1]), ("class:card.selected", "[")]
        else:
            out.append(("", gap))
        out += _card_fragments(card, chosen=card == chosen, illegal=playing and card not in legal,
                               marked=passing and card in state.marked)
        previous = card
    if previous is not None and previous == chosen:
        out.append(("class:card.selected", "]"))
    return out


def _no_cards(state: UiState) -> str:
    v = state.view
    if v is not None and v.phase is Phase.BLIND:
        return " " + _("not dealt yet: blind nil is decided before anybody sees a card")
    if v is not None and v.phase is Phase.DRAW:
        return " " + _("no cards yet: draw from the pile")
    return " " + _("no cards")


def _card_fragments(card: Card, *, chosen: bool, illegal: bool, marked: bool) -> Line:
    """One card of our hand: chosen (reverse video), illegal now (dimmed), marked for a pass (`*`)."""
    extra = "class:card.illegal" if illegal else ("class:card.selected" if chosen else "")
    out: Line = []
    if marked:
        out.append(("class:card.marked", "*"))
        extra += " class:card.marked"
    out.append((f"{card_class(card)} {extra}".strip(), card_glyph(card)))
    return out


def hand_height(state: UiState) -> int:
    """One line of cards, two when the hand is wider than the terminal (large hands, narrow screens)."""
    used = sum(width(text) for _, text, *_ in hand_text(state))
    return 1 if used <= columns() - 2 else 2


def status_fragments(state: UiState) -> Line:
    if state.message is not None:
        return [(f"class:message.{state.message.level}", " " + state.message.text)]
    return [("class:status", " " + state.status_text())]


def footer_scores(state: UiState) -> Line:
    """Each side's score (and bags), its name as long as the footer leaves room for beside the keys."""
    rules = state.rules
    out: Line = [("class:footer", " ")]
    sides = len(state.totals)
    room = (columns() - footer_keys_width() - 1 - 3 * (sides - 1)) // max(1, sides)
    said = [f" {total.score}" + (f" ({_footer_bags(total.bags)})" if rules.bag_limit is not None else "")
            for total in state.totals]
    if any(room - width(text) < 3 for text in said):  # no room for the word: the count alone
        said = [f" {total.score}" + (f" ({total.bags})" if rules.bag_limit is not None else "")
                for total in state.totals]
    for i, text in enumerate(said):
        if i:
            out.append(("class:footer", " │ "))
        out.append(("class:footer", state.side_label(i, max(3, min(18, room - width(text)))) + text))
    return out


def _footer_bags(n: int) -> str:
    # TRANSLATORS: a side's bags in the game screen's footer, as short as the language allows
    return npgettext("footer", "{n} bag", "{n} bags", n).format(n=n)


def footer_keys(state: UiState) -> Line:
    # TRANSLATORS: the footer's keys (at most 24 characters): s the score sheet, l the last trick, p the cards
    # played; the letters are the keys
    return [("class:footer", " " + _("s scores l last p played"))]
