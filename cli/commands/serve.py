"""`boardbot serve`: run the gRPC bot server (flags or BOARDBOT_* environment variables)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from boardbot.cli.commands.common import add_engine_argument, chosen_engine
from boardbot.jobs.cores import available_cores
from boardbot.jobs.settings import Limits
from boardbot.jobs.tree_cache import DEFAULT_ENTRIES, DEFAULT_NODES
from boardbot.search.engines import Engine, native_games

if TYPE_CHECKING:
    from boardbot.service.server import ServerConfig


def _env(name: str, default: Any) -> Any:
    return os.environ.get(f"BOARDBOT_{name}", default)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `serve` command."""
    p = sub.add_parser(
        "serve",
        help="run the gRPC bot server",
        description="Run the gRPC bot server. Every flag can also be set by the environment "
        "variable named after it, e.g. BOARDBOT_PORT, BOARDBOT_WORKERS, BOARDBOT_TOKEN.",
    )
    p.add_argument("--host", default=_env("HOST", "127.0.0.1"), help="address to listen on")
    p.add_argument("--port", type=int, default=int(_env("PORT", 50051)), help="0 picks a free port")
    p.add_argument(
        "--workers",
        type=int,
        default=int(_env("WORKERS", available_cores())),
        help="search worker processes (default: one per usable core, container quota included)",
    )
    p.add_argument(
        "--queue",
        type=int,
        default=int(_env("QUEUE", 16)),
        help="requests that may wait for a worker before RESOURCE_EXHAUSTED",
    )
    p.add_argument(
        "--rules-workers",
        type=int,
        default=int(_env("RULES_WORKERS", 1)),
        help="worker processes for NewGame, LegalMoves, ApplyMove and ViewState",
    )
    p.add_argument(
        "--io-threads",
        type=int,
        default=_int_or_none(_env("IO_THREADS", None)),
        help="gRPC handler threads (default: workers + queue + 33 per rules worker + 8)",
    )
    p.add_argument(
        "--metrics-port",
        type=int,
        default=_int_or_none(_env("METRICS_PORT", None)),
        help="serve Prometheus metrics at http://METRICS_HOST:PORT/metrics (default: off)",
    )
    p.add_argument(
        "--metrics-host",
        default=_env("METRICS_HOST", "127.0.0.1"),
        help="address of the metrics endpoint (default: loopback only; 0.0.0.0 exposes it)",
    )
    p.add_argument(
        "--tls-cert",
        type=Path,
        default=_path_or_none(_env("TLS_CERT", None)),
        help="PEM certificate: serve TLS (with --tls-key)",
    )
    p.add_argument(
        "--tls-key", type=Path, default=_path_or_none(_env("TLS_KEY", None)), help="PEM key"
    )
    p.add_argument("--token", default=_env("TOKEN", None), help="shared token clients must send")
    p.add_argument(
        "--open-streams",
        type=int,
        default=int(_env("OPEN_STREAMS", 8)),
        help="streams of the open methods (health Watch, reflection) callers without the token "
        "may hold at once, on threads of their own; more get RESOURCE_EXHAUSTED (default 8)",
    )
    p.add_argument(
        "--max-message-bytes",
        type=int,
        default=int(_env("MAX_MESSAGE_BYTES", 4 * 1024 * 1024)),
        help="largest request or response accepted",
    )
    p.add_argument(
        "--grace",
        type=float,
        default=float(_env("GRACE", 30.0)),
        help="seconds in-flight calls may take to finish after SIGTERM",
    )
    p.add_argument(
        "--drain",
        type=float,
        default=float(_env("DRAIN", 0.0)),
        help="seconds to keep serving with health NOT_SERVING after SIGTERM, before refusing",
    )
    p.add_argument(
        "--max-search-workers",
        type=int,
        default=int(_env("MAX_SEARCH_WORKERS", 1)),
        help="root-parallel workers one request may ask for (settings.workers)",
    )
    p.add_argument(
        "--search-threads",
        type=_threads,
        default=_threads(_env("SEARCH_THREADS", "auto")),
        help="most threads one native search takes from the idle cores (default auto: "
        "--workers; 1: one thread per search, results independent of load)",
    )
    p.add_argument(
        "--tree-cache-entries",
        type=int,
        default=int(_env("TREE_CACHE_ENTRIES", DEFAULT_ENTRIES)),
        help="search trees each search worker keeps for requests with a session_key (LRU; "
        "0: no tree reuse)",
    )
    p.add_argument(
        "--tree-cache-nodes",
        type=int,
        default=int(_env("TREE_CACHE_NODES", DEFAULT_NODES)),
        help="nodes of all the trees one search worker keeps, together (LRU; about 50 bytes "
        "a node natively; 0: no tree reuse)",
    )
    p.add_argument(
        "--max-time-ms",
        type=float,
        default=float(_env("MAX_TIME_MS", 30_000)),
        help="longest any search runs, presets and iteration budgets included",
    )
    p.add_argument(
        "--max-call-ms",
        type=float,
        default=float(_env("MAX_CALL_MS", 5_000)),
        help="longest a NewGame, LegalMoves, ApplyMove or ViewState call may take",
    )
    p.add_argument(
        "--max-reviews",
        type=int,
        default=int(_env("MAX_REVIEWS", 4)),
        help="game reviews (ReviewGame) running at once; one more is refused RESOURCE_EXHAUSTED",
    )
    p.add_argument(
        "--watchdog-margin-ms",
        type=float,
        default=float(_env("WATCHDOG_MARGIN_MS", 1_000)),
        help="a worker still busy this long past its request's deadline is killed and replaced",
    )
    p.add_argument(
        "--max-iterations",
        type=int,
        default=int(_env("MAX_ITERATIONS", 1_000_000)),
        help="largest iteration budget one request may ask for",
    )
    p.add_argument(
        "--deadline-margin-ms",
        type=float,
        default=float(_env("DEADLINE_MARGIN_MS", 30.0)),
        help="time kept back from a client deadline to send the answer",
    )
    add_engine_argument(p, _env("ENGINE", "auto"))
    p.set_defaults(func=run_serve)


