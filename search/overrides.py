"""Bot-name overrides of a preset's settings: `hard@4000+prior_weight=1+widening=2`,
`expert+model=leda-2p+lambda=0.5`.

Two keys are the bot's, not SearchConfig fields: `reuse` (keep the search tree between moves)
and `random` (mix in a share of uniformly random moves, as the strength knob does)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TypeVar

from boardbot.search.api import SearchConfig
from boardbot.search.checks import check_config
from boardbot.search.errors import InvalidConfigError
from boardbot.search.models import NO_MODEL


def finite_number(text: str) -> float:
    """A finite float written in at most 32 characters (ValueError otherwise)."""
    value = float(text) if len(text) <= 32 else math.nan
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _count(text: str) -> int:
    """A non-negative integer written in digits (ValueError otherwise)."""
    if not text.isdigit() or len(text) > 9:
        raise ValueError(text)
    return int(text)


def _model(text: str) -> str | None:
    """A model's name or file path (1 to 255 characters, no control characters), `auto`, or
    `none` (None: no model, whatever the preset's)."""
    if not 0 < len(text) < 256 or not text.isprintable():
        raise ValueError(text)
    return None if text == NO_MODEL else text


T = TypeVar("T")

OVERRIDABLE: dict[str, Callable[[str], float | int | str | None]] = {
    "prior_weight": finite_number,
    "widening": finite_number,
    "widening_exponent": finite_number,
    "exploration": finite_number,
    "temperature": finite_number,
    "margin_weight": finite_number,
    "cutoff_depth": _count,
    "model": _model,
    "lambda": finite_number,
    "puct": finite_number,
    "fpu": finite_number,
}
"""The SearchConfig fields a bot name may set, with the parser of each value (`lambda` sets
`leaf_lambda`)."""

FIELD_OF_KEY = {"lambda": "leaf_lambda"}
"""Override keys that are not their SearchConfig field's name."""


class BadOverrideError(InvalidConfigError):
    """A bot name's `+key=value` part names no overridable field or gives a bad value."""


REUSE_KEY = "reuse"
"""The override that is a bot's, not a SearchConfig field: `+reuse=1` keeps the bot's search
tree between its moves (`search/reuse.py`), `+reuse=0` (the default) does not."""


RANDOM_KEY = "random"
"""The other bot override: `+random=S` plays a uniformly random legal move with probability S
(a finite number in [0, 1]) and searches otherwise, the strength knob's mixture below its
weakest search point (`search/strength/mapping.py`); `+random=0` (the default) never does."""


def parse_random_share(text: str) -> float:
    """The share of `random=S`: a finite number in [0, 1] (ValueError otherwise)."""
    share = finite_number(text)
    if not 0.0 <= share <= 1.0:
        raise ValueError(text)
    return share + 0.0  # -0 is 0


def split_random(parts: Sequence[str]) -> tuple[float, list[str]]:
    """The random-move share `parts` set (the last `random=` wins; 0 without one), and the
    other parts."""
    share, rest = _take_override(
        parts, RANDOM_KEY, parse_random_share, "random=S with S a number in [0, 1]"
    )
    return (0.0 if share is None else share), rest


def split_reuse(parts: Sequence[str]) -> tuple[bool, list[str]]:
    """Whether `parts` turn tree reuse on (the last `reuse=` wins), and the other parts."""
    reuse, rest = _take_override(parts, REUSE_KEY, _reuse_flag, "reuse=0 or reuse=1")
    return bool(reuse), rest


def _reuse_flag(text: str) -> bool:
    if text not in ("0", "1"):
        raise ValueError(text)
    return text == "1"


def _take_override(
    parts: Sequence[str], key: str, parse: Callable[[str], T], expected: str
) -> tuple[T | None, list[str]]:
    """The parsed value of the last `key=value` of `parts` (None without one), and the other
    parts; BadOverrideError saying what was `expected` for a bad value."""
    value: T | None = None
    rest: list[str] = []
    for part in parts:
        name, eq, text = part.partition("=")
        if name != key:
            rest.append(part)
            continue
        try:
            if not eq:
                raise ValueError(text)
            value = parse(text)
        except ValueError:
            raise BadOverrideError(
                f"bad value in override {part!r}: expected {expected}"
            ) from None
    return value, rest


def apply_overrides(config: SearchConfig, parts: Sequence[str]) -> SearchConfig:
    """`config` with each `key=value` of `parts` applied and checked (else InvalidConfigError)."""
    changes: dict[str, float | int | str | None] = {}
    for part in parts:
        key, eq, text = part.partition("=")
        parse = OVERRIDABLE.get(key)
        if parse is None or not eq:
            raise BadOverrideError(
                f"bad override {part!r}: expected key=value with key one of "
                f"{', '.join(OVERRIDABLE)}, {REUSE_KEY}, {RANDOM_KEY}"
            )
        try:
            changes[FIELD_OF_KEY.get(key, key)] = parse(text)
        except ValueError:
            raise BadOverrideError(f"bad value in override {part!r}") from None
    result = config.replace(**changes)
    check_config(result)
    return result
