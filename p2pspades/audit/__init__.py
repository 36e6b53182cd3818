"""Auditing a finished (or stopped) game offline: the verifier, and the hand records it exports.

It sits above `table`: the log reader replays a log through the table machine as an observer, and tells
typed callbacks (a `GameVisitor`) what it proves. What it proves is data (`Verdict.finding`, the facts of a
dispute); the words people read are the describer's (`describe.findings`, `describe.record`,
`describe.dispute`, `describe.page`).
"""

from p2pspades.audit.dispute import Dispute, Ruling, dispute_record, settle
from p2pspades.audit.history import Ending, GameRow, Partner, PlayedGame, Stats, game_rows, seat_stats, stats
from p2pspades.audit.reader import GameVisitor, read_game, tell
from p2pspades.audit.record import FORMAT, hand_record, winning_sides
from p2pspades.audit.verify import Status, Verdict, verify_file, verify_frames

__all__ = [
    "FORMAT",
    "Dispute",
    "Ending",
    "GameRow",
    "GameVisitor",
    "Partner",
    "PlayedGame",
    "Ruling",
    "Stats",
    "Status",
    "Verdict",
    "dispute_record",
    "game_rows",
    "hand_record",
    "read_game",
    "seat_stats",
    "settle",
    "stats",
    "tell",
    "verify_file",
    "verify_frames",
    "winning_sides",
]
