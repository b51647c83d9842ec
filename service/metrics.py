"""Prometheus metrics of the service, served as text exposition on an optional HTTP port."""

from __future__ import annotations

import bisect
import threading
from collections import defaultdict
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LATENCY_BUCKETS = (
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0
)
"""Upper bounds (seconds) of the request latency histogram."""


class Metrics:
    """Request counts by status, latency histograms, search throughput and pool gauges."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: dict[tuple[str, str], int] = defaultdict(int)
        self._latency_counts: dict[str, list[int]] = {}
        self._latency_sum: dict[str, float] = defaultdict(float)
        self._iterations = 0
        self._search_seconds = 0.0
        self._last_rate = 0.0
        self._restarts = 0
        self._kills = 0
        self._auth_refused: dict[tuple[str, str], int] = defaultdict(int)
        self._gauges: dict[str, tuple[str, Callable[[], float]]] = {}

    def observe_request(self, method: str, status: str, seconds: float) -> None:
        """Count one finished request and record its latency."""
        with self._lock:
            self._requests[(method, status)] += 1
            counts = self._latency_counts.setdefault(method, [0] * (len(LATENCY_BUCKETS) + 1))
            counts[bisect.bisect_left(LATENCY_BUCKETS, seconds)] += 1
            self._latency_sum[method] += seconds

    def observe_search(self, iterations: int, elapsed_ms: float) -> None:
        """Record one search's iterations and time."""
        with self._lock:
            self._iterations += iterations
            self._search_seconds += elapsed_ms / 1000.0
            if elapsed_ms > 0:
                self._last_rate = iterations / (elapsed_ms / 1000.0)

    def worker_restarted(self) -> None:
        """Count one replaced worker process."""
        with self._lock:
            self._restarts += 1

    def worker_killed(self) -> None:
        """Count one worker killed by the watchdog (a request past its hard end)."""
        with self._lock:
            self._kills += 1

    def auth_refused(self, method: str, reason: str) -> None:
        """Count one call refused for its token."""
        with self._lock:
            self._auth_refused[(method, reason)] += 1

    def auth_refused_count(self, method: str, reason: str) -> int:
        """Calls of `method` refused for `reason` so far."""
        with self._lock:
            return self._auth_refused.get((method, reason), 0)

    def gauge(self, name: str, help_text: str, read: Callable[[], float]) -> None:
        """Expose `read()` as a gauge called `name`."""
        self._gauges[name] = (help_text, read)

    def request_count(self, method: str, status: str) -> int:
        """Requests of `method` answered with `status` so far."""
        with self._lock:
            return self._requests.get((method, status), 0)

    def render(self) -> str:
        """The Prometheus text exposition of every metric."""
        lines: list[str] = []
        with self._lock:
            _header(lines, "boardbot_requests_total", "counter", "Requests by method and status.")
            for (method, status), n in sorted(self._requests.items()):
                lines.append(f'boardbot_requests_total{{method="{method}",status="{status}"}} {n}')
            _header(lines, "boardbot_request_latency_seconds", "histogram", "Request latency.")
            for method, counts in sorted(self._latency_counts.items()):
                running = 0
                for bound, count in zip((*LATENCY_BUCKETS, float("inf")), counts, strict=True):
                    running += count
                    le = "+Inf" if bound == float("inf") else repr(bound)
                    lines.append(
                        f'boardbot_request_latency_seconds_bucket{{method="{method}",le="{le}"}} '
                        f"{running}"
                    )
                lines.append(
                    f'boardbot_request_latency_seconds_sum{{method="{method}"}} '
                    f"{self._latency_sum[method]:.6f}"
                )
                lines.append(
                    f'boardbot_request_latency_seconds_count{{method="{method}"}} {running}'
                )
            _header(lines, "boardbot_search_iterations_total", "counter", "Search iterations run.")
            lines.append(f"boardbot_search_iterations_total {self._iterations}")
            _header(lines, "boardbot_search_seconds_total", "counter", "Time spent searching.")
            lines.append(f"boardbot_search_seconds_total {self._search_seconds:.6f}")
            _header(
                lines,
                "boardbot_search_iterations_per_second",
                "gauge",
                "Iterations per second of the latest search.",
            )
            lines.append(f"boardbot_search_iterations_per_second {self._last_rate:.1f}")
            _header(lines, "boardbot_worker_restarts_total", "counter", "Replaced workers.")
            lines.append(f"boardbot_worker_restarts_total {self._restarts}")
            _header(
                lines,
                "boardbot_worker_kills_total",
                "counter",
                "Workers killed by the watchdog: a request past its deadline plus the margin.",
            )
            lines.append(f"boardbot_worker_kills_total {self._kills}")
            _header(
                lines,
                "boardbot_auth_refused_total",
                "counter",
                "Calls refused for a missing or wrong token, by method and reason.",
            )
            for (method, reason), n in sorted(self._auth_refused.items()):
                labels = f'method="{_label(method)}",reason="{reason}"'
                lines.append(f"boardbot_auth_refused_total{{{labels}}} {n}")
        for name, (help_text, read) in sorted(self._gauges.items()):
            _header(lines, name, "gauge", help_text)
            lines.append(f"{name} {read():g}")
        return "\n".join(lines) + "\n"


def _label(value: str) -> str:
    """`value` escaped for a Prometheus label."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _header(lines: list[str], name: str, kind: str, help_text: str) -> None:
    lines.append(f"# HELP {name} {help_text}")
    lines.append(f"# TYPE {name} {kind}")


def serve_metrics(metrics: Metrics, host: str, port: int) -> ThreadingHTTPServer:
    """Serve `/metrics` on a background thread; returns the server (its port may be 0 → real)."""

    class Handler(BaseHTTPRequestHandler):
        """Answers GET /metrics with the text exposition."""

        def do_GET(self) -> None:
            """Serve the metrics (404 for any other path)."""
            if self.path.split("?")[0] != "/metrics":
                self.send_error(404, "only /metrics is served here")
                return
            body = metrics.render().encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            return  # requests to /metrics are not worth a log line each

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="boardbot-metrics", daemon=True).start()
    return server
