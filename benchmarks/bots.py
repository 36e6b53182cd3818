"""Play strength in duplicate format: the same deals played twice, with the sides swapping seats.

Three comparisons per preset, each of which `--skip-…` leaves out: expert over heuristic, expert over the
PIMC yardstick (`PimcSearcher` of `benchmarks/pimc.py`: it searches its bids and its cards, 0.3 s of wall
clock a decision), and heuristic over random; `--plain-pimc` adds the expert over the earlier, plain
yardstick, and `--pair A/B` any two bots (an expert with settings of its own is "expert:NAME=VALUE,..."). Each
deal is one hand from the start of a game (totals 0), dealt from a seeded shuffle. It is played at two tables
with the same cards and the same dealer: at the first, bot A holds the even seats and bot B the odd ones; at
the second they swap. A deal's score is A's points less B's, summed over both tables and halved: points per
deal, with luck of the cards cancelled. In individual games the seats score on their own and a bot's points
are the mean of its seats'; with an odd number of players the deal is played once per seat, A in that seat
alone.

Reported per preset, as one JSON object: points per deal of A over B (mean and 95% interval, and deal by
deal), the same with carried bags charged at their share of the bag penalty, sets, nils made and bags per
bot, and each bot's decision time (mean, 95th percentile, max) over all its decisions with more than one
legal choice: wall-clock time (what a player waits, which includes whatever else the machine is running) and
the CPU time of this process (the bot's own work). No cryptography: this measures how well the bots play.
Progress goes to stderr.

    python benchmarks/bots.py [--deals 4] [--presets classic,individual,piki] [--budget 1.0] [--seed 1]
                             [--minutes M] [--skip-random] [--skip-pimc] [--skip-heuristic] [--plain-pimc]
                             [--pimc-budget 0.3] [--pimc-playouts N] [--jobs N] [--split] [--playouts N]
                             [--expert NAME=VALUE] [--pair A/B] [--hands] [--exact-ending K]

The deals are played in turn across presets and comparisons (deal 0 everywhere, then deal 1...), so that
`--minutes` (no new deal starts after it) ends a long run with every preset measured on the same deals.
`--jobs N` plays N deals at once in worker processes, with the same figures as one process (every bot is
seeded by its deal and seat); keep N at most the idle cores where a budget is wall clock.
Ctrl-C (or `kill`) stops a run and prints the figures of the deals that had finished (exit 130).
`--playouts N` holds the expert to N playouts a decision with no clock cap, and `--pimc-playouts N` the
yardsticks to N rollouts, so a run repeats exactly whatever the load (by default the expert's budget's count,
with the clock as a cap, as it plays, and the yardsticks' wall clock). `--expert NAME=VALUE` sets an
`ExpertBot` keyword for the run (an idea measured alone); `--exact-ending K` has the expert's card playouts
play their last K tricks exactly (`ExactEnding` of `endgame.py`), an idea of the benchmarks, not the bot's.

`--split` takes the expert apart: its bids alone (the expert bids, the heuristic plays its cards) over the
heuristic, and its card play alone (the heuristic's bids with the expert's cards) over the yardstick;
`--pair pimc-bids/pimc` is the yardstick's bids with the expert's card play over the yardstick, and
"pimc-play" the expert's bids with the yardstick's card play. `--hands` records every table's hand (the
cards, bids, tricks and each side's score), for where a match's points go: at a deal's two tables the same
seat holds the same cards, so each side's cards are played once by each bot.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import multiprocessing
import signal
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from endgame import exact_ending  # the exact ending an idea may give the expert's playouts
from pimc import BUDGET as PIMC_BUDGET  # the yardsticks, beside this script (its folder is on the path)
from pimc import PimcSearcher, PlainPimc

from p2pspades.bots import BOT_KINDS, ExpertBot, Player, make_bot
from p2pspades.bots.expert import CONFIDENCE, DEFAULT_BUDGET
from p2pspades.rules import (
    PRESETS,
    Action,
    ByteStream,
    Game,
    HandResult,
    Phase,
    Reveal,
    RuleSet,
    deal_from_order,
)
from p2pspades.rules import is_nil as nil_bid
from p2pspades.table.events import Decision, DecisionKind

Z95 = 1.959963984540054
UNCAPPED = 1e6
"""The expert's budget under `--playouts`: a clock cap that never ends a decision."""
KINDS = {
    Phase.BLIND: DecisionKind.BLIND_NIL,
    Phase.DRAW: DecisionKind.DRAW,
    Phase.BID: DecisionKind.BID,
    Phase.PLAY: DecisionKind.PLAY,
}


