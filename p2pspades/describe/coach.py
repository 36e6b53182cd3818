"""The coach's advice in words (`bots.coach.Advice`: the expert's search of a bid or a card)."""

from __future__ import annotations

from p2pspades.bots.coach import Advice
from p2pspades.describe.game import bid_text, card_glyph
from p2pspades.i18n import _, number
from p2pspades.rules import Action, Bid, Play, RuleSet


def option_text(action: Action, rules: RuleSet) -> str:
    """A card as the reader's language writes it (Q♠, D♠), a bid as its score sheet does ("bid 4", "bid
    nil")."""
    if isinstance(action, Bid):
        # TRANSLATORS: an option the coach weighed: a bid of {bid} ("4", "nil")
        return _("bid {bid}").format(bid=bid_text(action.tricks, False, rules))
    return move_text(action, rules)


def move_text(action: Action, rules: RuleSet) -> str:
    """A card as the reader's language writes it (Q♠, D♠), a bid alone ("4", "nil")."""
    if isinstance(action, Play):
        return card_glyph(action.card)
    if isinstance(action, Bid):
        return bid_text(action.tricks, False, rules)
    return str(action)


def advice_words(advice: Advice, rules: RuleSet, limit: int = 3) -> str:
    """One line: "Q♠: makes the contract in 71% of deals, +38 net; 4♦: 58%, +21 net" (the choice first,
    then the best of the rest; net: the side's points from the hand less the other sides')."""
    first = advice.option(advice.choice)
    rest = [o for o in advice.options if o.action != advice.choice]
    shown = ([first] if first is not None else []) + rest[: max(0, limit - 1)]
    parts = []
    for i, o in enumerate(shown):
        share, net, label = percent(o.holds), signed(o.points), option_text(o.action, rules)
        if i and o.nil == shown[i - 1].nil:  # as the option before: its chance alone
            parts.append(_("{option}: {share}, {net} net").format(option=label, share=share, net=net))
        elif o.nil:
            parts.append(_("{option}: the nil holds in {share} of deals, {net} net").format(
                option=label, share=share, net=net))
        else:
            parts.append(_("{option}: makes the contract in {share} of deals, {net} net").format(
                option=label, share=share, net=net))
    # TRANSLATORS: between the options the coach weighed
    return _("; ").join(parts)


def percent(share: float) -> str:
    """A share as the reader's locale writes a percentage ("71%", "71 %")."""
    # TRANSLATORS: a percentage ("71%"; French and German "71 %" with a no-break space)
    return _("{n}%").format(n=number(share * 100))


def signed(points: float) -> str:
    """Points with their sign ("+38", "-4")."""
    return ("+" if round(points) >= 0 else "-") + number(abs(points))
