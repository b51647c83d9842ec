"""Every RPC, for every real game, over an in-process server."""

from __future__ import annotations

import random
from typing import Any

import orjson

from boardbot.jobs import game_ops
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search.presets import PRESETS, resolve_preset
from tests.search.positions import forced_decision
from tests.service.positions import decision_state, load
from tests.service.servers import Served


def test_list_games_describes_games_and_presets(served: Served) -> None:
    reply = served.stub.ListGames(pb.ListGamesRequest(), timeout=10)
    by_name = {g.name: g for g in reply.games}
    assert {"leda", "legend_raiders"} <= set(by_name)
    assert (by_name["leda"].min_players, by_name["leda"].max_players) == (2, 2)
    assert (by_name["legend_raiders"].min_players, by_name["legend_raiders"].max_players) == (2, 4)
    for info in reply.games:
        assert isinstance(orjson.loads(info.options_json), dict)
    presets = {p.name: p for p in reply.presets}
    assert list(presets) == ["beginner", "easy", "medium", "hard", "expert"]
    assert presets["medium"].settings.HasField("iterations")
    # Presets are shown as this server runs them: capped at its --max-search-workers (1 here).
    assert presets["expert"].settings.workers == 1
    assert presets["expert"].settings.iterations == PRESETS["expert"].iterations
    # Each game lists the presets as tuned for it.
    for info in reply.games:
        tuned = {p.name: p.settings for p in info.presets}
        assert list(tuned) == list(presets)
        analysis = {p.name: p.analysis_settings for p in info.presets}
        for name, settings in tuned.items():
            # With the budgets of the engine that searches (this server's is auto).
            assert settings.iterations == resolve_preset(name, info.name, "auto").iterations
            assert settings.workers == 1
            deeper = resolve_preset(name, info.name, "auto", analysis=True)
            assert analysis[name].iterations == deeper.iterations
            assert analysis[name].exploration == deeper.exploration
    assert {p.name: p for p in by_name["leda"].presets}["expert"].settings.iterations != (
        PRESETS["expert"].iterations
    )


def test_new_game_is_reproducible_and_valid(served: Served, game_case: tuple[str, Any]) -> None:
    name, options = game_case
    request = pb.NewGameRequest(game=name, options_json=orjson.dumps(options), seed=11)
    first = served.stub.NewGame(request, timeout=10)
    second = served.stub.NewGame(request, timeout=10)
    assert first.state_json == second.state_json
    game = load(name)
    state = game_ops.decode_state(game, first.state_json)
    assert first.summary.current_player == game.current_player(state) >= 0
    assert first.summary.num_players == game.num_players(state)
    assert not first.summary.terminal
    other = served.stub.NewGame(
        pb.NewGameRequest(game=name, options_json=orjson.dumps(options), seed=12), timeout=10
    )
    assert other.state_json != first.state_json


def test_legal_moves_match_the_engine(served: Served, game_case: tuple[str, Any]) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=3)
    seat = game.current_player(state)
    reply = served.stub.LegalMoves(
        pb.LegalMovesRequest(game=name, state_json=game_ops.encode_state(game, state), seat=seat),
        timeout=10,
    )
    expected = [game.action_to_str(state, a) for a in game.legal_actions(state)]
    assert [m.notation for m in reply.moves] == expected
    for move, action in zip(reply.moves, game.legal_actions(state), strict=True):
        assert game.action_from_json(state, orjson.loads(move.move_json)) == action


def test_apply_move_by_notation_and_by_json(served: Served, game_case: tuple[str, Any]) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=4)
    raw = game_ops.encode_state(game, state)
    action = game.legal_actions(state)[-1]
    by_text = served.stub.ApplyMove(
        pb.ApplyMoveRequest(
            game=name, state_json=raw, notation=game.action_to_str(state, action), seed=5
        ),
        timeout=10,
    )
    by_json = served.stub.ApplyMove(
        pb.ApplyMoveRequest(
            game=name,
            state_json=raw,
            move_json=orjson.dumps(game.action_to_json(state, action)),
            seed=5,
        ),
        timeout=10,
    )
    assert by_text.state_json == by_json.state_json
    assert by_text.move.notation == game.action_to_str(state, action)
    after = game_ops.decode_state(game, by_text.state_json)
    expected, _ = game_ops.resolve_chance(game, game.apply(state, action), random.Random(5))
    assert after == expected
    assert by_text.summary.current_player == game.current_player(after)


