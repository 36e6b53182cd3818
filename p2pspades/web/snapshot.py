"""The page's view of the models: what the terminal's screens show, as plain data the page's script draws.

`game(state)` reads a `UiState` (the terminal game's model), `lobby(model)` a `LobbyModel`; both only read.
Nothing here decides what is legal: the cards the page lights and the bids it offers are the decision's own
legal actions, as the model derives them. Every word in them is made on this side (`ui/words.py`,
`ui/text.py`, `web/words.py`), so the page's script only draws.
"""

from __future__ import annotations

from typing import Any

from p2pspades.audit import seat_stats
from p2pspades.describe import failed
from p2pspades.describe.game import card_glyph, rank_glyph
from p2pspades.describe.rules import described
from p2pspades.printable import printable
from p2pspades.rules import Action, Bid, BlindBid, BlindNil, Card, Draw, Phase, Trick
from p2pspades.table import DecisionKind
from p2pspades.ui.coaching import COACHED
from p2pspades.ui.derived import Contract, card_tracker
from p2pspades.ui.lobby import SIDE_LETTERS, partner_warnings
from p2pspades.ui.lobby_model import LobbyModel, seat_state
from p2pspades.ui.overlays import Overlay
from p2pspades.ui.result import result_level
from p2pspades.ui.state import UiState
from p2pspades.ui.text import (
    RED_SUITS,
    after_line,
    bid_text,
    protocol_line,
    renege_words,
    rules_lines,
    rules_title,
    score_words,
    termination_words,
)
from p2pspades.web import words

Json = dict[str, Any]
EVENTS_SHOWN = 80
"""The newest event lines a snapshot carries (the page scrolls them)."""


def card(c: Card) -> Json:
    """A card for the page: its code, its name (the accessible name: "A♠", "10♥"), rank and suit to draw."""
    red = c.suit in RED_SUITS and not c.is_joker
    out: Json = {"c": c.code, "g": card_glyph(c), "s": c.suit.value, "red": red}
    out["r"] = rank_glyph(c)
    if c.is_joker:
        out["j"] = "big" if c.code == "BJ" else "little"
    return out


# ------------------------------------------------------------------------------------------ actions
def action_code(action: Action) -> str:
    """A dialog's choice as the page sends it back: "bid:4", "blindnil:1", "blindbid:6", "draw:keep"."""
    if isinstance(action, Bid):
        return f"bid:{action.tricks}"
    if isinstance(action, BlindNil):
        return f"blindnil:{int(action.declare)}"
    if isinstance(action, BlindBid):
        return f"blindbid:{action.tricks}"
    if isinstance(action, Draw):
        return "draw:keep" if action.keep else "draw:discard"
    raise ValueError(f"{action!r} is not a dialog's choice")


def action_of(code: str) -> Action | None:
    """The choice a page's code names, or None if it names none (the model checks it is legal)."""
    kind, _, value = code.partition(":")
    if kind == "draw" and value in ("keep", "discard"):
        return Draw(value == "keep")
    if kind == "blindnil" and value in ("0", "1"):
        return BlindNil(value == "1")
    if not (value.isdigit() and len(value) <= 2):
        return None
    if kind == "bid":
        return Bid(int(value))
    if kind == "blindbid":
        return BlindBid(int(value))
    return None


# ------------------------------------------------------------------------------------------ the game
def game(state: UiState) -> Json:
    """Everything the game screen shows, for the page."""
    top = state.top_overlay
    out: Json = {
        "kind": "game",
        "title": title(state),
        "seat": state.seat,
        "players": state.rules.players,
        "seats": seats(state),
        "trick": trick(state),
        "hand": hand(state),
        "dialog": dialog(state) if top is None else None,
        "prompt": prompt(state),
        "turn": turn_words(state),
        "told": told(state),
        "contracts": contracts(state),
        "scores": scores(state),
        "events": [{"text": e.text, "level": e.level} for e in list(state.events)[-EVENTS_SHOWN:]],
        "overlay": None if top is None else top.value,
        "waiting": state.countdown is not None or (state.waiting is not None and state.decision is None
                                                   and state.result is None),
        "coach": state.kind in COACHED,
        "stop": state.result is None and not state.only_our_bots and state.on_stop is not None,
        "confirm_card": state.confirm_card,
        "confirming": None if state.confirming is None else card(state.confirming),
        "over": state.result is not None,
    }
    if top is not None:
        out["window"] = window(state, top)
    return out


