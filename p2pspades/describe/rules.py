"""The options of a rule set in words: the list `p2pspades rules` prints (each option's meaning), and the
short summary of what a table plays differently from the standard game, which the lobby, the game screen and
the records show.

Both are derived from the fields of `RuleSet` and the tables of words here, keyed by the option's name, so a
new option appears here without a second list to keep up to date (a test holds both tables to the fields).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from p2pspades.rules.ruleset import RuleSet, allowed_values, value_type

#: what each option of `RuleSet` means, in one line (`p2pspades rules` prints it beside the option's type,
#: values and default); a test holds it to the fields, so a new option without a meaning fails
MEANINGS: Mapping[str, str] = MappingProxyType(
    {
        "players": "seats at the table",
        "partnerships": "two sides of two, partners opposite; false: each player for themselves",
        "jokers": "add the little and big jokers (LJ, BJ) as the two highest spades",
        "removed": "cards taken out of the pack; nil: the default for the number of players",
        "deal": "deal every card, or the two-player draw pile",
        "min_bid": "the lowest bid other than nil",
        "nil": "a bid of 0 (nil) is allowed",
        "nil_value": "points a nil scores when made, loses when failed",
        "blind_nil": "blind nil (nil bid before seeing the cards) is allowed",
        "blind_nil_value": "points a blind nil scores when made, loses when failed",
        "blind_nil_margin": "how far a side must trail to be offered blind nil",
        "nil_tricks_count_for_partner": "a nil bidder's tricks count toward the partner's contract",
        "first_bidder": "who bids first: the dealer's left, or the dealer",
        "first_leader": "who leads the first trick: the dealer's left, the dealer, or the lowest club",
        "spade_lead": "when spades may be led: once broken, after the first trick, or any time",
        "overtrick_points": "points per bag (overtrick) in a made contract: 1, or -10 for sandbags",
        "bag_limit": "every bag_limit bags carried cost bag_penalty; nil: bags cost nothing more",
        "bag_penalty": "what reaching bag_limit bags costs",
        "failed_contract": "a failed contract scores 0, or -10 per trick bid",
        "target": "a side that reaches it ends the game",
        "losing_threshold": "a side that falls to it ends the game; nil: no such floor",
        "tie": "an equal top score at the end: play another hand, or share the win",
        "renege": "the penalty for a renege the end-of-hand audit finds: the side is set, 3 tricks, or stop",
        "on_fault": "a game that ends on a fault: the offender's side loses (forfeit), or nobody wins (void)",
        "void_proofs": "protocol 2: a card off the led suit carries a proof that the seat holds none of it",
        "min_team_bid": "house rule: a side's combined bid must reach it (not a side with a nil); 0: none",
        "double_nil": "house rule: both partners may bid nil in one hand; false: the second may not",
        "ten_for_200": "house rule 10 for 200: a made contract of 10 or more scores ten_for_200_value more",
        "ten_for_200_value": "the 10 for 200 bonus",
        "boston": "house rule Boston: a side taking every trick scores boston_value more, or wins the game",
        "boston_value": "the Boston bonus (with boston bonus)",
        "nil_bags": "a nil bidder's tricks are bags of its side; false: they are not",
        "nil_pass": "house rule: a nil bidder and its partner pass this many cards to each other; 0: none",
        "deuces_high": "house rule deuces high: 2S then 2D rank above the ace of spades, below the jokers; "
        "2D is a spade",
        "bid_mode": "how seats bid: free; mirror (the spades held); whiz (the spades held, or nil); "
        "suicide (one partner of each side nil)",
        "blind_bid": "house rule: a side trailing by blind_bid_margin may bid tricks blind, scored double",
        "blind_bid_margin": "how far a side must trail to be offered a blind bid",
        "blind_bid_min": "the lowest blind bid",
        "preset": "a label: the preset the rule set started from; no effect on play",
    }
)

STANDARD = RuleSet()
"""The defaults of every option: the classic partnership game."""


class Option(NamedTuple):
    """One option of a rule set, for people: its name, type and values (as PROTOCOL.md §3.1 writes them),
    its default and what it means."""

    name: str
    type: str
    allowed: str
    default: object
    meaning: str


def _names() -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(RuleSet))


def options() -> tuple[Option, ...]:
    """Every option of `RuleSet`, in the order of its fields."""
    return tuple(
        Option(name, value_type(name), allowed_values(name), getattr(STANDARD, name), MEANINGS[name])
        for name in _names()
    )


def value_text(value: object) -> str:
    """An option's value as the rule-set map writes it: true, false, nil, 4, "left", [2C, 2D]."""
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(str(item) for item in value) + "]"
    return str(value)


def _removed(r: RuleSet) -> str:
    cards = " ".join(card.code for card in r.removed_cards)
    return f"without {cards}" if cards else "the whole pack"


def _bag_limit(r: RuleSet) -> str:
    return "no bag penalty" if r.bag_limit is None else f"bag penalty every {r.bag_limit} bags"