def test_choose_move_returns_a_legal_move_with_stats(
    served: Served, game_case: tuple[str, Any]
) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=5)
    seat = game.current_player(state)
    request = pb.ChooseMoveRequest(
        game=name,
        state_json=game_ops.encode_state(game, state),
        seat=seat,
        preset="easy",
        settings=pb.SearchSettings(iterations=60),
        seed=9,
    )
    reply = served.stub.ChooseMove(request, timeout=30)
    legal = {game.action_to_str(state, a) for a in game.legal_actions(state)}
    assert reply.move.notation in legal
    assert game.action_from_json(state, orjson.loads(reply.move.move_json)) in game.legal_actions(
        state
    )
    assert reply.stats.seat == seat
    assert reply.stats.settings.iterations == 60
    assert 0 < reply.stats.iterations <= 60 or reply.stats.stopped_by == "single_move"
    assert reply.analysis.move.notation == reply.move.notation
    again = served.stub.ChooseMove(request, timeout=30)
    assert again.move.notation == reply.move.notation
    assert again.stats.iterations == reply.stats.iterations
    assert again.analysis.visits == reply.analysis.visits


def test_choose_move_shows_its_candidates_when_asked(
    served: Served, game_case: tuple[str, Any]
) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=7)
    request = pb.ChooseMoveRequest(
        game=name,
        state_json=game_ops.encode_state(game, state),
        seat=game.current_player(state),
        settings=pb.SearchSettings(iterations=300, workers=1),
        seed=4,
    )
    plain = served.stub.ChooseMove(request, timeout=30)
    assert list(plain.candidates) == []
    request.top_k = 3
    shown = served.stub.ChooseMove(request, timeout=30)
    # The candidates do not change the move or the search.
    assert shown.move.notation == plain.move.notation
    assert shown.stats.iterations == plain.stats.iterations
    legal = {game.action_to_str(state, a) for a in game.legal_actions(state)}
    assert 1 <= len(shown.candidates) <= min(3, len(legal))
    assert [c.rank for c in shown.candidates] == list(range(1, len(shown.candidates) + 1))
    visits = [c.visits for c in shown.candidates]
    assert visits == sorted(visits, reverse=True)
    assert {c.move.notation for c in shown.candidates} <= legal
    if shown.analysis.rank <= len(shown.candidates):
        chosen = shown.candidates[shown.analysis.rank - 1]
        assert chosen.move.notation == shown.move.notation
        assert chosen.visits == shown.analysis.visits


def test_analyze_ranks_moves(served: Served, game_case: tuple[str, Any]) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=6)
    reply = served.stub.Analyze(
        pb.AnalyzeRequest(
            game=name,
            state_json=game_ops.encode_state(game, state),
            seat=game.current_player(state),
            settings=pb.SearchSettings(iterations=80),
            seed=1,
            top_k=2,
        ),
        timeout=30,
    )
    assert reply.final
    assert 1 <= len(reply.moves) <= 2
    assert [m.rank for m in reply.moves] == list(range(1, len(reply.moves) + 1))
    visits = [m.visits for m in reply.moves]
    assert visits == sorted(visits, reverse=True)
    for m in reply.moves:
        assert 0.0 <= m.value <= 1.0
        assert m.lower_bound <= m.value
        assert m.principal_variation[0] == m.move.notation


def test_analyze_reports_every_seats_value_from_its_one_search(
    served: Served, game_case: tuple[str, Any]
) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=6)
    seat = game.current_player(state)
    reply = served.stub.Analyze(
        pb.AnalyzeRequest(
            game=name,
            state_json=game_ops.encode_state(game, state),
            seat=seat,
            settings=pb.SearchSettings(iterations=200, workers=1),
            seed=1,
        ),
        timeout=30,
    )
    best = reply.moves[0]
    assert len(reply.seat_values) == game.num_players(state)
    assert list(reply.seat_values) == list(best.seat_values)
    assert reply.seat_values[seat] == best.value
    assert all(0.0 <= v <= 1.0 for v in reply.seat_values)
    for m in reply.moves:
        assert m.HasField("value") == (m.visits > 0) == bool(m.seat_values)


