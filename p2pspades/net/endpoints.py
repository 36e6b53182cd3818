"""ZeroMQ TCP endpoints (`tcp://HOST:PORT`): the one parser and formatter of them.

A host is a DNS name or IPv4 address, or an IPv6 address in brackets; a port is 1..65535. Everything a peer
announces (a lobby's seat map, a discovery record) and everything a person types (`join HOST:PORT`) goes
through `parse` before it is used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SCHEME = "tcp://"
WILDCARDS = frozenset({"0.0.0.0", "*", "::"})
"""Hosts that mean "every interface": one can bind to them, but nobody can connect to them."""
_ENDPOINT = re.compile(r"(tcp://)?(\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9.\-]{1,253}):(\d{1,5})")


@dataclass(frozen=True)
class Endpoint:
    host: str
    """A name or an address; an IPv6 address without its brackets."""
    port: int

    @property
    def host_port(self) -> str:
        """`HOST:PORT`, an IPv6 host in brackets (what `join` takes)."""
        return f"{bracketed(self.host)}:{self.port}"

    def __str__(self) -> str:
        return SCHEME + self.host_port


def parse(text: str, *, scheme_optional: bool = False) -> Endpoint | None:
    """`tcp://HOST:PORT` (or, with `scheme_optional`, also a bare `HOST:PORT`); None if `text` is not one."""
    match = _ENDPOINT.fullmatch(text)
    if match is None or (match.group(1) is None and not scheme_optional):
        return None
    port = int(match.group(3))
    if not 1 <= port <= 65535:
        return None
    return Endpoint(match.group(2).strip("[]"), port)


def bracketed(host: str) -> str:
    """An IPv6 address in brackets, as endpoints write it; any other host as it is."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def tcp(host: str, port: int | str) -> str:
    """The endpoint string for `host` and `port` (a port may be `*`, for a socket to bind to any port)."""
    return f"{SCHEME}{bracketed(host)}:{port}"
