"""The ISMCTS search on small games: correctness, determinism, information use, budgets."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardbot.engine.api import Game, State, View
from boardbot.search.api import SearchConfig, SearchControls, SearchResult
from boardbot.search.ismcts import SearchError, search, search_view
from boardbot.search.rollout import register_rollout_policy
from tests.search.figures import figures
from tests.search.toy_games import DiceGame, GuessGame, GuessState, KingmakerGame, NimGame

ROOT = Path(__file__).resolve().parents[2]


def test_same_inputs_give_the_same_result() -> None:
    game = NimGame()
    state = game.new_state({"stones": 11})
    config = SearchConfig(iterations=300, early_stop=False)
    assert figures(search(game, state, 0, config, 7)) == figures(search(game, state, 0, config, 7))


def test_different_seeds_can_differ() -> None:
    game = GuessGame()
    state = game.new_state({}, 1)
    config = SearchConfig(iterations=200, early_stop=False)
    results = {figures(search(game, state, 0, config, seed)) for seed in range(4)}
    assert len(results) > 1


def test_same_result_in_a_fresh_process() -> None:
    game = GuessGame()
    state = game.new_state({}, 3)
    config = SearchConfig(iterations=250, early_stop=False)
    here = search(game, state, 0, config, 11)
    script = (
        "import json\n"
        "from search.api import SearchConfig\n"
        "from search.ismcts import search\n"
        "from tests.search.toy_games import GuessGame\n"
        "g = GuessGame()\n"
        "r = search(g, g.new_state({}, 3), 0, SearchConfig(iterations=250, early_stop=False), 11)\n"
        "print(json.dumps([[m.notation, m.visits, m.mean_value] for m in r.moves]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    there = json.loads(out.stdout)
    assert there == [[m.notation, m.visits, m.mean_value] for m in here.moves]


def test_no_peeking_at_hidden_cards() -> None:
    """States differing only in the opponent's card and the deck order: identical search."""
    game = GuessGame()
    first = GuessState((2, 4), (1, 3), 0)
    second = GuessState((2, 1), (3, 4), 0)
    third = GuessState((2, 3), (4, 1), 0)
    config = SearchConfig(iterations=400, early_stop=False)
    results = [figures(search(game, s, 0, config, 5)) for s in (first, second, third)]
    assert results[0] == results[1] == results[2]


def test_forced_win_is_found() -> None:
    game = NimGame()
    for stones, winning_take in ((5, 1), (6, 2), (7, 3), (9, 1), (11, 3)):
        state = game.new_state({"stones": stones})
        result = search(game, state, 0, SearchConfig(iterations=3000), 1)
        assert result.action == winning_take, stones
        assert result.moves[0].mean_value > 0.8


def test_information_set_reasoning_beats_peeking() -> None:
    """The coin (1/2) beats a guess (1/3) for seat 0; a search that saw the card would guess."""

    class PeekingGuessGame(GuessGame):
        """Leaks the hidden card: its view shows everything and worlds are the true state."""

        def state_to_json(self, state: GuessState, observer: int | None = None) -> dict:
            return super().state_to_json(state)

        def observe(self, state: GuessState, seat: int) -> View:
            return View(seat, state)

        def determinize(self, view: View, rng: random.Random) -> State:
            return view.state

    state = GuessState((2, 4), (1, 3), 0)
    config = SearchConfig(iterations=2000)
    honest = search(GuessGame(), state, 0, config, 3)
    assert honest.notation == "coin"
    by_move = {m.notation: m for m in honest.moves}
    assert by_move["guess-2"].mean_value == 0.0  # seat 0 holds card 2 itself
    peeking = search(PeekingGuessGame(), state, 0, config, 3)
    assert peeking.notation == "guess-4"


def test_each_seat_maximises_its_own_reward() -> None:
    game = KingmakerGame()
    result = search(game, game.new_state(), 0, SearchConfig(iterations=2000, early_stop=False), 2)
    assert result.notation == "ask-2"
    by_move = {m.notation: m for m in result.moves}
    assert by_move["ask-1"].mean_value < 0.2
    assert 0.3 < by_move["ask-2"].mean_value < 0.7
    assert by_move["ask-1"].principal_variation == ("ask-1", "crown-1")
    # Each move of a line with the seat that plays it: seat 0 asks, the asked seat crowns.
    assert by_move["ask-1"].principal_variation_seats == (0, 1)
    assert by_move["ask-2"].principal_variation_seats == (0, 2)