@dataclass
class Tally:
    """What one kind of bot did: decision times, sides set, nils bid and made."""

    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    capped: int = 0  # decisions the wall-clock cap ended before their planned playouts
    side_hands: int = 0
    sets: int = 0
    nils: int = 0
    nils_made: int = 0
    bags: int = 0

    def merge(self, other: Tally) -> None:
        """Add another tally's decisions and counts to this one's."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


class Timed:
    """A bot whose decisions (those with a real choice) are timed into a tally."""

    def __init__(self, bot: Callable[[Decision], Action], tally: Tally) -> None:
        self.bot = bot
        self.tally = tally

    def __call__(self, decision: Decision) -> Action:
        start, cpu = time.perf_counter(), time.process_time()
        action = self.bot(decision)
        if len(decision.legal) > 1:
            self.tally.times.append(time.perf_counter() - start)
            self.tally.cpu.append(time.process_time() - cpu)
            self.tally.capped += bool(getattr(self.bot, "capped", False))
        return action


class Split:
    """One bot's bids (and every other decision) with another's card play: what `--split` measures."""

    def __init__(self, bidder: Player, player: Player) -> None:
        self.bidder = bidder
        self.player = player

    @property
    def capped(self) -> bool:
        return bool(getattr(self.bidder, "capped", False) or getattr(self.player, "capped", False))

    def __call__(self, decision: Decision) -> Action:
        return (self.player if decision.kind is DecisionKind.PLAY else self.bidder)(decision)


YARDSTICKS: dict[str, type[PimcSearcher] | type[PlainPimc]] = {"pimc": PimcSearcher, "plain-pimc": PlainPimc}
"""The PIMC searchers of `benchmarks/pimc.py`, by kind."""
SPLITS = {
    "expert-bids": ("expert", "normal"),
    "expert-play": ("normal", "expert"),
    "pimc-bids": ("pimc", "expert"),
    "pimc-play": ("expert", "pimc"),
}
"""Bots of one bot's bids and another's card play: `--split`'s (the expert's bids with the heuristic's card
play, and the other way round), and for `--pair` the yardstick's bids with the expert's card play
("pimc-bids") and the expert's bids with the yardstick's ("pimc-play")."""


def play_deal(rules: RuleSet, bots: Sequence[Callable[[Decision], Action]], deal_seed: bytes) -> HandResult:
    """One hand from a new game, dealt from `deal_seed`; every seat's choices come from its bot."""
    stream = ByteStream(deal_seed)
    game = Game(rules, stream.below(rules.players))
    while not game.history:
        phase = game.phase
        if phase is Phase.DEAL:
            cards = list(rules.deck)
            stream.shuffle(cards)
            game.apply(deal_from_order(rules, game.dealer, cards))
        elif phase is Phase.REVEAL:
            hands = game.initial_hands()
            assert hands is not None
            game.apply(Reveal(hands))
        else:
            seat = game.current_seat
            assert seat is not None
            view = game.view(seat)
            decision = Decision(KINDS[phase], view, view.legal_actions)
            action = bots[seat](decision)
            if action not in decision.legal:
                raise AssertionError(f"seat {seat} chose {action!r}, not a legal {phase.value} action")
            game.apply(action)
    return game.history[-1]


def charged(rules: RuleSet, result: HandResult, side: int) -> float:
    """A side's points with every bag charged at its share of the bag penalty (none paid as a lump)."""
    score = result.scores[side]
    if rules.bag_limit is None:
        return float(score.points)
    return score.points - score.penalty_points - score.bags * rules.bag_penalty / rules.bag_limit


