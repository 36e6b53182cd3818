"""What a log proves, in words: a verdict's summary, an abandonment claim, a fault's forfeit, why a game does
not follow another as it says, and what comparing several players' logs found.

Every sentence is a template keyed by a code of `reasons.py` (`Finding`, `Follows`, `Settled`), its fields
named after the `Reason`'s data. File names and a check's detail come from outside: the caller escapes the
text for a terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from p2pspades.describe import change_text, dropped, failed
from p2pspades.reasons import ClaimFacts, EndFacts, Finding, Follows, Reason, Settled

FINDINGS: Mapping[Finding, str] = {
    Finding.NO_FILE: "{path}: no such file",
    Finding.DIRECTORY: "{path} is a directory, not a log file",
    Finding.CANNOT_READ: "{path}: cannot read: {error}",
    Finding.UNREADABLE: "{detail}",
    Finding.HAND_RECORD: ("{path} is a hand record written by 'p2pspades export', not a game log: verify the "
                          ".p2plog file it was exported from"),
    Finding.EMPTY: "the log holds no entry: nothing was recorded",
    Finding.NOT_GENESIS: "entry 0 is not a genesis entry: {detail}",
    Finding.BAD_GENESIS: "entry 0 (the genesis) fails the {check} check: {detail}",
    Finding.PROOF: "entry {entry}: a proof does not verify",
    Finding.HALTED: "entry {entry}: {failed}{ended}",
    Finding.EARLIER_CLAIM: ("valid up to entry {last}, then an abandonment claim of an earlier release at "
                            "entry {at} (on the chain, with `why`), which this verifier does not judge"),
    Finding.REJECTED: "entry {entry}: {failed}",
    Finding.DROPPED: "entry {entry}: {dropped}",
    Finding.BROKEN: "entry {entry} is out of sequence: the chain is broken",
    Finding.REPEATED: "entry {entry} repeats an earlier entry",
    Finding.PENALISED: "the game is complete, but entry {entry}: {failed} (penalised)",
    Finding.COMPLETE: "valid and complete: {entries} entries",
    Finding.ABANDONED: "valid, but abandoned at entry {last}: {claim}{ended}",
    Finding.INCOMPLETE: "valid so far, but incomplete: it stops after entry {last}{waiting}",
}
#: what an incomplete log waits for, and the claim it waits with
WAITING = "; it waits for seat {seat}'s {what}"
WAITING_CLAIMED = "; it waits for seat {seat}'s {what}, and {claim}"
#: a log whose last frame a crash cut short
TORN = "; the last frame (at byte {offset}) is cut short, as a crash during a write leaves it"

FOLLOWS: Mapping[Follows, str] = {
    Follows.NO_GENESIS: "the new log has no readable genesis",
    Follows.NO_AFTER: "game {game} follows no game: its genesis has no 'after'",
    Follows.OLD_UNREADABLE: "the old log has no readable genesis: {old}",
    Follows.CHANGES: "{changes}",
}

SETTLED: Mapping[Settled, str] = {
    Settled.NO_LOG: "no file is a readable log",
    Settled.SAME_ID: "{first} and {other} hold different genesis entries for one game id ({game})",
    Settled.OTHER_GAMES: "{first} is game {game}, {other} is game {other_game}: give the logs of one game",
    Settled.ORDER: "the outcome depends on the order the logs are read in ({orders})",
    Settled.ONLY_LOG: "it is the only readable log",
    Settled.PREFIX: "every other log is a prefix of it",
    Settled.TAKEN: ("the observer that has seen everything every log holds takes it as entry {seq} whichever "
                    "log it reads first, and refuses {refused}"),
    Settled.HALTS: ("the observer that has seen everything every log holds halts, whichever log it reads "
                    "first: entry {entry}: {failed}"),
    Settled.EITHER: "the observer keeps whichever entry {seq} it reads first, and no rule refuses the other",
    Settled.NONE_STANDS: "no forked entry stands as entry {seq}, and no violation settles the fork",
    Settled.VIOLATION: "entry {entry}: {failed}",
    Settled.REJECTED: "{failed}",
    Settled.DROPPED: "{dropped}",
    Settled.NOT_TAKEN: "it was not taken",
}
#: one reading of a dispute, for `Settled.ORDER`
READ_FIRST = "read from {log} first: {verdict}"
#: a forked entry the observer refused, for `Settled.TAKEN`
REFUSED_ENTRY = "the entry {seq} of {logs}: {why}"


def seats(numbers: Sequence[int]) -> str:
    """"seat 2", "seats 0, 1"."""
    return ("seat " if len(numbers) == 1 else "seats ") + ", ".join(str(s) for s in numbers)


def sides(numbers: Sequence[int]) -> str:
    """"side 0 and side 1"."""
    return " and ".join(f"side {n}" for n in numbers)


def abandonment(claim: ClaimFacts | None) -> str:
    """What a log proves about an abandonment: who signed that which seat kept the table waiting, after how
    long by their clocks, and whether that made a certificate (a claim of silence, never a proof of it)."""
    if claim is None:
        return "no seat was claimed to have stopped answering"
    after = " or ".join(f"{w} s" for w in claim.waits)
    said = (
        f"{seats(claim.voters)} signed that seat {claim.accused} kept the table waiting for its "
        f"{claim.awaited or 'entry'} (entry {claim.seq}) past the timeout in force ({after})"
    )
    if claim.certified:
        return said + f": a certificate at entry {claim.seq} (a claim of silence, not a proof)"
    if claim.refusers:
        return said + f"; {seats(claim.refusers)} took its entry first: the claim is void"
    return said + f"; no certificate: {seats(claim.missing)} signed nothing yet"


def forfeit(ended: EndFacts | None) -> str | None:
    """"forfeit by seat X: why" for a game that ended on a fault whose side forfeits (else None)."""
    if ended is None or not ended.forfeit:
        return None
    if ended.abandoned:
        why = f"the certificate of {seats(ended.signers)} says it stopped answering"
    elif ended.check is not None:
        why = failed(ended.check, ended.detail)
    else:  # pragma: no cover - a fault is an abandonment or a violation
        why = f"seat {ended.seat} is at fault"
    return f"forfeit by seat {ended.seat}: {why}"


def ending(ended: EndFacts | None) -> str:
    """What a fault makes of the game for the sides, after a verdict's summary ("" for no fault)."""
    if ended is None:
        return ""
    if ended.contested:
        return "; contested: every seat that signed the certificate wins by it, so nobody wins"
    if not ended.forfeit:
        return "; the game is void (rule on_fault=void)"
    verb = "wins" if len(ended.winners) == 1 else "win"
    return f"; forfeit by seat {ended.seat}: {sides(ended.winners)} {verb}"


