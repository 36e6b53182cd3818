"""Finding tables on the LAN with mDNS/DNS-SD (python-zeroconf), as `_p2pspades._tcp.local.`.

Discovery is a convenience: `join HOST:PORT` always works without it, and nothing found here is trusted. The
TXT record only helps a person pick a table (its name, rules, free seats, the host's key fingerprint); the
lobby then checks the host's signed messages, and the joiner can insist that the host key matches the
fingerprint seen here. Every browse ends after its timeout, so a LAN without multicast costs a few seconds
and an empty list, never a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from zeroconf import BadTypeInNameException, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from p2pspades.errors import N_, LocalError
from p2pspades.net import endpoints
from p2pspades.net.lobby_seats import TableInfo, check_name
from p2pspades.rules import PRESETS, RuleSet, RuleSetError
from p2pspades.rules.options import codes, from_codes
from p2pspades.table.messages import PROTOCOL_VERSION, SUPPORTED_VERSIONS

log = logging.getLogger(__name__)

SERVICE_TYPE = "_p2pspades._tcp.local."
TXT_VERSION = "2"
"""The TXT record's own format (2: with the protocol version `pv`)."""
_FINGERPRINT = re.compile(r"[0-9a-z]{4}(-[0-9a-z]{4}){3}")
_COUNT = re.compile(r"[0-9]{1,2}")
OPTIONS_LIMIT = 160
"""The longest `opts` value (an older host's options in English words), in characters."""
RULE_CODES_LIMIT = 240
"""The longest `ro` value, in characters (a TXT string holds 255 bytes with its key)."""
_RULE_CODE = re.compile(r"[a-z0-9_]+=[A-Za-z0-9_+-]+")


class DiscoveryError(LocalError):
    """The table could not be advertised (no usable network interface, bad address, ...)."""


@dataclass(frozen=True)
class TableAd:
    """A table seen on the LAN, as its TXT record describes it (unverified until the lobby answers)."""

    name: str
    rules: str
    players: int
    free: int
    host_fingerprint: str
    address: str
    port: int
    service: str
    protocol: int = PROTOCOL_VERSION
    """The protocol version the host says its game has (the lobby checks the genesis itself)."""
    rule_set: RuleSet | None = None
    """The rules the host says it plays (its preset with the options of `ro`), for the reader to put into
    its own words; None where the host does not say, or says what this version cannot read (a preset or
    an option of a newer one)."""
    cut: bool = False
    """Whether `ro` was cut to fit: the rule set has more options than `rule_set` shows."""
    options: str = ""
    """An older host's options in English words (`opts`); "" for none."""

    @property
    def endpoint(self) -> str:
        return endpoints.tcp(self.address, self.port)


def txt_record(info: TableInfo) -> dict[str, str]:
    """The TXT properties that advertise a table."""
    return {
        "v": TXT_VERSION,
        "name": info.name,
        "rules": info.rules.preset or "custom",
        "players": str(info.seats),
        "free": str(info.free),
        "fp": info.host_fingerprint,
        "pv": str(info.version),
        **({"ro": ro} if (ro := rule_codes(info.rules)) else {}),
    }


def rule_codes(rules: RuleSet) -> str:
    """The TXT value `ro`: the options where `rules` differs from its preset, as `name=value` words of no
    language (`rules.options.codes`), comma-separated; at most `RULE_CODES_LIMIT` characters, cut after the
    last whole option that fits with ",…" where options were left out. "" for a preset as it is."""
    base = PRESETS.get(rules.preset or "", RuleSet())
    text = ",".join(f"{name}={value}" for name, value in codes(rules, base))
    if len(text) <= RULE_CODES_LIMIT:
        return text
    return text[: RULE_CODES_LIMIT - 1].rsplit(",", 1)[0] + ",…"


