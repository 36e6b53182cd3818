"""Words and card text shared by the game screen, the lobby and the replay viewer.

Pure functions of game values, so the screens stay thin and the wording is the same everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from p2pspades.describe import after_text, bonuses
from p2pspades.describe.game import bid_text as bid_text
from p2pspades.describe.game import card_glyph
from p2pspades.describe.game import renege_words as renege_words
from p2pspades.describe.game import status_words as status_words
from p2pspades.describe.game import termination_words as termination_words
from p2pspades.describe.rules import described
from p2pspades.i18n import N_, _, ngettext
from p2pspades.printable import clip as clip
from p2pspades.printable import pad
from p2pspades.printable import width as display_width
from p2pspades.rules import Card, HandResult, RuleSet, RuleSetError, Suit
from p2pspades.rules import sort_hand as sort_hand
from p2pspades.rules.scoring import HandScore
from p2pspades.table.genesis import After

RED_SUITS = frozenset({Suit.HEARTS, Suit.DIAMONDS})

StyleAndText = tuple[str, str]


def card_class(card: Card) -> str:
    """The style class of a card's face: red or black (the jokers count as black spades)."""
    return "class:card.red" if card.suit in RED_SUITS and not card.is_joker else "class:card.black"


def card_fragment(card: Card, extra: str = "") -> StyleAndText:
    return (f"{card_class(card)} {extra}".strip(), card_glyph(card))


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
        if score.made:
            said = _("bid {bid}, took {tricks}: made {points}")
        elif score.penalized:
            said = _("bid {bid}, took {tricks}: set (renege penalty) {points}")
        else:
            said = _("bid {bid}, took {tricks}: set {points}")
        points = f"{score.contract_points:+d}"
        parts.append(said.format(bid=score.contract, tricks=score.tricks, points=points))
    elif score.tricks:
        parts.append(_("took {tricks}").format(tricks=score.tricks))
    if score.bag_points:
        parts.append(ngettext("{n} bag {points}", "{n} bags {points}", score.bags).format(
            n=score.bags, points=f"{score.bag_points:+d}"))
    if score.nil_points:
        parts.append(_("nil {points}").format(points=f"{score.nil_points:+d}"))
    parts += bonuses(rules, score)
    return "; ".join(parts) if parts else _("nothing")


_SPADE_LEAD = {
    "broken": N_("spades lead once broken"),
    "not_first_trick": N_("spades lead after the first trick"),
    "always": N_("spades lead any time"),
}
_FIRST_LEADER = {
    "left": N_("first lead: dealer's left"),
    "dealer": N_("first lead: the dealer"),
    "low_club": N_("first lead: holder of the lowest club"),
}


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
        said = _("protocol version {version}: every shuffle, lock and void claim proven live")
    else:
        said = _("protocol version {version}: no live proofs; the deal is checked at hand end")
    # TRANSLATORS: a label of the lobby's rules panel (at most 9 characters)
    return (_("proofs"), said.format(version=version))


def after_line(after: After) -> tuple[str, str]:
    """The game a table's game follows, as the lobby shows it with the rules: "continues game 3f2a1b0c9d8e
    from 120–80 (bags 3, 1), seat 2 deals", or "a rematch of game 3f2a1b0c9d8e"."""
    # TRANSLATORS: a label of the lobby's rules panel (at most 9 characters)
    return (_("follows"), after_text(after, short=True))


