"""The one hash of the protocol, with its domain-separation strings.

Every derivation hashes a domain string and a list of byte strings, each prefixed with its length, so that no
two different inputs (and no two domains) can produce the same hash input.
"""

from __future__ import annotations

import hashlib
from typing import Final

DOMAIN_CARD: Final = "p2pspades/v1/card"
DOMAIN_COMMIT: Final = "p2pspades/v1/commit"
DOMAIN_SHUFFLE_KEY: Final = "p2pspades/v1/shuffle-key"
DOMAIN_PERMUTATION: Final = "p2pspades/v1/permutation"
DOMAIN_LOCK_KEY: Final = "p2pspades/v1/lock-key"
DOMAIN_DRAW_COMMIT: Final = "p2pspades/v1/draw-commit"
DOMAIN_DRAW: Final = "p2pspades/v1/draw"
DOMAIN_FINGERPRINT: Final = "p2pspades/v1/fingerprint"

HASH_BYTES: Final = 64


def H(domain: str, *parts: bytes) -> bytes:
    """SHA-512 over the domain and each part, each as a 4-byte big-endian length followed by the bytes."""
    h = hashlib.sha512()
    update = h.update
    d = domain.encode("utf-8")
    update(len(d).to_bytes(4, "big"))
    update(d)
    for part in parts:
        update(len(part).to_bytes(4, "big"))
        update(part)
    return h.digest()
