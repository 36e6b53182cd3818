"""The UI's model: what the game screen shows and every choice a person can make, without prompt_toolkit.

A driver (the in-memory session in `local.py`, or the ZeroMQ peer) feeds it the table's events
(`on_events`) and the table itself (`refresh`); the screen reads it and the key bindings call its methods.
When it is our seat's turn, `HumanPlayer` publishes the table's `Decision` here and waits for the person's
answer, which is always one of the decision's legal actions.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from p2pspades.printable import printable
from p2pspades.rules import (
    Action,
    Bid,
    BlindNil,
    Card,
    Draw,
    HandResult,
    Phase,
    Play,
    SeatView,
    SideTotal,
    Suit,
    Trick,
)
from p2pspades.table import (
    Accepted,
    CardVerified,
    ChallengeRaised,
    Decision,
    DecisionKind,
    Dropped,
    Event,
    FirstDealer,
    GameEnded,
    HandAudited,
    Rejected,
    Setup,
    Table,
    TableStatus,
    Violation,
)
from p2pspades.ui import cardinput
from p2pspades.ui.overlays import OverlayStack
from p2pspades.ui.prefs import PREFS
from p2pspades.ui.text import bid_text, bidding_order, side_name, sort_hand

#: event pane line levels, each with a style class "event.<level>"
LEVELS = ("info", "good", "warn", "bad", "dim")



_WAITING_WORDS = {
    "accept": "to accept the table",
    "dcommit": "to draw for the first dealer",
    "dreveal": "to draw for the first dealer",
    "commit": "to commit to a secret seed",
    "blind": "to answer blind nil",
    "shuffle": "to shuffle the deck",
    "lock": "to lock the deck",
    "keys": "to send deal keys",
    "draw": "to draw",
    "bid": "to bid",
    "play": "to play",
    "reveal": "to reveal the hand's seed",
    "end": "to sign the end of the game",
    "abandon": "to sign that a seat stopped answering",
}


@dataclass(frozen=True)
class EventLine:
    """One line of the event pane."""

    text: str
    level: str = "info"


@dataclass(frozen=True)
class GameResult:
    """How the game ended, for the game-over screen and the exit code."""

    status: str  # "complete" | "abandoned" | "violation" | "stopped"
    winners: tuple[int, ...]  # sides
    detail: str
    text: str  # one line a person reads


class UiState:
    """The game screen's model for one seat. Not thread-safe: use it from the event loop that runs the app."""

    def __init__(self, seat: int, setup: Setup, *, max_events: int = 300) -> None:
        if not 0 <= seat < len(setup.seats):
            raise ValueError(f"seat {seat} is not at this table (seats 0 to {len(setup.seats) - 1})")
        self.seat = seat
        self.setup = setup
        self.rules = setup.rules
        #: the seats' and the table's names as the genesis gives them, made safe to show
        self.names: tuple[str, ...] = tuple(printable(s.name) for s in setup.seats)
        self.table_name = printable(setup.name)
        self.view: SeatView | None = None
        self.waiting: tuple[int, str] | None = None
        self.first_dealer: int | None = None
        self.decision: Decision | None = None
        self._answer: asyncio.Future[Action] | None = None
        self.events: deque[EventLine] = deque(maxlen=max_events)
        self.connection: dict[int, str] = {seat: "you"}
        #: the seats whose bot is choosing right now (see `set_thinking`)
        self.thinking: set[int] = set()
        self.audits: dict[int, HandAudited] = {}
        self.result: GameResult | None = None
        self.halted: Violation | None = None
        # what the person is doing on the screen
        self.selected: Card | None = None
        self.typed = ""
        self.choice = 0
        self.overlays = OverlayStack()
        self.summary_hand: int | None = None
        #: seconds a completed trick stays on the table (0: none); needs a running event loop for its clock
        self.trick_pause = PREFS.trick_pause
        #: the completed trick held on the table, and its number in its hand
        self.held: tuple[Trick, int] | None = None
        self._hold_timer: asyncio.TimerHandle | None = None
        self.message: EventLine | None = None
        self.quit_requested = False
        self.leave_requested = False
        #: show the end-of-hand summary by itself when a hand ends
        self.auto_summary = True
        #: called after every change the screen should show (the app sets it to its `invalidate`)
        self.on_change: Callable[[], None] | None = None

    # ================================================================= fed by the driver
    def on_events(self, events: Iterable[Event]) -> None:
        """Take the events the table reported (in order) into the event pane and the result."""
        for ev in events:
            self._event(ev)
        self._changed()

    def on_event(self, event: Event) -> None:
        self.on_events((event,))

    def refresh(self, table: Table) -> None:
        """Read the table again: the seat's view, whose turn it is, whether the game is over."""
        self.waiting = table.waiting_for()
        if table.first_dealer is not None:
            self.first_dealer = table.first_dealer
        if table.game is not None:
            self.update_view(table.game.view(self.seat))
        else:
            self._changed()

    def update_view(self, view: SeatView) -> None:
        """A new snapshot of what our seat knows; bids, tricks and finished hands become event-pane lines.

        The first snapshot of a game under way (after `resume`) brings the earlier hands' lines too."""
        old = self.view
        self.view = view
        completed = self._completed_tricks(old, view)
        if old is None:
            for hand in view.history:
                self._deal_line(hand.number, hand.dealer)
                self._bid_lines(hand.dealer, hand.bids, hand.blind, (None,) * len(hand.bids), hand.blind)
                self._trick_lines(hand.tricks, 0)
                self._score_line(hand)
        else:
            for hand in view.history[len(old.history) :]:
                self._hand_over(hand)
        if old is not None and old.hand_number == view.hand_number:
            old_bids, old_blind, old_tricks = old.bids, old.blind, len(old.tricks)
        else:
            if view.phase is not Phase.GAME_OVER:
                self._deal_line(view.hand_number, view.dealer)
            old_bids = (None,) * len(view.bids)
            old_blind = (False,) * len(view.bids)
            old_tricks = 0
        if old is not None or view.phase is not Phase.GAME_OVER:  # a finished game: its hands are told above
            self._bid_lines(view.dealer, view.bids, view.blind, old_bids, old_blind)
            self._trick_lines(view.tricks, old_tricks)
        if completed:
            self._hold(*completed[-1])
        self._fix_selection()
        self._changed()

    @staticmethod
    def _completed_tricks(old: SeatView | None, view: SeatView) -> list[tuple[Trick, int]]:
        """The tricks completed between two views, with their numbers: the old view's hand's, then the new."""
        if old is None:
            return []
        if old.hand_number == view.hand_number:
            return [(t, n) for n, t in enumerate(view.tricks, start=1)][len(old.tricks) :]
        ended = [h for h in view.history if h.number == old.hand_number]
        done = [(t, n) for h in ended for n, t in enumerate(h.tricks, start=1)]
        return done[len(old.tricks) :] + [(t, n) for n, t in enumerate(view.tricks, start=1)]

    def _hold(self, trick: Trick, number: int) -> None:
        """Keep a completed trick on the table for `trick_pause` seconds (or until a key is pressed)."""
        if self.trick_pause <= 0 or self.result is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no clock to end the pause: do not start one
            return
        if self._hold_timer is not None:
            self._hold_timer.cancel()
        self.held = (trick, number)
        self.overlays.open_under_questions("trick")
        self._hold_timer = loop.call_later(self.trick_pause, self.release_trick)

    def release_trick(self) -> None:
        """The pause is over (or a key skipped it): show the table as it is now."""
        if self._hold_timer is not None:
            self._hold_timer.cancel()
            self._hold_timer = None
        if self.held is None and "trick" not in self.overlays:
            return
        self.held = None
        self.overlays.discard("trick")
        self._changed()

    def set_connection(self, seat: int, text: str) -> None:
        """The network driver's word on a seat: "connected", "waiting for seat 2 (disconnected 12 s)", ..."""
        text = printable(text)
        if self.connection.get(seat) != text:
            self.connection[seat] = text
            self._changed()

    def set_thinking(self, seat: int, thinking: bool) -> None:
        """A bot's driver says the bot at `seat` is choosing (True) or has chosen (False): the screen says
        "thinking…" for that seat meanwhile."""
        if thinking != (seat in self.thinking):
            if thinking:
                self.thinking.add(seat)
            else:
                self.thinking.discard(seat)
            self._changed()

    def note(self, text: str, level: str = "info") -> None:
        """Add a line to the event pane."""
        self.events.append(EventLine(printable(text), level if level in LEVELS else "info"))
        self._changed()

    def stop(self, text: str) -> None:
        """The driver gave up (e.g. nothing more can happen): show it as the end of the game."""
        if self.result is None:
            self.result = GameResult("stopped", (), text, text)
            self.note(text, "bad")
            self._open_under("over")
        self._changed()

    # ================================================================= the decision
    def publish(self, decision: Decision) -> asyncio.Future[Action]:
        """Show a decision to the person; the future gets their answer (one of `decision.legal`)."""
        if self._answer is not None and not self._answer.done():
            self._answer.cancel()
        self.decision = decision
        self._answer = asyncio.get_running_loop().create_future()
        if self.view is None or self.view.hand_number <= decision.view.hand_number:
            self.update_view(decision.view)
        self.typed = ""
        self.choice = self._default_choice(decision)
        self._fix_selection()
        self._changed()
        return self._answer

    def withdraw(self, future: asyncio.Future[Action] | None = None) -> None:
        """The decision is answered or no longer wanted (the moment passed): take it off the screen."""
        if future is not None and future is not self._answer:
            return
        if self._answer is not None and not self._answer.done():
            self._answer.cancel()
        self._answer = None
        self.decision = None
        self.typed = ""
        self._changed()

    def answer(self, action: Action) -> bool:
        """Give the person's choice to the waiting player. False (and a message) if it is not legal now."""
        decision = self.decision
        if decision is None or self._answer is None or self._answer.done():
            self.say("nothing to decide right now", "warn")
            return False
        if action not in decision.legal:
            self.say(self._why_illegal(action), "warn")
            return False
        self._answer.set_result(action)
        self.decision = None
        self.typed = ""
        self._changed()
        return True

    def _why_illegal(self, action: Action) -> str:
        """Why the rules refuse a choice, in a person's words."""
        view = self.view
        if isinstance(action, Play) and view is not None:
            card = action.card
            if card not in view.hand:
                return f"{card.glyph} is not in your hand"
            led = view.trick.led_suit
            if led is not None and card.suit is not led:
                return f"you must follow {led.noun}: you hold {led.noun}"
            if led is None and card.suit is Suit.SPADES:
                if self.rules.spade_lead == "not_first_trick" and not view.tricks:
                    return "no spade may lead the first trick while you hold another suit"
                return "spades are not broken yet: lead another suit"
            return f"{card.glyph} may not be played now"
        if isinstance(action, Bid):
            bids = [self.choice_label(a) for a in self.choices()]
            return (
                f"a bid of {action.tricks} is not allowed: bid {bids[0]} to {bids[-1]}"
                if bids
                else ("no bid is wanted now")
            )
        return f"{action} is not a choice now"

    @property
    def kind(self) -> DecisionKind | None:
        return None if self.decision is None else self.decision.kind

    def choices(self) -> tuple[Action, ...]:
        """The options of the dialog for the pending bid, blind-nil or draw decision, in the order shown."""
        d = self.decision
        if d is None or d.kind is DecisionKind.PLAY:
            return ()
        if d.kind is DecisionKind.BID:
            bids = [a for a in d.legal if isinstance(a, Bid)]
            return tuple(sorted(bids, key=lambda b: b.tricks))
        if d.kind is DecisionKind.BLIND_NIL:
            return tuple(sorted((a for a in d.legal if isinstance(a, BlindNil)), key=lambda a: a.declare))
        return tuple(sorted((a for a in d.legal if isinstance(a, Draw)), key=lambda a: not a.keep))

    def choice_label(self, action: Action) -> str:
        if isinstance(action, Bid):
            return bid_text(action.tricks, False, self.rules)
        if isinstance(action, BlindNil):
            return "blind nil" if action.declare else "no, see my cards"
        if isinstance(action, Draw):
            return "keep it" if action.keep else "discard it"
        return str(action)

    def _default_choice(self, decision: Decision) -> int:
        """The lowest real bid (not nil), "no" to blind nil, "keep" for the draw pile."""
        options = self.choices()
        if decision.kind is DecisionKind.BID:
            for i, option in enumerate(options):
                if isinstance(option, Bid) and self.choice_label(option) != "nil":
                    return i
        return 0

    # ================================================================= the hand on screen
    def hand_cards(self) -> list[Card]:
        """Our cards in display order."""
        return [] if self.view is None else sort_hand(self.view.hand)

    def legal_cards(self) -> frozenset[Card]:
        """The cards we may play now (empty unless we are to play)."""
        d = self.decision
        if d is None or d.kind is not DecisionKind.PLAY:
            return frozenset()
        return frozenset(a.card for a in d.legal if isinstance(a, Play))

    def selectable(self) -> list[Card]:
        """What the arrow keys move over: the legal cards when we are to play, else the whole hand."""
        cards = self.hand_cards()
        legal = self.legal_cards()
        return [c for c in cards if c in legal] if legal else cards

    def _fix_selection(self) -> None:
        options = self.selectable()
        if not options:
            self.selected = None
        elif self.selected not in options:
            cards = self.hand_cards()
            if self.selected in cards:  # the nearest selectable card to the right, else the last
                at = cards.index(self.selected)
                self.selected = next((c for c in cards[at:] if c in options), options[-1])
            else:
                self.selected = options[0]

    # ================================================================= what the keys do
    def move(self, delta: int) -> None:
        """Arrow keys: move the card cursor, or the dialog's choice."""
        self.message = None
        if self.top_overlay is not None:
            return
        if self.kind in (DecisionKind.BID, DecisionKind.BLIND_NIL, DecisionKind.DRAW):
            n = len(self.choices())
            if n:
                self.choice = max(0, min(n - 1, self.choice + delta))
                self.typed = ""
        else:
            options = self.selectable()
            if options:
                at = options.index(self.selected) if self.selected in options else 0
                self.selected = options[max(0, min(len(options) - 1, at + delta))]
        self._changed()

    def move_to(self, end: bool) -> None:
        """Home/End."""
        self.move(10_000 if end else -10_000)

    def type_key(self, key: str) -> bool:
        """A letter or digit typed while a decision is pending: part of a card code, a bid, or a dialog
        shortcut. False if the key means nothing here (so it may be a command key)."""
        before, self.message = self.message, None
        if not self._type_key(key.lower()):
            self.message = before
            return False
        return True

    def _type_key(self, key: str) -> bool:
        kind = self.kind
        if self.top_overlay is not None or kind is None:
            return False
        if kind is DecisionKind.PLAY:
            if not self.typed and not cardinput.starts_code(key, jokers=self.rules.jokers):
                return False
            if self.typed and not cardinput.continues_code(key):
                return False
            if len(self.typed) >= cardinput.MAX_LENGTH:
                self.say(cardinput.CARD_CODES, "warn")
                return True
            self.typed += key
            self._select_typed()
        elif kind is DecisionKind.BID:
            if key == "n":
                return self._answer_labelled("nil")
            if not key.isdigit() or len(self.typed) >= 2:
                return False
            self.typed += key
            options = self.choices()
            for i, option in enumerate(options):
                if isinstance(option, Bid) and str(option.tricks) == self.typed and option.tricks != 0:
                    self.choice = i
        elif kind is DecisionKind.BLIND_NIL:
            if key in "yn":
                return self.answer(BlindNil(key == "y")) or True
            return False
        else:
            if key in "kd":
                return self.answer(Draw(key == "k")) or True
            return False
        self._changed()
        return True

    def backspace(self) -> None:
        self.message = None
        self.typed = self.typed[:-1]
        self._changed()

    def clear_typed(self) -> None:
        self.typed = ""
        self._changed()

    def _select_typed(self) -> None:
        card = cardinput.card_of(self.typed)
        if card is not None and card in self.hand_cards():
            self.selected = card

    def _answer_labelled(self, label: str) -> bool:
        for option in self.choices():
            if self.choice_label(option) == label:
                return self.answer(option) or True
        self.say(f"{label} is not allowed here", "warn")
        return True

    def submit(self) -> bool:
        """Enter: close the overlay on top, or answer the decision with the typed code or the cursor."""
        self.message = None
        top = self.top_overlay
        if top == "quit":
            return False
        if top == "over":
            self.leave_requested = True
            self._changed()
            return True
        if top is not None:
            self.close_overlay()
            return True
        d = self.decision
        if d is None:
            self.say(self.status_text(), "dim")
            return False
        if d.kind is DecisionKind.PLAY:
            if self.typed:
                code, self.typed = self.typed, ""  # a refused code is typed again from scratch
                card = cardinput.card_of(code)
                if card is None:
                    self.say(cardinput.why_not_a_card(code), "warn")
                    return False
                return self.answer(Play(card))
            if self.selected is None:
                self.say("no card to play", "warn")
                return False
            return self.answer(Play(self.selected))
        options = self.choices()
        if d.kind is DecisionKind.BID and self.typed:
            wanted = int(self.typed)
            self.typed = ""
            return self.answer(Bid(wanted))
        if not options:
            return False
        return self.answer(options[max(0, min(len(options) - 1, self.choice))])

    # ================================================================= overlays
    @property
    def top_overlay(self) -> str | None:
        return self.overlays.top

    def toggle_overlay(self, name: str) -> None:
        """`?`, `s`, `l`: open that overlay, or close it if it is on top."""
        if self.overlays.toggle(name):
            self._changed()

    def close_overlay(self) -> None:
        if self.top_overlay == "trick":
            self.release_trick()
            return
        self.overlays.close_top()
        self._changed()

    def _open_under(self, name: str) -> None:
        """Open an overlay below the ones already shown (the game-over screen waits for the last summary)."""
        self.overlays.open_below_all(name)

    def request_quit(self) -> None:
        """`q` / Ctrl-C: ask for confirmation (leave at once when the game is over)."""
        self.message = None
        if self.result is not None:
            self.leave_requested = True
        elif self.top_overlay != "quit":
            self.overlays.append("quit")
        self._changed()

    def confirm_quit(self, yes: bool) -> None:
        if self.top_overlay != "quit":
            return
        self.overlays.pop()
        if yes:
            self.quit_requested = True
            self.leave_requested = True
            if self._answer is not None and not self._answer.done():
                self._answer.cancel()
        self._changed()

    # ================================================================= derived, for the screen
    @property
    def turn(self) -> int | None:
        """The seat everybody is waiting for."""
        if self.result is not None:
            return None
        if self.decision is not None:
            return self.seat
        if (
            self.view is not None
            and self.view.current_seat is not None
            and self.view.phase
            not in (
                Phase.DEAL,
                Phase.REVEAL,
                Phase.GAME_OVER,
            )
        ):
            return self.view.current_seat
        return None if self.waiting is None else self.waiting[0]

    @property
    def trick(self) -> Trick | None:
        return None if self.view is None else self.view.trick

    @property
    def last_trick(self) -> Trick | None:
        """The last completed trick: of this hand, or the last of the previous hand before the first lead."""
        v = self.view
        if v is None:
            return None
        if v.tricks:
            return v.tricks[-1]
        if v.history and v.history[-1].tricks:
            return v.history[-1].tricks[-1]
        return None

    @property
    def totals(self) -> tuple[SideTotal, ...]:
        return tuple(SideTotal() for _ in self.rules.sides) if self.view is None else self.view.totals

    @property
    def history(self) -> tuple[HandResult, ...]:
        return () if self.view is None else self.view.history

    def summary(self, number: int | None = None) -> HandResult | None:
        """The finished hand `number` (default: the one the summary overlay shows, else the last)."""
        number = number if number is not None else self.summary_hand
        for hand in reversed(self.history):
            if number is None or hand.number == number:
                return hand
        return None

    def audit_text(self, number: int) -> tuple[str, str]:
        """The audit verdict of a finished hand, and its level."""
        audit = self.audits.get(number)
        if audit is None:
            return "audit pending", "warn"
        if not audit.violations:
            return "audit passed: the deal recomputes and every card was legal", "good"
        what = "; ".join(f"{self.names[v.seat]}: {v.check}: {v.detail}" for v in audit.violations)
        return f"audit found {len(audit.violations)} violation(s): {what}", "bad"

    def side_label(self, side: int, width: int = 0) -> str:
        return side_name(self.rules, self.names, side, width=width)

    def status_text(self) -> str:
        """The prompt line: what the person should do, or whom we wait for."""
        if self.result is not None:
            return f"Game over: {self.result.text}"
        if self.top_overlay == "trick" and self.held is not None:
            return f"{self.held_caption()} · any key continues"
        kind = self.kind
        if kind is DecisionKind.PLAY:
            code = f"  > {self.typed}_" if self.typed else ""
            return f"Your turn: play a card (←/→ Enter, or type a code like qh){code}"
        if kind is DecisionKind.BID:
            return "Your bid: ←/→ Enter, or type a number" + (", n for nil" if self.rules.nil else "")
        if kind is DecisionKind.BLIND_NIL:
            return "Blind nil? Decide before you see your cards: y or n"
        if kind is DecisionKind.DRAW:
            return "Draw: k keeps the top card, d discards it"
        if self.waiting is not None:
            seat, what = self.waiting
            who = "We are" if seat == self.seat else f"Waiting for {self.names[seat]}"
            words = _WAITING_WORDS.get(what, what) + (" (thinking…)" if seat in self.thinking else "")
            return f"{who} {words}" if seat != self.seat else f"We are sending our {what}"
        return "Waiting for the table"

    def held_caption(self) -> str:
        """"West takes trick 3" for the completed trick held on the table."""
        if self.held is None:
            return ""
        trick, number = self.held
        winner = trick.winner
        if winner is None:
            return f"trick {number} is complete"
        if winner == self.seat:
            return f"You take trick {number}"
        return f"{self.names[winner]} takes trick {number}"

    def say(self, text: str, level: str = "info") -> None:
        """A message on the prompt line until the next key."""
        self.message = EventLine(printable(text), level)
        self._changed()

    # ================================================================= internals
    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def _who(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else f"seat {seat}"

    def _event(self, ev: Event) -> None:
        names = self.names
        if isinstance(ev, CardVerified):
            self.note(f"{self._who(ev.seat)} played {ev.card.glyph}: card verified", "info")
        elif isinstance(ev, FirstDealer):
            self.note(f"{self._who(ev.seat)} drew the highest card and deals first", "info")
        elif isinstance(ev, ChallengeRaised):
            self.note(f"{self._who(ev.seat)} challenges the deal: {ev.why}; every seat reveals", "info")
        elif isinstance(ev, Accepted):
            who = names[ev.seat] if 0 <= ev.seat < len(names) else f"seat {ev.seat}"
            if ev.type == "accept":
                self.note(f"{who} accepted the table", "dim")
            elif ev.type == "shuffle":
                self.note(f"{who} shuffled and encrypted the deck", "dim")
            elif ev.type == "reveal":
                self.note(f"{who} revealed the hand's seed", "dim")
            elif ev.type == "end":
                self.note(f"{who} signed the end of the game", "dim")
        elif isinstance(ev, HandAudited):
            self.audits[ev.hand] = ev
            text, level = self.audit_text(ev.hand)
            self.note(f"hand {ev.hand} {text}", level)
        elif isinstance(ev, Violation):
            if ev.halts:
                self.halted = ev
                who = names[ev.seat] if 0 <= ev.seat < len(names) else f"seat {ev.seat}"
                self.note(f"{who} failed the {ev.check} check: {ev.detail}", "bad")
        elif isinstance(ev, Rejected):
            self.note(f"refused an entry from {self._who(ev.seat)}: {ev.detail}", "warn")
        elif isinstance(ev, Dropped):
            self.note(f"ignored: {ev.reason}", "dim")
        elif isinstance(ev, GameEnded):
            self._game_ended(ev)

    def _game_ended(self, ev: GameEnded) -> None:
        if ev.status is TableStatus.COMPLETE:
            winners = " and ".join(self.side_label(w) for w in ev.winners) or "nobody"
            mine = self.rules.side_of(self.seat) in ev.winners
            text = ("You win" if mine else f"{winners} win") + (f" ({winners})" if mine else "")
            level = "good" if mine else "info"
        elif ev.status is TableStatus.ABANDONED:
            text = f"the game was abandoned: {self._who(ev.seat)} stopped answering"
            level = "warn"
        else:
            v = self.halted
            text = (
                f"the game stopped: {self._who(v.seat)} failed the {v.check} check: {v.detail}"
                if v is not None
                else f"the game stopped: {ev.detail}"
            )
            level = "bad"
        if ev.forfeit:
            winners = " and ".join(self.side_label(w) for w in ev.winners)
            verb = "wins" if len(ev.winners) == 1 else "win"
            text += f"; forfeit by {self._who(ev.seat)}: {winners} {verb}"
        self.result = GameResult(ev.status, ev.winners, ev.detail, printable(text))
        self.note(f"game over: {text}", level)
        self.withdraw()
        self._open_under("over")

    def _deal_line(self, number: int, dealer: int) -> None:
        who = "You deal" if dealer == self.seat else f"{self.names[dealer]} deals"
        self.note(f"hand {number}: {who}", "dim")

    def _bid_lines(
        self,
        dealer: int,
        bids: Sequence[int | None],
        blind: Sequence[bool],
        old_bids: Sequence[int | None],
        old_blind: Sequence[bool],
    ) -> None:
        """A line per bid that is new since (old_bids, old_blind), in bidding order."""
        for seat in bidding_order(self.rules, dealer):
            bid = bids[seat]
            if bid is not None and (old_bids[seat] is None or blind[seat] != old_blind[seat]):
                self.note(f"{self.names[seat]} bid {bid_text(bid, blind[seat], self.rules)}")

    def _trick_lines(self, tricks: Sequence[Trick], first: int) -> None:
        """A line per completed trick from the `first` (0-based) on."""
        for number, trick in enumerate(tricks[first:], start=first + 1):
            winner = trick.winner
            if winner is not None:
                ours = self.rules.side_of(winner) == self.rules.side_of(self.seat)
                self.note(f"trick {number} to {self.names[winner]}", "good" if ours else "info")

    def _score_line(self, hand: HandResult) -> None:
        totals = ", ".join(f"{self.side_label(i)} {t.score}" for i, t in enumerate(hand.totals))
        self.note(f"hand {hand.number} scored: {totals}", "dim")

    def _hand_over(self, hand: HandResult) -> None:
        self._score_line(hand)
        if self.auto_summary:
            self.summary_hand = hand.number
            self.overlays.open_game_window("summary")


class HumanPlayer:
    """Decides for our seat by asking the person: publishes the decision to the UI and awaits the answer.

    Call it like a bot (`await player(decision)`); a driver that no longer needs the answer cancels the
    awaiting task, and the decision leaves the screen.
    """

    def __init__(self, state: UiState) -> None:
        self.state = state

    async def __call__(self, decision: Decision) -> Action:
        future = self.state.publish(decision)
        try:
            return await future
        finally:
            self.state.withdraw(future)