def tables(rules: RuleSet) -> list[list[bool]]:
    """For each table of a deal, which seats bot A holds."""
    n = rules.players
    if n % 2 == 0:
        return [[seat % 2 == 0 for seat in range(n)], [seat % 2 == 1 for seat in range(n)]]
    return [[seat == a for seat in range(n)] for a in range(n)]


class Comparison:
    """Bot `kinds[0]` (A) against `kinds[1]` (B) in one preset, one duplicate deal at a time."""

    def __init__(
        self, rules: RuleSet, kinds: tuple[str, str], seed: int, budget: float | None,
        pimc_budget: float = PIMC_BUDGET, confidence: float | None = None, playouts: int | None = None,
        pimc_playouts: int | None = None, expert: dict[str, Any] | None = None, hands: bool = False,
        exact_ending: int | None = None,
    ) -> None:
        self.playouts = playouts
        #: the last tricks of the expert's card playouts played exactly (`--exact-ending`; None: greedy)
        self.exact_ending = exact_ending
        #: record every table's hand (`--hands`): the cards, bids, tricks and each side's score
        self.hands: list[dict[str, Any]] | None = [] if hands else None
        self.pimc_playouts = pimc_playouts
        self.expert = expert or {}
        self.confidence = confidence
        self.rules = rules
        self.kinds = kinds
        self.seed = seed
        self.budget = budget
        self.pimc_budget = pimc_budget
        self.tallies = {kind: Tally() for kind in kinds}
        self.margins: list[float] = []
        self.margins_charged: list[float] = []
        self.deals: list[tuple[int, float, float]] = []  # (deal number, margin, margin with bags charged)

    def play(self, d: int) -> None:
        """Duplicate deal number `d`, at every table of it."""
        rules, kinds, seed = self.rules, self.kinds, self.seed
        deal_seed = f"bots-benchmark/{seed}/{rules.preset}/{d}".encode()
        points = {True: [0.0, 0.0], False: [0.0, 0.0]}  # bot A? -> [points, bag-charged points], per seat
        seats = {True: 0, False: 0}
        layouts = tables(rules)
        for t, layout in enumerate(layouts):
            bots = []
            for seat in range(rules.players):
                kind = kinds[0] if layout[seat] else kinds[1]
                bot_seed = seed * 1_000_003 + d * 100 + t * 10 + seat
                bot = self.bot(kind, bot_seed)
                bots.append(Timed(bot, self.tallies[kind]))
            result = play_deal(rules, bots, deal_seed)
            if self.hands is not None:
                self.hands.append(hand_record(d, t, layout, result))
            for side_index, side in enumerate(rules.sides):
                mine = layout[side[0]]
                tally = self.tallies[kinds[0] if mine else kinds[1]]
                tally.side_hands += 1
                tally.sets += not result.scores[side_index].made and result.scores[side_index].contract > 0
                tally.bags += result.scores[side_index].bags
                for seat in side:
                    if nil_bid(rules, result.bids[seat], result.blind[seat]):
                        tally.nils += 1
                        tally.nils_made += result.tricks_won[seat] == 0
                points[mine][0] += result.scores[side_index].points * len(side)
                points[mine][1] += charged(rules, result, side_index) * len(side)
                seats[mine] += len(side)
        per_table = len(layouts)
        self.margins.append((points[True][0] / seats[True] - points[False][0] / seats[False]) * per_table / 2)
        self.margins_charged.append(
            (points[True][1] / seats[True] - points[False][1] / seats[False]) * per_table / 2
        )
        self.deals.append((d, self.margins[-1], self.margins_charged[-1]))

    def bot(self, kind: str, seed: int) -> Player:
        """A bot of `kind`: a name `make_bot` takes, "pimc" or "plain-pimc" (the yardsticks), one of
        `SPLITS`, or "expert:NAME=VALUE,..." (an expert with those settings, over the run's `--expert`)."""
        if kind in SPLITS:
            bidder, player = SPLITS[kind]
            return Split(self.bot(bidder, seed), self.bot(player, seed))
        if kind in YARDSTICKS:
            return YARDSTICKS[kind](seed, self.pimc_budget, self.pimc_playouts)
        name, _, settings = kind.partition(":")
        own = {**self.expert, **expert_settings(settings)}
        if name == "expert" and (self.playouts is not None or self.confidence is not None or own):
            # `--playouts`: a count and no clock, exactly repeatable
            budget = UNCAPPED if self.playouts is not None else self.budget or DEFAULT_BUDGET
            # the bot's own confidence, else the run's, else the expert's
            own.setdefault("confidence", CONFIDENCE if self.confidence is None else self.confidence)
            return self._ending(ExpertBot(seed, time_budget=budget, iterations=self.playouts, **own))
        return self._ending(make_bot(name, seed, time_budget=self.budget))

    def _ending(self, bot: Player) -> Player:
        """An expert's card playouts with their last tricks played exactly, where `--exact-ending` asks."""
        if self.exact_ending is not None and isinstance(bot, ExpertBot):
            bot.playout = exact_ending(self.exact_ending)
        return bot

    def merge(self, other: Comparison) -> None:
        """Take in the deals another copy of this comparison played (in a worker process)."""
        self.margins += other.margins
        self.margins_charged += other.margins_charged
        self.deals += other.deals
        if self.hands is not None and other.hands is not None:
            self.hands += other.hands
        for kind, tally in other.tallies.items():
            self.tallies[kind].merge(tally)

    def fresh(self) -> Comparison:
        """An empty comparison of the same bots, rules and seed (what a worker plays a deal into)."""
        return Comparison(self.rules, self.kinds, self.seed, self.budget, self.pimc_budget, self.confidence,
                          self.playouts, self.pimc_playouts, self.expert, self.hands is not None,
                          self.exact_ending)

    def report(self) -> dict[str, Any]:
        hands = {} if self.hands is None else {"hands": self.hands}
        return {
            "a": self.kinds[0],
            "b": self.kinds[1],
            "deals": len(self.margins),
            "points_per_deal": mean_ci(self.margins),
            "points_per_deal_bags_charged": mean_ci(self.margins_charged),
            # deal by deal (in the order they landed, each with its number), for paired comparisons of runs
            "margins": [[d, round(m, 2), round(c, 2)] for d, m, c in self.deals],
            "bots": {_label(kind): report(tally) for kind, tally in self.tallies.items()},
            **hands,
        }