_PHRASES: Mapping[str, Callable[[RuleSet], str]] = MappingProxyType(
    {
        "players": lambda r: f"{r.players} players",
        "partnerships": lambda r: "partners" if r.partnerships else "each for themselves",
        "jokers": lambda r: "jokers" if r.jokers else "no jokers",
        "removed": _removed,
        "deal": lambda r: "draw pile" if r.deal == "draw" else "every card dealt",
        "min_bid": lambda r: f"bids from {r.min_bid}",
        "nil": lambda r: "nil" if r.nil else "no nil",
        "nil_value": lambda r: f"nil ±{r.nil_value}" if r.nil else "",
        "blind_nil": lambda r: ("blind nil" if r.blind_nil else "no blind nil") if r.nil else "",
        "blind_nil_value": lambda r: f"blind nil ±{r.blind_nil_value}" if r.blind_nil else "",
        "blind_nil_margin": lambda r: f"blind nil when {r.blind_nil_margin} behind" if r.blind_nil else "",
        "nil_tricks_count_for_partner": lambda r: (
            "a nil's tricks count for the partner" if r.nil_tricks_count_for_partner
            else "a nil's tricks do not count for the partner"),
        "first_bidder": lambda r: "dealer bids first" if r.first_bidder == "dealer" else "left bids first",
        "first_leader": lambda r: {"left": "left leads first", "dealer": "dealer leads first",
                                   "low_club": "the lowest club leads"}[r.first_leader],
        "spade_lead": lambda r: {"broken": "spades led once broken", "always": "spades led any time",
                                 "not_first_trick": "spades led after the first trick"}[r.spade_lead],
        "overtrick_points": lambda r: "bags +1" if r.overtrick_points > 0 else "sandbags -10",
        "bag_limit": _bag_limit,
        "bag_penalty": lambda r: f"bag penalty -{r.bag_penalty}" if r.bag_limit is not None else "",
        "failed_contract": lambda r: "a set scores 0" if r.failed_contract == "zero" else "a set costs 10x",
        "target": lambda r: "",  # shown on its own wherever the rules are named ("house to 500")
        "losing_threshold": lambda r: (
            "no losing floor" if r.losing_threshold is None else f"out at {r.losing_threshold}"),
        "tie": lambda r: "a tie shares the win" if r.tie == "shared" else "a tie plays on",
        "renege": lambda r: {"set": "a renege sets the side", "three_tricks": "a renege costs 3 tricks",
                             "stop": "a renege stops the game"}[r.renege],
        "on_fault": lambda r: "a fault voids the game" if r.on_fault == "void" else "a fault forfeits",
        "void_proofs": lambda r: "void proofs" if r.void_proofs else "no void proofs",
        "min_team_bid": lambda r: f"min team bid {r.min_team_bid}" if r.min_team_bid else "no min team bid",
        "double_nil": lambda r: "double nil" if r.double_nil else "no double nil",
        "ten_for_200": lambda r: f"10 for {r.ten_for_200_value}" if r.ten_for_200 else "no 10 for 200",
        "ten_for_200_value": lambda r: "",  # said with ten_for_200, which is on whenever the value counts
        "boston": lambda r: {"none": "no Boston", "bonus": f"Boston +{r.boston_value}",
                             "win": "Boston wins the game"}[r.boston],
        "boston_value": lambda r: "",  # said with boston, which is "bonus" whenever the value counts
        "nil_bags": lambda r: "a nil's tricks are bags" if r.nil_bags else "a nil's tricks are no bags",
        "nil_pass": lambda r: f"nil pass {r.nil_pass}" if r.nil_pass else "no nil pass",
        "deuces_high": lambda r: "deuces high" if r.deuces_high else "no deuces high",
        "bid_mode": lambda r: {"free": "free bids", "mirror": "mirror bids", "whiz": "whiz bids",
                               "suicide": "suicide bids"}[r.bid_mode],
        "blind_bid": lambda r: (f"blind {r.blind_bid_min}+ when {r.blind_bid_margin} behind" if r.blind_bid
                                else "no blind bids"),
        "blind_bid_margin": lambda r: "",  # said with blind_bid, which is on whenever the margin counts
        "blind_bid_min": lambda r: "",  # said with blind_bid
        "preset": lambda r: "",  # the name, not an option of play
    }
)
"""Each option's value in a few words. "" for an option that is said elsewhere or has no effect."""

def summary(rules: RuleSet) -> str:
    """What the rule set plays differently from the standard (classic) game, in short words:
    "min team bid 4, 10 for 200, Boston +200"; "" for the standard game. The target is left out: it is
    shown with the rules' name."""
    words = (_PHRASES[name](rules) for name in _names() if getattr(rules, name) != getattr(STANDARD, name))
    return ", ".join(word for word in words if word)


def described(rules: RuleSet) -> str:
    """The rule set's name with its summary: "house (min team bid 4, 10 for 200, Boston +200)", "classic"."""
    name = rules.preset or "custom"
    said = summary(rules)
    return f"{name} ({said})" if said else name
