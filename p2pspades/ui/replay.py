"""The replay viewer: step through a verified game log hand by hand, trick by trick, card by card.

Only a log the verifier has replayed is shown, and only what it proves: every seat's cards (every hand is
revealed at its end), the bids, each trick, the score, and the audit's verdict on the hand and on the game.

Keys: →/← next/previous trick, ↓/↑ next/previous card, PgDn/PgUp next/previous hand, Home/End start/end
of the game, ? players and keys, q quits.
"""

from __future__ import annotations

import os

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Dimension, FloatContainer, HSplit
from prompt_toolkit.output import Output

from p2pspades.audit import Status, Verdict, winning_sides
from p2pspades.audit.files import verify_log
from p2pspades.describe import failed
from p2pspades.describe.game import card_glyph
from p2pspades.describe.rules import described
from p2pspades.i18n import _, listed, ngettext
from p2pspades.printable import pad, printable, width
from p2pspades.rules import Card, HandResult, RuleSet, SideTotal, Trick
from p2pspades.table import TableStatus
from p2pspades.ui.text import (
    bid_text,
    card_class,
    clip,
    renege_words,
    rules_title,
    score_sheet,
    score_words,
    sort_hand,
    status_words,
)
from p2pspades.ui.widgets import at_least, full_screen_app, join_lines, overlay, panel, text_window

Line = StyleAndTextTuples
MIN_COLUMNS = 80
"""The width of a hand of 13 cards with its seat's name, bid and tricks."""
MIN_ROWS_BESIDE_HANDS = 14
"""The rows of everything but the hands panel's one line per seat: title, verdict, borders, trick, score."""

_VERDICT_LEVEL = {
    Status.VALID: "good",
    Status.VIOLATION: "bad",
    Status.UNREADABLE: "bad",
    Status.INCOMPLETE: "warn",
}
_VERDICT_MARK = {Status.VALID: "✓", Status.VIOLATION: "✗", Status.UNREADABLE: "✗", Status.INCOMPLETE: "…"}


class ReplayModel:
    """Where the viewer is in a verified game: a hand, and how many of its cards have been played."""

    def __init__(self, verdict: Verdict, path: str = "") -> None:
        if verdict.table is None:
            raise ValueError(f"nothing to replay: {verdict.summary}")
        self.verdict = verdict
        self.path = path
        table = verdict.table
        self.setup = table.setup
        self.rules: RuleSet = table.rules
        self.names: tuple[str, ...] = tuple(printable(s.name) for s in table.setup.seats)
        self.table_name = printable(table.setup.name)
        self.hands: list[HandResult] = list(verdict.hands)
        self.hand = 0
        self.played = 0
        self.show_help = False

    # ----- where we are
    @property
    def current(self) -> HandResult | None:
        return self.hands[self.hand] if self.hands else None

    def _plays(self, index: int) -> int:
        return sum(len(t.plays) for t in self.hands[index].tricks)

    @property
    def total_plays(self) -> int:
        return self._plays(self.hand) if self.hands else 0

    def _boundaries(self) -> list[int]:
        out = [0]
        hand = self.current
        for trick in hand.tricks if hand is not None else ():
            out.append(out[-1] + len(trick.plays))
        return out

    @property
    def trick_number(self) -> int:
        """1-based number of the trick on the table (0 before the first card)."""
        if self.played == 0:
            return 0
        bounds = self._boundaries()
        return next(i for i in range(1, len(bounds)) if self.played <= bounds[i])

    @property
    def at_end(self) -> bool:
        return self.played == self.total_plays

    # ----- moving
    def step_card(self, delta: int) -> None:
        if not self.hands:
            return
        if delta > 0:
            if self.played < self.total_plays:
                self.played += 1
            elif self.hand < len(self.hands) - 1:
                self.hand, self.played = self.hand + 1, 0
        elif self.played > 0:
            self.played -= 1
        elif self.hand > 0:
            self.hand -= 1
            self.played = self.total_plays

    def step_trick(self, delta: int) -> None:
        if not self.hands:
            return
        bounds = self._boundaries()
        if delta > 0:
            later = [b for b in bounds if b > self.played]
            if later:
                self.played = later[0]
            elif self.hand < len(self.hands) - 1:
                self.hand, self.played = self.hand + 1, 0
        else:
            earlier = [b for b in bounds if b < self.played]
            if earlier:
                self.played = earlier[-1]
            elif self.hand > 0:
                self.hand -= 1
                self.played = self.total_plays

    def step_hand(self, delta: int) -> None:
        if not self.hands:
            return
        if delta > 0:
            if self.hand < len(self.hands) - 1:
                self.hand, self.played = self.hand + 1, 0
            else:
                self.played = self.total_plays
        elif self.played > 0:
            self.played = 0
        elif self.hand > 0:
            self.hand -= 1

    def home(self) -> None:
        self.hand, self.played = 0, 0

    def end(self) -> None:
        if self.hands:
            self.hand = len(self.hands) - 1
            self.played = self.total_plays

    # ----- what is on the table
    def plays_so_far(self) -> list[tuple[int, Card]]:
        hand = self.current
        if hand is None:
            return []
        plays = [p for t in hand.tricks for p in t.plays]
        return plays[: self.played]

    def cards_left(self, seat: int) -> list[Card]:
        """The seat's cards not yet played at this point, in display order."""
        hand = self.current
        if hand is None:
            return []
        gone = {card for s, card in self.plays_so_far() if s == seat}
        return sort_hand((c for c in hand.hands[seat] if c not in gone), self.rules.order)

    def trick_on_table(self) -> tuple[Trick | None, int]:
        """The trick holding the last card played (partly played if the pointer is inside it), and its
        number."""
        hand = self.current
        number = self.trick_number
        if hand is None or number == 0:
            return None, 0
        bounds = self._boundaries()
        trick = hand.tricks[number - 1]
        shown = self.played - bounds[number - 1]
        return Trick(trick.leader, trick.plays[:shown], trick.order), number

    def tricks_won(self) -> list[int]:
        """Tricks each seat has won so far in this hand (complete tricks only)."""
        won = [0] * self.rules.players
        hand = self.current
        if hand is None:
            return won
        bounds = self._boundaries()
        for i, trick in enumerate(hand.tricks):
            if bounds[i + 1] <= self.played and trick.winner is not None:
                won[trick.winner] += 1
        return won

    def totals_before(self) -> tuple[SideTotal, ...]:
        if self.hand == 0 or not self.hands:
            return tuple(SideTotal() for _ in self.rules.sides)
        return self.hands[self.hand - 1].totals

    def scored_hands(self) -> list[HandResult]:
        """The hands whose score is known at this point: the earlier ones, and this one once it is played."""
        return self.hands[: self.hand + (1 if self.at_end else 0)]


