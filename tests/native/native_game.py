"""The native engines (boardbot_native) behind the Python `Game` protocol.

`NativeLegendRaidersGame` and `NativeLedaGame` forward every role to the binding so tests written
against `boardbot.engine.api.Game` run unchanged on the native engines. Both are `NativeGame`,
parametrized by the Python game (its declared type, presets and text picture) and the native
game class: states are native `State` handles, JSON goes through text (`json.dumps` in,
`orjson.loads` out), actions are the Python engine's values (Legend Raiders: numbers; LEDA: tuples,
a shuffle's order a nested tuple), and the binding's errors become the engine's
(`InvalidStateError`, `InvalidActionError`, `IllegalActionError`) by their type, with the same
`path` and `reason` from their attributes (`boardbot.search.native_errors`).

What the binding cannot give is made explicit here:

* random streams: `new_state(options, seed)` and `determinize(view, rng)` use native streams
  (the seed of `determinize` is drawn from `rng`), not Python's; so does `sample_chance` where
  outcomes are not listed (LEDA's shuffles: the native sampler, its seed drawn from `rng`),
  while listed outcomes (Legend Raiders) are drawn from `rng` by their probabilities as the
  Python engine draws them; tests that need the Python stream build the state in Python and
  hand it over through JSON;
* the native `apply` checks the action is legal (the Python LEDA engine trusts it): an illegal
  one is an `IllegalActionError` here, where the Python engine may apply it anyway (once the
  game is over both refuse with "the game is over");
* there is no native text picture: `render` is the Python engine's, over the native JSON.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, TypeVar

import orjson
import pytest

from boardbot.engine.api import JsonDict, View
from boardbot.engine.base import BaseGame
from boardbot.engine.errors import EngineError, IllegalActionError
from boardbot.engine.leda.game import GAME_TYPE as LEDA_TYPE
from boardbot.engine.leda.game import LedaGame
from boardbot.engine.legend_raiders.game import GAME_TYPE as RAIDERS_TYPE
from boardbot.engine.legend_raiders.game import LegendRaidersGame
from boardbot.search.native_errors import engine_error
from tests.native.parity import boardbot_native

NOT_BUILT = "boardbot_native is not built (run `make native`, which needs a Rust toolchain)"
"""The skip reason of native tests on a machine without the module."""

ENGINE_PARAMS = [
    pytest.param("python", id="python"),
    pytest.param(
        "native", id="native", marks=pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)
    ),
]
"""The engines a game's rule tests run on (the `engine` fixtures' params): Python, and the
native twin where it is built."""

_T = TypeVar("_T")


def _as_tuple(value: Any) -> Any:
    """A native LEDA action as the Python engine's tuple (lists read as tuples, nested once)."""
    if type(value) is tuple:
        return value  # the binding's own form (a shuffle's order a tuple too)
    if isinstance(value, list):
        return tuple(_as_tuple(v) for v in value)
    return value


class NativeGame(BaseGame):
    """A game played by the native engine, through the Python `Game` protocol.

    A subclass names the Python game (`python`), the binding's game class (`native_class`) and
    how a native action reads as the Python engine's (`action`).
    """

    python: ClassVar[Any]
    native_class: ClassVar[str]

    def __init__(self) -> None:
        if boardbot_native is None:
            raise RuntimeError(NOT_BUILT)
        self.native = getattr(boardbot_native, self.native_class)()

    def action(self, value: Any) -> Any:
        """A native action as the Python engine's action value."""
        raise NotImplementedError

    # --- errors
    def engine_error(self, err: Exception) -> EngineError:
        """The engine's error for a native engine error (by its type and attributes)."""
        assert boardbot_native is not None
        return engine_error(err, boardbot_native)

    @contextmanager
    def engine_errors(self) -> Iterator[None]:
        """Re-raise the binding's state and action errors as the engine's."""
        assert boardbot_native is not None
        try:
            yield
        except boardbot_native.EngineError as err:
            raise self.engine_error(err) from err

    def _call(self, body: Callable[[], _T]) -> _T:
        with self.engine_errors():
            return body()

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
        return self._call(lambda: self.native.new_state(text, seed))

    def num_players(self, state: Any) -> int:
        return int(state.num_players())

    def current_player(self, state: Any) -> int:
        return int(state.current_player())

    def legal_actions(self, state: Any) -> Sequence[Any]:
        return list(state.legal_actions())  # the binding's actions are the Python engine's

    def apply(self, state: Any, action: Any) -> Any:
        return self._call(lambda: state.apply(action))

    def is_terminal(self, state: Any) -> bool:
        return bool(state.is_terminal())

    def returns(self, state: Any) -> tuple[float, ...]:
        return tuple(state.returns())

    def scores(self, state: Any) -> tuple[float, ...]:
        return tuple(state.scores())

    def chance_outcomes(self, state: Any) -> Sequence[tuple[Any, float]] | None:
        outcomes = state.chance_outcomes()
        return None if outcomes is None else [(self.action(a), p) for a, p in outcomes]

    def sample_chance(self, state: Any, rng: random.Random) -> Any:
        """Listed outcomes drawn from `rng` by probability (as the Python engine draws them);
        otherwise the native sampler, its seed drawn from `rng`."""
        if state.chance_outcomes() is not None:
            return super().sample_chance(state, rng)
        outcome = state.sample_chance(rng.getrandbits(64))
        if outcome is None:
            raise IllegalActionError("$", "no chance step is pending: there is no outcome to draw")
        return self.action(outcome)

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
        data: JsonDict = orjson.loads(state.to_json(observer))
        return data

    def state_from_json(self, data: Any) -> Any:
        text = json.dumps(data)
        return self._call(lambda: self.native.state_from_json(text))

    def action_to_json(self, state: Any, action: Any) -> JsonDict:
        data: JsonDict = json.loads(self._call(lambda: state.action_to_json(action)))
        return data

    def action_from_json(self, state: Any, data: Any) -> Any:
        text = json.dumps(data)
        return self.action(self._call(lambda: state.action_from_json(text)))

    def action_to_str(self, state: Any, action: Any) -> str:
        return str(self._call(lambda: state.action_to_str(action)))

    def action_from_str(self, state: Any, text: str) -> Any:
        return self.action(self._call(lambda: state.action_from_str(text)))

    def render(self, state: Any, observer: int | None = None) -> str:
        """The Python engine's text picture of the native state (no native render exists)."""
        python = self.python
        return python.render(python.state_from_json(self.state_to_json(state)), observer)

    # --- heuristics
    def evaluate(self, state: Any) -> tuple[float, ...]:
        return tuple(state.evaluate())

    def policy_weights(self, state: Any, actions: Sequence[Any]) -> Sequence[float]:
        return list(self._call(lambda: state.policy_weights(list(actions))))


class NativeLegendRaidersGame(NativeGame):
    """Legend Raiders played by the native engine; actions are numbers."""

    game_type = RAIDERS_TYPE
    python = LegendRaidersGame()
    preset_overrides = python.preset_overrides
    native_class = "LegendRaiders"

    def action(self, value: Any) -> int:
        return int(value)


class NativeLedaGame(NativeGame):
    """LEDA played by the native engine; actions are the Python engine's tuples."""

    game_type = LEDA_TYPE
    python = LedaGame()
    preset_overrides = python.preset_overrides
    native_class = "Leda"

    def action(self, value: Any) -> Any:
        return _as_tuple(value)
