"""What a player reads of a running game, line by line: the progress `--auto` prints (`Progress`), a peer's
`Status` in one line (`status_text`, which the full-screen UI's prompt line shows too), the final score.

Words only: the peer's status and the table's events come in as data (`net/status.py`, `table/events.py`).
"""

from __future__ import annotations

import math
import time

from p2pspades import log
from p2pspades.audit import tell
from p2pspades.cli.common import ProgressLines
from p2pspades.cli.echo import say
from p2pspades.describe import ending, lapsed, note, parting_note, superseded
from p2pspades.i18n import _, listed, ngettext
from p2pspades.net.peer import Peer
from p2pspades.net.status import Phase, Status
from p2pspades.rules import HandResult
from p2pspades.table import Event, HandAudited, Noted, StopLapsed, Superseded, Table
from p2pspades.table import messages as msg


class Progress(ProgressLines):
    """What `--auto` prints: the first dealer, one line per hand, violations, the end, absent seats."""

    def __init__(self, peer: Peer, grace: float = 5.0) -> None:
        super().__init__(peer.table.setup, say)
        self.peer = peer
        self._away_shown = ""
        self._away_at = 0.0
        self._syncing = False
        self._answered = False
        self._sync_at = 0.0
        self._lingering = False
        self._quiet_until = time.monotonic() + grace  # links take a moment to come up at the start
        self._proposals: set[int] = set()  # the slots with a proposal to stop said already

    def on_event(self, event: Event) -> None:
        names = [s.name for s in self.peer.table.setup.seats]
        if isinstance(event, Noted) and event.type in msg.NOTES:
            fields = log.open_envelope(event.raw).payload
            say(note(event.type, names[event.seat], names[fields["a"]], fields))
        elif isinstance(event, Noted) and event.type in msg.PARTINGS:
            first = event.type == msg.Stop.TYPE and event.slot not in self._proposals
            self._proposals.add(event.slot)
            say(parting_note(event.type, names[event.seat], first))
            proposal = self.peer.table.stop_proposal()
            if first and proposal is not None and proposal.open and proposal.lapses_in is not None:
                say(_("the game pauses for the proposal to stop: every seat has up to {seconds} s to agree, "
                      "or the game goes on").format(seconds=math.ceil(proposal.lapses_in)))
        elif isinstance(event, StopLapsed) and event.by is None:
            say(lapsed(None))
        elif isinstance(event, Superseded):
            say(superseded(event.first, len(event.raws)))
        tell(self.peer.table, [event], self)

    def on_hand(self, hand: HandResult, audit: HandAudited) -> None:
        game = self.peer.table.game
        if game is not None and game.history and hand.number != game.history[-1].number:
            return  # a hand replayed from the log on resume: its line was printed before the crash
        super().on_hand(hand, audit)

    def on_status(self, status: Status) -> None:
        self._say_sync(status)
        if status.linger_in is not None and not self._lingering:
            self._lingering = True
            names = [s.name for s in self.peer.table.setup.seats]
            who = listed([names[seat] for seat in status.behind])
            say(_("staying up to {seconds} s so that {who} can take the end if it comes back").format(
                seconds=status.linger_in, who=who))
        seat = status.waiting_for
        silent = None
        if seat is not None and seat != status.seat and not status.finished:
            silent = status.away.get(seat)
        # a seat we heard from and lost, or one never heard from once the links had time to come up
        away = silent is not None and (silent >= 0 or time.monotonic() > self._quiet_until)
        if away:
            key = f"{seat} {'lost' if silent is not None and silent >= 0 else 'never seen'}"
            now = time.monotonic()
            if key != self._away_shown or now - self._away_at >= 5.0:
                say(status_text(status))
                self._away_shown, self._away_at = key, now
        elif self._away_shown:
            lost = int(self._away_shown.split()[0])
            if lost not in status.away:  # heard from again (not merely no longer the seat we wait for)
                say(_("every seat is connected again"))
            self._away_shown = ""

    def _say_sync(self, status: Status) -> None:
        """While syncing, the countdown every `SYNC_SAID` seconds (and at once when another process's seat
        first answers); then that it synced. A peer that gave up is told of by `run_group`."""
        syncing = status.phase is Phase.SYNCING
        now = time.monotonic()
        due = not self._syncing or status.answered != self._answered or now - self._sync_at >= SYNC_SAID
        if syncing and due:
            say(status_text(status))
            self._sync_at, self._answered = now, status.answered
        elif self._syncing and not syncing and status.phase is not Phase.GAVE_UP:
            say(_("synced with the other seats"))
        self._syncing = syncing


