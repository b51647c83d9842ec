"""Declared game types, BaseGame's defaults, and the checks the registry runs on a game."""

from __future__ import annotations

import json
import random
from dataclasses import FrozenInstanceError, dataclass
from typing import Any

import pytest

from boardbot.engine import BoardbotError, get_game, register_game
from boardbot.engine.api import TERMINAL, JsonDict, State, View
from boardbot.engine.base import BaseGame, check_game
from boardbot.engine.errors import GameDefinitionError, IllegalActionError
from boardbot.engine.game_type import Chance, GameType, Information
from boardbot.engine.leda.components import DATA_FILE as LEDA_DATA_FILE
from boardbot.engine.leda.game import GAME_TYPE as LEDA_TYPE
from boardbot.engine.registry import load_game, unregister_game


@dataclass(frozen=True)
class CoinState:
    """Heads or tails to call, then over."""

    called: str
    flip: str
    player: int


class CoinGame(BaseGame):
    """Seat 0 calls, a fair coin is flipped: the smallest game with listed chance."""

    game_type = GameType("test-coin", 1, 1, Chance.LISTED, Information.PERFECT)

    def new_state(self, options: Any = None, seed: int = 0) -> CoinState:
        return CoinState("", "", 0)

    def num_players(self, state: CoinState) -> int:
        return 1

    def current_player(self, state: CoinState) -> int:
        if state.flip:
            return TERMINAL
        return -1 if state.called else 0

    def legal_actions(self, state: CoinState) -> list[str]:
        return ["heads", "tails"] if self.current_player(state) == 0 else []

    def apply(self, state: CoinState, action: Any) -> CoinState:
        if state.called:
            return CoinState(state.called, str(action), TERMINAL)
        return CoinState(str(action), "", -1)

    def returns(self, state: CoinState) -> tuple[float, ...]:
        return (1.0 if state.flip and state.flip == state.called else 0.0,)

    def scores(self, state: CoinState) -> tuple[float, ...]:
        return self.returns(state)

    def chance_outcomes(self, state: CoinState) -> list[tuple[str, float]]:
        return [("heads", 0.25), ("tails", 0.75)]

    def state_to_json(self, state: CoinState, observer: int | None = None) -> JsonDict:
        return {"called": state.called, "flip": state.flip}

    def state_from_json(self, data: Any) -> CoinState:
        return CoinState(data["called"], data["flip"], 0)

    def action_to_json(self, state: State, action: Any) -> JsonDict:
        return {"call": action}

    def action_from_json(self, state: State, data: Any) -> Any:
        return data["call"]

    def action_to_str(self, state: State, action: Any) -> str:
        return str(action)

    def action_from_str(self, state: State, text: str) -> Any:
        return text


COIN = CoinGame()


class NoChanceCoinGame(CoinGame):
    """A CoinGame whose coin lists no outcome."""

    def chance_outcomes(self, state: CoinState) -> list[tuple[str, float]]:
        return []


NO_CHANCE = NoChanceCoinGame()


class Untyped:
    """An object that is no game at all."""


def test_a_game_type_is_a_frozen_value() -> None:
    assert GameType(
        "leda", 2, 2, Chance.SAMPLED, Information.IMPERFECT, heuristics=True, render=True,
        native_twin="Leda", components=LEDA_DATA_FILE,
    ) == LEDA_TYPE
    with pytest.raises(FrozenInstanceError):
        LEDA_TYPE.name = "other"  # type: ignore[misc]


def test_real_games_declare_their_type() -> None:
    leda, raiders = get_game("leda"), get_game("legend_raiders")
    assert (leda.game_type.chance, raiders.game_type.chance) == (Chance.SAMPLED, Chance.LISTED)
    assert (raiders.min_players, raiders.max_players, raiders.name) == (2, 4, "legend_raiders")
    for game in (leda, raiders):
        check_game(game)
        assert game.game_type.information is Information.IMPERFECT
        components = game.game_type.components
        assert components is not None and components.is_file()


