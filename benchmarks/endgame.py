"""What an exact ending would cost the expert's playouts, and how often it would play them differently.

The expert weighs a card by playing the hand out in many deals of the unseen cards, every seat choosing by the
greedy policy of `p2pspades/bots/simulate.py`. A stronger searcher would play the last tricks of each playout
exactly. Here the last K tricks of a hand are solved by search (`Solver`: alpha-beta over every card, the
leader's side taking as many tricks as it can and every other seat as few for it, each hand's cards grouped
where they are as good as each other), and the same position is played out by the greedy policy, on positions
the greedy policy reaches from seeded deals. Reported per preset and K: the microseconds of each (mean), the
search's over the greedy ending's and over a whole greedy playout from the first trick, the nodes searched,
and how often the leader's side takes another number of tricks in the two (with the mean difference).

    python benchmarks/endgame.py [--positions 200] [--tricks 2,3,4] [--presets individual,classic,five]
                                 [--seed 1]

Prints one JSON object; progress goes to stderr. Ctrl-C (or `kill`) stops a run and prints the figures
of the lengths that had finished (exit 130). A search grows five- to thirtyfold with each trick of
the ending: past four tricks a run of 200 positions takes minutes to hours.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import statistics
import sys
import time
from typing import Any

from p2pspades.bots.simulate import SUIT_MASKS, SUIT_OF, Contract, Playout, above
from p2pspades.rules import PRESETS, RuleSet, SeatView
from p2pspades.rules.cards import NON_SPADES_MASK


def candidates(hand: int, legal: int, live: int) -> list[int]:
    """The legal cards worth searching: the lowest of each run of cards that no other live card (in another
    hand or in the trick) separates, as `equivalent` groups them for the search at the top."""
    others = live & ~hand
    found = []
    rest = legal
    while rest:
        card = (rest & -rest).bit_length() - 1
        found.append(card)
        suit = SUIT_MASKS[SUIT_OF[card]]
        higher = others & suit & above(card)
        if higher:
            rest &= ~(suit & ((higher & -higher) - 1))  # on from the suit's next card another seat holds
        else:
            rest &= ~suit
    return found


class Solver:
    """Alpha-beta over one position of a playout: the tricks the side of `seat` takes from here with every
    seat playing exactly, its side for them and every other seat against (`solve`), and the tricks every seat
    takes on one line of play that reaches it (`line`)."""

    def __init__(self, playout: Playout, seat: int) -> None:
        self.contract = playout.contract
        self.side = self.contract.side_of[seat]
        self.nodes = 0
        self.start = playout
        self.line: tuple[int, ...] = ()

    def solve(self) -> int:
        p = self.start
        plays = tuple(card for _, card in p.plays)
        value, self.line = self._search(
            tuple(p.hands), p.leader, plays, p.closed, p.broken, p.best, p.winner, -1, 99
        )
        return value

    def _search(
        self, hands: tuple[int, ...], leader: int, plays: tuple[int, ...], closed: bool, broken: bool,
        best: int, winner: int, alpha: int, beta: int,
    ) -> tuple[int, tuple[int, ...]]:
        self.nodes += 1
        c = self.contract
        n = c.n
        k = len(plays)
        if not k and not hands[leader]:
            return 0, (0,) * n
        seat = (leader + k) % n
        hand = hands[seat]
        if k:
            legal = (hand & SUIT_MASKS[SUIT_OF[plays[0]]]) or hand
        elif closed:
            legal = (hand & NON_SPADES_MASK) or hand
        else:
            legal = hand
        live = 0
        for h in hands:
            live |= h
        for card in plays:
            live |= 1 << card
        ours = c.side_of[seat] == self.side
        options = candidates(hand, legal, live)
        if ours:
            options.reverse()  # high cards first: a cut comes sooner
        value, line = (-1 if ours else 99), (0,) * n
        for card in options:
            after = list(hands)
            after[seat] &= ~(1 << card)
            held = tuple(after)
            suit, best_suit = SUIT_OF[card], SUIT_OF[best]
            if best < 0 or (suit == best_suit and card > best) or (suit == 0 != best_suit):
                top, wins = card, seat
            else:
                top, wins = best, winner
            if k + 1 == n:
                spade = broken or SUIT_OF[top] == 0
                still_closed = closed and not (spade or not c.broken_only)
                ours_won = int(c.side_of[wins] == self.side)
                rest, below = self._search(
                    held, wins, (), still_closed, spade, -1, -1, alpha - ours_won, beta - ours_won
                )
                got = ours_won + rest
                below = (*below[:wins], below[wins] + 1, *below[wins + 1:])
            else:
                got, below = self._search(
                    held, leader, (*plays, card), closed, broken, top, wins, alpha, beta
                )
            if got > value if ours else got < value:
                value, line = got, below
            if ours:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
        return value, line


class ExactEnding(Playout):
    """A playout of the expert's card search whose last `TRICKS` tricks are played exactly (`Solver`, for the
    searching seat's side), the greedy policy playing the tricks before them; a whole-hand playout (the bid
    search's) stays greedy. `bots.py --exact-ending K` gives the expert these playouts (`exact_ending`)."""

    __slots__ = ("seat",)
    seat: int  # the searching seat (-1: a whole-hand playout)
    TRICKS = 3

    @classmethod
    def from_view(cls, contract: Contract, view: SeatView, hands: list[int]) -> Playout:
        playout = super().from_view(contract, view, hands)
        assert isinstance(playout, ExactEnding)
        playout.seat = view.seat
        return playout

    @classmethod
    def opening(cls, contract: Contract, dealer: int, hands: list[int]) -> Playout:
        playout = super().opening(contract, dealer, hands)
        assert isinstance(playout, ExactEnding)
        playout.seat = -1
        return playout

    def copy(self) -> Playout:
        copy = super().copy()
        assert isinstance(copy, ExactEnding)
        copy.seat = self.seat
        return copy

    def finish(self) -> list[int]:
        if self.seat < 0:
            return super().finish()
        greedy_to(self, self.TRICKS)
        if not self.hands[self.leader]:
            return self.won
        solver = Solver(self, self.seat)
        solver.solve()
        return [won + more for won, more in zip(self.won, solver.line, strict=True)]


