"""The page's HTTP and WebSocket server: aiohttp, on the event loop of the peers, on 127.0.0.1 only.

One route takes every request, so that nothing is answered before the guard (`security.Guard`) has checked
the `Host` and the token; then the path after the token says what: the page, a file of its own (`static/`,
from the package), its socket (`ws`), or the hand records of the game just played (`records`).

Each open socket is a tab. The first tab plays; every other tab with the same token watches (it gets the
same snapshots; what it asks is refused), and plays when the tabs before it close. A snapshot is the whole
screen as data (`snapshot.py`): the newest replaces one not yet sent, so a slow tab never holds up the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from p2pspades.i18n import page_lang
from p2pspades.web.actions import MAX_MESSAGE, Message, Refused, parse
from p2pspades.web.security import LOOPBACK, Guard, csp, headers, inline_hashes

logger = logging.getLogger(__name__)

MAX_TABS = 8
"""Tabs open at once; more are refused (each costs a socket and a copy of every snapshot)."""
QUIET = 10.0
"""Seconds between two warnings of one kind: a page that floods us with refused requests fills no disk."""
STATIC_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".html": "text/html"}


def static_files() -> dict[str, bytes]:
    """The page's own files, shipped in the package: nothing is fetched from anywhere else."""
    root = resources.files("p2pspades.web") / "static"
    return {item.name: item.read_bytes() for item in root.iterdir()
            if item.is_file() and any(item.name.endswith(ext) for ext in STATIC_TYPES)}


class Screen(Protocol):
    """What the server asks of the screen it serves (`WebScreen`)."""

    def labels(self) -> Mapping[str, str]: ...

    def snapshot(self) -> dict[str, Any]: ...

    async def message(self, tab: Tab, message: Message) -> None: ...

    async def records(self) -> str | None: ...

    def tabs_changed(self) -> None: ...


@dataclass(eq=False)
class Tab:
    """One open page: its socket, whether it plays, and what is still to be sent to it."""

    socket: web.WebSocketResponse
    plays: bool = False
    outbox: list[str] = field(default_factory=list)
    latest: str | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def send(self, payload: str, *, snapshot: bool = False) -> None:
        if snapshot:
            self.latest = payload
        else:
            self.outbox.append(payload)
        self.wake.set()

    async def write(self) -> None:
        """Send what is queued, the newest snapshot last, until the socket closes."""
        while not self.socket.closed:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox:
                await self.socket.send_str(self.outbox.pop(0))
            if self.latest is not None:
                payload, self.latest = self.latest, None
                await self.socket.send_str(payload)