SYNC_SAID = 10.0
"""How often `--auto` says the countdown of a resumed seat that waits for the others to answer."""


def _seats(seats: tuple[int, ...]) -> str:
    listed_seats = ", ".join(str(s) for s in seats)
    return ngettext("seat {seats}", "seats {seats}", len(seats)).format(seats=listed_seats)


COUNTDOWN_SHOWN = 30
"""Seconds before our vote that a seat stopped answering from which the countdown is shown even while the seat
is connected (one thinking long); for a seat that dropped out it is shown all along."""


def counting_down(status: Status) -> bool:
    seat, vote_in = status.waiting_for, status.vote_in
    if seat is None or vote_in is None:
        return False
    return (seat in status.away and status.away[seat] >= 0) or vote_in <= COUNTDOWN_SHOWN


def status_text(status: Status) -> str:
    """A peer's `Status` in one line: "waiting for seat 2 (bid)", "your turn", "game over: ..."."""
    phase = status.phase
    if phase is Phase.OVER:
        how = ending(status.ended) if status.ended is not None else status.outcome
        return _("game over: {how}").format(how=how) if how else _("game over")
    if phase is Phase.GAVE_UP:
        return _("syncing: nobody answered within {seconds} s; stopped").format(seconds=status.sync_in)
    if phase in (Phase.SYNCING, Phase.IDLE):
        return _sync_text(status)
    if phase is Phase.OUR_TURN:
        text = _("your turn")
    elif phase is Phase.SENDING:
        text = _("sending our {what}").format(what=status.kind)
    else:
        seat = status.waiting_for
        gone = status.away.get(seat) if seat is not None else None
        text = (_("waiting for seat {seat} ({what})") if gone is None
                else _("waiting for seat {seat} (disconnected {seconds} s)") if gone >= 0
                else _("waiting for seat {seat} (not connected yet)")).format(seat=seat, what=status.kind,
                                                                              seconds=gone)
    return _claim_text(status, text)


def _sync_text(status: Status) -> str:
    """A resumed seat's countdown while it waits for the others to answer (or nothing to wait for)."""
    if status.phase is Phase.IDLE:
        return _("waiting")
    left = status.sync_in
    if status.answered:
        text = _("syncing with the other seats before playing on (heard from {heard} of {others})").format(
            heard=status.heard, others=status.others)
        if left is not None and status.heard < status.others:
            text = _("{said}; playing on without the others in {seconds} s").format(said=text, seconds=left)
        return text
    text = (_("syncing: waiting for the other seats to answer before playing on (only our own bots have "
              "answered)") if status.heard
            else _("syncing: waiting for the other seats to answer before playing on"))
    return text if left is None else _("{said}; we give up in {seconds} s").format(said=text, seconds=left)


def _claim_text(status: Status, text: str) -> str:
    """`text` (whom we wait for) with the vote that the seat stopped answering: ours to come, or the
    claim in progress."""
    claim = status.claim
    if claim is None:
        if counting_down(status):
            return _("{said}; we vote that it stopped answering in {seconds} s unless it answers").format(
                said=text, seconds=status.vote_in)
        return text
    waits = _(" or ").join(_("{seconds} s").format(seconds=w) for w in claim.waits)
    said = _("{said}; {voters} voted it out after {waits} (the timeout in force)").format(
        said=text, voters=_seats(claim.voters), waits=waits)
    if claim.refused:
        return _("{said}, but {refusers} took its entry first: the claim is void").format(
            said=said, refusers=_seats(claim.refused))
    return _("{said}; {missing} did not vote yet").format(said=said, missing=_seats(claim.missing))


def final_lines(table: Table) -> list[str]:
    """The final score by side, with names, and who won."""
    game = table.game
    if game is None:
        return []
    names = [s.name for s in table.setup.seats]
    sides = ["+".join(names[s] for s in side) for side in table.rules.sides]
    scores = ", ".join(f"{sides[k]} {t.score}" for k, t in enumerate(game.totals))
    lines = [_("final score: {scores}").format(scores=scores)]
    if game.outcome is not None:
        winners = listed([sides[k] for k in game.outcome.winners]) or _("nobody")
        lines.append(_("winner: {winners}").format(winners=winners))
    return lines
