"""A game served by its native twin, behind the Python `Game` protocol.

`NativeGame.of(game)` wraps the twin that `game` declares (`GameType.native_twin`): its states
are native `State` handles, its actions the Python engine's values, and every role forwards to
the binding, so the code that serves a request (`jobs/game_ops.py`, `jobs/search_job.py`) runs
unchanged on either engine. On top of the protocol it reads and writes JSON as bytes
(`state_from_bytes`, `state_bytes`, `action_bytes`): the native core parses a request's state
once and writes a reply's JSON itself, with no Python document in between.

Randomness follows the Python engine's: `new_state(options, seed)` deals from CPython's stream
of `seed`, and `sample_chance(state, rng)` draws from the `random.Random` it is given, advancing
it exactly as the Python engine would, so a native server answers NewGame and ApplyMove with the
Python engine's bytes. The binding's errors become the engine's by their type and attributes
(`search/native_errors.py`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, TypeVar

import orjson

from boardbot.engine.api import Game, JsonDict, PresetOverrides, View
from boardbot.engine.base import NO_CHANCE_PENDING, BaseGame
from boardbot.engine.errors import IllegalActionError
from boardbot.engine.game_type import GameType
from boardbot.engine.registry import get_game
from boardbot.search.engines import native_module, twin_name
from boardbot.search.native_errors import engine_error

_T = TypeVar("_T")

MT_STATE_VERSION = 3
"""The version `random.Random.getstate()` tags its Mersenne Twister state with."""


def _json_text(data: Any) -> str:
    """`data` as JSON text (the standard library's for what orjson refuses: integers past 64
    bits, which the native parser reads as floats, as orjson parses them)."""
    try:
        return orjson.dumps(data).decode()
    except TypeError:
        return json.dumps(data)


class NativeGame(BaseGame):
    """A game played by its native twin, through the Python `Game` protocol."""

    def __init__(self, python: Game, twin: Any, module: Any) -> None:
        self.python = python
        """The Python engine of the same game (its declaration, presets and text picture)."""
        self.twin = twin
        """The binding's game object (`boardbot_native.Leda()`, ...)."""
        self.module = module
        """The binding (`boardbot_native`)."""
        self.preset_overrides: PresetOverrides = python.preset_overrides

    @classmethod
    def of(cls, game: Game | str) -> NativeGame | None:
        """The native twin of `game` (a game or a registered name), or None (no twin, or the
        native core is not built)."""
        return _native_of(game if isinstance(game, str) else game.name)

    def __reduce__(  # type: ignore[override]
        self,
    ) -> tuple[Callable[[str], NativeGame | None], tuple[str]]:
        # Rebuilt by name in a worker process (the binding's objects do not pickle).
        return (_native_of, (self.name,))

    @property
    def game_type(self) -> GameType:  # type: ignore[override]
        """The Python game's declaration (the twin is the same game)."""
        return self.python.game_type

    # --- errors
    def _call(self, body: Callable[[], _T]) -> _T:
        """`body()`, the binding's engine errors raised as the engine's."""
        try:
            return body()
        except self.module.EngineError as err:
            raise engine_error(err, self.module) from None

    # --- rules
    def new_state(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> Any:
        """The Python engine's setup for `options` and `seed` (CPython's stream of `seed`)."""
        text = orjson.dumps(dict(options or {})).decode()
        return self._call(lambda: self.twin.new_state(text, seed, python_stream=True))

    def num_players(self, state: Any) -> int:
        return int(state.num_players())

    def current_player(self, state: Any) -> int:
        return int(state.current_player())

    def legal_actions(self, state: Any) -> Sequence[Any]:
        return list(state.legal_actions())  # the binding's actions are the engine's values

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
        return None if outcomes is None else list(outcomes)

    def sample_chance(self, state: Any, rng: random.Random) -> Any:
        """The outcome the Python engine draws from `rng`, advancing `rng` as it would."""
        stream = self.module.PythonRandom.from_state(list(rng.getstate()[1]))
        outcome = state.sample_chance_from(stream)
        rng.setstate((MT_STATE_VERSION, tuple(stream.state()), None))
        if outcome is None:
            raise IllegalActionError("$", NO_CHANCE_PENDING)
        return outcome

    def chance_form(self, state: Any) -> str:
        form = self._call(state.chance_form)
        return super().chance_form(state) if form is None else str(form)

    # --- knowledge
    def observe(self, state: Any, seat: int) -> View:
        return View(seat, state.observe(seat))

    def determinize(self, view: View, rng: random.Random) -> Any:
        """A native determinization of the view, its seed drawn from `rng`."""
        return view.state.determinize(view.seat, rng.getrandbits(64))

    # --- codec
    def describe_options(self) -> JsonDict:
        options: JsonDict = orjson.loads(self.twin.describe_options())
        return options

    def state_to_json(self, state: Any, observer: int | None = None) -> JsonDict:
        data: JsonDict = orjson.loads(self.state_bytes(state, observer))
        return data

    def state_from_json(self, data: Any) -> Any:
        text = _json_text(data)
        return self._call(lambda: self.twin.state_from_json(text))

    def action_to_json(self, state: Any, action: Any) -> JsonDict:
        data: JsonDict = orjson.loads(self.action_bytes(state, action))
        return data

    def action_from_json(self, state: Any, data: Any) -> Any:
        text = _json_text(data)
        return self._call(lambda: state.action_from_json(text))

    def action_to_str(self, state: Any, action: Any) -> str:
        return str(self._call(lambda: state.action_to_str(action)))

    def action_from_str(self, state: Any, text: str) -> Any:
        return self._call(lambda: state.action_from_str(text))

    def render(self, state: Any, observer: int | None = None) -> str:
        """The Python engine's text picture of the native state (no native render exists)."""
        python = self.python
        return python.render(python.state_from_json(self.state_to_json(state)), observer)

    # --- JSON as bytes, without a Python document
    def state_from_bytes(self, raw: bytes) -> Any | None:
        """The state whose JSON document is `raw`, parsed and validated by the native core;
        None when `raw` is not JSON the native parser reads (for the caller's parser to word)."""
        try:
            return self.twin.state_from_json(raw)
        except self.module.MalformedJsonError:
            return None
        except self.module.EngineError as err:
            raise engine_error(err, self.module) from None

    def state_bytes(self, state: Any, observer: int | None = None) -> bytes:
        """The state's JSON bytes (with `observer`, that seat's view), written natively."""
        return bytes(self._call(lambda: state.to_json(observer)), "utf-8")

    def action_bytes(self, state: Any, action: Any) -> bytes:
        """The JSON bytes of `action` in `state`, written natively."""
        return bytes(self._call(lambda: state.action_to_json(action)), "utf-8")

    # --- heuristics
    def evaluate(self, state: Any) -> tuple[float, ...]:
        return tuple(state.evaluate())

    def policy_weights(self, state: Any, actions: Sequence[Any]) -> Sequence[float]:
        return list(self._call(lambda: state.policy_weights(list(actions))))

    @property
    def features_version(self) -> int:
        return int(self.twin.features_version())

    def feature_size(self, num_players: int) -> int:
        return int(self.twin.feature_size(num_players))

    def features(self, state: Any, seat: int) -> list[float]:
        features: list[float] = self._call(lambda: state.features(seat))  # a new list already
        return features

    def action_feature_size(self) -> int:
        return int(self.twin.action_feature_size())

    def action_features(self, state: Any, action: Any) -> tuple[int, ...]:
        return tuple(self._call(lambda: state.action_features(action)))


@cache
def _native_of(name: str) -> NativeGame | None:
    """The native twin of the registered game `name`, built once per process."""
    module = native_module()
    class_name = twin_name(name)
    if module is None or class_name is None:
        return None
    return NativeGame(get_game(name), getattr(module, class_name)(), module)
