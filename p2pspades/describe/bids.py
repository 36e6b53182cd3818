"""A bid in the reader's words: "4", "nil", "blind nil", "blind 5", or "-" while not bid yet.

The records for tools keep `rules.bid_notation` (English codes); what a person reads goes through here.
"""

from __future__ import annotations

from p2pspades.i18n import _, pgettext
from p2pspades.rules import RuleSet


def bid_text(bid: int | None, blind: bool, rules: RuleSet, *, short: bool = False) -> str:
    """A bid as the score sheet writes it: "blind nil", "nil", "blind 4", "4", or "-" while not bid yet.
    `short`, for narrow columns and one-line summaries: "bn", "n", "b4" (in the reader's letters)."""
    if blind and bid:
        # TRANSLATORS: a blind bid of {n} tricks, short for a narrow column ("b5")
        return (pgettext("bid", "b{n}") if short else _("blind {n}")).format(n=bid)
    if blind:
        # TRANSLATORS: blind nil, short for a narrow column ("bn")
        return pgettext("bid", "bn") if short else _("blind nil")
    if bid is None:
        return "-"
    if bid == 0 and rules.nil:
        # TRANSLATORS: nil, short for a narrow column ("n")
        return pgettext("bid", "n") if short else _("nil")
    return str(bid)