def title(state: UiState) -> str:
    v = state.view
    return words.title(state.table_name, rules_title(state.rules), None if v is None else v.hand_number,
                       v is not None and v.spades_broken)


def _bidding(state: UiState) -> bool:
    v = state.view
    return v is not None and v.phase in (Phase.BID, Phase.BLIND, Phase.DRAW)


def seats(state: UiState) -> list[Json]:
    """Every seat, from ours round the table in play order: name, side, bid, tricks, cards left, dealer,
    whose turn, the connection, a bot and whose machine runs it."""
    rules, v, turn = state.rules, state.view, state.turn
    contracts_by_side = {c.side: c for c in state.contracts()}
    mine = rules.side_of(state.seat)
    out = []
    for k in range(rules.players):
        seat = (state.seat + k) % rules.players
        bid = "-"
        won: int | None = None
        held = 0
        if v is not None:
            if v.bids[seat] is not None or v.blind[seat]:
                bid = bid_text(v.bids[seat], v.blind[seat], rules)
            elif _bidding(state):
                bid = "…"
            won = v.tricks_won[seat] if v.phase in (Phase.PLAY, Phase.REVEAL) or v.tricks else None
            held = v.hand_sizes[seat]
        owner = state.bots.get(seat)
        bot = "" if owner is None else words.bot_of(None if owner == state.seat else state.names[owner])
        row: Json = {
            "seat": seat, "at": k, "name": state.names[seat], "you": seat == state.seat,
            # the seat's side as a style (its colour on the page), not a word
            "side": ("us" if rules.side_of(seat) == mine else "them") if rules.partnerships else "",
            "bid": bid, "won": won, "line": words.seat_line(bid, won), "held": held,
            "dealer": v is not None and seat == v.dealer,
            "turn": seat == turn, "conn": state.connection.get(seat, ""), "bot": bot,
            "thinking": seat in state.thinking,
        }
        if not rules.partnerships:
            c = contracts_by_side.get(rules.side_of(seat))
            row["contract"] = None if c is None else {"text": state.words.contract_cell(c), "level": level(c)}
        out.append(row)
    return out


def level(c: Contract) -> str:
    """good: made; bad: set, or a nil that failed; "": under way."""
    if c.lost or any(taken for _, _, taken in c.nils):
        return "bad"
    return "good" if c.to_go == 0 else ""


def shown_trick(state: UiState) -> tuple[Trick | None, str, int | None]:
    """The trick on the table, how it is shown ("held": just completed, kept a moment with its winner;
    "live"; "last": the previous one until the next lead; "": none) and its number in the hand."""
    if state.top_overlay is Overlay.TRICK and state.held is not None:
        return state.held[0], "held", state.held[1]
    v = state.view
    if v is None:
        return None, "", None
    if v.trick.plays:
        return v.trick, "live", len(v.tricks) + 1
    if v.tricks:
        return v.tricks[-1], "last", len(v.tricks)
    return None, "", None


