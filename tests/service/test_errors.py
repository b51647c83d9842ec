"""The error matrix: every bad request gets its status and a helpful message, and the server
keeps answering correctly afterwards."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import orjson
import pytest

from boardbot.engine import registry
from boardbot.jobs import game_ops
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from tests.service.positions import decision_state, load, terminal_state
from tests.service.servers import MAX_MESSAGE_BYTES, Served, error_details, start_server

Code = grpc.StatusCode


def _call_error(call: Callable[[], Any]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value


def _assert_still_serving(served: Served) -> None:
    """A good request after a bad one gets a correct answer."""
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=21)
    reply = served.stub.ChooseMove(
        pb.ChooseMoveRequest(
            game="legend_raiders",
            state_json=game_ops.encode_state(game, state),
            seat=game.current_player(state),
            settings=pb.SearchSettings(iterations=20),
        ),
        timeout=30,
    )
    assert reply.move.notation in {game.action_to_str(state, a) for a in game.legal_actions(state)}


def _state_dict(
    name: str, options: dict[str, Any], seed: int = 1, observer: int | None = None
) -> tuple[Any, dict[str, Any]]:
    game = load(name)
    state = decision_state(game, options, seed)
    return state, orjson.loads(game_ops.encode_state(game, state, observer))


def _legend_raiders_corruptions() -> list[tuple[str, Callable[[dict[str, Any]], None], str]]:
    def duplicate_card(d: dict[str, Any]) -> None:
        d["deck"].append(d["deck"][0])

    def negative_count(d: dict[str, Any]) -> None:
        d["bag"]["compass"] = -1

    def impossible_count(d: dict[str, Any]) -> None:
        d["bag"]["compass"] = 99

    def wrong_type(d: dict[str, Any]) -> None:
        d["players"][0]["points"] = "many"

    def player_out_of_range(d: dict[str, Any]) -> None:
        d["turn"]["player"] = 7

    def unknown_card(d: dict[str, Any]) -> None:
        d["deck"][0] = "die-9"

    def unknown_tile(d: dict[str, Any]) -> None:
        d["stack"][0] = "atlantis-2"

    return [
        ("unknown-card-id", unknown_card, "$.deck[0]"),
        ("unknown-tile-id", unknown_tile, "$.stack[0]"),
        ("duplicated-card", duplicate_card, "$.deck["),
        ("negative-count", negative_count, "$.bag.compass"),
        ("impossible-count", impossible_count, "$.bag.compass"),
        ("wrong-type", wrong_type, "$.players[0].points"),
        ("player-out-of-range", player_out_of_range, "$.turn.player"),
    ]


def _leda_corruptions() -> list[tuple[str, Callable[[dict[str, Any]], None], str]]:
    def duplicate_card(d: dict[str, Any]) -> None:
        d["players"][0]["hand"].append(d["players"][0]["hand"][0])

    def impossible_count(d: dict[str, Any]) -> None:
        # In seat 0's view the opponent's hand is a count; 40 cards cannot be hidden there.
        d["players"][1]["hand"]["count"] = 40

    def negative_count(d: dict[str, Any]) -> None:
        d["players"][0]["food"] = -1

    def wrong_type(d: dict[str, Any]) -> None:
        d["players"][0]["food"] = "lots"

    def unknown_clan(d: dict[str, Any]) -> None:
        d["players"][0]["clan"] = "dragons"

    def unknown_card(d: dict[str, Any]) -> None:
        d["players"][0]["hand"][0] = "panda-99"

    return [
        ("unknown-card-id", unknown_card, "$.players[0].hand[0]"),
        ("duplicated-card", duplicate_card, "$.players[0].hand"),
        ("view:impossible-count", impossible_count, "$.players[1]"),
        ("negative-count", negative_count, "$.players[0].food"),
        ("wrong-type", wrong_type, "$.players[0].food"),
        ("unknown-clan", unknown_clan, "$.players[0].clan"),
    ]


CORRUPTIONS = {
    "legend_raiders": _legend_raiders_corruptions(),
    "leda": _leda_corruptions(),
}
"""Per game: (label, mutation of the state JSON, JSON path the error must name).
A label starting with `view:` mutates seat 0's view instead of the full state."""


