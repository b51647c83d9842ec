"""The shared, game-agnostic conformance suite every game runs.

A game's test module subclasses `ConformanceSuite`, naming the game and the option sets to cover
(for example every clan pairing, or every player count); pytest then runs each check below for
each option set.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import orjson
import pytest

from boardbot.engine import CHANCE, TERMINAL, Game, State, get_game


def _snapshot(game: Game, state: State) -> bytes:
    return orjson.dumps(game.state_to_json(state), option=orjson.OPT_SORT_KEYS)


def random_step(game: Game, state: State, rng: random.Random) -> State:
    """Advance one step: a uniformly random decision, or a sampled chance outcome."""
    if game.current_player(state) == CHANCE:
        return game.apply(state, game.sample_chance(state, rng))
    actions = game.legal_actions(state)
    return game.apply(state, actions[rng.randrange(len(actions))])


def random_trajectory(
    game: Game, options: Mapping[str, Any], seed: int, max_steps: int
) -> Iterator[State]:
    """Every state of one seeded random game, the initial state first."""
    rng = random.Random(seed)
    state = game.new_state(options, seed)
    yield state
    for _ in range(max_steps):
        if game.is_terminal(state):
            return
        state = random_step(game, state, rng)
        yield state


class ConformanceSuite:
    """Checks every game must pass; subclass and set `game_name` and `option_sets`."""

    game_name: ClassVar[str]
    option_sets: ClassVar[list[dict[str, Any]]]
    games_per_option_set: ClassVar[int] = 100
    max_steps: ClassVar[int] = 5000
    validate_every: ClassVar[int] = 1
    detailed_games: ClassVar[int] = 5

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        ids = [
            ",".join(f"{k}={v}" for k, v in sorted(o.items())) or "default"
            for o in cls.option_sets
        ]

        @pytest.fixture(params=cls.option_sets, ids=ids)
        def options(self: Any, request: pytest.FixtureRequest) -> dict[str, Any]:
            return dict(request.param)

        cls.options = options  # type: ignore[method-assign,assignment]

    @property
    def game(self) -> Game:
        return get_game(self.game_name)

    def test_random_games_terminate_with_invariants(self, options: dict[str, Any]) -> None:
        """Seeded random games end within `max_steps`, invariants holding after every step."""
        game = self.game
        for g in range(self.games_per_option_set):
            last = None
            steps = 0
            trajectory = random_trajectory(game, options, 1000 + g, self.max_steps)
            for steps, state in enumerate(trajectory):
                last = state
                player = game.current_player(state)
                terminal = game.is_terminal(state)
                assert terminal == (player == TERMINAL)
                if not terminal:
                    assert all(v == 0 for v in game.returns(state)), "returns before the end"
                    if player != CHANCE:
                        assert 0 <= player < game.num_players(state)
                        assert game.legal_actions(state), "non-terminal state without moves"
                    else:
                        assert len(game.legal_actions(state)) == 0
                if steps % self.validate_every == 0:
                    # Decoding re-validates everything: conservation, counts, phase consistency.
                    assert game.state_from_json(game.state_to_json(state)) == state
            assert last is not None and game.is_terminal(last), (
                f"game {g} not over after {steps} steps"
            )
            ret = game.returns(last)
            assert len(ret) == game.num_players(last)
            assert sorted(ret) == [0.0] * (len(ret) - 1) + [1.0], f"returns {ret}"
            assert len(game.scores(last)) == game.num_players(last)

    def test_same_seed_same_game(self, options: dict[str, Any]) -> None:
        """Setup and play are reproducible from the seed."""
        game = self.game
        a = [_snapshot(game, s) for s in random_trajectory(game, options, 7, self.max_steps)]
        b = [_snapshot(game, s) for s in random_trajectory(game, options, 7, self.max_steps)]
        assert a == b
        assert game.new_state(options, 1) != game.new_state(options, 2)

    def test_apply_never_changes_its_input(self, options: dict[str, Any]) -> None:
        """Every action leaves the state it was applied to exactly as it was."""
        game = self.game
        for g in range(self.detailed_games):
            rng = random.Random(g)
            for state in random_trajectory(game, options, 50 + g, self.max_steps):
                if game.is_terminal(state):
                    break
                before = _snapshot(game, state)
                if game.current_player(state) == CHANCE:
                    actions = [game.sample_chance(state, rng) for _ in range(3)]
                else:
                    actions = list(game.legal_actions(state))
                for action in actions:
                    game.apply(state, action)
                    assert _snapshot(game, state) == before

    def test_actions_round_trip_through_json_and_text(self, options: dict[str, Any]) -> None:
        """Every legal action survives JSON and short-text notation; texts are unique."""
        game = self.game
        for g in range(self.detailed_games):
            for state in random_trajectory(game, options, 80 + g, self.max_steps):
                if game.current_player(state) < 0:
                    continue
                actions = game.legal_actions(state)
                assert len(set(actions)) == len(actions), "duplicate legal actions"
                texts = [game.action_to_str(state, a) for a in actions]
                assert len(set(texts)) == len(texts), f"ambiguous notation {texts}"
                for action, text in zip(actions, texts, strict=True):
                    data = orjson.loads(orjson.dumps(game.action_to_json(state, action)))
                    assert game.action_from_json(state, data) == action
                    assert game.action_from_str(state, text) == action

    def test_chance_steps_are_explicit(self, options: dict[str, Any]) -> None:
        """Sampled chance outcomes are among the listed ones; probabilities sum to one."""
        game = self.game
        for g in range(self.detailed_games):
            rng = random.Random(g)
            for state in random_trajectory(game, options, 120 + g, self.max_steps):
                if game.current_player(state) != CHANCE:
                    continue
                outcomes = game.chance_outcomes(state)
                sampled = game.sample_chance(state, rng)
                if outcomes is not None:
                    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                    assert sampled in {a for a, _ in outcomes}
                game.apply(state, sampled)  # any sampled outcome must be applicable

    def test_chance_outcomes_round_trip_through_json_and_text(
        self, options: dict[str, Any]
    ) -> None:
        """A client can give any chance outcome: each listed one (else each sampled one) parses
        back from its JSON and text at its chance step; unlisted ones have a described form."""
        game = self.game
        for g in range(self.detailed_games):
            rng = random.Random(g)
            for state in random_trajectory(game, options, 160 + g, self.max_steps):
                if game.current_player(state) != CHANCE:
                    continue
                outcomes = game.chance_outcomes(state)
                if outcomes is None:
                    assert isinstance(game.chance_form(state), str) and game.chance_form(state)
                    actions = [game.sample_chance(state, rng)]
                else:
                    actions = [a for a, p in outcomes if p > 0]
                for action in actions:
                    data = orjson.loads(orjson.dumps(game.action_to_json(state, action)))
                    assert game.action_from_json(state, data) == action
                    assert game.action_from_str(state, game.action_to_str(state, action)) == action

    def test_state_json_round_trip(self, options: dict[str, Any]) -> None:
        """Random mid-game states survive encode → bytes → decode unchanged."""
        game = self.game
        for g in range(self.detailed_games):
            for state in random_trajectory(game, options, 160 + g, self.max_steps):
                raw = orjson.dumps(game.state_to_json(state))
                assert game.state_from_json(orjson.loads(raw)) == state

    def test_observe_equals_the_decoded_json_view(self, options: dict[str, Any]) -> None:
        """A seat's view is the state its JSON view decodes to (no JSON round trip needed)."""
        game = self.game
        for g in range(self.detailed_games):
            for i, state in enumerate(random_trajectory(game, options, 180 + g, self.max_steps)):
                if i % 2:
                    continue
                for seat in range(game.num_players(state)):
                    view = game.observe(state, seat)
                    assert view.seat == seat
                    assert view.state == game.state_from_json(game.state_to_json(state, seat))
                    assert game.observe(view.state, seat) == view, "observe is not idempotent"

    def test_determinize_keeps_the_observers_view(self, options: dict[str, Any]) -> None:
        """A determinized world gives the seat the same view and is itself a valid state; worlds
        the seat cannot tell apart (same JSON view) give equal views."""
        game = self.game
        for g in range(self.detailed_games):
            rng = random.Random(g)
            for i, state in enumerate(random_trajectory(game, options, 200 + g, self.max_steps)):
                if i % 3:
                    continue
                for observer in range(game.num_players(state)):
                    seen = game.state_to_json(state, observer)
                    view = game.observe(state, observer)
                    world = game.determinize(view, rng)
                    assert game.observe(world, observer) == view
                    assert game.state_to_json(world, observer) == seen
                    assert game.state_from_json(game.state_to_json(world)) == world
                    assert game.current_player(world) == game.current_player(state)
                    mover = game.current_player(world)
                    if mover == observer:
                        assert game.legal_actions(world) == game.legal_actions(state)
                    elif mover >= 0:
                        # A sampled world must never strand the seat to move.
                        assert game.legal_actions(world), "no legal action in a sampled world"

    def test_observer_view_decodes(self, options: dict[str, Any]) -> None:
        """A view with hidden parts as counts decodes to a state with the same view."""
        game = self.game
        for g in range(self.detailed_games):
            for i, state in enumerate(random_trajectory(game, options, 240 + g, self.max_steps)):
                if i % 5:
                    continue
                for observer in range(game.num_players(state)):
                    view = game.state_to_json(state, observer)
                    decoded = game.state_from_json(orjson.loads(orjson.dumps(view)))
                    assert game.state_to_json(decoded, observer) == view
