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
from p2pspades.describe import (
    abandoned,
    dropped,
    ending,
    failed,
    lapsed,
    note,
    parted,
    parting_note,
    superseded,
)
from p2pspades.describe.game import card_glyph
from p2pspades.i18n import N_, _, listed, ngettext
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
    Proposal,
    Rejected,
    Superseded,
    TableStatus,
    Violation,
)
from p2pspades.table import messages as msg
from p2pspades.ui.derived import Contract
from p2pspades.ui.text import bid_text, bidding_order, side_name

#: event pane line levels, each with a style class "event.<level>"
LEVELS = ("info", "good", "warn", "bad", "dim")

#: what a seat is expected to send, by entry type: "Waiting for West to ..." (translated where it is said)
WAITING_WORDS = {
    "accept": N_("Waiting for {who} to accept the table"),
    "dcommit": N_("Waiting for {who} to draw for the first dealer"),
    "dreveal": N_("Waiting for {who} to draw for the first dealer"),
    "commit": N_("Waiting for {who} to commit to a secret seed"),
    "blind": N_("Waiting for {who} to answer blind nil"),
    "shuffle": N_("Waiting for {who} to shuffle the deck"),
    "lock": N_("Waiting for {who} to lock the deck"),
    "keys": N_("Waiting for {who} to send deal keys"),
    "draw": N_("Waiting for {who} to draw"),
    "bid": N_("Waiting for {who} to bid"),
    "pass": N_("Waiting for {who} to pass cards to a partner"),
    "play": N_("Waiting for {who} to play"),
    "reveal": N_("Waiting for {who} to reveal the hand's seed"),
    "end": N_("Waiting for {who} to sign the end of the game"),
}
#: what our own seat is sending, by entry type: "We are sending our ..." (translated where it is said)
SENDING_WORDS = {
    "accept": N_("We are accepting the table"),
    "dcommit": N_("We are drawing for the first dealer"),
    "dreveal": N_("We are drawing for the first dealer"),
    "commit": N_("We are committing to a secret seed"),
    "blind": N_("We are sending our blind nil answer"),
    "shuffle": N_("We are shuffling the deck"),
    "lock": N_("We are locking the deck"),
    "keys": N_("We are sending our deal keys"),
    "draw": N_("We are sending our draw"),
    "bid": N_("We are sending our bid"),
    "pass": N_("We are passing our cards"),
    "play": N_("We are sending our card"),
    "reveal": N_("We are revealing the hand's seed"),
    "end": N_("We are signing the end of the game"),
}

_ACCEPTED = {
    "accept": N_("{who} accepted the table"),
    "shuffle": N_("{who} shuffled and encrypted the deck"),
    "reveal": N_("{who} revealed the hand's seed"),
    "end": N_("{who} signed the end of the game"),
}


@dataclass(frozen=True)
class EventLine:
    """One line of the event pane."""

    text: str
    level: str = "info"


