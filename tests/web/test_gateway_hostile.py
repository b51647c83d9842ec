"""Hostile requests to the gateway: each gets an HTTP answer, and the gateway stays up."""

from __future__ import annotations

import re

import pytest

from boardbot.web.security_headers import SECURITY_HEADERS
from boardbot.web.static_files import STATIC_DIR
from boardbot.web.wire import MAX_BODY_DEPTH
from tests.web.gateways import RunningGateway
from tests.web.raw_http import FakeClient, exchange, json_of, post, serving, status_of


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def _still_serving(gateway: RunningGateway) -> None:
    status, answer = gateway.call("ListGames", {})
    assert status == 200 and answer["games"]


def test_a_body_nested_too_deep_is_refused(gateway: RunningGateway) -> None:
    for depth in (MAX_BODY_DEPTH + 1, 600, 2000):
        answer = exchange(
            gateway.gateway.port, post("/api/NewGame", b'{"x": ' + _nested(depth) + b"}")
        )
        assert status_of(answer) == 400, depth
        assert json_of(answer)["error"]["code"] == "INVALID_ARGUMENT"
    _still_serving(gateway)


def test_a_state_nested_too_deep_is_answered(gateway: RunningGateway) -> None:
    # As a document it is part of the body, and bounded with it.
    body = b'{"game": "leda", "seat": 0, "state_json": ' + _nested(300) + b"}"
    answer = exchange(gateway.gateway.port, post("/api/ViewState", body))
    assert status_of(answer) == 400
    assert "state_json" in json_of(answer)["error"]["message"]
    # As pasted text it travels as it is, and the server answers.
    status, refused = gateway.call(
        "ViewState", {"game": "leda", "seat": 0, "state_json": _nested(300).decode()}
    )
    assert status == 400 and refused["error"]["field"] == "state_json"
    _still_serving(gateway)


def test_a_body_within_the_depth_bound_reaches_the_server(gateway: RunningGateway) -> None:
    inner = b'{"a": ' * (MAX_BODY_DEPTH - 2) + b"1" + b"}" * (MAX_BODY_DEPTH - 2)
    answer = exchange(
        gateway.gateway.port,
        post("/api/ViewState", b'{"game": "leda", "seat": 0, "state_json": ' + inner + b"}"),
    )
    assert status_of(answer) == 400
    assert json_of(answer)["error"]["reason"] == "INVALID_STATE"  # the server's own verdict


@pytest.mark.parametrize(
    ("header", "method"),
    [(b"Host: [", "GET"), (b"Host: [", "POST"), (b"Origin: http://[", "POST")],
)
def test_malformed_host_or_origin_is_a_bad_request(
    gateway: RunningGateway, header: bytes, method: str
) -> None:
    if method == "GET":
        data = b"GET / HTTP/1.1\r\n" + header + b"\r\n\r\n"
    elif header.startswith(b"Host"):
        data = b"POST /api/ListGames HTTP/1.1\r\n" + header + b"\r\nContent-Length: 0\r\n\r\n"
    else:
        data = post("/api/ListGames", b"{}", header + b"\r\n")
    answer = exchange(gateway.gateway.port, data)
    assert status_of(answer) == 400
    assert json_of(answer)["error"]["code"] == "INVALID_ARGUMENT"


def test_two_host_headers_are_a_bad_request(gateway: RunningGateway) -> None:
    data = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n"
    assert status_of(exchange(gateway.gateway.port, data)) == 400


@pytest.mark.parametrize(
    "path",
    [
        b"/static/app\x00.js",
        b"/static/app%00.js",
        b"/static/" + b"a" * 300 + b".js",
        b"/static/" + b"a/" * 2000 + b"x.js",
        b"/static/.hidden",
        b"/static/games/../app.js",
        b"//[",
        b"/static/app.js/",
    ],
)
def test_odd_static_paths_are_not_found(gateway: RunningGateway, path: bytes) -> None:
    answer = exchange(
        gateway.gateway.port, b"GET " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    )
    assert status_of(answer) == 404, answer[:200]
    assert json_of(answer)["error"]["code"] == "NOT_FOUND"


def test_nested_page_files_are_still_served(gateway: RunningGateway) -> None:
    for file in sorted(STATIC_DIR.rglob("*.*")):
        path = "/static/" + file.relative_to(STATIC_DIR).as_posix()
        status, _, body = gateway.request("GET", path)
        assert status == 200 and body == file.read_bytes(), path


def test_a_chunked_body_is_refused_with_length_required(gateway: RunningGateway) -> None:
    for encoding in (b"chunked", b"gzip, chunked", b"identity"):
        data = (
            b"POST /api/ListGames HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: " + encoding + b"\r\n\r\n"
            b"2\r\n{}\r\n0\r\n\r\n"
        )
        answer = exchange(gateway.gateway.port, data)
        assert status_of(answer) == 411, encoding
        assert json_of(answer)["error"]["code"] == "INVALID_ARGUMENT"


