"""Access control for the game mesh: CurveZMQ keys bound to Ed25519 identities, and a ZAP allow-list.

Every game socket runs CurveZMQ. A peer's CURVE keypair is its Ed25519 signing key converted to Curve25519
(libsodium's birational map), so holding the transport key means holding the signing key, and the seat map of
Ed25519 keys agreed in the lobby is all a peer needs to know whom to let in. The ZAP handler (ZeroMQ RFC 27)
runs as an asyncio task in the peer's own event loop: it accepts a CURVE client only if its key belongs to a
seated player and hands the seat number back as the connection's User-Id, which the mesh then attaches to
every frame from that connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

import nacl.bindings
import nacl.exceptions
import zmq
import zmq.asyncio

from p2pspades.crypto import Identity
from p2pspades.errors import LocalError

log = logging.getLogger(__name__)

ZAP_ENDPOINT = "inproc://zeromq.zap.01"
ZAP_VERSION = b"1.0"
GAME_DOMAIN = b"p2pspades-game"
"""The ZAP domain every game ROUTER announces; requests for any other domain are refused."""


class BadKey(LocalError, ValueError):
    """A key given to the transport is not a usable Ed25519 key."""


@dataclass(frozen=True)
class CurveKeys:
    """A peer's CurveZMQ keypair (raw 32-byte keys), derived from its Ed25519 identity."""

    public: bytes
    secret: bytes = field(repr=False)

    @classmethod
    def from_ed25519_seed(cls, seed: bytes) -> CurveKeys:
        """Derive the keypair from the 32-byte Ed25519 private key (the seed the signing key is made of)."""
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise BadKey("an Ed25519 private key is 32 bytes")
        ed_public, ed_secret = nacl.bindings.crypto_sign_seed_keypair(seed)
        return cls(
            public=nacl.bindings.crypto_sign_ed25519_pk_to_curve25519(ed_public),
            secret=nacl.bindings.crypto_sign_ed25519_sk_to_curve25519(ed_secret),
        )


def transport_keys(identity: Identity) -> CurveKeys:
    """The CurveZMQ keypair of a player, derived from the Ed25519 key inside its identity.

    This is the one place in the network layer that reads the private seed, to convert it, and the seed goes
    no further than libsodium.
    """
    seed = identity.private_seed()
    return CurveKeys.from_ed25519_seed(seed)


def curve_public_key(ed25519_public: bytes) -> bytes:
    """The CURVE public key of the peer whose Ed25519 public key is given (`BadKey` if it is not one)."""
    if not isinstance(ed25519_public, bytes) or len(ed25519_public) != 32:
        raise BadKey("an Ed25519 public key is 32 bytes")
    try:
        return nacl.bindings.crypto_sign_ed25519_pk_to_curve25519(ed25519_public)
    except (nacl.exceptions.CryptoError, RuntimeError, ValueError) as exc:
        raise BadKey(f"not a valid Ed25519 public key: {exc}") from None


def link_id(own: CurveKeys, other_curve_public: bytes, *, sending: bool) -> bytes:
    """The ZeroMQ routing id of the link between two seats, in one direction.

    Only the two ends can compute it (it hashes their X25519 shared secret), so a restarted peer reclaims its
    old connection through ROUTER_HANDOVER, while another seated player cannot guess it to evict that link.
    It starts with 0x01 because libzmq reserves routing ids that start with a zero byte.
    """
    try:
        shared = nacl.bindings.crypto_scalarmult(own.secret, other_curve_public)
    except (nacl.exceptions.CryptoError, RuntimeError, ValueError) as exc:
        raise BadKey(f"no shared key with {other_curve_public.hex()[:16]}: {exc}") from None
    sender, receiver = (own.public, other_curve_public) if sending else (other_curve_public, own.public)
    return b"\x01" + hashlib.sha256(b"p2pspades/v1/link" + shared + sender + receiver).digest()[:16]


class AccessList:
    """Which CURVE client keys may connect, and the seat each one speaks for.

    Empty (everyone refused) until the lobby closes and `admit` installs the seat map.
    """

    def __init__(self) -> None:
        self._seats: dict[bytes, int] = {}

    def admit(self, ed25519_keys: Mapping[int, bytes]) -> None:
        """Allow exactly the given seats (seat -> Ed25519 public key); replaces any earlier list."""
        seats: dict[bytes, int] = {}
        for seat, key in ed25519_keys.items():
            curve = curve_public_key(key)
            if curve in seats:
                raise BadKey(f"seats {seats[curve]} and {seat} have the same key")
            seats[curve] = seat
        self._seats = seats

    def seat_of(self, curve_public: bytes) -> int | None:
        return self._seats.get(curve_public)

    def __len__(self) -> int:
        return len(self._seats)


class ZapHandler:
    """A ZAP (RFC 27) server for one ZeroMQ context, served from the event loop.

    It must be started before any game socket binds: libzmq only consults ZAP if a handler is bound to
    `inproc://zeromq.zap.01` in the socket's context at handshake time.
    """

    def __init__(self, context: zmq.asyncio.Context, access: AccessList, domain: bytes = GAME_DOMAIN) -> None:
        self.access = access
        self.domain = domain
        self._socket = context.socket(zmq.ROUTER)
        self._socket.setsockopt(zmq.LINGER, 0)
        self._socket.bind(ZAP_ENDPOINT)
        self._task: asyncio.Task[None] | None = None
        self.refused = 0
        """How many handshakes were refused (visible for status and tests)."""

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._serve(), name="zap")

    async def _serve(self) -> None:
        while True:
            try:
                frames = await self._socket.recv_multipart()
            except zmq.ZMQError as exc:
                if exc.errno in (zmq.ETERM, zmq.ENOTSOCK):
                    return
                log.warning("ZAP receive failed: %s", exc)
                continue
            reply = self.answer(frames)
            if reply is None:
                continue
            try:
                await self._socket.send_multipart(reply)
            except zmq.ZMQError as exc:
                log.warning("ZAP reply failed: %s", exc)

    def answer(self, frames: list[bytes]) -> list[bytes] | None:
        """The reply frames for one request as it arrives on the ROUTER (routing id, empty, request...)."""
        if len(frames) < 8 or frames[1] != b"":
            log.warning("ZAP: malformed request of %d frames dropped", len(frames))
            return None
        routing, _, version, request_id, domain, address, _identity, mechanism, *credentials = frames

        def reply(status: bytes, text: str, user: bytes = b"") -> list[bytes]:
            return [routing, b"", ZAP_VERSION, request_id, status, text.encode(), user, b""]

        if version != ZAP_VERSION:
            return reply(b"500", "unsupported ZAP version")
        peer = address.decode(errors="replace")
        if domain != self.domain:
            self.refused += 1
            log.warning("refused %s: wrong ZAP domain %r", peer, domain[:40])
            return reply(b"400", "wrong domain")
        if mechanism != b"CURVE" or len(credentials) != 1 or len(credentials[0]) != 32:
            self.refused += 1
            log.warning("refused %s: mechanism %r is not CURVE", peer, mechanism[:20])
            return reply(b"400", "CURVE required")
        seat = self.access.seat_of(credentials[0])
        if seat is None:
            self.refused += 1
            log.warning("refused %s: CURVE key %s is not a seated player", peer, credentials[0].hex()[:16])
            return reply(b"400", "not seated at this table")
        return reply(b"200", "OK", str(seat).encode())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._socket.close(linger=0)
