"""The engines' twins, side by side: each game's Python engine and its native one.

The in-process phase hands an accepted state to both and checks that what one engine writes
(a chance outcome it lists or samples, a legal move, in notation and JSON) the other reads back
as the same value and applies. `Engine` is the small surface the checks need; `PythonEngine`
wraps a `Game`, `NativeEngine` the binding (`boardbot_native`, absent when it is not built).
"""

from __future__ import annotations

import importlib
import json
import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

import orjson

from boardbot.engine import CHANCE, EngineError, Game
from boardbot.engine.registry import get_game


class Refused(Exception):
    """An engine refused a state, a move or an outcome (its message says why)."""


class Unsendable(Exception):
    """A document that cannot be written as JSON text for the binding (too deep)."""


class Engine(Protocol):
    """What the cross-engine checks call on one engine."""

    name: str

    def decode(self, doc: Any) -> Any: ...
    def encode(self, state: Any) -> Any: ...
    def current_player(self, state: Any) -> int: ...
    def legal(self, state: Any) -> list[Any]: ...
    def outcomes(self, state: Any, rng: random.Random, samples: int) -> list[Any]: ...
    def to_str(self, state: Any, action: Any) -> str: ...
    def to_json(self, state: Any, action: Any) -> Any: ...
    def from_str(self, state: Any, text: str) -> Any: ...
    def from_json(self, state: Any, doc: Any) -> Any: ...
    def apply(self, state: Any, action: Any) -> Any: ...


def as_action(value: Any) -> Any:
    """An action value in one form for both engines: lists read as tuples, all the way down."""
    if isinstance(value, list | tuple):
        return tuple(as_action(v) for v in value)
    return value