def hand_record(d: int, table: int, layout: Sequence[bool], result: HandResult) -> dict[str, Any]:
    """One table's hand of deal `d`, as `--hands` records it: the seats bot A held, every seat's cards, bid
    (blind or not) and tricks, and each side's contract, whether it was made, bags, nil points and points."""
    return {
        "deal": d,
        "table": table,
        "a": [seat for seat, mine in enumerate(layout) if mine],
        "cards": [" ".join(card.code for card in hand) for hand in result.hands],
        "bids": list(result.bids),
        "blind": [seat for seat, flag in enumerate(result.blind) if flag],
        "won": list(result.tricks_won),
        "sides": [
            {"contract": s.contract, "made": s.made, "bags": s.bags, "nil": s.nil_points, "points": s.points}
            for s in result.scores
        ],
    }


RUN_SETTINGS = ("seed", "time_budget", "iterations", "clock")
"""ExpertBot keywords the run sets itself (`--playouts`, `--budget`), not `--expert`."""
NOT_NUMBERS = ("settle",)
"""ExpertBot keywords that take something other than one number."""
EXPERT_NUMBERS = tuple(
    name for name in inspect.signature(ExpertBot).parameters if name not in RUN_SETTINGS + NOT_NUMBERS
)
"""The ExpertBot keywords `--expert NAME=NUMBER` may set."""


