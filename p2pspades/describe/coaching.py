"""The coach's and the review's words: one place, so the screen's hint and `p2pspades review` say the same
numbers the same way, in the language spoken.

Two numbers stand beside each option the coach weighed:
- **net**: the points the player's side can expect from this hand less the other side's (the other players'
  average, where every player scores alone), bags included as the expert counts them, and the game's result
  when the hand ends it;
- **a percentage**: of the deals the coach tried for the cards the player cannot see (each deal counting as
  far as it fits the bids made), the share in which the side makes its contract, or a nil holds.

`legend` says it in one line, for the screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pspades.describe.game import bid_text, card_glyph
from p2pspades.i18n import _, ngettext, number
from p2pspades.rules import Action, Bid, BlindBid, BlindNil, Play, RuleSet

if TYPE_CHECKING:
    from p2pspades.bots.coach import Advice, Option


def action_text(action: Action, rules: RuleSet, *, bare: bool = False) -> str:
    """A card as the language writes it, in the letters it is typed with (Q♠; D♠ in German); a bid as the
    score sheet writes it (bid 4, bid nil; with `bare`, 4, nil); a blind-nil answer (blind nil, no blind nil)
    or a blind bid (bid 6 blind)."""
    if isinstance(action, Play):
        return card_glyph(action.card)
    if isinstance(action, Bid):
        bid = bid_text(action.tricks, False, rules)
        # TRANSLATORS: an option the coach weighed: a bid of {bid} ("4", "nil")
        return bid if bare else _("bid {bid}").format(bid=bid)
    if isinstance(action, BlindNil):
        return _("blind nil") if action.declare else _("no blind nil")
    if isinstance(action, BlindBid):
        return (_("{tricks} blind") if bare else _("bid {tricks} blind")).format(tricks=action.tricks)
    return str(action)


def percent(share: float) -> str:
    """A share of the deals as a percentage, as the language writes one: "71%" ("71 %" in German)."""
    # TRANSLATORS: a percentage ("71%"; French and German "71 %" with a no-break space)
    return _("{percent}%").format(percent=number(share * 100))


def signed(points: float) -> str:
    """Points with their sign, whole, as the language writes a number: "+38", "-69", "+1.230" in German."""
    whole = round(points)
    return ("+" if whole >= 0 else "-") + number(abs(whole))


def chance(option: Option, terse: bool = False) -> str:
    """The option's percentage in words: "contract made in 71%", "nil holds in 64%" ("contract made 71%",
    "nil holds 64%" when `terse`)."""
    if option.nil:
        said = _("nil holds {percent}") if terse else _("nil holds in {percent}")
    else:
        said = _("contract made {percent}") if terse else _("contract made in {percent}")
    return said.format(percent=percent(option.holds))


WIDTH = 79
"""The prompt line's room on the smallest screen (80 columns, one taken by the margin)."""


def advice_line(advice: Advice, rules: RuleSet, limit: int = 2) -> str:
    """The coach's hint in one line, its choice first: "coach: Q♠ (+38 net, contract made 71%) · 4♦ +21,
    58% · h: meaning". A percentage says what it is of again when that changes (a nil beside a contract);
    the pointer to the legend (`legend`, key h again), then the options after the first, are left out where
    the line has no room."""
    first = advice.best
    parts = [_("coach: {choice} ({net} net, {chance})").format(
        choice=action_text(advice.choice, rules), net=signed(first.points), chance=chance(first, terse=True))]
    for o in [o for o in advice.options if o is not first][: max(0, limit - 1)]:
        what = percent(o.holds)
        if o.nil != first.nil:  # a nil beside a contract, or the other way round: say which
            what = (_("nil {percent}") if o.nil else _("contract {percent}")).format(percent=what)
        parts.append(_("{choice} {net}, {percent}").format(
            choice=action_text(o.action, rules), net=signed(o.points), percent=what))
    while len(parts) > 1 and len(" · ".join(parts)) > WIDTH:  # a longer language: fewer options
        parts.pop()
    line = " · ".join(parts)
    hint = " · " + _("h: meaning")
    return line + hint if len(line) + len(hint) <= WIDTH else line


def legend(rules: RuleSet, deals: int | None = None, *, spelled: bool = False) -> str:
    """What the coach's numbers mean, in one line of at most `WIDTH` characters where the language allows
    (`deals`: how many it tried); `spelled`: for a page rather than the prompt line, "a percentage" for "%",
    whatever its length."""
    if rules.partnerships:
        net = _("net: your side's points this hand less theirs, with bags") if len(rules.sides) == 2 else \
            _("net: your side's points this hand less the others' mean, with bags")
    else:
        net = _("net: your points this hand less theirs, with bags") if len(rules.sides) == 2 else \
            _("net: your points this hand less the others' mean, with bags")
    if spelled:  # for a page, not the prompt line
        return _("{net}; {percentages}").format(net=net, percentages=_("a percentage: of the deals tried"))
    shares = [_("%: of the deals tried"), _("%: of the deals")]
    if deals is not None:
        count = number(deals)
        shares[:0] = [
            ngettext("%: of {deals} deal tried", "%: of {deals} deals tried", deals).format(deals=count),
            ngettext("%: of {deals} deal", "%: of {deals} deals", deals).format(deals=count)]
    lines = [_("{net}; {percentages}").format(net=net, percentages=share) for share in shares]
    return next((line for line in lines if len(line) <= WIDTH), lines[-1])


def given_up(advice: Advice, taken: Option, chosen: Action, rules: RuleSet) -> str:
    """What a decision gave up, in words: "your side expected -69 net this hand with A♣ (contract made in
    40% of 250 deals); the expert's 7♣ expected -40 (80%)"."""
    best = advice.best
    if rules.partnerships:
        said = ngettext("your side expected {net} net this hand with {chosen} ({chance} of {deals} deal); "
                        "the expert's {choice} expected {best} ({best_chance})",
                        "your side expected {net} net this hand with {chosen} ({chance} of {deals} deals); "
                        "the expert's {choice} expected {best} ({best_chance})", advice.deals)
    else:
        said = ngettext("you expected {net} net this hand with {chosen} ({chance} of {deals} deal); the "
                        "expert's {choice} expected {best} ({best_chance})",
                        "you expected {net} net this hand with {chosen} ({chance} of {deals} deals); the "
                        "expert's {choice} expected {best} ({best_chance})", advice.deals)
    best_chance = percent(best.holds) if taken.nil == best.nil else chance(best)
    return said.format(net=signed(taken.points), chosen=action_text(chosen, rules), chance=chance(taken),
                       deals=number(advice.deals), choice=action_text(advice.choice, rules),
                       best=signed(best.points), best_chance=best_chance)
