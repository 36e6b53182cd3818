"""Table discovery with zeroconf, on the loopback interface only."""

from __future__ import annotations

import asyncio

import pytest
from helpers.net import loopback_multicast_works

from p2pspades import crypto
from p2pspades.describe.tables import advertised
from p2pspades.net.discovery import (
    OPTIONS_LIMIT,
    RULE_CODES_LIMIT,
    Advertiser,
    TableAd,
    browse,
    parse_ad,
    txt_record,
)
from p2pspades.net.lobby import LobbySeat, TableInfo
from p2pspades.rules import RuleSet, preset

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
        assert [t.rule_set for t in found] == [info.rules]  # the rules in force, for the listing
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


def ad_of(rule_set: RuleSet, /, **extra: bytes) -> tuple[dict[str, str], TableAd]:
    """The TXT record of a table playing `rule_set`, and what a browser reads of it with `extra` keys."""
    host = crypto.Identity.generate()
    seats = (LobbySeat(0, "P0", host.public, "tcp://127.0.0.1:7000"),)
    record = txt_record(TableInfo("Thursday", rule_set, host.public, bytes(16), seats))
    props = {k.encode(): v.encode() for k, v in record.items()} | {k.encode(): v for k, v in extra.items()}
    return record, parse_ad("x", props, ["192.168.1.9"], 4242)


def test_the_rules_in_force_are_advertised_as_codes_of_no_language() -> None:
    rules = preset("suicide", deuces_high=True, boston="bonus")
    record, ad = ad_of(rules)
    assert record["rules"] == "suicide" and "opts" not in record
    assert record["ro"] == "boston=bonus,deuces_high=true"  # what differs from the preset, in field order
    assert ad.rule_set == rules and not ad.cut
    record, ad = ad_of(preset("classic"))
    assert "ro" not in record and ad.rule_set == preset("classic")
    rules = preset("piki", jokers=True, removed=("2C", "2D"), losing_threshold=-300)
    record, ad = ad_of(rules)
    assert record["ro"] == "jokers=true,removed=2D+2C,losing_threshold=-300"  # the rule set keeps its order
    assert ad.rule_set == rules


def test_an_older_host_s_words_are_kept_and_unreadable_codes_are_passed_over_or_refused() -> None:
    # an older host says its options in English words (`opts`) and no codes: shown as it said them
    _, old = ad_of(preset("suicide"), opts=b"min team bid 4, suicide bids")
    assert old.rule_set is None and old.options == "min team bid 4, suicide bids"
    for bad in (b"\x1b[2J", b"x" * (OPTIONS_LIMIT + 1), b"tab\there"):
        with pytest.raises(ValueError, match="bad options"):
            ad_of(preset("classic"), opts=bad)
    # an option or a preset of a newer version: the table is listed, its rules are not said
    newer: list[dict[str, bytes]] = [{"ro": b"moon_shot=true"}, {"ro": b"players=99"},
                                     {"rules": b"newgame", "ro": b"nil=false"}]
    for props in newer:
        _, ad = ad_of(preset("classic"), **props)
        assert ad.rule_set is None
    for bad in (b"nil", b"nil=", b"a=b=c", b"nil=\x1b", b"Nil=true", b"x=" + b"1" * RULE_CODES_LIMIT):
        with pytest.raises(ValueError, match="bad rule options"):
            ad_of(preset("classic"), ro=bad)


def test_a_rule_set_too_long_for_its_record_is_cut_after_a_whole_option() -> None:
    rules = preset("two", nil=False, nil_value=50, blind_nil=False, min_bid=2, spade_lead="always",
                   overtrick_points=-10, bag_limit=5, bag_penalty=50, failed_contract="zero", target=300,
                   losing_threshold=-200, tie="shared", renege="three_tricks", on_fault="void",
                   void_proofs=False, boston="win", deuces_high=True, first_leader="dealer", jokers=True)
    record, ad = ad_of(rules)
    assert len(record["ro"]) <= RULE_CODES_LIMIT and record["ro"].endswith(",…")
    assert ad.cut and ad.rule_set is not None and ad.rule_set != rules
    kept = record["ro"].removesuffix(",…").split(",")
    assert all(getattr(ad.rule_set, w.split("=")[0]) == getattr(rules, w.split("=")[0]) for w in kept)
