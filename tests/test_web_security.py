"""The page's server refuses what is not its own person's browser, over real sockets on 127.0.0.1: no token,
a wrong token, a `Host` that a rebound DNS name would send, a WebSocket from a foreign origin, any address
but 127.0.0.1; and what it serves forbids the page to load or connect to anything else (its CSP). A second
tab with the token watches and cannot play; the hostile messages a page could send are refused."""

from __future__ import annotations

import asyncio
import errno
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from p2pspades.net.discovery import local_address
from p2pspades.web import WebScreen
from p2pspades.web.security import Guard, csp, inline_hashes, token_from

pytestmark = pytest.mark.net


@pytest.fixture
async def screen(capsys: pytest.CaptureFixture[str]) -> AsyncIterator[WebScreen]:
    served = WebScreen(browser=False)
    await served.start()
    yield served
    await served.close()


@pytest.fixture
async def client() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


def base(screen: WebScreen, host: str = "127.0.0.1") -> str:
    assert screen.guard is not None
    return f"http://{host}:{screen.guard.port}"


async def get(client: aiohttp.ClientSession, url: str, **headers: str) -> tuple[int, dict[str, str], str]:
    async with client.get(url, headers=headers, allow_redirects=False) as response:
        return response.status, dict(response.headers), await response.text()


async def test_the_url_it_prints_serves_the_page_its_files_and_a_policy_that_allows_only_itself(
        screen: WebScreen, client: aiohttp.ClientSession) -> None:
    status, headers, text = await get(client, screen.url)
    assert status == 200 and '<script type="module" src="static/app.js">' in text
    assert "%LABELS%" not in text and "data-labels=" in text
    policy = dict(part.split(" ", 1) for part in headers["Content-Security-Policy"].split("; "))
    assert policy["default-src"] == "'none'"
    assert policy["script-src"] == policy["style-src"] == policy["img-src"] == policy["font-src"] == "'self'"
    assert policy["connect-src"] == f"'self' ws://127.0.0.1:{screen.guard.port}"  # type: ignore[union-attr]
    assert policy["frame-ancestors"] == policy["base-uri"] == policy["form-action"] == "'none'"
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Frame-Options"] == "DENY" and headers["Cache-Control"] == "no-store"
    for name in ("app.js", "view.js", "cards.js", "dom.js", "page.css", "icon.svg"):
        status, headers, body = await get(client, screen.url + "static/" + name)
        assert status == 200 and body, name
        outside = body.replace("http://www.w3.org/2000/svg", "")  # the SVG namespace is a name, not a fetch
        assert "http://" not in outside and "https://" not in outside, name
    # the token without its slash is sent on to the page
    status, headers, _ = await get(client, screen.url.rstrip("/"))
    assert status == 308 and headers["Location"] == "/" + screen.token + "/"


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/ws", "/records", "/index.html",
                                  "/static/page.css"])
async def test_without_the_token_nothing_is_served(screen: WebScreen, client: aiohttp.ClientSession,
                                                   path: str) -> None:
    status, headers, text = await get(client, base(screen) + path)
    assert status == 404 and "app.js" not in text
    assert "Content-Security-Policy" in headers


async def test_a_wrong_token_is_refused_however_close(screen: WebScreen,
                                                      client: aiohttp.ClientSession) -> None:
    token = screen.token
    last = "A" if token[-1] != "A" else "B"
    wrong = [token[:-1] + last, token[:20], token + "x", token.upper(), "a" * 43]
    for other in wrong:
        for route in ("", "static/app.js", "ws", "records"):
            status, _, text = await get(client, f"{base(screen)}/{other}/{route}")
            assert status == 404, (other, route)
            assert "app.js" not in text


@pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1.evil.example:{port}", "localhost.:{port}",
                                  "127.0.0.1:1", "127.0.0.1", "[::1]:{port}", "0.0.0.0:{port}"])
async def test_a_rebinding_host_gets_nothing_even_with_the_token(screen: WebScreen,
                                                                 client: aiohttp.ClientSession,
                                                                 host: str) -> None:
    port = screen.guard.port  # type: ignore[union-attr]
    for route in ("", "static/app.js", "ws", "records"):
        status, _, text = await get(client, screen.url + route, Host=host.format(port=port))
        assert status == 421, (host, route)
        assert "app.js" not in text and screen.token not in text


async def test_the_names_of_this_machine_are_served(screen: WebScreen, client: aiohttp.ClientSession) -> None:
    port = screen.guard.port  # type: ignore[union-attr]
    for host in (f"localhost:{port}", f"LOCALHOST:{port}", f"127.0.0.1:{port}"):
        status, _, _ = await get(client, screen.url, Host=host)
        assert status == 200, host


async def test_other_methods_are_refused(screen: WebScreen, client: aiohttp.ClientSession) -> None:
    for method in ("POST", "PUT", "DELETE"):
        async with client.request(method, screen.url, data=b"x") as response:
            assert response.status == 405, method


def ws_url(screen: WebScreen) -> str:
    return screen.url.replace("http://", "ws://") + "ws"


@pytest.mark.parametrize("origin", ["http://evil.example", f"http://127.0.0.1:{1}", "null", "https://127.0.0.1",
                                    "file://", "http://127.0.0.1.evil.example"])
async def test_a_socket_from_a_foreign_origin_is_refused(screen: WebScreen, client: aiohttp.ClientSession,
                                                          origin: str) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect(ws_url(screen), origin=origin)
    assert refused.value.status == 403


