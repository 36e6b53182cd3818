"""A dispute in words: what `verify` prints for several players' logs of one game (each log's own verdict,
where they agree, the fork, the branch the rules uphold and why), and which branch stands, in the words the
page says too. File names and names come from outside and are made printable here.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pspades.audit.dispute import Branch, Dispute, LogCase, Ruling
from p2pspades.describe.findings import said
from p2pspades.describe.record import summary_lines
from p2pspades.i18n import _, ngettext
from p2pspades.printable import printable


def _name(cases: list[LogCase], i: int) -> str:
    return printable(cases[i].path)


def _names(cases: list[LogCase], logs: Sequence[int]) -> str:
    return _(" and ").join(_name(cases, i) for i in logs)


def _short(digest: bytes) -> str:
    return digest.hex()[:16] + "…"


def _held(cases: list[LogCase], b: Branch) -> str:
    return ngettext("{logs} holds seat {seat}'s {entry} (hash {hash})",
                    "{logs} hold seat {seat}'s {entry} (hash {hash})", len(b.logs)).format(
        logs=_names(cases, b.logs), seat=b.entry.seat, entry=printable(b.entry.type),
        hash=_short(b.entry.hash))


def dispute_lines(d: Dispute) -> list[str]:
    """What `verify` prints for several logs: each log's own verdict, then the comparison and the ruling."""
    lines = [f"{_name(d.logs, i)}: {printable(case.verdict.summary)}" for i, case in enumerate(d.logs)]
    left_out = [i for i, case in enumerate(d.logs) if not case.readable]
    if left_out:
        lines.append(_("left out (not a readable log): {logs}").format(logs=_names(d.logs, left_out)))
    if not d.one_game:
        lines.append(_("one game: no: {why}").format(why=printable(problem(d))))
        return lines
    verdict = d.readings[0].verdict
    assert verdict.table is not None
    table = verdict.table
    lines.append(_("one game: yes: game {id}, table '{table}'").format(id=table.game_id.hex(),
                                                                     table=printable(table.setup.name)))
    agreed = (_("agree up to entry {entry}, where the longest log ends") if d.fork is None
              else _("agree up to entry {entry}"))
    lines.append(agreed.format(entry=d.agreed - 1))
    for i in d.behind:
        lines.append(_("behind: {log} stops after entry {entry}").format(log=_name(d.logs, i),
                                                                        entry=len(d.logs[i].chain) - 1))
    if d.fork is None:
        lines.append(_("no fork"))
    else:
        lines.append(_("fork at entry {entry}: {branches}").format(
            entry=d.fork.seq, branches=", ".join(_held(d.logs, b) for b in d.fork.branches)))
    upheld_line = _("upheld: {branch}, because {why}")
    lines.append(upheld_line.format(branch=upheld_words(d), why=printable(because(d))))
    upheld = d.verdict
    if upheld is None:
        lines.append(_("result: none: a fork the rules cannot settle"))
    else:
        result = summary_lines(upheld)
        lines.append(_("result: {verdict}").format(verdict=result[0]))
        lines += result[1:]
    return lines


def upheld_words(d: Dispute) -> str:
    """Which branch stands, in the words `verify` prints after "upheld: " (the page says the same)."""
    if d.ruling is Ruling.BRANCH and d.upheld is not None:
        return _("the branch of {logs}").format(logs=_names(d.logs, d.upheld.logs))
    if d.ruling is Ruling.NEITHER:
        return _("neither branch")
    if d.ruling is Ruling.NO_FORK:
        return _("{log}, the longest log").format(log=_name(d.logs, d.longest))
    return _("nothing: a fork the rules cannot settle")


def problem(d: Dispute) -> str:
    """Why the logs are not of one game, or why nothing could be compared, in words."""
    return "" if d.problem is None else said(d.problem)


def because(d: Dispute) -> str:
    """Why the ruling, in words (the page says the same)."""
    return "" if d.why is None else said(d.why)
