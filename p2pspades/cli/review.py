"""`p2pspades review LOG [--seat N] [--top K] [--think LEVEL] [--jobs N] [--json]`: a finished game from one
seat's view, the decisions that cost the most expected points against the expert's choice.

The log is verified as `verify` does, its proofs checked by worker processes; each hand it proves is handed
at once to the same workers, which weigh the seat's decisions in it (`bots.review.judge`) while the rest of
the log is checked. A progress line counts both.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from p2pspades.audit import GameVisitor, Status
from p2pspades.audit.files import verify_log
from p2pspades.audit.parallel import available_jobs, stop_pool, worker_pool
from p2pspades.bots.review import CannotReview, Judged, Position, Replay, Review, judge, summed, weighable
from p2pspades.cli.common import add_think_option, fail
from p2pspades.cli.verify import add_jobs_option
from p2pspades.describe.coaching import action_text, given_up, legend
from p2pspades.describe.game import bid_text, card_glyph
from p2pspades.exits import ExitCode
from p2pspades.i18n import DEFAULT, _, ngettext, number, said, speaking
from p2pspades.printable import printable
from p2pspades.rules import Card, HandResult, RuleSet, SeatView, bid_notation, sort_hand
from p2pspades.table import HandAudited
from p2pspades.table.genesis import Setup

DEFAULT_TOP = 10


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "review",
        help=_("the costliest decisions of one seat in a finished game, against the expert's choice"),
        description=_("Replay a game log from one seat's view (its own cards, the bids and the cards "
                      "played; never another seat's cards before the hand's reveal), weigh every bid, "
                      "blind-nil answer and card that seat chose with the expert's search, and list the "
                      "decisions that cost the most expected points against the expert's choice, each with "
                      "the position and what was given up. 'net' is the points the seat's side could expect "
                      "from the hand less the other side's, bags included; a percentage is of the deals the "
                      "search tried for the cards the seat could not see. The draw-pile game (two players) "
                      "cannot be reviewed."),
    )
    p.add_argument("log", metavar=_("LOG"), help=_("the game log (.p2plog)"))
    p.add_argument("--seat", type=int, metavar="N",
                   help=_("the seat to review (default: the seat whose log it is, from its folder seat-N; "
                          "else 0)"))
    p.add_argument("--top", type=int, default=DEFAULT_TOP, metavar="K",
                   help=_("how many decisions to list (default {default})").format(default=DEFAULT_TOP))
    add_think_option(p)
    add_jobs_option(p)
    p.add_argument("--json", action="store_true", help=_("print JSON instead of text"))
    p.set_defaults(run=run)


def log_seat(path: str) -> int | None:
    """The seat whose log this is, from the folder it is kept in (`…/seat-N/…`), if it says."""
    for part in reversed(Path(path).parts[:-1]):
        match = re.fullmatch(r"seat-(\d{1,2})", part)
        if match:
            return int(match.group(1))
    return None


class Progress:
    """One line on stderr, rewritten in place on a terminal ("review: hand 4 verified · 37 of 52 decisions
    weighed"); elsewhere a line as each hand is weighed."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.verified = 0
        self.done = 0
        self.total = 0

    def show(self) -> None:
        if self.live:
            line = _("review: hand {hand} verified · {done} of {total} decisions weighed").format(
                hand=number(self.verified), done=number(self.done), total=number(self.total))
            self.stream.write("\r\x1b[K" + line)
            self.stream.flush()

    def hand_weighed(self, hand: int, of: int | None) -> None:
        if not self.live:
            line = _("weighed hand {hand} of {hands}…") if of else _("weighed hand {hand}…")
            print(line.format(hand=number(hand), hands=number(of or 0)), file=self.stream, flush=True)

    def end(self) -> None:
        if self.live:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


class Weighing(GameVisitor):
    """Each hand the verifier proves, replayed from the seat's view, its decisions handed to `submit` at once
    (a worker pool's, or a plain call)."""

    def __init__(self, seat: int | None, think: str, submit: Submit, progress: Progress) -> None:
        self.asked = seat
        self.think = think
        self.submit = submit
        self.progress = progress
        self.replay: Replay | None = None
        self.problem: str | None = None
        self.setup: Setup | None = None
        #: per hand, its number and the seat's decisions being weighed
        self.hands: list[tuple[int, list[Weighed]]] = []

    def on_genesis(self, setup: Setup) -> None:
        self.setup = setup
        after = setup.after
        totals = after.totals if after is not None and after.continues else None
        try:
            self.replay = Replay(setup.rules, self.asked or 0, totals)
        except CannotReview as exc:
            self.problem = said(exc)

    def on_hand(self, hand: HandResult, audit: HandAudited) -> None:
        self.progress.verified = hand.number
        if self.replay is None or self.problem is not None:
            return
        try:
            found = list(self.replay.hand(hand))
        except CannotReview as exc:
            self.problem = said(exc)
            return
        # a decision with nothing to choose is judged here and now: a worker's round trip costs more
        self.hands.append((hand.number, [(self.submit if weighable(p) else _now)(judge, p, self.think)
                                         for p in found]))
        self.progress.total += len(found)
        self.progress.show()

    def results(self) -> list[Judged | None]:
        """Every decision weighed, waiting for the workers, the progress told as they land."""
        out: list[Judged | None] = []
        for hand, futures in self.hands:
            for future in futures:
                out.append(future.result())
                self.progress.done += 1
                self.progress.show()
            self.progress.hand_weighed(hand, len(self.hands))
        return out


Weighed = concurrent.futures.Future[Judged | None]
Judge = Callable[[Position, str], Judged | None]
Submit = Callable[[Judge, Position, str], Weighed]


def _now(weigh: Judge, position: Position, think: str) -> Weighed:
    """A decision weighed in this process, as a finished future."""
    future: Weighed = concurrent.futures.Future()
    future.set_result(weigh(position, think))
    return future


def run(args: argparse.Namespace) -> int:
    if args.top < 1:
        return fail("review", _("--top must be at least 1, not {top}").format(top=args.top))
    if args.seat is not None and args.seat < 0:
        return fail("review", _("there is no seat {seat}: seats are numbered from 0").format(seat=args.seat))
    seat = args.seat if args.seat is not None else log_seat(args.log)
    jobs = available_jobs(args.jobs)
    progress = Progress(sys.stderr)
    pool = worker_pool(jobs) if jobs > 1 else None  # the proofs' checks and the weighing share the workers
    weighing = Weighing(seat, args.think, pool.submit if pool is not None else _now, progress)
    try:
        verdict = verify_log(args.log, weighing, pool=pool)
        table = verdict.table
        if table is None or verdict.status is Status.UNREADABLE:
            return fail("review", verdict.summary)
        if weighing.problem is not None:
            return fail("review", weighing.problem)
        if not verdict.hands:
            return fail("review", _("the log proves no finished hand, so there is nothing to review"))
        done = summed(weighing.replay.seat if weighing.replay else 0, weighing.results())
    finally:
        progress.end()
        if pool is not None:
            stop_pool(pool)
    rules = table.rules
    names = [s.name for s in table.setup.seats]
    if args.json:
        with speaking(DEFAULT):  # for tools: the same words in every language
            record = as_json(done, rules, names, args.top, verdict.status)
        print(json.dumps(record, indent=2, ensure_ascii=False))
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
        "net_means": "the points the seat's side could expect from the hand less the other side's (the "
        "others' average where each player scores alone), bags included",
        "holds_means": "the share of the deals tried in which the side's contract was made (for a nil: the "
        "nil held), each deal counted as far as it fits the bids made",
        "costliest": [_judged_json(w, rules) for w in done.costliest(top)],
    }