def rules_lines(rules: RuleSet) -> list[tuple[str, str]]:
    """The options a player should know before accepting a table, as (label, value) lines."""
    r = rules
    deck = (ngettext("{n} card, with jokers", "{n} cards, with jokers", len(r.deck)) if r.jokers
            else ngettext("{n} card", "{n} cards", len(r.deck))).format(n=len(r.deck))
    if r.removed_cards:
        cards = " ".join(c.code for c in r.removed_cards)
        deck = _("{deck} (without {cards})").format(deck=deck, cards=cards)
    deal = _("draw pile") if r.deal == "draw" else ngettext("{n} card each", "{n} cards each",
                                                            r.hand_size).format(n=r.hand_size)
    if r.nil:
        nil = _("nil ±{points}").format(points=r.nil_value)
        if r.blind_nil:
            nil = _("{nil}, blind nil ±{points} when trailing by {margin}").format(
                nil=nil, points=r.blind_nil_value, margin=r.blind_nil_margin)
    else:
        nil = _("no nil")
    bids = _("{low} and up; {nil}").format(low=r.min_bid, nil=nil)
    if r.bid_mode == "mirror":
        bids = _("mirror: the spades held (nil with none)")
    elif r.bid_mode == "whiz":
        bids = _("whiz: the spades held, or nil")
    elif r.bid_mode == "suicide":
        bids = _("suicide: one nil per side, its partner {n} or more; {nil}").format(
            n=max(r.min_bid, r.min_team_bid), nil=nil)
    if r.blind_bid:
        bids = _("{bids}; blind {n}+ for double when {margin} behind").format(
            bids=bids, n=r.blind_bid_min, margin=r.blind_bid_margin)
    if r.deuces_high:
        deal = (_("{deal}; deuces high: 2♦ 2♠ above A♠ (below the jokers), 2♦ a spade") if r.jokers
                else _("{deal}; deuces high: 2♦ 2♠ above A♠, 2♦ a spade")).format(deal=deal)
    over = _("+1 per overtrick") if r.overtrick_points == 1 else _("-10 per overtrick (sandbags)")
    bags = _("{overtricks}, -{points} per {n} bags").format(overtricks=over, points=r.bag_penalty,
                                                           n=r.bag_limit) if r.bag_limit else over
    failed = _("failed contract scores 0") if r.failed_contract == "zero" else _(
        "failed contract -10 per trick bid")
    game = _("to {target}").format(target=r.target)
    if r.losing_threshold is not None:
        game = _("{game}, out at {threshold}").format(game=game, threshold=r.losing_threshold)
    seating = _("{n} players, partners opposite") if r.partnerships else _("{n} players, each for themselves")
    # TRANSLATORS: the labels of the lobby's rules panel (at most 9 characters each)
    return [
        (_("rules"), described(r)),
        (_("table"), _("{seating}; {deck}; {deal}").format(seating=seating.format(n=r.players), deck=deck,
                                                          deal=deal)),
        (_("bids"), bids),
        (_("lead"), _("{first}; {spades}").format(first=_(_FIRST_LEADER[r.first_leader]),
                                                  spades=_(_SPADE_LEAD[r.spade_lead]))),
        (_("scoring"), _("{bags}; {failed}").format(bags=bags, failed=failed)),
        (_("game"), _("{game}; a renege: {penalty}").format(game=game, penalty=renege_words(r))),
    ]


def rules_title(rules: RuleSet) -> str:
    return _("{preset} to {target}").format(preset=rules.preset or _("custom"), target=rules.target)


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
            bids = "+".join(bid_text(h.bids[s], h.blind[s], rules, short=True) for s in side)
            won = sum(h.tricks_scored[s] for s in side)
            total = h.totals[i]
            if compact:
                row += [f"{bids}/{won}", f"{h.scores[i].points:+d}", str(total.score)]
            else:
                row += [bids, str(won), f"{h.scores[i].points:+d}", str(total.score), str(total.bags)]
        rows.append(row)
    # TRANSLATORS: the score sheet's column headings (short: the columns are as wide as their numbers)
    per_side = ((_("bid/won"), _("pts"), _("total")) if compact
                else (_("bid"), _("won"), _("pts"), _("total"), _("bags")))
    header = [_("hand")] + list(per_side) * len(sides)
    widths = [max([display_width(header[c])] + [len(r[c]) for r in rows]) for c in range(len(header))]
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
        hidden = len(rows) - len(shown)
        lines.append([("class:hint", ngettext("({n} earlier hand not shown)", "({n} earlier hands not shown)",
                                              hidden).format(n=hidden))])
    for row in shown:
        lines.append(fmt(row))
    if not rows:
        lines.append([("class:hint", _("no hand finished yet"))])
    return lines
