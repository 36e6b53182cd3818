"""Constructed deals that more than one test file plays: four hands, one string of card codes per seat."""

# Dealer 0, seat 1 bids first. Its hand holds AH, AC and KC: a nil the playouts like (91%: their seats see
# every card, so the partner's cover never misses) and the bidding's odds do not (21%, nil danger 1.81).
RISKY_NIL = (
    "3S TS JS KS 2H 7H 8H KH 4D JD 7C 9C JC",
    "8S 3H 6H JH AH 2D 7D 9D 4C 6C TC KC AC",
    "2S 4S 7S 9S AS 5H TH 3D 8D AD 3C 5C 8C",
    "5S 6S QS 4H 9H QH 5D 6D TD QD KD 2C QC",
)
# The same seat with low cards and short spades: a nil both like (89% and 91%, nil danger 0.44).
SAFE_NIL = (
    "6S 8S KS TH JH KH 2D 8D TD 3C 5C 7C KC",
    "2S 4S 2H 3H 6H 9H QH 3D 4D 6D 7D KD 9C",
    "5S 7S 9S QS 7H 8H 5D 9D JD QD 2C 8C QC",
    "3S TS JS AS 4H 5H AH AD 4C 6C TC JC AC",
)