def expert_settings(text: str) -> dict[str, Any]:
    """ExpertBot settings written "NAME=NUMBER,NAME=NUMBER" (ValueError for anything else, a setting the
    expert does not have among them; the values are checked once a run, by `_checked`)."""
    out: dict[str, Any] = {}
    for setting in filter(None, (part.strip() for part in text.split(","))):
        name, equals, value = setting.partition("=")
        name = name.strip()
        if not equals:
            raise ValueError(f"an expert setting is NAME=NUMBER, not {setting!r}")
        if name in RUN_SETTINGS:
            raise ValueError(f"{name!r} is the run's to set (--playouts, --budget), not an expert setting")
        if name not in EXPERT_NUMBERS:
            raise ValueError(f"the expert has no setting {name!r} that takes a number; those that do are "
                             f"{', '.join(EXPERT_NUMBERS)}")
        try:
            out[name] = float(value)
        except ValueError:
            raise ValueError(f"an expert setting is NAME=NUMBER, not {setting!r}") from None
    return out


def _label(kind: str) -> str:
    return "heuristic" if kind == "normal" else kind


def mean_ci(samples: Sequence[float]) -> dict[str, Any]:
    """Mean with a 95% normal-approximation interval (null below two samples: strict JSON has no infinity)."""
    n = len(samples)
    mean = statistics.fmean(samples) if samples else 0.0
    if n < 2:
        return {"mean": round(mean, 2), "ci95": None, "n": n}
    half = Z95 * statistics.stdev(samples) / math.sqrt(n)
    return {"mean": round(mean, 2), "ci95": [round(mean - half, 2), round(mean + half, 2)], "n": n}


def timing(times: Sequence[float]) -> dict[str, Any]:
    if not times:
        return {"decisions": 0}
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {
        "decisions": len(ordered),
        "mean_s": round(statistics.fmean(ordered), 4),
        "p95_s": round(p95, 4),
        "max_s": round(ordered[-1], 4),
    }


def report(tally: Tally) -> dict[str, Any]:
    return {
        "decision_time": timing(tally.times),
        "decision_cpu_time": timing(tally.cpu),
        "capped_decisions": tally.capped,
        "side_hands": tally.side_hands,
        "sets": tally.sets,
        "nils_made": f"{tally.nils_made}/{tally.nils}",
        "bags": tally.bags,
    }


def _play(comparison: Comparison, d: int) -> Comparison:
    """A worker's task: deal `d` of an empty copy of a comparison, returned to be merged."""
    comparison.play(d)
    return comparison


