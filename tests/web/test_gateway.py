"""The gateway of `boardbot web`: JSON calls, the analysis stream, errors and its guards."""

from __future__ import annotations

import orjson

from boardbot.engine import get_game
from boardbot.web.gateway import IDLE_TIMEOUT_S
from boardbot.web.security_headers import SECURITY_HEADERS
from tests.service.servers import Served
from tests.web.gateways import RunningGateway, sse_events


def _new_game(gateway: RunningGateway, game: str = "legend_raiders", **extra: object) -> dict:
    status, answer = gateway.call("NewGame", {"game": game, "seed": "3", **extra})
    assert status == 200, answer
    return answer


def test_page_and_its_files_are_served(gateway: RunningGateway) -> None:
    status, headers, body = gateway.request("GET", "/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b"/static/app.js" in body
    for path in ("/static/app.js", "/static/api.js", "/static/style.css"):
        status, headers, _ = gateway.request("GET", path)
        assert status == 200, path


def test_files_outside_the_page_are_not_served(gateway: RunningGateway) -> None:
    for path in ("/static/../gateway.py", "/static/%2e%2e/gateway.py", "/etc/passwd", "/static/"):
        status, _, body = gateway.request("GET", path)
        assert status == 404, path
        assert orjson.loads(body)["error"]["code"] == "NOT_FOUND"


def test_each_games_component_data_is_the_file_its_engines_read(gateway: RunningGateway) -> None:
    _, page_headers, _ = gateway.request("GET", "/static/app.js")
    for game in ("leda", "legend_raiders"):
        status, headers, body = gateway.request("GET", f"/api/games/{game}/components")
        data_file = get_game(game).game_type.components
        assert status == 200 and data_file is not None, game
        assert body == data_file.read_bytes()
        assert headers["Content-Type"] == "application/json"
        assert headers["Content-Length"] == str(len(body))
        for name in ("Cache-Control", *SECURITY_HEADERS):
            assert headers[name] == page_headers[name], name
    assert orjson.loads(body)["tools"][0]["id"] == "compass"


def test_component_data_of_no_game_is_not_found(gateway: RunningGateway) -> None:
    for path in (
        "/api/games/chess/components",
        "/api/games/leda/components/extra",
        "/api/games/leda",
        "/api/games/../leda/components",
        "/api/games/%6ceda/components",
        "/api/games//components",
        f"/api/games/{'x' * 65}/components",
    ):
        status, headers, body = gateway.request("GET", path)
        assert status == 404, path
        assert orjson.loads(body)["error"]["code"] == "NOT_FOUND"
        assert headers["X-Content-Type-Options"] == "nosniff"


def test_state_documents_travel_as_json_not_bytes(gateway: RunningGateway) -> None:
    started = _new_game(gateway)
    assert isinstance(started["state_json"], dict)
    assert started["state_json"]["game"] == "legend_raiders"
    seat = started["summary"]["current_player"]
    status, listed = gateway.call(
        "LegalMoves", {"game": "legend_raiders", "state_json": started["state_json"], "seat": seat}
    )
    assert status == 200
    first = listed["moves"][0]
    assert isinstance(first["move_json"], dict) and first["notation"]
    status, applied = gateway.call(
        "ApplyMove",
        {
            "game": "legend_raiders",
            "state_json": started["state_json"],
            "move_json": first["move_json"],
        },
    )
    assert status == 200 and applied["move"]["notation"] == first["notation"]


def test_a_seat_view_hides_what_the_seat_cannot_see(gateway: RunningGateway) -> None:
    started = _new_game(gateway, "leda")
    status, seen = gateway.call(
        "ViewState", {"game": "leda", "state_json": started["state_json"], "seat": 0}
    )
    assert status == 200
    assert seen["state_json"]["observer"] == 0
    assert isinstance(seen["state_json"]["players"][1]["hand"], dict)  # a count, not the cards
    assert started["state_json"]["observer"] is None


def test_a_bad_state_names_the_json_path(gateway: RunningGateway) -> None:
    started = _new_game(gateway, "leda")
    state = started["state_json"]
    state["players"][0]["food"] = -5
    status, answer = gateway.call("ViewState", {"game": "leda", "state_json": state, "seat": 0})
    assert status == 400
    error = answer["error"]
    assert error["code"] == "INVALID_ARGUMENT" and error["reason"] == "INVALID_STATE"
    assert error["field"] == "state_json" and error["json_path"] == "$.players[0].food"


def test_pasted_text_that_is_not_json_reaches_the_server_as_it_is(gateway: RunningGateway) -> None:
    status, answer = gateway.call("ViewState", {"game": "leda", "state_json": "{oops", "seat": 0})
    assert status == 400 and answer["error"]["reason"] == "MALFORMED_JSON"


def test_failures_of_the_gateway_itself_are_errors_too(gateway: RunningGateway) -> None:
    status, _, body = gateway.request(
        "POST", "/api/NewGame", b"[1]", {"Content-Type": "application/json"}
    )
    assert status == 400 and b"expected a JSON object" in body
    status, _, body = gateway.request(
        "POST", "/api/NewGame", b'{"nope": 1}', {"Content-Type": "application/json"}
    )
    assert status == 400 and b"nope" in body
    status, _, body = gateway.request(
        "POST", "/api/Nothing", b"{}", {"Content-Type": "application/json"}
    )
    assert status == 404 and b"AnalyzeStream" in body
    status, _, _ = gateway.request("POST", "/api/NewGame", b"{}", {"Content-Type": "text/plain"})
    assert status == 415


def test_other_sites_cannot_call_it(gateway: RunningGateway) -> None:
    headers = {"Content-Type": "application/json", "Origin": "http://evil.example"}
    status, _, _ = gateway.request("POST", "/api/ListGames", b"{}", headers)
    assert status == 403
    status, _, _ = gateway.request("GET", "/", headers={"Host": "evil.example:8080"})
    assert status == 403


def test_analyze_stream_arrives_as_server_sentevents(gateway: RunningGateway) -> None:
    started = _new_game(gateway)
    request = {
        "analysis": {
            "game": "legend_raiders",
            "state_json": started["state_json"],
            "seat": started["summary"]["current_player"],
            "settings": {"iterations": 3000},
            "top_k": 3,
        },
        "every_iterations": 500,
    }
    status, headers, body = gateway.request(
        "POST", "/api/AnalyzeStream", orjson.dumps(request), {"Content-Type": "application/json"}
    )
    assert status == 200 and headers["Content-Type"] == "text/event-stream"
    events = sse_events(body)
    assert events[-1][0] == "end"
    partials = [data for name, data in events if name == "message"]
    assert len(partials) >= 2 and partials[-1]["final"] is True
    assert 1 <= len(partials[-1]["moves"]) <= 3
    assert isinstance(partials[-1]["moves"][0]["move"]["move_json"], dict)


def test_a_stream_refused_by_the_server_is_an_error_event(gateway: RunningGateway) -> None:
    request = {"analysis": {"game": "leda", "state_json": {"game": "leda"}, "seat": 0}}
    status, _, body = gateway.request(
        "POST", "/api/AnalyzeStream", orjson.dumps(request), {"Content-Type": "application/json"}
    )
    assert status == 200
    (name, data), = sse_events(body)
    assert name == "error" and data["error"]["code"] == "INVALID_ARGUMENT"


def test_a_server_that_is_down_is_unavailable() -> None:
    running = RunningGateway("127.0.0.1:1")
    try:
        status, answer = running.call("ListGames", {})
    finally:
        running.close()
    assert status == 503 and answer["error"]["code"] == "UNAVAILABLE"


def test_a_client_that_sends_nothing_frees_its_thread(gateway: RunningGateway) -> None:
    import socket

    assert IDLE_TIMEOUT_S <= 5
    with socket.create_connection(("127.0.0.1", gateway.gateway.port), timeout=5) as sock:
        sock.sendall(
            b"POST /api/ListGames HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 10\r\n\r\n"
        )
        # The body never comes: meanwhile the gateway answers others.
        status, _ = gateway.call("ListGames", {})
        assert status == 200


def test_a_deadline_is_the_servers_error_code(gateway: RunningGateway, served: Served) -> None:
    started = _new_game(gateway, "leda")
    # 200 ms leaves the search less than the test server's deadline margin (250 ms).
    running = RunningGateway(served.address, timeout_s=0.2)
    try:
        seat = started["summary"]["current_player"]
        status, answer = running.call(
            "Analyze", {"game": "leda", "state_json": started["state_json"], "seat": seat}
        )
    finally:
        running.close()
    assert status == 504 and answer["error"]["code"] == "DEADLINE_EXCEEDED"
