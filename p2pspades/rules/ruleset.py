"""The rule set: every option of the supported Spades variants in one immutable, validated value.

A rule set travels in the genesis entry of every game log, so it must round-trip through a plain dict exactly
and refuse anything inconsistent with a message that says what is wrong. Presets are rule sets with a name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from p2pspades.errors import N_, Detail, N_plural
from p2pspades.rules.cards import DEUCES_HIGH_ORDER, FULL_DECK, STANDARD_ORDER, Card, CardOrder, Suit, mask_of
from p2pspades.rules.errors import CardError, RuleSetError

DealMode = Literal["all", "draw"]
FirstBidder = Literal["left", "dealer"]
FirstLeader = Literal["left", "dealer", "low_club"]
SpadeLead = Literal["broken", "not_first_trick", "always"]
FailedContract = Literal["zero", "minus"]
TieRule = Literal["another_hand", "shared"]
RenegePenalty = Literal["set", "three_tricks", "stop"]
OnFault = Literal["forfeit", "void"]
Boston = Literal["none", "bonus", "win"]
BidMode = Literal["free", "mirror", "whiz", "suicide"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "deal": ("all", "draw"),
    "first_bidder": ("left", "dealer"),
    "first_leader": ("left", "dealer", "low_club"),
    "spade_lead": ("broken", "not_first_trick", "always"),
    "failed_contract": ("zero", "minus"),
    "tie": ("another_hand", "shared"),
    "renege": ("set", "three_tricks", "stop"),
    "on_fault": ("forfeit", "void"),
    "boston": ("none", "bonus", "win"),
    "bid_mode": ("free", "mirror", "whiz", "suicide"),
}
#: options a rule-set map may leave out (they came later), with the value their absence means
_OPTIONAL: dict[str, object] = {
    "on_fault": "forfeit",
    "void_proofs": True,
    "min_team_bid": 0,
    "double_nil": True,
    "ten_for_200": False,
    "ten_for_200_value": 200,
    "boston": "none",
    "boston_value": 200,
    "nil_bags": True,
    "nil_pass": 0,
    "deuces_high": False,
    "bid_mode": "free",
    "blind_bid": False,
    "blind_bid_margin": 100,
    "blind_bid_min": 6,
}
_BOOLS = ("partnerships", "jokers", "nil", "blind_nil", "nil_tricks_count_for_partner", "void_proofs",
          "double_nil", "ten_for_200", "nil_bags", "deuces_high", "blind_bid")
_INTS = ("players", "min_bid", "nil_value", "blind_nil_value", "blind_nil_margin", "overtrick_points",
         "bag_penalty", "target", "min_team_bid", "ten_for_200_value", "boston_value", "nil_pass",
         "blind_bid_margin", "blind_bid_min")
#: the side's contract (the sum of its bids that are not nil) that earns the `ten_for_200` bonus when made
TEN_FOR_200_CONTRACT = 10
#: the most cards a seat may pass under `nil_pass`
MAX_NIL_PASS = 3
_OPTIONAL_INTS = ("bag_limit", "losing_threshold")
_OVERTRICK_POINTS = (1, -10)


def default_removed(players: int, jokers: bool, deuces_high: bool = False) -> tuple[str, ...]:
    """The cards taken out of the pack so that it divides evenly (RULES.md, "Other player counts"). With
    deuces high the 2S and 2D are trumps and stay: the 2C and 2H go first, then the 3C and 3H."""
    if deuces_high:
        count = len(default_removed(players, jokers))
        return ("2C", "2H", "3C", "3H")[:count]
    if jokers:
        return {2: ("2D", "2C"), 3: (), 4: ("2D", "2C"), 5: ("2S", "2H", "2D", "2C")}.get(players, ())
    return {3: ("2C",), 5: ("2D", "2C")}.get(players, ())


@dataclass(frozen=True)
class RuleSet:
    """Every option of one game. The defaults are the `classic` partnership game."""

    players: int = 4
    partnerships: bool = True
    jokers: bool = False
    removed: tuple[str, ...] | None = None
    deal: DealMode = "all"
    min_bid: int = 1
    nil: bool = True
    nil_value: int = 100
    blind_nil: bool = True
    blind_nil_value: int = 200
    blind_nil_margin: int = 100
    nil_tricks_count_for_partner: bool = False
    first_bidder: FirstBidder = "left"
    first_leader: FirstLeader = "left"
    spade_lead: SpadeLead = "broken"
    overtrick_points: int = 1
    bag_limit: int | None = 10
    bag_penalty: int = 100
    failed_contract: FailedContract = "minus"
    target: int = 500
    losing_threshold: int | None = None
    tie: TieRule = "another_hand"
    renege: RenegePenalty = "set"
    #: how a game that ends on a fault (a cheat, an abandonment, a withheld reveal or end) is scored:
    #: "forfeit", the offending seat's side loses and the other sides are ranked by their totals; "void",
    #: nobody wins
    on_fault: OnFault = "forfeit"
    #: protocol version 2: a play that does not follow the led suit carries a proof that the seat holds no
    #: card of that suit (protocol/crypto.md §17), checked live, so a renege is refused at once; false leaves
    #: reneges to the public record and the end-of-hand audit. Version 1 has no proofs and ignores it
    void_proofs: bool = True
    #: house rules; each is left out of a rule-set map at its default, like `on_fault` and `void_proofs`.
    #: A partnership's combined bid (its bids that are not nil) must reach this; the side's last bidder is
    #: offered only the bids that reach it. A side with a nil or blind-nil bidder is exempt. 0: no minimum
    min_team_bid: int = 0
    #: may both partners bid nil (or blind nil) in one hand? False: the second is not offered nil
    double_nil: bool = True
    #: "10 for 200": a side whose contract is 10 or more and made scores `ten_for_200_value` more
    ten_for_200: bool = False
    ten_for_200_value: int = 200
    #: a side that takes every trick of a hand (Boston, the moon): "none", nothing more; "bonus", it scores
    #: `boston_value` more; "win", it wins the game at once
    boston: Boston = "none"
    boston_value: int = 200
    #: a nil bidder's tricks are bags of its side (unless they count for the partner); false: they are not
    nil_bags: bool = True
    #: the nil card pass: after the bids, a nil (or blind-nil) bidder and its partner each pass this many of
    #: their dealt cards to the other, face down (protocol version 2 only). 0: no pass
    nil_pass: int = 0
    #: deuces high: the 2S and then the 2D rank above the ace of spades (below the jokers), and the 2D is a
    #: spade (`rules.cards.DEUCES_HIGH_ORDER`); both must be in the deck
    deuces_high: bool = False
    #: how a seat bids: "free", any bid; "mirror", the number of spades it holds (nil with none); "whiz",
    #: that number or nil; "suicide", in each partnership exactly one partner bids nil and the other at
    #: least `min_team_bid` (and `min_bid`). A mirror or whiz bid is a claim about the hand: every peer
    #: checks it against the revealed hand at the end of the hand (the audit's `bad_bid`)
    bid_mode: BidMode = "free"
    #: blind bids: a seat whose side trails the best other side by `blind_bid_margin` or more is asked before
    #: the deal (with blind nil) whether it bids a number of tricks blind, `blind_bid_min` or more; it bids no
    #: more after the deal, and its side's contract scores double, made or failed. Needs bid_mode "free"
    blind_bid: bool = False
    blind_bid_margin: int = 100
    blind_bid_min: int = 6
    preset: str | None = None

    def __post_init__(self) -> None:
        self._check_types()
        put = object.__setattr__
        if self.removed is not None:
            put(self, "removed", self._normalise_removed(self.removed))
        self._check_table()
        removed = (
            self.removed if self.removed is not None
            else default_removed(self.players, self.jokers, self.deuces_high)
        )
        removed_mask = mask_of(Card.parse(code) for code in removed)
        deck = tuple(
            card
            for card in FULL_DECK
            if not (card._bit & removed_mask) and (self.jokers or not card.is_joker)
        )
        put(self, "_deck", deck)
        put(self, "_deck_mask", mask_of(deck))
        put(self, "_removed_effective", removed)
        self._check_deck(deck)
        hand_size = len(deck) // 4 if self.deal == "draw" else len(deck) // self.players
        put(self, "_hand_size", hand_size)
        if self.partnerships:
            sides: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
        else:
            sides = tuple((seat,) for seat in range(self.players))
        put(self, "_sides", sides)
        put(self, "_side_of", tuple(next(i for i, side in enumerate(sides) if seat in side)
                                    for seat in range(self.players)))
        self._check_scoring(hand_size, deck)

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self))

    def __hash__(self) -> int:
        """The hash of the fields (as a frozen dataclass's), worked out once: the bots' caches are keyed by
        the rule set, some hundred thousand times in a review."""
        known: int | None = self.__dict__.get("_hash")
        if known is None:
            known = hash(self._fields())
            object.__setattr__(self, "_hash", known)
        return known

    def __reduce__(self) -> tuple[type[RuleSet], tuple[Any, ...]]:
        """Pickled as its fields, so that the hash is worked out again where it is unpickled (a string's hash
        differs from one process to another)."""
        return type(self), self._fields()

    # ----- validation -------------------------------------------------------------------------------------

    def _check_types(self) -> None:
        for name in _BOOLS:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise RuleSetError(N_("{name} must be true or false, got {value}"), name=name,
                                   value=repr(value))
        for name in _INTS:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RuleSetError(N_("{name} must be a whole number, got {value}"), name=name,
                                   value=repr(value))
        for name in _OPTIONAL_INTS:
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise RuleSetError(N_("{name} must be a whole number or none, got {value}"), name=name,
                                   value=repr(value))
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices or not isinstance(value, str):
                raise RuleSetError(N_("{name} must be one of {choices}; got {value}"), name=name,
                                   choices=", ".join(choices), value=repr(value))
        if self.preset is not None and (not isinstance(self.preset, str) or not self.preset):
            raise RuleSetError(N_("preset must be a preset name or none, got {preset}"),
                               preset=repr(self.preset))
        if self.removed is not None and not isinstance(self.removed, (tuple, list)):
            raise RuleSetError(N_("removed must be a list of card codes or none, got {removed}"),
                               removed=repr(self.removed))

    def _normalise_removed(self, removed: tuple[str, ...] | list[str]) -> tuple[str, ...]:
        cards: list[Card] = []
        for code in removed:
            try:
                card = Card.parse(code)
            except CardError as exc:
                raise RuleSetError(f"removed: {exc}") from None
            if card.is_joker:
                raise RuleSetError(N_("removed: {card} is a joker; turn the 'jokers' option off instead"),
                                   card=card)
            if card in cards:
                raise RuleSetError(N_("removed: {card} is listed twice"), card=card)
            cards.append(card)
        return tuple(card.code for card in sorted(cards))

    def _check_table(self) -> None:
        if not 2 <= self.players <= 5:
            raise RuleSetError(N_("players must be 2 to 5, got {players}"), players=self.players)
        if self.partnerships and self.players != 4:
            raise RuleSetError(
                N_("partnerships need 4 players (two sides of two, partners opposite), got {players}"),
                   players=self.players)
        if self.deal == "draw" and self.players != 2:
            raise RuleSetError(N_("the draw pile (deal 'draw') is for 2 players, got {players}"),
                               players=self.players)

    def _check_deck(self, deck: tuple[Card, ...]) -> None:
        self._check_deck_size(len(deck))
        self._check_deck_cards(deck)

    def _check_deck_size(self, n: int) -> None:
        """The deck divides among the players (two cards a turn for the draw pile), with a card for each."""
        if self.deal == "draw":
            if n % 4:
                raise RuleSetError(
                    N_plural("{cards} cards do not make a draw pile for 2 players (2 cards a turn, the same "
                             "number for each): remove {n} more card",
                             "{cards} cards do not make a draw pile for 2 players (2 cards a turn, the same "
                             "number for each): remove {n} more cards"), n=n % 4, cards=n)
        elif n % self.players:
            extra = n % self.players
            fix = Detail(N_plural("remove {n} more card", "remove {n} more cards"), n=extra)
            if not self.jokers and (n + 2) % self.players == 0:
                fix = Detail(N_("{first} or {second}"), first=fix, second=Detail(N_("add jokers")))
            if self.jokers and (n - 2) % self.players == 0:
                fix = Detail(N_("{first} or {second}"), first=fix, second=Detail(N_("play without jokers")))
            raise RuleSetError(N_("{n} cards do not divide among {players} players: {fixes}"), n=n,
                               players=self.players, fixes=fix)
        if n < max(self.players, 4 if self.deal == "draw" else 0):
            raise RuleSetError(N_("only {n} cards left in the deck: remove fewer cards"), n=n)

    def _check_deck_cards(self, deck: tuple[Card, ...]) -> None:
        """The cards the options need are in the deck: the 2S and the 2D for deuces high, clubs for a
        "low_club" first lead (which also needs every card dealt)."""
        if self.deuces_high:
            missing = [code for code in ("2S", "2D") if not any(card.code == code for card in deck)]
            if missing:
                raise RuleSetError(
                    N_plural("deuces_high needs the 2S and the 2D in the deck (they are the top trumps), but "
                             "{cards} is removed: remove other cards",
                             "deuces_high needs the 2S and the 2D in the deck (they are the top trumps), but "
                             "{cards} are removed: remove other cards"),
                    n=len(missing), cards=", ".join(missing))
        if self.first_leader == "low_club":
            if self.deal == "draw":
                raise RuleSetError(
                    N_("first_leader 'low_club' needs every card in a hand, but the draw pile discards "
                       "half the deck; choose 'left' or 'dealer'")
                )
            if not any(card.suit is Suit.CLUBS for card in deck):
                raise RuleSetError(N_("first_leader 'low_club' needs clubs in the deck"))

    def _check_scoring(self, hand_size: int, deck: tuple[Card, ...]) -> None:
        if not 0 <= self.min_bid <= hand_size:
            raise RuleSetError(
                N_("min_bid must be between 0 and {hand_size} (the tricks in a hand), got {min_bid}"),
                   hand_size=hand_size, min_bid=self.min_bid)
        if self.nil and self.min_bid == 0:
            raise RuleSetError(N_("min_bid 0 clashes with nil: a bid of 0 is nil; use min_bid 1 or turn "
                                  "nil off"))
        for name in ("nil_value", "blind_nil_value", "blind_nil_margin", "bag_penalty"):
            if getattr(self, name) < 0:
                raise RuleSetError(N_("{name} must not be negative, got {value}"), name=name,
                                   value=getattr(self, name))
        if self.blind_nil and not self.nil:
            raise RuleSetError(N_("blind_nil needs nil: a blind nil is a nil bid made before seeing the "
                                  "cards"))
        if self.overtrick_points not in _OVERTRICK_POINTS:
            raise RuleSetError(
                N_("overtrick_points must be 1 (a point per overtrick) or -10 (sandbags cost 10), got "
                   "{overtrick_points}"), overtrick_points=self.overtrick_points)
        if self.bag_limit is not None and self.bag_limit < 1:
            raise RuleSetError(N_("bag_limit must be at least 1 (or none), got {bag_limit}"),
                               bag_limit=self.bag_limit)
        if self.target < 1:
            raise RuleSetError(N_("target must be positive, got {target}"), target=self.target)
        if self.losing_threshold is not None and self.losing_threshold >= 0:
            raise RuleSetError(
                N_("losing_threshold must be below 0 (every side starts at 0), got {losing_threshold}"),
                   losing_threshold=self.losing_threshold)
        self._check_house_rules(hand_size)

    def _check_house_rules(self, hand_size: int) -> None:
        if not 0 <= self.min_team_bid <= hand_size:
            raise RuleSetError(
                N_("min_team_bid must be between 0 and {hand_size} (the tricks in a hand), got "
                   "{min_team_bid}"), hand_size=hand_size, min_team_bid=self.min_team_bid)
        if self.min_team_bid and not self.partnerships:
            raise RuleSetError(N_("min_team_bid needs partnerships: alone, a seat's lowest bid is min_bid"))
        if not self.double_nil and not self.partnerships:
            raise RuleSetError(N_("double_nil false needs partnerships: only partners can both bid nil"))
        for name in ("ten_for_200_value", "boston_value"):
            if getattr(self, name) < 0:
                raise RuleSetError(N_("{name} must not be negative, got {value}"), name=name,
                                   value=getattr(self, name))
        self._check_nil_pass(hand_size)
        self._check_bid_mode(hand_size)
        self._check_blind_bid_and_bonus(hand_size)

    def _check_nil_pass(self, hand_size: int) -> None:
        if not 0 <= self.nil_pass <= MAX_NIL_PASS:
            raise RuleSetError(N_("nil_pass must be 0 to {most} cards, got {nil_pass}"), most=MAX_NIL_PASS,
                               nil_pass=self.nil_pass)
        if self.nil_pass and not (self.partnerships and self.nil):
            raise RuleSetError(N_("nil_pass needs partnerships and nil: a nil bidder passes to its partner"))
        if self.nil_pass > hand_size:
            raise RuleSetError(N_("nil_pass {nil_pass} is more than the {hand_size} cards of a hand"),
                               nil_pass=self.nil_pass, hand_size=hand_size)

    def _check_blind_bid_and_bonus(self, hand_size: int) -> None:
        if self.blind_bid_margin < 0:
            raise RuleSetError(N_("blind_bid_margin must not be negative, got {blind_bid_margin}"),
                               blind_bid_margin=self.blind_bid_margin)
        if self.blind_bid_min < 1 or (self.blind_bid and self.blind_bid_min > hand_size):
            raise RuleSetError(
                N_("blind_bid_min must be between 1 and {hand_size} (the tricks in a hand), got "
                   "{blind_bid_min}"), hand_size=hand_size, blind_bid_min=self.blind_bid_min)
        if self.blind_bid and self.bid_mode != "free":
            raise RuleSetError(N_("blind_bid needs bid_mode 'free': under {bid_mode} bids are not free"),
                               bid_mode=repr(self.bid_mode))
        if self.ten_for_200 and hand_size < TEN_FOR_200_CONTRACT:
            raise RuleSetError(
                N_("ten_for_200 needs hands of at least {contract} tricks, these have {hand_size}"),
                contract=TEN_FOR_200_CONTRACT, hand_size=hand_size)

    def _check_bid_mode(self, hand_size: int) -> None:
        mode = self.bid_mode
        if mode == "free":
            return
        if not self.nil:
            raise RuleSetError(N_("bid_mode {mode} needs nil: a seat bids nil there"), mode=repr(mode))
        if mode == "suicide":
            if not self.partnerships:
                raise RuleSetError(N_("bid_mode 'suicide' needs partnerships: one partner of each side "
                                      "bids nil"))
            if self.min_team_bid > hand_size:
                raise RuleSetError(N_("min_team_bid must be at most {hand_size} under bid_mode 'suicide'"),
                                   hand_size=hand_size)
            return
        # mirror and whiz: the bid is the number of spades held, which may be anything from 0 to the hand
        clashes = [
            name for name, on in (
                ("min_bid above 1", self.min_bid != 1), ("min_team_bid", self.min_team_bid > 0),
                ("blind_nil", self.blind_nil), ("double_nil false", not self.double_nil),
                # the claim is about the dealt hand, which a pass changes before the audit sees it
                ("nil_pass", self.nil_pass > 0),
            ) if on
        ]
        if clashes:
            raise RuleSetError(
                N_plural("bid_mode {mode} fixes each bid to the spades held, so it cannot be played with "
                         "{options}: turn it off",
                         "bid_mode {mode} fixes each bid to the spades held, so it cannot be played with "
                         "{options}: turn them off"),
                n=len(clashes), mode=repr(mode), options=", ".join(clashes))

    # ----- derived values --------------------------------------------------------------------------------

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards in play, in canonical order."""
        deck: tuple[Card, ...] = self.__dict__["_deck"]
        return deck

    @property
    def deck_mask(self) -> int:
        mask: int = self.__dict__["_deck_mask"]
        return mask

    @property
    def removed_cards(self) -> tuple[Card, ...]:
        """The cards taken out of the pack (the explicit list, or the default for the table)."""
        return tuple(Card.parse(code) for code in self.__dict__["_removed_effective"])

    @property
    def hand_size(self) -> int:
        """Cards each seat holds when play starts."""
        size: int = self.__dict__["_hand_size"]
        return size

    @property
    def tricks_per_hand(self) -> int:
        return self.hand_size

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Seats of each side: partnerships ((0, 2), (1, 3)); individual games ((0,), (1,), ...)."""
        sides: tuple[tuple[int, ...], ...] = self.__dict__["_sides"]
        return sides

    def side_of(self, seat: int) -> int:
        side: int = self.__dict__["_side_of"][seat]
        return side

    @property
    def order(self) -> CardOrder:
        """Which suit each card follows as and how strong it is: deuces high or the standard order."""
        return DEUCES_HIGH_ORDER if self.deuces_high else STANDARD_ORDER

    @property
    def low_club(self) -> Card | None:
        """The lowest club in the deck: the first lead under `first_leader="low_club"`."""
        return next((card for card in self.deck if card.suit is Suit.CLUBS), None)

    # ----- plain dict ------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, object]:
        """Every option as plain data (str, int, bool, None, list of str), in a fixed order.

        An option added after version 1 of the protocol (`on_fault`, `void_proofs` and the house rules from
        `min_team_bid` on) is left out at its default value, so the rule-set maps of older games keep their
        bytes."""
        out: dict[str, object] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name in _OPTIONAL and value == _OPTIONAL[field.name]:
                continue  # a later option at its default is left out, so older rule-set maps stay the same
            out[field.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RuleSet:
        """The rule set of `to_dict`; unknown, missing or mistyped options are refused."""
        if not isinstance(data, Mapping):
            raise RuleSetError(N_("a rule set must be a map of options, got {type}"),
                               type=type(data).__name__)
        names = [field.name for field in dataclasses.fields(cls)]
        unknown = sorted(str(key) for key in data if key not in names)
        if unknown:
            raise RuleSetError(N_plural("unknown rule option: {options}", "unknown rule options: {options}"),
                               n=len(unknown), options=", ".join(unknown))
        missing = [name for name in names if name not in data and name not in _OPTIONAL]
        if missing:
            raise RuleSetError(N_plural("missing rule option: {options}", "missing rule options: {options}"),
                               n=len(missing), options=", ".join(missing))
        kwargs: dict[str, Any] = {**_OPTIONAL, **data}
        removed = kwargs["removed"]
        if removed is not None:
            if not isinstance(removed, (list, tuple)) or not all(isinstance(code, str) for code in removed):
                raise RuleSetError(N_("removed must be a list of card codes or none, got {removed}"),
                                   removed=repr(removed))
            kwargs["removed"] = tuple(removed)
        return cls(**kwargs)

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some options changed (validated again)."""
        names = {field.name for field in dataclasses.fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise RuleSetError(N_plural("unknown rule option: {options}", "unknown rule options: {options}"),
                               n=len(unknown), options=", ".join(unknown))
        return dataclasses.replace(self, **changes)


def allowed_values(name: str) -> str:
    """The values an option takes, as PROTOCOL.md §3.1 writes them ("hand size": the tricks in a hand)."""
    if name in _BOOLS:
        return "true, false"
    if name in _CHOICES:
        return ", ".join(f'"{choice}"' for choice in _CHOICES[name])
    return _ALLOWED[name]


_ALLOWED = {
    "players": "2..5",
    "removed": "card codes",
    "min_bid": "0..hand size",
    "nil_value": ">= 0",
    "blind_nil_value": ">= 0",
    "blind_nil_margin": ">= 0",
    "overtrick_points": ", ".join(str(points) for points in _OVERTRICK_POINTS),
    "bag_limit": ">= 1",
    "bag_penalty": ">= 0",
    "target": ">= 1",
    "losing_threshold": "<= -1",
    "min_team_bid": "0..hand size",
    "ten_for_200_value": ">= 0",
    "boston_value": ">= 0",
    "nil_pass": f"0..{MAX_NIL_PASS}",
    "blind_bid_margin": ">= 0",
    "blind_bid_min": ">= 1",
    "preset": "non-empty",
}


def value_type(name: str) -> str:
    """An option's type, as PROTOCOL.md §3.1 writes it."""
    if name in _BOOLS:
        return "bool"
    if name in _INTS:
        return "int"
    if name in _OPTIONAL_INTS:
        return "int or nil"
    if name == "removed":
        return "array of str, or nil"
    return "str or nil" if name == "preset" else "str"


PRESETS: Mapping[str, RuleSet] = MappingProxyType(
    {
        # Seeds 000/001: four individual players, both jokers, bid at least 1, no nil, a point per overtrick
        # (bags are an option the text only mentions), a failed contract scores nothing, ties play on.
        "individual": RuleSet(
            partnerships=False, jokers=True, nil=False, blind_nil=False, overtrick_points=1, bag_limit=None,
            failed_contract="zero", preset="individual",
        ),
        # Seed 002: two teams, no nil, no spade lead to the first trick, sandbags cost 10, every ten 100 more.
        "partnership": RuleSet(
            nil=False, blind_nil=False, spade_lead="not_first_trick", overtrick_points=-10, bag_limit=10,
            bag_penalty=100, failed_contract="minus", preset="partnership",
        ),
        # Seed 004: the dealer bids and leads first; nil +-100; blind nil only when trailing by 200.
        "piki": RuleSet(
            first_bidder="dealer", first_leader="dealer", blind_nil_margin=200, preset="piki",
        ),
        # The standard partnership game as usually published.
        "classic": RuleSet(preset="classic"),
        # Three individual players, no jokers, 2C removed: 17 cards each; scored as the classic game.
        "cutthroat3": RuleSet(players=3, partnerships=False, preset="cutthroat3"),
        # Five individual players with both jokers and no 2s: 10 cards each; scored as the `individual` game.
        "five": RuleSet(
            players=5, partnerships=False, jokers=True, nil=False, blind_nil=False, bag_limit=None,
            failed_contract="zero", preset="five",
        ),
        # Two players drawing from a stock: 13 cards each, 26 discarded; the non-dealer leads; classic scoring
        # with nil, without blind nil (a catch-up bid makes little sense with one opponent).
        "two": RuleSet(players=2, partnerships=False, deal="draw", blind_nil=False, preset="two"),
        # The classic game with the house rules most asked for: a side bids at least 4 together, a made
        # contract of 10 or more scores 200 more, and a side that takes every trick scores 200 more.
        "house": RuleSet(
            min_team_bid=4, ten_for_200=True, boston="bonus", preset="house",
        ),
        # The classic game with suicide bids: in each partnership one partner bids nil, the other 4 or more.
        "suicide": RuleSet(bid_mode="suicide", min_team_bid=4, preset="suicide"),
        # The classic game with mirror bids: everybody bids the spades it holds (nil with none); no blind nil.
        "mirror": RuleSet(bid_mode="mirror", blind_nil=False, preset="mirror"),
        # The classic game with whiz bids: the spades held, or nil; no blind nil.
        "whiz": RuleSet(bid_mode="whiz", blind_nil=False, preset="whiz"),
    }
)
"""The shipped presets by name."""


def preset(name: str, **overrides: Any) -> RuleSet:
    """A preset, optionally with some options changed: `preset("classic", target=300)`."""
    if name not in PRESETS:
        raise RuleSetError(N_("unknown preset {name}; the presets are {presets}"), name=repr(name),
                           presets=", ".join(PRESETS))
    return PRESETS[name].replace(**overrides)
