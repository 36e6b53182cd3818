"""Player identities: Ed25519 keys (through `cryptography`), their key files and readable fingerprints.

This is the one module of the crypto layer that touches files. A key file is either PEM (PKCS#8,
unencrypted) or a raw 32-byte Ed25519 seed; new files are PEM, created with mode 0600 under a temporary name
and then linked into place, so a reader never sees a half-written key and two processes never overwrite each
other's key.
"""

from __future__ import annotations

import functools
import hashlib
import os
import secrets
import stat
from pathlib import Path
from typing import Final

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl.bindings import crypto_core_ed25519_is_valid_point, crypto_sign_open
from nacl.exceptions import CryptoError

from p2pspades import paths
from p2pspades.errors import N_, Detail
from p2pspades.files import write_private

from .errors import REFUSED, CryptoUsageError, IdentityError, WeakKey
from .group import explain_bad_point
from .hashing import DOMAIN_FINGERPRINT

PUBLIC_KEY_BYTES: Final = 32
SIGNATURE_BYTES: Final = 64
PRIVATE_SEED_BYTES: Final = 32
FINGERPRINT_ALPHABET: Final = "0123456789abcdefghjkmnpqrstvwxyz"
"""Crockford's base32 in lower case: no i, l, o or u, so nothing reads as another symbol."""
FINGERPRINT_BYTES: Final = 10