def read_rule_codes(rules: str, text: str) -> tuple[RuleSet | None, bool]:
    """The rule set an advertisement names (preset `rules`, options `text` of `rule_codes`) and whether its
    options were cut; (None, ...) for a preset or an option this version does not know. ValueError if `text`
    is not made of `name=value` words."""
    cut = text.endswith(",…")
    words = [word for word in text.removesuffix(",…").split(",") if word] if text else []
    if len(text) > RULE_CODES_LIMIT or not all(_RULE_CODE.fullmatch(word) for word in words):
        raise ValueError("bad rule options")
    base = PRESETS.get(rules) if rules != "custom" else RuleSet()
    if base is None:
        return None, cut
    try:
        return from_codes(base, ((word.partition("=")[0], word.partition("=")[2]) for word in words)), cut
    except RuleSetError:
        return None, cut


def parse_ad(
    service: str, properties: Mapping[bytes, bytes | None], addresses: Sequence[str], port: int
) -> TableAd:
    """A TableAd from what the network said; ValueError if anything is missing or malformed."""
    try:
        txt = {k.decode(): (v or b"").decode() for k, v in properties.items()}
    except UnicodeDecodeError:
        raise ValueError("TXT record is not UTF-8") from None
    if txt.get("v") != TXT_VERSION:
        raise ValueError(f"unsupported TXT version {txt.get('v')!r}")
    name, rules = check_name(txt.get("name")), check_name(txt.get("rules"))
    if not _COUNT.fullmatch(txt.get("players", "")) or not _COUNT.fullmatch(txt.get("free", "")):
        raise ValueError("bad seat counts")
    players, free = int(txt["players"]), int(txt["free"])
    if not 2 <= players <= 8 or not 0 <= free <= players:
        raise ValueError("seat counts out of range")
    fp = txt.get("fp", "")
    if not _FINGERPRINT.fullmatch(fp):
        raise ValueError("bad host fingerprint")
    if txt.get("pv") not in [str(v) for v in SUPPORTED_VERSIONS]:
        raise ValueError("bad protocol version")
    if not addresses or not 1 <= port <= 65535:
        raise ValueError("no address")
    options = txt.get("opts", "")
    if len(options) > OPTIONS_LIMIT or not options.isprintable():
        raise ValueError("bad options")
    older = "ro" not in txt and options  # an older host says its options in words
    rule_set, cut = (None, False) if older else read_rule_codes(rules, txt.get("ro", ""))
    return TableAd(name, rules, players, free, fp, addresses[0], port, service, int(txt["pv"]), rule_set,
                   cut, options)


def _instance_name(info: TableInfo) -> str:
    label = re.sub(r"[^A-Za-z0-9 _-]", "", info.name)[:32].strip() or "table"
    return f"{label} {info.host_fingerprint[:9]}.{SERVICE_TYPE}"


class Advertiser:
    """Announces one table while its lobby is open; `update` keeps the free-seat count current."""

    def __init__(self, info: TableInfo, port: int, address: str = "127.0.0.1",
                 interfaces: Sequence[str] | None = None) -> None:
        try:
            packed = ipaddress.ip_address(address).packed
        except ValueError:
            raise DiscoveryError(N_("{address!r} is not an IP address"), address=address) from None
        self._address = packed
        self._port = port
        self._interfaces = list(interfaces) if interfaces is not None else [address]
        self._zc: AsyncZeroconf | None = None
        self._info = self._service(info)

    def _service(self, info: TableInfo) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE,
            _instance_name(info),
            addresses=[self._address],
            port=self._port,
            properties=txt_record(info),
            server=f"p2pspades-{info.host_fingerprint[:4]}.local.",
        )

    async def start(self) -> None:
        try:
            self._zc = AsyncZeroconf(interfaces=self._interfaces, ip_version=IPVersion.V4Only)
            await self._zc.async_register_service(self._info, allow_name_change=True)
        except (OSError, BadTypeInNameException, ValueError) as exc:
            await self.close()
            raise DiscoveryError(N_("cannot advertise the table: {why}"), why=exc) from None

    async def update(self, info: TableInfo) -> None:
        if self._zc is None:
            return
        fresh = self._service(info)
        fresh.name = self._info.name  # keep a name the register step may have made unique
        self._info = fresh
        with contextlib.suppress(OSError):
            await self._zc.async_update_service(fresh)

    async def close(self) -> None:
        if self._zc is not None:
            zc, self._zc = self._zc, None
            with contextlib.suppress(Exception):
                await zc.async_unregister_all_services()
            await zc.async_close()


