"""`p2pspades review LOG [--seat N] [--top K] [--think LEVEL] [--json]`: a finished game from one seat's view,
the decisions that cost the most expected points against the expert's choice."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from p2pspades.audit import Status
from p2pspades.audit.files import verify_log
from p2pspades.bots.review import CannotReview, Review, Weighed, review
from p2pspades.cli.common import add_think_option, fail
from p2pspades.describe.coach import advice_words, move_text
from p2pspades.describe.game import bid_text, card_glyph
from p2pspades.exits import ExitCode
from p2pspades.i18n import _, ngettext, number, said
from p2pspades.printable import printable
from p2pspades.rules import Card, RuleSet, SeatView, bid_notation, sort_hand

DEFAULT_TOP = 10


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "review",
        help=_("the costliest decisions of one seat in a finished game, against the expert's choice"),
        description=_("Replay a game log from one seat's view (its own cards, the bids and the cards played; "
                      "never another seat's cards before the hand's reveal), weigh every bid and card that "
                      "seat chose with the expert's search, and list the decisions that cost the most "
                      "expected points against the expert's choice, each with the position. The draw-pile "
                      "game (two players) cannot be reviewed."),
    )
    p.add_argument("log", metavar=_("LOG"), help=_("the game log (.p2plog)"))
    p.add_argument("--seat", type=int, metavar="N",
                   help=_("the seat to review (default: the seat whose log it is, from its folder seat-N; "
                          "else 0)"))
    p.add_argument("--top", type=int, default=DEFAULT_TOP, metavar="K",
                   help=_("how many decisions to list (default {default})").format(default=DEFAULT_TOP))
    add_think_option(p)
    p.add_argument("--json", action="store_true", help=_("print JSON instead of text"))
    p.set_defaults(run=run)


def log_seat(path: str) -> int | None:
    """The seat whose log this is, from the folder it is kept in (`…/seat-N/…`), if it says."""
    for part in reversed(Path(path).parts[:-1]):
        match = re.fullmatch(r"seat-(\d{1,2})", part)
        if match:
            return int(match.group(1))
    return None


def run(args: argparse.Namespace) -> int:
    if args.top < 1:
        return fail("review", _("--top must be at least 1, not {top}").format(top=args.top))
    verdict = verify_log(args.log)
    table = verdict.table
    if table is None or verdict.status is Status.UNREADABLE:
        return fail("review", verdict.summary)
    rules = table.rules
    seat = args.seat if args.seat is not None else log_seat(args.log) or 0
    if not 0 <= seat < rules.players:
        return fail("review", _("there is no seat {seat}: this game has seats 0 to {last}").format(
            seat=seat, last=rules.players - 1))
    if not verdict.hands:
        return fail("review", _("the log proves no finished hand, so there is nothing to review"))
    names = [s.name for s in table.setup.seats]

    def progress(hand: int, of: int) -> None:
        print(_("weighing hand {hand} of {of}…").format(hand=hand, of=of), file=sys.stderr, flush=True)

    try:
        done = review(rules, verdict.hands, seat, progress=progress)
    except CannotReview as exc:
        return fail("review", said(exc))
    if args.json:
        print(json.dumps(as_json(done, rules, names, args.top, verdict.status), indent=2, ensure_ascii=False))
    else:
        print(as_text(done, rules, names, args.top, verdict.status))
    return ExitCode.OK


def as_json(done: Review, rules: RuleSet, names: list[str], top: int, status: Status) -> dict[str, Any]:
    return {
        "seat": done.seat,
        "name": names[done.seat],
        "verdict": status.name.lower(),
        "decisions": done.decisions,
        "agreed": done.agreed,
        "cost": round(done.cost, 1),
        "costliest": [_weighed_json(w, rules) for w in done.costliest(top)],
    }


def _weighed_json(w: Weighed, rules: RuleSet) -> dict[str, Any]:
    view = w.position.view
    return {
        "hand": w.position.hand,
        "trick": w.position.trick,
        "chosen": w.taken.label,
        "expert": w.advice.option(w.advice.choice).label,  # type: ignore[union-attr]
        "cost": round(w.cost, 1),
        "options": [{"choice": o.label, "net": round(o.points, 1), "holds": round(o.holds, 3), "nil": o.nil}
                    for o in w.advice.options],
        "holds_means": "your nil" if w.advice.nil else "the contract (a nil option: the nil)",
        "hand_held": [c.code for c in sort_hand(view.hand)],
        "trick_so_far": [[s, c.code] for s, c in view.trick.plays],
        "bids": [None if b is None else bid_notation(b, f, rules) for b, f in zip(view.bids, view.blind,
                                                                                 strict=True)],
        "tricks_won": list(view.tricks_won),
    }


def as_text(done: Review, rules: RuleSet, names: list[str], top: int, status: Status) -> str:
    """The review in the reader's language: the seat's totals, then the costliest decisions, each with the
    position as the seat saw it and the coach's advice."""
    weighed = ngettext("{n} decision weighed", "{n} decisions weighed", done.decisions).format(
        n=done.decisions)
    given_up = ngettext("{points} expected point given up in all", "{points} expected points given up in all",
                        round(done.cost)).format(points=number(done.cost))
    # TRANSLATORS: the first line of a review: "seat 2 (ana): 52 decisions weighed; the expert's choice, or
    # one as good, in 47; 31 expected points given up in all"
    lines = [_("seat {seat} ({name}): {weighed}; the expert's choice, or one as good, in {agreed}; "
               "{given_up}").format(seat=done.seat, name=printable(names[done.seat]), weighed=weighed,
                                    agreed=done.agreed, given_up=given_up)]
    if status is not Status.VALID:
        lines.append(_("(the log is not a valid finished game: only the hands it proves are reviewed)"))
    costly = done.costliest(top)
    if not costly:
        lines.append(_("no decision cost half a point or more against the expert's choice"))
        return "\n".join(lines)
    lines.append("")
    lines.append(_("The costliest decisions:"))
    for i, w in enumerate(costly, 1):
        lines += _weighed_text(i, w, rules, names)
    return "\n".join(lines)


def _weighed_text(i: int, w: Weighed, rules: RuleSet, names: list[str]) -> list[str]:
    view = w.position.view
    expert = w.advice.option(w.advice.choice)
    assert expert is not None
    chosen, choice = (move_text(o.action, rules) for o in (w.taken, expert))
    cost = ngettext("{points} point", "{points} points", round(w.cost)).format(points=number(w.cost))
    if w.position.trick == 0:
        # TRANSLATORS: a costly bid of the review: "3. hand 2, the bid: you bid 4; the expert would bid nil —
        # 12 points"
        said_head = _("hand {hand}, the bid: you bid {chosen}; the expert would bid {choice} — {cost}")
    else:
        # TRANSLATORS: a costly card of the review: "3. hand 2, trick 5: you played Q♠; the expert would play
        # 4♦ — 12 points"
        said_head = _("hand {hand}, trick {trick}: you played {chosen}; the expert would play {choice} — "
                      "{cost}")
    head = f"{i:>2}. " + said_head.format(hand=w.position.hand, trick=w.position.trick, chosen=chosen,
                                          choice=choice, cost=cost)
    out = [head, "    " + _("your cards: {cards}").format(cards=_cards(view.hand))]
    if w.position.trick:
        played = [f"{printable(names[s])} {card_glyph(c)}" for s, c in view.trick.plays]
        trick = ", ".join(played) or _("you lead")
        out.append("    " + _("on the table: {trick}").format(trick=trick))
    out.append("    " + _("bids: {bids}").format(bids=_bids(view, rules, names)))
    out.append(f"    {advice_words(w.advice, rules)}")
    return out


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(card_glyph(c) for c in sort_hand(cards))


def _bids(view: SeatView, rules: RuleSet, names: list[str]) -> str:
    parts = []
    for s, (bid, blind) in enumerate(zip(view.bids, view.blind, strict=True)):
        if bid is None and not blind:
            continue
        said_bid = bid_text(bid, blind, rules)
        if view.tricks or view.trick.plays:
            # TRANSLATORS: a seat's bid in the review, and the tricks it took so far: "ana 4 (took 2)"
            parts.append(_("{name} {bid} (took {tricks})").format(name=printable(names[s]), bid=said_bid,
                                                                  tricks=view.tricks_won[s]))
        else:
            parts.append(f"{printable(names[s])} {said_bid}")
    return ", ".join(parts) or _("none yet")
