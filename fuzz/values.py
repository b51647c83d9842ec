"""Hostile values the mutators draw from: boundary numbers, odd strings, deep nesting."""

from __future__ import annotations

import random
from typing import Any

BOUNDARY_INTS: tuple[int, ...] = (
    -1, 0, 1, 2, 3, 5, 7, 12, 100, 255, 256, 65_535, 1_000_000,
    2**31 - 1, 2**31, 2**32, 2**53, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1,
    -(2**31), -(2**53) - 1, -(2**63),
)
"""Integers at the edges of common representations (int32, double mantissa, int64, uint64)."""

HUGE_INTS: tuple[int, ...] = (2**64, 10**30, -(10**30), 10**400)
"""Integers no 64-bit field holds (a JSON reader that keeps big integers can hand these in)."""

FLOATS: tuple[float, ...] = (
    0.5, -0.0, 1.0, 2.0, -1.5, 1e-300, 2.0**53, 1e308, -1e308,
    float("inf"), float("-inf"), float("nan"),
)
"""Floats where integers are expected, including the non-finite ones."""

NUMBER_STRINGS: tuple[str, ...] = (
    "NaN", "nan", "Infinity", "-Infinity", "1e999", "0x10", "1_000", "01", "-1", "0", "1",
    "9007199254740993", "18446744073709551615", " 1", "1.0", "",
)
"""Strings that look like numbers to some parsers."""

ODD_STRINGS: tuple[str, ...] = (
    "", " ", "\t", "\n", "null", "true", "[]", "{}", "$", "$.players[0]", "..", "/",
    "\x00", "a\x00b", "\u202eevil", "A\u0308", "\U0001f0a1", "\u02bbokina",
    "\uff46\uff55\uff4c\uff4c", "\ud800", "é" * 40,
    "'\"\\", "%s%n", "${jndi:x}", "<script>", "DROP TABLE",
)
"""Short strings with control characters, unicode oddities and injection shapes."""

HUGE_STRING_LENGTH = 20_000
"""Characters of the huge strings (large enough to overflow gRPC's metadata if echoed)."""

NEST_DEPTHS: tuple[int, ...] = (8, 64, 200, 500, 1000)
"""Depths of the deeply nested lists and objects (1000 is near the JSON readers' limits)."""


def huge_string(rng: random.Random) -> str:
    """A string of HUGE_STRING_LENGTH characters (ASCII, accented or astral)."""
    unit = rng.choice(("x", "é", "\U0001f0a1", "ab", "r2c3-"))
    return (unit * HUGE_STRING_LENGTH)[:HUGE_STRING_LENGTH]


def nested(rng: random.Random, depth: int | None = None) -> Any:
    """A list or object nested `depth` levels deep (built without recursion)."""
    depth = depth if depth is not None else rng.choice(NEST_DEPTHS)
    as_list = rng.random() < 0.5
    value: Any = rng.choice((0, "x", None, []))
    for _ in range(depth):
        value = [value] if as_list else {"a": value}
    return value


def boundary_number(rng: random.Random, near: int | None = None) -> Any:
    """A boundary integer, a huge one, a float, or `near`±1 / doubled (a plausible bound)."""
    roll = rng.random()
    if near is not None and roll < 0.25:
        return rng.choice((near + 1, near + 2, near * 2 + 1, -near - 1, near + 1000))
    if roll < 0.7:
        return rng.choice(BOUNDARY_INTS)
    if roll < 0.82:
        return rng.choice(HUGE_INTS)
    return rng.choice(FLOATS)


def odd_string(rng: random.Random) -> str:
    """A short odd string, a number-like string, a huge string or random unicode."""
    roll = rng.random()
    if roll < 0.35:
        return rng.choice(ODD_STRINGS)
    if roll < 0.6:
        return rng.choice(NUMBER_STRINGS)
    if roll < 0.75:
        return huge_string(rng)
    return random_text(rng)


def random_text(rng: random.Random, max_length: int = 24) -> str:
    """Random characters from ASCII, Latin-1, symbols and astral planes."""
    pools = (
        (0x20, 0x7E), (0x00, 0x1F), (0xA0, 0x17F), (0x2000, 0x206F), (0x1F300, 0x1F5FF),
    )
    out = []
    for _ in range(rng.randrange(max_length + 1)):
        low, high = pools[0] if rng.random() < 0.6 else rng.choice(pools)
        out.append(chr(rng.randint(low, high)))
    return "".join(out)


def random_scalar(rng: random.Random) -> Any:
    """Any hostile scalar: number, string, bool or null."""
    roll = rng.random()
    if roll < 0.4:
        return boundary_number(rng)
    if roll < 0.8:
        return odd_string(rng)
    return rng.choice((None, True, False))


def swap_type(rng: random.Random, value: Any) -> Any:
    """`value` turned into another JSON type (number↔string↔null↔bool↔list↔object)."""
    kinds = ["null", "bool", "number", "string", "list", "object"]
    current = json_kind(value)
    choices = [k for k in kinds if k != current]
    target = rng.choice(choices)
    if target == "null":
        return None
    if target == "bool":
        return bool(rng.randrange(2)) if not isinstance(value, int | float) else bool(value)
    if target == "number":
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                return len(value)
        if isinstance(value, list | dict):
            return len(value)
        return int(bool(value)) if isinstance(value, bool) else rng.choice(BOUNDARY_INTS)
    if target == "string":
        if isinstance(value, list | dict):
            return rng.choice(("", "[]", "{}", "list"))
        return "null" if value is None else str(value).lower()
    if target == "list":
        if isinstance(value, dict):
            return list(value.values())
        return [] if rng.random() < 0.3 else [value]
    if isinstance(value, list):
        return {str(i): item for i, item in enumerate(value)}
    return {} if rng.random() < 0.3 else {"count": value, "known": []}


def json_kind(value: Any) -> str:
    """The JSON type name of a decoded value: null, bool, number, string, list or object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "list"
    return "object"