# ====================================================================== text of each part
def title_text(model: ReplayModel) -> Line:
    name = os.path.basename(model.path) if model.path else _("log")
    return [
        (
            "class:title",
            f" p2pspades replay · {clip(name, 28)} · {clip(model.table_name, 18)} · "
            f"{rules_title(model.rules)}",
        )
    ]


def verdict_text(model: ReplayModel) -> Line:
    status = model.verdict.status
    level = _VERDICT_LEVEL[status]
    return [(f"class:verdict.{level}", f" {_VERDICT_MARK[status]} {model.verdict.summary}")]


def hand_title(model: ReplayModel) -> str:
    hand = model.current
    if hand is None:
        return _("No finished hand")
    trick = model.trick_number
    where = (_("trick {number} of {of}").format(number=trick, of=len(hand.tricks)) if trick
             else _("bids (no card played yet)"))
    return _("Hand {number} of {of} · dealer {dealer} · {where} · card {played}/{plays}").format(
        number=hand.number, of=len(model.hands), dealer=clip(model.names[hand.dealer], 12), where=where,
        played=model.played, plays=model.total_plays)


def hands_text(model: ReplayModel) -> Line:
    hand = model.current
    if hand is None:
        return [("class:hint", " " + _("The log holds no finished hand: there is nothing to step through."))]
    rules = model.rules
    won = model.tricks_won()
    trick, _number = model.trick_on_table()
    to_play = _next_to_play(model, trick)
    lines: list[Line] = []
    # TRANSLATORS: the tricks a seat has won, beside its bid in the replay viewer (at most 4 characters)
    won_word = _("won")
    for seat in range(rules.players):
        mark = "▶" if seat == to_play else " "
        bid = bid_text(hand.bids[seat], hand.blind[seat], rules)
        style = "class:seat.turn" if seat == to_play else ""
        line: Line = [
            (style, f"{mark}{pad(clip(model.names[seat], 11), 11)} "),
            ("", f"{pad(bid, 9)} {pad(won_word, 4)}{won[seat]:>2} "),
        ]
        previous: Card | None = None
        for card in model.cards_left(seat):
            gap = " " if previous is None or previous.suit is card.suit else "  "
            line += [("", gap), (card_class(card), card_glyph(card))]
            previous = card
        lines.append(line)
    return join_lines(lines)


def _next_to_play(model: ReplayModel, trick: Trick | None) -> int | None:
    plays = [p for t in model.current.tricks for p in t.plays] if model.current is not None else []
    return plays[model.played][0] if model.played < len(plays) else None


