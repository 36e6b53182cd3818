"""A rule set in words, in the language spoken: what each option means (`p2pspades rules`), and the few words
that say what a table plays differently from the classic game ("min team bid 4, 10 for 200, Boston +200"),
which the lobby, the game screen, the table list and the records show.

`rules/options.py` gives the data (each option's name, type, values and default, and which options differ);
the words are here, so the rules layer stays free of any language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from p2pspades.i18n import N_, _, ngettext, pgettext
from p2pspades.rules import RuleSet
from p2pspades.rules.options import differences

_MEANINGS: Mapping[str, str] = MappingProxyType(
    {
        "players": N_("seats at the table"),
        "partnerships": N_("two sides of two, partners opposite; false: each player for themselves"),
        "jokers": N_("add the little and big jokers (LJ, BJ) as the two highest spades"),
        "removed": N_("cards taken out of the pack; nil: the default for the number of players"),
        "deal": N_("deal every card, or the two-player draw pile"),
        "min_bid": N_("the lowest bid other than nil"),
        "nil": N_("a bid of 0 (nil) is allowed"),
        "nil_value": N_("points a nil scores when made, loses when failed"),
        "blind_nil": N_("blind nil (nil bid before seeing the cards) is allowed"),
        "blind_nil_value": N_("points a blind nil scores when made, loses when failed"),
        "blind_nil_margin": N_("how far a side must trail to be offered blind nil"),
        "nil_tricks_count_for_partner": N_("a nil bidder's tricks count toward the partner's contract"),
        "first_bidder": N_("who bids first: the dealer's left, or the dealer"),
        "first_leader": N_("who leads the first trick: the dealer's left, the dealer, or the lowest club"),
        "spade_lead": N_("when spades may be led: once broken, after the first trick, or any time"),
        "overtrick_points": N_("points per bag (overtrick) in a made contract: 1, or -10 for sandbags"),
        "bag_limit": N_("every bag_limit bags carried cost bag_penalty; nil: bags cost nothing more"),
        "bag_penalty": N_("what reaching bag_limit bags costs"),
        "failed_contract": N_("a failed contract scores 0, or -10 per trick bid"),
        "target": N_("a side that reaches it ends the game"),
        "losing_threshold": N_("a side that falls to it ends the game; nil: no such floor"),
        "tie": N_("an equal top score at the end: play another hand, or share the win"),
        "renege": N_("the penalty for a renege the end-of-hand audit finds: the side is set, 3 tricks, or "
                     "stop"),
        "on_fault": N_("a game that ends on a fault: the offender's side loses (forfeit), or nobody wins "
                       "(void)"),
        "void_proofs": N_("protocol 2: a card off the led suit carries a proof that the seat holds none of "
                          "it"),
        "min_team_bid": N_("house rule: a side's combined bid must reach it (not a side with a nil); 0: "
                           "none"),
        "double_nil": N_("house rule: both partners may bid nil in one hand; false: the second may not"),
        "ten_for_200": N_("house rule 10 for 200: a made contract of 10 or more scores ten_for_200_value "
                          "more"),
        "ten_for_200_value": N_("the 10 for 200 bonus"),
        "boston": N_("house rule Boston: a side taking every trick scores boston_value more, or wins the "
                     "game"),
        "boston_value": N_("the Boston bonus (with boston bonus)"),
        "nil_bags": N_("a nil bidder's tricks are bags of its side; false: they are not"),
        "nil_pass": N_("house rule: a nil bidder and its partner pass this many cards to each other; 0: "
                       "none"),
        "deuces_high": N_("house rule deuces high: 2S then 2D rank above the ace of spades, below the "
                          "jokers; 2D is a spade"),
        "bid_mode": N_("how seats bid: free; mirror (the spades held); whiz (the spades held, or nil); "
                       "suicide (one partner of each side nil)"),
        "blind_bid": N_("house rule: a side trailing by blind_bid_margin may bid tricks blind, scored "
                        "double"),
        "blind_bid_margin": N_("how far a side must trail to be offered a blind bid"),
        "blind_bid_min": N_("the lowest blind bid"),
        "preset": N_("a label: the preset the rule set started from; no effect on play"),
    }
)
"""What each option of `RuleSet` means, in one line (a test holds it to the fields)."""


def meaning(name: str) -> str:
    """What the option `name` means, in one line."""
    return _(_MEANINGS[name])


_ALLOWED: Mapping[str, str] = MappingProxyType({
    # TRANSLATORS: the values a rule option takes, in `p2pspades rules` ("hand size": the tricks of a hand)
    "0..hand size": N_("0..hand size"),
    "card codes": N_("card codes"),
    "non-empty": N_("non-empty"),
})


def values_text(kind: str, allowed: str) -> str:
    """The values an option takes, for a person, from its type and values as PROTOCOL.md §3.1 writes them
    ("int or nil", ">= 1"): ">= 1, nil"; "true, false"; "0..hand size" in the reader's words."""
    values = _(_ALLOWED[allowed]) if allowed in _ALLOWED else allowed
    return f"{values}, nil" if kind.endswith("or nil") else values