def test_base_defaults_fill_what_a_game_does_not_write() -> None:
    state = COIN.new_state()
    assert not COIN.is_terminal(state) and COIN.describe_options() == {}
    assert COIN.evaluate(state) == (1.0,)
    assert COIN.policy_weights(state, ["heads", "tails"]) == [1.0, 1.0]
    assert json.loads(COIN.render(state)) == {"called": "", "flip": ""}
    assert dict(COIN.preset_overrides) == {} and COIN.game_type.native_twin is None
    view = COIN.observe(state, 0)
    assert view == View(0, state) and COIN.determinize(view, random.Random(1)) is state
    called = COIN.apply(state, "heads")
    flips = [COIN.sample_chance(called, random.Random(seed)) for seed in range(400)]
    assert 60 < flips.count("heads") < 140, "drawn by the listed probabilities (1/4 heads)"
    over = COIN.apply(called, "heads")
    assert COIN.is_terminal(over) and COIN.evaluate(over) == (1.0,)
    with pytest.raises(IllegalActionError, match="no chance step is pending"):
        NO_CHANCE.sample_chance(state, random.Random(0))
    assert COIN.chance_form(called) == (
        "an outcome of this chance step as move JSON or notation (see the game's move format)"
    )


def test_a_view_is_a_frozen_value_compared_by_seat_and_state() -> None:
    view = View(1, ("a", 2))
    assert view == View(1, ("a", 2)) and view != View(0, ("a", 2))
    with pytest.raises(FrozenInstanceError):
        view.seat = 0  # type: ignore[misc]


def _variant(changes: dict[str, Any]) -> type[CoinGame]:
    """A CoinGame subclass with `changes` as class attributes."""
    return type("Variant", (CoinGame,), changes)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game_type": None}, "declares no GameType"),
        ({"game_type": GameType("x", 3, 2, Chance.LISTED, Information.PERFECT)},
         "min_players 3 and max_players 2 are not 1 <= min <= max"),
        ({"legal_actions": None, "state_from_json": None},
         "it lacks rules.legal_actions, codec.state_from_json"),
        ({"game_type": GameType("x", 1, 1, Chance.SAMPLED, Information.PERFECT)},
         "it declares sampled chance but has no sample_chance"),
        ({"game_type": GameType("x", 1, 1, Chance.NONE, Information.PERFECT)},
         "it declares no chance but has chance_outcomes"),
        ({"game_type": GameType("x", 1, 1, Chance.LISTED, Information.IMPERFECT)},
         "it declares imperfect information but has no knowledge.observe or determinize"),
        ({"observe": lambda self, state, seat: View(seat, state)},
         "it declares perfect information but has its own observe"),
        ({"game_type": GameType("x", 1, 1, Chance.LISTED, Information.PERFECT, heuristics=True),
          "evaluate": lambda self, state: (0.5,)},
         "it declares heuristics but has no heuristics.policy_weights"),
        ({"evaluate": lambda self, state: (0.5,)}, "it declares no heuristics but has evaluate"),
        ({"game_type": GameType("x", 1, 1, Chance.LISTED, Information.PERFECT, render=True)},
         "it declares its own render but has none"),
        ({"render": lambda self, state, observer=None: "?"},
         "it has its own render but does not declare it"),
        ({"preset_overrides": {"expert": 3}}, "preset_overrides is not a mapping"),
        ({"game_type": GameType("x", 1, 1, Chance.LISTED, Information.PERFECT, native_twin="")},
         "its native_twin '' is not a binding's game name"),
        ({"game_type": GameType("x", 1, 1, Chance.LISTED, Information.PERFECT,
                                components="data.json")},  # type: ignore[arg-type]
         "its components 'data.json' is not the path of a JSON file"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_inconsistent_declarations_name_what_is_missing(
    changes: dict[str, Any], message: str
) -> None:
    game = _variant(changes)()
    with pytest.raises(GameDefinitionError) as err:
        check_game(game)
    assert message in str(err.value)
    assert isinstance(err.value, BoardbotError)


def test_the_registry_checks_a_game_when_it_loads_it() -> None:
    register_game("test-coin", "tests.engine.test_game_type:CoinGame")
    register_game("test-coin-instance", "tests.engine.test_game_type:COIN")
    register_game("test-no-type", "tests.engine.test_game_type:Untyped")
    try:
        assert isinstance(get_game("test-coin"), CoinGame)
        assert get_game("test-coin-instance") is COIN
        with pytest.raises(GameDefinitionError, match="Untyped declares no GameType"):
            get_game("test-no-type")
    finally:
        for name in ("test-coin", "test-coin-instance", "test-no-type"):
            unregister_game(name)
    with pytest.raises(GameDefinitionError, match=r"is not 'package\.module:Attr'"):
        load_game("tests.engine.test_game_type.CoinGame")
