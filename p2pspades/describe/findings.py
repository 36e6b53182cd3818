"""What a log proves, in words: a verdict's summary, an abandonment claim, a fault's forfeit, why a game does
not follow another as it says, and what comparing several players' logs found.

Every sentence is a template keyed by a code of `reasons.py` (`Finding`, `Follows`, `Settled`), its fields
named after the `Reason`'s data. File names and a check's detail come from outside: the caller escapes the
text for a terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from p2pspades.describe import change_text, dropped, failed, parted, penalty, seats_word
from p2pspades.i18n import N_, N_plural, _, ngettext
from p2pspades.i18n import said as detail_words
from p2pspades.reasons import ClaimFacts, EndFacts, Finding, Follows, Reason, Settled

FINDINGS: Mapping[Finding, str] = {
    Finding.NO_FILE: N_("{path}: no such file"),
    Finding.DIRECTORY: N_("{path} is a directory, not a log file"),
    Finding.CANNOT_READ: N_("{path}: cannot read: {error}"),
    Finding.UNREADABLE: "{detail}",
    Finding.HAND_RECORD: N_("{path} is a hand record written by 'p2pspades export', not a game log: verify "
                            "the .p2plog file it was exported from"),
    Finding.EMPTY: N_("the log holds no entry: nothing was recorded"),
    Finding.NOT_GENESIS: N_("entry 0 is not a genesis entry: {detail}"),
    Finding.BAD_GENESIS: N_("entry 0 (the genesis) fails the {check} check: {detail}"),
    Finding.PROOF: N_("entry {entry}: a proof does not verify"),
    Finding.HALTED: N_("entry {entry}: {failed}{ended}"),
    Finding.EARLIER_CLAIM: N_("valid up to entry {last}, then an abandonment claim of an earlier release at "
                              "entry {at} (on the chain, with `why`), which this verifier does not judge"),
    Finding.EARLIER_REFUSAL: N_("valid up to entry {last}, then a refusal of an earlier release (the hash of "
                                "the entry it took, not the entry), which this verifier does not judge"),
    Finding.REJECTED: N_("entry {entry}: {failed}"),
    Finding.DROPPED: N_("entry {entry}: {dropped}"),
    Finding.BROKEN: N_("entry {entry} is out of sequence: the chain is broken"),
    Finding.REPEATED: N_("entry {entry} repeats an earlier entry"),
    Finding.PENALISED: N_("the game is complete, but entry {entry}: {failed} ({cost})"),
    Finding.COMPLETE: "{complete}",  # COMPLETE, by the count of entries
    Finding.ABANDONED: N_("valid, but abandoned at entry {last}: {claim}{ended}"),
    Finding.INCOMPLETE: N_("valid so far, but incomplete: it stops after entry {last}{waiting}"),
    Finding.PARTED: N_("valid, ended at entry {last}: {parted}{ended}"),
}
COMPLETE = N_plural("valid and complete: {entries} entry", "valid and complete: {entries} entries")
#: what an incomplete log waits for, and the claim it waits with
WAITING = N_("; it waits for seat {seat}'s {what}")
WAITING_CLAIMED = N_("; it waits for seat {seat}'s {what}, and {claim}")
#: a fault that did not end an abandoned or unfinished game (a `Finding.PENALISED` reason)
AND_FAULT = N_("; and entry {entry}: {failed} ({cost})")
#: a log whose last frame a crash cut short
TORN = N_("; the last frame (at byte {offset}) is cut short, as a crash during a write leaves it")

FOLLOWS: Mapping[Follows, str] = {
    Follows.NO_GENESIS: N_("the new log has no readable genesis"),
    Follows.NO_AFTER: N_("game {game} follows no game: its genesis has no 'after'"),
    Follows.OLD_UNREADABLE: N_("the old log has no readable genesis: {old}"),
    Follows.CHANGES: "{changes}",
}

SETTLED: Mapping[Settled, str] = {
    Settled.NO_LOG: N_("no file is a readable log"),
    Settled.SAME_ID: N_("{first} and {other} hold different genesis entries for one game id "
                        "({game})"),
    Settled.OTHER_GAMES: N_("{first} is game {game}, {other} is game {other_game}: give the logs of one "
                            "game"),
    Settled.ORDER: N_("the outcome depends on the order the logs are read in ({orders})"),
    Settled.ONLY_LOG: N_("it is the only readable log"),
    Settled.PREFIX: N_("every other log is a prefix of it"),
    Settled.TAKEN: N_("the observer that has seen everything every log holds takes it as entry {seq} "
                      "whichever log it reads first, and refuses {refused}"),
    Settled.HALTS: N_("the observer that has seen everything every log holds halts, whichever log it reads "
                      "first: entry {entry}: {failed}"),
    Settled.EITHER: N_("the observer keeps whichever entry {seq} it reads first, and no rule refuses the "
                       "other"),
    Settled.NONE_STANDS: N_("no forked entry stands as entry {seq}, and no violation settles the fork"),
    Settled.VIOLATION: N_("entry {entry}: {failed}"),
    Settled.REJECTED: "{failed}",
    Settled.DROPPED: "{dropped}",
    Settled.NOT_TAKEN: N_("it was not taken"),
}
#: one reading of a dispute, for `Settled.ORDER`
READ_FIRST = N_("read from {log} first: {verdict}")
#: a forked entry the observer refused, for `Settled.TAKEN`
REFUSED_ENTRY = N_("the entry {seq} of {logs}: {why}")


def sides(numbers: Sequence[int]) -> str:
    """"side 0 and side 1"."""
    # TRANSLATORS: the sides that win together: "side 0 and side 2"
    return _(" and ").join(_("side {side}").format(side=n) for n in numbers)


def abandonment(claim: ClaimFacts | None) -> str:
    """What a log proves about an abandonment: who signed that which seat kept the table waiting, after how
    long by their clocks, and whether that made a certificate or a stalled ending (a claim of silence, never
    a proof of it), or a refusal voided it."""
    if claim is None:
        return _("no seat was claimed to have stopped answering")
    # TRANSLATORS: between the timeouts the voters had: "30 s or 60 s"
    after = _(" or ").join(_("{seconds} s").format(seconds=w) for w in claim.waits)
    data = {"voters": seats_word(claim.voters), "accused": claim.accused, "seq": claim.seq, "after": after,
            "awaited": claim.awaited or _("entry")}
    if claim.claimed:  # only seats that win by it signed: a claim, no more
        return ngettext(
            "{voters} claimed that seat {accused} kept it waiting for its {awaited} (entry {seq}) past the "
            "timeout in force ({after}): a certificate at entry {seq} that only seats who win by it signed",
            "{voters} claimed that seat {accused} kept them waiting for its {awaited} (entry {seq}) past the "
            "timeout in force ({after}): a certificate at entry {seq} that only seats who win by it signed",
            len(claim.voters)).format(**data)
    said = _("{voters} signed that seat {accused} kept the table waiting for its {awaited} (entry {seq}) "
             "past the timeout in force ({after})").format(**data)
    if claim.stalled:
        then = _(", and, a timeout later, that {seats} signed nothing: a stalled ending at entry {seq} (the "
                 "seats still playing ended it; a claim of silence, not a proof)").format(
            seats=seats_word(claim.stalled), seq=claim.seq)
    elif claim.certified:
        then = _(": a certificate at entry {seq} (a claim of silence, not a proof)").format(seq=claim.seq)
    elif claim.refusers:
        then = _("; {seats} took its entry first: the claim is void").format(seats=seats_word(claim.refusers))
    else:
        then = _("; no certificate: {seats} signed nothing yet").format(seats=seats_word(claim.missing))
    return said + then


def forfeit(ended: EndFacts | None) -> str | None:
    """"forfeit by seat X: why" for a game that ended on a fault whose side forfeits (else None)."""
    if ended is None or not ended.forfeit:
        return None
    if ended.abandoned:
        signers = seats_word(ended.signers)
        why = _("the certificate of {seats} says it stopped answering").format(seats=signers)
    elif ended.left:
        why = _("it left the game (a signed goodbye)")
    elif ended.check is not None:
        why = failed(ended.check, ended.detail)
    else:  # pragma: no cover - a fault is an abandonment or a violation
        why = _("seat {seat} is at fault").format(seat=ended.seat)
    return _("forfeit by seat {seat}: {why}").format(seat=ended.seat, why=why)


def ending(ended: EndFacts | None) -> str:
    """What a fault makes of the game for the sides, after a verdict's summary ("" for no fault)."""
    if ended is None:
        return ""
    if ended.scored:
        if not ended.winners:
            return _("; the game was decided before its end: the result stands, nobody wins")
        return ngettext("; the game was decided before its end: the result stands, {sides} wins",
                        "; the game was decided before its end: the result stands, {sides} win",
                        len(ended.winners)).format(sides=sides(ended.winners))
    if ended.missing:
        missing = seats_word(ended.missing)
        return _("; contested: {seats} signed nothing, so nobody wins").format(seats=missing)
    if ended.contested:
        text = _("; contested: every seat that signed the certificate wins by it, so nobody wins")
        if ended.answer is not None:
            kind, seq, digest = ended.answer
            text += _("; this log holds seat {seat}'s own {type} for entry {seq}, signed (hash {digest}…): a "
                      "claim against a signed answer, a dispute, not a silence").format(
                seat=ended.seat, type=kind, seq=seq, digest=digest)
        return text
    if not ended.forfeit:
        return _("; the game is void (rule on_fault=void)")
    won = ngettext("; forfeit by seat {seat}: {sides} wins", "; forfeit by seat {seat}: {sides} win",
                   len(ended.winners))
    return won.format(seat=ended.seat, sides=sides(ended.winners))


