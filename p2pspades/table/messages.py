"""Message types of the table protocol and the exact fields each one carries.

Every payload is a canonical msgpack map with the common header (`g` game id, `n` sequence number, `p`
previous entry hash, `s` sender seat, `h` hand number, `t` type) and the fields of its type below, nothing
else. New fields mean a new protocol version (the genesis carries `v`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from p2pspades.errors import RemoteError

PROTOCOL_VERSION = 1
HEADER_KEYS = frozenset({"g", "n", "p", "s", "h", "t"})
MAX_NAME = 32
MAX_WHY = 200

Check = Callable[[Any], bool]


def _b32(v: Any) -> bool:
    return isinstance(v, bytes) and len(v) == 32


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _text(limit: int) -> Check:
    return lambda v: isinstance(v, str) and len(v) <= limit


def _list(item: Check, limit: int = 64) -> Check:
    return lambda v: isinstance(v, list) and len(v) <= limit and all(item(x) for x in v)


def _seat_record(v: Any) -> bool:
    return (
        isinstance(v, dict)
        and set(v) == {"k", "n"}
        and _b32(v["k"])
        and isinstance(v["n"], str)
        and 0 < len(v["n"]) <= MAX_NAME
    )


FIELDS: Mapping[str, Mapping[str, Check]] = {
    # game setup
    "genesis": {
        "v": _int,
        "rules": lambda v: isinstance(v, dict),
        "seats": _list(_seat_record, 5),
        "name": _text(MAX_NAME),
    },
    "accept": {},
    "dcommit": {"c": _b32},
    "dreveal": {"r": _b32},
    # one hand
    "commit": {"c": _b32},
    "blind": {"b": _bool},
    "shuffle": {"d": _list(_b32)},
    "lock": {"d": _list(_b32)},
    "keys": {"j": _list(_int), "k": _list(_b32)},
    "draw": {"x": _bool},
    "bid": {"b": _int},
    "play": {"j": _int, "k": _b32},
    "challenge": {"e": _int, "why": _text(MAX_WHY)},
    "reveal": {"r": _b32},
    # game end
    "end": {"w": _list(_int, 5), "z": _list(_int, 5)},
    "abandon": {"a": _int, "why": _text(MAX_WHY)},
}


def check_fields(payload: Mapping[str, Any], seat: int | None = None) -> None:
    """Refuse a payload whose type is unknown or whose fields are missing, extra or of the wrong shape."""
    kind = payload.get("t")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise RemoteError("schema", f"unknown message type {kind!r}", seat)
    spec = FIELDS[kind]
    extra = set(payload) - HEADER_KEYS - set(spec)
    missing = set(spec) - set(payload)
    if extra or missing:
        raise RemoteError(
            "schema", f"{kind}: missing {sorted(missing)} / unexpected {sorted(extra)} fields", seat
        )
    for key, ok in spec.items():
        if not ok(payload[key]):
            raise RemoteError("schema", f"{kind}: field {key!r} has the wrong type or size", seat)