class PageServer:
    """Serves one screen on 127.0.0.1 at the port of `guard`."""

    def __init__(self, guard: Guard, screen: Screen) -> None:
        self.guard = guard
        self.screen = screen
        self.files = static_files()
        self.tabs: list[Tab] = []
        self._runner: web.AppRunner | None = None
        self._writers: set[asyncio.Task[None]] = set()
        self._warned: dict[str, float] = {}

    # ------------------------------------------------------------------------------------------ life
    async def start(self, sock: socket.socket) -> None:
        app = web.Application(client_max_size=MAX_MESSAGE)
        app.router.add_route("*", "/{path:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()

    async def close(self, farewell: dict[str, Any] | None = None) -> None:
        """Say `farewell` to every tab, close their sockets and stop serving."""
        payload = None if farewell is None else json.dumps({"t": "bye", **farewell})
        for tab in list(self.tabs):
            with contextlib.suppress(Exception):
                if payload is not None:
                    await tab.socket.send_str(payload)
                await tab.socket.close()
        for task in list(self._writers):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------------------------------ pushing
    def push(self) -> None:
        """Send every tab the screen as it is now (a snapshot not yet sent is replaced)."""
        if not self.tabs:
            return
        payload = json.dumps({"t": "screen", **self.screen.snapshot()}, separators=(",", ":"))
        for tab in self.tabs:
            tab.send(payload, snapshot=True)

    def say(self, tab: Tab, what: dict[str, Any]) -> None:
        tab.send(json.dumps(what))

    def _warn(self, kind: str, message: str, *args: object) -> None:
        """Log a refusal, but one of each kind every `QUIET` seconds at most."""
        now = asyncio.get_running_loop().time()
        if now - self._warned.get(kind, -QUIET) >= QUIET:
            self._warned[kind] = now
            logger.warning(message, *args)

    # ------------------------------------------------------------------------------------------ requests
    async def _handle(self, request: web.Request) -> web.StreamResponse:
        """Nothing is answered to a request that does not name us or does not carry the token."""
        host = request.headers.get("Host")
        if not self.guard.host_ok(host):
            self._warn("host", "refused a request for host %r (only 127.0.0.1 and localhost served)", host)
            return self._refuse(421, "this server answers only for 127.0.0.1 and localhost")
        if request.method not in ("GET", "HEAD"):
            return self._refuse(405, "only GET")
        route = self.guard.route(request.path)
        if route is None:
            if self.guard.token_ok(request.path.removeprefix("/")):
                raise web.HTTPPermanentRedirect(request.path + "/", headers=headers(csp(str(host))))
            return self._refuse(404, "not found")
        return await self._route(request, route, str(host))

    def _refuse(self, status: int, text: str) -> web.Response:
        return web.Response(status=status, text=text + "\n", headers=headers(csp(LOOPBACK)))

    async def _route(self, request: web.Request, route: str, host: str) -> web.StreamResponse:
        if route == "":
            labels = html.escape(json.dumps(dict(self.screen.labels())), quote=True).encode()
            index = self.files["index.html"].replace(b"%LABELS%", labels).replace(
                b'<html lang="en"', f'<html lang="{page_lang()}"'.encode())
            return web.Response(body=index, content_type="text/html", charset="utf-8",
                                headers=headers(csp(host)))
        if route == "ws":
            return await self._socket(request)
        if route == "records":
            records = await self.screen.records()
            if records is None:
                return self._refuse(404, "no game has ended yet")
            policy = csp(host, scripts=inline_hashes(records, "script"),
                         styles=inline_hashes(records, "style"))
            return web.Response(text=records, content_type="text/html", headers=headers(policy))
        name = route.removeprefix("static/")
        if route.startswith("static/") and name in self.files and name != "index.html":
            return self._file(name, host)
        return self._refuse(404, "not found")

    def _file(self, name: str, host: str) -> web.Response:
        kind = STATIC_TYPES[name[name.rindex("."):]]
        return web.Response(body=self.files[name], content_type=kind, charset="utf-8",
                            headers=headers(csp(host)))

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if not self.guard.origin_ok(origin):
            self._warn("origin", "refused a socket from origin %r", origin)
            return self._refuse(403, "a socket only from this page")
        if len(self.tabs) >= MAX_TABS:
            return self._refuse(503, f"at most {MAX_TABS} tabs")
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=30)
        await ws.prepare(request)
        tab = Tab(ws, plays=not any(t.plays for t in self.tabs))
        self.tabs.append(tab)
        writer = asyncio.ensure_future(self._write(tab))
        self._writers.add(writer)
        writer.add_done_callback(self._writers.discard)
        tab.send(json.dumps({"t": "hello", "labels": self.screen.labels(), "plays": tab.plays}))
        self._push_to(tab)
        self.screen.tabs_changed()
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    break
                try:
                    await self.screen.message(tab, parse(message.data))
                except Refused as exc:
                    self._warn("message", "refused a message from the page: %s", exc)
        finally:
            self._gone(tab)
            writer.cancel()
        return ws

    async def _write(self, tab: Tab) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):  # the tab went away
            await tab.write()

    def _push_to(self, tab: Tab) -> None:
        tab.send(json.dumps({"t": "screen", **self.screen.snapshot()}, separators=(",", ":")), snapshot=True)

    def _gone(self, tab: Tab) -> None:
        """A tab closed: if it played, the oldest tab left plays now."""
        self.tabs.remove(tab)
        if tab.plays and self.tabs:
            heir = self.tabs[0]
            heir.plays = True
            heir.send(json.dumps({"t": "role", "plays": True}))
        self.screen.tabs_changed()


def listening_socket(port: int) -> socket.socket:
    """A TCP socket bound to 127.0.0.1 (never another address) at `port` (0: any free one). OSError if the
    port is taken."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((LOOPBACK, port))
        sock.listen(16)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock
