"""BaseGame: the defaults a game inherits, and the check of a game against its declared type.

A game subclasses `BaseGame`, sets `game_type`, and points each role function it has at the
module function that implements it (`apply = staticmethod(rules.apply)`): a call on the game
object is then a direct call of that function, with no forwarding method in between.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from boardbot.engine.api import TERMINAL, JsonDict, PresetOverrides, State, View
from boardbot.engine.errors import GameDefinitionError, IllegalActionError
from boardbot.engine.game_type import Chance, GameType, Information

REQUIRED_ROLES: Mapping[str, tuple[str, ...]] = {
    "rules": (
        "new_state", "num_players", "current_player", "legal_actions", "apply", "returns",
        "scores",
    ),
    "codec": (
        "state_to_json", "state_from_json", "action_to_json", "action_from_json",
        "action_to_str", "action_from_str",
    ),
}  # fmt: skip
"""Role functions every game writes itself (BaseGame has no default for them)."""


NO_CHANCE_PENDING = "no chance step is pending: there is no outcome to draw"
"""The reason `sample_chance` gives outside a chance step."""


class BaseGame:
    """Defaults for every optional role function; a subclass supplies the rest."""

    game_type: ClassVar[GameType]
    preset_overrides: PresetOverrides = MappingProxyType({})
    """Tuned search presets as field overrides (see `engine.api.PresetOverrides`)."""

    # Supplied by every game (checked by `check_game`).
    num_players: Callable[[State], int]
    current_player: Callable[[State], int]
    returns: Callable[[State], tuple[float, ...]]
    state_to_json: Callable[..., JsonDict]

    @property
    def name(self) -> str:
        """The game's declared name."""
        return self.game_type.name

    @property
    def min_players(self) -> int:
        """Fewest seats the game allows."""
        return self.game_type.min_players

    @property
    def max_players(self) -> int:
        """Most seats the game allows."""
        return self.game_type.max_players

    def __reduce__(self) -> tuple[type[BaseGame], tuple[()]]:
        # Games are stateless: a worker process rebuilds one from its class alone.
        return (type(self), ())

    def describe_options(self) -> JsonDict:
        """No options."""
        return {}

    def is_terminal(self, state: State, /) -> bool:
        """True once `current_player` says the game is over."""
        return self.current_player(state) == TERMINAL

    def chance_outcomes(self, state: State, /) -> Sequence[tuple[Any, float]] | None:
        """None: outcomes are not listed (a game with listed chance overrides this)."""
        return None

    def sample_chance(self, state: State, rng: random.Random, /) -> Any:
        """One outcome drawn from `chance_outcomes` by its probability."""
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            raise IllegalActionError("$", NO_CHANCE_PENDING)
        point = rng.random() * sum(p for _, p in outcomes)
        for outcome, probability in outcomes:
            point -= probability
            if point < 0.0:
                return outcome
        return outcomes[-1][0]

    def chance_form(self, state: State, /) -> str:
        """A generic description: the outcome as a move in the game's own notation."""
        return (
            "an outcome of this chance step as move JSON or notation (see the game's move format)"
        )

    def observe(self, state: State, seat: int, /) -> View:
        """The whole state: with perfect information a seat sees everything."""
        return View(seat, state)

    def determinize(self, view: View, rng: random.Random, /) -> State:
        """The view's state: with perfect information nothing is left to sample."""
        return view.state

    def evaluate(self, state: State, /) -> tuple[float, ...]:
        """The outcome at the end; before it, an equal share for every seat."""
        if self.is_terminal(state):
            return self.returns(state)
        n = self.num_players(state)
        return (1.0 / n,) * n

    def policy_weights(self, state: State, actions: Sequence[Any], /) -> Sequence[float]:
        """Uniform weights."""
        return [1.0] * len(actions)

    def render(self, state: State, observer: int | None = None, /) -> str:
        """The JSON form, indented."""
        return json.dumps(self.state_to_json(state, observer), indent=2)