def test_seat_values_are_every_seats_means_from_the_one_search() -> None:
    game = KingmakerGame()
    result = search(game, game.new_state(), 0, SearchConfig(iterations=2000, early_stop=False), 2)
    best = result.moves[0]
    assert result.seat_values == best.seat_values
    assert len(result.seat_values) == 3
    assert result.seat_values[0] == best.mean_value
    # Exactly one seat is crowned: the seats' means add up to 1.
    for move in result.moves:
        assert sum(move.seat_values) == pytest.approx(1.0)
    by_move = {m.notation: m for m in result.moves}
    # After `ask-1`, seat 1 crowns itself; seat 2 is never crowned after either move.
    assert by_move["ask-1"].seat_values[1] > 0.8
    assert by_move["ask-2"].seat_values[2] == 0.0


def test_seat_values_of_a_win_or_lose_game_are_complementary() -> None:
    game = NimGame()
    config = SearchConfig(iterations=400, early_stop=False)
    result = search(game, game.new_state({"stones": 9}), 0, config, 5)
    for move in result.moves:
        assert move.seat_values[0] == move.mean_value
        # Nim is won by exactly one seat, without a margin share beyond [0, 1].
        assert move.seat_values[1] == pytest.approx(1.0 - move.mean_value)


def test_chance_steps_are_sampled_open_loop() -> None:
    game = DiceGame()
    result = search(game, game.new_state(), 0, SearchConfig(iterations=3000, early_stop=False), 4)
    assert result.notation == "die"
    die = next(m for m in result.moves if m.notation == "die")
    assert abs(die.mean_value - 2 / 3) < 0.06
    assert die.lower_bound < die.mean_value


def test_iteration_budget_is_exact() -> None:
    game = NimGame()
    result = search(
        game, game.new_state({"stones": 15}), 0, SearchConfig(iterations=137, early_stop=False), 0
    )
    assert result.iterations == 137
    assert result.stopped_by == "iterations"
    assert sum(m.visits for m in result.moves) == 137


def test_time_budget_stops_the_search() -> None:
    game = NimGame()
    config = SearchConfig(iterations=None, time_ms=50)
    result = search(game, game.new_state({"stones": 40}), 0, config, 0)
    assert result.stopped_by == "time"
    assert result.iterations > 0
    assert result.elapsed_ms < 10_000


def test_deadline_stops_the_search() -> None:
    game = NimGame()
    config = SearchConfig(iterations=None, deadline=time.time() + 0.05)
    result = search(game, game.new_state({"stones": 40}), 0, config, 0)
    assert result.stopped_by == "deadline"
    assert result.elapsed_ms < 10_000


def test_early_stop_when_the_leader_cannot_be_caught() -> None:
    game = NimGame()
    budget = 20_000
    result = search(game, game.new_state({"stones": 5}), 0, SearchConfig(iterations=budget), 0)
    assert result.stopped_by == "early_stop"
    assert result.iterations < budget
    first, second = result.moves[0].visits, result.moves[1].visits
    assert first - second > budget - result.iterations


def test_node_cap_bounds_the_tree() -> None:
    game = NimGame()
    config = SearchConfig(iterations=500, node_cap=6, early_stop=False)
    result = search(game, game.new_state({"stones": 20}), 0, config, 0)
    assert result.nodes <= 6
    assert result.iterations == 500
    unbounded = search(game, game.new_state({"stones": 20}), 0, config.replace(node_cap=10**6), 0)
    assert unbounded.nodes > 6


def test_temperature_samples_from_visits() -> None:
    game = GuessGame()
    state = GuessState((2, 4), (1, 3), 0)
    greedy = SearchConfig(iterations=300, early_stop=False)
    warm = greedy.replace(temperature=2.0)
    picks = [search(game, state, 0, warm, seed).notation for seed in range(30)]
    assert len(set(picks)) > 1
    assert picks.count("coin") > 5
    for seed in range(5):
        result = search(game, state, 0, greedy, seed)
        assert result.action == result.moves[0].action


