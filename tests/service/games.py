"""Deliberately faulty games, registered in test servers to prove an engine failure on one
request (an exception, or a call that never returns) is answered cleanly and harms nothing
else."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from boardbot.engine.api import Action, JsonDict, State
from boardbot.engine.base import BaseGame
from boardbot.engine.game_type import Chance, GameType, Information


class BrokenGame(BaseGame):
    """Decodes any object, then fails inside the rules with an unexpected exception."""

    game_type = GameType("test-broken", 2, 2, Chance.NONE, Information.PERFECT, render=True)

    def describe_options(self) -> JsonDict:
        """No options."""
        return {}

    def new_state(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
        """Any state will do."""
        return ("broken",)

    def num_players(self, state: State) -> int:
        """Two seats."""
        return 2

    def current_player(self, state: State) -> int:
        """Seat 0 is always to move."""
        return 0

    def is_terminal(self, state: State) -> bool:
        """Never over."""
        return False

    def legal_actions(self, state: State) -> Sequence[Action]:
        """The bug: an exception no codec or rule is supposed to raise."""
        raise RuntimeError("engine bug in legal_actions")

    def apply(self, state: State, action: Action) -> State:
        """Unreachable: no action is ever legal."""
        raise RuntimeError("engine bug in apply")

    def returns(self, state: State) -> tuple[float, ...]:
        """No outcome yet."""
        return (0.0, 0.0)

    def scores(self, state: State) -> tuple[float, ...]:
        """No points."""
        return (0.0, 0.0)

    def state_to_json(self, state: State, observer: int | None = None) -> JsonDict:
        """A constant document."""
        return {"game": self.name}

    def state_from_json(self, data: Any) -> State:
        """Accepts anything."""
        return ("broken",)

    def action_to_json(self, state: State, action: Action) -> JsonDict:
        """Unreachable."""
        return {}

    def action_from_json(self, state: State, data: Any) -> Action:
        """Unreachable."""
        raise RuntimeError("engine bug in action_from_json")

    def action_to_str(self, state: State, action: Action) -> str:
        """Unreachable."""
        return ""

    def action_from_str(self, state: State, text: str) -> Action:
        """Unreachable."""
        raise RuntimeError("engine bug in action_from_str")

    def render(self, state: State, observer: int | None = None) -> str:
        """A constant picture."""
        return "broken"


class HangingGame(BrokenGame):
    """Decodes any object, then never returns from its rules (an engine call that hangs)."""

    game_type = GameType("test-hang", 2, 2, Chance.NONE, Information.PERFECT, render=True)

    def legal_actions(self, state: State) -> Sequence[Action]:
        """The fault: a call that never returns."""
        while True:
            time.sleep(0.05)

    def state_to_json(self, state: State, observer: int | None = None) -> JsonDict:
        """A constant document, except a seat's view, which never returns."""
        while observer is not None:
            time.sleep(0.05)
        return {"game": self.name}
