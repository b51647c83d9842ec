"""Errors are bounded and machine-readable; refusals of the token are visible."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path
from typing import Any

import grpc
import orjson
import pytest
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from boardbot.jobs import game_ops
from boardbot.jobs.failures import MAX_MESSAGE_CHARS, Reason
from boardbot.jobs.request_bounds import MAX_STATE_BYTES, MAX_TOP_K
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.service.server import ServerConfig, plaintext_token_warning
from tests.service.positions import decision_state, load
from tests.service.servers import Served, error_details, start_server, wait_until

Code = grpc.StatusCode
DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"
HUGE = "x" * 20_000


def _refusal(call: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value


def _legend_raiders() -> tuple[Any, dict[str, Any], int]:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=5)
    return state, orjson.loads(game_ops.encode_state(game, state)), game.current_player(state)


def _choose(data: dict[str, Any] | bytes, seat: int, **fields: Any) -> pb.ChooseMoveRequest:
    raw = data if isinstance(data, bytes) else orjson.dumps(data)
    values: dict[str, Any] = {"game": "legend_raiders", "state_json": raw, "seat": seat}
    values.update(fields)
    values.setdefault("settings", pb.SearchSettings(iterations=10))
    return pb.ChooseMoveRequest(**values)


def _expect(error: grpc.RpcError, code: grpc.StatusCode, reason: str, field: str = "") -> None:
    assert error.code() == code, error.details()
    assert len(error.details() or "") <= MAX_MESSAGE_CHARS + 40
    info, violations = error_details(error)
    assert info.reason == reason
    if field:
        assert info.metadata["field"] == field
        assert violations and violations[0][0].startswith(field)
        assert violations[0][1] == error.details()


def test_huge_game_name_is_not_found_with_a_short_message(served: Served) -> None:
    _, data, seat = _legend_raiders()
    for call in (
        lambda: served.stub.NewGame(pb.NewGameRequest(game=HUGE), timeout=10),
        lambda: served.stub.ChooseMove(
            pb.ChooseMoveRequest(game=HUGE, state_json=orjson.dumps(data), seat=seat),
            timeout=10,
        ),
    ):
        error = _refusal(call)
        _expect(error, Code.NOT_FOUND, "UNKNOWN_GAME", "game")
        assert "20000 characters in all" in (error.details() or "")


def test_huge_preset_name_is_not_found_with_a_short_message(served: Served) -> None:
    _, data, seat = _legend_raiders()
    error = _refusal(lambda: served.stub.ChooseMove(_choose(data, seat, preset=HUGE), timeout=10))
    _expect(error, Code.NOT_FOUND, "UNKNOWN_PRESET", "preset")


def test_huge_string_inside_a_state_gives_a_short_message(served: Served) -> None:
    _, data, seat = _legend_raiders()
    data["players"][0]["tools"] = {HUGE: 1}
    error = _refusal(lambda: served.stub.ChooseMove(_choose(data, seat), timeout=10))
    _expect(error, Code.INVALID_ARGUMENT, "INVALID_STATE", "state_json")
    info, violations = error_details(error)
    assert len(info.metadata["json_path"]) <= 250
    assert len(violations[0][0]) <= 300


def test_oversized_fields_are_refused_by_size(served: Served) -> None:
    _, data, seat = _legend_raiders()
    padded = orjson.dumps(data) + b" " * MAX_STATE_BYTES
    error = _refusal(lambda: served.stub.ChooseMove(_choose(padded, seat), timeout=10))
    _expect(error, Code.INVALID_ARGUMENT, "FIELD_TOO_LARGE", "state_json")
    error = _refusal(
        lambda: served.stub.ApplyMove(
            pb.ApplyMoveRequest(
                game="legend_raiders", state_json=orjson.dumps(data), notation="a" * 300
            ),
            timeout=10,
        )
    )
    _expect(error, Code.INVALID_ARGUMENT, "FIELD_TOO_LARGE", "notation")


def test_each_kind_of_refusal_has_its_reason(served: Served) -> None:
    _, data, seat = _legend_raiders()
    raw = orjson.dumps(data)
    stub = served.stub
    cases: list[tuple[Any, grpc.StatusCode, str, str]] = [
        (lambda: stub.ChooseMove(_choose(b"{", seat), timeout=10),
         Code.INVALID_ARGUMENT, "MALFORMED_JSON", "state_json"),
        (lambda: stub.ChooseMove(_choose(b"", seat), timeout=10),
         Code.INVALID_ARGUMENT, "MISSING_FIELD", "state_json"),
        (lambda: stub.ChooseMove(_choose(data, 9), timeout=10),
         Code.INVALID_ARGUMENT, "INVALID_SEAT", "seat"),
        (lambda: stub.ChooseMove(_choose(data, 1 - seat), timeout=10),
         Code.FAILED_PRECONDITION, "NOT_SEAT_TO_MOVE", "seat"),
        (lambda: stub.ChooseMove(
            _choose(data, seat, settings=pb.SearchSettings(iterations=0)), timeout=10),
         Code.INVALID_ARGUMENT, "INVALID_SETTINGS", "settings.iterations"),
        (lambda: stub.ChooseMove(
            _choose(data, seat, settings=pb.SearchSettings(exploration=1e9)), timeout=10),
         Code.INVALID_ARGUMENT, "INVALID_SETTINGS", "settings.exploration"),
        (lambda: stub.Analyze(
            pb.AnalyzeRequest(game="legend_raiders", state_json=raw, seat=seat,
                              top_k=MAX_TOP_K + 1), timeout=10),
         Code.INVALID_ARGUMENT, "INVALID_FIELD", "top_k"),
        (lambda: list(stub.AnalyzeStream(
            pb.AnalyzeStreamRequest(
                analysis=pb.AnalyzeRequest(game="legend_raiders", state_json=raw, seat=seat),
                every_ms=10**9), timeout=10)),
         Code.INVALID_ARGUMENT, "INVALID_FIELD", "every_ms"),
        (lambda: stub.ApplyMove(
            pb.ApplyMoveRequest(game="legend_raiders", state_json=raw, notation="fly:moon"),
            timeout=10),
         Code.INVALID_ARGUMENT, "INVALID_MOVE", "notation"),
        (lambda: stub.ApplyMove(
            pb.ApplyMoveRequest(game="legend_raiders", state_json=raw, move_json=b"{}"),
            timeout=10),
         Code.INVALID_ARGUMENT, "INVALID_MOVE", "move_json"),
        (lambda: stub.ApplyMove(pb.ApplyMoveRequest(game="legend_raiders", state_json=raw),
                                timeout=10),
         Code.INVALID_ARGUMENT, "MISSING_FIELD", "move"),
        (lambda: stub.NewGame(
            pb.NewGameRequest(game="legend_raiders", options_json=b'{"players": 9}'),
            timeout=10),
         Code.INVALID_ARGUMENT, "INVALID_OPTIONS", "options_json"),
        (lambda: stub.NewGame(pb.NewGameRequest(), timeout=10),
         Code.INVALID_ARGUMENT, "MISSING_FIELD", "game"),
    ]  # fmt: skip
    for call, code, reason, field in cases:
        _expect(_refusal(call), code, reason, field)


def test_option_paths_are_inside_the_options_document(served: Served) -> None:
    request = pb.NewGameRequest(game="leda", options_json=b'{"clans": ["dragons", "cats"]}')
    error = _refusal(lambda: served.stub.NewGame(request, timeout=10))
    _expect(error, Code.INVALID_ARGUMENT, "INVALID_OPTIONS", "options_json")
    info, violations = error_details(error)
    assert info.metadata["json_path"] == "$.clans[0]"
    assert violations[0][0] == "options_json.clans[0]"
    assert (error.details() or "").startswith("options_json $.clans[0]: unknown value 'dragons'")


def test_an_illegal_move_is_told_apart_from_an_unreadable_one(served: Served) -> None:
    _, data, _ = _legend_raiders()
    raw = orjson.dumps(data)
    for notation, reason in (("stop", "ILLEGAL_MOVE"), ("prepare:9", "INVALID_MOVE")):
        error = _refusal(
            lambda n=notation: served.stub.ApplyMove(
                pb.ApplyMoveRequest(game="legend_raiders", state_json=raw, notation=n),
                timeout=10,
            )
        )
        _expect(error, Code.INVALID_ARGUMENT, reason, "notation")


def test_every_reason_is_documented() -> None:
    text = DOCS.read_text()
    for reason in Reason:
        assert f"`{reason.value}`" in text, f"docs/api.md does not list {reason.value}"


def test_refused_tokens_are_counted_and_logged_without_the_token() -> None:
    s = start_server(workers=1, token="s3cret-token", metrics_port=0)
    try:
        request = pb.ListGamesRequest()
        missing = _refusal(lambda: s.stub.ListGames(request, timeout=10))
        _expect(missing, Code.UNAUTHENTICATED, "MISSING_TOKEN")
        wrong = _refusal(
            lambda: s.stub.ListGames(
                request, timeout=10, metadata=[("authorization", "Bearer guess-1")]
            )
        )
        _expect(wrong, Code.UNAUTHENTICATED, "WRONG_TOKEN")
        stream = _refusal(lambda: list(s.stub.AnalyzeStream(pb.AnalyzeStreamRequest(), timeout=10)))
        _expect(stream, Code.UNAUTHENTICATED, "MISSING_TOKEN")

        method = "/boardbot.v1.BoardBot/ListGames"
        metrics = s.server.metrics
        assert metrics.auth_refused_count(method, "MISSING_TOKEN") == 1
        assert metrics.auth_refused_count(method, "WRONG_TOKEN") == 1
        url = f"http://127.0.0.1:{s.server.metrics_port}/metrics"
        with urllib.request.urlopen(url, timeout=5) as response:
            text = response.read().decode()
        assert f'boardbot_auth_refused_total{{method="{method}",reason="WRONG_TOKEN"}} 1' in text

        assert wait_until(lambda: s.log.getvalue().count("UNAUTHENTICATED") >= 3, timeout=5)
        lines = [orjson.loads(x) for x in s.log.getvalue().splitlines() if "UNAUTH" in x]
        assert {line["reason"] for line in lines} == {"MISSING_TOKEN", "WRONG_TOKEN"}
        assert all(re.match(r"ipv[46]:", line["peer"]) for line in lines)
        assert {line["method"] for line in lines} == {"ListGames", "AnalyzeStream"}
        assert "guess-1" not in s.log.getvalue() and "s3cret" not in s.log.getvalue()

        # Reflection describes only the public contract and stays open, like health.
        reflection = reflection_pb2_grpc.ServerReflectionStub(s.channel)
        asked = iter([reflection_pb2.ServerReflectionRequest(list_services="")])
        replies = list(reflection.ServerReflectionInfo(asked, timeout=10))
        names = {svc.name for svc in replies[0].list_services_response.service}
        assert "boardbot.v1.BoardBot" in names
    finally:
        s.close()


def test_plaintext_token_off_loopback_is_warned_about() -> None:
    assert plaintext_token_warning(ServerConfig(host="0.0.0.0", token="t")) is not None
    assert plaintext_token_warning(ServerConfig(host="10.1.2.3", token="t")) is not None
    assert plaintext_token_warning(ServerConfig(host="127.0.0.1", token="t")) is None
    assert plaintext_token_warning(ServerConfig(host="localhost", token="t")) is None
    assert plaintext_token_warning(ServerConfig(host="[::1]", token="t")) is None
    assert plaintext_token_warning(ServerConfig(host="0.0.0.0")) is None
    with_tls = ServerConfig(host="0.0.0.0", token="t", tls_cert=Path("c"), tls_key=Path("k"))
    assert plaintext_token_warning(with_tls) is None


def test_metrics_listen_on_loopback_unless_told_otherwise() -> None:
    assert ServerConfig().metrics_host == "127.0.0.1"
    s = start_server(workers=1, metrics_port=0)
    try:
        metrics_server: Any = s.server._metrics_server
        assert metrics_server.server_address[0] == "127.0.0.1"
    finally:
        s.close()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("specials", 4112),
        ("specials", 9007199254740993),
        ("food", 2**64 - 1),
        ("military", 2**64 - 1),
    ],
)
def test_unbounded_leda_numbers_are_refused_at_once(served: Served, field: str, value: int) -> None:
    """Numbers past their bound never reach the engine: no endless step, no INTERNAL."""
    game = load("leda")
    state = decision_state(game, {}, seed=8)
    data = orjson.loads(game_ops.encode_state(game, state))
    data["players"][0][field] = value
    raw = orjson.dumps(data)
    seat = game.current_player(state)
    calls = [
        lambda: served.stub.ChooseMove(
            pb.ChooseMoveRequest(game="leda", state_json=raw, seat=seat, preset="easy"),
            timeout=30,
        ),
        lambda: served.stub.ApplyMove(
            pb.ApplyMoveRequest(
                game="leda",
                state_json=raw,
                notation=game.action_to_str(state, game.legal_actions(state)[0]),
            ),
            timeout=30,
        ),
    ]
    for call in calls:
        error = _refusal(call)
        _expect(error, Code.INVALID_ARGUMENT, "INVALID_STATE", "state_json")
        info, _ = error_details(error)
        assert info.metadata["json_path"] == f"$.players[0].{field}"