def exact_ending(tricks: int) -> type[ExactEnding]:
    """The playout class that plays the last `tricks` tricks exactly."""
    return type(f"ExactEnding{tricks}", (ExactEnding,), {"__slots__": (), "TRICKS": tricks})


def greedy_to(playout: Playout, left: int) -> None:
    """Play on by the greedy policy until every seat holds `left` cards (or fewer) and a trick is to be led,
    the first trick played in any case where a card must lead it (the low club): the search does not know
    that rule."""
    n = playout.contract.n
    while playout.plays or playout.must_lead >= 0 or playout.hands[playout.leader].bit_count() > left:
        legal = playout.legal()
        seat = (playout.leader + len(playout.plays)) % n
        playout.play(playout.choose(seat, legal) if legal & (legal - 1) else legal.bit_length() - 1)


def measure(rules: RuleSet, tricks: int, positions: int, seed: int) -> dict[str, Any]:
    """One preset and ending length over `positions` seeded deals."""
    rng = random.Random(f"endgame/{seed}/{rules.preset}/{tricks}")
    n = rules.players
    deck = [card.index for card in rules.deck]
    per = rules.tricks_per_hand
    solve_s, greedy_s, whole_s, nodes, differ = [], [], [], [], []
    began = time.perf_counter()
    for done in range(positions):
        if done and done % max(1, positions // 10) == 0:  # a long ending takes minutes: say how far it is
            print(f"  {done} of {positions} positions, {time.perf_counter() - began:.0f} s", file=sys.stderr)
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[s * per:(s + 1) * per]) for s in range(n)]
        contract = Contract(rules, [3] * n, [False] * n)
        opening = Playout.opening(contract, 0, hands)
        start = time.perf_counter()
        opening.copy().finish()
        whole_s.append(time.perf_counter() - start)
        position = opening
        greedy_to(position, tricks)
        seat = position.leader
        side = contract.side_of[seat]
        before = sum(position.won[s] for s in range(n) if contract.side_of[s] == side)
        start = time.perf_counter()
        won = position.copy().finish()
        greedy_s.append(time.perf_counter() - start)
        solver = Solver(position, seat)
        start = time.perf_counter()
        exact = solver.solve()
        solve_s.append(time.perf_counter() - start)
        nodes.append(solver.nodes)
        differ.append(exact - (sum(won[s] for s in range(n) if contract.side_of[s] == side) - before))
    mean_solve = statistics.fmean(solve_s)
    return {
        "positions": positions,
        "solve_us": round(mean_solve * 1e6, 1),
        "greedy_ending_us": round(statistics.fmean(greedy_s) * 1e6, 1),
        "whole_playout_us": round(statistics.fmean(whole_s) * 1e6, 1),
        "solve_over_greedy_ending": round(mean_solve / statistics.fmean(greedy_s), 1),
        "solve_over_whole_playout": round(mean_solve / statistics.fmean(whole_s), 2),
        "nodes": round(statistics.fmean(nodes), 1),
        "share_where_the_leaders_side_takes_other_tricks": round(sum(d != 0 for d in differ) / positions, 3),
        "mean_tricks_exact_less_greedy": round(statistics.fmean(differ), 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=200, help="positions per preset and length (200)")
    parser.add_argument("--tricks", default="2,3,4", help="ending lengths, in tricks (2,3,4)")
    parser.add_argument("--presets", default="individual,classic,five", help="comma-separated preset names")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        lengths = [int(t) for t in args.tricks.split(",")]
    except ValueError:
        parser.error(f"--tricks takes whole numbers separated by commas, not {args.tricks!r}")
    names = args.presets.split(",")
    unknown = [name for name in names if name not in PRESETS]
    if unknown:
        parser.error(f"no preset {unknown[0]!r}; the presets are {', '.join(sorted(PRESETS))}")
    if args.positions < 1:
        parser.error("--positions takes a positive number")
    for name in names:  # every preset checked before any is measured
        rules = PRESETS[name]
        bad = [t for t in lengths if not 1 <= t < rules.tricks_per_hand]
        if bad:  # the whole hand would start at its first lead, which the search does not hold to its rules
            most = rules.tricks_per_hand - 1
            parser.error(f"--tricks: an ending of {name} is 1 to {most} tricks, not {bad[0]}")
        if rules.deal != "all":
            parser.error(f"{name} deals from a draw pile; the endings here need every card dealt")
    signal.signal(signal.SIGTERM, _interrupt)
    out: dict[str, Any] = {}
    interrupted = False
    try:
        for name in names:
            for tricks in lengths:
                print(f"{name}: the last {tricks} tricks, {args.positions} positions", file=sys.stderr)
                figures = measure(PRESETS[name], tricks, args.positions, args.seed)
                out.setdefault(name, {})[str(tricks)] = figures
    except KeyboardInterrupt:
        interrupted = True
        print("interrupted: the figures are of the lengths that had finished", file=sys.stderr)
    print(json.dumps({**out, "interrupted": True} if interrupted else out, indent=2))
    return 130 if interrupted else 0  # the shell's code for a run stopped by Ctrl-C


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt

if __name__ == "__main__":
    sys.exit(main())
