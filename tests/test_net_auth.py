"""Transport keys bound to identities (known answers from protocol/network.md) and the ZAP policy."""

from __future__ import annotations

import pytest
import zmq.asyncio

from p2pspades import crypto
from p2pspades.net.auth import (
    GAME_DOMAIN,
    AccessList,
    BadKey,
    CurveKeys,
    ZapHandler,
    curve_public_key,
    link_id,
    transport_keys,
)

pytestmark = [pytest.mark.net]

SEED_A = bytes(range(32))
SEED_B = bytes(range(32, 64))


def test_known_answers_from_the_protocol_document() -> None:
    a, b = CurveKeys.from_ed25519_seed(SEED_A), CurveKeys.from_ed25519_seed(SEED_B)
    ed_a = crypto.Identity.from_seed(SEED_A).public
    assert ed_a.hex() == "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
    assert a.public.hex() == "4701d08488451f545a409fb58ae3e58581ca40ac3f7f114698cd71deac73ca01"
    assert a.secret.hex() == "3894eea49c580aef816935762be049559d6d1440dede12e6a125f1841fff8e6f"
    assert b.public.hex() == "5730800ab340fcb18ce5111eda9d705f91388b41e4544cbd103ba5942db2233e"
    assert link_id(a, b.public, sending=True).hex() == "01bdeaade75da4d2e1e9a2a63dc3865630"
    assert link_id(b, a.public, sending=True).hex() == "01dfa7d5eab9185b51f569eee37470a6da"


def test_the_transport_key_follows_from_the_public_signing_key() -> None:
    identity = crypto.Identity.generate()
    keys = transport_keys(identity)
    assert curve_public_key(identity.public) == keys.public
    assert repr(keys.secret) not in repr(keys)
    other = transport_keys(crypto.Identity.generate())
    # both ends compute the same routing id for a link, and each direction has its own
    assert link_id(keys, other.public, sending=True) == link_id(other, keys.public, sending=False)
    assert link_id(keys, other.public, sending=True) != link_id(other, keys.public, sending=True)


def test_bad_keys_are_refused() -> None:
    with pytest.raises(BadKey):
        CurveKeys.from_ed25519_seed(b"short")
    with pytest.raises(BadKey):
        curve_public_key(bytes(32))  # a small-order point is no one's key
    with pytest.raises(BadKey, match="same key"):
        key = crypto.Identity.generate().public
        AccessList().admit({0: key, 1: key})


def zap_request(domain: bytes, mechanism: bytes, *credentials: bytes) -> list[bytes]:
    return [b"\x00peer", b"", b"1.0", b"7", domain, b"192.0.2.9", b"", mechanism, *credentials]


async def test_zap_policy() -> None:
    context = zmq.asyncio.Context()
    seated = [crypto.Identity.generate() for _ in range(3)]
    access = AccessList()
    zap = ZapHandler(context, access)
    try:
        key_of = [curve_public_key(i.public) for i in seated]
        # before the lobby closes nobody is let in
        early = zap.answer(zap_request(GAME_DOMAIN, b"CURVE", key_of[1]))
        assert early is not None and early[4] == b"400"
        access.admit({0: seated[0].public, 1: seated[1].public, 2: seated[2].public})
        reply = zap.answer(zap_request(GAME_DOMAIN, b"CURVE", key_of[2]))
        assert reply == [b"\x00peer", b"", b"1.0", b"7", b"200", b"OK", b"2", b""]
        stranger = curve_public_key(crypto.Identity.generate().public)
        refusals = [
            zap_request(GAME_DOMAIN, b"CURVE", stranger),
            zap_request(b"other", b"CURVE", key_of[0]),
            zap_request(GAME_DOMAIN, b"NULL"),
            zap_request(GAME_DOMAIN, b"PLAIN", b"user", b"pass"),
        ]
        for request in refusals:
            answer = zap.answer(request)
            assert answer is not None and answer[4] == b"400" and answer[6] == b""
        old = zap.answer([b"x", b"", b"2.0", b"7", GAME_DOMAIN, b"", b"", b"CURVE", key_of[0]])
        assert old is not None and old[4] == b"500"
        assert zap.answer([b"short"]) is None
        assert zap.refused == 5
    finally:
        await zap.close()
        context.destroy(linger=0)
