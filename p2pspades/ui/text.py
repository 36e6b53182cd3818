"""Words and card text shared by the game screen, the lobby and the replay viewer.

Pure functions of game values, so the screens stay thin and the wording is the same everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from p2pspades.describe import bonuses
from p2pspades.describe.rules import described
from p2pspades.printable import clip as clip
from p2pspades.printable import pad
from p2pspades.printable import plural as plural
from p2pspades.printable import width as display_width
from p2pspades.rules import Card, HandResult, RuleSet, RuleSetError, Suit, bid_notation
from p2pspades.rules import sort_hand as sort_hand
from p2pspades.rules.scoring import HandScore
from p2pspades.table.genesis import After

RED_SUITS = frozenset({Suit.HEARTS, Suit.DIAMONDS})

StyleAndText = tuple[str, str]


def card_class(card: Card) -> str:
    """The style class of a card's face: red or black (the jokers count as black spades)."""
    return "class:card.red" if card.suit in RED_SUITS and not card.is_joker else "class:card.black"


def card_fragment(card: Card, extra: str = "") -> StyleAndText:
    return (f"{card_class(card)} {extra}".strip(), card.glyph)


bid_text = bid_notation


def bidding_order(rules: RuleSet, dealer: int) -> list[int]:
    """The seats in the order they bid: from the dealer's left (or from the dealer, as the rules say)."""
    n = rules.players
    first = dealer if rules.first_bidder == "dealer" else (dealer + 1) % n
    return [(first + k) % n for k in range(n)]


