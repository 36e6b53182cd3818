"""The coach's advice in words (`bots.coach.Advice`: the expert's search of a bid or a card)."""

from __future__ import annotations

from p2pspades.bots.coach import Advice
from p2pspades.i18n import _


def advice_words(advice: Advice, limit: int = 3) -> str:
    """One line: "Q♠: makes the contract in 71% of deals, +38 net; 4♦: 58%, +21 net" (the choice first,
    then the best of the rest; net: the side's points from the hand less the other sides')."""
    first = advice.option(advice.choice)
    rest = [o for o in advice.options if o.action != advice.choice]
    shown = ([first] if first is not None else []) + rest[: max(0, limit - 1)]
    parts = []
    for i, o in enumerate(shown):
        share, net = f"{o.holds:.0%}", f"{o.points:+.0f}"
        if i and o.nil == shown[i - 1].nil:  # as the option before: its chance alone
            parts.append(_("{option}: {share}, {net} net").format(option=o.label, share=share, net=net))
        elif o.nil:
            parts.append(_("{option}: the nil holds in {share} of deals, {net} net").format(
                option=o.label, share=share, net=net))
        else:
            parts.append(_("{option}: makes the contract in {share} of deals, {net} net").format(
                option=o.label, share=share, net=net))
    # TRANSLATORS: between the options the coach weighed
    return _("; ").join(parts)