def _threads(value: str) -> int | None:
    """`--search-threads`: `auto` (None) or a count of at least 1."""
    if value.strip().lower() == "auto":
        return None
    try:
        count = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected auto or a number, got {value!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (or auto), got {count}")
    return count


def _threads_said(config: ServerConfig) -> str:
    """What the start line says of the threads a native search may take."""
    if config.engine is Engine.PYTHON or not native_games():
        return "searches on the Python engines"
    cap = config.workers if config.search_threads is None else config.search_threads
    if cap <= 1:
        return "1 thread per search"
    return f"up to {cap} threads per native search while cores are idle"


def _int_or_none(value: str | None) -> int | None:
    return None if not value else int(value)


def _path_or_none(value: str | None) -> Path | None:
    return None if not value else Path(value)


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    """The ServerConfig described by parsed `serve` arguments."""
    # Imported here, not at the top: building the CLI must not load gRPC.
    from boardbot.service.server import ServerConfig

    return ServerConfig(
        host=args.host,
        port=args.port,
        workers=args.workers,
        queue_limit=args.queue,
        io_threads=args.io_threads,
        metrics_port=args.metrics_port,
        metrics_host=args.metrics_host,
        rules_workers=args.rules_workers,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        token=args.token or None,
        open_streams=args.open_streams,
        max_message_bytes=args.max_message_bytes,
        engine=chosen_engine(args, say_notice=False),
        grace_seconds=args.grace,
        drain_seconds=args.drain,
        search_threads=args.search_threads,
        tree_cache_entries=args.tree_cache_entries,
        tree_cache_nodes=args.tree_cache_nodes,
        limits=Limits(
            max_iterations=args.max_iterations,
            max_time_ms=args.max_time_ms,
            max_workers=args.max_search_workers,
            deadline_margin_ms=args.deadline_margin_ms,
            watchdog_margin_ms=args.watchdog_margin_ms,
            max_call_ms=args.max_call_ms,
            max_reviews=args.max_reviews,
        ),
    )


def run_serve(args: argparse.Namespace) -> int:
    """Run until SIGTERM or SIGINT, then shut down gracefully."""
    from boardbot.service.server import BotServer

    config = config_from_args(args)
    server = BotServer(config)
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        port = server.start()
    except OSError as error:  # a busy port, an address not on this machine: one line
        print(f"boardbot serve: {error}", file=sys.stderr, flush=True)
        return 1
    for warning in server.warnings:
        print(warning, file=sys.stderr, flush=True)
    scheme = "TLS" if config.tls_cert else "plaintext"
    print(
        f"boardbot listening on {config.host}:{port} ({scheme}, {config.workers} search workers, "
        f"queue {config.queue_limit}, {_threads_said(config)})",
        flush=True,
    )
    if server.metrics_port is not None:
        print(f"metrics on http://{config.metrics_host}:{server.metrics_port}/metrics", flush=True)
    while not stop.wait(0.5):
        pass
    print("shutting down: finishing in-flight requests", file=sys.stderr, flush=True)
    server.stop()
    print("stopped", file=sys.stderr, flush=True)
    return 0
