"""Write protocol/vectors/weak_keys.json: the Ed25519 public keys and signatures every verifier refuses.

Every input is fixed, so running this twice writes the same bytes. `--check` compares instead of writing and
exits 1 if the file is stale.

    python protocol/vectors/make_weak_key_vectors.py [--check]
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from nacl.bindings import crypto_core_ed25519_add
from vectorfile import write_or_check

from p2pspades import crypto

OUT = Path(__file__).with_name("weak_keys.json")
L = crypto.L
#: RFC 8032, section 7.1, TEST 1
RFC8032_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
MESSAGE = b"p2pspades"

#: The eight points of small order (the torsion subgroup), with the two encodings that set the sign bit of a
#: point whose x is 0 (non-canonical encodings of the identity and of the point of order 2).
SMALL_ORDER = [
    ("identity", "0100000000000000000000000000000000000000000000000000000000000000"),
    ("order 2", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    ("order 4", "0000000000000000000000000000000000000000000000000000000000000000"),
    ("order 4 (sign bit set)", "0000000000000000000000000000000000000000000000000000000000000080"),
    ("order 8", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
    ("order 8", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"),
    ("order 8", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
    ("order 8", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"),
    ("identity, sign bit set (x = 0)", "0100000000000000000000000000000000000000000000000000000000000080"),
    ("order 2, sign bit set (x = 0)", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
]
NON_CANONICAL = [
    ("y = p (= 0)", "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    ("y = p + 1 (= 1, the identity)", "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    ("y = 2^255 - 1", "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
]


def _rfc_key() -> tuple[bytes, int]:
    """The RFC 8032 TEST 1 public key and its secret scalar a."""
    identity = crypto.Identity.from_seed(RFC8032_SEED)
    h = bytearray(hashlib.sha512(RFC8032_SEED).digest()[:32])
    h[0] &= 248
    h[31] &= 127
    h[31] |= 64
    return identity.public, int.from_bytes(h, "little")


def _not_on_curve() -> str:
    """The first y = 2, 3, ... for which no x exists (x^2 = (y^2 - 1) / (d y^2 + 1) is not a square)."""
    p = 2**255 - 19
    d = -121665 * pow(121666, -1, p) % p
    for y in range(2, 100):
        x2 = (y * y - 1) * pow(d * y * y + 1, -1, p) % p
        if pow(x2, (p - 1) // 2, p) == p - 1:
            return y.to_bytes(32, "little").hex()
    raise AssertionError("no y off the curve below 100")  # pragma: no cover


def build() -> dict[str, Any]:
    """Every vector, as plain JSON values (byte strings in lowercase hex)."""
    public, a = _rfc_key()
    mixed = crypto_core_ed25519_add(public, bytes.fromhex(SMALL_ORDER[4][1]))
    refused: list[dict[str, str]] = []
    for kind, items in (("small order", SMALL_ORDER), ("non-canonical", NON_CANONICAL)):
        for name, key in items:
            refused.append({"kind": kind, "name": name, "key": key})
    refused.append({"kind": "not on the curve", "name": "no x for this y", "key": _not_on_curve()})
    refused.append(
        {"kind": "torsion component", "name": "RFC 8032 TEST 1 key + a point of order 8", "key": mixed.hex()}
    )
    refused.append({"kind": "length", "name": "31 bytes", "key": public[:31].hex()})
    for item in refused:
        why = crypto.explain_bad_point(bytes.fromhex(item["key"])) or ""
        item["why"] = why.replace("a point is", "a public key is")
        assert item["why"], item
    # R = identity (r = 0): S = h a satisfies the cofactorless equation S B = R + h A; R is of small order
    identity_r = bytes.fromhex(SMALL_ORDER[0][1])
    h = int.from_bytes(hashlib.sha512(identity_r + public + MESSAGE).digest(), "little") % L
    small_r = identity_r + (h * a % L).to_bytes(32, "little")
    signatures = [
        {
            "name": "the identity key, R = identity, S = 0: satisfies the equation for every message",
            "key": SMALL_ORDER[0][1],
            "message": MESSAGE.hex(),
            "signature": (identity_r + bytes(32)).hex(),
        },
        {
            "name": "the RFC 8032 TEST 1 key, R = identity (nonce 0): the equation holds, R has small order",
            "key": public.hex(),
            "message": MESSAGE.hex(),
            "signature": small_r.hex(),
        },
        {
            "name": "the RFC 8032 TEST 1 key, S + L: non-canonical S",
            "key": public.hex(),
            "message": MESSAGE.hex(),
            "signature": _s_plus_l(crypto.Identity.from_seed(RFC8032_SEED).sign(MESSAGE)).hex(),
        },
    ]
    accepted = {
        "key": public.hex(),
        "message": MESSAGE.hex(),
        "signature": crypto.Identity.from_seed(RFC8032_SEED).sign(MESSAGE).hex(),
    }
    return {
        "description": (
            "Ed25519 public keys that check_public_key refuses (protocol/crypto.md section 9), with the "
            "reason, and signatures that satisfy a lax check but that every verifier must refuse; "
            "`accepted` is a valid key and signature"
        ),
        "refused_keys": refused,
        "refused_signatures": signatures,
        "accepted": accepted,
    }


def _s_plus_l(signature: bytes) -> bytes:
    s = int.from_bytes(signature[32:], "little") + L
    return signature[:32] + s.to_bytes(32, "little")


def main(argv: list[str]) -> int:
    return write_or_check(argv, OUT, build, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
