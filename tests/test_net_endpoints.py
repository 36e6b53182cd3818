"""The one parser of `tcp://HOST:PORT`: what people type and what peers announce."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pspades.net import endpoints
from p2pspades.net.endpoints import Endpoint


@pytest.mark.parametrize(
    ("text", "host", "port"),
    [
        ("tcp://192.168.1.20:5555", "192.168.1.20", 5555),
        ("tcp://kitchen.local:1", "kitchen.local", 1),
        ("tcp://[fe80::1]:65535", "fe80::1", 65535),
        ("tcp://0.0.0.0:80", "0.0.0.0", 80),  # parsed; whether a wildcard will do is the caller's question
    ],
)
def test_endpoints_parse(text: str, host: str, port: int) -> None:
    parsed = endpoints.parse(text)
    assert parsed == Endpoint(host, port)
    assert str(parsed) == text


@pytest.mark.parametrize(
    "text",
    ["", "tcp://", "tcp://host", "tcp://host:0", "tcp://host:65536", "tcp://host:123456", "udp://host:5",
     "tcp://fe80::1:5", "tcp://ho st:5", "tcp://host:5/x", "tcp://[::1:5", "192.168.1.20:5555", " tcp://a:1"],
)
def test_what_is_not_an_endpoint_is_none(text: str) -> None:
    assert endpoints.parse(text) is None


def test_a_person_may_leave_out_the_scheme() -> None:
    assert endpoints.parse("192.168.1.20:5555", scheme_optional=True) == Endpoint("192.168.1.20", 5555)
    assert endpoints.parse("[::1]:7", scheme_optional=True) == Endpoint("::1", 7)
    assert Endpoint("::1", 7).host_port == "[::1]:7"
    assert endpoints.tcp("::", "*") == "tcp://[::]:*" and endpoints.tcp("*", 0) == "tcp://*:0"


@given(st.text(max_size=80))
def test_any_text_parses_or_is_refused_and_what_parses_round_trips(text: str) -> None:
    parsed = endpoints.parse(text, scheme_optional=True)
    if parsed is not None:
        assert 1 <= parsed.port <= 65535
        assert endpoints.parse(str(parsed)) == parsed
