"""Table discovery with zeroconf, on the loopback interface only."""

from __future__ import annotations

import asyncio

import pytest
from helpers.net import loopback_multicast_works

from p2pspades import crypto
from p2pspades.describe.rules import summary
from p2pspades.describe.tables import advertised
from p2pspades.net.discovery import OPTIONS_LIMIT, Advertiser, browse, options_text, parse_ad, txt_record
from p2pspades.net.lobby import LobbySeat, TableInfo
from p2pspades.rules import preset

pytestmark = [pytest.mark.net, pytest.mark.timeout(60)]
LOOPBACK = ["127.0.0.1"]


def table(name: str, seated: int) -> TableInfo:
    host = crypto.Identity.generate()
    keys = [host.public] + [crypto.Identity.generate().public for _ in range(seated - 1)]
    seats = tuple(LobbySeat(i, f"P{i}", keys[i], f"tcp://127.0.0.1:{7000 + i}") for i in range(seated))
    return TableInfo(name, preset("partnership"), host.public, bytes(16), seats)


@pytest.mark.slow
async def test_a_table_advertised_on_loopback_is_found_and_updated() -> None:
    if not loopback_multicast_works():
        pytest.skip("multicast does not loop back on 127.0.0.1 on this machine: mDNS cannot be tested here")
    info = table("Friday night", 1)
    ad = Advertiser(info, 5599, "127.0.0.1", LOOPBACK)
    await ad.start()
    try:
        found = [t for t in await browse(2.0, LOOPBACK) if t.host_fingerprint == info.host_fingerprint]
        assert [(t.name, t.rules, t.players, t.free, t.endpoint) for t in found] == [
            ("Friday night", "partnership", 4, 3, "tcp://127.0.0.1:5599")
        ]
        assert [t.options for t in found] == [summary(info.rules)]  # the options in force, for the listing
        fuller = table("Friday night", 3)
        await ad.update(TableInfo(fuller.name, fuller.rules, info.host_key, info.lobby, fuller.seated))
        # browse again until the update shows (each browse listens afresh), within a deadline
        deadline = asyncio.get_running_loop().time() + 30
        while (free := await free_seats(info)) != [1]:
            assert asyncio.get_running_loop().time() < deadline, f"the update never showed: {free}"
    finally:
        await ad.close()
    # a closed table says goodbye: browsing no longer finds it
    assert await free_seats(info) == []


async def free_seats(info: TableInfo) -> list[int]:
    """The free seats of every advertisement of `info`'s host that a browse on loopback finds."""
    found = await asyncio.wait_for(browse(1.0, LOOPBACK), 20)
    return [t.free for t in found if t.host_fingerprint == info.host_fingerprint]


async def test_browsing_listens_for_its_whole_window_and_then_returns() -> None:
    # whether anybody answers or not (multicast may not loop back here), the browse ends on time
    loop = asyncio.get_running_loop()
    started = loop.time()
    await asyncio.wait_for(browse(0.5, LOOPBACK), 10)
    assert loop.time() - started >= 0.5, "it returned before its window was over"


def test_txt_record_round_trips_and_hostile_records_are_refused() -> None:
    info = table("Tuesday", 2)
    props = {k.encode(): v.encode() for k, v in txt_record(info).items()}
    ad = parse_ad("x._p2pspades._tcp.local.", props, ["192.168.1.9"], 4242)
    assert (ad.name, ad.free, ad.host_fingerprint, ad.endpoint, ad.protocol) == (
        "Tuesday", 2, info.host_fingerprint, "tcp://192.168.1.9:4242", info.version
    )
    old = parse_ad("x", {**props, b"pv": b"1"}, ["192.168.1.9"], 4242)
    assert old.protocol == 1 and "protocol 1" in advertised(old)
    for key, value in [(b"v", b"9"), (b"free", b"99"), (b"free", b"-1"), (b"fp", b"nope"),
                       (b"name", b""), (b"name", b"\x1b[2J"), (b"players", b"\xff"), (b"pv", b"3"),
                       (b"pv", b"")]:
        with pytest.raises(ValueError):
            parse_ad("x", {**props, key: value}, ["192.168.1.9"], 4242)
    with pytest.raises(ValueError, match="no address"):
        parse_ad("x", props, [], 4242)


def test_the_options_in_force_are_advertised_in_few_words() -> None:
    host = crypto.Identity.generate()
    seats = (LobbySeat(0, "P0", host.public, "tcp://127.0.0.1:7000"),)
    rules = preset("suicide", deuces_high=True, boston="bonus")
    info = TableInfo("Thursday", rules, host.public, bytes(16), seats)
    record = txt_record(info)
    assert record["rules"] == "suicide"
    assert record["opts"] == "min team bid 4, Boston +200, deuces high, suicide bids"
    ad = parse_ad("x", {k.encode(): v.encode() for k, v in record.items()}, ["192.168.1.9"], 4242)
    assert ad.options == record["opts"] and f"suicide ({record['opts']})" in advertised(ad)
    classic = TableInfo("Plain", preset("classic"), host.public, bytes(16), seats)
    assert "opts" not in txt_record(classic)  # nothing to say: the key is left out, as older hosts do
    props = {k.encode(): v.encode() for k, v in txt_record(classic).items()}
    assert parse_ad("x", props, ["192.168.1.9"], 4242).options == ""
    for bad in (b"\x1b[2J", b"x" * (OPTIONS_LIMIT + 1), b"tab\there"):
        with pytest.raises(ValueError, match="bad options"):
            parse_ad("x", {**props, b"opts": bad}, ["192.168.1.9"], 4242)
    long = ", ".join(f"option number {i}" for i in range(20))
    cut = options_text(long)
    assert len(cut) <= OPTIONS_LIMIT and cut.endswith(", …") and long.startswith(cut[:-3])