async def test_a_socket_without_an_origin_is_refused(screen: WebScreen,
                                                     client: aiohttp.ClientSession) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect(ws_url(screen))
    assert refused.value.status == 403


async def test_a_socket_without_the_token_is_refused_whatever_its_origin(
        screen: WebScreen, client: aiohttp.ClientSession) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect(f"ws://127.0.0.1:{screen.guard.port}/ws",  # type: ignore[union-attr]
                                origin=base(screen))
    assert refused.value.status == 404


def refused_connection(address: str, port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(5)
        try:
            probe.connect((address, port))
        except OSError as exc:
            return exc.errno in (errno.ECONNREFUSED, errno.EADDRNOTAVAIL, errno.ENETUNREACH)
        return False


async def test_it_listens_on_127_0_0_1_only(screen: WebScreen) -> None:
    port = screen.guard.port  # type: ignore[union-attr]
    server = screen.server
    assert server is not None
    assert refused_connection("127.0.0.2", port), "another loopback address must find nothing"
    lan = local_address()
    if lan is not None and not lan.startswith("127."):
        assert refused_connection(lan, port), f"the LAN address {lan} must find nothing"
    with open("/proc/net/tcp") as table:  # the kernel's own list of listening sockets (state 0A)
        listening = [line.split()[1] for line in table.readlines()[1:] if line.split()[3] == "0A"]
    ours = [entry for entry in listening if int(entry.split(":")[1], 16) == port]
    assert ours == ["0100007F:" + f"{port:04X}"], ours  # 127.0.0.1, nothing else


async def receive(ws: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    """The next message of type `kind` (others are skipped)."""
    while True:
        message = await asyncio.wait_for(ws.receive_json(), 10)
        if message["t"] == kind:
            result: dict[str, Any] = message
            return result


async def closed(ws: aiohttp.ClientWebSocketResponse) -> None:
    """Wait until the server closes `ws` (what it sends before is skipped)."""
    while True:
        message = await asyncio.wait_for(ws.receive(), 10)
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            return
        assert message.type is aiohttp.WSMsgType.TEXT


async def test_a_second_tab_watches_and_plays_once_the_first_closes(screen: WebScreen,
                                                                    client: aiohttp.ClientSession) -> None:
    first = await client.ws_connect(ws_url(screen), origin=base(screen))
    hello = await receive(first, "hello")
    assert hello["plays"] is True and hello["labels"]["app"] == "p2pspades"
    assert (await receive(first, "screen"))["kind"] == "notice"
    second = await client.ws_connect(ws_url(screen), origin=f"http://localhost:{screen.guard.port}")  # type: ignore[union-attr]
    assert (await receive(second, "hello"))["plays"] is False
    await second.send_str(json.dumps({"do": "key", "key": "Enter"}))
    note = await receive(second, "note")
    assert "watches" in note["text"]
    await first.close()
    assert (await receive(second, "role"))["plays"] is True
    await second.close()


async def test_hostile_messages_are_refused_and_the_tab_stays(screen: WebScreen,
                                                              client: aiohttp.ClientSession) -> None:
    ws = await client.ws_connect(ws_url(screen), origin=base(screen))
    await receive(ws, "screen")
    for bad in ["not json", "[1, 2]", '{"do": 5}', '{"no": "do"}', '{"do": "' + "x" * 30 + '"}',
                '{"do": "key", "key": "F13"}', '{"do": "card", "card": "ZZ"}']:
        await ws.send_str(bad)
    await ws.send_bytes(b"binary")  # not a text frame: the server closes the socket
    await closed(ws)
    ws = await client.ws_connect(ws_url(screen), origin=base(screen))
    assert (await receive(ws, "hello"))["plays"] is True  # the tab before is gone: this one plays
    await ws.send_str(json.dumps({"do": "key", "key": "x" * 2000}))  # longer than any message of ours
    await closed(ws)


async def test_no_more_than_eight_tabs(screen: WebScreen, client: aiohttp.ClientSession) -> None:
    tabs = [await client.ws_connect(ws_url(screen), origin=base(screen)) for _ in range(8)]
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await client.ws_connect(ws_url(screen), origin=base(screen))
    assert refused.value.status == 503
    for tab in tabs:
        await tab.close()


def test_the_guard_and_the_policy_as_functions() -> None:
    guard = Guard("t" * 43, 8123)
    assert guard.route("/" + "t" * 43 + "/static/x.js") == "static/x.js"
    assert guard.route("/" + "t" * 43) is None and guard.route("/") is None and guard.route("") is None
    assert guard.route("/" + "t" * 42 + "/") is None
    assert guard.host_ok("127.0.0.1:8123") and guard.host_ok("localhost:8123")
    assert not guard.host_ok(None) and not guard.host_ok("127.0.0.1:8124") and not guard.host_ok("x:8123")
    assert guard.origin_ok("http://localhost:8123") and not guard.origin_ok("http://localhost:8124")
    assert not guard.origin_ok(None) and not guard.origin_ok("null")
    page = "<style>a{}</style><p>x</p><script>go()</script><script>more()</script>"
    assert len(inline_hashes(page, "script")) == 2 and len(inline_hashes(page, "style")) == 1
    assert "'unsafe-inline'" not in csp("127.0.0.1:1", scripts=inline_hashes(page, "script"))
    assert token_from({}) is None and token_from({"P2PSPADES_WEB_TOKEN": "A" * 43}) == "A" * 43
    for bad in ("short", "A" * 42 + "!", "A" * 44):
        with pytest.raises(Exception, match="not a page token"):
            token_from({"P2PSPADES_WEB_TOKEN": bad})