def _judged_json(w: Judged, rules: RuleSet) -> dict[str, Any]:
    view = w.position.view
    best = w.advice.best
    return {
        "hand": w.position.hand,
        "trick": w.position.trick,
        "decision": w.advice.kind.value,
        "chosen": action_text(w.position.chosen, rules),
        "expert": action_text(w.advice.choice, rules),
        "cost": round(w.cost, 1),
        "net_chosen": round(w.taken.points, 1),
        "net_expert": round(best.points, 1),
        "given_up": given_up(w.advice, w.taken, w.position.chosen, rules),
        "deals": w.advice.deals,
        "options": [{"choice": action_text(o.action, rules),
                     "as_good": [action_text(a, rules) for a in o.alike],
                     "net": round(o.points, 1), "holds": round(o.holds, 3), "nil": o.nil}
                    for o in w.advice.options],
        "hand_held": [c.code for c in sort_hand(view.hand)],
        "trick_so_far": [[s, c.code] for s, c in view.trick.plays],
        "bids": [None if b is None else bid_notation(b, f, rules) for b, f in zip(view.bids, view.blind,
                                                                                 strict=True)],
        "tricks_won": list(view.tricks_won),
    }


def as_text(done: Review, rules: RuleSet, names: list[str], top: int, status: Status) -> str:
    """The review in the reader's language: the seat's totals, then the costliest decisions, each with the
    position as the seat saw it and what it gave up against the expert's choice."""
    weighed = ngettext("{n} decision weighed", "{n} decisions weighed", done.decisions).format(
        n=number(done.decisions))
    lost = ngettext("{points} expected point given up in all", "{points} expected points given up in all",
                    round(done.cost)).format(points=number(done.cost))
    # TRANSLATORS: the first line of a review: "seat 2 (ana): 52 decisions weighed; the expert's choice, or
    # one as good, in 47; 31 expected points given up in all"
    lines = [_("seat {seat} ({name}): {weighed}; the expert's choice, or one as good, in {agreed}; "
               "{given_up}").format(seat=done.seat, name=printable(names[done.seat]), weighed=weighed,
                                    agreed=number(done.agreed), given_up=lost)]
    if status is not Status.VALID:
        lines.append(_("(the log is not a valid finished game: only the hands it proves are reviewed)"))
    costly = done.costliest(top)
    if not costly:
        lines.append(_("no decision cost half a point or more against the expert's choice"))
        return "\n".join(lines)
    lines.append(legend(rules, spelled=True))
    lines.append("")
    lines.append(_("The costliest decisions:"))
    for i, w in enumerate(costly, 1):
        lines += _judged_text(i, w, rules, names)
    return "\n".join(lines)


