"""Edits of decoded JSON states shared by the bounds tests of every game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import strategies as st

from boardbot.engine.api import Game
from boardbot.engine.errors import InvalidStateError, format_path

BEYOND = 2**64
"""The largest integer a JSON decoder hands over as an integer, plus one."""


def past(bound: int) -> st.SearchStrategy[int]:
    """Integers past `bound`: just past it most often, up to far beyond."""
    return st.one_of(st.integers(bound + 1, bound + 3), st.integers(bound + 1, BEYOND))


def replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of `data` (a JSON tree) with the value at `path` replaced."""
    if not path:
        return value
    copy: Any = dict(data) if isinstance(data, dict) else list(data)
    copy[path[0]] = replaced(data[path[0]], path[1:], value)
    return copy


def setter(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    """An in-place edit of a decoded JSON state: set the value at `path` to `value`."""

    def edit(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def path_text(path: tuple[Any, ...]) -> str:
    """`path` as the JSON path an error names, e.g. `$.players[0].food`."""
    return format_path(path)


def assert_rejected(game: Game, data: Any, path: str, reason: str) -> None:
    """Decoding `data` fails at `path` with a reason containing `reason`."""
    with pytest.raises(InvalidStateError) as err:
        game.state_from_json(data)
    assert err.value.path == path, err.value
    assert reason in err.value.reason, err.value
