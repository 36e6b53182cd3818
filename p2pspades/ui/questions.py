"""The game screen's two questions: leave the game? (q) and stop here by agreement? (x). When each opens and
closes, what an answer does, and the proposal to stop as the network driver reports it.

`Questions` is mixed into `UiState`, which owns its fields (as it does `Choosing`'s); the questions' words are
`screens.py`'s (the page's: `web/snapshot.py`).
"""

from __future__ import annotations

from collections.abc import Callable

from p2pspades.table import Proposal
from p2pspades.ui.choosing import Choosing
from p2pspades.ui.overlays import Overlay


class Questions(Choosing):
    """The questions' part of the game screen's model (mixed into `UiState`, which owns these fields)."""

    names: tuple[str, ...]
    bots: dict[int, int]
    #: the proposal to stop at the slot the table waits for, as the driver last gave it (`set_proposal`)
    proposal: Proposal | None
    #: the person asked to propose a stop (x): the question is open in that form
    proposing: bool
    #: tells the network driver that the person proposes or agrees to stop here (True), or declines it
    on_stop: Callable[[bool], None] | None
    quit_requested: bool
    leave_requested: bool

    @property
    def only_our_bots(self) -> bool:
        """Every other seat is a bot this machine runs: nobody waits for us when we leave."""
        others = [s for s in range(len(self.names)) if s != self.seat]
        return all(self.bots.get(s) == self.seat for s in others)

    # ================================================================= a stop by agreement
    def set_proposal(self, proposal: Proposal | None) -> None:
        """The driver's proposal to stop at the slot the table waits for (None: there is none): while it is
        open and we have not answered, the question is on the screen; once it lapses or we answered, not."""
        if proposal == self.proposal:
            return
        self.proposal = proposal
        asked = (proposal is not None and proposal.open and self.result is None
                 and self.seat not in proposal.agreed and self.seat not in proposal.declined)
        if asked and Overlay.STOP not in self.overlays:
            self.proposing = False
            self.overlays.open_under_questions(Overlay.STOP)
        elif not asked and not self.proposing:
            self.overlays.discard(Overlay.STOP)
        self._changed()

    def ask_stop(self) -> None:
        """`x`: propose to stop here (the question asks first), or answer the proposal on the table."""
        self.message = None
        p = self.proposal
        if self.result is not None:
            return
        if self.only_our_bots or self.on_stop is None:  # nobody else to agree with
            self.say(self.words.stop_alone(), "dim")
        elif p is not None and p.open and (self.seat in p.agreed or self.seat in p.declined):
            self.say(self.words.proposal_status(p), "dim")
        elif Overlay.STOP not in self.overlays:
            self.proposing = not (p is not None and p.open)
            self.overlays.append(Overlay.STOP)
        self._changed()

    def answer_stop(self, yes: bool | None) -> None:
        """The answer to the question: y proposes (or agrees), n declines another's proposal (or drops our
        own), None (Esc) closes the question and leaves the proposal to lapse by itself."""
        if self.top_overlay is not Overlay.STOP:
            return
        self.overlays.pop()
        proposing, self.proposing = self.proposing, False
        if yes is not None and (yes or not proposing) and self.on_stop is not None:
            self.on_stop(yes)
        self._changed()

    # ================================================================= leaving
    def request_quit(self) -> None:
        """`q` / Ctrl-C: ask for confirmation (leave at once when the game is over)."""
        self.message = None
        if self.result is not None:
            self.leave_requested = True
        elif self.top_overlay is not Overlay.QUIT:
            self.overlays.append(Overlay.QUIT)
        self._changed()

    def confirm_quit(self, yes: bool) -> None:
        if self.top_overlay is not Overlay.QUIT:
            return
        self.overlays.pop()
        if yes:
            self.quit_requested = True
            self.leave_requested = True
            if self._answer is not None and not self._answer.done():
                self._answer.cancel()
        self._changed()
