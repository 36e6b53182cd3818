"""The coach on the game screen (key h): the expert's choice for our seat's bid or card, searched from our
seat's view alone in a worker thread (the screen goes on meanwhile), said on the prompt line; the cursor moves
to it.

`Coaching` is mixed into `UiState`, which owns its fields (as it does `Choosing`'s).
"""

from __future__ import annotations

import asyncio

from p2pspades.bots.coach import Advice, advise
from p2pspades.describe.coaching import advice_line, legend
from p2pspades.i18n import _
from p2pspades.rules import Play
from p2pspades.table import Decision, DecisionKind
from p2pspades.ui.choosing import Choosing

COACHED = (DecisionKind.BLIND_NIL, DecisionKind.BID, DecisionKind.PLAY)
"""The decisions the coach (key h) weighs."""


class Coaching(Choosing):
    """The coach's part of the game screen's model (mixed into `UiState`, which owns these fields)."""

    #: the decision the coach is searching, while it searches
    coaching: Decision | None
    #: the coach's last advice, and the decision it is for
    advice: tuple[Decision, Advice] | None

    def coach(self) -> None:
        """`h`: search the expert's choice for the pending bid or card (`h` again: what its numbers mean)."""
        decision = self.decision
        if decision is None or decision.kind not in COACHED:
            self.say(_("the coach (h) answers when it is your turn to bid or play"), "dim")
            return
        if self.advice is not None and self.advice[0] is decision:  # h again: what the numbers mean
            self.say(legend(self.rules, self.advice[1].deals))
            return
        if len(decision.legal) < 2:
            self.say(_("coach: there is only one thing you may do"), "dim")
            return
        if self.coaching is decision:
            return
        self.coaching = decision
        self.say(_("coach: thinking…"), "dim")
        future = asyncio.get_running_loop().run_in_executor(None, advise, decision)
        future.add_done_callback(lambda done: self._coached(decision, done))

    def _coached(self, decision: Decision, done: asyncio.Future[Advice | None]) -> None:
        if self.coaching is decision:
            self.coaching = None
        if done.cancelled() or decision is not self.decision:
            return  # the moment passed
        error = done.exception()
        if error is not None:
            self.say(_("the coach could not search: {error}").format(error=error), "warn")
            return
        advice = done.result()
        if advice is None:
            self.say(_("coach: there is nothing to weigh here"), "dim")
            return
        self.advice = (decision, advice)
        self.say(advice_line(advice, self.rules))
        choice = advice.choice
        if isinstance(choice, Play):
            self.selected = choice.card
        elif choice in self.choices():
            self.choice = self.choices().index(choice)
        self._changed()
