"""The web phase's case generator and oracles, against a tiny fake HTTP server (no gateway)."""

from __future__ import annotations

import socket
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from fuzz.web_cases import (
    IDLE_PROBE_AT,
    STREAM_PROBE_AT,
    WebCase,
    WebCaseFactory,
    load_corpus,
    post_headers,
    request,
)
from fuzz.web_http import exchange, parse_head
from fuzz.web_judge import frame_protected, judge, outcome_of, printed_failures
from fuzz.web_target import tracebacks

Reply = Callable[[socket.socket, bytes], None]
"""What the fake server does with a connection, given the request head it read."""


@contextmanager
def fake_server(reply: Reply) -> Iterator[int]:
    """A loopback server that reads a request head and hands the connection to `reply`."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(5)
                head = b""
                try:
                    while b"\r\n\r\n" not in head and (chunk := conn.recv(65536)):
                        head += chunk
                    reply(conn, head)
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        listener.close()


def answer_with(status: int, headers: bytes = b"", body: bytes = b"{}") -> Reply:
    def reply(conn: socket.socket, head: bytes) -> None:
        conn.sendall(b"HTTP/1.0 %d X\r\n" % status + headers
                     + b"Content-Length: %d\r\n\r\n" % len(body) + body)
    return reply


def drop(conn: socket.socket, head: bytes) -> None:
    """Close without a word (the old gateway after an exception)."""


def _case(label: str = "x", data: bytes | None = None, **fields: object) -> WebCase:
    body = b"{}"
    data = data if data is not None else request(b"POST", b"/api/ListGames",
                                                 post_headers(body), body)
    return WebCase(0, "test", label, data, **fields)  # type: ignore[arg-type]


def _kinds(case: WebCase, port: int, printed: str = "", timeout: float = 5.0) -> list[str]:
    answer = exchange(port, case.data, timeout, case.half_close)
    return [f.kind for f in judge(case, answer, printed)]


@pytest.fixture(scope="module")
def factory() -> WebCaseFactory:
    return WebCaseFactory(1, load_corpus()[:8])


def test_same_seed_same_cases_other_seed_other_cases(factory: WebCaseFactory) -> None:
    again = WebCaseFactory(1, factory.corpus)
    other = WebCaseFactory(2, factory.corpus)
    assert [factory.case(i) for i in range(60)] == [again.case(i) for i in range(60)]
    assert [factory.case(i).data for i in range(60)] != [other.case(i).data for i in range(60)]


def test_probes_come_on_schedule(factory: WebCaseFactory) -> None:
    assert factory.case(IDLE_PROBE_AT).category == "idle"
    stream = factory.case(STREAM_PROBE_AT)
    assert stream.category == "stream" and b"every_ms" in stream.data
    assert b'"every_ms": 60000' in stream.data


def test_the_generator_covers_each_hostile_kind(factory: WebCaseFactory) -> None:
    cases = [factory.case(i) for i in range(1500)]
    labels = Counter(c.label for c in cases)
    for label in ("host:malformed", "origin:malformed", "static:nul-raw", "static:long-name",
                  "body:nested", "body:state-json-nested", "transfer-encoding:chunked",
                  "content-length:duplicate-differing", "content-length:missing",
                  "body:huge", "body:invalid-json", "body:wrong-type", "page"):
        assert labels[label] > 0, label
    assert any(b"Host: [\r\n" in c.data for c in cases)
    assert any(b"Origin: http://[\r\n" in c.data for c in cases)
    assert any(c.data.count(b"[") > 600 or c.data.count(b'{"a":') > 600 for c in cases)
    chunked = [c for c in cases if c.label == "transfer-encoding:chunked"]
    assert all(c.expect == {411} for c in chunked)
    assert all(c.outside for c in cases if c.label.startswith("static:traversal"))


def test_a_connection_closed_without_an_answer_is_a_failure() -> None:
    with fake_server(drop) as port:
        assert _kinds(_case(), port) == ["no-answer"]
        # ... but an empty request line may be dropped
        assert _kinds(_case(data=b"\r\n\r\n", statusless_ok=True), port) == []


def test_an_answer_without_status_line_is_right_only_for_http_0_9() -> None:
    def bare(conn: socket.socket, head: bytes) -> None:
        conn.sendall(b"<html>error</html>")

    with fake_server(bare) as port:
        assert _kinds(_case(data=b"GET / HTTP/1.1 extra\r\n\r\n"), port) == ["no-status-line"]
        assert _kinds(_case(data=b"GET /x HTTP/0.9\r\n\r\n"), port) == []
        assert _kinds(_case(data=b"GET  HTTP/1.1\r\n\r\n"), port) == []


def test_undocumented_5xx_is_a_failure_503_and_504_are_not() -> None:
    with fake_server(answer_with(500)) as port:
        assert _kinds(_case(), port) == ["status-500"]
        assert _kinds(_case(allowed_5xx=frozenset({500})), port) == []
    for status in (503, 504):
        with fake_server(answer_with(status)) as port:
            assert _kinds(_case(), port) == []


def test_a_required_status_is_checked() -> None:
    chunked = _case("transfer-encoding:chunked", expect=frozenset({411}))
    with fake_server(answer_with(400)) as port:
        assert _kinds(chunked, port) == ["not-411"]
    with fake_server(answer_with(411)) as port:
        assert _kinds(chunked, port) == []


def test_200_outside_static_is_a_failure() -> None:
    case = _case("static:traversal", request(b"GET", b"/static/../gateway.py",
                                             [(b"Host", b"127.0.0.1")]), outside=True)
    with fake_server(answer_with(200)) as port:
        assert _kinds(case, port) == ["outside-static"]
    with fake_server(answer_with(404)) as port:
        assert _kinds(case, port) == []


@pytest.mark.parametrize(
    ("headers", "protected"),
    [
        (b"", False),
        (b"X-Frame-Options: DENY\r\n", True),
        (b"X-Frame-Options: sameorigin\r\n", True),
        (b"Content-Security-Policy: default-src 'self'; frame-ancestors 'none'\r\n", True),
        (b"Content-Security-Policy: default-src 'self'\r\n", False),
    ],
)
def test_the_page_must_forbid_framing(headers: bytes, protected: bool) -> None:
    case = _case("page", request(b"GET", b"/", [(b"Host", b"127.0.0.1")]), page=True)
    with fake_server(answer_with(200, headers, b"<html></html>")) as port:
        answer = exchange(port, case.data, 5)
        assert frame_protected(answer) is protected
        assert [f.kind for f in judge(case, answer, "")] == (
            [] if protected else ["no-frame-protection"])


def test_an_answer_before_the_whole_body_is_read() -> None:
    body = b" " * (8 * 1024 * 1024)
    case = _case("body:huge", request(b"POST", b"/api/ListGames", post_headers(body), body))
    with fake_server(answer_with(413)) as port:
        answer = exchange(port, case.data, 10)
    assert answer.status == 413 and answer.sent < len(case.data)
    assert outcome_of(answer) == "413"


def test_no_answer_in_time_is_a_timeout() -> None:
    def silent(conn: socket.socket, head: bytes) -> None:
        conn.recv(1)  # until the client gives up

    with fake_server(silent) as port:
        assert _kinds(_case(), port, timeout=0.5) == ["timeout"]


def test_a_printed_traceback_is_a_failure_placed_in_the_project() -> None:
    printed = (
        '127.0.0.1 - - [x] "GET / HTTP/1.1" 200 -\n'
        "Traceback (most recent call last):\n"
        '  File "/work/main/web/gateway.py", line 230, in _host_allowed\n'
        "    host = urlsplit(...)\n"
        '  File "/usr/lib/python3.11/urllib/parse.py", line 497, in urlsplit\n'
        "    raise ValueError\n"
        "ValueError: Invalid IPv6 URL\n"
    )
    assert tracebacks(printed) == [
        ("ValueError: Invalid IPv6 URL",
         'File "/work/main/web/gateway.py", line 230, in _host_allowed')]
    (failure,) = printed_failures(printed)
    assert failure.signature() == "traceback|ValueError|web/gateway.py:230"
    assert printed_failures('127.0.0.1 - - "GET / HTTP/1.1" 200 -\n') == []


def test_parse_head_reads_status_and_repeated_headers() -> None:
    status, headers = parse_head(b"HTTP/1.1 411 Length Required\r\nA: 1\r\na: 2\r\n\r\nbody")
    assert status == 411 and headers == {"a": ["1", "2"]}
    assert parse_head(b"<html>") == (0, {})
