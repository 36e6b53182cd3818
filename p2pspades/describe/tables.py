"""A networked table in words: the seat map a joiner checks before it signs, a line of the seat map while the
lobby is open, and a table found on the LAN. Names come from the network: the caller escapes the text for a
terminal."""

from __future__ import annotations

from p2pspades.describe import after_text
from p2pspades.describe.rules import summary
from p2pspades.i18n import _
from p2pspades.net.discovery import TableAd
from p2pspades.net.lobby_seats import LobbyResult, TableInfo


def proposal(result: LobbyResult) -> str:
    """The seat map for a person to check: each seat's name and key fingerprint, and who runs each bot."""
    table = result.table
    rules = table.rules.preset or _("custom rules")
    lines = [_("Table {name!r} ({rules}, protocol version {version}), game {game}").format(
        name=table.name, rules=rules, version=table.version, game=result.game_id.hex())]
    if table.after is not None:
        lines.append(f"  {after_text(table.after)}")
    for s in sorted(table.seated, key=lambda s: s.seat):
        if s.seat == result.seat:
            line = _("seat {seat}: {name} (you)  key {fingerprint}")
        elif s.bot:
            line = _("seat {seat}: {name} (bot run by {owner}, who can see its cards)  key {fingerprint}")
        else:
            line = _("seat {seat}: {name}  key {fingerprint}")
        owner = table.owner_name(s) or _("someone who left")
        lines.append("  " + line.format(seat=s.seat, name=s.name, owner=owner, fingerprint=s.fingerprint))
    return "\n".join(lines)


def seat_map(info: TableInfo) -> str:
    """The seats taken so far, in one line: "table 'ana': 2 of 4 seats taken [0:ana, 1:bo (bot run by ana)]
    (protocol version 2)"."""
    names = ", ".join(
        _("{seat}:{name} (bot run by {owner})").format(seat=s.seat, name=s.name, owner=owner(info, s.seat))
        if s.bot else f"{s.seat}:{s.name}" for s in info.seated)
    if info.after is None:
        line = _("table {name!r}: {taken} of {seats} seats taken [{names}] (protocol version {version})")
    else:
        line = _("table {name!r}: {taken} of {seats} seats taken [{names}] (protocol version {version}; "
                 "{follows})")
    follows = "" if info.after is None else after_text(info.after, short=True)
    return line.format(name=info.name, taken=len(info.seated), seats=info.seats, names=names,
                       version=info.version, follows=follows)


def owner(info: TableInfo, seat: int) -> str:
    """Who runs the bot at `seat`, by name ("someone who left" once that person left)."""
    found = info.at(seat)
    return (None if found is None else info.owner_name(found)) or _("someone who left")


def options_text(ad: TableAd) -> str:
    """The options a table plays beyond the classic game, in the reader's words ("" for none): from its
    rule set, or as an older host wrote them (in English)."""
    if ad.rule_set is not None:
        said = summary(ad.rule_set)
        return f"{said}, …" if ad.cut and said else said
    return ad.options


def advertised(ad: TableAd) -> str:
    """A table found on the LAN, in one line: its name, rules, free seats, protocol, host key and address."""
    options = options_text(ad)
    rules = _("{rules} ({options})").format(rules=ad.rules, options=options) if options else ad.rules
    return _("{name}  {rules}, {free} of {seats} seats free, protocol {protocol}  host {fingerprint}  "
             "{address}").format(name=ad.name, rules=rules, free=ad.free, seats=ad.players,
                                 protocol=ad.protocol, fingerprint=ad.host_fingerprint,
                                 address=f"{ad.address}:{ad.port}")
