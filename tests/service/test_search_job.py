"""One search job in-process: what it reports, and the seat's view it searches from."""

from __future__ import annotations

from typing import Any

import orjson

from boardbot.engine.registry import register_game, unregister_game
from boardbot.jobs import game_ops
from boardbot.jobs.search_job import SearchJob, run_search_job
from boardbot.jobs.settings import Limits, resolve
from boardbot.search.tree_search import PV_LENGTH
from tests.search.counting_game import CountingLeda, busy_position
from tests.service.positions import decision_state, hidden_pair, load


def _job(name: str, raw: bytes, seat: int, **fields: Any) -> SearchJob:
    config = resolve("easy", {"iterations": 60, "temperature": 0.0}, Limits())
    return SearchJob(name, raw, seat, config, 4, **fields)


def test_choose_move_job_reports_only_the_chosen_move(game_case: tuple[str, Any]) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=12)
    raw, seat = game_ops.encode_state(game, state), game.current_player(state)
    full = run_search_job(_job(name, raw, seat))
    chosen_only = run_search_job(_job(name, raw, seat, ranked=False))
    top_one = run_search_job(_job(name, raw, seat, top_k=1))
    assert chosen_only.moves == ()
    assert chosen_only.chosen == full.chosen and chosen_only.chosen_rank == full.chosen_rank
    assert (chosen_only.iterations, chosen_only.nodes) == (full.iterations, full.nodes)
    assert top_one.moves == full.moves[:1]
    assert full.moves[full.chosen_rank - 1] == full.chosen
    assert orjson.loads(full.chosen.move_json) == game.action_to_json(
        state, game.action_from_str(state, full.chosen.notation)
    )


def test_a_full_state_and_the_seats_view_give_the_same_search(
    game_case: tuple[str, Any],
) -> None:
    name, options = game_case
    game = load(name)
    state, _, seat = hidden_pair(game, options, seed=33)
    full = run_search_job(_job(name, game_ops.encode_state(game, state), seat))
    view = run_search_job(_job(name, game_ops.encode_state(game, state, observer=seat), seat))
    assert full.chosen == view.chosen
    assert full.moves == view.moves
    assert (full.iterations, full.nodes) == (view.iterations, view.nodes)


def test_choose_move_job_writes_notation_line_and_json_of_one_move_only() -> None:
    register_game("counting_leda", "tests.search.counting_game:CountingLeda")
    try:
        game = load("counting_leda")
        state = busy_position(game, seed=5)
        raw, seat = game_ops.encode_state(game, state), game.current_player(state)
        CountingLeda.reset()
        outcome = run_search_job(_job("counting_leda", raw, seat, ranked=False))
        assert outcome.moves == ()
        assert len(game.legal_actions(state)) >= 12
        line = outcome.chosen.principal_variation
        assert line[0] == outcome.chosen.notation
        # The move's notation once, then each move of its line; its JSON once.
        assert CountingLeda.notation_calls == 1 + len(line) <= 1 + PV_LENGTH
        assert CountingLeda.json_calls == 1
    finally:
        unregister_game("counting_leda")