def run(
    tasks: Sequence[tuple[int, str, str]],
    comparisons: dict[str, dict[str, Comparison]],
    jobs: int,
    minutes: float | None,
    wall: float,
    progress: Callable[[str], None],
) -> tuple[int, bool]:
    """Play every (deal, preset, comparison) task, `jobs` at a time in worker processes (1: in this one), in
    order of deal, starting none after `minutes`: the number of deals begun, and whether Ctrl-C stopped the
    run (the deals that had landed by then are kept, the ones in play dropped)."""
    begun = 0
    deals = 1 + max((d for d, _, _ in tasks), default=-1)
    pool = quiet_pool(jobs) if jobs > 1 else None
    pending: list[tuple[int, str, str, Any]] = []

    def land(entry: tuple[int, str, str, Any]) -> None:
        d, name, label, result = entry
        comparison = comparisons[name][label]
        comparison.merge(result.get() if pool is not None else result)
        progress(f"deal {d + 1}/{deals}: {name} {label} {mean_ci(comparison.margins)['mean']:+}")

    try:
        for d, name, label in tasks:
            if minutes is not None and time.monotonic() - wall > 60 * minutes:
                break
            fresh = comparisons[name][label].fresh()
            begun = max(begun, d + 1)
            if pool is None:
                land((d, name, label, _play(fresh, d)))
                continue
            pending.append((d, name, label, pool.apply_async(_play, (fresh, d))))
            while len(pending) >= jobs:
                pending[0][3].wait()
                land(pending.pop(0))
        for entry in pending:
            land(entry)
    except KeyboardInterrupt:
        return begun, True
    finally:
        if pool is not None:
            pool.terminate()
    return begun, False


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def quiet_pool(jobs: int, initializer: Callable[[], None] | None = None) -> Any:
    """A pool of `jobs` forked workers that leave Ctrl-C to this process, which stops them and keeps what has
    landed. They are born ignoring SIGINT, with SIGTERM at its default (this process's `kill` handler would
    raise in them), so a signal that comes before a worker has run a line of its own finds it quiet; the
    initializer (`_ignore_interrupts` unless given) says the same to a worker the pool forks later."""
    interrupt = signal.signal(signal.SIGINT, signal.SIG_IGN)
    terminate = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        return multiprocessing.get_context("fork").Pool(jobs, initializer or _ignore_interrupts)
    finally:
        signal.signal(signal.SIGINT, interrupt)
        signal.signal(signal.SIGTERM, terminate)


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--deals", type=int, default=4, help="duplicate deals per comparison and preset (default 4)"
    )
    parser.add_argument("--presets", default="classic,individual,piki", help="comma-separated preset names")
    parser.add_argument(
        "--budget", type=float, default=None, help="expert seconds per decision (default: its own)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-random", action="store_true", help="no heuristic over random")
    parser.add_argument("--skip-heuristic", action="store_true", help="no expert over the heuristic")
    parser.add_argument("--playouts", type=int, default=None,
                        help="the expert's playouts per decision, with no clock cap: a run that repeats "
                        "exactly whatever the machine's load (default: its budget's, the clock a cap)")
    parser.add_argument("--confidence", type=float, default=None,
                        help="the expert's confidence: standard errors a searched choice must beat the "
                        "heuristic's by (default: its own)")
    parser.add_argument("--skip-pimc", action="store_true", help="no expert over the PIMC yardstick")
    parser.add_argument("--split", action="store_true",
                        help="also the expert's bids alone (with the heuristic's cards) over the heuristic, "
                        "and its card play alone (with the heuristic's bids, as the yardstick bids) over "
                        "the yardstick")
    parser.add_argument("--plain-pimc", action="store_true",
                        help="also the expert over the earlier, plain PIMC yardstick (`PlainPimc`)")
    parser.add_argument("--pimc-playouts", type=int, default=None,
                        help="the yardsticks' rollouts per decision, with no clock: a run that repeats "
                        "exactly (default: as many as --pimc-budget allows)")
    parser.add_argument("--expert", action="append", default=[], metavar="NAME=VALUE",
                        help="an ExpertBot setting for this run (repeatable), to measure one idea alone")
    parser.add_argument("--pair", action="append", default=[], metavar="A/B",
                        help="also bot A over bot B (repeatable); a bot is a kind, or "
                        "expert:NAME=VALUE,... for an expert with settings of its own")
    parser.add_argument("--pimc-budget", type=float, default=PIMC_BUDGET,
                        help=f"the yardstick's seconds of wall clock per card (default {PIMC_BUDGET})")
    parser.add_argument("--jobs", type=int, default=1,
                        help="deals played at once, each in a worker process (default 1; at most the cores, "
                        "for the yardstick's budget is wall clock)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("--exact-ending", type=int, default=None, metavar="K",
                        help="the expert's card playouts play their last K tricks exactly (endgame.py's "
                        "Solver): an idea measured, not the expert's own")
    parser.add_argument("--hands", action="store_true",
                        help="record every table's hand in the output (cards, bids, tricks, sides' scores)")
    parser.add_argument(
        "--minutes", type=float, default=None, help="start no new deal after this many minutes (wall clock)"
    )
    return parser


