"""Canonical msgpack: exactly one byte string for every payload value.

msgpack alone allows several encodings of one value (wide integers, wide lengths, any key order, duplicate
keys). Signatures and the hash chain cover bytes, so every peer must produce, and accept, only one of them:
the one `encode` writes. `decode` accepts a byte string only if `encode` gives those same bytes back.

The rules (see `protocol/encoding.md`): maps with 1..32-character visible-ASCII string keys, sorted by their
UTF-8 bytes, no duplicates; integers in -2**63 .. 2**64-1; UTF-8 strings; byte strings; booleans; nil;
arrays; nesting at most `MAX_DEPTH` containers deep, at most `MAX_ITEMS` elements per container; the smallest
msgpack encoding of every value; never floats or extension types. The top level of a payload is a map.
"""

from __future__ import annotations

from typing import Any

import msgpack

from p2pspades.checks import Check

from ..errors import N_, Detail, LocalError, RemoteError

__all__ = [
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_ITEMS",
    "MAX_KEY_LENGTH",
    "MAX_PAYLOAD",
    "MIN_INT",
    "DecodeError",
    "EncodeError",
    "decode",
    "encode",
]

MAX_PAYLOAD = 16 * 1024
"""Largest payload in bytes. The biggest legitimate ones (a 54-card shuffle, 54 x 34 bytes plus the header
fields, about 1.9 KiB; a genesis with 5 seats and a full rule set, about 1 KiB) leave a margin of 8x."""

MAX_DEPTH = 8
"""Most containers nested in one another; the top-level map counts as 1."""

MAX_ITEMS = 256
"""Most elements in one array, or key-value pairs in one map (a deck has at most 54 cards). It also bounds
what a hostile header can make msgpack allocate before the input runs out."""

MAX_KEY_LENGTH = 32
"""Longest map key, in characters (keys are visible ASCII, so also in bytes). The rule-set options are
the keys of the genesis' `rules` map; the longest has 28 characters."""

MIN_INT = -(2**63)
MAX_INT = 2**64 - 1


class EncodeError(LocalError, ValueError):
    """We asked to encode a value that has no canonical encoding (a float, a tuple, a bad key, ...)."""


class DecodeError(RemoteError):
    """Bytes from a peer (or a log) are not a canonical encoding; `check` says which layer refused them."""

    def __init__(self, check: Check, detail: str, seat: int | None = None) -> None:
        super().__init__(check, detail, seat)


def _key_problem(key: object) -> Detail | None:
    """Why `key` cannot be a map key, or None if it can."""
    if type(key) is not str:
        return Detail(N_("map key {key} is not a str but {type}"), key=repr(key), type=type(key).__name__)
    if not 1 <= len(key) <= MAX_KEY_LENGTH:
        return Detail(N_("map key {key} has {length} characters (allowed 1..{most})"), key=repr(key),
                      length=len(key), most=MAX_KEY_LENGTH)
    if not all("!" <= c <= "~" for c in key):
        return Detail(N_("map key {key} is not visible ASCII"), key=repr(key))
    return None


def _check_value(value: object, depth: int, path: str) -> None:
    """Raise EncodeError unless `value` (at nesting `depth`) has a canonical encoding."""
    kind = type(value)
    if value is None or kind is bool or kind is bytes:
        return
    if kind is int:
        if not MIN_INT <= value <= MAX_INT:  # type: ignore[operator]
            raise EncodeError(f"{path}: integer {value} is outside -2**63 .. 2**64-1")
        return
    if isinstance(value, str) and kind is str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise EncodeError(f"{path}: string is not valid Unicode ({exc.reason})") from None
        return
    if isinstance(value, dict | list):
        if depth >= MAX_DEPTH:
            raise EncodeError(f"{path}: nested deeper than {MAX_DEPTH} containers")
        if len(value) > MAX_ITEMS:
            raise EncodeError(f"{path}: {len(value)} elements (at most {MAX_ITEMS})")
        if isinstance(value, dict):
            for key, item in value.items():
                problem = _key_problem(key)
                if problem is not None:
                    raise EncodeError(f"{path}: {problem}")
                _check_value(item, depth + 1, f"{path}.{key}")
        else:
            for index, item in enumerate(value):
                _check_value(item, depth + 1, f"{path}[{index}]")
        return
    if kind is float:
        raise EncodeError(f"{path}: floats are never allowed (got {value!r})")
    raise EncodeError(f"{path}: a {kind.__name__} has no canonical encoding (use dict, list, int, str, "
                      "bytes, bool or None)")