def test_a_forced_move_is_searched_by_an_analysis_and_left_unvalued_by_choose_move(
    served: Served,
) -> None:
    game = load("legend_raiders")
    state = forced_decision("legend_raiders", {"players": 3}, 1)
    seat = game.current_player(state)
    encoded = game_ops.encode_state(game, state)
    settings = pb.SearchSettings(iterations=120, workers=1)
    analysis = served.stub.Analyze(
        pb.AnalyzeRequest(game="legend_raiders", state_json=encoded, seat=seat,
                          settings=settings, seed=2),
        timeout=30,
    )
    (only,) = analysis.moves
    assert analysis.stats.stopped_by != "single_move"
    assert only.visits == analysis.stats.iterations > 0
    assert only.HasField("value") and only.HasField("lower_bound")
    assert len(analysis.seat_values) == 3 and analysis.seat_values[seat] == only.value
    chosen = served.stub.ChooseMove(
        pb.ChooseMoveRequest(game="legend_raiders", state_json=encoded, seat=seat,
                             settings=settings, seed=2, top_k=1),
        timeout=30,
    )
    assert chosen.stats.stopped_by == "single_move" and chosen.stats.iterations == 0
    assert chosen.move.notation == only.move.notation
    for unsearched in (chosen.analysis, chosen.candidates[0]):
        assert unsearched.visits == 0
        assert not unsearched.HasField("value") and not unsearched.HasField("lower_bound")
        assert list(unsearched.seat_values) == []


def test_a_preset_analyses_deeper_than_it_plays(served: Served) -> None:
    """ChooseMove with a preset plays its rated budget; Analyze searches its analysis budget."""
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=6)
    common = dict(
        game="legend_raiders",
        state_json=game_ops.encode_state(game, state),
        seat=game.current_player(state),
        preset="easy",
        seed=1,
    )
    played = served.stub.ChooseMove(pb.ChooseMoveRequest(**common), timeout=30)
    analysed = served.stub.Analyze(pb.AnalyzeRequest(**common, top_k=1), timeout=30)
    play = resolve_preset("easy", "legend_raiders", "auto")
    analysis = resolve_preset("easy", "legend_raiders", "auto", analysis=True)
    assert 0 < played.stats.iterations <= (play.iterations or 0)
    assert 0 < analysed.stats.iterations <= (analysis.iterations or 0)
    if (analysis.iterations or 0) > (play.iterations or 0):  # on the native core
        assert analysed.stats.iterations > (play.iterations or 0)


def test_analyze_stream_sends_partials_then_a_final(
    served: Served, game_case: tuple[str, Any]
) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=7)
    messages = list(
        served.stub.AnalyzeStream(
            pb.AnalyzeStreamRequest(
                analysis=pb.AnalyzeRequest(
                    game=name,
                    state_json=game_ops.encode_state(game, state),
                    seat=game.current_player(state),
                    settings=pb.SearchSettings(iterations=120),
                    seed=2,
                    top_k=3,
                ),
                every_iterations=30,
            ),
            timeout=30,
        )
    )
    assert messages[-1].final
    assert not any(m.final for m in messages[:-1])
    if messages[-1].stats.iterations > 30:
        assert len(messages) >= 2
        counts = [m.stats.iterations for m in messages]
        assert counts == sorted(counts)
        assert all(m.stats.stopped_by == "running" for m in messages[:-1])


def test_analyze_stream_by_time(served: Served) -> None:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=8)
    messages = list(
        served.stub.AnalyzeStream(
            pb.AnalyzeStreamRequest(
                analysis=pb.AnalyzeRequest(
                    game="legend_raiders",
                    state_json=game_ops.encode_state(game, state),
                    seat=game.current_player(state),
                    settings=pb.SearchSettings(iterations=1_000_000, time_ms=400),
                ),
                every_ms=50,
            ),
            timeout=30,
        )
    )
    assert messages[-1].final
    assert messages[-1].stats.stopped_by in ("time", "early_stop")
    if messages[-1].stats.stopped_by == "time":
        assert 2 <= len(messages) <= 12  # about one every 50 ms of a 400 ms search


def test_new_game_player_count(served: Served) -> None:
    game = load("legend_raiders")
    by_field = served.stub.NewGame(
        pb.NewGameRequest(game="legend_raiders", players=3, seed=4), timeout=10
    )
    by_option = served.stub.NewGame(
        pb.NewGameRequest(game="legend_raiders", options_json=b'{"players": 3}', seed=4),
        timeout=10,
    )
    assert by_field.state_json == by_option.state_json
    assert by_field.summary.num_players == 3
    assert game.num_players(game_ops.decode_state(game, by_field.state_json)) == 3
    leda = served.stub.NewGame(pb.NewGameRequest(game="leda", players=2, seed=4), timeout=10)
    assert leda.summary.num_players == 2