@pytest.mark.parametrize(
    "lengths",
    [
        b"Content-Length: 2\r\nContent-Length: 2\r\n",
        b"Content-Length: 2\r\nContent-Length: 40\r\n",
        b"Content-Length: 2, 2\r\n",
        b"Content-Length: +2\r\n",
        b"Content-Length: -1\r\n",
        b"Content-Length: 2_0\r\n",
    ],
)
def test_doubtful_content_lengths_are_a_bad_request(
    gateway: RunningGateway, lengths: bytes
) -> None:
    data = (
        b"POST /api/ListGames HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\n" + lengths + b"\r\n{}"
    )
    answer = exchange(gateway.gateway.port, data)
    assert status_of(answer) == 400, lengths
    assert json_of(answer)["error"]["code"] == "INVALID_ARGUMENT"


def test_a_body_shorter_than_announced_is_a_bad_request(gateway: RunningGateway) -> None:
    import socket

    with socket.create_connection(("127.0.0.1", gateway.gateway.port), timeout=20) as sock:
        sock.sendall(post("/api/ListGames", b"{}").replace(b"Length: 2", b"Length: 9"))
        sock.shutdown(socket.SHUT_WR)  # the body ends early
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert status_of(answer) == 400 and b"ended after 2 of 9 bytes" in answer


def test_every_answer_forbids_framing_and_type_guessing(gateway: RunningGateway) -> None:
    answers = [
        gateway.request("GET", "/"),
        gateway.request("GET", "/static/app.js"),
        gateway.request("GET", "/nothing"),
        gateway.request("POST", "/api/ListGames", b"{}", {"Content-Type": "application/json"}),
    ]
    for status, headers, _ in answers:
        assert headers["X-Frame-Options"] == "DENY", status
        assert headers["X-Content-Type-Options"] == "nosniff", status
        policy = headers["Content-Security-Policy"]
        for directive in (
            "default-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
            "base-uri 'none'",
        ):
            assert directive in policy, directive
    assert set(SECURITY_HEADERS) <= set(answers[0][1])


def test_the_page_needs_no_inline_script() -> None:
    page = (STATIC_DIR / "index.html").read_text()
    scripts = re.findall(r"<script\b[^>]*>", page)
    assert scripts and all(" src=" in tag for tag in scripts)
    assert not re.search(r"\son[a-z]+\s*=", page)  # no inline event handlers
    assert "<style" not in page and "javascript:" not in page


class _BrokenCall:
    def future(self, *args: object, **kwargs: object) -> None:
        raise RuntimeError("a fault of the gateway's own")


class _BrokenStub:
    ListGames = _BrokenCall()

    def AnalyzeStream(self, *args: object, **kwargs: object) -> object:
        return iter([object()])  # no message: converting it fails after the answer started


def test_a_fault_inside_the_gateway_is_a_500_not_a_dropped_connection() -> None:
    with serving(FakeClient(_BrokenStub())) as gateway:
        answer = exchange(gateway.port, post("/api/ListGames", b"{}"))
        assert status_of(answer) == 500
        assert json_of(answer)["error"]["code"] == "INTERNAL"
        streamed = exchange(gateway.port, post("/api/AnalyzeStream", b"{}"))
        assert status_of(streamed) == 200
        assert b"event: error\n" in streamed and b'"INTERNAL"' in streamed
        assert status_of(exchange(gateway.port, post("/api/ListGames", b"{}"))) == 500


@pytest.mark.parametrize("digits", [b"4194305", b"99999999999999999999", b"9" * 5000])
def test_a_length_past_the_bound_is_too_large(gateway: RunningGateway, digits: bytes) -> None:
    data = (
        b"POST /api/ListGames HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: " + digits + b"\r\n\r\n{}"
    )
    assert status_of(exchange(gateway.gateway.port, data)) == 413


@pytest.mark.parametrize(
    ("line", "status"),
    [
        (b"GET / HTTP/1.1.1", 400),
        (b"GET  HTTP/1.1", 404),  # read as an HTTP/0.9 request for the page "HTTP/1.1"
        (b"GET / FOO/1.1", 400),
        (b"GET / HTTP/2.0", 505),
        (b"BREW / HTTP/1.1", 501),
    ],
)
def test_a_request_line_http_refuses_still_gets_a_status_line(
    gateway: RunningGateway, line: bytes, status: int
) -> None:
    answer = exchange(gateway.gateway.port, line + b"\r\nHost: 127.0.0.1\r\n\r\n")
    assert status_of(answer) == status, answer[:80]
    assert json_of(answer)["error"]["message"]
