"""The offline verifier: replay a log through the table machine as an observer and give a verdict.

The observer holds no seat and no cards. It checks every entry exactly as a peer does (encoding, signature,
chain, turn, fields, cryptography, rules) and, at the end of every hand, recomputes the deal from the revealed
seeds and audits every play with all hands known. So a log verifies only if the game it records was played
honestly, by the rules, start to finish. The replay is `audit.reader.read_game`'s; these read a log for its
verdict alone.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from p2pspades.audit.reader import read_game
from p2pspades.audit.verdict import Status, Verdict, abandonment, forfeit, unreadable

__all__ = ["Status", "Verdict", "abandonment", "forfeit", "unreadable", "verify_file", "verify_frames"]


def verify_file(path: str | os.PathLike[str]) -> Verdict:
    """Verify the log file at `path`. Never raises for a bad file: the verdict says what is wrong."""
    return read_game(path)


def verify_frames(frames: Sequence[bytes]) -> Verdict:
    """Verify a game given as its raw entries, genesis first."""
    return read_game(frames)