def trick_text(model: ReplayModel) -> Line:
    hand = model.current
    if hand is None:
        return []
    trick, number = model.trick_on_table()
    names = model.names
    if trick is None:
        bids = ", ".join(
            f"{clip(names[s], 10)} {bid_text(hand.bids[s], hand.blind[s], model.rules)}"
            for s in range(model.rules.players)
        )
        passes = model.verdict.passes.get(hand.number, ())
        passed = "; ".join(_("{who} to {partner} {cards}").format(
            who=clip(names[p.seat], 10), partner=clip(names[p.to], 10),
            cards=" ".join(card_glyph(c) for c in p.cards)) for p in passes)
        said: Line = [("", " " + _("Bids: {bids}").format(bids=bids))]
        if not passed:
            return said
        return [*said, ("class:hint", "\n " + _("Passed face down: {passes}").format(passes=passed))]
    out: Line = [("", f" {number:>2}. " + _("led by {who}:").format(who=clip(names[trick.leader], 10)) + " ")]
    complete = len(trick.plays) == model.rules.players
    for seat, card in trick.plays:
        wins = complete and seat == trick.winner
        out += [
            ("", f"  {clip(names[seat], 10)} "),
            (card_class(card) + (" class:card.winning" if wins else ""),
             card_glyph(card) + ("*" if wins else "")),
        ]
    if complete and trick.winner is not None:
        out.append(("class:hint", f"   → {clip(names[trick.winner], 10)}"))
    if model.at_end:
        out += hand_score_text(model)
    if model.hand == len(model.hands) - 1 and model.at_end:
        out += [("", "\n"), *ending_text(model)]
    return out


def hand_score_text(model: ReplayModel) -> Line:
    """After the hand's last card: what each side scored, in words (the bonuses and penalties named)."""
    hand = model.current
    if hand is None:
        return []
    out: Line = []
    for score in hand.scores:
        side = "+".join(clip(model.names[s], 10) for s in model.rules.sides[score.side])
        out += [("", f"\n {side} {score.points:+d}: "), ("class:hint", score_words(score, model.rules))]
    return out


def ending_text(model: ReplayModel) -> Line:
    """The last card of the log: who won the game and by how much, or that the log stops short."""
    table = model.verdict.table
    if table is None or not table.finished:
        return [("class:verdict.warn", " " + _("The log stops here: the game did not finish."))]
    rules = model.rules
    sides = ["+".join(model.names[i] for i in side) for side in rules.sides]
    winners = winning_sides(table)
    scores = _(" to ").join(str(t.score) for t in model.hands[-1].totals) if model.hands else ""
    over = _("Game over") if table.status is TableStatus.COMPLETE else _("Game over ({how})").format(
        how=status_words(table.status))
    if not winners:
        said = _("{over}: nobody wins").format(over=over)
    else:
        seats = sum(len(rules.sides[w]) for w in winners)
        said = ngettext("{over}: {winners} wins", "{over}: {winners} win", seats).format(
            over=over, winners=listed([sides[w] for w in winners]))
    return [("class:verdict.good", " " + said + (f", {scores}" if scores else ""))]


def scores_text(model: ReplayModel) -> Line:
    lines = score_sheet(model.rules, model.names, model.scored_hands(), last=6)
    return join_lines(lines)


def audit_text(model: ReplayModel) -> Line:
    hand = model.current
    if hand is None:
        return [("class:hint", " -")]
    if not hand.violations:
        return [
            ("class:verdict.good", " " + _("hand {number}: audit passed").format(number=hand.number)),
            ("class:hint", ": " + _("the deal recomputes from the seeds, every card was legal")),
        ]
    lines: list[Line] = []
    for v in hand.violations:
        lines.append(
            [
                (
                    "class:verdict.bad",
                    " " + _("hand {number}: {who}: {what} (penalty: {penalty})").format(
                        number=hand.number, who=model.names[v.seat], what=failed(v.kind, v.detail),
                        penalty=renege_words(model.rules)),
                )
            ]
        )
    return join_lines(lines)


def keys_text(model: ReplayModel) -> Line:
    return [("class:footer", " " + _("←/→ trick  ↑/↓ card  PgUp/PgDn hand  Home/End  ? players  q quit"))]