def side_name(rules: RuleSet, names: Sequence[str], side: int, *, width: int = 0) -> str:
    """A side as people call it: the partners' names joined, or the player's name."""
    members = rules.sides[side]
    whole = "+".join(names[s] for s in members)
    if width and len(members) > 1 and display_width(whole) > width:
        each = max(3, (width - len(members) + 1) // len(members))
        return "+".join(clip(names[s], each) for s in members)
    text = "+".join(names[s] for s in members)
    return clip(text, width) if width else text


def score_words(score: HandScore, rules: RuleSet) -> str:
    """One side's hand score in words: the contract, the bags, the nils, the penalty and the bonuses."""
    parts: list[str] = []
    if score.contract:
        verdict = "made" if score.made else ("set (renege penalty)" if score.penalized else "set")
        parts.append(f"bid {score.contract}, took {score.tricks}: {verdict} {score.contract_points:+d}")
    elif score.tricks:
        parts.append(f"took {score.tricks}")
    if score.bag_points:
        parts.append(f"{plural(score.bags, 'bag')} {score.bag_points:+d}")
    if score.nil_points:
        parts.append(f"nil {score.nil_points:+d}")
    parts += bonuses(rules, score)
    return "; ".join(parts) if parts else "nothing"


_SPADE_LEAD = {
    "broken": "once broken",
    "not_first_trick": "after the first trick",
    "always": "any time",
}
_FIRST_LEADER = {"left": "dealer's left", "dealer": "the dealer", "low_club": "holder of the lowest club"}


def rules_of(rules: RuleSet | Mapping[str, object]) -> RuleSet:
    """A rule set from a `RuleSet` or its plain dict (as the lobby receives it). RuleSetError if bad."""
    if isinstance(rules, RuleSet):
        return rules
    if not isinstance(rules, Mapping):
        raise RuleSetError(f"a rule set must be a RuleSet or a map of options, got {type(rules).__name__}")
    return RuleSet.from_dict(rules)


def protocol_line(version: int) -> tuple[str, str]:
    """The game's protocol version, as the lobby shows it with the rules."""
    if version >= 2:
        return ("proofs", f"protocol version {version}: every shuffle, lock and void claim proven live")
    return ("proofs", f"protocol version {version}: no live proofs; the deal is checked at hand end")


def after_line(after: After) -> tuple[str, str]:
    """The game a table's game follows, as the lobby shows it with the rules: "continues game 3f2a1b0c9d8e
    from 120–80 (bags 3, 1), seat 2 deals", or "a rematch of game 3f2a1b0c9d8e"."""
    return ("follows", after.describe(short=True))


def rules_lines(rules: RuleSet) -> list[tuple[str, str]]:
    """The options a player should know before accepting a table, as (label, value) lines."""
    r = rules
    deck = f"{len(r.deck)} cards" + (", with jokers" if r.jokers else "")
    if r.removed_cards:
        deck += " (without " + " ".join(c.code for c in r.removed_cards) + ")"
    deal = "draw pile" if r.deal == "draw" else f"{r.hand_size} cards each"
    if r.nil:
        nil = f"nil ±{r.nil_value}"
        if r.blind_nil:
            nil += f", blind nil ±{r.blind_nil_value} when trailing by {r.blind_nil_margin}"
    else:
        nil = "no nil"
    bids = f"{r.min_bid} and up; {nil}"
    if r.bid_mode != "free":
        bids = {"mirror": "mirror: the spades held (nil with none)", "whiz": "whiz: the spades held, or nil",
                "suicide": f"suicide: one nil per side, its partner {max(r.min_bid, r.min_team_bid)} or more"
                }[r.bid_mode] + ("" if r.bid_mode in ("mirror", "whiz") else f"; {nil}")
    if r.blind_bid:
        bids += f"; blind {r.blind_bid_min}+ for double when {r.blind_bid_margin} behind"
    if r.deuces_high:
        deal += "; deuces high: 2♦ 2♠ above A♠" + (" (below the jokers)" if r.jokers else "") + ", 2♦ a spade"
    over = "+1 per overtrick" if r.overtrick_points == 1 else "-10 per overtrick (sandbags)"
    bags = over + (f", -{r.bag_penalty} per {r.bag_limit} bags" if r.bag_limit else "")
    failed = "scores 0" if r.failed_contract == "zero" else "-10 per trick bid"
    game = f"to {r.target}" + (f", out at {r.losing_threshold}" if r.losing_threshold is not None else "")
    renege = {"set": "the side is set", "three_tricks": "3 tricks to the opponents", "stop": "the game stops"}
    seating = "partners opposite" if r.partnerships else "each for themselves"
    return [
        ("rules", described(r)),
        ("table", f"{r.players} players, {seating}"),
        ("deck", f"{deck}; {deal}"),
        ("bids", bids),
        ("lead", f"first lead: {_FIRST_LEADER[r.first_leader]}; spades lead {_SPADE_LEAD[r.spade_lead]}"),
        ("scoring", f"{bags}; failed contract {failed}"),
        ("game", game),
        ("renege", renege[r.renege]),
    ]


def rules_title(rules: RuleSet) -> str:
    return f"{rules.preset or 'custom'} to {rules.target}"


def score_sheet(
    rules: RuleSet, names: Sequence[str], history: Sequence[HandResult], *, last: int = 0
) -> list[list[StyleAndText]]:
    """The score sheet as lines of fragments: per hand, each side's bids/tricks, points and running total.

    `last` keeps only the last hands (the rows that fit); an ellipsis row says some were left out.
    """
    sides = rules.sides
    compact = len(sides) > 2
    rows: list[list[str]] = []
    for h in history:
        row = [str(h.number)]
        for i, side in enumerate(sides):
            bids = "+".join(bid_notation(h.bids[s], h.blind[s], rules, short=True) for s in side)
            won = sum(h.tricks_scored[s] for s in side)
            total = h.totals[i]
            if compact:
                row += [f"{bids}/{won}", f"{h.scores[i].points:+d}", str(total.score)]
            else:
                row += [bids, str(won), f"{h.scores[i].points:+d}", str(total.score), str(total.bags)]
        rows.append(row)
    per_side = ("bid/won", "pts", "total") if compact else ("bid", "won", "pts", "total", "bags")
    header = ["hand"] + list(per_side) * len(sides)
    widths = [max([len(header[c])] + [len(r[c]) for r in rows]) for c in range(len(header))]
    k = len(per_side)
    block = [sum(widths[1 + i * k : 1 + (i + 1) * k]) + k - 1 for i in range(len(sides))]
    names_row: list[StyleAndText] = [("", " " * widths[0])]
    for i in range(len(sides)):
        label = pad(side_name(rules, names, i, width=block[i]), block[i])
        names_row += [("class:frame.border", " │ "), ("class:heading", label)]
    lines: list[list[StyleAndText]] = [names_row]

    def fmt(row: list[str], style: str = "") -> list[StyleAndText]:
        out: list[StyleAndText] = [(style, row[0].rjust(widths[0]))]
        for i in range(len(sides)):
            cells = [row[1 + i * k + j].rjust(widths[1 + i * k + j]) for j in range(k)]
            out += [("class:frame.border", " │ "), (style, " ".join(cells))]
        return out

    lines.append(fmt(header, "class:hint"))
    shown = rows[-last:] if last and len(rows) > last else rows
    if len(shown) < len(rows):
        lines.append([("class:hint", f"({len(rows) - len(shown)} earlier hands not shown)")])
    for row in shown:
        lines.append(fmt(row))
    if not rows:
        lines.append([("class:hint", "no hand finished yet")])
    return lines
