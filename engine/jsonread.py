"""Typed, path-aware reading of decoded JSON, shared by every game's codec."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from typing import Any

import orjson

from boardbot.engine.errors import EngineError, InvalidStateError, echo, format_path

CHOICES_SHOWN = 120
"""Most characters of allowed names an error message spells out (then it gives their number)."""
MAX_JSON_DEPTH = 32
"""Most levels of lists and objects nested in one another a document may have: the deepest
real document (a LEDA state: its players, a player, the grid, a square, the square's cards)
has 6. Shared with the native core (`MAX_JSON_DEPTH` in core/rules/src/jsonread.rs)."""


class JsonReader:
    """A position in a JSON document; every accessor raises `error` naming the exact path."""

    __slots__ = ("error", "parts", "value")

    def __init__(
        self,
        value: Any,
        parts: tuple[str | int, ...] = (),
        error: type[EngineError] = InvalidStateError,
    ) -> None:
        self.value = value
        self.parts = parts
        self.error = error

    @property
    def path(self) -> str:
        """This position as a JSON path string."""
        return format_path(self.parts)

    def fail(self, reason: str) -> EngineError:
        """An error at this position (raise it)."""
        return self.error(self.path, reason)

    def child(self, key: str | int) -> JsonReader:
        """The reader for a sub-position (no check that it exists)."""
        value = self.value[key] if key is not None else None
        return JsonReader(value, (*self.parts, key), self.error)

    def obj(self, allowed: Collection[str] | None = None) -> JsonReader:
        """Check this value is an object, optionally with no keys outside `allowed`."""
        if not isinstance(self.value, dict):
            raise self.fail(f"expected an object, got {_kind(self.value)}")
        if allowed is not None:
            for key in self.value:
                if key not in allowed:
                    raise JsonReader(None, (*self.parts, key), self.error).fail(
                        f"unknown field; allowed: {', '.join(sorted(allowed))}"
                    )
        return self

    def has(self, key: str) -> bool:
        """True when this object has `key`."""
        return isinstance(self.value, dict) and key in self.value

    def get(self, key: str) -> JsonReader:
        """The required field `key` of this object."""
        self.obj()
        if key not in self.value:
            raise JsonReader(None, (*self.parts, key), self.error).fail("missing required field")
        return JsonReader(self.value[key], (*self.parts, key), self.error)

    def opt(self, key: str, default: Any) -> JsonReader:
        """Field `key`, or a reader over `default` when absent."""
        self.obj()
        return JsonReader(self.value.get(key, default), (*self.parts, key), self.error)

    def as_int(self, lo: int | None = None, hi: int | None = None) -> int:
        """This value as an integer within [lo, hi]."""
        v = self.value
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.fail(f"expected an integer, got {_kind(v)}")
        if lo is not None and v < lo:
            raise self.fail(f"must be at least {lo}, got {echo(v)}")
        if hi is not None and v > hi:
            raise self.fail(f"must be at most {hi}, got {echo(v)}")
        return v

    def as_bool(self) -> bool:
        """This value as a boolean."""
        if not isinstance(self.value, bool):
            raise self.fail(f"expected true or false, got {_kind(self.value)}")
        return self.value

    def as_str(self, choices: Collection[str] | None = None) -> str:
        """This value as a string, optionally one of `choices`."""
        if not isinstance(self.value, str):
            raise self.fail(f"expected a string, got {_kind(self.value)}")
        if choices is not None and self.value not in choices:
            shown = _choices_text(choices)
            raise self.fail(f"unknown value {echo(self.value)}; expected one of: {shown}")
        return self.value

    def as_list(self, min_len: int = 0, max_len: int | None = None) -> list[JsonReader]:
        """This value as a list of readers, with a length check."""
        if not isinstance(self.value, list):
            raise self.fail(f"expected a list, got {_kind(self.value)}")
        n = len(self.value)
        if n < min_len or (max_len is not None and n > max_len):
            bound = f"{min_len}" if max_len == min_len else f"{min_len}..{max_len}"
            raise self.fail(f"expected {bound} items, got {n}")
        return [JsonReader(v, (*self.parts, i), self.error) for i, v in enumerate(self.value)]

    def __iter__(self) -> Iterator[JsonReader]:
        return iter(self.as_list())

    @classmethod
    def document(
        cls,
        value: Any,
        parts: tuple[str | int, ...] = (),
        error: type[EngineError] = InvalidStateError,
    ) -> JsonReader:
        """The reader at the root of a whole document, refused when nested too deep."""
        check_depth(value, parts, error)
        return cls(value, parts, error)


def nesting_error(parts: tuple[str | int, ...], error: type[EngineError]) -> EngineError:
    """The error for a list or object at `parts` nested deeper than MAX_JSON_DEPTH."""
    return error(format_path(parts), f"nested deeper than {MAX_JSON_DEPTH}")


def check_depth(
    value: Any, parts: tuple[str | int, ...] = (), error: type[EngineError] = InvalidStateError
) -> None:
    """Raise `error` at the first list or object (in document order) nested deeper than
    MAX_JSON_DEPTH; `value` at `parts` is the document's root (level 1 when a container)."""
    found = _too_deep(value, MAX_JSON_DEPTH)
    if found is not None:
        raise nesting_error((*parts, *reversed(found)), error)


def _too_deep(value: Any, room: int) -> list[str | int] | None:
    """The path (reversed) below `value` to its first container past `room` levels, or None."""
    if isinstance(value, dict):
        items: Iterator[tuple[Any, Any]] = iter(value.items())
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    if room == 0:
        return []
    for key, child in items:
        if isinstance(child, dict | list):
            found = _too_deep(child, room - 1)
            if found is not None:
                found.append(key)
                return found
    return None


_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[][{},]', re.DOTALL)
"""What the text scan of `text_depth_path` looks at: strings, brackets and commas."""


def text_depth_path(text: bytes | str) -> tuple[str | int, ...] | None:
    """The path of the first list or object nested deeper than MAX_JSON_DEPTH in JSON text, or
    None; it reads only strings, brackets and commas, so it also works where a parser would
    refuse the text or hit its own recursion limit (the same scan as the native core's)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    frames: list[list[Any]] = []  # [is_object, key or index, expecting a key]
    for match in _TOKENS.finditer(raw):
        token = match.group()
        first = token[:1]
        if first == b'"':
            if frames and frames[-1][0] and frames[-1][2]:
                frames[-1][1] = _key_text(token)
                frames[-1][2] = False
        elif first in (b"[", b"{"):
            if len(frames) == MAX_JSON_DEPTH:
                return tuple(frame[1] for frame in frames)
            frames.append([first == b"{", "" if first == b"{" else 0, first == b"{"])
        elif first == b",":
            if frames and frames[-1][0]:
                frames[-1][2] = True
            elif frames:
                frames[-1][1] += 1
        elif frames:
            frames.pop()
    return None


def _key_text(token: bytes) -> str:
    """An object key as a JSON string token reads (its raw text when it does not decode)."""
    try:
        key = orjson.loads(token)
    except orjson.JSONDecodeError:
        key = None
    if isinstance(key, str):
        return key
    return token[1:-1].decode("utf-8", "replace")


def _choices_text(choices: Collection[str]) -> str:
    """The allowed names, sorted, as many as fit in CHOICES_SHOWN characters."""
    names = sorted(choices)
    text = ", ".join(names)
    if len(text) <= CHOICES_SHOWN:
        return text
    head = text[: CHOICES_SHOWN + 1].rsplit(", ", 1)[0]
    return f"{head}, ... ({len(names)} names)"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return f"the number {echo(value)}"
    if isinstance(value, str):
        return f"the string {echo(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