def trick(state: UiState) -> Json:
    v = state.view
    shown, mode, number = shown_trick(state)
    phase = "" if v is None else v.phase.value
    playing = v is not None and v.phase is Phase.PLAY
    heading = number if mode == "held" else (min(len(v.tricks) + 1, state.rules.tricks_per_hand)
                                             if v is not None and playing else None)
    if mode == "held":
        caption = state.held_caption()
    elif shown is None and v is not None and playing:
        caption = words.lead_caption(state.names, state.seat, v.current_seat)
    else:
        caption = words.trick_caption(state.names, state.seat, shown, mode, state.turn)
    plays = []
    if shown is not None:
        winning = shown.winner if len(shown.plays) > 1 or mode != "live" else None
        for seat, c in shown.plays:
            plays.append({"seat": seat, "at": (seat - state.seat) % state.rules.players, "card": card(c),
                          "led": seat == shown.leader, "winning": seat == winning})
    return {"title": words.trick_title(state.rules, phase, heading), "mode": mode, "caption": caption,
            "plays": plays}


def hand(state: UiState) -> Json:
    v = state.view
    kind = state.kind
    passing = kind is DecisionKind.PASS
    cards = state.hand_cards()
    legal = state.passable_cards() if passing else state.legal_cards()
    playing = kind is DecisionKind.PLAY or passing
    out: Json = {
        "title": words.hand_title(len(cards), passing),
        "mode": "pass" if passing else ("play" if kind is DecisionKind.PLAY else ""),
        "cards": [{"card": card(c), "legal": c in legal, "selected": playing and c == state.selected,
                   "marked": c in state.marked} for c in cards],
        "empty": "" if cards else words.no_cards("" if v is None else v.phase.value),
        "typed": state.typed,
    }
    if passing:
        size = state.rules.nil_pass
        marked = len(state.marked)
        out["pass"] = {"label": words.pass_button(size, marked), "ready": marked == size}
    return out


def dialog(state: UiState) -> Json | None:
    """The bid, blind-nil or draw question, with its choices (the decision's legal actions)."""
    kind, v, rules = state.kind, state.view, state.rules
    if kind not in (DecisionKind.BID, DecisionKind.BLIND_NIL, DecisionKind.DRAW) or v is None:
        return None
    options = state.choices()
    lines: list[str] = []
    top: Json | None = None
    if kind is DecisionKind.BID:
        lines.append(words.bid_question(rules))
    elif kind is DecisionKind.BLIND_NIL:
        best = max(t.score for i, t in enumerate(v.totals) if i != v.side)
        blind_bids = [a.tricks for a in options if isinstance(a, BlindBid)]
        lines += words.blind_question(best - v.totals[v.side].score, rules, blind_bids)
    else:
        top = None if v.draw_card is None else card(v.draw_card)
        lines += words.draw_question(v.draw_card, v.stock_left)
    return {
        "kind": kind.value,
        "title": words.dialog_title(kind.value, v.hand_number),
        "lines": lines,
        "top": top,
        "choices": [{"a": action_code(a), "label": state.choice_label(a), "selected": i == state.choice}
                    for i, a in enumerate(options)],
        "typed": state.typed,
    }


def prompt(state: UiState) -> Json:
    """The prompt line: a word said until the next key, else what to do or whom the table waits for."""
    if state.message is not None:
        return {"text": state.message.text, "level": state.message.level}
    return {"text": state.status_text(), "level": "status"}


def turn_words(state: UiState) -> str:
    """Whose turn it is, for the live region: without the countdown or the code being typed, so it changes
    only when the turn does."""
    if state.result is not None:
        return state.status_text()
    if state.decision is not None:
        return words.your_turn(state.decision.kind.value)
    if state.waiting is not None:
        seat, what = state.waiting
        return state.words.waiting(seat, what)
    return ""


def told(state: UiState) -> str:
    """The last completed trick in words, for the live region that announces it."""
    v = state.view
    if state.held is not None:
        return words.trick_told(state.names, state.seat, *state.held)
    if v is not None and v.tricks:
        return words.trick_told(state.names, state.seat, v.tricks[-1], len(v.tricks))
    return ""