def fingerprint(public: bytes) -> str:
    """A short, readable name for a public key: four groups of four base32 symbols ("k7q2-9vxm-3hd8-pw4t").

    The first 10 bytes of SHA-256("p2pspades/v1/fingerprint" || public), 5 bits per symbol, most significant
    first.
    """
    if not isinstance(public, bytes) or len(public) != PUBLIC_KEY_BYTES:
        raise CryptoUsageError(f"a public key is {PUBLIC_KEY_BYTES} bytes, got {public!r}")
    digest = hashlib.sha256(DOMAIN_FINGERPRINT.encode("ascii") + public).digest()
    value = int.from_bytes(digest[:FINGERPRINT_BYTES], "big")
    bits = 8 * FINGERPRINT_BYTES
    symbols = "".join(FINGERPRINT_ALPHABET[(value >> (bits - 5 * (i + 1))) & 31] for i in range(bits // 5))
    return "-".join(symbols[i : i + 4] for i in range(0, len(symbols), 4))


@functools.lru_cache(maxsize=1024)
def _is_strong_key(public: bytes) -> bool:
    # one multiplication by L per new key; the few keys of a game are checked once each
    return crypto_core_ed25519_is_valid_point(public)


def check_public_key(public: object) -> bytes:
    """Refuse a weak Ed25519 public key; return it unchanged (protocol/crypto.md §9).

    A key must be a valid point of the prime-order group as §2 defines it: 32 bytes, a canonical encoding, on
    the curve, not of small order (the identity included, whatever its sign bit) and without a torsion
    component. Every honest key is one (A = a·B with a multiple of 8). With a small-order key, a forged
    signature verifies for every message under a cofactorless check such as OpenSSL's, and libsodium refuses
    it: implementations would disagree, and a player could disown its entries.
    """
    if not isinstance(public, bytes) or len(public) != PUBLIC_KEY_BYTES:
        got = f"{len(public)} bytes" if isinstance(public, bytes) else f"a {type(public).__name__}"
        why = Detail(N_("a public key is {public_key_bytes} bytes, got {got}"),
                     public_key_bytes=PUBLIC_KEY_BYTES, got=got)
        raise WeakKey(why)
    if not _is_strong_key(public):
        why = explain_bad_point(public) or Detail(REFUSED)
        raise WeakKey(Detail(N_("public key {key}… is refused: {why}"), key=public.hex()[:16], why=why))
    return public


def is_strong_public_key(public: object) -> bool:
    """True if `check_public_key` accepts `public`."""
    return isinstance(public, bytes) and len(public) == PUBLIC_KEY_BYTES and _is_strong_key(public)


def verify_signature(public: bytes, signature: bytes, data: bytes) -> bool:
    """True if `signature` is a valid Ed25519 signature of `data` by `public`; False for anything else.

    The key must pass `check_public_key`; the signature is then checked by libsodium
    (`crypto_sign_verify_detached`: S canonical, R not of small order, R compared byte for byte), so every
    implementation that follows protocol/crypto.md §9 accepts exactly the same signatures.
    """
    if not (
        isinstance(signature, bytes)
        and len(signature) == SIGNATURE_BYTES
        and isinstance(data, bytes | bytearray | memoryview)
        and is_strong_public_key(public)
    ):
        return False
    try:
        crypto_sign_open(signature + bytes(data), public)
    except CryptoError:  # BadSignatureError: not a valid signature
        return False
    return True


def default_identity_path(name: str = "default", home: str | os.PathLike[str] | None = None) -> Path:
    """Where the identity called `name` lives: <data home>/identities/<name>.key (see `p2pspades.paths`)."""
    try:
        return paths.identity_path(name, home)
    except paths.ProfileError as exc:
        raise IdentityError(str(exc)) from None


class Identity:
    """One player's signing key. Only the public half ever leaves this object."""

    __slots__ = ("_key", "_public")

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        raw = serialization.Encoding.Raw
        self._public = key.public_key().public_bytes(raw, serialization.PublicFormat.Raw)

    @classmethod
    def generate(cls) -> Identity:
        """A fresh key from the operating system's CSPRNG."""
        return cls.from_seed(secrets.token_bytes(PRIVATE_SEED_BYTES))

    @classmethod
    def from_seed(cls, seed: bytes) -> Identity:
        """The key whose RFC 8032 private seed is these 32 bytes (fixed keys for tests and vectors)."""
        if not isinstance(seed, bytes) or len(seed) != PRIVATE_SEED_BYTES:
            raise CryptoUsageError(f"an Ed25519 seed is {PRIVATE_SEED_BYTES} bytes")
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @property
    def public(self) -> bytes:
        """The 32-byte raw public key, as written into the genesis."""
        return self._public

    @property
    def fingerprint(self) -> str:
        """`fingerprint(self.public)`."""
        return fingerprint(self._public)

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of `data`."""
        return self._key.sign(data)

    def private_seed(self) -> bytes:
        """The 32-byte RFC 8032 private seed: a secret, for deriving the transport (CurveZMQ) key only."""
        return self._key.private_bytes_raw()

    def __repr__(self) -> str:
        return f"Identity({self.fingerprint})"

    # --- key files ---

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Identity:
        """Read a key file (PEM or raw 32-byte seed). Refuses a file that other users can read or write."""
        path = Path(path)
        try:
            fd = os.open(path, os.O_RDONLY)
        except FileNotFoundError:
            raise
        except OSError as exc:
            raise IdentityError(N_("cannot read identity file {path}: {strerror}"), path=path,
                                strerror=exc.strerror) from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise IdentityError(N_("identity file {path} is not a regular file"), path=path)
            if os.name == "posix" and info.st_mode & 0o077:
                raise IdentityError(
                    N_("identity file {path} is accessible by other users (mode {mode}); it holds a private "
                       "key: run `chmod 600 {path}` and try again"), path=path,
                    mode=f"{stat.S_IMODE(info.st_mode):04o}")
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = f.read(64 * 1024 + 1)
        finally:
            os.close(fd)
        return cls(_parse_key(data, path))

    @classmethod
    def load_or_create(cls, path: str | os.PathLike[str]) -> Identity:
        """The identity in `path`, creating a new one there (mode 0600) if the file does not exist."""
        path = Path(path)
        try:
            return cls.load(path)
        except FileNotFoundError:
            pass
        identity = cls.generate()
        if identity._save_new(path):
            return identity
        return cls.load(path)  # another process created it first: use theirs

    def _save_new(self, path: Path) -> bool:
        """Write the key to `path` unless it exists; False if it did (atomic, mode 0600)."""
        pem = self._key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise IdentityError(N_("cannot create directory {parent}: {strerror}"), parent=path.parent,
                                strerror=exc.strerror) from None
        try:
            return write_private(path, pem)
        except OSError as exc:
            raise IdentityError(N_("cannot write identity file {path}: {strerror}"), path=path,
                                strerror=exc.strerror) from None


def _parse_key(data: bytes, path: Path) -> Ed25519PrivateKey:
    if data.lstrip().startswith(b"-----BEGIN"):
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except TypeError:
            raise IdentityError(
                N_("identity file {path} is encrypted; only unencrypted keys are supported"),
                path=path) from None
        except ValueError:
            raise IdentityError(N_("identity file {path} is not a valid PEM private key"),
                                path=path) from None
        if not isinstance(key, Ed25519PrivateKey):
            raise IdentityError(N_("identity file {path} holds a {type}, not an Ed25519 key"), path=path,
                                type=type(key).__name__)
        return key
    if len(data) == PRIVATE_SEED_BYTES:
        return Ed25519PrivateKey.from_private_bytes(data)
    raise IdentityError(
        N_("identity file {path} is neither a PEM Ed25519 private key nor a raw 32-byte seed ({count} "
           "bytes)"), path=path, count=len(data))
