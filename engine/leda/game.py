"""LedaGame: the LEDA rules behind the engine's Game protocol."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from boardbot.engine.api import CHANCE, TERMINAL, JsonDict
from boardbot.engine.errors import InvalidStateError
from boardbot.engine.jsonread import JsonReader
from boardbot.engine.leda import codec, determinize, evaluate, notation, render, rules
from boardbot.engine.leda.board import mv_symbols
from boardbot.engine.leda.data import CLAN_BY_NAME, CLAN_NAMES
from boardbot.engine.leda.frames import F_SHUFFLE
from boardbot.engine.leda.state import LedaState

Action = tuple[Any, ...]


def _clan(entry: JsonReader) -> int:
    """A clan option entry: one of the clan names, as its index."""
    return CLAN_BY_NAME[entry.as_str(CLAN_BY_NAME)]


class LedaGame:
    """LEDA for two players: stateless rules over immutable `LedaState` values."""

    name = "leda"
    min_players = 2
    max_players = 2

    def describe_options(self) -> JsonDict:
        """Options of `new_state`."""
        return {
            "clans": {
                "type": "list of 2 distinct clan names, seat 0 first",
                "values": list(CLAN_NAMES),
                "default": "a seeded random distinct pair",
            },
            "first_player": {
                "type": "0, 1 or null",
                "default": "null: chosen at random from the seed",
            },
            "players": {"type": "integer", "values": [2], "default": 2},
        }

    def new_state(self, options: Mapping[str, Any] | None = None, seed: int = 0) -> LedaState:
        """A new game; grids, piles, decks and (unless given) clans and first player are seeded."""
        opts = JsonReader(dict(options or {}), ("options",), InvalidStateError).obj(
            {"clans", "first_player", "players"}
        )
        rng = random.Random(seed)
        if opts.opt("players", 2).as_int() != 2:
            raise opts.get("players").fail("LEDA is for exactly 2 players")
        clans_opt = opts.opt("clans", None)
        if clans_opt.value is None:
            pair = rng.sample(range(4), 2)
            clans = (pair[0], pair[1])
        else:
            entries = clans_opt.as_list(2, 2)
            clans = (_clan(entries[0]), _clan(entries[1]))
            if clans[0] == clans[1]:
                raise clans_opt.fail("both players took the same clan")
        first_opt = opts.opt("first_player", None)
        first = rng.randrange(2) if first_opt.value is None else first_opt.as_int(0, 1)
        return rules.advance(rules.initial_state(clans, first, rng))

    def num_players(self, state: LedaState) -> int:
        """Always 2."""
        return 2

    def current_player(self, state: LedaState) -> int:
        """The seat to decide, CHANCE at a shuffle, TERMINAL once someone has won."""
        if state.winner >= 0:
            return TERMINAL
        frame = state.stack[-1]
        return CHANCE if frame[0] == F_SHUFFLE else frame[1]

    def legal_actions(self, state: LedaState) -> Sequence[Action]:
        """The decisions open to the seat to move."""
        return rules.legal_actions(state)

    def apply(self, state: LedaState, action: Action) -> LedaState:
        """The state after `action`; never draws randomness."""
        return rules.apply_action(state, action)

    def is_terminal(self, state: LedaState) -> bool:
        """True once a player has won."""
        return state.winner >= 0

    def returns(self, state: LedaState) -> tuple[float, ...]:
        """1.0 for the winner, 0.0 otherwise (all 0 before the end)."""
        if state.winner < 0:
            return (0.0, 0.0)
        return (1.0, 0.0) if state.winner == 0 else (0.0, 1.0)

    def scores(self, state: LedaState) -> tuple[float, ...]:
        """MV symbols each player holds."""
        return tuple(float(mv_symbols(p)) for p in state.players)

    def chance_outcomes(self, state: LedaState) -> Sequence[tuple[Action, float]] | None:
        """Shuffles have too many outcomes to list: use `sample_chance`."""
        return None

    def sample_chance(self, state: LedaState, rng: random.Random) -> Action:
        """A random order for the pending shuffle."""
        return rules.sample_shuffle(state, rng)

    def determinize(self, state: LedaState, observer: int, rng: random.Random) -> LedaState:
        """A world consistent with what `observer` knows, everything hidden resampled."""
        return determinize.determinize(state, observer, rng)

    def evaluate(self, state: LedaState) -> tuple[float, ...]:
        """Heuristic progress of each seat toward either victory, in [0, 1]."""
        return evaluate.evaluate(state)

    def policy_weights(self, state: LedaState, actions: Sequence[Action]) -> Sequence[float]:
        """Cheap rollout preferences over `actions`."""
        return evaluate.policy_weights(state, actions)

    def state_to_json(self, state: LedaState, observer: int | None = None) -> JsonDict:
        """The documented JSON form (hidden parts as counts for an observer)."""
        return codec.state_to_json(state, observer)

    def state_from_json(self, data: Any) -> LedaState:
        """Decode and validate a JSON state."""
        return codec.state_from_json(data)

    def action_to_json(self, state: LedaState, action: Action) -> JsonDict:
        """The JSON object of an action."""
        return notation.action_to_json(action)

    def action_from_json(self, state: LedaState, data: Any) -> Action:
        """Parse a JSON action and check it is legal here."""
        return notation.action_from_json(state, data)

    def action_to_str(self, state: LedaState, action: Action) -> str:
        """The short text of an action, e.g. `zone:row2`."""
        return notation.action_to_str(action)

    def action_from_str(self, state: LedaState, text: str) -> Action:
        """Parse the short text of an action and check it is legal here."""
        return notation.action_from_str(state, text)

    def render(self, state: LedaState, observer: int | None = None) -> str:
        """A readable text picture of the state."""
        return render.render(state, observer)