def _checked(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None
) -> tuple[argparse.Namespace, dict[str, Any], list[tuple[str, ...]]]:
    """The arguments, the run's expert settings and the pairs asked for (`parser.error` on a bad one)."""
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.playouts is not None and args.playouts < 1:
        parser.error("--playouts must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.minutes is not None and args.minutes <= 0:
        parser.error("--minutes must be positive")
    if args.budget is not None and args.budget <= 0:
        parser.error("--budget must be positive")
    if args.pimc_budget <= 0:
        parser.error("--pimc-budget must be positive")
    if args.pimc_playouts is not None and args.pimc_playouts < 1:
        parser.error("--pimc-playouts must be at least 1")
    if args.exact_ending is not None and not 1 <= args.exact_ending <= 12:
        parser.error("--exact-ending takes 1 to 12 tricks")
    try:
        expert = expert_settings(",".join(args.expert))
        pairs_asked = [tuple(pair.split("/")) for pair in args.pair]
        for pair in pairs_asked:
            if len(pair) != 2:
                raise ValueError(f"--pair takes A/B, two bots, not {'/'.join(pair)!r}")
            for kind in pair:
                ExpertBot(0, **{**expert, **expert_settings(kind.partition(":")[2])})
        ExpertBot(0, **expert)  # a value the expert refuses (a bag weight over 1, say) raises its ValueError
    except ValueError as exc:
        parser.error(str(exc))
    return args, expert, pairs_asked


def _pairs(args: argparse.Namespace, pairs_asked: Sequence[tuple[str, ...]]) -> dict[str, tuple[str, str]]:
    """Which bots each comparison sets against each other, in every preset."""
    pairs = {} if args.skip_heuristic else {"expert_over_heuristic": ("expert", "normal")}
    if not args.skip_pimc:
        pairs["expert_over_pimc"] = ("expert", "pimc")
    if args.plain_pimc:
        pairs["expert_over_plain_pimc"] = ("expert", "plain-pimc")
    for a, b in pairs_asked:
        pairs[f"{a}_over_{b}"] = (a, b)
    if args.split:
        pairs["expert_bids_over_heuristic"] = ("expert-bids", "normal")
        if not args.skip_pimc:
            pairs["expert_play_over_pimc"] = ("expert-play", "pimc")
    if not args.skip_random:
        pairs["heuristic_over_random"] = ("normal", "random")
    return pairs


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args, expert, pairs_asked = _checked(parser, argv)
    names = [name.strip() for name in args.presets.split(",") if name.strip()]
    for name in names:
        if name not in PRESETS:
            parser.error(f"unknown preset {name!r}; the presets are {', '.join(PRESETS)}")


    def progress(text: str) -> None:
        if not args.quiet:
            print(f"\r{text}   ", end="", file=sys.stderr, flush=True)

    signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops a run in the background as Ctrl-C does
    assert {"expert", "normal", "random"} <= set(BOT_KINDS)
    start, wall = time.process_time(), time.monotonic()
    out: dict[str, Any] = {
        "benchmark": "bots",
        "seed": args.seed,
        "deals": args.deals,
        "budget": args.budget,
        "confidence": args.confidence,
        "playouts": args.playouts,
        "pimc_budget": None if args.skip_pimc else args.pimc_budget,
        "pimc_playouts": args.pimc_playouts,
        "expert": expert,
        "exact_ending": args.exact_ending,
        "minutes": args.minutes,
    }
    pairs = _pairs(args, pairs_asked)
    if not pairs:
        parser.error("every comparison is skipped: nothing to measure")
    comparisons = {
        name: {
            label: Comparison(PRESETS[name], kinds, args.seed, args.budget, args.pimc_budget, args.confidence,
                              args.playouts, args.pimc_playouts, expert, args.hands, args.exact_ending)
            for label, kinds in pairs.items()
        }
        for name in names
    }
    # deal by deal, every preset and comparison in turn, so that a run cut short by --minutes stays balanced
    tasks = [(d, name, label) for d in range(args.deals) for name, section in comparisons.items()
             for label in section]
    played, interrupted = run(tasks, comparisons, args.jobs, args.minutes, wall, progress)
    if not args.quiet:
        print(file=sys.stderr)
    if interrupted:
        print("interrupted: the figures are of the deals that had finished", file=sys.stderr)
    out["deals_played"] = played
    out["interrupted"] = interrupted
    for name, section in comparisons.items():
        out[name] = {label: comparison.report() for label, comparison in section.items()}
    out["cpu_seconds"] = round(time.process_time() - start, 2)
    print(json.dumps(out, indent=2))
    return 130 if interrupted else 0  # the shell's code for a run stopped by Ctrl-C


if __name__ == "__main__":
    raise SystemExit(main())