def contracts(state: UiState) -> list[Json]:
    """Each side's contract and the tricks it still needs (partnerships; otherwise each seat has its own)."""
    rules = state.rules
    if not rules.partnerships:
        return []
    mine = rules.side_of(state.seat)
    found = {c.side: c for c in state.contracts()}
    out = []
    for side in range(len(rules.sides)):
        label = words.side_word(side == mine)
        c = found.get(side)
        if c is None:
            out.append({"text": words.no_contract(label, _bidding(state)), "level": "dim"})
        else:
            out.append({"text": state.words.contract_line(c, label), "level": level(c)})
    return out


def scores(state: UiState) -> list[Json]:
    rules = state.rules
    return [{"label": state.side_label(i), "score": t.score,
             "bags": t.bags if rules.bag_limit is not None else None,
             "ours": i == rules.side_of(state.seat)} for i, t in enumerate(state.totals)]


# ------------------------------------------------------------------------------------------ the windows
def window(state: UiState, top: Overlay) -> Json | None:
    """The window on top of the table (the model's overlay), as the page draws it."""
    if top is Overlay.SCORES:
        return score_sheet(state)
    if top is Overlay.PLAYED:
        return tracker(state)
    if top is Overlay.LAST:
        return last_trick(state)
    if top is Overlay.SUMMARY:
        return summary(state)
    if top is Overlay.OVER:
        return over(state)
    if top is Overlay.QUIT:
        return {"lines": words.quit_question(state.only_our_bots, state.resumable)}
    if top is Overlay.STOP:
        p = state.proposal
        proposing = state.proposing or p is None
        who = "" if p is None else state.words.who(p.proposer)
        totals = " – ".join(str(t.score) for t in state.totals)
        return {"lines": words.stop_question(proposing, who, totals, None if p is None else p.lapses_in),
                "proposing": proposing}
    if top is Overlay.HELP:
        return {"keys": [list(k) for k in words.help_keys()],
                "rules": words.rules_help(described(state.rules), state.rules.target)}
    return None


def score_sheet(state: UiState) -> Json:
    rules = state.rules
    rows = []
    for h in state.history:
        cells = []
        for i, side in enumerate(rules.sides):
            total = h.totals[i]
            cells.append({
                "bids": "+".join(bid_text(h.bids[s], h.blind[s], rules, short=True) for s in side),
                "won": sum(h.tricks_scored[s] for s in side), "points": f"{h.scores[i].points:+d}",
                "total": total.score, "bags": total.bags if rules.bag_limit is not None else None})
        rows.append({"hand": h.number, "cells": cells})
    return {"sides": [state.side_label(i) for i in range(len(rules.sides))], "rows": rows,
            "target": words.target(rules.target)}


def tracker(state: UiState) -> Json:
    rows = card_tracker(state.view)
    return {"rows": [{"suit": suit.value, "glyph": suit.glyph, "played": [card(c) for c in gone],
                      "out": [card(c) for c in out]} for suit, gone, out in rows]}


def last_trick(state: UiState) -> Json:
    t = state.last_trick
    if t is None:
        return {"plays": []}
    return {"leader": state.names[t.leader],
            "plays": [{"name": state.names[seat], "card": card(c), "won": seat == t.winner}
                      for seat, c in t.plays]}


def summary(state: UiState) -> Json:
    hand_result = state.summary()
    if hand_result is None:
        return {"title": words.summary_title(None), "players": []}
    rules, names = state.rules, state.names
    verdict, verdict_level = state.audit_text(hand_result.number)
    return {
        "title": words.summary_title(hand_result.number),
        "verdict": {"text": verdict, "level": verdict_level},
        "players": [{"name": names[s], "bid": bid_text(hand_result.bids[s], hand_result.blind[s], rules),
                     "won": words.scored(hand_result.tricks_won[s], hand_result.tricks_scored[s])}
                    for s in range(rules.players)],
        "sides": [{"label": state.side_label(sc.side), "points": f"{sc.points:+d}",
                   "words": score_words(sc, rules),
                   "total": words.side_total(hand_result.totals[sc.side].score,
                                             hand_result.totals[sc.side].bags if rules.bag_limit else None)}
                  for sc in hand_result.scores],
        "violations": [words.penalty(names[v.seat], failed(v.kind, v.detail), renege_words(rules))
                       for v in hand_result.violations],
    }


