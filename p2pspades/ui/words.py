"""The table's events and the seat's snapshots in a person's words: the event pane's lines and the captions.

Every sentence the game screen says about the game is made here, from typed values (seats, cards, bids,
statuses), never by reading text back. `Words` knows whose screen it is, so our own seat is "You" where
the grammar needs it ("You deal", "You take trick 3"). Names are escaped before they get here (see
`UiState.names`); reasons from the network are escaped as lines reach the pane.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pspades import log
from p2pspades.describe import ending, failed
from p2pspades.rules import Action, Bid, Card, HandResult, Play, RuleSet, SeatView, Suit, Trick
from p2pspades.table import (
    Accepted,
    CardVerified,
    ChallengeRaised,
    Dropped,
    Event,
    FirstDealer,
    GameEnded,
    HandAudited,
    Noted,
    Rejected,
    Superseded,
    TableStatus,
    Violation,
)
from p2pspades.ui.derived import Contract
from p2pspades.ui.text import bid_text, bidding_order, side_name

#: event pane line levels, each with a style class "event.<level>"
LEVELS = ("info", "good", "warn", "bad", "dim")

#: what a seat is expected to send, by entry type, for "Waiting for West to ..."
WAITING_WORDS = {
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
    "pass": "to pass cards to a partner",
    "play": "to play",
    "reveal": "to reveal the hand's seed",
    "end": "to sign the end of the game",
}

_ACCEPTED = {
    "accept": "accepted the table",
    "shuffle": "shuffled and encrypted the deck",
    "reveal": "revealed the hand's seed",
    "end": "signed the end of the game",
}


@dataclass(frozen=True)
class EventLine:
    """One line of the event pane."""

    text: str
    level: str = "info"


class Words:
    """The sentences of one seat's screen."""

    def __init__(self, seat: int, names: Sequence[str], rules: RuleSet) -> None:
        self.seat = seat
        self.names = tuple(names)
        self.rules = rules

    def who(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else f"seat {seat}"

    def whom(self, seat: int | None) -> str:
        """A seat as the object of a sentence: "you" for our own."""
        return "you" if seat == self.seat else self.who(seat)

    def several(self, seats: Sequence[int]) -> str:
        """"Ann, Bob and Cat"; our own seat is "you"."""
        names = [self.whom(s) for s in seats]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def side(self, side: int, width: int = 0) -> str:
        return side_name(self.rules, self.names, side, width=width)

    # ----------------------------------------------------------------- the table's events
    def event(self, ev: Event) -> EventLine | None:
        """The line for one of the table's events (None for those the pane does not show; the end of a hand
        and of the game have their own, see `audit` and `game_over`)."""
        if isinstance(ev, CardVerified):
            return EventLine(f"{self.who(ev.seat)} played {ev.card.glyph}: card verified")
        if isinstance(ev, FirstDealer):
            if ev.given:
                return EventLine(f"{self.who(ev.seat)} deals first, as in the game this one continues")
            return EventLine(f"{self.who(ev.seat)} drew the highest card and deals first")
        if isinstance(ev, ChallengeRaised):
            return EventLine(f"{self.who(ev.seat)} challenges the deal: {ev.why}; every seat reveals")
        if isinstance(ev, Accepted) and ev.type == "pass":
            return self.other_pass(ev.seat)
        if isinstance(ev, Accepted):
            done = _ACCEPTED.get(ev.type)
            return EventLine(f"{self.who(ev.seat)} {done}", "dim") if done else None
        if isinstance(ev, Violation):
            return EventLine(failed(ev.check, ev.detail, self.who(ev.seat)), "bad")
        if isinstance(ev, Rejected):
            return EventLine(f"refused an entry from {self.who(ev.seat)}: {ev.detail}", "warn")
        if isinstance(ev, Dropped):
            return EventLine(f"ignored: {ev.reason}", "dim")
        if isinstance(ev, Noted):
            return self.noted(ev)
        if isinstance(ev, Superseded):
            return EventLine(
                f"a certificate takes entry {ev.first}: the entries from there on are off the chain", "warn"
            )
        return None

    # ----------------------------------------------------------------- the nil card pass
    def partner(self, seat: int) -> int:
        return (seat + 2) % len(self.names)

    def other_pass(self, seat: int) -> EventLine | None:
        """The opponents' pass, as we see it: that it happened, never the cards (ours and our partner's are
        told with their cards, see `passed`)."""
        if seat in (self.seat, self.partner(self.seat)):
            return None
        cards = "card" if self.rules.nil_pass == 1 else f"{self.rules.nil_pass} cards"
        return EventLine(f"{self.who(seat)} passed {cards} to {self.who(self.partner(seat))}, face down")

    def passed(self, gave: Sequence[Card], received: Sequence[Card]) -> list[EventLine]:
        """The cards our hand gave its partner and received from it in the pass."""
        partner = self.who(self.partner(self.seat))
        lines = []
        if gave:
            lines.append(EventLine(f"You passed {' '.join(c.glyph for c in gave)} to {partner}"))
        if received:
            lines.append(EventLine(f"{partner} passed you {' '.join(c.glyph for c in received)}", "good"))
        return lines

    def pass_prompt(self, view: SeatView | None, marked: int) -> str:
        """The prompt line while we are to pass: to whom, why, how many marked."""
        size, me = self.rules.nil_pass, self.seat
        partner = self.partner(me)
        why = ""
        if view is not None:
            nil = me if view.bids[me] == 0 else partner
            blind = "blind nil" if view.blind[nil] else "nil"
            why = f" ({'you' if nil == me else self.who(nil)} bid {blind})"
        return f"Pass {size} cards to {self.who(partner)}{why}: {marked} of {size} marked · Space, Enter"

    def noted(self, ev: Noted) -> EventLine:
        """A vote that a seat stopped answering, or a refusal of one (the table checked its fields)."""
        fields = log.open_envelope(ev.raw).payload
        signer = "You" if ev.seat == self.seat else self.who(ev.seat)
        accused = self.whom(fields.get("a"))
        if ev.type == "abandon":
            wait = fields.get("w")
            return EventLine(f"{signer} voted that {accused} stopped answering (after the timeout in force, "
                             f"{wait} s)", "warn")
        return EventLine(f"{signer} took the entry of {accused} before voting: the claim against "
                         f"{accused} is void", "info")

    def audit(self, audit: HandAudited | None) -> EventLine:
        """A finished hand's audit verdict (text and level)."""
        if audit is None:
            return EventLine("audit pending", "warn")
        if not audit.violations:
            return EventLine("audit passed: the deal recomputes and every card was legal", "good")
        what = "; ".join(f"{self.who(v.seat)}: {failed(v.check, v.detail)}" for v in audit.violations)
        return EventLine(f"audit found {len(audit.violations)} violation(s): {what}", "bad")

    def game_over(self, ev: GameEnded, halted: Violation | None) -> EventLine:
        """How the game ended, in one line: who won, who stopped answering, or who cheated."""
        if ev.status is TableStatus.COMPLETE:
            winners = " and ".join(self.side(w) for w in ev.winners) or "nobody"
            mine = self.rules.side_of(self.seat) in ev.winners
            text = ("You win" if mine else f"{winners} win") + (f" ({winners})" if mine else "")
            level = "good" if mine else "info"
        elif ev.status is TableStatus.ABANDONED:
            signers = self.several(ev.signers) if ev.signers else "the other seats"
            waits = " or ".join(f"{w} s" for w in sorted(set(ev.waits)))
            text = f"the game was abandoned: {signers} signed that {self.whom(ev.seat)} stopped answering"
            text += f" (the timeout in force: {waits})" if waits else ""
            if ev.contested:
                text += "; contested: every signer wins by it, so nobody wins"
            level = "warn"
        else:
            text = (
                f"the game stopped: {failed(halted.check, halted.detail, self.who(halted.seat))}"
                if halted is not None
                else f"the game stopped: {ending(ev)}"
            )
            level = "bad"
        if ev.forfeit:
            winners = " and ".join(self.side(w) for w in ev.winners)
            verb = "wins" if len(ev.winners) == 1 else "win"
            text += f"; forfeit by {self.who(ev.seat)}: {winners} {verb}"
        return EventLine(text, level)

    # ----------------------------------------------------------------- what the snapshots show
    def deal(self, number: int, dealer: int) -> EventLine:
        who = "You deal" if dealer == self.seat else f"{self.who(dealer)} deals"
        return EventLine(f"hand {number}: {who}", "dim")

    def bids(
        self,
        dealer: int,
        bids: Sequence[int | None],
        blind: Sequence[bool],
        old_bids: Sequence[int | None],
        old_blind: Sequence[bool],
    ) -> list[EventLine]:
        """A line per bid that is new since (old_bids, old_blind), in bidding order."""
        return [
            EventLine(f"{self.who(seat)} bid {bid_text(bids[seat], blind[seat], self.rules)}")
            for seat in bidding_order(self.rules, dealer)
            if bids[seat] is not None and (old_bids[seat] is None or blind[seat] != old_blind[seat])
        ]

    def tricks(self, tricks: Sequence[Trick], first: int) -> list[EventLine]:
        """A line per completed trick from the `first` (0-based) on."""
        lines = []
        for number, trick in enumerate(tricks[first:], start=first + 1):
            winner = trick.winner
            if winner is not None:
                ours = self.rules.side_of(winner) == self.rules.side_of(self.seat)
                lines.append(EventLine(f"trick {number} to {self.who(winner)}", "good" if ours else "info"))
        return lines

    def score(self, hand: HandResult) -> EventLine:
        totals = ", ".join(f"{self.side(i)} {t.score}" for i, t in enumerate(hand.totals))
        return EventLine(f"hand {hand.number} scored: {totals}", "dim")

    def hand_told_again(self, hand: HandResult) -> list[EventLine]:
        """A finished hand's lines, for a screen that starts after it (after `resume`)."""
        none = (None,) * len(hand.bids)
        return [
            self.deal(hand.number, hand.dealer),
            *self.bids(hand.dealer, hand.bids, hand.blind, none, hand.blind),
            *self.tricks(hand.tricks, 0),
            self.score(hand),
        ]

    # ----------------------------------------------------------------- the contracts in play
    def contract_state(self, c: Contract) -> str:
        """"2 to go", "made", "made, 1 over", "set: 3 to go, 2 left"."""
        if c.to_go == 0:
            return "made" + (f", {c.over} over" if c.over else "")
        if c.lost:
            return f"set: {c.to_go} to go, {c.left} left"
        return f"{c.to_go} to go"

    def nil_state(self, blind: bool, taken: int) -> str:
        """"nil: 0 taken", "blind nil: 1 taken, failed"."""
        word = "blind nil" if blind else "nil"
        return f"{word}: {taken} taken" + (", failed" if taken else "")

    def contract_line(self, c: Contract, label: str) -> str:
        """A side's contract in one line: "us: bid 7 (ana: 4 + north: 3), 5 taken, 2 to go · north nil: 0
        taken"."""
        parts = []
        if c.bidders:
            each = " + ".join(f"{self.who(s)}: {b}" for s, b in c.bidders)  # a name may end in a digit
            who = f" ({each})" if len(c.bidders) > 1 else ""
            parts.append(f"bid {c.contract}{who}, {c.taken} taken, {self.contract_state(c)}")
        for seat, blind, taken in c.nils:
            parts.append(f"{self.who(seat)} {self.nil_state(blind, taken)}")
        return f"{label}: " + " · ".join(parts)

    def contract_cell(self, c: Contract) -> str:
        """One player's own contract (no partnerships), for the seats panel: "2 to go", "made, 1 over", "set:
        5 to go", "nil: 0 taken", "nil failed (1)" (at most 14 characters, but for 10 or more overtricks)."""
        if c.nils:  # the bid column says whether it is blind
            _, _, taken = c.nils[0]
            return f"nil failed ({taken})" if taken else "nil: 0 taken"
        if c.lost:
            return f"set: {c.to_go} to go"
        return self.contract_state(c)

    # ----------------------------------------------------------------- captions and the prompt line
    def connection(self, seat: int, lost: bool) -> EventLine:
        """A seat's link went quiet (its program stopped, or the network between us did), or came back."""
        if lost:
            return EventLine(f"{self.who(seat)} dropped out: nothing heard from that seat", "warn")
        return EventLine(f"{self.who(seat)} is back", "good")

    def held_trick(self, trick: Trick, number: int) -> str:
        """"West takes trick 3", for the completed trick held on the table."""
        winner = trick.winner
        if winner is None:
            return f"trick {number} is complete"
        if winner == self.seat:
            return f"You take trick {number}"
        return f"{self.who(winner)} takes trick {number}"

    def syncing(self, countdown: tuple[bool, int] | None = None) -> str:
        """The prompt line of a resumed seat that has not heard the other seats' heads yet; `countdown`:
        whether another player's program answered, and the seconds before we play on without the silent
        seats (it did) or give up (none did)."""
        if countdown is None:
            return "Syncing with the other seats before playing on…"
        answered, seconds = countdown
        if answered:
            return f"Syncing with the other seats… playing on without the silent ones in {seconds} s"
        return f"Syncing with the other seats… nobody has answered yet; we give up in {seconds} s"

    def waiting(self, seat: int, what: str, thinking: bool = False, vote_in: int | None = None) -> str:
        """The prompt line while the table waits for a seat's entry; `vote_in`: the seconds before we vote
        that it stopped answering, when that is worth saying."""
        if seat == self.seat:
            return f"We are sending our {what}"
        words = WAITING_WORDS.get(what, what) + (" (thinking…)" if thinking else "")
        if vote_in is not None:
            words += f" · we claim {self.whom(seat)} stopped answering in {vote_in} s (w: wait longer)"
        return f"Waiting for {self.who(seat)} {words}"

    def waited_longer(self, seat: int, seconds: int) -> EventLine:
        """The player chose to wait longer for a seat that stopped answering."""
        who = self.who(seat)
        return EventLine(f"you wait {seconds} s longer for {who} before claiming it stopped answering", "dim")

    def why_illegal(self, action: Action, view: SeatView | None, bid_labels: Sequence[str]) -> str:
        """Why the rules refuse a choice, in a person's words (`bid_labels`: the bids allowed now)."""
        rules = self.rules
        if isinstance(action, Play) and view is not None:
            card = action.card
            if card not in view.hand:
                return f"{card.glyph} is not in your hand"
            led = view.trick.led_suit
            suit = rules.order.suit(card)  # deuces high: the 2D is a spade
            if led is not None and suit is not led:
                return f"you must follow {led.noun}: you hold {led.noun}"
            if led is None and suit is Suit.SPADES:
                if rules.spade_lead == "not_first_trick" and not view.tricks:
                    return "no spade may lead the first trick while you hold another suit"
                return "spades are not broken yet: lead another suit"
            return f"{card.glyph} may not be played now"
        if isinstance(action, Bid):
            if not bid_labels:
                return "no bid is wanted now"
            return f"a bid of {action.tricks} is not allowed: bid {bid_labels[0]} to {bid_labels[-1]}"
        return f"{action} is not a choice now"