def _corruption_cases() -> list[Any]:
    cases = []
    for game_name, corruptions in CORRUPTIONS.items():
        for label, mutate, path in corruptions:
            for rpc in ("LegalMoves", "ChooseMove"):
                case_id = f"{game_name}-{label}-{rpc}"
                view = label.startswith("view:")
                cases.append(pytest.param(game_name, mutate, path, rpc, view, id=case_id))
    return cases


def _state_request(rpc: str, game: str, raw: bytes, seat: int) -> Callable[[Served], Any]:
    def call(served: Served) -> Any:
        if rpc == "LegalMoves":
            return served.stub.LegalMoves(
                pb.LegalMovesRequest(game=game, state_json=raw, seat=seat), timeout=10
            )
        return served.stub.ChooseMove(
            pb.ChooseMoveRequest(
                game=game, state_json=raw, seat=seat, settings=pb.SearchSettings(iterations=10)
            ),
            timeout=30,
        )

    return call


@pytest.mark.parametrize(("game_name", "mutate", "path", "rpc", "view"), _corruption_cases())
def test_impossible_state_names_the_json_path(
    served: Served,
    game_name: str,
    mutate: Callable[[dict[str, Any]], None],
    path: str,
    rpc: str,
    view: bool,
) -> None:
    options = {"players": 2} if game_name == "legend_raiders" else {}
    state, data = _state_dict(game_name, options, observer=0 if view else None)
    bad = copy.deepcopy(data)
    mutate(bad)
    seat = load(game_name).current_player(state)
    error = _call_error(lambda: _state_request(rpc, game_name, orjson.dumps(bad), seat)(served))
    assert error.code() == Code.INVALID_ARGUMENT
    assert error.details().startswith("state_json $")
    assert path in error.details()
    info, violations = error_details(error)
    assert info.reason == "INVALID_STATE"
    assert info.metadata["field"] == "state_json"
    assert info.metadata["json_path"].startswith(path)
    assert [field for field, _ in violations] == ["state_json" + info.metadata["json_path"][1:]]
    _assert_still_serving(served)


@pytest.mark.parametrize("rpc", ["LegalMoves", "ChooseMove"])
@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        (b'{"players": [', "malformed JSON"),
        (b"\xff\xfe", "malformed JSON"),
        (b"[1, 2, 3]", "state_json $"),
        (b'"just a string"', "state_json $"),
        (b"", "required"),
    ],
    ids=["truncated", "not-utf8", "list", "string", "empty"],
)
def test_malformed_state(
    served: Served, game_case: tuple[str, Any], rpc: str, raw: bytes, fragment: str
) -> None:
    name, _ = game_case
    error = _call_error(lambda: _state_request(rpc, name, raw, 0)(served))
    assert error.code() == Code.INVALID_ARGUMENT
    assert fragment in error.details()
    _assert_still_serving(served)


@pytest.mark.parametrize("rpc", ["NewGame", "LegalMoves", "ChooseMove", "Analyze"])
def test_unknown_game(served: Served, rpc: str) -> None:
    raw = b"{}"
    calls: dict[str, Callable[[], Any]] = {
        "NewGame": lambda: served.stub.NewGame(pb.NewGameRequest(game="chess"), timeout=10),
        "LegalMoves": lambda: served.stub.LegalMoves(
            pb.LegalMovesRequest(game="chess", state_json=raw), timeout=10
        ),
        "ChooseMove": lambda: served.stub.ChooseMove(
            pb.ChooseMoveRequest(game="chess", state_json=raw), timeout=10
        ),
        "Analyze": lambda: served.stub.Analyze(
            pb.AnalyzeRequest(game="chess", state_json=raw), timeout=10
        ),
    }
    error = _call_error(calls[rpc])
    assert error.code() == Code.NOT_FOUND
    assert "chess" in error.details() and "legend_raiders" in error.details()


def test_bad_options(served: Served) -> None:
    error = _call_error(
        lambda: served.stub.NewGame(
            pb.NewGameRequest(game="legend_raiders", options_json=b'{"players": 9}'), timeout=10
        )
    )
    assert error.code() == Code.INVALID_ARGUMENT
    assert "options_json" in error.details() and "players" in error.details()
    error = _call_error(
        lambda: served.stub.NewGame(
            pb.NewGameRequest(game="legend_raiders", options_json=b"[2]"), timeout=10
        )
    )
    assert error.code() == Code.INVALID_ARGUMENT
    for request, fragment in [
        (pb.NewGameRequest(game="legend_raiders", players=5), "players: must be in 2..4"),
        (pb.NewGameRequest(game="leda", players=3), "players: must be in 2..2"),
        (
            pb.NewGameRequest(game="legend_raiders", players=3, options_json=b'{"players": 2}'),
            "players: 3 disagrees with options_json $.players = 2",
        ),
    ]:
        error = _call_error(lambda r=request: served.stub.NewGame(r, timeout=10))
        assert error.code() == Code.INVALID_ARGUMENT
        assert fragment in error.details()