@dataclass
class PythonEngine:
    """The Python engine of a game."""

    game: Game
    name: str = "python"

    def _call(self, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except EngineError as error:
            raise Refused(str(error)) from None

    def decode(self, doc: Any) -> Any:
        return self._call(self.game.state_from_json, doc)

    def encode(self, state: Any) -> Any:
        return orjson.loads(orjson.dumps(self.game.state_to_json(state)))

    def current_player(self, state: Any) -> int:
        return int(self.game.current_player(state))

    def legal(self, state: Any) -> list[Any]:
        return [as_action(a) for a in self.game.legal_actions(state)]

    def outcomes(self, state: Any, rng: random.Random, samples: int) -> list[Any]:
        listed = self._call(self.game.chance_outcomes, state)
        if listed is not None:
            return [as_action(a) for a, _ in listed]
        return [as_action(self._call(self.game.sample_chance, state, rng)) for _ in range(samples)]

    def to_str(self, state: Any, action: Any) -> str:
        return str(self._call(self.game.action_to_str, state, action))

    def to_json(self, state: Any, action: Any) -> Any:
        return orjson.loads(orjson.dumps(self._call(self.game.action_to_json, state, action)))

    def from_str(self, state: Any, text: str) -> Any:
        return as_action(self._call(self.game.action_from_str, state, text))

    def from_json(self, state: Any, doc: Any) -> Any:
        return as_action(self._call(self.game.action_from_json, state, doc))

    def apply(self, state: Any, action: Any) -> Any:
        return self._call(self.game.apply, state, action)


@dataclass
class NativeEngine:
    """The native twin of a game, through the binding's own calls."""

    module: ModuleType
    game: Any
    name: str = "native"

    def _call(self, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except (self.module.InvalidStateError, self.module.InvalidActionError) as error:
            raise Refused(str(error)) from None

    def decode(self, doc: Any) -> Any:
        try:
            text = json.dumps(doc)
        except (RecursionError, ValueError, TypeError) as error:
            raise Unsendable(str(error)) from None
        return self._call(self.game.state_from_json, text)

    def encode(self, state: Any) -> Any:
        return orjson.loads(state.to_json(None))

    def current_player(self, state: Any) -> int:
        return int(state.current_player())

    def legal(self, state: Any) -> list[Any]:
        return [as_action(a) for a in state.legal_actions()]

    def outcomes(self, state: Any, rng: random.Random, samples: int) -> list[Any]:
        listed = state.chance_outcomes()
        if listed is not None:
            return [as_action(a) for a, _ in listed]
        found = []
        for _ in range(samples):
            outcome = self._call(state.sample_chance, rng.getrandbits(64))
            if outcome is None:
                raise Refused("no chance outcome to sample")
            found.append(as_action(outcome))
        return found

    def to_str(self, state: Any, action: Any) -> str:
        return str(self._call(state.action_to_str, action))

    def to_json(self, state: Any, action: Any) -> Any:
        return orjson.loads(self._call(state.action_to_json, action))

    def from_str(self, state: Any, text: str) -> Any:
        return as_action(self._call(state.action_from_str, text))

    def from_json(self, state: Any, doc: Any) -> Any:
        return as_action(self._call(state.action_from_json, json.dumps(doc)))

    def apply(self, state: Any, action: Any) -> Any:
        return self._call(state.apply, action)


_MODULE: list[ModuleType | None] = []


def native_module() -> ModuleType | None:
    """`boardbot_native`, or None where it is not built."""
    if not _MODULE:
        try:
            _MODULE.append(importlib.import_module("boardbot_native"))
        except ImportError:
            _MODULE.append(None)
    return _MODULE[0]


def native_engine(game: str) -> NativeEngine | None:
    """The native twin of `game`, or None (no twin, or no native module)."""
    module = native_module()
    twin = get_game(game).game_type.native_twin  # as the game's GameType declares it
    if module is None or twin is None:
        return None
    return NativeEngine(module, getattr(module, twin)())


@dataclass
class Disagreement:
    """What two engines disagree on: a short kind and the details."""

    kind: str
    """twin-decode (one accepts the state, the other refuses), twin-parse (a written form
    does not read back to the same value), twin-apply (one refuses to apply an outcome or
    move the other wrote), twin-state (the engines reach different states)."""
    message: str
    key: str = ""
    """The failure class within the kind (which engine failed on which form)."""


def cross_check(
    engines: tuple[Engine, Engine],
    doc: Any,
    rng: random.Random,
    moves: int = 2,
    samples: int = 3,
) -> Disagreement | None:
    """Decode `doc` in both engines; at a chance step, every outcome each engine lists or
    samples must read back (notation and JSON) in both engines as the same value and apply in
    both to the same state; at a decision, `moves` legal moves the same way."""
    states = []
    for engine in engines:
        try:
            states.append(engine.decode(doc))
        except Refused as error:
            states.append(error)
        except Unsendable:
            return None
    refused = [isinstance(s, Refused) for s in states]
    if all(refused):
        return None
    if any(refused):
        who = engines[refused.index(True)].name
        other = engines[refused.index(False)].name
        return Disagreement("twin-decode", f"{other} accepts the state, {who} refuses it: "
                            f"{_short(states[refused.index(True)])}", f"{who} refuses")
    players = [e.current_player(s) for e, s in zip(engines, states, strict=True)]
    if players[0] != players[1]:
        return Disagreement("twin-state", f"seat to move {players[0]} vs {players[1]}", "seat")
    written: list[tuple[Engine, Any, Any]] = []
    for engine, state in zip(engines, states, strict=True):
        try:
            if players[0] == CHANCE:
                actions = engine.outcomes(state, rng, samples)
            elif players[0] >= 0:
                legal = engine.legal(state)
                actions = rng.sample(legal, min(moves, len(legal)))
            else:
                actions = []
        except Refused as error:
            what = "chance outcome" if players[0] == CHANCE else "legal moves"
            return Disagreement("twin-apply", f"{engine.name} cannot give a {what} of a state "
                                f"both accept: {_short(error)}", f"{engine.name} {what}")
        written.extend((engine, state, action) for action in actions)
    for writer, state, action in written:
        problem = _read_back(engines, states, writer, state, action)
        if problem is not None:
            return problem
    return None


def _read_back(
    engines: tuple[Engine, Engine], states: list[Any], writer: Engine, state: Any, action: Any
) -> Disagreement | None:
    try:
        text = writer.to_str(state, action)
        doc = writer.to_json(state, action)
    except Refused as error:
        return Disagreement("twin-parse", f"{writer.name} cannot write its own {action!r}: "
                            f"{_short(error)}", f"{writer.name} writes")
    after = []
    for reader, its_state in zip(engines, states, strict=True):
        for form, value, parse in (("notation", text, reader.from_str),
                                   ("JSON", doc, reader.from_json)):
            key = f"{reader.name} reads {writer.name}'s {form}"
            try:
                back = parse(its_state, value)
            except Refused as error:
                return Disagreement("twin-parse", f"{reader.name} refuses the {form} "
                                    f"{_short(value)} {writer.name} wrote: {_short(error)}", key)
            if back != action:
                return Disagreement("twin-parse", f"{reader.name} reads the {form} "
                                    f"{_short(value)} {writer.name} wrote as {back!r}, not "
                                    f"{action!r}", key)
        try:
            after.append(reader.encode(reader.apply(its_state, action)))
        except Refused as error:
            return Disagreement("twin-apply", f"{reader.name} refuses to apply {text!r}, which "
                                f"{writer.name} wrote: {_short(error)}",
                                f"{reader.name} applies {writer.name}'s")
    if after[0] != after[1]:
        return Disagreement("twin-state", f"after {text!r} (written by {writer.name}) the "
                            "engines' states differ", f"after {writer.name}'s")
    return None


def _short(value: Any, limit: int = 160) -> str:
    text = value if isinstance(value, str) else str(value)
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "…"
