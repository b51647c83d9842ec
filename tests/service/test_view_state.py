"""ViewState: a state as one seat sees it, over the wire, with its errors, log and metrics."""

from __future__ import annotations

from typing import Any

import grpc
import orjson
import pytest

from boardbot.engine import CHANCE
from boardbot.jobs import game_ops
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from tests.service.positions import decision_state, hidden_pair, load, terminal_state
from tests.service.servers import Served, error_details

Code = grpc.StatusCode


def _view(served: Served, game: str, raw: bytes, seat: int) -> pb.ViewStateResponse:
    request = pb.ViewStateRequest(game=game, state_json=raw, seat=seat)
    reply: pb.ViewStateResponse = served.stub.ViewState(request, timeout=10)
    return reply


def _refused(call: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value


def test_each_seat_gets_its_own_view(served: Served, game_case: tuple[str, Any]) -> None:
    name, options = game_case
    game = load(name)
    state, other, seat = hidden_pair(game, options, seed=3)
    raw = game_ops.encode_state(game, state)
    for s in range(game.num_players(state)):
        reply = _view(served, name, raw, s)
        assert reply.state_json == game_ops.encode_state(game, state, observer=s)
        assert orjson.loads(reply.state_json)["observer"] == s
        assert game_ops.decode_state(game, reply.state_json) == game.observe(state, s).state
        assert reply.summary.current_player == game.current_player(state)
        assert reply.summary.num_players == game.num_players(state)
        assert not reply.summary.terminal
        # The view of a view is the same view.
        assert _view(served, name, reply.state_json, s).state_json == reply.state_json
    # Two worlds the seat cannot tell apart: different full states, one view.
    other_raw = game_ops.encode_state(game, other)
    assert other_raw != raw
    seen = _view(served, name, raw, seat).state_json
    assert _view(served, name, other_raw, seat).state_json == seen


def test_a_chance_step_and_a_finished_game_have_views(served: Served) -> None:
    game = load("legend_raiders")
    new = served.stub.NewGame(
        pb.NewGameRequest(game="legend_raiders", players=3, seed=2, manual_chance=True), timeout=10
    )
    reply = _view(served, "legend_raiders", new.state_json, 2)
    state = game_ops.decode_state(game, new.state_json)
    assert reply.state_json == game_ops.encode_state(game, state, observer=2)
    assert reply.summary.current_player == CHANCE
    over = terminal_state(game, {"players": 2}, seed=5)
    reply = _view(served, "legend_raiders", game_ops.encode_state(game, over), 1)
    assert reply.summary.terminal and list(reply.summary.returns) == list(game.returns(over))


def test_a_seat_outside_the_state_is_refused(served: Served, game_case: tuple[str, Any]) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=4)
    raw = game_ops.encode_state(game, state)
    players = game.num_players(state)
    for seat in (-1, players, 99):
        error = _refused(lambda s=seat: _view(served, name, raw, s))
        assert error.code() == Code.INVALID_ARGUMENT
        assert error.details() == f"seat: must be in 0..{players - 1} for this state, got {seat}"
        info, violations = error_details(error)
        assert (info.reason, info.metadata["field"]) == ("INVALID_SEAT", "seat")
        assert [field for field, _ in violations] == ["seat"]


@pytest.mark.parametrize(
    ("game", "raw", "code", "reason", "fragment"),
    [
        ("leda", b"", Code.INVALID_ARGUMENT, "MISSING_FIELD", "state_json: required"),
        ("leda", b"{", Code.INVALID_ARGUMENT, "MALFORMED_JSON", "state_json: malformed JSON"),
        ("leda", b'{"game": "leda"}', Code.INVALID_ARGUMENT, "INVALID_STATE", "state_json $"),
        ("chess", b"{}", Code.NOT_FOUND, "UNKNOWN_GAME", "game: unknown game 'chess'"),
        ("", b"{}", Code.INVALID_ARGUMENT, "MISSING_FIELD", "game: required"),
    ],
    ids=["no-state", "malformed", "invalid", "unknown-game", "no-game"],
)
def test_bad_requests_name_the_field(
    served: Served, game: str, raw: bytes, code: grpc.StatusCode, reason: str, fragment: str
) -> None:
    error = _refused(lambda: _view(served, game, raw, 0))
    assert error.code() == code
    assert error.details().startswith(fragment)
    assert error_details(error)[0].reason == reason


def test_view_state_is_logged_and_counted(served: Served) -> None:
    game = load("leda")
    state, _, seat = hidden_pair(game, {}, seed=5)
    metrics = served.server.metrics
    ok_before = metrics.request_count("ViewState", "OK")
    _view(served, "leda", game_ops.encode_state(game, state), seat)
    _refused(lambda: _view(served, "leda", game_ops.encode_state(game, state), 7))
    assert metrics.request_count("ViewState", "OK") == ok_before + 1
    assert metrics.request_count("ViewState", "INVALID_ARGUMENT") >= 1
    records = [orjson.loads(line) for line in served.log.getvalue().splitlines()]
    views = [r for r in records if r["method"] == "ViewState" and r["game"] == "leda"]
    assert {"status": "OK"}.items() <= views[-2].items()
    assert {"status": "INVALID_ARGUMENT", "reason": "INVALID_SEAT"}.items() <= views[-1].items()
    assert views[-2]["latency_ms"] > 0