@pytest.mark.parametrize("rpc", ["LegalMoves", "ChooseMove"])
def test_seat_out_of_range(served: Served, game_case: tuple[str, Any], rpc: str) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=2)
    raw = game_ops.encode_state(game, state)
    for seat in (game.num_players(state), -1):
        error = _call_error(lambda s=seat: _state_request(rpc, name, raw, s)(served))
        assert error.code() == Code.INVALID_ARGUMENT
        assert error.details().startswith("seat:")


@pytest.mark.parametrize("rpc", ["LegalMoves", "ChooseMove"])
def test_wrong_seat_to_move(served: Served, game_case: tuple[str, Any], rpc: str) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=2)
    seat = (game.current_player(state) + 1) % game.num_players(state)
    error = _call_error(
        lambda: _state_request(rpc, name, game_ops.encode_state(game, state), seat)(served)
    )
    assert error.code() == Code.FAILED_PRECONDITION
    assert f"seat {seat} is not to move" in error.details()


@pytest.mark.parametrize("rpc", ["LegalMoves", "ChooseMove", "ApplyMove"])
def test_terminal_state(served: Served, game_case: tuple[str, Any], rpc: str) -> None:
    name, options = game_case
    game = load(name)
    raw = game_ops.encode_state(game, terminal_state(game, options, seed=3))
    if rpc == "ApplyMove":
        call: Callable[[], Any] = lambda: served.stub.ApplyMove(  # noqa: E731
            pb.ApplyMoveRequest(game=name, state_json=raw, notation="x"), timeout=10
        )
    else:
        call = lambda: _state_request(rpc, name, raw, 0)(served)  # noqa: E731
    error = _call_error(call)
    assert error.code() == Code.FAILED_PRECONDITION
    assert "game is over" in error.details()


def test_illegal_and_unparsable_moves(served: Served, game_case: tuple[str, Any]) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=4)
    raw = game_ops.encode_state(game, state)
    requests = [
        (pb.ApplyMoveRequest(game=name, state_json=raw, notation="no-such-move"), "notation"),
        (pb.ApplyMoveRequest(game=name, state_json=raw, notation="  "), "notation"),
        (pb.ApplyMoveRequest(game=name, state_json=raw, move_json=b'{"type": 7}'), "move_json"),
        (pb.ApplyMoveRequest(game=name, state_json=raw, move_json=b"{nope"), "move_json"),
        (pb.ApplyMoveRequest(game=name, state_json=raw), "move"),
    ]
    for request, field in requests:
        error = _call_error(lambda r=request: served.stub.ApplyMove(r, timeout=10))
        assert error.code() == Code.INVALID_ARGUMENT
        assert error.details().startswith(field)
    _assert_still_serving(served)


def test_move_of_another_state_is_illegal(served: Served, game_case: tuple[str, Any]) -> None:
    name, options = game_case
    game = load(name)
    state = decision_state(game, options, seed=4)
    legal = {game.action_to_str(state, a) for a in game.legal_actions(state)}
    for seed in range(5, 40):
        other = decision_state(game, options, seed=seed, plies=seed % 9)
        foreign = [
            game.action_to_json(other, a)
            for a in game.legal_actions(other)
            if game.action_to_str(other, a) not in legal
        ]
        if foreign:
            break
    else:
        pytest.skip("no foreign move found")
    error = _call_error(
        lambda: served.stub.ApplyMove(
            pb.ApplyMoveRequest(
                game=name,
                state_json=game_ops.encode_state(game, state),
                move_json=orjson.dumps(foreign[0]),
            ),
            timeout=10,
        )
    )
    assert error.code() == Code.INVALID_ARGUMENT
    assert error.details().startswith("move_json $")


