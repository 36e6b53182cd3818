"""A networked table in words: the seat map a joiner checks before it signs, a line of the seat map while the
lobby is open, and a table found on the LAN. Names come from the network: the caller escapes the text for a
terminal."""

from __future__ import annotations

from p2pspades.net.discovery import TableAd
from p2pspades.net.lobby_seats import LobbyResult, TableInfo


def proposal(result: LobbyResult) -> str:
    """The seat map for a person to check: each seat's name and key fingerprint, and who runs each bot."""
    table = result.table
    rules = table.rules.preset or "custom rules"
    lines = [f"Table {table.name!r} ({rules}, protocol version {table.version}), game {result.game_id.hex()}"]
    if table.after is not None:
        lines.append(f"  {table.after.describe()}")
    for s in sorted(table.seated, key=lambda s: s.seat):
        if s.seat == result.seat:
            who = " (you)"
        elif s.bot:
            who = f" (bot run by {table.owner_name(s) or 'someone who left'}, who can see its cards)"
        else:
            who = ""
        lines.append(f"  seat {s.seat}: {s.name}{who}  key {s.fingerprint}")
    return "\n".join(lines)


def seat_map(info: TableInfo) -> str:
    """The seats taken so far, in one line: "table 'ana': 2 of 4 seats taken [0:ana, 1:bo (bot run by ana)]
    (protocol version 2)"."""
    names = ", ".join(f"{s.seat}:{s.name}" + (f" (bot run by {owner(info, s.seat)})" if s.bot else "")
                      for s in info.seated)
    follows = "" if info.after is None else f"; {info.after.describe(short=True)}"
    return (f"table {info.name!r}: {len(info.seated)} of {info.seats} seats taken [{names}] "
            f"(protocol version {info.version}{follows})")


def owner(info: TableInfo, seat: int) -> str:
    """Who runs the bot at `seat`, by name ("someone who left" once that person left)."""
    found = info.at(seat)
    return (None if found is None else info.owner_name(found)) or "someone who left"


def advertised(ad: TableAd) -> str:
    """A table found on the LAN, in one line: its name, rules, free seats, protocol, host key and address."""
    rules = f"{ad.rules} ({ad.options})" if ad.options else ad.rules
    return (f"{ad.name}  {rules}, {ad.free} of {ad.players} seats free, protocol "
            f"{ad.protocol}  host {ad.host_fingerprint}  {ad.address}:{ad.port}")