def _choice(value: str, words: Mapping[str, str]) -> str:
    return _(words[value])


def _removed(r: RuleSet) -> str:
    cards = " ".join(card.code for card in r.removed_cards)
    return _("without {cards}").format(cards=cards) if cards else _("the whole pack")


def _bag_limit(r: RuleSet) -> str:
    if r.bag_limit is None:
        return _("no bag penalty")
    every = ngettext("bag penalty every {n} bag", "bag penalty every {n} bags", r.bag_limit)
    return every.format(n=r.bag_limit)


def _blind_bid(r: RuleSet) -> str:
    if not r.blind_bid:
        return _("no blind bids")
    return _("blind {min}+ when {margin} behind").format(min=r.blind_bid_min, margin=r.blind_bid_margin)


_PHRASES: Mapping[str, Callable[[RuleSet], str]] = MappingProxyType(
    {
        "players": lambda r: ngettext("{n} player", "{n} players", r.players).format(n=r.players),
        "partnerships": lambda r: _("partners") if r.partnerships else _("each for themselves"),
        "jokers": lambda r: _("jokers") if r.jokers else _("no jokers"),
        "removed": _removed,
        "deal": lambda r: _("draw pile") if r.deal == "draw" else _("every card dealt"),
        "min_bid": lambda r: _("bids from {n}").format(n=r.min_bid),
        "nil": lambda r: pgettext("rule", "nil") if r.nil else _("no nil"),
        "nil_value": lambda r: _("nil ±{points}").format(points=r.nil_value) if r.nil else "",
        "blind_nil": lambda r: ((pgettext("rule", "blind nil") if r.blind_nil else _("no blind nil")) if r.nil
                                else ""),
        "blind_nil_value": lambda r: (_("blind nil ±{points}").format(points=r.blind_nil_value) if r.blind_nil
                                      else ""),
        "blind_nil_margin": lambda r: (_("blind nil when {points} behind").format(points=r.blind_nil_margin)
                                       if r.blind_nil else ""),
        "nil_tricks_count_for_partner": lambda r: (
            _("a nil's tricks count for the partner") if r.nil_tricks_count_for_partner
            else _("a nil's tricks do not count for the partner")),
        "first_bidder": lambda r: (_("dealer bids first") if r.first_bidder == "dealer"
                                   else _("left bids first")),
        "first_leader": lambda r: _choice(r.first_leader, {
            "left": N_("left leads first"), "dealer": N_("dealer leads first"),
            "low_club": N_("the lowest club leads")}),
        "spade_lead": lambda r: _choice(r.spade_lead, {
            "broken": N_("spades led once broken"), "always": N_("spades led any time"),
            "not_first_trick": N_("spades led after the first trick")}),
        "overtrick_points": lambda r: _("bags +1") if r.overtrick_points > 0 else _("sandbags -10"),
        "bag_limit": _bag_limit,
        "bag_penalty": lambda r: (_("bag penalty -{points}").format(points=r.bag_penalty)
                                  if r.bag_limit is not None else ""),
        "failed_contract": lambda r: (_("a set scores 0") if r.failed_contract == "zero"
                                      else _("a set costs 10x")),
        "target": lambda r: "",  # shown on its own wherever the rules are named ("house to 500")
        "losing_threshold": lambda r: (_("no losing floor") if r.losing_threshold is None
                                       else _("out at {points}").format(points=r.losing_threshold)),
        "tie": lambda r: _("a tie shares the win") if r.tie == "shared" else _("a tie plays on"),
        "renege": lambda r: _choice(r.renege, {
            "set": N_("a renege sets the side"), "three_tricks": N_("a renege costs 3 tricks"),
            "stop": N_("a renege stops the game")}),
        "on_fault": lambda r: _("a fault voids the game") if r.on_fault == "void" else _("a fault forfeits"),
        "void_proofs": lambda r: _("void proofs") if r.void_proofs else _("no void proofs"),
        "min_team_bid": lambda r: (_("min team bid {n}").format(n=r.min_team_bid) if r.min_team_bid
                                   else _("no min team bid")),
        "double_nil": lambda r: _("double nil") if r.double_nil else _("no double nil"),
        "ten_for_200": lambda r: (_("10 for {points}").format(points=r.ten_for_200_value) if r.ten_for_200
                                  else _("no 10 for 200")),
        "ten_for_200_value": lambda r: "",  # said with ten_for_200, which is on whenever the value counts
        "boston": lambda r: _choice(r.boston, {
            "none": N_("no Boston"), "win": N_("Boston wins the game"),
            "bonus": N_("Boston +{points}")}).format(points=r.boston_value),
        "boston_value": lambda r: "",  # said with boston, which is "bonus" whenever the value counts
        "nil_bags": lambda r: _("a nil's tricks are bags") if r.nil_bags else _("a nil's tricks are no bags"),
        "nil_pass": lambda r: _("nil pass {n}").format(n=r.nil_pass) if r.nil_pass else _("no nil pass"),
        "deuces_high": lambda r: _("deuces high") if r.deuces_high else _("no deuces high"),
        "bid_mode": lambda r: _choice(r.bid_mode, {
            "free": N_("free bids"), "mirror": N_("mirror bids"), "whiz": N_("whiz bids"),
            "suicide": N_("suicide bids")}),
        "blind_bid": _blind_bid,
        "blind_bid_margin": lambda r: "",  # said with blind_bid, which is on whenever the margin counts
        "blind_bid_min": lambda r: "",  # said with blind_bid
        "preset": lambda r: "",  # the name, not an option of play
    }
)
"""Each option's value in a few words. "" for an option that is said elsewhere or has no effect."""


def phrase(name: str, rules: RuleSet) -> str:
    """The option `name` of `rules` in a few words ("" where another option says it)."""
    return _PHRASES[name](rules)


def summary(rules: RuleSet) -> str:
    """What the rule set plays differently from the standard (classic) game, in short words:
    "min team bid 4, 10 for 200, Boston +200"; "" for the standard game. The target is left out: it is
    shown with the rules' name."""
    words = (phrase(name, rules) for name in differences(rules))
    # TRANSLATORS: what separates the options in a list of them ("min team bid 4, 10 for 200")
    return _(", ").join(word for word in words if word)


def described(rules: RuleSet) -> str:
    """The rule set's name with its summary: "house (min team bid 4, 10 for 200, Boston +200)", "classic"."""
    name = rules.preset or _("custom")
    said = summary(rules)
    return _("{name} ({options})").format(name=name, options=said) if said else name
