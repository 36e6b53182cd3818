"""The coach's and the review's words: one place, so the screen's hint and `p2pspades review` say the same
numbers the same way.

Two numbers stand beside each option the coach weighed:
- **net**: the points the player's side can expect from this hand less the other side's (the other players'
  average, where every player scores alone), bags included as the expert counts them, and the game's result
  when the hand ends it;
- **a percentage**: of the deals the coach tried for the cards the player cannot see (each deal counting as
  far as it fits the bids made), the share in which the side makes its contract, or a nil holds.

`legend` says it in one line, for the screen.
"""

from __future__ import annotations

from p2pspades.bots.coach import Advice, Option
from p2pspades.rules import Action, Bid, BlindBid, BlindNil, Play, RuleSet, bid_notation


def action_text(action: Action, rules: RuleSet) -> str:
    """A card as the screen shows it (Q♠); a bid as the score sheet writes it (bid 4, bid nil); a blind-nil
    answer (blind nil, no blind nil) or a blind bid (bid 6 blind)."""
    if isinstance(action, Play):
        return action.card.glyph
    if isinstance(action, Bid):
        return "bid " + bid_notation(action.tricks, False, rules)
    if isinstance(action, BlindNil):
        return "blind nil" if action.declare else "no blind nil"
    if isinstance(action, BlindBid):
        return f"bid {action.tricks} blind"
    return str(action)


def chance(option: Option, short: bool = False, terse: bool = False) -> str:
    """The option's percentage in words: "contract made in 71%", "nil holds in 64%" ("71%" when `short`;
    "contract made 71%", "nil holds 64%" when `terse`)."""
    if short:
        return f"{option.holds:.0%}"
    return f"{'nil holds' if option.nil else 'contract made'}{'' if terse else ' in'} {option.holds:.0%}"


WIDTH = 79
"""The prompt line's room on the smallest screen (80 columns, one taken by the margin)."""


def advice_line(advice: Advice, rules: RuleSet, limit: int = 2) -> str:
    """The coach's hint in one line, its choice first: "coach: Q♠ (+38 net, contract made 71%) · 4♦ +21,
    58% · h: meaning". A percentage says what it is of again when that changes (a nil beside a contract);
    the pointer to the legend (`legend`, key h again) is left out where the line has no room."""
    first = advice.best
    said = chance(first, terse=True)
    head = f"coach: {action_text(advice.choice, rules)} ({first.points:+.0f} net, {said})"
    rest = [o for o in advice.options if o is not first][: max(0, limit - 1)]
    parts = [head]
    for o in rest:
        what = f"{o.holds:.0%}"
        if o.nil != first.nil:  # a nil beside a contract, or the other way round: say which
            what = ("nil " if o.nil else "contract ") + what
        parts.append(f"{action_text(o.action, rules)} {o.points:+.0f}, {what}")
    line = " · ".join(parts)
    hint = " · h: meaning"
    return line + hint if len(line) + len(hint) <= WIDTH else line


def legend(rules: RuleSet, deals: int | None = None) -> str:
    """What the coach's numbers mean, in one line of at most `WIDTH` characters (`deals`: how many it
    tried)."""
    theirs = "the others' mean" if len(rules.sides) > 2 or not rules.partnerships else "theirs"
    whose = "your side's" if rules.partnerships else "your"
    tried = "the deals tried" if deals is None else f"{deals} deals tried"
    line = f"net: {whose} points this hand less {theirs}, with bags; %: of {tried}"
    return line if len(line) <= WIDTH else line.removesuffix(" tried")


def expected(option: Option, action: Action, rules: RuleSet) -> str:
    """What one option leads to, for the review: "A♣: -69 net, contract made in 40%"."""
    return f"{action_text(action, rules)}: {option.points:+.0f} net, {chance(option)}"


def given_up(advice: Advice, taken: Option, chosen: Action, rules: RuleSet) -> str:
    """What a decision gave up, in words: "your side expected -69 net this hand with A♣ (contract made in
    40% of 250 deals); the expert's 7♣ expected -40 (80%): 29 points"."""
    best = advice.best
    whose = "your side" if rules.partnerships else "you"
    return (f"{whose} expected {taken.points:+.0f} net this hand with {action_text(chosen, rules)} "
            f"({chance(taken)} of {advice.deals} deals); the expert's {action_text(advice.choice, rules)} "
            f"expected {best.points:+.0f} ({chance(best, taken.nil == best.nil)})")