def over(state: UiState) -> Json:
    """The end: who won, the game in numbers per side and per player, the hands audited."""
    result, rules, names = state.result, state.rules, state.names
    out: Json = {"title": words.over_title(), "text": "", "level": "info"}
    if result is not None:
        out["text"] = result.text
        out["level"] = result_level(result.status)
    v = state.view
    if v is not None and v.outcome is not None:
        out["ended_by"] = words.ended_by(termination_words(v.outcome.termination))
    stats = [seat_stats(rules, state.history, seat) for seat in range(rules.players)]
    out["sides"] = []
    for side, total in enumerate(state.totals):
        s = stats[rules.sides[side][0]]
        out["sides"].append({
            "label": state.side_label(side), "total": total.score, "made": s.contracts_made,
            "set": s.contracts_set, "bags": s.bags,
            "per_hand": "-" if s.points_per_hand is None else f"{s.points_per_hand:.1f}",
            "won": result is not None and side in result.winners})
    if rules.nil:
        out["players"] = [{"name": names[seat], "nils": f"{s.nils_made}/{s.nils_failed}",
                           "blind": f"{s.blind_nils_made}/{s.blind_nils_failed}" if rules.blind_nil else None}
                          for seat, s in enumerate(stats)]
    failed_hands = sum(1 for a in state.audits.values() if a.violations)
    out["audited"] = words.audited(len(state.audits), failed_hands) if state.audits else ""
    return out


# ------------------------------------------------------------------------------------------ the lobby
def lobby(model: LobbyModel) -> Json:
    """The lobby screen: the table, its rules, who sits where with their key fingerprints, who runs each
    bot (and so sees its cards), and what the person may do."""
    rules = model.rules
    rows = []
    for seat in range(rules.players):
        s = model.at(seat)
        row: Json = {"seat": seat, "side": SIDE_LETTERS[rules.side_of(seat)] if rules.partnerships else "",
                     "selected": model.hosting and seat == model.selected, "controls": []}
        if s is None:
            row["free"] = True
            if model.hosting:
                row["controls"] = ["b"]
        else:
            level_of = model.level_of(s)
            row.update(name=printable(s.name), fingerprint=s.fingerprint, you=s.seat == model.you, bot=s.bot,
                       state=printable(seat_state(s, model.seats, model.you, level_of)))
            if model.hosting:
                allowed = (("x", seat != 0), ("s", s.bot), ("l", level_of is not None))
                row["controls"] = [k for k, ok in allowed if ok]
                if level_of is not None:
                    row["level"] = level_of
        rows.append(row)
    labels = [("start", "leave") if model.hosting else ("accept", "decline")][0]
    lines = [*([after_line(model.after)] if model.after is not None else []), *rules_lines(rules),
             protocol_line(model.version)]
    return {
        "kind": "lobby",
        "title": printable(f"{model.table_name} · {rules_title(rules)}"),
        "rules": [list(line) for line in lines],
        "seats": rows,
        "warnings": [printable(line) for line in partner_warnings(model)],
        "hint": model.hint(),
        "hosting": model.hosting,
        "ready": model.ready,
        "buttons": [{"do": labels[0], "enabled": model.ready}, {"do": labels[1], "enabled": True}],
        "level": model.controls.level if model.controls is not None else None,
    }


def notice(lines: list[str], kind: str = "notice") -> Json:
    """Before a lobby or a game is shown, and after the game: what the command said, newest last."""
    return {"kind": kind, "lines": lines[-40:]}
