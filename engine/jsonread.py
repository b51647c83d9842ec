"""Typed, path-aware reading of decoded JSON, shared by every game's codec."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from boardbot.engine.errors import EngineError, InvalidStateError, echo, format_path

CHOICES_SHOWN = 120
"""Most characters of allowed names an error message spells out (then it gives their number)."""


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
