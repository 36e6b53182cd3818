"""The exit codes of every command, in one place.

A game that ended and a log that verified share their values, so a script reads `play`, `host`, `join`,
`resume`, `verify` and `replay` the same way: 0 all is well, 1 somebody cheated (or the log was tampered
with), 2 nothing could be done (bad options, an unreadable file, a failed start), 3 the game stopped short;
and for `verify` of several logs, 4 a fork the rules cannot settle.
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    OK = 0
    """The game completed; the log is valid and complete."""
    VIOLATION = 1
    """A violation stopped the game, or the log shows one (tampering, cheating, a bad signature)."""
    FAILED = 2
    """Bad options, an unreadable or foreign file, a game that could not start or be joined."""
    INCOMPLETE = 3
    """The game was abandoned, left by another player (a goodbye) or stopped by agreement, or the log is valid
    so far but stops before the end."""
    UNSETTLED = 4
    """`verify` of several logs of one game: they fork, and the protocol's rules cannot say which branch
    stands."""
    UNANSWERED = 5
    """`resume`: no other player's program answered within the time it waits (`--timeout-sync`); the game may
    have ended without this seat, which only another seat's log can tell (`verify MINE THEIRS`). The log is as
    it was: nothing was written."""
    LEFT = 0
    """The person chose to leave before the end (and confirmed it): with other players, their goodbye ended
    the game; with only their own bots, the game can be resumed. Not an error."""
    INTERRUPTED = 130
    """Interrupted by a signal (Ctrl-C outside the game screen), as shells expect."""
    BROKEN_PIPE = 141
    """The reader of our output went away (`| head`)."""


def game_exit_code(status: str, *, log_violation: bool = False) -> ExitCode:
    """The exit code of a command that played a game, from the table's status ("complete", "violation",
    "abandoned", "left", "stopped", anything else: not finished) and whether verifying our log found a
    violation."""
    if status == "violation" or log_violation:
        return ExitCode.VIOLATION
    if status == "complete":
        return ExitCode.OK
    if status in ("abandoned", "left", "stopped"):
        return ExitCode.INCOMPLETE
    return ExitCode.LEFT


def game_exit_help(failed: str = "", *, resumed: bool = False) -> str:
    """The "Exit codes: ..." sentence of a command that plays a game, in the language spoken (`failed`: what
    exit code 2 means for the command, in that language; "failed to start" if not given; `resumed`: `resume`,
    which may find nobody left to answer it)."""
    from p2pspades.i18n import _

    codes = {"ok": int(ExitCode.OK), "violation": int(ExitCode.VIOLATION),
             "failed_code": int(ExitCode.FAILED), "failed": failed or _("failed to start"),
             "abandoned": int(ExitCode.INCOMPLETE), "interrupted": int(ExitCode.INTERRUPTED),
             "unanswered": int(ExitCode.UNANSWERED)}
    if resumed:
        return _("Exit codes: {ok} complete (or you chose to leave), {violation} violation, {failed_code} "
                 "{failed}, {abandoned} abandoned, left by another player or stopped by agreement, "
                 "{unanswered} nobody answered, {interrupted} interrupted.").format(**codes)
    return _("Exit codes: {ok} complete (or you chose to leave), {violation} violation, {failed_code} "
             "{failed}, {abandoned} abandoned, left by another player or stopped by agreement, {interrupted} "
             "interrupted.").format(**codes)
