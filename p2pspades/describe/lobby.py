"""The lobby in words: why a host refused us or closed its table, what a joiner found wrong with a proposal,
why the lobby could not seat us, and why a frame was dropped.

Every sentence is a template keyed by a code of `reasons.py`, its fields named after the `Reason`'s data.
Nothing here is made printable: names and an older host's own words come from the network, so the caller
escapes the text for a terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from p2pspades.reasons import Closing, Code, LobbyDrop, Objection, Reason, Refusal, Said, Trouble

REFUSALS: Mapping[Refusal, str] = {
    Refusal.FULL: "the table is full",
    Refusal.BAD_NAME: "a name is 1..32 printable characters",
    Refusal.BAD_ENDPOINT: "a game endpoint is tcp://HOST:PORT, with no wildcard host",
    Refusal.BAD_OWNER_KEY: "a bot's owner is named by a 32-byte key",
    Refusal.BAD_JOIN: "the join is malformed",
    Refusal.SEATED_ELSEWHERE: ("this key is already seated at this table by another running program: each "
                               "player needs a profile of their own (--profile NAME)"),
    Refusal.OTHER_TABLE: "that join was meant for another table",
    Refusal.OWNER_NOT_SEATED: "a bot's owner must be a player seated at this table",
    Refusal.ONLY_PLAYERS: "this table carries on game {game}: only its players may sit",
    Refusal.HOST_KEY: "that key belongs to the host or one of its bots",
    Refusal.OWNER_LEFT: "{owner}, who runs this bot, left",
    Refusal.REPLACED: "the host gave your seat to someone else",
    Refusal.SILENT: "no word from you for too long",
    Refusal.LEFT: "you left the table",
}

CLOSINGS: Mapping[Closing, str] = {
    Closing.CANCELLED: "the host cancelled the table",
    Closing.LEFT: "the host left",
    Closing.STOPPED: "the host stopped",
    Closing.FAILED: "the host's lobby failed",
}

OBJECTIONS: Mapping[Objection, str] = {
    Objection.DOWNGRADE: "its protocol version is below the oldest we accept",
    Objection.VERSION: "its protocol version differs from the announced one",
    Objection.SIGNER: "it is not signed by the host",
    Objection.SEATS: "its seats differ from the seat map",
    Objection.RULES: "its rules differ from the announced ones",
    Objection.FOLLOWS: "the game it follows differs from the announced one",
    Objection.TABLE: "it is for another table",
    Objection.NOT_SEATED: "we are not seated in it",
}

TROUBLES: Mapping[Trouble, str] = {
    Trouble.REFUSED: "the host refused: {why}",
    Trouble.CLOSED: "the host closed the table: {why}",
    Trouble.DOWNGRADE: ("the host proposes protocol version {version}, older than version {allowed} "
                        "({floor}){cost}; refused (to play it anyway: join with --allow-protocol {version})"),
    Trouble.NO_ANSWER: "no table answers at {where}",
    Trouble.HOST_SILENT: "the host at {where} stopped answering ({seconds:.0f} s)",
    Trouble.CANNOT_LISTEN: "cannot listen on {where}: {error}",
    Trouble.CANNOT_CONNECT: "cannot connect to {where}: {error}",
    Trouble.BAD_MESSAGE: "the host sent a bad {kind}: {detail}",
    Trouble.BAD_GENESIS: "the host's genesis is invalid: {detail}",
    Trouble.BAD_PROPOSAL: "the host proposed a bad game: {objections}",
    Trouble.FINGERPRINT: "the host's key fingerprint is {got}, not the expected {expected}",
    Trouble.CHANGED: "the host changed the table's rules, protocol version, id or the game it follows",
    Trouble.SEAT_TAKEN: "the host took our seat away",
    Trouble.FOLLOWS: "{problem}",
    Trouble.DECLINED: "we declined the table",
    Trouble.CANCELLED: "the host cancelled the table",
    Trouble.STOPPED: "the lobby was stopped",
    Trouble.ALREADY_SEATED: "that key is already seated",
    Trouble.NOT_FREE: "seat {seat} is not free",
    Trouble.FULL: "the table is full",
    Trouble.CANNOT_EMPTY: "seat {seat} cannot be emptied",
    Trouble.NOT_A_BOT: "seat {seat} is not a bot",
    Trouble.NO_PLACE: "seat {seat} is not free and holds no bot",
    Trouble.NOT_HOST_BOT: "seat {seat} is not one of the host's bots",
    Trouble.NOT_READY: "the table can start only once every seat is taken",
    Trouble.OVER: "the lobby is over",
}

DROPS: Mapping[LobbyDrop, str] = {
    LobbyDrop.OVER: "the lobby is over",
    LobbyDrop.BAD_FRAME: "{detail}",
    LobbyDrop.SECOND_PROGRAM: "a second program joined with the key of seat {seat}",
    LobbyDrop.OTHER_GENESIS: "seat {seat} accepted another genesis",
    LobbyDrop.UNEXPECTED: "an unexpected {kind!r}",
}

#: what playing protocol version 1 gives up
VERSION_1_COST = ": version 1 proves no shuffle, lock or void claim as it is made"

#: an older peer's own words, where a code is expected
THEIR_WORDS = "{text} (in its own words)"

_TEMPLATES: Mapping[type, Mapping[Any, str]] = {
    Refusal: REFUSALS, Closing: CLOSINGS, Objection: OBJECTIONS, Trouble: TROUBLES, LobbyDrop: DROPS,
}


def why(code: Refusal | Closing | Said, **data: Any) -> str:
    """A refusal or a closing in words (an older host's own words as they came)."""
    if isinstance(code, Said):
        return THEIR_WORDS.format(text=code.text)
    if code is Refusal.OWNER_LEFT and not data.get("owner"):
        return "the player who runs this bot left"
    if code is Refusal.ONLY_PLAYERS and not data.get("game"):
        return "this table carries on a game: only its players may sit"
    return _TEMPLATES[type(code)][code].format(**data)


def objections(found: Iterable[Objection | Said]) -> str:
    """What a joiner found wrong with a proposal, in one line."""
    return "; ".join(THEIR_WORDS.format(text=o.text) if isinstance(o, Said) else OBJECTIONS[o] for o in found)


def said(reason: Reason) -> str:
    """A lobby reason in words."""
    code: Code = reason.code
    data = dict(reason.args)
    if code in (Trouble.REFUSED, Trouble.CLOSED):
        data["why"] = why(data.pop("why"), **data)
    elif code is Trouble.BAD_PROPOSAL:
        data["objections"] = objections(data["objections"])
    elif code is Trouble.DOWNGRADE:
        newest = data.pop("newest", False)
        data["floor"] = "the newest this program speaks" if newest else "the oldest you allowed"
        data["cost"] = VERSION_1_COST if data["version"] == 1 else ""
    return _TEMPLATES[type(code)][code].format(**data)