def help_text(model: ReplayModel) -> Line:
    lines: list[Line] = [[("class:heading", _("Players and their keys"))]]
    for s in model.setup.seats:
        side = model.rules.side_of(s.seat)
        lines.append(
            [
                ("", " " + pad(_("seat {seat}").format(seat=s.seat), 7) + " " + pad(clip(model.names[s.seat],
                                                                                         20), 21)),
                ("class:key", s.fingerprint),
                ("class:hint", "  " + _("side {side}").format(side=side)),
            ]
        )
    lines.append([])
    lines.append([("", " " + _("game {id}").format(id=model.setup.game_id.hex()))])
    lines.append([("", " " + _("rules {rules}, to {target}").format(rules=described(model.rules),
                                                                   target=model.rules.target))])
    entries = model.verdict.entries
    checked = ngettext("{n} entry checked", "{n} entries checked", entries).format(n=entries)
    lines.append([("", " " + checked)])
    for v in model.verdict.penalised:
        what = printable(" " + _("penalised: seat {seat} at entry {entry}: {what}").format(
            seat=v.seat, entry=v.seq, what=failed(v.check, v.detail)))
        lines.append([("class:event.bad", what)])
    lines.append([])
    lines.append([("class:heading", _("Keys"))])
    keys = (
        (_("→ / ←, Space"), _("next / previous trick")),
        ("↓ / ↑", _("next / previous card")),
        (_("PgDn / PgUp"), _("next / previous hand")),
        (_("Home / End"), _("start / end of the game")),
        (_("q, Esc"), _("quit (Esc closes this window first)")),
    )
    column = max(14, *(width(key) + 1 for key, _what in keys))
    for key, what in keys:
        lines.append([("class:key", " " + pad(key, column)), ("", what)])
    return join_lines(lines)


# ====================================================================== the application
def create_replay_app(
    model: ReplayModel, *, input: Input | None = None, output: Output | None = None, color: bool = True
) -> Application[None]:
    n = model.rules.players
    body = HSplit(
        [
            text_window(lambda: title_text(model), height=1, style="class:title"),
            text_window(lambda: verdict_text(model), wrap=True, fit=True, hang=3),
            panel(
                text_window(lambda: hands_text(model)),
                lambda: hand_title(model),
                height=Dimension.exact(n + 2),
            ),
            panel(text_window(lambda: trick_text(model), wrap=True, fit=True, hang=1), _("Trick")),
            panel(text_window(lambda: scores_text(model)), _("Score"), height=Dimension(min=5, weight=1)),
            text_window(lambda: audit_text(model), wrap=True, fit=True, hang=1),
            text_window(lambda: keys_text(model), height=1, style="class:footer"),
        ]
    )
    container = at_least(FloatContainer(
        body, floats=[overlay(text_window(lambda: help_text(model)), _("Players"), lambda: model.show_help)]
    ), MIN_COLUMNS, n + MIN_ROWS_BESIDE_HANDS, _("q quits."))
    kb = KeyBindings()
    helping = Condition(lambda: model.show_help)

    moves = {
        "right": lambda: model.step_trick(1),
        "space": lambda: model.step_trick(1),
        "left": lambda: model.step_trick(-1),
        "down": lambda: model.step_card(1),
        "up": lambda: model.step_card(-1),
        "pagedown": lambda: model.step_hand(1),
        "pageup": lambda: model.step_hand(-1),
        "home": model.home,
        "end": model.end,
    }
    for key, move in moves.items():

        def _move(event: KeyPressEvent, move: object = move) -> None:
            assert callable(move)
            move()

        kb.add(key, filter=~helping)(_move)

    @kb.add("?")
    def _help(event: KeyPressEvent) -> None:
        model.show_help = not model.show_help

    @kb.add("escape", filter=helping)
    def _close(event: KeyPressEvent) -> None:
        model.show_help = False

    @kb.add("q")
    @kb.add("Q")
    @kb.add("c-c")
    @kb.add("escape", filter=~helping)
    def _quit(event: KeyPressEvent) -> None:
        event.app.exit()

    return full_screen_app(container, kb, color=color, input=input, output=output)


async def run_replay_async(
    path: str | os.PathLike[str],
    *,
    input: Input | None = None,
    output: Output | None = None,
    color: bool = True,
) -> int:
    """Verify the log at `path` and step through it. Returns the verdict's exit code (as `verify` does)."""
    verdict = verify_log(path)
    if verdict.table is None:
        print(f"p2pspades replay: {printable(verdict.summary)}")
        return verdict.exit_code
    model = ReplayModel(verdict, os.fspath(path))
    await create_replay_app(model, input=input, output=output, color=color).run_async()
    return verdict.exit_code


def run_replay(
    path: str | os.PathLike[str],
    *,
    input: Input | None = None,
    output: Output | None = None,
    color: bool = True,
) -> int:
    """`p2pspades replay FILE`: verify the log, then step through it on the full screen. Returns the
    verdict's exit code: 0 valid and complete, 1 violation, 2 unreadable, 3 incomplete."""
    import asyncio

    return asyncio.run(run_replay_async(path, input=input, output=output, color=color))
