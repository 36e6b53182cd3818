"""Every size limit of a table entry, derived from the largest honest entry of the largest legal rule set.

A limit below an honest entry would name an honest seat (`schema`) and make it forfeit; a limit far above it
only costs memory. So each limit here is the exact size of the largest entry an honest seat can have to
write under any rule set that `RuleSet` accepts (protocol/PROTOCOL.md §3.1: 2 to 5 players, jokers or not,
cards removed, every card dealt or the two-player draw pile), and nothing is a round number picked by hand.
The message classes (`messages.py`) check these caps, and protocol/PROTOCOL.md §7.1 and protocol/encoding.md
§1 state the same derivation.

The worst cases, as derived below: the largest deck is every card and both jokers (54 positions, two or three
players); the largest hand is half of it (27 cards, two players, deal all); the largest suit is spades with
the jokers and, under deuces high, the 2D (16 cards). A void claim lists the positions the seat holds besides
the card it plays (at most 27 − 1) and the cards of the led suit not played yet (at most 16 − 1: the led card
is played), so the largest void proof is 32 + 64·26 + 32·26·15 = 14176 bytes, and the largest entry of all is
that `play`.
"""

from __future__ import annotations

import functools

from p2pspades.crypto.proofs import lock_proof_size, shuffle_proof_size, void_proof_size
from p2pspades.rules import RuleSet, RuleSetError, Suit

PLAYERS = range(2, 6)
"""The table sizes a rule set may have (§3.1 `players`; `RuleSet` refuses every other, a test checks it)."""
_FEWER = ("2C", "3C", "4C", "5C")
"""Cards taken out, in this order, to find the largest deck that divides for a table shape: the low clubs,
so that the largest suit (spades, with the jokers and, deuces high, the 2D) stays whole."""


@functools.cache
def largest_decks() -> tuple[RuleSet, ...]:
    """For every table shape (players, deal, jokers), the legal rule set with the most cards."""
    found = []
    for players in PLAYERS:
        for deal in ("all", "draw"):
            for jokers in (False, True):
                for k in range(len(_FEWER) + 1):
                    try:
                        rules = RuleSet(players=players, partnerships=False, jokers=jokers, deal=deal,
                                        removed=_FEWER[:k], deuces_high=True)
                    except RuleSetError:
                        continue
                    found.append(rules)
                    break
    return tuple(found)


def _suit_size(rules: RuleSet) -> int:
    return max(sum(1 for card in rules.deck if rules.order.suit(card) is suit) for suit in Suit)


def largest_deck() -> int:
    """Positions of the largest deck: the length of every `shuffle`/`lock` list (`d`, `P`)."""
    return max(len(rules.deck) for rules in largest_decks())


def largest_keys() -> int:
    """Keys in the largest `keys` entry: every position a seat does not own (deal all), or one (draw)."""
    return max(len(r.deck) - r.hand_size if r.deal == "all" else 1 for r in largest_decks())


def largest_void_proof() -> int:
    """Bytes of the largest void proof (crypto.md §17): the positions held besides the one played, times
    the cards of the led suit not played yet (the led card is)."""
    return max(void_proof_size(r.hand_size - 1, _suit_size(r) - 1) for r in largest_decks())


MAX_DECK = largest_deck()
MAX_LIST = max(MAX_DECK, largest_keys())
"""The longest list field of any entry (`d`, `P`, `keys.j`, `keys.k`)."""
MAX_SEATS = max(PLAYERS)
"""Seats of the genesis, and the longest `end` lists (one side per seat at most)."""
MAX_SHUFFLE_PROOF = shuffle_proof_size(MAX_DECK)
MAX_LOCK_PROOF = lock_proof_size(MAX_DECK)
MAX_VOID_PROOF = largest_void_proof()