@pytest.mark.parametrize(
    ("preset", "settings", "code", "fragment"),
    [
        ("grandmaster", pb.SearchSettings(), Code.NOT_FOUND, "preset"),
        ("", pb.SearchSettings(iterations=0), Code.INVALID_ARGUMENT, "settings.iterations"),
        ("", pb.SearchSettings(time_ms=-5), Code.INVALID_ARGUMENT, "settings.time_ms"),
        ("", pb.SearchSettings(workers=64), Code.INVALID_ARGUMENT, "settings.workers"),
        ("", pb.SearchSettings(exploration=float("nan")), Code.INVALID_ARGUMENT, "exploration"),
        ("", pb.SearchSettings(temperature=-1), Code.INVALID_ARGUMENT, "temperature"),
    ],
    ids=["unknown-preset", "zero-iterations", "negative-time", "workers", "nan", "temperature"],
)
def test_bad_search_settings(
    served: Served, preset: str, settings: pb.SearchSettings, code: grpc.StatusCode, fragment: str
) -> None:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=5)
    error = _call_error(
        lambda: served.stub.ChooseMove(
            pb.ChooseMoveRequest(
                game="legend_raiders",
                state_json=game_ops.encode_state(game, state),
                seat=game.current_player(state),
                preset=preset,
                settings=settings,
            ),
            timeout=10,
        )
    )
    assert error.code() == code
    assert fragment in error.details()


def test_negative_top_k(served: Served) -> None:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=5)
    error = _call_error(
        lambda: served.stub.Analyze(
            pb.AnalyzeRequest(
                game="legend_raiders",
                state_json=game_ops.encode_state(game, state),
                seat=game.current_player(state),
                top_k=-1,
            ),
            timeout=10,
        )
    )
    assert error.code() == Code.INVALID_ARGUMENT
    assert "top_k" in error.details()


def test_oversized_message(served: Served) -> None:
    huge = b'{"pad": "' + b"x" * (MAX_MESSAGE_BYTES + 10) + b'"}'
    error = _call_error(
        lambda: served.stub.ChooseMove(
            pb.ChooseMoveRequest(game="legend_raiders", state_json=huge), timeout=10
        )
    )
    assert error.code() == Code.RESOURCE_EXHAUSTED
    _assert_still_serving(served)


def test_deadline_shorter_than_any_search(served: Served) -> None:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=6)
    request = pb.ChooseMoveRequest(
        game="legend_raiders",
        state_json=game_ops.encode_state(game, state),
        seat=game.current_player(state),
        settings=pb.SearchSettings(iterations=1_000_000, time_ms=60_000),
    )
    error = _call_error(lambda: served.stub.ChooseMove(request, timeout=0.002))
    assert error.code() == Code.DEADLINE_EXCEEDED
    _assert_still_serving(served)


def test_deadline_clips_the_search(served: Served) -> None:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=6)
    request = pb.ChooseMoveRequest(
        game="legend_raiders",
        state_json=game_ops.encode_state(game, state),
        seat=game.current_player(state),
        settings=pb.SearchSettings(iterations=1_000_000, time_ms=60_000),
    )
    reply = served.stub.ChooseMove(request, timeout=1.5)
    assert reply.stats.stopped_by in ("deadline", "early_stop")
    assert reply.move.notation in {game.action_to_str(state, a) for a in game.legal_actions(state)}


@pytest.fixture(scope="module")
def with_broken_game() -> Iterator[Served]:
    """A server that also knows a game whose rules raise an unexpected exception."""
    s = start_server(workers=1, extra_games="test-broken=tests.service.games:BrokenGame")
    yield s
    s.close()
    # Forget the test game again, so other tests see only the real registry.
    if "test-broken" in registry.list_games():
        registry.unregister_game("test-broken")


@pytest.mark.parametrize("rpc", ["LegalMoves", "ChooseMove"])
def test_engine_failure_is_internal_and_harmless(with_broken_game: Served, rpc: str) -> None:
    """An unexpected exception inside a game answers INTERNAL; thread and worker live on."""
    served = with_broken_game
    pids = served.server.pool.worker_pids()
    error = _call_error(lambda: _state_request(rpc, "test-broken", b"{}", 0)(served))
    assert error.code() == Code.INTERNAL
    if rpc == "ChooseMove":
        assert "RuntimeError: engine bug in legal_actions" in error.details()
    assert served.server.pool.worker_pids() == pids
    _assert_still_serving(served)
