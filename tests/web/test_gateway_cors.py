"""Pages at another origin: `--allow-origin` values, preflights and the CORS headers of answers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import orjson
import pytest

from boardbot.service.client import BotClient
from boardbot.web.cors import MAX_AGE_S
from boardbot.web.gateway import Gateway, GatewayConfig
from boardbot.web.origins import MAX_ORIGINS, OriginError, parse_origin, parse_origins
from tests.service.servers import Served
from tests.web.gateways import RunningGateway, sse_events
from tests.web.raw_http import FakeClient

ALLOWED = "http://127.0.0.1:8001"
ALSO_ALLOWED = "https://game.example"
FOREIGN = "http://evil.example"
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def sharing(served: Served) -> Iterator[RunningGateway]:
    """A gateway that lets pages at ALLOWED and ALSO_ALLOWED call it."""
    running = RunningGateway(served.address, allow_origins=(ALLOWED, ALSO_ALLOWED))
    yield running
    running.close()


def _cors_headers(headers: dict[str, str]) -> dict[str, str]:
    return {
        name: value
        for name, value in headers.items()
        if name.startswith("Access-Control-") or name == "Vary"
    }


def _preflight(
    gateway: RunningGateway,
    path: str,
    origin: str,
    method: str = "POST",
    headers: str = "content-type",
) -> tuple[int, dict[str, str], bytes]:
    asked = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers:
        asked["Access-Control-Request-Headers"] = headers
    return gateway.request("OPTIONS", path, headers=asked)


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:8001",
        "https://game.example",
        "http://localhost:3000",
        "http://[::1]:5173",
        "https://sub.game-site.example:8443",
    ],
)
def test_an_origin_as_a_browser_writes_it_is_accepted(origin: str) -> None:
    assert parse_origin(origin) == origin


@pytest.mark.parametrize(
    ("origin", "says"),
    [
        ("*", "refused"),
        ("null", "refused"),
        ("game.example", "scheme"),
        ("ftp://game.example", "scheme"),
        ("http://game.example/", "no path"),
        ("http://game.example/play", "no path"),
        ("http://game.example?x=1", "no path"),
        ("http://user@game.example", "user name"),
        ("http://Game.Example", "'http://game.example'"),
        ("HTTP://game.example", "'http://game.example'"),
        ("http://game.example:80", "'http://game.example'"),
        ("https://game.example:443", "'https://game.example'"),
        ("http://[::0001]:80", "'http://[::1]'"),
        ("http://game.example:0", "port"),
        ("http://game.example:70000", "out of range"),
        ("http://127.1", "written in full"),
        ("http://under_score.example", "no host name"),
        ("http://", "no host name"),
        ("http://" + "a" * 300, "longer than"),
    ],
)
def test_anything_else_is_refused_saying_why(origin: str, says: str) -> None:
    with pytest.raises(OriginError) as raised:
        parse_origin(origin)
    assert says in str(raised.value)


def test_the_number_of_origins_is_bounded() -> None:
    many = [f"http://127.0.0.1:{9000 + n}" for n in range(MAX_ORIGINS + 1)]
    assert len(parse_origins(many[:MAX_ORIGINS])) == MAX_ORIGINS
    with pytest.raises(OriginError, match=f"at most {MAX_ORIGINS}"):
        parse_origins(many)


def test_a_gateway_refuses_a_bad_origin_in_its_config() -> None:
    client = cast(BotClient, FakeClient(stub=None))
    with pytest.raises(OriginError, match="refused"):
        Gateway(GatewayConfig("127.0.0.1", 0, client, allow_origins=("*",)))


def test_a_call_from_an_allowed_origin_is_answered_with_its_origin(
    sharing: RunningGateway,
) -> None:
    for origin in (ALLOWED, ALSO_ALLOWED):
        status, headers, body = sharing.request(
            "POST", "/api/ListGames", b"{}", {**JSON, "Origin": origin}
        )
        assert status == 200, body
        assert _cors_headers(headers) == {"Access-Control-Allow-Origin": origin, "Vary": "Origin"}
        assert orjson.loads(body)["games"]


def test_error_answers_to_an_allowed_origin_carry_it_too(sharing: RunningGateway) -> None:
    answers = [
        sharing.request("POST", "/api/NewGame", b'{"nope": 1}', {**JSON, "Origin": ALLOWED}),
        sharing.request("POST", "/api/Nothing", b"{}", {**JSON, "Origin": ALLOWED}),
        sharing.request("POST", "/api/NewGame", b"{}", {"Origin": ALLOWED}),  # no JSON type
        sharing.request(
            "POST", "/api/NewGame", b'{"game": "chess"}', {**JSON, "Origin": ALLOWED}
        ),  # refused by the server: no such game
    ]
    assert [status for status, _, _ in answers] == [400, 404, 415, 404]
    for status, headers, body in answers:
        assert headers.get("Access-Control-Allow-Origin") == ALLOWED, status
        assert headers.get("Vary") == "Origin", status
        assert orjson.loads(body)["error"]["code"], status


def test_an_origin_not_allowed_is_still_refused(sharing: RunningGateway) -> None:
    for origin in (FOREIGN, "http://127.0.0.1:8002", "https://127.0.0.1:8001", ALLOWED + "/"):
        status, headers, body = sharing.request(
            "POST", "/api/ListGames", b"{}", {**JSON, "Origin": origin}
        )
        assert status == 403, origin
        assert orjson.loads(body)["error"]["code"] == "PERMISSION_DENIED"
        assert "Access-Control-Allow-Origin" not in headers
        assert headers["Vary"] == "Origin"


def test_the_stream_routes_answer_an_allowed_origin(sharing: RunningGateway) -> None:
    _, started = sharing.call("NewGame", {"game": "leda", "seed": "3"})
    request = {
        "analysis": {
            "game": "leda",
            "state_json": started["state_json"],
            "seat": started["summary"]["current_player"],
            "settings": {"iterations": 400},
        },
        "every_iterations": 200,
    }
    status, headers, body = sharing.request(
        "POST", "/api/AnalyzeStream", orjson.dumps(request), {**JSON, "Origin": ALLOWED}
    )
    assert status == 200 and headers["Content-Type"] == "text/event-stream"
    assert _cors_headers(headers) == {"Access-Control-Allow-Origin": ALLOWED, "Vary": "Origin"}
    assert sse_events(body)[-1][0] == "end"
    status, headers, _ = sharing.request(
        "POST", "/api/ReviewGame", b"{}", {**JSON, "Origin": FOREIGN}
    )
    assert status == 403 and "Access-Control-Allow-Origin" not in headers


def test_a_preflight_from_an_allowed_origin_is_answered(sharing: RunningGateway) -> None:
    for path in ("/api/ChooseMove", "/api/AnalyzeStream", "/api/ReviewGame", "/api/NewGame"):
        status, headers, body = _preflight(sharing, path, ALLOWED)
        assert status == 204 and body == b"", path
        assert _cors_headers(headers) == {
            "Access-Control-Allow-Origin": ALLOWED,
            "Access-Control-Allow-Methods": "POST",
            "Access-Control-Allow-Headers": "content-type",
            "Access-Control-Max-Age": str(MAX_AGE_S),
            "Vary": "Origin",
        }
    status, headers, _ = _preflight(
        sharing, "/api/games/leda/components", ALSO_ALLOWED, "GET", headers=""
    )
    assert status == 204
    assert headers["Access-Control-Allow-Methods"] == "GET"
    assert headers["Access-Control-Allow-Origin"] == ALSO_ALLOWED
    status, _, _ = _preflight(sharing, "/api/ListGames", ALLOWED, headers="Content-Type")
    assert status == 204  # header names are not case-sensitive


@pytest.mark.parametrize(
    ("path", "method", "headers", "says"),
    [
        ("/api/ChooseMove", "PUT", "content-type", "method 'PUT'"),
        ("/api/ChooseMove", "GET", "content-type", "method 'GET'"),
        ("/api/ChooseMove", "", "content-type", "method ''"),
        ("/api/games/leda/components", "POST", "", "method 'POST'"),
        ("/api/ChooseMove", "POST", "content-type, authorization", "'authorization'"),
        ("/api/ChooseMove", "POST", "x-boardbot-token", "'x-boardbot-token'"),
    ],
)
def test_a_preflight_of_a_method_or_header_not_allowed_is_refused(
    sharing: RunningGateway, path: str, method: str, headers: str, says: str
) -> None:
    status, answered, body = _preflight(sharing, path, ALLOWED, method, headers)
    assert status == 403
    assert says in orjson.loads(body)["error"]["message"]
    assert "Access-Control-Allow-Methods" not in answered


def test_a_preflight_from_an_origin_not_allowed_is_forbidden(
    sharing: RunningGateway, gateway: RunningGateway
) -> None:
    for running in (sharing, gateway):
        status, headers, body = _preflight(running, "/api/ChooseMove", FOREIGN)
        assert status == 403
        assert orjson.loads(body)["error"]["code"] == "PERMISSION_DENIED"
        assert "Access-Control-Allow-Origin" not in headers
    status, _, _ = _preflight(gateway, "/api/ChooseMove", ALLOWED)  # allowed elsewhere only
    assert status == 403


def test_a_preflight_of_no_route_is_not_found(sharing: RunningGateway) -> None:
    for path in ("/api/Nothing", "/", "/static/app.js", "/api/games/chess/components"):
        status, _, _ = _preflight(sharing, path, ALLOWED)
        assert status == 404, path


def test_a_plain_options_says_what_the_route_accepts(gateway: RunningGateway) -> None:
    status, headers, _ = gateway.request("OPTIONS", "/api/ChooseMove")
    assert status == 204 and headers["Allow"] == "POST, OPTIONS"
    assert _cors_headers(headers) == {}


def test_component_data_is_shared_with_an_allowed_origin_only(sharing: RunningGateway) -> None:
    path = "/api/games/leda/components"
    status, headers, _ = sharing.request("GET", path, headers={"Origin": ALLOWED})
    assert status == 200 and headers["Access-Control-Allow-Origin"] == ALLOWED
    status, headers, _ = sharing.request("GET", path, headers={"Origin": FOREIGN})
    assert status == 200 and "Access-Control-Allow-Origin" not in headers


def test_the_pages_own_files_are_never_shared(sharing: RunningGateway) -> None:
    for path in ("/", "/static/app.js"):
        status, headers, _ = sharing.request("GET", path, headers={"Origin": ALLOWED})
        assert status == 200 and _cors_headers(headers) == {}, path


def test_without_allowed_origins_nothing_changes(gateway: RunningGateway) -> None:
    answers = [
        gateway.request("POST", "/api/ListGames", b"{}", JSON),
        gateway.request("POST", "/api/ListGames", b"{}", {**JSON, "Origin": gateway.url}),
        gateway.request("POST", "/api/ListGames", b"{}", {**JSON, "Origin": ALLOWED}),
        gateway.request("GET", "/api/games/leda/components", headers={"Origin": ALLOWED}),
    ]
    assert [status for status, _, _ in answers] == [200, 200, 403, 200]
    for status, headers, _ in answers:
        assert _cors_headers(headers) == {}, status