class Words:
    """The sentences of one seat's screen, in the language spoken."""

    def __init__(self, seat: int, names: Sequence[str], rules: RuleSet) -> None:
        self.seat = seat
        self.names = tuple(names)
        self.rules = rules

    def who(self, seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return _("seat {seat}").format(seat=seat)

    def whom(self, seat: int | None) -> str:
        """A seat as the object of a sentence: "you" for our own."""
        return _("you") if seat == self.seat else self.who(seat)

    def several(self, seats: Sequence[int]) -> str:
        """"Ann, Bob and Cat"; our own seat is "you"."""
        return listed([self.whom(s) for s in seats])

    def side(self, side: int, width: int = 0) -> str:
        return side_name(self.rules, self.names, side, width=width)

    def sides(self, sides: Sequence[int]) -> str:
        """The sides that won together: "ana+cy and bo", "nobody"."""
        return listed([self.side(w) for w in sides]) or _("nobody")

    # ----------------------------------------------------------------- the table's events
    def event(self, ev: Event) -> EventLine | None:
        """The line for one of the table's events (None for those the pane does not show; the end of a hand
        and of the game have their own, see `audit` and `game_over`)."""
        if isinstance(ev, CardVerified):
            if ev.seat == self.seat:
                return EventLine(_("You played {card}: card verified").format(card=card_glyph(ev.card)))
            return EventLine(_("{who} played {card}: card verified").format(who=self.who(ev.seat),
                                                                            card=card_glyph(ev.card)))
        if isinstance(ev, FirstDealer):
            return self.first_dealer(ev.seat, ev.given)
        if isinstance(ev, ChallengeRaised):
            return EventLine(_("{who} challenges the deal: {why}; every seat reveals").format(
                who=self.who(ev.seat), why=ev.why))
        if isinstance(ev, Accepted) and ev.type == "pass":
            return self.other_pass(ev.seat)
        if isinstance(ev, Accepted):
            done = _ACCEPTED.get(ev.type)
            return EventLine(_(done).format(who=self.who(ev.seat)), "dim") if done else None
        if isinstance(ev, Violation):
            return EventLine(failed(ev.check, ev.detail, self.who(ev.seat)), "bad")
        if isinstance(ev, Rejected):
            return EventLine(_("refused an entry from {who}: {why}").format(who=self.who(ev.seat),
                                                                            why=ev.detail), "warn")
        if isinstance(ev, Dropped):
            return EventLine(_("ignored: {why}").format(why=dropped(ev)), "dim")
        if isinstance(ev, Noted):
            return self.noted(ev) if ev.type in msg.NOTES else None  # (an answer held back: not news)
        if isinstance(ev, Superseded):
            return EventLine(superseded(ev.first, len(ev.raws)), "warn")
        return None

    def first_dealer(self, seat: int, given: bool) -> EventLine:
        """Who deals first: drawn, or given by the game this one continues."""
        if seat == self.seat:
            text = (_("You deal first, as in the game this one continues") if given
                    else _("You drew the highest card and deal first"))
        else:
            text = (_("{who} deals first, as in the game this one continues") if given
                    else _("{who} drew the highest card and deals first"))
        return EventLine(text.format(who=self.who(seat)))

    # ----------------------------------------------------------------- the nil card pass
    def partner(self, seat: int) -> int:
        return (seat + 2) % len(self.names)

    def other_pass(self, seat: int) -> EventLine | None:
        """The opponents' pass, as we see it: that it happened, never the cards (ours and our partner's are
        told with their cards, see `passed`)."""
        if seat in (self.seat, self.partner(self.seat)):
            return None
        size = self.rules.nil_pass
        return EventLine(ngettext("{who} passed {n} card to {partner}, face down",
                                  "{who} passed {n} cards to {partner}, face down", size).format(
            who=self.who(seat), n=size, partner=self.who(self.partner(seat))))

    def passed(self, gave: Sequence[Card], received: Sequence[Card]) -> list[EventLine]:
        """The cards our hand gave its partner and received from it in the pass."""
        partner = self.who(self.partner(self.seat))
        lines = []
        if gave:
            lines.append(EventLine(_("You passed {cards} to {partner}").format(
                cards=" ".join(card_glyph(c) for c in gave), partner=partner)))
        if received:
            lines.append(EventLine(_("{partner} passed you {cards}").format(
                partner=partner, cards=" ".join(card_glyph(c) for c in received)), "good"))
        return lines

    def pass_prompt(self, view: SeatView | None, marked: int) -> str:
        """The prompt line while we are to pass: to whom, why, how many marked."""
        size, me = self.rules.nil_pass, self.seat
        partner = self.partner(me)
        text = ngettext("Pass {n} card to {partner}", "Pass {n} cards to {partner}", size).format(
            n=size, partner=self.who(partner))
        if view is not None:
            nil = me if view.bids[me] == 0 else partner
            if nil == me:
                why = _("you bid blind nil") if view.blind[nil] else _("you bid nil")
            else:
                why = (_("{who} bid blind nil") if view.blind[nil] else _("{who} bid nil")).format(
                    who=self.who(nil))
            text = _("{prompt} ({why})").format(prompt=text, why=why)
        return _("{prompt}: {marked} of {n} marked · Space, Enter").format(prompt=text, marked=marked, n=size)

    def noted(self, ev: Noted) -> EventLine:
        """A vote that a seat stopped answering, a stall, or a refusal of one (the table checked it)."""
        fields = log.open_envelope(ev.raw).payload
        accused = fields.get("a")
        words = note(ev.type, self.who(ev.seat), self.who(accused), fields, mine=ev.seat == self.seat,
                     against_me=accused == self.seat)
        return EventLine(words, "info" if ev.type == msg.Answered.TYPE else "warn")

    def audit(self, audit: HandAudited | None) -> EventLine:
        """A finished hand's audit verdict (text and level)."""
        if audit is None:
            return EventLine(_("audit pending"), "warn")
        if not audit.violations:
            return EventLine(_("audit passed: the deal recomputes and every card was legal"), "good")
        what = "; ".join(_("{who}: {what}").format(who=self.who(v.seat), what=failed(v.check, v.detail))
                         for v in audit.violations)
        n = len(audit.violations)
        return EventLine(ngettext("audit found {n} violation: {what}", "audit found {n} violations: {what}",
                                  n).format(n=n, what=what), "bad")

    def hand_audit(self, number: int, audit: HandAudited | None) -> EventLine:
        """A finished hand's audit verdict, with its number, for the event pane."""
        verdict = self.audit(audit)
        return EventLine(_("hand {number}: {verdict}").format(number=number, verdict=verdict.text),
                         verdict.level)

    def game_over(self, ev: GameEnded, halted: Violation | None) -> EventLine:
        """How the game ended, in one line: who won, who stopped answering, or who cheated."""
        if ev.status is TableStatus.COMPLETE:
            winners = self.sides(ev.winners)
            mine = self.rules.side_of(self.seat) in ev.winners
            if mine:
                text = _("You win ({winners})").format(winners=winners)
            else:
                seats = max(1, len(self._winning_seats(ev)))
                text = ngettext("{winners} wins", "{winners} win", seats).format(winners=winners)
            level = "good" if mine else "info"
        elif ev.status is TableStatus.ABANDONED:
            text = _("the game was abandoned: {how}").format(how=abandoned(ev, self.whom, you=self.seat))
            level = "warn"
        elif ev.status in (TableStatus.LEFT, TableStatus.STOPPED):
            text = parted(ev, self.whom)
            level = "warn" if ev.status is TableStatus.LEFT else "info"
        else:
            why = (failed(halted.check, halted.detail, self.who(halted.seat)) if halted is not None
                   else ending(ev))
            text = _("the game stopped: {why}").format(why=why)
            level = "bad"
        if ev.forfeit:
            winners = self.sides(ev.winners)
            forfeit = ngettext("forfeit by {who}: {winners} wins", "forfeit by {who}: {winners} win",
                               max(1, len(self._winning_seats(ev)))).format(who=self.who(ev.seat),
                                                                           winners=winners)
            text = _("{said}; {forfeit}").format(said=text, forfeit=forfeit)
        return EventLine(text, level)

    def _winning_seats(self, ev: GameEnded) -> list[int]:
        """The seats of the sides that won (the verb agrees with them: "ana wins", "ana+cy win")."""
        return [s for w in ev.winners for s in self.rules.sides[w]]

    # ----------------------------------------------------------------- the players' own word
    def parting(self, ev: Noted, first: bool) -> EventLine:
        """A goodbye, a stop (`first`: a proposal) or a decline, as the pane tells it."""
        level = "warn" if ev.type == msg.Leave.TYPE else "info"
        return EventLine(parting_note(ev.type, self.who(ev.seat), first, own=ev.seat == self.seat), level)

    def lapsed(self) -> str:
        return lapsed(None)

    def stop_alone(self) -> str:
        """What `x` says where every other seat is our bot: there is nobody to agree with."""
        return _("every other seat is your bot: to stop here, leave (Ctrl-Q) and carry on later with resume")

    def proposal_status(self, p: Proposal) -> str:
        """The prompt line while a proposal to stop is open: who has not agreed yet, and when it lapses."""
        waiting = [s for s in range(len(self.names)) if s not in p.agreed]
        seconds = f"{p.lapses_in:.0f}" if p.lapses_in is not None else "?"
        if not waiting:
            return _("Stop here: every seat agreed")
        if self.seat in waiting:
            return _("{who} proposes to stop here: x answers (lapses in {seconds} s)").format(
                who=self.who(p.proposer), seconds=seconds)
        return _("Stop here? waiting for {names} to agree (lapses in {seconds} s)").format(
            names=self.several(waiting), seconds=seconds)

    # ----------------------------------------------------------------- what the snapshots show
    def deal(self, number: int, dealer: int) -> EventLine:
        if dealer == self.seat:
            return EventLine(_("hand {number}: You deal").format(number=number), "dim")
        return EventLine(_("hand {number}: {who} deals").format(number=number, who=self.who(dealer)), "dim")

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
            EventLine((_("You bid {bid}") if seat == self.seat else _("{who} bid {bid}")).format(
                who=self.who(seat), bid=bid_text(bids[seat], blind[seat], self.rules)))
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
                text = (_("trick {number} to you") if winner == self.seat
                        else _("trick {number} to {who}")).format(number=number, who=self.who(winner))
                lines.append(EventLine(text, "good" if ours else "info"))
        return lines

    def score(self, hand: HandResult) -> EventLine:
        totals = ", ".join(f"{self.side(i)} {t.score}" for i, t in enumerate(hand.totals))
        return EventLine(_("hand {number} scored: {totals}").format(number=hand.number, totals=totals), "dim")

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
            return _("made, {n} over").format(n=c.over) if c.over else _("made")
        if c.lost:
            return _("set: {n} to go, {left} left").format(n=c.to_go, left=c.left)
        return _("{n} to go").format(n=c.to_go)

    def nil_state(self, blind: bool, taken: int) -> str:
        """"nil: 0 taken", "blind nil: 1 taken, failed"."""
        if blind:
            text = _("blind nil: {n} taken, failed") if taken else _("blind nil: {n} taken")
        else:
            text = _("nil: {n} taken, failed") if taken else _("nil: {n} taken")
        return text.format(n=taken)

    def contract_line(self, c: Contract, label: str) -> str:
        """A side's contract in one line: "us: bid 7 (ana: 4 + north: 3), 5 taken, 2 to go · north nil: 0
        taken"."""
        parts = []
        if c.bidders:
            each = " + ".join(f"{self.who(s)}: {b}" for s, b in c.bidders)  # a name may end in a digit
            text = _("bid {bid} ({each}), {taken} taken, {state}") if len(c.bidders) > 1 else _(
                "bid {bid}, {taken} taken, {state}")
            parts.append(text.format(bid=c.contract, each=each, taken=c.taken, state=self.contract_state(c)))
        for seat, blind, taken in c.nils:
            parts.append(f"{self.who(seat)} {self.nil_state(blind, taken)}")
        return f"{label}: " + " · ".join(parts)

    def contract_cell(self, c: Contract) -> str:
        """One player's own contract (no partnerships), for the seats panel: "2 to go", "made, 1 over", "set:
        5 to go", "nil: 0 taken", "nil failed (1)" (at most 14 characters in English, but for 10 or more
        overtricks; a translation says it in as few as it can)."""
        if c.nils:  # the bid column says whether it is blind
            _seat, _blind, taken = c.nils[0]
            return _("nil failed ({n})").format(n=taken) if taken else _("nil: 0 taken")
        if c.lost:
            return _("set: {n} to go").format(n=c.to_go)
        return self.contract_state(c)

    # ----------------------------------------------------------------- captions and the prompt line
    def connection(self, seat: int, lost: bool) -> EventLine:
        """A seat's link went quiet (its program stopped, or the network between us did), or came back."""
        if lost:
            return EventLine(_("{who} dropped out: nothing heard from that seat").format(who=self.who(seat)),
                             "warn")
        return EventLine(_("{who} is back").format(who=self.who(seat)), "good")

    def held_trick(self, trick: Trick, number: int) -> str:
        """"West takes trick 3", for the completed trick held on the table."""
        winner = trick.winner
        if winner is None:
            return _("trick {number} is complete").format(number=number)
        if winner == self.seat:
            return _("You take trick {number}").format(number=number)
        return _("{who} takes trick {number}").format(who=self.who(winner), number=number)

    def syncing(self, countdown: tuple[bool, int] | None = None) -> str:
        """The prompt line of a resumed seat that has not heard the other seats' heads yet; `countdown`:
        whether another player's program answered, and the seconds before we play on without the silent
        seats (it did) or give up (none did)."""
        if countdown is None:
            return _("Syncing with the other seats before playing on…")
        answered, seconds = countdown
        if answered:
            said = _("Syncing with the other seats… playing on without the silent ones in {seconds} s")
        else:
            said = _("Syncing with the other seats… nobody has answered yet; we give up in {seconds} s")
        return said.format(seconds=seconds)

    def waiting(self, seat: int, what: str, thinking: bool = False, vote_in: int | None = None) -> str:
        """The prompt line while the table waits for a seat's entry; `vote_in`: the seconds before we vote
        that it stopped answering, when that is worth saying."""
        if seat == self.seat:
            sending = SENDING_WORDS.get(what)
            return _(sending) if sending else _("We are sending our {what}").format(what=what)
        waiting = WAITING_WORDS.get(what)
        who = self.who(seat)
        text = _(waiting).format(who=who) if waiting else _("Waiting for {who} ({what})").format(who=who,
                                                                                                 what=what)
        if thinking:
            text = _("{waiting} (thinking…)").format(waiting=text)
        if vote_in is not None:
            text = _("{waiting} · we claim {who} stopped answering in {seconds} s (w: wait longer)").format(
                waiting=text, who=who, seconds=vote_in)
        return text

    def waited_longer(self, seat: int, seconds: int) -> EventLine:
        """The player chose to wait longer for a seat that stopped answering."""
        said = _("you wait {seconds} s longer for {who} before claiming it stopped answering")
        return EventLine(said.format(seconds=seconds, who=self.who(seat)), "dim")

    def why_illegal(self, action: Action, view: SeatView | None, bid_labels: Sequence[str]) -> str:
        """Why the rules refuse a choice, in a person's words (`bid_labels`: the bids allowed now)."""
        rules = self.rules
        if isinstance(action, Play) and view is not None:
            card = action.card
            if card not in view.hand:
                return _("{card} is not in your hand").format(card=card_glyph(card))
            led = view.trick.led_suit
            suit = rules.order.suit(card)  # deuces high: the 2D is a spade
            if led is not None and suit is not led:
                return _(FOLLOW[led])
            if led is None and suit is Suit.SPADES:
                if rules.spade_lead == "not_first_trick" and not view.tricks:
                    return _("no spade may lead the first trick while you hold another suit")
                return _("spades are not broken yet: lead another suit")
            return _("{card} may not be played now").format(card=card_glyph(card))
        if isinstance(action, Bid):
            if not bid_labels:
                return _("no bid is wanted now")
            return _("a bid of {n} is not allowed: bid {low} to {high}").format(
                n=action.tricks, low=bid_labels[0], high=bid_labels[-1])
        return _("{action} is not a choice now").format(action=action)


FOLLOW = {
    Suit.SPADES: N_("you must follow spades: you hold spades"),
    Suit.HEARTS: N_("you must follow hearts: you hold hearts"),
    Suit.DIAMONDS: N_("you must follow diamonds: you hold diamonds"),
    Suit.CLUBS: N_("you must follow clubs: you hold clubs"),
}
"""Why a card of another suit may not be played: the suit led must be followed (said where it is shown)."""
