"""target_elo on the wire: validation with field paths, the knob's search, ListGames ranges."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import grpc
import orjson
import pytest

from boardbot.jobs import game_ops
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from tests.search.strength_tables import serve_table
from tests.service.positions import decision_state, load
from tests.service.servers import Served, error_details

Code = grpc.StatusCode
GAME = "legend_raiders"


@pytest.fixture
def calibrated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two-player Legend Raiders calibrated (synthetic points), read by the server process."""
    return serve_table(tmp_path, monkeypatch, GAME)


def _position(players: int = 2, seed: int = 5) -> tuple[bytes, int]:
    game = load(GAME)
    state = decision_state(game, {"players": players}, seed=seed)
    return game_ops.encode_state(game, state), game.current_player(state)


def _choose(**fields: Any) -> pb.ChooseMoveRequest:
    raw, seat = _position()
    values: dict[str, Any] = {"game": GAME, "state_json": raw, "seat": seat, "seed": 3}
    values.update(fields)
    return pb.ChooseMoveRequest(**values)


def _refused(call: Any, code: grpc.StatusCode, reason: str, field: str) -> str:
    with pytest.raises(grpc.RpcError) as info:
        call()
    error = info.value
    assert error.code() == code, error.details()
    details, violations = error_details(error)
    assert details.reason == reason
    assert details.metadata["field"] == field
    assert violations and violations[0][0] == field
    return str(error.details())


def test_choose_move_at_a_target_elo(served: Served, calibrated: Path) -> None:
    reply = served.stub.ChooseMove(_choose(target_elo=400.0), timeout=60)
    assert reply.stats.settings.iterations == 20  # geometric mean of the 10 and 40 points
    assert reply.stats.settings.workers == 1
    assert reply.stats.random_move_share == 0.0 and not reply.stats.random_move
    again = served.stub.ChooseMove(_choose(target_elo=400.0), timeout=60)
    assert again.move.notation == reply.move.notation
    assert again.stats.iterations == reply.stats.iterations


def test_below_the_search_points_a_seeded_share_of_moves_is_random(
    served: Served, calibrated: Path
) -> None:
    replies = [
        served.stub.ChooseMove(_choose(target_elo=150.0, seed=seed), timeout=60)
        for seed in range(12)
    ]
    assert {r.stats.random_move_share for r in replies} == {0.5}
    drawn = [r for r in replies if r.stats.random_move]
    assert 0 < len(drawn) < len(replies)
    for reply in drawn:
        assert reply.stats.iterations == 0 and reply.stats.stopped_by == "random_move"
    again = [served.stub.ChooseMove(_choose(target_elo=150.0, seed=s), timeout=60) for s in (0, 1)]
    assert [r.move.notation for r in again] == [r.move.notation for r in replies[:2]]
    bottom = served.stub.ChooseMove(_choose(target_elo=0.0), timeout=60)
    assert bottom.stats.random_move and bottom.stats.random_move_share == 1.0


def test_analyze_uses_the_config_and_never_random_moves(served: Served, calibrated: Path) -> None:
    raw, seat = _position()
    request = pb.AnalyzeRequest(game=GAME, state_json=raw, seat=seat, target_elo=0.0, top_k=3)
    reply = served.stub.Analyze(request, timeout=60)
    assert reply.stats.settings.iterations == 10 and reply.stats.iterations > 0
    assert reply.stats.random_move_share == 0.0 and not reply.stats.random_move
    stream = pb.AnalyzeStreamRequest(analysis=request, every_iterations=5)
    last = list(served.stub.AnalyzeStream(stream, timeout=60))[-1]
    assert last.final and last.stats.settings.iterations == 10


def test_time_ms_may_cap_a_target(served: Served, calibrated: Path) -> None:
    settings = pb.SearchSettings(time_ms=5000.0)
    reply = served.stub.ChooseMove(_choose(target_elo=650.0, settings=settings), timeout=60)
    assert reply.stats.settings.time_ms == 5000.0 and reply.stats.settings.iterations == 160


def test_wire_validation_names_the_field(served: Served, calibrated: Path) -> None:
    stub = served.stub
    message = _refused(
        lambda: stub.ChooseMove(_choose(target_elo=400.0, preset="easy"), timeout=10),
        Code.INVALID_ARGUMENT, "PRESET_AND_ELO", "target_elo",
    )
    assert "preset" in message
    for target in (-1.0, 651.0, math.nan, math.inf):
        message = _refused(
            lambda t=target: stub.ChooseMove(_choose(target_elo=t), timeout=10),
            Code.INVALID_ARGUMENT, "ELO_OUT_OF_RANGE", "target_elo",
        )
        assert "[0, 650]" in message or "finite" in message
        if math.isfinite(target):
            # Worded as every range refusal (the knob's, a match's elo=N), naming the range.
            assert message == (
                f"target_elo: target Elo {target:g} is outside the calibrated range of "
                "legend_raiders: [0, 650] with 2 players"
            )
    _refused(
        lambda: stub.ChooseMove(
            _choose(target_elo=400.0, settings=pb.SearchSettings(iterations=5)), timeout=10
        ),
        Code.INVALID_ARGUMENT, "SETTINGS_AND_ELO", "settings.iterations",
    )
    raw, seat = _position()
    analyze = pb.AnalyzeRequest(game=GAME, state_json=raw, seat=seat, target_elo=1e9)
    _refused(lambda: stub.Analyze(analyze, timeout=10),
             Code.INVALID_ARGUMENT, "ELO_OUT_OF_RANGE", "target_elo")


def test_games_without_calibration_are_refused(served: Served, calibrated: Path) -> None:
    game = load("leda")
    state = decision_state(game, {}, seed=2)
    request = pb.ChooseMoveRequest(
        game="leda", state_json=game_ops.encode_state(game, state),
        seat=game.current_player(state), target_elo=400.0,
    )
    message = _refused(lambda: served.stub.ChooseMove(request, timeout=10),
                       Code.FAILED_PRECONDITION, "NOT_CALIBRATED", "target_elo")
    assert "leda" in message
    raw, seat = _position(players=4)
    four = pb.ChooseMoveRequest(game=GAME, state_json=raw, seat=seat, target_elo=400.0)
    message = _refused(lambda: served.stub.ChooseMove(four, timeout=30),
                       Code.FAILED_PRECONDITION, "NOT_CALIBRATED", "target_elo")
    assert "4 players" in message


def test_list_games_advertises_the_calibrated_range(served: Served, calibrated: Path) -> None:
    games = {g.name: g for g in served.stub.ListGames(pb.ListGamesRequest(), timeout=10).games}
    assert list(games["leda"].strength_ranges) == []
    (strength,) = games[GAME].strength_ranges
    assert (strength.players, strength.min_elo, strength.max_elo) == (2, 0.0, 650.0)
    assert strength.engine in ("native", "python")


def test_the_request_log_records_the_target(served: Served, calibrated: Path) -> None:
    served.stub.ChooseMove(_choose(target_elo=300.0, seed=11), timeout=60)
    lines = [orjson.loads(line) for line in served.log.getvalue().splitlines() if line]
    assert any(line.get("target_elo") == 300.0 for line in lines)