def _sorted(value: Any) -> Any:
    """The same value with every map's keys in canonical (UTF-8 byte) order."""
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value, key=lambda k: k.encode("utf-8"))}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def encode(obj: object) -> bytes:
    """The canonical msgpack bytes of `obj`; EncodeError if it has none.

    Any value that passes the rules can be encoded; the top-level map is required only of payloads (see
    `decode`). msgpack-python already writes the smallest form of every integer, string, byte string and
    container header; sorting the keys is what makes the rest unique.
    """
    _check_value(obj, 0, "$")
    return msgpack.packb(_sorted(obj), use_bin_type=True)  # type: ignore[no-any-return]


def _pairs(pairs: list[tuple[Any, Any]]) -> dict[str, Any]:
    """Build one map, refusing bad, duplicate or unsorted keys (msgpack itself keeps the last duplicate)."""
    result: dict[str, Any] = {}
    previous: bytes | None = None
    for key, value in pairs:
        problem = _key_problem(key)
        if problem is not None:
            raise DecodeError(Check.ENCODING, problem)
        raw_key = key.encode("utf-8")
        if previous is not None and raw_key <= previous:
            said = N_("duplicate map key {key}") if raw_key == previous else N_("unsorted map key {key}")
            raise DecodeError(Check.ENCODING, Detail(said, key=repr(key)))
        previous = raw_key
        result[key] = value
    return result


_SCALARS = frozenset({bytes, int, str, bool, type(None)})


def _check_decoded(value: object, depth: int) -> None:
    """Depth, floats and extension types (msgpack turns some into Python objects) are refused here."""
    if isinstance(value, dict | list):
        if depth >= MAX_DEPTH:
            why = Detail(N_("nested deeper than {max_depth} containers"), max_depth=MAX_DEPTH)
            raise DecodeError(Check.ENCODING, why)
        items = value.values() if isinstance(value, dict) else value
        if all(type(item) in _SCALARS for item in items):
            return  # the common case (a deck of points, a list of keys) without a call per element
        for item in items:
            _check_decoded(item, depth + 1)
        return
    kind = type(value)
    if kind is float:
        raise DecodeError(Check.ENCODING, Detail(N_("floats are not allowed")))
    if value is not None and kind not in (bool, int, str, bytes):
        why = Detail(N_("extension types are not allowed (got a {type})"), type=kind.__name__)
        raise DecodeError(Check.ENCODING, why)


def _refuse_ext(code: int, data: bytes) -> object:
    why = Detail(N_("extension types are not allowed (got type {code})"), code=code)
    raise DecodeError(Check.ENCODING, why)


def _describe(exc: Exception) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def decode(raw: bytes | bytearray | memoryview, *, max_size: int = MAX_PAYLOAD) -> dict[str, Any]:
    """The payload map encoded by `raw`; DecodeError(Check.ENCODING) unless `raw` is canonical.

    Never raises anything else for any bytes: whatever a peer sends, the answer is a value or a DecodeError.
    msgpack's length limits bound what a hostile header can make us allocate before the input runs out.
    """
    if not isinstance(raw, bytes | bytearray | memoryview):
        raise TypeError(f"decode() needs bytes, not {type(raw).__name__}")
    raw = bytes(raw)
    if len(raw) > max_size:
        why = Detail(N_("payload of {count} bytes is over the limit of {max_size}"), count=len(raw),
                     max_size=max_size)
        raise DecodeError(Check.ENCODING, why)
    if not raw:
        raise DecodeError(Check.ENCODING, "empty payload")
    try:
        value = msgpack.unpackb(
            raw,
            raw=False,
            use_list=True,
            strict_map_key=False,  # _pairs refuses every key that is not a str, with a clearer message
            object_pairs_hook=_pairs,
            ext_hook=_refuse_ext,
            max_bin_len=max_size,
            max_str_len=max_size,
            max_array_len=MAX_ITEMS,
            max_map_len=MAX_ITEMS,
            max_ext_len=max_size,
        )
        if not isinstance(value, dict):
            why = Detail(N_("the payload is a {type}, not a map"), type=type(value).__name__)
            raise DecodeError(Check.ENCODING, why)
        _check_decoded(value, 0)
        # Keys were checked and found sorted as each map was built, and msgpack's own limits bound every
        # integer and length, so packing the value as it is gives the canonical form.
        again = msgpack.packb(value, use_bin_type=True)
    except DecodeError:
        raise
    except msgpack.ExtraData:
        raise DecodeError(Check.ENCODING, Detail(N_("bytes after the end of the payload"))) from None
    except Exception as exc:  # whatever msgpack says about malformed input is the peer's fault
        why = Detail(N_("not valid msgpack ({value})"), value=_describe(exc))
        raise DecodeError(Check.ENCODING, why) from None
    if again != raw:
        raise DecodeError(Check.ENCODING,
                          Detail(N_("not in canonical form (some value does not use its smallest encoding)")))
    return value
