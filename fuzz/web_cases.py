"""Cases of the web phase: raw HTTP requests to the gateway, and the probes between them.

Case *i* of a run is made from the run's seed and *i* alone (`WebCaseFactory.case`), so the
same seed sends the same bytes. A case carries what its answer must be: any answer at all
by default, a given status for the cases the gateway must refuse in one way (a chunked body:
411; two different Content-Lengths: 400), never 200 for a path outside the page's files, and
frame protection on the page itself. Two probes are scheduled by index: many idle sockets,
and an AnalyzeStream whose socket is closed while its search runs (fuzz.web_probes).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from fuzz.repro import REPO_ROOT

HOST = b"127.0.0.1"
ORIGIN = b"http://127.0.0.1"
JSON_TYPE = b"application/json"
SEARCH_METHODS = ("ChooseMove", "Analyze", "AnalyzeStream")
RULES_METHODS = ("ListGames", "NewGame", "LegalMoves", "ApplyMove", "ViewState")
STATIC_FILES = ("app.js", "api.js", "style.css", "index.html", "games/leda.js",
                "games/legend_raiders.js", "games/generic.js", "games/dom.js",
                "games/leda_data.js", "games/lr_data.js", "games/boards.css")
COMPONENT_PATHS = (b"/api/games/leda/components", b"/api/games/legend_raiders/components")
"""The games' component data the page reads (GET, like the static files)."""
MAX_BODY_BYTES = 4 * 1024 * 1024
DOCUMENTED_5XX = frozenset({503, 504})
"""5xx answers the gateway documents: busy (503) and a call past its deadline (504)."""

IDLE_PROBE_EVERY, IDLE_PROBE_AT = 6000, 500
STREAM_PROBE_EVERY, STREAM_PROBE_AT = 1000, 700
"""Probe schedule: case i is a probe when i % EVERY == AT (both within a run's first
seconds, after the quick requests had their start)."""


@dataclass(frozen=True)
class WebCase:
    """One request (or probe) and what its answer must be."""

    index: int
    category: str
    """`headers`, `length`, `body`, `static`, `method`, `valid`, or a probe: `idle`, `stream`."""
    label: str
    """The kind of hostile input, class-stable (`host:malformed`); part of failure signatures."""
    data: bytes = b""
    half_close: bool = False
    expect: frozenset[int] = frozenset()
    """The statuses allowed (empty: any status except an undocumented 5xx)."""
    allowed_5xx: frozenset[int] = DOCUMENTED_5XX
    outside: bool = False
    """The path names a file outside the page's files: 200 is a failure."""
    page: bool = False
    """The answer is the page: a 200 must forbid framing."""
    statusless_ok: bool = False
    """No status line is right here (an HTTP/0.9 request; an empty request line)."""
    params: dict[str, Any] = field(default_factory=dict)
    """A probe's parameters."""

    def describe(self) -> str:
        """A short readable form: category, label and the request's first line."""
        first = self.data.split(b"\r\n", 1)[0][:120].decode("latin-1")
        return f"#{self.index} {self.label}: {first!r}" if self.data else (
            f"#{self.index} {self.label} {self.params}")


def request(
    method: bytes,
    target: bytes,
    headers: list[tuple[bytes, bytes]],
    body: bytes = b"",
    version: bytes = b"HTTP/1.1",
) -> bytes:
    """A request written as given: no header is added, none repaired."""
    head = method + b" " + target + (b" " + version if version else b"") + b"\r\n"
    for name, value in headers:
        head += name + b": " + value + b"\r\n"
    return head + b"\r\n" + body


def post_headers(body: bytes, host: bytes = HOST, origin: bytes | None = ORIGIN) -> list[
        tuple[bytes, bytes]]:
    """The headers of a well-formed call: Host, Origin, JSON and its length."""
    found = [(b"Host", host), (b"Content-Type", JSON_TYPE)]
    if origin is not None:
        found.append((b"Origin", origin))
    return [*found, (b"Content-Length", str(len(body)).encode())]


def load_corpus() -> list[dict[str, Any]]:
    """The load-test corpus states: game, seat and state of each."""
    entries: list[dict[str, Any]] = []
    for path in sorted((REPO_ROOT / "loadtest" / "corpus").glob("*.json")):
        for entry in json.loads(path.read_text(encoding="utf-8")):
            entries.append({"game": entry["game"], "seat": entry["seat"],
                            "state": entry["state"], "options": entry.get("options", {})})
    return entries


