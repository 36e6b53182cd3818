"""The names of the checks a peer's entry can fail: one vocabulary for errors, events, verdicts and records.

Each is the word PROTOCOL.md uses for it, and the value the JSON records carry. `Check` is a `StrEnum`, so a
check compares equal to its name.
"""

from __future__ import annotations

import enum


class Check(enum.StrEnum):
    # the bytes (unattributable: nothing is signed yet)
    ENVELOPE = "envelope"
    ENCODING = "encoding"
    HEADER = "header"
    SIGNATURE = "signature"
    FRAME = "bad-frame"
    # the table protocol
    GENESIS = "genesis"
    SCHEMA = "schema"
    TURN = "turn"
    EQUIVOCATION = "equivocation"
    PROTOCOL = "protocol"
    CHAIN = "chain"  # a log's frame that is not chained where it stands, or repeats one: no seat is named
    FRAME_REPEAT = "repeat"
    # the deal and its proofs
    COMMIT = "commit"
    SHUFFLE = "shuffle"
    LOCK = "lock"
    DEAL = "deal"
    KEYS = "keys"
    KEY = "key"
    PASS = "pass"  # the nil card pass (PROTOCOL.md §7.6)
    # what the crypto layer refuses (crypto/errors.py, crypto/proofs.py)
    BAD_POINT = "bad-point"
    BAD_SCALAR = "bad-scalar"
    BAD_SEED = "bad-seed"
    BAD_DECK = "bad-deck"
    BAD_SHUFFLE = "bad-shuffle"
    BAD_LOCK = "bad-lock"
    WEAK_KEY = "weak-key"
    BAD_SHUFFLE_PROOF = "bad-shuffle-proof"
    BAD_LOCK_PROOF = "bad-lock-proof"
    BAD_VOID_PROOF = "bad-void-proof"
    VOID = "void"
    REVEAL = "reveal"
    CHALLENGE = "challenge"
    # the play
    OWNERSHIP = "ownership"
    REPLAY = "replay"
    FORGED_CARD = "forged card"
    RULES = "rules"
    LEAD = "lead"
    END = "end"
    # an abandonment claim (PROTOCOL.md §5)
    ABANDON = "abandon"
    # the players' own word (PROTOCOL.md §5.10, §5.11): a goodbye, a stop by agreement
    LEAVE = "leave"
    STOP = "stop"
    # found by the end-of-hand audit, with every hand known (rules/audit.py)
    RENEGE = "renege"
    SPADE_LEAD = "spade_lead"
    FIRST_TRICK_SPADE = "first_trick_spade"
    WRONG_LEAD = "wrong_lead"
    NOT_IN_HAND = "not_in_hand"
    BAD_HAND = "bad_hand"
    BAD_BID = "bad_bid"
    MISSING_PLAY = "missing_play"
    EXTRA_PLAY = "extra_play"