def summary(finding: Reason) -> str:
    """A verdict's summary: what the log proves, in one line."""
    return said(finding)


def said(reason: Reason) -> str:
    """A finding, a problem of a game that follows another, or what a dispute found, in words."""
    code, data = reason.code, dict(reason.args)
    if isinstance(code, Finding):
        text = _(FINDINGS[code]).format(**_finding_words(code, data))
        fault = data.get("fault")
        if fault is not None:
            text += _(AND_FAULT).format(**_finding_words(Finding.PENALISED, dict(fault.args)))
        return text + (_(TORN).format(offset=data["torn"]) if data.get("torn") is not None else "")
    if isinstance(code, Follows):
        if code is Follows.OLD_UNREADABLE:
            data["old"] = said(data["old"])
        if code is Follows.CHANGES:
            data["changes"] = _("; ").join(change_text(c) for c in data["changes"])
        return _(FOLLOWS[code]).format(**data)
    if isinstance(code, Settled):
        return _(SETTLED[code]).format(**_settled_words(code, data))
    raise ValueError(f"not a finding: {code!r}")


def _finding_words(code: Finding, data: dict[str, Any]) -> dict[str, Any]:
    if isinstance(data.get("detail"), str):
        data["detail"] = detail_words(data["detail"])
    if "check" in data and "detail" in data and code is not Finding.BAD_GENESIS:
        data["failed"] = failed(data["check"], data["detail"], data.get("seat"))
    if code is Finding.DROPPED:
        data["dropped"] = dropped(data["drop"])
    if code is Finding.PENALISED:
        data["cost"] = penalty(data["check"], data["renege"]) if data["audit"] else _(
            "named: it is not a claim, and the result stands")
    if code is Finding.COMPLETE:
        data["complete"] = ngettext(*COMPLETE, data["entries"]).format(entries=data["entries"])
    if code in (Finding.HALTED, Finding.ABANDONED, Finding.PARTED):
        data["ended"] = ending(data.get("ended"))
    if code is Finding.PARTED:
        data["parted"] = parted(data["parted"])
    if code in (Finding.ABANDONED, Finding.INCOMPLETE):
        claim = data.get("claim")
        waiting = data.get("waiting")
        data["claim"] = abandonment(claim)
        if code is Finding.INCOMPLETE:
            template = WAITING_CLAIMED if claim is not None else WAITING
            data["waiting"] = "" if waiting is None else _(template).format(
                seat=waiting[0], what=waiting[1], claim=data["claim"])
    return data


def _settled_words(code: Settled, data: dict[str, Any]) -> dict[str, Any]:
    if isinstance(data.get("detail"), str):
        data["detail"] = detail_words(data["detail"])
    if "check" in data and "detail" in data:
        data["failed"] = failed(data["check"], data["detail"], data.get("seat"))
    if code is Settled.DROPPED:
        data["dropped"] = dropped(data["drop"])
    if code is Settled.ORDER:
        data["orders"] = _("; ").join(
            _(READ_FIRST).format(log=log, verdict=said(found)) for log, found in data["orders"])
    if code is Settled.TAKEN:
        data["refused"] = _("; and ").join(
            _(REFUSED_ENTRY).format(seq=data["seq"], logs=logs,
                                    why=_("not taken") if why is None else said(why))
            for logs, why in data["refused"])
    return data
