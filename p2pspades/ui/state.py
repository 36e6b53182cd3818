"""The UI's model: what the game screen shows and every choice a person can make, without prompt_toolkit.

Its parts live beside it: the sentences in `words.py`, the getters the screen derives in `derived.py`, what
the keys change while a decision is pending (the card cursor, typed codes and bids, the marks of a pass, the
prompt that asks for them) in `choosing.py`, the coach (key h) in `coaching.py`, the two questions (leave the
game? stop here?) in `questions.py`, the overlay stack in `overlays.py`, the typing of card codes in
`cardinput.py`, and how the game ended in `result.py`. Here is the state itself and what the driver and the
overlays change.

A driver (the in-memory session in `local.py`, or the ZeroMQ peer) feeds it the table's events
(`on_events`) and the table itself (`refresh`); the screen reads it and the key bindings call its methods.
When it is our seat's turn, `HumanPlayer` (`players.py`) publishes the table's `Decision` here and waits for
the person's answer, which is always one of the decision's legal actions.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable, Mapping

from p2pspades.bots.coach import Advice
from p2pspades.describe import ending
from p2pspades.i18n import _
from p2pspades.printable import printable
from p2pspades.rules import (
    Action,
    Card,
    HandResult,
    Phase,
    SeatView,
    Trick,
)
from p2pspades.table import (
    Decision,
    Event,
    GameEnded,
    HandAudited,
    Noted,
    Proposal,
    Setup,
    StopLapsed,
    Table,
    Violation,
)
from p2pspades.table import messages as msg
from p2pspades.ui.coaching import Coaching
from p2pspades.ui.overlays import QUESTIONS, Overlay, OverlayStack
from p2pspades.ui.prefs import PREFS
from p2pspades.ui.questions import Questions
from p2pspades.ui.result import GameResult as GameResult
from p2pspades.ui.result import ResultStatus as ResultStatus
from p2pspades.ui.text import sort_hand
from p2pspades.ui.words import LEVELS, Words
from p2pspades.ui.words import EventLine as EventLine


class UiState(Questions, Coaching):
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
        #: the screen's sentences about the game
        self.words = Words(seat, self.names, self.rules)
        self.view: SeatView | None = None
        self.waiting: tuple[int, str] | None = None
        #: a resumed table that has not heard the other seats' heads yet: it makes no move until it has
        self.syncing = False
        self.first_dealer: int | None = None
        self.decision: Decision | None = None
        self._answer: asyncio.Future[Action] | None = None
        self.events: deque[EventLine] = deque(maxlen=max_events)
        self.connection: dict[int, str] = {seat: _("you")}
        #: the seats whose bot is choosing right now (see `set_thinking`)
        self.thinking: set[int] = set()
        #: the seats played by a bot, and the seat of the player whose machine runs it (see `set_bots`)
        self.bots: dict[int, int] = {}
        #: the seat we wait for and the seconds before we vote that it stopped answering (see `set_countdown`)
        self.countdown: tuple[int, int] | None = None
        #: while syncing: whether another player's program answered, and the seconds before we play on
        #: without the silent seats (it did) or give up (none did); see `set_sync_countdown`
        self.sync_countdown: tuple[bool, int] | None = None
        #: the seats the network driver says dropped out (see `set_lost`)
        self.lost: set[int] = set()
        #: whether `p2pspades resume` can carry the game on after we leave (not a game held in memory)
        self.resumable = True
        self.audits: dict[int, HandAudited] = {}
        self.result: GameResult | None = None
        self.halted: Violation | None = None
        # what the person is doing on the screen
        self.selected: Card | None = None
        self.typed = ""
        #: rule `nil_pass`: the cards marked (Space) for the pass we are to make, in the order marked
        self.marked: list[Card] = []
        self.choice = 0
        self.overlays = OverlayStack()
        self.summary_hand: int | None = None
        #: seconds a completed trick stays on the table (0: none); needs a running event loop for its clock
        self.trick_pause = PREFS.trick_pause
        #: the completed trick held on the table, and its number in its hand
        self.held: tuple[Trick, int] | None = None
        self._hold_timer: asyncio.TimerHandle | None = None
        #: the event lines that came while a trick was held: the pane shows them once the table goes on
        self._held_lines: list[EventLine] = []
        self.message: EventLine | None = None
        #: ring the bell when a decision arrives (see `on_bell`)
        self.bell = PREFS.bell
        #: ask before a card is played; the card asked about
        self.confirm_card = PREFS.confirm_card
        self.confirming: Card | None = None
        self.quit_requested = False
        self.leave_requested = False
        #: show the end-of-hand summary by itself when a hand ends
        self.auto_summary = True
        #: the decision the coach is searching (key h), while it searches
        self.coaching: Decision | None = None
        #: the coach's last advice, and the decision it is for
        self.advice: tuple[Decision, Advice] | None = None
        #: called after every change the screen should show (the app sets it to its `invalidate`)
        self.on_change: Callable[[], None] | None = None
        #: rings the terminal's bell (the app sets it)
        self.on_bell: Callable[[], None] | None = None
        #: asks the network driver to wait one more timeout before we claim that the seat we wait for stopped
        #: answering; returns the seconds added (0: nothing to wait for)
        self.on_wait_longer: Callable[[], int] | None = None
        #: the proposal to stop at the slot the table waits for, as the driver last gave it (`set_proposal`)
        self.proposal: Proposal | None = None
        #: the person asked to propose a stop (x): the question is open in that form
        self.proposing = False
        self._proposals: set[int] = set()  # the slots whose proposal the pane told already
        #: the lines that say how to play again once the game is over (`p2pspades host --carry-on ...`)
        self.again: Callable[[], list[str]] | None = None
        #: tells the network driver that the person proposes or agrees to stop here (True), or declines it
        self.on_stop: Callable[[bool], None] | None = None

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
        self.syncing = table.syncing and not table.finished
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
                self._add(self.words.hand_told_again(hand))
                if hand.number not in self.audits:  # a hand is only recorded once its audit is done
                    found = tuple(
                        Violation(v.seat, v.kind, v.detail, 0, halts=False) for v in hand.violations
                    )
                    audited = HandAudited(hand.number, found)
                    self.audits[hand.number] = audited
                    verdict = self.words.hand_audit(hand.number, audited)
                    self.note(verdict.text, verdict.level)
        else:
            for hand in view.history[len(old.history) :]:
                self._hand_over(hand)
        if old is not None and old.hand_number == view.hand_number:
            old_bids, old_blind, old_tricks = old.bids, old.blind, len(old.tricks)
            if self.rules.nil_pass and old.phase in (Phase.BID, Phase.PASS):  # dealt, the pass not over
                self._add(self._passed(old, view))
        else:
            if view.phase is not Phase.GAME_OVER:
                self._add([self.words.deal(view.hand_number, view.dealer)])
            old_bids = (None,) * len(view.bids)
            old_blind = (False,) * len(view.bids)
            old_tricks = 0
        if old is not None or view.phase is not Phase.GAME_OVER:  # a finished game: its hands are told above
            self._add(self.words.bids(view.dealer, view.bids, view.blind, old_bids, old_blind))
            self._add(self.words.tricks(view.tricks, old_tricks))
        if completed:
            self._hold(*completed[-1])
        self._fix_selection()
        self._changed()

    def _passed(self, old: SeatView, view: SeatView) -> list[EventLine]:
        """Rule `nil_pass`: the cards our hand gave and received between two views of one hand, the old one
        after the deal (cards leave it otherwise only when we play them; only a pass brings any). Only our own
        cards: what we may know."""
        tricks = (*view.tricks, view.trick)
        played = {card for trick in tricks for seat, card in trick.plays if seat == self.seat}
        gave = sort_hand((c for c in old.hand if c not in view.hand and c not in played), self.rules.order)
        received = sort_hand((c for c in view.hand if c not in old.hand), self.rules.order)
        return self.words.passed(gave, received)

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
        self.overlays.open_under_questions(Overlay.TRICK)
        self._hold_timer = loop.call_later(self.trick_pause, self.release_trick)

    def release_trick(self) -> None:
        """The pause is over (or a key skipped it): show the table as it is now."""
        if self._hold_timer is not None:
            self._hold_timer.cancel()
            self._hold_timer = None
        if self.held is None and Overlay.TRICK not in self.overlays:
            return
        self.held = None
        self.overlays.discard(Overlay.TRICK)
        self.events.extend(self._held_lines)
        self._held_lines.clear()
        self._changed()

    def set_connection(self, seat: int, text: str) -> None:
        """The network driver's word on a seat: "connected", "waiting for seat 2 (disconnected 12 s)", ..."""
        text = printable(text)
        if self.connection.get(seat) != text:
            self.connection[seat] = text
            self._changed()

    def set_bots(self, owners: Mapping[int, int]) -> None:
        """Which seats are bots (seat -> the seat whose machine runs it, who can read its cards), as the
        seat map agreed in the lobby says: the seats panel marks them."""
        self.bots = {seat: owner for seat, owner in owners.items() if 0 <= owner < len(self.names)}
        self._changed()

    def set_countdown(self, seat: int | None, seconds: int | None) -> None:
        """The network driver's countdown to our vote that `seat`, which we wait for, stopped answering (None:
        nothing worth showing); the prompt line says it."""
        countdown = None if seat is None or seconds is None else (seat, seconds)
        if countdown != self.countdown:
            self.countdown = countdown
            self._changed()

    def set_sync_countdown(self, answered: bool, seconds: int | None) -> None:
        """The network driver's countdown while a resumed table syncs (None: none to show)."""
        countdown = None if seconds is None else (answered, seconds)
        if countdown != self.sync_countdown:
            self.sync_countdown = countdown
            self._changed()

    def wait_longer(self) -> None:
        """`w` while we wait for a seat (the prompt line counts down to our vote that it stopped answering, or
        another seat voted already): wait one more timeout before our vote."""
        seat = self.countdown[0] if self.countdown is not None else None
        if seat is None and self.waiting is not None:
            seat = self.waiting[0]  # another seat's vote is out already: ours is still ahead
        added = 0 if seat is None or self.on_wait_longer is None else self.on_wait_longer()
        if seat is None or not added:
            self.say(_("w waits longer for a seat that stopped answering: no vote of ours is ahead now"),
                     "dim")
            return
        line = self.words.waited_longer(seat, added)
        self.note(line.text, line.level)

    def set_lost(self, seat: int, lost: bool) -> None:
        """The network driver's word that `seat` dropped out (nothing heard for a while) or came back: the
        event pane records each change."""
        if lost != (seat in self.lost):
            if lost:
                self.lost.add(seat)
            else:
                self.lost.discard(seat)
            self.events.append(self.words.connection(seat, lost))
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
        """Add a line to the event pane (while a completed trick is held, once the table goes on: the pane
        tells no more than the table shows)."""
        line = EventLine(printable(text), level if level in LEVELS else "info")
        (self._held_lines if self.held is not None else self.events).append(line)
        self._changed()

    def stop(self, text: str) -> None:
        """The driver gave up (e.g. nothing more can happen): show it as the end of the game."""
        if self.result is None:
            self.result = GameResult(ResultStatus.GAVE_UP, (), text, text)
            self.note(text, "bad")
            self._open_under(Overlay.OVER)
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
        self._clear_choice()
        self.message = None  # a word said while we waited ("Waiting for West…") would hide our turn
        self.choice = self._default_choice(decision)
        self._fix_selection()
        if self.bell and self.on_bell is not None:
            self.on_bell()
        self._changed()
        return self._answer

    def toggle_bell(self) -> None:
        """Ctrl-G: the bell on a decision on or off."""
        self.bell = not self.bell
        self.say(_("bell on: it rings when it is your turn") if self.bell else _("bell off"), "dim")

    def withdraw(self, future: asyncio.Future[Action] | None = None) -> None:
        """The decision is answered or no longer wanted (the moment passed): take it off the screen."""
        if future is not None and future is not self._answer:
            return
        if self._answer is not None and not self._answer.done():
            self._answer.cancel()
        self._answer = None
        self.decision = None
        self._clear_choice()
        self._changed()

    # ================================================================= Enter
    def submit(self) -> bool:
        """Enter: close the overlay on top, or answer the decision with the typed code or the cursor."""
        self.message = None
        top = self.top_overlay
        if top in QUESTIONS:
            return False
        if top is Overlay.OVER:
            self.leave_requested = True
            self._changed()
            return True
        if top is not None:
            self.close_overlay()
            return True
        if self.decision is None:
            self.say(self.status_text(), "dim")
            return False
        return self._submit_choice(self.decision)

    # ================================================================= overlays
    def toggle_overlay(self, name: Overlay) -> None:
        """`?`, `s`, `l`: open that overlay, or close it if it is on top."""
        if self.overlays.toggle(name):
            self._changed()

    def close_overlay(self) -> None:
        if self.top_overlay is Overlay.TRICK:
            self.release_trick()
            return
        self.overlays.close_top()
        self._changed()

    def _open_under(self, name: Overlay) -> None:
        """Open an overlay below the ones already shown (the game-over screen waits for the last summary)."""
        self.overlays.open_below_all(name)

    # ================================================================= words, for the screen
    def audit_text(self, number: int) -> tuple[str, str]:
        """The audit verdict of a finished hand, and its level."""
        line = self.words.audit(self.audits.get(number))
        return line.text, line.level

    def side_label(self, side: int, width: int = 0) -> str:
        return self.words.side(side, width)

    def status_text(self) -> str:
        """The prompt line: what the person should do, or whom we wait for."""
        if self.result is not None:
            return _("Game over: {result}").format(result=self.result.text)
        if self.top_overlay is Overlay.TRICK and self.held is not None:
            return _("{caption} · any key continues").format(caption=self.held_caption())
        asked = self.decision_prompt()
        if asked is not None:
            return asked
        if self.syncing:
            return self.words.syncing(self.sync_countdown)
        if self.proposal is not None and self.proposal.open:
            return self.words.proposal_status(self.proposal)
        if self.waiting is not None:
            seat, what = self.waiting
            vote_in = self.countdown[1] if self.countdown is not None and self.countdown[0] == seat else None
            return self.words.waiting(seat, what, seat in self.thinking, vote_in)
        return _("Waiting for the table")

    def held_caption(self) -> str:
        """"West takes trick 3" for the completed trick held on the table."""
        return "" if self.held is None else self.words.held_trick(*self.held)

    # ================================================================= internals
    def _add(self, lines: Iterable[EventLine]) -> None:
        for line in lines:
            self.note(line.text, line.level)

    def _event(self, ev: Event) -> None:
        """Take one of the table's events: what it changes on the screen, and its line in the pane."""
        if isinstance(ev, HandAudited):
            self.audits[ev.hand] = ev
            verdict = self.words.hand_audit(ev.hand, ev)
            self.note(verdict.text, verdict.level)
        elif isinstance(ev, GameEnded):
            self._game_ended(ev)
        elif isinstance(ev, Violation) and not ev.halts:
            return  # a renege the rules penalise: the hand's audit tells it
        elif isinstance(ev, Noted) and ev.type in msg.PARTINGS:
            first = ev.type == msg.Stop.TYPE and ev.slot not in self._proposals
            self._proposals.add(ev.slot)
            said = self.words.parting(ev, first)
            self.note(said.text, said.level)
        elif isinstance(ev, StopLapsed):
            if ev.by is None:  # (declined: the decline's own line says so)
                self.note(self.words.lapsed(), "info")
        else:
            if isinstance(ev, Violation):
                self.halted = ev
            line = self.words.event(ev)
            if line is not None:
                self.note(line.text, line.level)

    def _game_ended(self, ev: GameEnded) -> None:
        line = self.words.game_over(ev, self.halted)
        self.result = GameResult(ResultStatus(ev.status), ev.winners, ending(ev), printable(line.text))
        self.note(_("game over: {result}").format(result=line.text), line.level)
        self.withdraw()
        self.overlays.discard(Overlay.STOP)  # nothing to agree to any more
        self.proposing = False
        self._open_under(Overlay.OVER)

    def _hand_over(self, hand: HandResult) -> None:
        self._add([self.words.score(hand)])
        if self.auto_summary:
            self.summary_hand = hand.number
            self.overlays.open_game_window(Overlay.SUMMARY)

