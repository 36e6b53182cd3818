"""A cover policy for the partner of a nil, in the playouts: `CoverPlayout` plays as `Playout` does except
where its partner's nil is alive, and there it uses what a playout knows, every card, to keep the nil safe
at the least cost:

- leading, it picks the suit where the nil can get rid of the most: a suit the nil is void in (it throws
  its most dangerous card), else the one where the nil's highest card under our lead is highest, never one
  where the nil holds only cards above our lead;
- following with the nil still to play, it plays only as high as the nil needs: nothing when the card
  winning already tops the nil's cards of the suit led (or the nil is void in it), else the lowest card
  over every card the nil holds there, else its highest; void, it trumps only when the nil is in danger.
"""

from __future__ import annotations

from p2pspades.bots.simulate import (
    RANK_OF,
    SUIT_MASKS,
    SUIT_OF,
    Playout,
    _win_low,
    above,
    low,
    top,
    tops,
)


class CoverPlayout(Playout):
    """`Playout` with the cover policy for a partner's nil (see the module)."""

    __slots__ = ()

    def _cover_lead(self, partner: int, legal: int, others: int) -> int:
        nil = self.hands[partner]
        best, best_key = -1, (-1, -1, False, -1)
        for x in tops(legal):
            suit = SUIT_MASKS[SUIT_OF[x]]
            held = nil & suit
            if held and not held & ~above(x):  # the nil holds only cards over ours: it may win
                continue
            under = held & ~above(x)
            # void (and able to throw a side card): best; else the highest card the nil gets rid of
            void = not held and bool(nil & ~suit)
            key = (int(void), RANK_OF[top(under)] if under else -1,
                   not (others & ~nil) & suit & above(x), RANK_OF[x])
            if key > best_key:
                best, best_key = x, key
        return best if best >= 0 else super()._cover_lead(partner, legal, others)

    def _cover_follow(self, partner: int, legal: int, led: int, win: int, lose: int, later: list[int]) -> int:
        if self.winner == partner or partner not in later:
            return super()._cover_follow(partner, legal, led, win, lose, later)
        nil = self.hands[partner] & SUIT_MASKS[led]
        best = self.best
        safe = not nil or (SUIT_OF[best] == led and best > top(nil)) or (SUIT_OF[best] == 0 != led)
        if safe:
            return -1  # the nil can stay under the card winning: play as we would
        following = legal & SUIT_MASKS[led]
        if following:
            over = following & above(top(nil))
            return low(over) if over else top(following)
        return _win_low(win, lose, led)