def test_cancellation() -> None:
    game = NimGame()
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) >= 3

    result = search(game, game.new_state({"stones": 40}), 0, SearchConfig(iterations=None,
                    time_ms=60_000), 0, should_stop=stop)
    assert result.stopped_by == "cancelled"
    assert result.iterations < 1000


def test_progress_reports() -> None:
    game = NimGame()
    seen: list[SearchResult] = []
    config = SearchConfig(iterations=100, early_stop=False)
    final = search(game, game.new_state({"stones": 30}), 0, config, 0,
                   on_progress=seen.append, progress_every=25)
    assert [r.iterations for r in seen] == [25, 50, 75, 100]
    assert all(r.stopped_by == "running" for r in seen)
    assert final.iterations == 100


def test_single_legal_move_needs_no_search() -> None:
    game = NimGame()
    result = search(game, game.new_state({"stones": 1}), 0, SearchConfig(), 0)
    assert result.stopped_by == "single_move"
    assert result.action == 1
    assert (result.moves[0].visits, result.seat_values) == (0, ())


def test_a_single_legal_move_is_searched_when_asked() -> None:
    game = NimGame()
    state = game.new_state({"stones": 1})
    config = SearchConfig(iterations=50, early_stop=False)
    controls = SearchControls(search_forced=True)
    result = search_view(game, game.observe(state, 0), config, 4, controls, "python")
    assert (result.stopped_by, result.iterations, result.moves[0].visits) == ("iterations", 50, 50)
    # Taking the last stone wins: the position's value, not 0.
    assert result.moves[0].mean_value == 1.0
    assert result.seat_values == (1.0, 0.0)


@pytest.mark.parametrize(
    ("config", "seat", "message"),
    [
        (SearchConfig(iterations=None), 0, "budget"),
        (SearchConfig(iterations=0), 0, "iterations"),
        (SearchConfig(rollout="clever"), 0, "rollout"),
        (SearchConfig(), 1, "not to move"),
    ],
)
def test_bad_requests_are_refused(config: SearchConfig, seat: int, message: str) -> None:
    game = NimGame()
    with pytest.raises(ValueError, match=message):
        search(game, game.new_state({"stones": 9}), seat, config, 0)


def test_terminal_state_is_refused() -> None:
    game: Game = NimGame()
    state = game.apply(game.new_state({"stones": 1}), 1)
    with pytest.raises(SearchError, match="over"):
        search(game, state, 0, SearchConfig(), 0)


def test_heuristic_rollout_and_cutoff_use_the_game() -> None:
    class CountingNim(NimGame):
        weights_calls = 0
        evaluations = 0

        def policy_weights(self, state: State, actions: object) -> list[float]:
            CountingNim.weights_calls += 1
            return [1.0, 2.0, 3.0][: len(actions)]  # type: ignore[arg-type]

        def evaluate(self, state: State) -> tuple[float, ...]:
            CountingNim.evaluations += 1
            return (0.5, 0.5)

    game = CountingNim()
    config = SearchConfig(iterations=50, rollout="heuristic", cutoff_depth=2, early_stop=False)
    search(game, game.new_state({"stones": 40}), 0, config, 0)
    assert CountingNim.weights_calls > 0
    assert CountingNim.evaluations > 0


def test_a_registered_rollout_policy_is_used() -> None:
    calls = []

    def take_one(game: Game, state: State, actions: object, rng: random.Random) -> object:
        calls.append(1)
        return 1

    register_rollout_policy("take-one", take_one)
    game = NimGame()
    config = SearchConfig(iterations=20, rollout="take-one", early_stop=False)
    search(game, game.new_state({"stones": 30}), 0, config, 0)
    assert calls


def test_config_replace_keeps_other_fields() -> None:
    config = SearchConfig(iterations=10, exploration=1.5)
    changed = config.replace(workers=3)
    assert dataclasses.asdict(changed) == {**dataclasses.asdict(config), "workers": 3}