def summary(finding: Reason) -> str:
    """A verdict's summary: what the log proves, in one line."""
    return said(finding)


def said(reason: Reason) -> str:
    """A finding, a problem of a game that follows another, or what a dispute found, in words."""
    code, data = reason.code, dict(reason.args)
    if isinstance(code, Finding):
        text = FINDINGS[code].format(**_finding_words(code, data))
        return text + (TORN.format(offset=data["torn"]) if data.get("torn") is not None else "")
    if isinstance(code, Follows):
        if code is Follows.OLD_UNREADABLE:
            data["old"] = said(data["old"])
        if code is Follows.CHANGES:
            data["changes"] = "; ".join(change_text(c) for c in data["changes"])
        return FOLLOWS[code].format(**data)
    if isinstance(code, Settled):
        return SETTLED[code].format(**_settled_words(code, data))
    raise ValueError(f"not a finding: {code!r}")


def _finding_words(code: Finding, data: dict[str, Any]) -> dict[str, Any]:
    if "check" in data and "detail" in data and code is not Finding.BAD_GENESIS:
        data["failed"] = failed(data["check"], data["detail"], data.get("seat"))
    if code is Finding.DROPPED:
        data["dropped"] = dropped(data["drop"])
    if code in (Finding.HALTED, Finding.ABANDONED):
        data["ended"] = ending(data.get("ended"))
    if code in (Finding.ABANDONED, Finding.INCOMPLETE):
        claim = data.get("claim")
        waiting = data.get("waiting")
        data["claim"] = abandonment(claim)
        if code is Finding.INCOMPLETE:
            template = WAITING_CLAIMED if claim is not None else WAITING
            data["waiting"] = "" if waiting is None else template.format(
                seat=waiting[0], what=waiting[1], claim=data["claim"])
    return data


def _settled_words(code: Settled, data: dict[str, Any]) -> dict[str, Any]:
    if "check" in data and "detail" in data:
        data["failed"] = failed(data["check"], data["detail"], data.get("seat"))
    if code is Settled.DROPPED:
        data["dropped"] = dropped(data["drop"])
    if code is Settled.ORDER:
        data["orders"] = "; ".join(
            READ_FIRST.format(log=log, verdict=said(found)) for log, found in data["orders"])
    if code is Settled.TAKEN:
        data["refused"] = "; and ".join(
            REFUSED_ENTRY.format(seq=data["seq"], logs=logs, why="not taken" if why is None else said(why))
            for logs, why in data["refused"])
    return data
