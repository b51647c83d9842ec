"""The native Legend Raiders engine (boardbot_native) behind the Python `Game` protocol.

`NativeLegendRaidersGame` forwards every role to the binding so tests written against
`boardbot.engine.api.Game` run unchanged on the native engine: its states are native `State`
handles, JSON goes through text (`json.dumps` / `json.loads`), and the binding's errors become
the engine's (`InvalidStateError`, `InvalidActionError`, `IllegalActionError`) with the same
`path` and `reason`, read back from the native message (`"<path>: <reason>"`).

What the binding cannot give is made explicit here:

* random streams: `new_state(options, seed)` and `determinize(view, rng)` use native streams
  (the seed of `determinize` is drawn from `rng`), not Python's; tests that need the Python
  stream build the state in Python and hand it over through JSON;
* the binding has one `InvalidActionError` for malformed and for illegal moves; the adapter
  raises `IllegalActionError` for the native engine's "not legal now" reasons (the ones the
  Python engine raises `IllegalActionError` for), `InvalidActionError` otherwise;
* there is no native text picture: `render` is the Python engine's, over the native JSON.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from boardbot.engine.api import JsonDict, PresetOverrides, View
from boardbot.engine.base import BaseGame
from boardbot.engine.errors import (
    EngineError,
    IllegalActionError,
    InvalidActionError,
    InvalidStateError,
)
from boardbot.engine.game_type import GameType
from boardbot.engine.legend_raiders.game import GAME_TYPE, LegendRaidersGame
from tests.native.parity import boardbot_native

NOT_BUILT = "boardbot_native is not built (run `make native`, which needs a Rust toolchain)"
"""The skip reason of native tests on a machine without the module."""

_PYTHON = LegendRaidersGame()
_T = TypeVar("_T")

_ILLEGAL_REASONS = (
    # The native engine's `check_legal`, the twin of the Python engine's (IllegalActionError).
    "the game is over",
    "is not a possible outcome of this chance step",
    "is not legal now",
    # The binding's own check of an action number (`apply`, `action_to_str`, ...).
    "cannot be applied: the game is over",
    "is not a chance outcome of this state",
    "is not legal in this state",
)


def split_message(message: str) -> tuple[str, str]:
    """A native error message `"<path>: <reason>"` as (path, reason)."""
    path, sep, reason = message.partition(": ")
    if not sep or not path.startswith("$"):
        raise AssertionError(f"a native error message without a JSON path: {message!r}")
    return path, reason


def _engine_error(err: Exception) -> EngineError:
    """The engine's error for a native InvalidStateError / InvalidActionError."""
    path, reason = split_message(str(err))
    assert boardbot_native is not None
    if isinstance(err, boardbot_native.InvalidStateError):
        return InvalidStateError(path, reason)
    if path == "$" and reason.endswith(_ILLEGAL_REASONS):
        return IllegalActionError(path, reason)
    return InvalidActionError(path, reason)


@contextmanager
def _engine_errors() -> Iterator[None]:
    """Re-raise the binding's state and action errors as the engine's."""
    assert boardbot_native is not None
    try:
        yield
    except (boardbot_native.InvalidStateError, boardbot_native.InvalidActionError) as err:
        raise _engine_error(err) from err


def _call(body: Callable[[], _T]) -> _T:
    with _engine_errors():
        return body()


class NativeLegendRaidersGame(BaseGame):
    """Legend Raiders played by the native engine, through the Python `Game` protocol."""

    game_type: GameType = GAME_TYPE
    preset_overrides: PresetOverrides = _PYTHON.preset_overrides

    def __init__(self) -> None:
        if boardbot_native is None:
            raise RuntimeError(NOT_BUILT)
        self.native = boardbot_native.LegendRaiders()

    # --- identity
    @property
    def name(self) -> str:
        return str(self.native.name)

    @property
    def min_players(self) -> int:
        return int(self.native.min_players)

    @property
    def max_players(self) -> int:
        return int(self.native.max_players)

    # --- rules
    def new_state(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> Any:
        """A native setup: the seed drives the native stream, not Python's."""
        text = json.dumps(dict(options or {}))
        return _call(lambda: self.native.new_state(text, seed))

    def num_players(self, state: Any) -> int:
        return int(state.num_players())

    def current_player(self, state: Any) -> int:
        return int(state.current_player())

    def legal_actions(self, state: Any) -> Sequence[int]:
        return list(state.legal_actions())

    def apply(self, state: Any, action: Any) -> Any:
        return _call(lambda: state.apply(action))

    def is_terminal(self, state: Any) -> bool:
        return bool(state.is_terminal())

    def returns(self, state: Any) -> tuple[float, ...]:
        return tuple(state.returns())

    def scores(self, state: Any) -> tuple[float, ...]:
        return tuple(state.scores())

    def chance_outcomes(self, state: Any) -> Sequence[tuple[int, float]] | None:
        outcomes = state.chance_outcomes()
        return None if outcomes is None else [(a, p) for a, p in outcomes]

    # --- knowledge
    def observe(self, state: Any, seat: int) -> View:
        return View(seat, state.observe(seat))

    def determinize(self, view: View, rng: random.Random) -> Any:
        """A native determinization of the view, its seed drawn from `rng`."""
        return view.state.determinize(view.seat, rng.getrandbits(64))

    # --- codec
    def describe_options(self) -> JsonDict:
        options: JsonDict = json.loads(self.native.describe_options())
        return options

    def state_to_json(self, state: Any, observer: int | None = None) -> JsonDict:
        data: JsonDict = json.loads(state.to_json(observer))
        return data

    def state_from_json(self, data: Any) -> Any:
        text = json.dumps(data)
        return _call(lambda: self.native.state_from_json(text))

    def action_to_json(self, state: Any, action: Any) -> JsonDict:
        data: JsonDict = json.loads(_call(lambda: state.action_to_json(action)))
        return data

    def action_from_json(self, state: Any, data: Any) -> int:
        text = json.dumps(data)
        return int(_call(lambda: state.action_from_json(text)))

    def action_to_str(self, state: Any, action: Any) -> str:
        return str(_call(lambda: state.action_to_str(action)))

    def action_from_str(self, state: Any, text: str) -> int:
        return int(_call(lambda: state.action_from_str(text)))

    def render(self, state: Any, observer: int | None = None) -> str:
        """The Python engine's text picture of the native state (no native render exists)."""
        return _PYTHON.render(_PYTHON.state_from_json(self.state_to_json(state)), observer)

    # --- heuristics
    def evaluate(self, state: Any) -> tuple[float, ...]:
        return tuple(state.evaluate())

    def policy_weights(self, state: Any, actions: Sequence[Any]) -> Sequence[float]:
        return list(_call(lambda: state.policy_weights(list(actions))))

