"""JSON for repro files that keeps what plain JSON loses or bloats: NaN and infinities, bytes,
huge repetitive strings, very deep nesting and keys starting with `$`."""

from __future__ import annotations

import base64
import math
from typing import Any

REPEAT_MIN = 256
"""Strings at least this long are stored as a repetition when they are one."""
NEST_MIN = 16
"""Chains of single-item lists or single-key objects at least this deep are stored as a count."""


def encode(value: Any) -> Any:
    """`value` as plain JSON with `$` tags for the special cases."""
    if isinstance(value, float) and not math.isfinite(value):
        return {"$float": repr(value)}
    if isinstance(value, str):
        return _repeat(value) if len(value) >= REPEAT_MIN else value
    if isinstance(value, bytes):
        try:
            return {"$bytes": encode(value.decode("utf-8"))}
        except UnicodeDecodeError:
            return {"$base64": base64.b64encode(value).decode()}
    if isinstance(value, list | tuple):
        chain = _chain(value)
        if chain is not None:
            return chain
        return [encode(v) for v in value]
    if isinstance(value, dict):
        chain = _chain(value)
        if chain is not None:
            return chain
        return {_escape(k): encode(v) for k, v in value.items()}
    return value


def decode(value: Any) -> Any:
    """The value `encode` was given."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    first = next(iter(value), "")
    if first.startswith("$") and not first.startswith("$$"):
        return _decode_tag(value)
    return {_unescape(k): decode(v) for k, v in value.items()}


def _decode_tag(value: dict[str, Any]) -> Any:
    if "$float" in value:
        return float(value["$float"])
    if "$bytes" in value:
        return decode(value["$bytes"]).encode("utf-8")
    if "$base64" in value:
        return base64.b64decode(value["$base64"])
    if "$repeat" in value:
        return value.get("head", "") + value["$repeat"] * value["times"] + value.get("tail", "")
    if "$nest" in value:
        leaf = decode(value["leaf"])
        key = value.get("key")
        for _ in range(value["depth"]):
            leaf = [leaf] if key is None else {key: leaf}
        return leaf
    raise ValueError(f"unknown tag in {sorted(value)}")


def _escape(key: str) -> str:
    return "$" + key if key.startswith("$") else key


def _unescape(key: str) -> str:
    return key[1:] if key.startswith("$$") else key


def _repeat(text: str) -> Any:
    """A repetition `head + unit * times + tail` covering most of `text`, or `text` itself."""
    for head in range(0, 9):
        for size in range(1, 17):
            unit = text[head : head + size]
            if len(unit) < size:
                break
            times = 1
            while text.startswith(unit, head + times * size):
                times += 1
            tail = text[head + times * size :]
            if times * size >= 0.9 * len(text) and len(tail) < REPEAT_MIN:
                return {"$repeat": unit, "times": times, "head": text[:head], "tail": tail}
    return text


def _chain(value: Any) -> Any:
    """A `$nest` tag for a deep chain of one-item lists or one-key objects, else None."""
    depth, node = 0, value
    key: str | None = None
    first_kind = type(value)
    while isinstance(node, list | dict) and len(node) == 1 and isinstance(node, first_kind):
        if isinstance(node, dict):
            (k,) = node
            if key is not None and k != key:
                break
            key = k
            node = node[k]
        else:
            node = node[0]
        depth += 1
    if depth < NEST_MIN:
        return None
    return {"$nest": first_kind.__name__, "depth": depth, "key": key, "leaf": encode(node)}