async def browse(timeout: float = 3.0, interfaces: Sequence[str] | None = None) -> list[TableAd]:
    """The tables advertised on the LAN, gathered for `timeout` seconds (an empty list where none answer)."""
    names: list[str] = []

    def seen(zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is not ServiceStateChange.Removed and name not in names:
            names.append(name)

    kwargs: dict[str, Any] = {"ip_version": IPVersion.V4Only}
    if interfaces is not None:
        kwargs["interfaces"] = list(interfaces)
    try:
        zc = AsyncZeroconf(**kwargs)
    except OSError as exc:
        log.warning("cannot browse for tables: %s", exc)
        return []
    found: list[TableAd] = []
    try:
        browser = AsyncServiceBrowser(zc.zeroconf, SERVICE_TYPE, handlers=[seen])
        await asyncio.sleep(timeout)
        await browser.async_cancel()
        for name in names:
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            if not await info.async_request(zc.zeroconf, 1000):
                continue
            try:
                found.append(parse_ad(name, dict(info.properties), info.parsed_addresses(), info.port or 0))
            except ValueError as exc:
                log.warning("ignoring the advertisement %r: %s", name[:80], exc)
    finally:
        await zc.async_close()
    return found


def local_address() -> str:
    """This machine's LAN address as others would reach it (127.0.0.1 if it has none)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        address: str = probe.getsockname()[0]
        return address
    return "127.0.0.1"


def parse_endpoint(text: str) -> str | None:
    """`HOST:PORT` or `tcp://HOST:PORT` as a ZeroMQ endpoint; None if `text` is not one (a table name)."""
    endpoint = endpoints.parse(text.strip(), scheme_optional=True)
    return None if endpoint is None else str(endpoint)


def address_towards(endpoint: str) -> str:
    """Our address as the host at `endpoint` sees it: the interface that routes there."""
    parsed = endpoints.parse(endpoint, scheme_optional=True)
    host = parsed.host if parsed is not None else "127.0.0.1"
    try:
        family, _, _, _, sockaddr = socket.getaddrinfo(host, 9, type=socket.SOCK_DGRAM)[0]
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(sockaddr)  # no packet is sent: this only picks the outgoing interface
            address: str = probe.getsockname()[0]
            return address
    except (OSError, IndexError):
        return local_address()


async def find_table(name: str, timeout: float = 3.0, interfaces: Sequence[str] | None = None) -> TableAd:
    """The one table on the LAN called `name` (or whose host fingerprint starts with it)."""
    found = await browse(timeout, interfaces)
    matches = [t for t in found if t.name == name]
    matches = matches or [t for t in found if t.host_fingerprint.startswith(name)]
    if not matches:
        seen = ", ".join(sorted({t.name for t in found}))
        if not seen:
            raise DiscoveryError(N_("no table called {name!r} answered within {seconds} s (no table at all "
                                    "did); multicast may be blocked here: join with HOST:PORT instead"),
                                 name=name, seconds=f"{timeout:g}")
        raise DiscoveryError(N_("no table called {name!r} answered within {seconds} s (tables seen: {seen}); "
                                "multicast may be blocked here: join with HOST:PORT instead"),
                             name=name, seconds=f"{timeout:g}", seen=seen)
    if len(matches) > 1:
        listed = "; ".join(f"{t.endpoint} {t.host_fingerprint}" for t in matches)
        raise DiscoveryError(N_("several tables are called {name!r} ({tables}): join one with HOST:PORT"),
                             name=name, tables=listed)
    return matches[0]
