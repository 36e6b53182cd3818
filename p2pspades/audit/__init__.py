"""Auditing a finished (or stopped) game offline: the verifier, and the hand records it exports.

It sits above `table`: the verifier replays a log through the table machine as an observer.
"""

from p2pspades.audit.record import FORMAT, hand_record, summary_lines, text_record
from p2pspades.audit.verify import Status, Verdict, verify_file, verify_frames

__all__ = [
    "FORMAT",
    "Status",
    "Verdict",
    "hand_record",
    "summary_lines",
    "text_record",
    "verify_file",
    "verify_frames",
]