def _head(w: Judged, rules: RuleSet) -> str:
    """What the seat did and what the expert would have, with the points given up."""
    cost = ngettext("{points} point given up", "{points} points given up", round(w.cost)).format(
        points=number(w.cost))
    heads = {
        # TRANSLATORS: a costly bid of the review: "3. hand 2, the bid: you bid 4; the expert would bid nil:
        # 12 points given up"
        "bid": _("hand {hand}, the bid: you bid {chosen}; the expert would bid {choice}: {cost}"),
        # TRANSLATORS: a costly answer to the blind-nil question: "3. hand 2, blind nil?: you answered blind
        # nil; the expert would answer no blind nil: 40 points given up"
        "blind": _("hand {hand}, blind nil?: you answered {chosen}; the expert would answer {choice}: "
                   "{cost}"),
    }
    # TRANSLATORS: a costly card of the review: "3. hand 2, trick 5: you played Q♠; the expert would play 4♦:
    # 12 points given up"
    head = heads.get(w.advice.kind.value, _("hand {hand}, trick {trick}: you played {chosen}; the expert "
                                            "would play {choice}: {cost}"))
    return head.format(hand=w.position.hand, trick=w.position.trick, cost=cost,
                       chosen=action_text(w.position.chosen, rules, bare=True),
                       choice=action_text(w.advice.choice, rules, bare=True))


def _judged_text(i: int, w: Judged, rules: RuleSet, names: list[str]) -> list[str]:
    view = w.position.view
    out = [f"{i:>2}. " + _head(w, rules)]
    if view.hand:
        out.append("    " + _("your cards: {cards}").format(cards=_cards(view.hand)))
    if w.position.trick:
        played = _(", ").join(f"{printable(names[s])} {card_glyph(c)}" for s, c in view.trick.plays)
        out.append("    " + _("on the table: {trick}").format(trick=played or _("you lead")))
    out.append("    " + _("bids: {bids}").format(bids=_bids(view, rules, names)))
    out.append("    " + given_up(w.advice, w.taken, w.position.chosen, rules))
    return out


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(card_glyph(c) for c in sort_hand(cards))


def _bids(view: SeatView, rules: RuleSet, names: list[str]) -> str:
    parts = []
    for s, (bid, blind) in enumerate(zip(view.bids, view.blind, strict=True)):
        if bid is None and not blind:
            continue
        bid_said = bid_text(bid, blind, rules)
        if view.tricks or view.trick.plays:
            # TRANSLATORS: a seat's bid in the review, and the tricks it took so far: "4 (took 2)"
            bid_said = _("{bid} (took {tricks})").format(bid=bid_said, tricks=number(view.tricks_won[s]))
        parts.append(f"{printable(names[s])} {bid_said}")
    return _(", ").join(parts) or _("none yet")