def _provides(game: Any, name: str) -> bool:
    """True when `game` has its own function `name` (not BaseGame's default)."""
    attr = getattr(game, name, None)
    if not callable(attr):
        return False
    default = BaseGame.__dict__.get(name)
    return default is None or getattr(attr, "__func__", attr) is not default


def check_game(game: Any) -> None:
    """Raise GameDefinitionError unless `game` has every role its declared type calls for."""
    game_type = getattr(game, "game_type", None)
    label = type(game).__name__
    if not isinstance(game_type, GameType):
        raise GameDefinitionError(f"{label} declares no GameType (set its game_type)")
    label = f"game {game_type.name!r} ({label})"
    problems: list[str] = []
    if not game_type.name:
        problems.append("its name is empty")
    if not 1 <= game_type.min_players <= game_type.max_players:
        problems.append(
            f"min_players {game_type.min_players} and max_players {game_type.max_players} "
            "are not 1 <= min <= max"
        )
    missing = [
        f"{role}.{name}"
        for role, names in REQUIRED_ROLES.items()
        for name in names
        if not callable(getattr(game, name, None))
    ]
    if missing:
        problems.append(f"it lacks {', '.join(missing)}")
    problems += _declaration_mismatches(game, game_type)
    overrides = getattr(game, "preset_overrides", None)
    if not isinstance(overrides, Mapping) or not all(
        isinstance(k, str) and isinstance(v, Mapping) for k, v in overrides.items()
    ):
        problems.append("preset_overrides is not a mapping of preset names to field mappings")
    twin = game_type.native_twin
    if twin is not None and not (isinstance(twin, str) and twin):
        problems.append(f"its native_twin {twin!r} is not a binding's game name")
    data = game_type.components
    if data is not None and not (isinstance(data, Path) and data.suffix == ".json"):
        problems.append(f"its components {data!r} is not the path of a JSON file")
    if problems:
        raise GameDefinitionError(f"{label}: {'; '.join(problems)}")


def _declaration_mismatches(game: Any, game_type: GameType) -> list[str]:
    """Where the declared chance, information and capabilities disagree with the functions."""
    problems = []
    chance = game_type.chance
    if chance is Chance.LISTED and not _provides(game, "chance_outcomes"):
        problems.append("it declares listed chance but has no chance_outcomes")
    if chance is Chance.SAMPLED and not _provides(game, "sample_chance"):
        problems.append("it declares sampled chance but has no sample_chance")
    if chance is Chance.NONE:
        extra = [n for n in ("chance_outcomes", "sample_chance") if _provides(game, n)]
        if extra:
            problems.append(f"it declares no chance but has {' and '.join(extra)}")
    knowledge = [n for n in ("observe", "determinize") if _provides(game, n)]
    if game_type.information is Information.IMPERFECT and len(knowledge) < 2:
        lacking = [n for n in ("observe", "determinize") if n not in knowledge]
        problems.append(
            f"it declares imperfect information but has no knowledge.{' or '.join(lacking)}"
        )
    if game_type.information is Information.PERFECT and knowledge:
        problems.append(
            f"it declares perfect information but has its own {' and '.join(knowledge)}"
        )
    heuristics = [n for n in ("evaluate", "policy_weights") if _provides(game, n)]
    if game_type.heuristics and len(heuristics) < 2:
        lacking = [n for n in ("evaluate", "policy_weights") if n not in heuristics]
        problems.append(f"it declares heuristics but has no heuristics.{' or '.join(lacking)}")
    if not game_type.heuristics and heuristics:
        problems.append(f"it declares no heuristics but has {' and '.join(heuristics)}")
    if game_type.render != _provides(game, "render"):
        problems.append(
            "it declares its own render but has none"
            if game_type.render
            else "it has its own render but does not declare it"
        )
    return problems
