"""Identities: signing, verification, key files with mode 0600, fingerprints."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades import crypto
from p2pspades.crypto import Identity, IdentityError

posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")

FIXED = Identity.from_seed(bytes(range(32)))


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# --- signatures ---


def test_sign_and_verify() -> None:
    signature = FIXED.sign(b"bid 4")
    assert len(signature) == 64
    assert len(FIXED.public) == 32
    assert crypto.verify_signature(FIXED.public, signature, b"bid 4")
    assert not crypto.verify_signature(FIXED.public, signature, b"bid 5")
    other = Identity.generate()
    assert not crypto.verify_signature(other.public, signature, b"bid 4")


def test_a_flipped_bit_anywhere_breaks_the_signature() -> None:
    data = b"play AS"
    signature = FIXED.sign(data)
    for i in range(0, 64 * 8, 37):
        flipped = bytearray(signature)
        flipped[i // 8] ^= 1 << (i % 8)
        assert not crypto.verify_signature(FIXED.public, bytes(flipped), data)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=40), st.binary(max_size=70), st.binary(max_size=16))
def test_verify_never_raises_on_garbage(public: bytes, signature: bytes, data: bytes) -> None:
    assert crypto.verify_signature(public, signature, data) is False


@pytest.mark.parametrize(
    ("public", "signature", "data"),
    [
        (None, b"x" * 64, b""),
        ("k" * 32, b"x" * 64, b""),
        (b"\x00" * 32, None, b""),
        (FIXED.public, b"\x00" * 64, 5),
    ],
)
def test_verify_returns_false_for_values_of_the_wrong_type(
    public: object, signature: object, data: object
) -> None:
    assert crypto.verify_signature(public, signature, data) is False  # type: ignore[arg-type]


def test_verify_refuses_a_signature_with_a_non_canonical_s() -> None:
    data = b"x"
    signature = FIXED.sign(data)
    s = int.from_bytes(signature[32:], "little") + crypto.L  # the same S mod L, not reduced
    forged = signature[:32] + s.to_bytes(32, "little")
    assert crypto.verify_signature(FIXED.public, signature, data)
    assert not crypto.verify_signature(FIXED.public, forged, data)


def test_generated_identities_differ() -> None:
    assert Identity.generate().public != Identity.generate().public


# --- fingerprints ---


def test_fingerprint_format() -> None:
    fp = crypto.fingerprint(FIXED.public)
    assert re.fullmatch(r"[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}", fp)
    assert FIXED.fingerprint == fp
    assert fp in repr(FIXED)


def test_fingerprint_is_crockford_base32_of_the_hash() -> None:
    import hashlib

    digest = hashlib.sha256(b"p2pspades/v1/fingerprint" + FIXED.public).digest()[:10]
    bits = "".join(f"{byte:08b}" for byte in digest)
    alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
    symbols = "".join(alphabet[int(bits[i : i + 5], 2)] for i in range(0, 80, 5))
    assert crypto.fingerprint(FIXED.public).replace("-", "") == symbols


def test_fingerprints_are_stable_and_tell_keys_apart() -> None:
    assert crypto.fingerprint(FIXED.public) == crypto.fingerprint(Identity.from_seed(bytes(range(32))).public)
    others = {Identity.generate().fingerprint for _ in range(20)}
    assert len(others) == 20
    assert FIXED.fingerprint not in others


def test_fingerprint_refuses_a_key_of_the_wrong_size() -> None:
    with pytest.raises(crypto.CryptoUsageError, match="32 bytes"):
        crypto.fingerprint(b"\x00" * 31)


# --- key files ---


@posix_only
def test_load_or_create_creates_a_0600_pem_file_and_loads_it_back(tmp_path: Path) -> None:
    path = tmp_path / "config" / "identities" / "default.key"
    created = Identity.load_or_create(path)
    assert path.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    assert _mode(path) == 0o600
    loaded = Identity.load_or_create(path)
    assert loaded.public == created.public
    assert crypto.verify_signature(created.public, loaded.sign(b"x"), b"x")
    assert [p.name for p in path.parent.iterdir()] == ["default.key"]  # no temporary file left behind


@posix_only
def test_the_created_file_is_0600_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        path = tmp_path / "k.key"
        Identity.load_or_create(path)
    finally:
        os.umask(old)
    assert _mode(path) == 0o600


@posix_only
def test_a_raw_32_byte_seed_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "raw.key"
    path.write_bytes(bytes(range(32)))
    path.chmod(0o600)
    assert Identity.load_or_create(path).public == FIXED.public


@posix_only
def test_a_pem_written_by_another_tool_loads(tmp_path: Path) -> None:
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    path = tmp_path / "other.pem"
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    path.write_bytes(pem)
    path.chmod(0o600)
    assert Identity.load(path).public == FIXED.public


@posix_only
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660])
def test_a_key_file_other_users_can_access_is_refused(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "open.key"
    Identity.load_or_create(path)
    path.chmod(mode)
    with pytest.raises(IdentityError, match="chmod 600"):
        Identity.load_or_create(path)
    assert _mode(path) == mode  # refused, not silently fixed


@posix_only
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "neither a PEM"),
        (b"not a key at all", "neither a PEM"),
        (b"-----BEGIN PRIVATE KEY-----\ngarbage\n-----END PRIVATE KEY-----\n", "not a valid PEM"),
        (bytes(31), "31 bytes"),
    ],
)
def test_a_file_that_is_not_a_key_is_refused_and_kept(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.key"
    path.write_bytes(content)
    path.chmod(0o600)
    with pytest.raises(IdentityError, match=message):
        Identity.load_or_create(path)
    assert path.read_bytes() == content  # never overwritten


@posix_only
def test_an_encrypted_or_non_ed25519_pem_is_refused(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives.asymmetric import ec

    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    encrypted = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(b"secret"),
    )
    path = tmp_path / "enc.key"
    path.write_bytes(encrypted)
    path.chmod(0o600)
    with pytest.raises(IdentityError, match="encrypted"):
        Identity.load(path)
    ec_pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    path.write_bytes(ec_pem)
    with pytest.raises(IdentityError, match="not an Ed25519 key"):
        Identity.load(path)


def test_a_directory_is_not_a_key_file(tmp_path: Path) -> None:
    with pytest.raises(IdentityError, match=r"not a regular file|cannot read"):
        Identity.load_or_create(tmp_path)


@posix_only
def test_creation_never_overwrites_a_key_that_appeared_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / "race.key"
    first = Identity.load_or_create(path)
    before = path.read_bytes()
    second = Identity.generate()
    assert second._save_new(path) is False  # what a process that lost the race sees
    assert path.read_bytes() == before
    assert Identity.load_or_create(path).public == first.public
    assert [p.name for p in tmp_path.iterdir()] == ["race.key"]


def test_load_of_a_missing_file_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Identity.load(tmp_path / "missing.key")


def test_default_identity_path_is_under_the_data_home(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setenv("P2PSPADES_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("P2PSPADES_PROFILE", raising=False)
    assert crypto.default_identity_path() == tmp_path / "home" / "identities" / "default.key"
    assert crypto.default_identity_path("alice") == tmp_path / "home" / "identities" / "alice.key"
    monkeypatch.setenv("P2PSPADES_PROFILE", "bob")
    profile = tmp_path / "home" / "profiles" / "bob"
    assert crypto.default_identity_path() == profile / "identities" / "default.key"
    assert crypto.default_identity_path(home=tmp_path / "x") == tmp_path / "x" / "identities" / "default.key"


def test_a_key_kept_where_older_versions_kept_it_is_still_used(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("the platform directories follow XDG_* only on Linux")
    monkeypatch.delenv("P2PSPADES_HOME", raising=False)
    monkeypatch.delenv("P2PSPADES_PROFILE", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert crypto.default_identity_path() == tmp_path / "data" / "p2pspades" / "identities" / "default.key"
    legacy = tmp_path / "config" / "p2pspades" / "identities" / "default.key"
    Identity.load_or_create(legacy)
    assert crypto.default_identity_path() == legacy
    assert crypto.default_identity_path(home=tmp_path / "data" / "p2pspades") == legacy  # as the CLI asks
    monkeypatch.setenv("P2PSPADES_PROFILE", "other")  # another profile is another player: a key of its own
    other = tmp_path / "data" / "p2pspades" / "profiles" / "other"
    assert crypto.default_identity_path() == other / "identities" / "default.key"


@pytest.mark.parametrize("name", ["", "../evil", "a/b", ".hidden", "x" * 65, "sp ace"])
def test_default_identity_path_refuses_names_that_are_not_plain(name: str) -> None:
    with pytest.raises(IdentityError, match="identity name"):
        crypto.default_identity_path(name)


def test_from_seed_refuses_a_seed_of_the_wrong_size() -> None:
    with pytest.raises(crypto.CryptoUsageError, match="32 bytes"):
        Identity.from_seed(b"\x00" * 16)
