"""The gateway serves ReviewGame as server-sent events, like AnalyzeStream."""

from __future__ import annotations

import orjson

from tests.service.records import random_record
from tests.web.gateways import RunningGateway, sse_events


def _post(gateway: RunningGateway, request: dict) -> tuple[int, dict[str, str], bytes]:
    return gateway.request(
        "POST", "/api/ReviewGame", orjson.dumps(request), {"Content-Type": "application/json"}
    )


def test_a_review_arrives_as_server_sentevents(gateway: RunningGateway) -> None:
    record = random_record("legend_raiders", seed=4, decisions=5)
    request = {"record_json": record, "settings": {"iterations": 80}, "seed": "2"}
    status, headers, body = _post(gateway, request)
    assert status == 200 and headers["Content-Type"] == "text/event-stream"
    events = sse_events(body)
    assert events[-1][0] == "end"
    messages = [data for name, data in events if name == "message"]
    *positions, last = messages
    decisions = [i for i, m in enumerate(record["moves"]) if m["seat"] >= 0]
    assert [p["position"]["index"] for p in positions] == decisions
    first = positions[0]["position"]
    assert first["played"]["move_json"] == record["moves"][first["index"]]["move"]
    assert len(first["values_before"]) == 2 and first["judgement"]
    assert [s["seat"] for s in last["summary"]["seats"]] == [0, 1]


def test_a_bad_record_is_an_error_event_naming_its_path(gateway: RunningGateway) -> None:
    record = random_record("legend_raiders", seed=4, decisions=3)
    record["moves"][0]["seat"] = 7
    status, _, body = _post(gateway, {"record_json": record})
    assert status == 200
    (name, data), = sse_events(body)
    assert name == "error" and data["error"]["code"] == "INVALID_ARGUMENT"
    assert data["error"]["reason"] == "INVALID_RECORD"
    assert data["error"]["json_path"].startswith("$.moves[0]")


def test_review_game_is_listed_among_the_calls(gateway: RunningGateway) -> None:
    status, _, body = gateway.request(
        "POST", "/api/NoSuchCall", b"{}", {"Content-Type": "application/json"}
    )
    assert status == 404 and b"ReviewGame" in body and b"AnalyzeStream" in body
