"""The lobby in words: why a host refused us or closed its table, what a joiner found wrong with a proposal,
why the lobby could not seat us, and why a frame was dropped.

Every sentence is a template keyed by a code of `reasons.py`, its fields named after the `Reason`'s data,
marked for the catalogs and said in the language spoken.
Nothing here is made printable: names and an older host's own words come from the network, so the caller
escapes the text for a terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from p2pspades.i18n import N_, _
from p2pspades.i18n import said as detail_words
from p2pspades.reasons import Closing, Code, LobbyDrop, Objection, Reason, Refusal, Said, Trouble

REFUSALS: Mapping[Refusal, str] = {
    Refusal.FULL: N_("the table is full"),
    Refusal.BAD_NAME: N_("a name is 1..32 printable characters"),
    Refusal.BAD_ENDPOINT: N_("a game endpoint is tcp://HOST:PORT, with no wildcard host"),
    Refusal.BAD_OWNER_KEY: N_("a bot's owner is named by a 32-byte key"),
    Refusal.BAD_JOIN: N_("the join is malformed"),
    Refusal.SEATED_ELSEWHERE: N_("this key is already seated at this table by another running program: each "
                                  "player needs a profile of their own (--profile NAME)"),
    Refusal.OTHER_TABLE: N_("that join was meant for another table"),
    Refusal.OWNER_NOT_SEATED: N_("a bot's owner must be a player seated at this table"),
    Refusal.ONLY_PLAYERS: N_("this table carries on game {game}: only its players may sit"),
    Refusal.HOST_KEY: N_("that key belongs to the host or one of its bots"),
    Refusal.OWNER_LEFT: N_("{owner}, who runs this bot, left"),
    Refusal.REPLACED: N_("the host gave your seat to someone else"),
    Refusal.SILENT: N_("no word from you for too long"),
    Refusal.LEFT: N_("you left the table"),
}

CLOSINGS: Mapping[Closing, str] = {
    Closing.CANCELLED: N_("the host cancelled the table"),
    Closing.LEFT: N_("the host left"),
    Closing.STOPPED: N_("the host stopped"),
    Closing.FAILED: N_("the host's lobby failed"),
}

OBJECTIONS: Mapping[Objection, str] = {
    Objection.DOWNGRADE: N_("its protocol version is below the oldest we accept"),
    Objection.VERSION: N_("its protocol version differs from the announced one"),
    Objection.SIGNER: N_("it is not signed by the host"),
    Objection.SEATS: N_("its seats differ from the seat map"),
    Objection.RULES: N_("its rules differ from the announced ones"),
    Objection.FOLLOWS: N_("the game it follows differs from the announced one"),
    Objection.TABLE: N_("it is for another table"),
    Objection.NOT_SEATED: N_("we are not seated in it"),
}

TROUBLES: Mapping[Trouble, str] = {
    Trouble.REFUSED: N_("the host refused: {why}"),
    Trouble.CLOSED: N_("the host closed the table: {why}"),
    Trouble.DOWNGRADE: N_("the host proposes protocol version {version}, older than version {allowed} "
                          "({floor}){cost}; refused (to play it anyway: join with --allow-protocol "
                          "{version})"),
    Trouble.NO_ANSWER: N_("no table answers at {where}"),
    Trouble.HOST_SILENT: N_("the host at {where} stopped answering ({seconds:.0f} s)"),
    Trouble.CANNOT_LISTEN: N_("cannot listen on {where}: {error}"),
    Trouble.CANNOT_CONNECT: N_("cannot connect to {where}: {error}"),
    Trouble.BAD_MESSAGE: N_("the host sent a bad {kind}: {detail}"),
    Trouble.BAD_GENESIS: N_("the host's genesis is invalid: {detail}"),
    Trouble.BAD_PROPOSAL: N_("the host proposed a bad game: {objections}"),
    Trouble.FINGERPRINT: N_("the host's key fingerprint is {got}, not the expected {expected}"),
    Trouble.CHANGED: N_("the host changed the table's rules, protocol version, id or the game it follows"),
    Trouble.SEAT_TAKEN: N_("the host took our seat away"),
    Trouble.FOLLOWS: "{problem}",  # the words of the check the edge made (`GuestLobby.check_after`)
    Trouble.DECLINED: N_("we declined the table"),
    Trouble.CANCELLED: N_("the host cancelled the table"),
    Trouble.STOPPED: N_("the lobby was stopped"),
    Trouble.ALREADY_SEATED: N_("that key is already seated"),
    Trouble.NOT_FREE: N_("seat {seat} is not free"),
    Trouble.FULL: N_("the table is full"),
    Trouble.CANNOT_EMPTY: N_("seat {seat} cannot be emptied"),
    Trouble.NOT_A_BOT: N_("seat {seat} is not a bot"),
    Trouble.NO_PLACE: N_("seat {seat} is not free and holds no bot"),
    Trouble.NOT_HOST_BOT: N_("seat {seat} is not one of the host's bots"),
    Trouble.NOT_READY: N_("the table can start only once every seat is taken"),
    Trouble.OVER: N_("the lobby is over"),
}

DROPS: Mapping[LobbyDrop, str] = {
    LobbyDrop.OVER: N_("the lobby is over"),
    LobbyDrop.BAD_FRAME: "{detail}",
    LobbyDrop.SECOND_PROGRAM: N_("a second program joined with the key of seat {seat}"),
    LobbyDrop.OTHER_GENESIS: N_("seat {seat} accepted another genesis"),
    LobbyDrop.UNEXPECTED: N_("an unexpected {kind!r}"),
}

#: what playing protocol version 1 gives up
VERSION_1_COST = N_(": version 1 proves no shuffle, lock or void claim as it is made")

#: an older peer's own words, where a code is expected
THEIR_WORDS = N_("{text} (in its own words)")

_TEMPLATES: Mapping[type, Mapping[Any, str]] = {
    Refusal: REFUSALS, Closing: CLOSINGS, Objection: OBJECTIONS, Trouble: TROUBLES, LobbyDrop: DROPS,
}


def why(code: Refusal | Closing | Said, **data: Any) -> str:
    """A refusal or a closing in words (an older host's own words as they came)."""
    if isinstance(code, Said):
        return _(THEIR_WORDS).format(text=code.text)
    if code is Refusal.OWNER_LEFT and not data.get("owner"):
        return _("the player who runs this bot left")
    if code is Refusal.ONLY_PLAYERS and not data.get("game"):
        return _("this table carries on a game: only its players may sit")
    return _(_TEMPLATES[type(code)][code]).format(**data)


def objections(found: Iterable[Objection | Said]) -> str:
    """What a joiner found wrong with a proposal, in one line."""
    # TRANSLATORS: between the things a joiner found wrong with a host's proposal
    return _("; ").join(_(THEIR_WORDS).format(text=o.text) if isinstance(o, Said) else _(OBJECTIONS[o])
                        for o in found)


def said(reason: Reason) -> str:
    """A lobby reason in words."""
    code: Code = reason.code
    data = dict(reason.args)
    if isinstance(data.get("detail"), str):
        data["detail"] = detail_words(data["detail"])
    if code in (Trouble.REFUSED, Trouble.CLOSED):
        data["why"] = why(data.pop("why"), **data)
    elif code is Trouble.BAD_PROPOSAL:
        data["objections"] = objections(data["objections"])
    elif code is Trouble.DOWNGRADE:
        newest = data.pop("newest", False)
        data["floor"] = _("the newest this program speaks") if newest else _("the oldest you allowed")
        data["cost"] = _(VERSION_1_COST) if data["version"] == 1 else ""
    return _(_TEMPLATES[type(code)][code]).format(**data)
