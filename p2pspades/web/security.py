"""What keeps the page's server to its one person: a secret in every URL, the names it answers to, and the
headers that tell the browser to trust nothing else.

A local web server is reachable by every page the person opens (a page can aim requests at any port of
127.0.0.1) and by every other user of the machine. So: it listens on 127.0.0.1 only; every path starts with
a token of 256 random bits that only the URL the command printed carries (a page that guesses the port gets
a 404); the `Host` header must name 127.0.0.1 or localhost at our port (a DNS name rebound to 127.0.0.1 gets
nothing); a WebSocket must come from our own origin (no cross-site socket); and every response carries a
Content-Security-Policy that lets the page load and connect to nothing but its own origin.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from p2pspades.errors import LocalError

TOKEN_ENV = "P2PSPADES_WEB_TOKEN"
"""A game started from the page (a rematch) gets the token of the page that asked for it here, so the page
it runs in stays valid; nothing else sets it."""
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")
LOOPBACK = "127.0.0.1"
HOST_NAMES = (LOOPBACK, "localhost")


def new_token() -> str:
    """256 random bits, URL-safe: 43 characters."""
    return secrets.token_urlsafe(32)


def token_from(environ: Mapping[str, str]) -> str | None:
    """The token a page handed on (`TOKEN_ENV`), or None. LocalError if it is not one we make."""
    given = environ.get(TOKEN_ENV)
    if given is None:
        return None
    if not _TOKEN.fullmatch(given):
        raise LocalError(f"{TOKEN_ENV} is not a page token (43 URL-safe characters)")
    return given


@dataclass(frozen=True)
class Guard:
    """The checks of one server: its token and the port it listens on."""

    token: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}/{self.token}/"

    def host_ok(self, host: str | None) -> bool:
        """`Host` names us: 127.0.0.1 or localhost, with our port (any other name may be rebound DNS)."""
        return host is not None and host.lower() in {f"{name}:{self.port}" for name in HOST_NAMES}

    def origin_ok(self, origin: str | None) -> bool:
        """A WebSocket's `Origin` is our own page's (a browser always sends it; its absence is refused)."""
        return origin is not None and origin.lower() in {f"http://{name}:{self.port}" for name in HOST_NAMES}

    def token_ok(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.token.encode())

    def route(self, path: str) -> str | None:
        """The part of `path` after `/<token>/` ("" for the page itself), or None if the token is not ours."""
        head, sep, rest = path.removeprefix("/").partition("/")
        if not sep or not self.token_ok(head):
            return None
        return rest


def csp(host: str, *, scripts: tuple[str, ...] = ("'self'",), styles: tuple[str, ...] = ("'self'",)) -> str:
    """A Content-Security-Policy that allows nothing from outside the page's own origin (`host`: the `Host`
    the request named, already checked), and no inline script or style unless its hash is given."""
    return "; ".join([
        "default-src 'none'",
        f"script-src {' '.join(scripts)}",
        f"style-src {' '.join(styles)}",
        "img-src 'self'",
        "font-src 'self'",
        f"connect-src 'self' ws://{host}",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ])


def inline_hashes(page: str, tag: str) -> tuple[str, ...]:
    """The CSP hash sources of every inline `<tag>` block of `page` (a page we made ourselves)."""
    blocks = re.findall(rf"<{tag}>(.*?)</{tag}>", page, re.S)
    return tuple(f"'sha256-{base64.b64encode(hashlib.sha256(b.encode()).digest()).decode()}'" for b in blocks)


def headers(policy: str) -> dict[str, str]:
    """The headers of every response: the policy, and no sniffing, framing, caching or referrer."""
    return {
        "Content-Security-Policy": policy,
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Cross-Origin-Resource-Policy": "same-origin",
    }