def nested_text(depth: int, rng: random.Random) -> bytes:
    """Nesting written directly (for depths the encoder itself refuses)."""
    opener, closer = rng.choice(((b"[", b"]"), (b'{"a":', b"}")))
    return opener * depth + b"0" + closer * depth


class WebCaseFactory:
    """Makes case *i* of a run from the run's seed."""

    def __init__(self, run_seed: int, corpus: list[dict[str, Any]] | None = None,
                 stream_ms: float = 29_000.0) -> None:
        self.run_seed = run_seed
        self.stream_ms = stream_ms
        """The abandoned stream's time budget (within the server's --max-time-ms)."""
        self.corpus = corpus if corpus is not None else load_corpus()
        self.outside_targets = _outside_targets()

    def case(self, index: int) -> WebCase:
        """Case `index`: a probe at its scheduled indices, else a request drawn by weight."""
        rng = random.Random(f"web:{self.run_seed}:{index}")
        if index % IDLE_PROBE_EVERY == IDLE_PROBE_AT:
            return self._idle(index, rng)
        if index % STREAM_PROBE_EVERY == STREAM_PROBE_AT:
            return self._stream(index, rng)
        makers = [
            (self._headers, 22), (self._length, 14), (self._body, 26), (self._static, 24),
            (self._method, 5), (self._valid, 9),
        ]
        maker = rng.choices([m for m, _ in makers], [w for _, w in makers])[0]
        return maker(index, rng)

    # -- probes ------------------------------------------------------------------------------

    def _idle(self, index: int, rng: random.Random) -> WebCase:
        mode = rng.choice(("silent", "partial-line", "partial-headers", "partial-body"))
        return WebCase(index, "idle", "idle-sockets", params={
            "sockets": 300, "mode": mode, "wait_s": 10.0, "max_threads": 100})

    def _stream(self, index: int, rng: random.Random) -> WebCase:
        entry = self._entry(rng)
        body = {
            "analysis": {"game": entry["game"], "state_json": entry["state"],
                         "seat": entry["seat"], "preset": "beginner",
                         "settings": {"time_ms": self.stream_ms, "iterations": 1_000_000},
                         "seed": rng.randrange(1000)},
            "every_ms": 60000,
        }
        data = json.dumps(body).encode()
        close = rng.choice(("close", "reset"))
        return WebCase(index, "stream", "stream-abandoned",
                       request(b"POST", b"/api/AnalyzeStream", post_headers(data), data),
                       params={"close": close, "busy_limit_s": 1.0})

    # -- requests -----------------------------------------------------------------------------

    def _entry(self, rng: random.Random) -> dict[str, Any]:
        return rng.choice(self.corpus)

    def _valid_body(self, method: str, rng: random.Random) -> dict[str, Any]:
        entry = self._entry(rng)
        game, state, seat = entry["game"], entry["state"], entry["seat"]
        if method == "ListGames":
            return {}
        if method == "NewGame":
            return {"game": game, "options_json": entry["options"], "seed": rng.randrange(99)}
        if method in ("LegalMoves", "ViewState"):
            return {"game": game, "state_json": state, "seat": seat}
        if method == "ApplyMove":
            return {"game": game, "state_json": state, "notation": rng.choice(("pass", "x", ""))}
        analysis = {"game": game, "state_json": state, "seat": seat, "preset": "beginner",
                    "settings": {"iterations": rng.choice((1, 20, 50))}, "top_k": 3}
        if method == "AnalyzeStream":
            return {"analysis": analysis, "every_iterations": 10}
        return analysis

    def _call(self, rng: random.Random, methods: tuple[str, ...] = RULES_METHODS) -> tuple[
            bytes, bytes]:
        """A valid call's path and body (rules calls by default: quick)."""
        method = rng.choice(methods)
        return b"/api/" + method.encode(), json.dumps(self._valid_body(method, rng)).encode()

    def _valid(self, index: int, rng: random.Random) -> WebCase:
        kind = rng.choice(("page", "static", "call", "search"))
        if kind == "page":
            target = rng.choice((b"/", b"/index.html", b"/?x=1", b"/#top"))
            return WebCase(index, "valid", "page",
                           request(b"GET", target, [(b"Host", HOST)]), expect=frozenset({200}),
                           page=True)
        if kind == "static":
            target = rng.choice((*(b"/static/" + f.encode() for f in STATIC_FILES),
                                 *COMPONENT_PATHS))
            label = "components" if target in COMPONENT_PATHS else "static"
            return WebCase(index, "valid", label,
                           request(b"GET", target, [(b"Host", HOST)]),
                           expect=frozenset({200}), page=target.endswith(b".html"))
        path, body = self._call(rng, SEARCH_METHODS if kind == "search" else RULES_METHODS)
        return WebCase(index, "valid", "api:" + path.decode().removeprefix("/api/"),
                       request(b"POST", path, post_headers(body), body))

    def _headers(self, index: int, rng: random.Random) -> WebCase:
        kind = rng.choice(("host", "host", "origin", "origin", "size", "many", "duplicate",
                           "odd", "content-type"))
        get = rng.random() < 0.4
        path, body = (b"/", b"") if get else self._call(rng)
        method = b"GET" if get else b"POST"
        headers = [(b"Host", HOST)] if get else post_headers(body)
        label = f"header:{kind}"
        if kind == "host":
            label, value = rng.choice(HOSTS)
            if value is None:
                headers = [h for h in headers if h[0] != b"Host"]
            else:
                headers = [(b"Host", value) if h[0] == b"Host" else h for h in headers]
        elif kind == "origin":
            label, origin = rng.choice(ORIGINS)
            if get:
                path, body = self._call(rng)
            method, headers = b"POST", post_headers(body, origin=origin)
        elif kind == "size":
            size = rng.choice((8_000, 65_000, 65_537, 70_000, 1_000_000))
            headers.append((b"X-" + b"a" * rng.randrange(1, 20), b"v" * size))
        elif kind == "many":
            count = rng.choice((90, 101, 150, 1000))
            headers += [(b"X-N%d" % n, b"1") for n in range(count)]
        elif kind == "duplicate":
            name = rng.choice((b"Host", b"Origin", b"Content-Type"))
            value = rng.choice((b"localhost", b"evil.example", b"http://evil.example",
                                b"text/plain", JSON_TYPE, HOST))
            headers.insert(rng.randrange(len(headers) + 1), (name, value))
            label = f"header:duplicate-{name.decode().lower()}"
        elif kind == "odd":
            label, line = rng.choice(ODD_HEADER_LINES)
            headers.insert(rng.randrange(len(headers) + 1), (line, b""))
            # written as a bare line: strip the ": " request() adds
            data = request(method, path, headers, body).replace(line + b": \r\n", line + b"\r\n")
            return WebCase(index, "headers", label, data)
        else:
            value = rng.choice((b"text/plain", b"application/json; charset=utf-16", b"",
                                b"application/json, text/plain", b"multipart/form-data",
                                b"application/x-www-form-urlencoded", b"APPLICATION/JSON",
                                b"application/json;;;", b"\xff\xfe"))
            if get:
                path, body = self._call(rng)
            method = b"POST"
            headers = [(b"Content-Type", value) if h[0] == b"Content-Type" else h
                       for h in post_headers(body)]
        return WebCase(index, "headers", label, request(method, path, headers, body))

    def _length(self, index: int, rng: random.Random) -> WebCase:
        path, body = self._call(rng)
        base = [h for h in post_headers(body) if h[0] != b"Content-Length"]
        kind = rng.choice(("chunked", "chunked", "duplicate-differing", "duplicate-differing",
                           "duplicate-same", "missing", "malformed", "short", "over",
                           "transfer-other"))
        size = str(len(body)).encode()
        if kind == "chunked":
            te = rng.choice((b"chunked", b"Chunked", b"gzip, chunked", b" chunked"))
            chunked = b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
            extra = [(b"Content-Length", size)] if rng.random() < 0.3 else []
            data = request(b"POST", path, [*base, (b"Transfer-Encoding", te), *extra], chunked)
            return WebCase(index, "length", "transfer-encoding:chunked", data,
                           expect=frozenset({411}))
        if kind == "transfer-other":
            te = rng.choice((b"identity", b"gzip", b"chunked, identity", b"x"))
            data = request(b"POST", path, [*base, (b"Transfer-Encoding", te),
                                           (b"Content-Length", size)], body)
            return WebCase(index, "length", "transfer-encoding:other", data)
        if kind == "duplicate-differing":
            other = rng.choice((b"0", b"1", str(len(body) + rng.randrange(1, 50)).encode(),
                                str(max(0, len(body) - rng.randrange(1, 10))).encode()))
            lengths = [(b"Content-Length", size), (b"Content-Length", other)]
            rng.shuffle(lengths)
            if lengths[0][1] == lengths[1][1]:
                lengths[1] = (b"Content-Length", size + b"0")
            return WebCase(index, "length", "content-length:duplicate-differing",
                           request(b"POST", path, [*base, *lengths], body),
                           expect=frozenset({400}))
        if kind == "duplicate-same":
            data = request(b"POST", path, [*base, (b"Content-Length", size),
                                           (b"Content-Length", size)], body)
            return WebCase(index, "length", "content-length:duplicate-same", data)
        if kind == "missing":
            data = request(b"POST", path, base, body if rng.random() < 0.5 else b"")
            return WebCase(index, "length", "content-length:missing", data)
        if kind == "malformed":
            value = rng.choice((b"-1", b"abc", b"+5", b" 5 ", b"0x10", b"1e3", b"5, 5", b"",
                                b"99999999999999999999", b"\xff", b"1_0"))
            data = request(b"POST", path, [*base, (b"Content-Length", value)], body)
            return WebCase(index, "length", "content-length:malformed", data)
        if kind == "short":
            missing = rng.choice((1, 100, 65536))
            data = request(b"POST", path, [*base, (b"Content-Length",
                                                   str(len(body) + missing).encode())], body)
            return WebCase(index, "length", "content-length:short-body", data, half_close=True)
        over = rng.choice((MAX_BODY_BYTES + 1, 2**31, 10**15))
        data = request(b"POST", path, [*base, (b"Content-Length", str(over).encode())], body)
        return WebCase(index, "length", "content-length:over-limit", data, half_close=True)

    def _body(self, index: int, rng: random.Random) -> WebCase:
        kind = rng.choice(("invalid-json", "nested", "nested", "state-json-nested",
                           "state-json-nested", "huge", "wrong-type", "wrong-type",
                           "unknown-path", "documents"))
        method = rng.choice((*RULES_METHODS, *SEARCH_METHODS))
        path = b"/api/" + method.encode()
        fields = self._valid_body(method, rng)
        if kind == "invalid-json":
            body = rng.choice(INVALID_JSON)
        elif kind == "nested":
            depth = rng.choice((100, 300, 600, 800, 1000, 1023, 1025, 2000, 5000))
            depth = max(1, depth + rng.randrange(-3, 4))
            key = rng.choice([*fields, "unknown", "analysis"] if fields else ["game", "x"])
            inner = nested_text(depth, rng)
            body = b'{"' + key.encode() + b'":' + inner + b"}"
        elif kind == "state-json-nested":
            depth = rng.choice((200, 254, 255, 256, 300, 500, 900, 1500))
            depth = max(1, depth + rng.randrange(-2, 3))
            doc = nested_text(depth, rng)
            if rng.random() < 0.3:
                doc = b'{"game": "leda", "players": [' + doc + b"]}"
            if method == "ListGames":
                fields = self._valid_body("ViewState", rng)
                path = b"/api/ViewState"
            target = fields.get("analysis", fields)
            target["state_json"] = "@@NESTED@@"
            body = json.dumps(fields).encode().replace(b'"@@NESTED@@"', doc)
        elif kind == "huge":
            size = rng.choice((MAX_BODY_BYTES - 100, MAX_BODY_BYTES, MAX_BODY_BYTES + 1,
                               MAX_BODY_BYTES * 2, 1_000_000))
            filler = rng.choice(("pad", "state", "spaces"))
            if filler == "spaces":
                text = json.dumps(fields).encode()
                body = text + b" " * max(0, size - len(text))
            else:
                fields["unknown_pad" if filler == "pad" else "session_key"] = "x" * size
                body = json.dumps(fields).encode()
        elif kind == "wrong-type":
            target = fields.get("analysis", fields) if fields else fields
            name = rng.choice([*target, "game", "seat", "state_json", "settings", "seed"])
            target[name] = rng.choice(WRONG_VALUES)
            whole: Any = fields
            if rng.random() < 0.3:
                whole = rng.choice(([fields], "x", 1, None, True))
            body = json.dumps(whole).encode()
        elif kind == "documents":
            target = fields.get("analysis", fields)
            target[rng.choice(("state_json", "options_json", "move_json", "x_json"))] = (
                rng.choice(DOCUMENTS))
            body = json.dumps(fields).encode()
        else:
            path = rng.choice(API_PATHS)
            body = json.dumps(fields).encode()
        return WebCase(index, "body", f"body:{kind}", request(b"POST", path, post_headers(body),
                                                               body))

    def _static(self, index: int, rng: random.Random) -> WebCase:
        kind = rng.choice(("nul", "nul", "traversal", "traversal", "traversal", "long",
                           "long", "encoding", "encoding"))
        headers = [(b"Host", HOST)]
        if kind == "nul":
            name = rng.choice(STATIC_FILES).encode()
            cut = rng.randrange(len(name) + 1)
            nul = rng.choice((b"\x00", b"%00", b"\x00\x00", b"%2500"))
            target = b"/static/" + name[:cut] + nul + name[cut:]
            label = "static:nul-raw" if nul.startswith(b"\x00") else "static:nul-encoded"
            return WebCase(index, "static", label, request(b"GET", target, headers),
                           outside=True)
        if kind == "traversal":
            label, up = rng.choice(UPS)
            target_file, depth = rng.choice(self.outside_targets)
            count = depth + rng.choice((0, 0, 1, 3)) if target_file.startswith("etc/") else depth
            ups = up * count
            prefix = rng.choice((b"/static/", b"/static/games/", b"/static/./", b"/static//"))
            if prefix == b"/static/games/":
                ups += up
            target = prefix + ups + target_file.encode()
            if rng.random() < 0.15:
                target = rng.choice(ABSOLUTE_PATHS)
                label = "static:absolute"
            return WebCase(index, "static", label,
                           request(rng.choice((b"GET", b"GET", b"POST")), target, headers),
                           outside=True)
        if kind == "long":
            n = rng.choice((200, 255, 256, 300, 1000, 4096, 5000, 70_000))
            shape = rng.choice(("name", "name", "folders", "suffix"))
            if shape == "name":
                target = b"/static/" + b"a" * n + rng.choice((b"", b".js", b"/app.js"))
                label = "static:long-name"
            elif shape == "folders":
                part = rng.choice((b"a" * 50, b"ab", b"games", b"."))
                target = b"/static/" + b"/".join([part] * max(1, n // (len(part) + 1))) \
                    + b"/app.js"
                label = "static:long-path"
            else:
                target = b"/static/app.js" + rng.choice((b"/", b"x", b"%20")) * n
                label = "static:long-name"
            return WebCase(index, "static", label, request(b"GET", target, headers))
        label, target = rng.choice(ODD_TARGETS)
        return WebCase(index, "static", label, request(b"GET", target, headers),
                       outside=label == "static:encoded-outside")

    def _method(self, index: int, rng: random.Random) -> WebCase:
        kind = rng.choice(("method", "version", "line"))
        target = rng.choice((b"/", b"/api/ListGames", b"/static/app.js"))
        if kind == "method":
            method = rng.choice((b"PUT", b"DELETE", b"HEAD", b"OPTIONS", b"PATCH", b"TRACE",
                                 b"CONNECT", b"get", b"post", b"X" * 300, b"G\x00T"))
            body = b"{}" if rng.random() < 0.5 else b""
            data = request(method, target, post_headers(body), body)
            return WebCase(index, "method", "method:other", data,
                           allowed_5xx=DOCUMENTED_5XX | {501})
        if kind == "version":
            version = rng.choice((b"HTTP/1.0", b"HTTP/2.0", b"HTTP/0.9", b"HTTP/1.1.1",
                                  b"HTTP/9", b"http/1.1", b"FOO/1.1", b"HTTP/1.01",
                                  b"HTTP/11111111111111111111"))
            data = request(b"GET", target, [(b"Host", HOST)], version=version)
            return WebCase(index, "method", "version:other", data,
                           allowed_5xx=DOCUMENTED_5XX | {505},
                           statusless_ok=version == b"HTTP/0.9")
        line = rng.choice(ODD_LINES)
        # Shut the sending side: a line without its end is then complete, not awaited.
        return WebCase(index, "method", "request-line:odd", line, half_close=True,
                       allowed_5xx=DOCUMENTED_5XX | {501, 505},
                       statusless_ok=line.startswith((b"\r\n", b"GET /\r\n")))


def _outside_targets() -> list[tuple[str, int]]:
    """Files outside the page's files and how many folders up from static/ they are."""
    static = REPO_ROOT / "web" / "static"
    found = [("gateway.py", 1), ("wire.py", 1), ("pyproject.toml", 2), ("README.md", 2),
             ("Makefile", 2)]
    depth = len(static.resolve().parts) - 1
    return [*found, ("etc/passwd", depth), ("etc/hostname", depth)]


HOSTS: list[tuple[str, bytes | None]] = [
    ("host:malformed", b"["), ("host:malformed", b"[::1"), ("host:malformed", b"::1]"),
    ("host:malformed", b"[zz]"), ("host:malformed", b"[v1.x]"), ("host:malformed", b"http://["),
    ("host:malformed", b"127.0.0.1:99999"), ("host:malformed", b"127.0.0.1:abc"),
    ("host:malformed", b"[::1]]"), ("host:malformed", b"%5b"),
    ("host:foreign", b"evil.example"), ("host:foreign", b"127.0.0.1.nip.io"),
    ("host:foreign", b"localhost."), ("host:foreign", b"127.0.0.1@evil.example"),
    ("host:foreign", b"\xef\xbd\x8c\xef\xbd\x8f\xef\xbd\x83\xef\xbd\x81\xef\xbd\x8c"),
    ("host:numeric", b"2130706433"), ("host:numeric", b"0x7f.1"), ("host:numeric", b"127.1"),
    ("host:numeric", b"[::ffff:127.0.0.1]"), ("host:numeric", b"[::1]"),
    ("host:empty", b""), ("host:empty", b" "), ("host:missing", None),
    ("host:odd", b"\x00"), ("host:odd", b"localhost\x00.evil"), ("host:odd", b"\xff\xfe"),
    ("host:odd", b"a" * 5000),
]
ORIGINS: list[tuple[str, bytes]] = [
    ("origin:malformed", b"http://["), ("origin:malformed", b"http://[::1"),
    ("origin:malformed", b"http://[zz]"), ("origin:malformed", b"http://127.0.0.1:99999"),
    ("origin:malformed", b"://"), ("origin:malformed", b"http://%zz"),
    ("origin:malformed", b"\x7f\x00"), ("origin:malformed", b"http://[v1.x]"),
    ("origin:foreign", b"http://evil.example"), ("origin:foreign", b"null"),
    ("origin:foreign", b"http://127.0.0.1:1"), ("origin:foreign", b"file://"),
    ("origin:foreign", b"http://user@127.0.0.1"), ("origin:foreign", b"https://127.0.0.1"),
    ("origin:same", ORIGIN), ("origin:same", b"http://127.0.0.1/"),
    ("origin:empty", b""), ("origin:odd", b"a" * 5000),
]
ODD_HEADER_LINES: list[tuple[str, bytes]] = [
    ("header:no-colon", b"NoColonHere"), ("header:folded", b" folded continuation"),
    ("header:nul", b"X-Nul: a\x00b"), ("header:empty-name", b": value"),
    ("header:space-name", b"Bad Name: v"), ("header:high-bytes", b"X-\xff: \xfe"),
    ("header:bare-cr", b"X-A: a\rb"),
]
INVALID_JSON = [
    b"", b"{", b"}", b"{'game': 'leda'}", b'{"game": "leda",}', b"NaN", b'{"seat": NaN}',
    b"null", b"[]", b"1", b'"x"', b"\xef\xbb\xbf{}", b'{"game": "\xff\xfe"}',
    b'{"game": "\\ud800"}', b'{"a": 1} trailing', b'{"a":' * 50, b"\x00",
    b'{"game": "leda", "game": "legend_raiders"}', b'{"seat": 1e400}', b'{"seat": -0}',
    b'{"seed": 18446744073709551616}', b'{"seed": -1}', b"{" + b'"a":1,' * 100000 + b'"b":2}',
]
WRONG_VALUES: list[Any] = [
    None, True, False, "x", "", [], {}, [1], {"a": 1}, -1, 0.5, "NaN", "Infinity", "-1",
    "\u0000", "\ud800", "é" * 1000, [[[]]], {"": None}, 2**31, -(2**31) - 1, 2**64,
]
DOCUMENTS: list[Any] = [
    "not json", "{", "", "null", None, [], {}, 1, "\ud800", {"game": "leda"},
    {"players": [None] * 1000}, "x" * 100_000, {"a": "b" * 100_000},
]
API_PATHS = [
    b"/api/", b"/api/Nope", b"/api/AnalyzeStream/x", b"/api/../static/app.js",
    b"/api/ListGames?x=1", b"/api/listgames", b"/api/ListGames/", b"/api//ListGames",
    b"/api/%4cistGames", b"/api/" + b"A" * 5000, b"/API/ListGames", b"/api/ListGames#x",
    b"/api/\x00", b"/api/%00", b"/api/__init__", b"/api/stub", b"/api/close",
]
UPS: list[tuple[str, bytes]] = [
    ("static:traversal", b"../"), ("static:traversal-encoded", b"..%2f"),
    ("static:traversal-encoded", b"%2e%2e/"), ("static:traversal-encoded", b"%2e%2e%2f"),
    ("static:traversal-encoded", b"%2E%2E%2F"), ("static:traversal-backslash", b"..\\"),
    ("static:traversal-backslash", b"..%5c"), ("static:traversal-double", b"%252e%252e%252f"),
    ("static:traversal-overlong", b"..%c0%af"), ("static:traversal-odd", b"....//"),
    ("static:traversal-odd", b"..;/"), ("static:traversal-odd", b".%2e/"),
    ("static:traversal", b"./../"),
]
ABSOLUTE_PATHS = [
    b"/static//etc/passwd", b"/static/%2fetc%2fpasswd", b"/etc/passwd", b"/static/~/.bashrc",
    b"/static/" + str(REPO_ROOT / "pyproject.toml").encode(), b"/static/..",
    b"/static/%2e%2e", b"/static/../", b"//etc/passwd", b"/static/\\etc\\passwd",
]
ODD_TARGETS: list[tuple[str, bytes]] = [
    ("static:encoding", b"/static/app%2ejs"), ("static:encoding", b"/static/%61pp.js"),
    ("static:encoding", b"/static/app.js%20"), ("static:encoding", b"/static/app.js."),
    ("static:encoding", b"/static/%ff"), ("static:encoding", b"/static/%c0%ae"),
    ("static:encoding", b"/static/%e2%80%aeapp.js"), ("static:encoding", b"/static/%u002e"),
    ("static:encoding", b"/static/%"), ("static:encoding", b"/static/%zz"),
    ("static:encoding", b"/static/app.js?x=%00"), ("static:encoding", b"/static/app.js#\x00"),
    ("static:encoding", b"/static/\xc3\xa9.js"), ("static:encoding", b"/static/\xff\xfe"),
    ("static:encoding", b"/static/."), ("static:encoding", b"/static/"),
    ("static:encoding", b"/static"), ("static:encoding", b"//static/app.js"),
    ("static:encoding", b"/static///app.js"), ("static:encoding", b"/static/./app.js"),
    ("static:encoding", b"/static/APP.JS"), ("static:encoding", b"/static/.hidden"),
    ("static:encoding", b"/static/games"), ("static:encoding", b"/static/games/"),
    ("static:encoding", b"http://127.0.0.1/static/app.js"), ("static:encoding", b"*"),
    ("static:encoding", b""), ("static:encoding", b"static/app.js"),
    ("static:encoding", b"/static/app.js\t"), ("static:encoding", b"/favicon.ico"),
    ("static:encoded-outside", b"/static/..%2f..%2fpyproject.toml"),
    ("static:encoded-outside", b"/static/%2e%2e/%2e%2e/README.md"),
    ("static:encoded-outside", b"/static/..%252f..%252fREADME.md"),
]
ODD_LINES = [
    b"\r\n\r\n", b"GET\r\n\r\n", b"GET /\r\n\r\n", b"GET  /  HTTP/1.1\r\n\r\n",
    b"GET / HTTP/1.1 extra\r\n\r\n", b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03",
    b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n",
    b"\x00\x00\x00\x00\r\n\r\n", b"GET / HTTP/1.1\n\n", b"GET / HTTP/1.1\r\nHost: 127.0.0.1",
]
