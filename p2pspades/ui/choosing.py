"""Choosing an answer on the game screen: the card cursor, typed card codes and bids, the cards marked for a
pass, and the answer given to the waiting player.

`Choosing` is the part of the model the keys drive while a decision is pending; `UiState` inherits it and
owns these fields (as it does `Derived`'s). It changes only the fields of the choice: which card is under the
cursor (`selected`), what has been typed (`typed`), the cards marked for a pass (`marked`), the dialog's
option (`choice`), the card asked about (`confirming`) and the prompt line's message (`message`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from p2pspades.describe.game import card_glyph
from p2pspades.i18n import _, ngettext
from p2pspades.printable import printable
from p2pspades.rules import Action, Bid, BlindNil, Card, Draw, Pass, Play, Rank, Suit
from p2pspades.table import Decision, DecisionKind
from p2pspades.ui import cardinput
from p2pspades.ui.derived import Derived
from p2pspades.ui.overlays import Overlay, OverlayStack
from p2pspades.ui.words import EventLine, Words

#: the decisions answered in a dialog (a row of options), not with a card
DIALOGS = (DecisionKind.BID, DecisionKind.BLIND_NIL, DecisionKind.DRAW)
#: the dialogs' one-key answers
_BLIND_NIL_KEYS: dict[str, Action] = {"y": BlindNil(True), "n": BlindNil(False)}
_DRAW_KEYS: dict[str, Action] = {"k": Draw(True), "d": Draw(False)}


class Choosing(Derived):
    """The keys' part of the game screen's model (mixed into `UiState`, which owns these fields)."""

    words: Words
    overlays: OverlayStack
    selected: Card | None
    typed: str
    marked: list[Card]
    choice: int
    confirming: Card | None
    confirm_card: bool
    message: EventLine | None
    on_change: Callable[[], None] | None
    _answer: asyncio.Future[Action] | None

    @property
    def top_overlay(self) -> Overlay | None:
        return self.overlays.top

    # ================================================================= the answer
    def answer(self, action: Action) -> bool:
        """Give the person's choice to the waiting player. False (and a message) if it is not legal now."""
        decision = self.decision
        if decision is None or self._answer is None or self._answer.done():
            self.say(_("nothing to decide right now"), "warn")
            return False
        if action not in decision.legal:
            allowed = [self.choice_label(a) for a in self.choices()]
            self.say(self.words.why_illegal(action, self.view, allowed), "warn")
            return False
        self._answer.set_result(action)
        self.decision = None
        self._clear_choice()
        self._changed()
        return True

    def _clear_choice(self) -> None:
        """Forget what was typed, marked and asked about: a new decision, or none, starts afresh."""
        self.typed = ""
        self.marked = []
        self.confirming = None

    def _default_choice(self, decision: Decision) -> int:
        """The lowest real bid (not nil), "no" to blind nil, "keep" for the draw pile."""
        options = self.choices()
        if decision.kind is DecisionKind.BID:
            for i, option in enumerate(options):
                if isinstance(option, Bid) and not self._is_nil(option):
                    return i
        return 0

    def _submit_choice(self, d: Decision) -> bool:
        """Enter with no overlay open: answer `d` with the typed code or bid, the cursor's card, the marked
        cards, or the dialog's option."""
        if d.kind is DecisionKind.PASS:
            return self._submit_pass()
        if d.kind is DecisionKind.PLAY:
            return self._submit_card(d)
        if d.kind is DecisionKind.BID and self.typed:
            wanted = int(self.typed)
            self.typed = ""
            return self.answer(Bid(wanted))
        options = self.choices()
        if not options:
            return False
        return self.answer(options[max(0, min(len(options) - 1, self.choice))])

    def _submit_card(self, d: Decision) -> bool:
        if self.typed:
            code, self.typed = self.typed, ""  # a refused code is typed again from scratch
            card = cardinput.card_of(code)
            if card is None:
                self.say(cardinput.why_not_a_card(code), "warn")
                return False
            if self._play(card, d):
                return True
            self._fix_selection()  # the highlight leaves the card just refused
            self._changed()
            return False
        if self.selected is None:
            self.say(_("no card to play"), "warn")
            return False
        return self._play(self.selected, d)

    def _play(self, card: Card, decision: Decision) -> bool:
        """Play `card`, or first ask whether to (with `confirm_card`, for a card the rules allow)."""
        if self.confirm_card and self.confirming is not card and Play(card) in decision.legal:
            self.confirming = card
            self.selected = card
            self._changed()
            return False
        return self.answer(Play(card))

    # ================================================================= the card cursor
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

    def move(self, delta: int) -> None:
        """Arrow keys: move the card cursor, or the dialog's choice."""
        self.message = None
        self.confirming = None
        if self.top_overlay is not None:
            return
        if self.kind in DIALOGS:
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

    # ================================================================= typing
    def type_key(self, key: str) -> bool:
        """A letter or digit typed while a decision is pending: part of a card code, a bid, or a dialog
        shortcut. False if the key means nothing here (so it may be a command key)."""
        before, self.message = self.message, None
        if not self._type_key(key.lower()):
            self.message = before
            return False
        self.confirming = None
        return True

    def _type_key(self, key: str) -> bool:
        kind = self.kind
        if self.top_overlay is not None or kind is None:
            return False
        if kind in (DecisionKind.PLAY, DecisionKind.PASS):
            return self._type_card(key)
        if kind is DecisionKind.BID:
            return self._type_bid(key)
        action = (_BLIND_NIL_KEYS if kind is DecisionKind.BLIND_NIL else _DRAW_KEYS).get(key)
        if action is None:
            return False
        self.answer(action)
        return True

    def _type_card(self, key: str) -> bool:
        """A key of a card code: the card it names, once it names one, goes under the cursor."""
        if not self.typed and not cardinput.starts_code(key, jokers=self.rules.jokers):
            return False
        if self.typed and not cardinput.continues_code(key):
            return False
        if len(self.typed) >= cardinput.MAX_LENGTH:
            self.say(cardinput.codes_help(), "warn")
            return True
        self.typed += key
        card = cardinput.card_of(self.typed)
        if card is not None and card in self.hand_cards():
            self.selected = card
        self._changed()
        return True

    def _type_bid(self, key: str) -> bool:
        """A digit of a bid (the dialog's option follows it), or `n` for nil."""
        if key == "n":
            return self._answer_nil()
        if not key.isdigit() or len(self.typed) >= 2:
            return False
        self.typed += key
        for i, option in enumerate(self.choices()):
            if isinstance(option, Bid) and str(option.tricks) == self.typed and option.tricks != 0:
                self.choice = i
        self._changed()
        return True

    def backspace(self) -> None:
        self.message = None
        self.typed = self.typed[:-1]
        self._changed()

    def clear_typed(self) -> None:
        """Esc: forget the typed code, and the card we asked about (choose again); the marks of a pass."""
        self._clear_choice()
        self._changed()

    def _is_nil(self, option: Action) -> bool:
        """A bid of nil: the bid of 0, where the rules have nil (elsewhere 0 is a number like any)."""
        return option == Bid(0) and self.rules.nil

    def _answer_nil(self) -> bool:
        nil = next((option for option in self.choices() if self._is_nil(option)), None)
        if nil is None:
            self.say(_("nil is not allowed here"), "warn")
            return True
        return self.answer(nil) or True

    # ================================================================= the nil card pass
    def mark(self) -> bool:
        """Space while we are to pass: mark the typed card, else the one under the cursor, for the pass (or
        unmark it). False (and the reason) for a card that may not be passed."""
        self.message = None
        if self.kind is not DecisionKind.PASS or self.top_overlay is not None:
            return False
        card = cardinput.card_of(self.typed) if self.typed else self.selected
        code, self.typed = self.typed, ""
        if card is None:
            self.say(cardinput.why_not_a_card(code) if code else _("no card to mark"), "warn")
            return False
        if card not in self.hand_cards():
            self.say(_("{card} is not in your hand").format(card=card_glyph(card)), "warn")
            return False
        self.selected = card
        if card in self.marked:
            self.marked.remove(card)
        elif card not in self.passable_cards():
            if self.passable_cards():
                why = _("{card} may not be passed: it was passed to you, and a card received stays")
            else:
                why = _("{card} may not be passed: not now")
            self.say(why.format(card=card_glyph(card)), "warn")
            return False
        else:
            self.marked.append(card)
        self._changed()
        return True

    def _submit_pass(self) -> bool:
        """Enter while we are to pass: pass the marked cards, if they are as many as the rule says."""
        size = self.rules.nil_pass
        if len(self.marked) != size:
            if len(self.marked) < size:
                text = ngettext("pass exactly {n} card: {marked} marked; Space on a card to mark it",
                                "pass exactly {n} cards: {marked} marked; Space on a card to mark it", size)
            else:
                text = ngettext("pass exactly {n} card: {marked} marked; Space on a card to unmark it",
                                "pass exactly {n} cards: {marked} marked; Space on a card to unmark it", size)
            self.say(text.format(n=size, marked=len(self.marked)), "warn")
            return False
        return self.answer(Pass(tuple(self.marked)))

    # ================================================================= the prompt line
    def decision_prompt(self) -> str | None:
        """The prompt line while a decision is pending: the keys that answer it, and what has been typed
        (None: no decision)."""
        kind = self.kind
        typed = f"  > {self.typed}_" if self.typed else ""
        if kind is DecisionKind.PLAY and self.confirming is not None:
            return _("play {card}? Enter plays, Esc chooses again").format(card=card_glyph(self.confirming))
        if kind is DecisionKind.PLAY:
            example = cardinput.typed_code(Card(Rank.QUEEN, Suit.HEARTS))
            said = _("Your turn: play a card (←/→ Enter, or type a code like {code})").format(code=example)
            return said + typed
        if kind is DecisionKind.PASS:
            return self.words.pass_prompt(self.view, len(self.marked)) + typed
        if kind is DecisionKind.BID:
            if self.rules.nil:
                return _("Your bid: ←/→ Enter, or type a number, n for nil")
            return _("Your bid: ←/→ Enter, or type a number")
        if kind is DecisionKind.BLIND_NIL:
            return _("Blind nil? Decide before you see your cards: y or n")
        if kind is DecisionKind.DRAW:
            return _("Draw: k keeps the top card, d discards it")
        return None

    def say(self, text: str, level: str = "info") -> None:
        """A message on the prompt line until the next key."""
        self.message = EventLine(printable(text), level)
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
