"""Assembling and running the gRPC server: servicer, health, reflection, TLS, token, metrics."""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from boardbot.jobs import tree_cache
from boardbot.jobs.cores import available_cores
from boardbot.jobs.extra_games import register_env_games
from boardbot.jobs.native_searches import NativeSearches
from boardbot.jobs.settings import Limits
from boardbot.jobs.tree_cache import DEFAULT_ENTRIES, DEFAULT_NODES
from boardbot.jobs.worker_pool import WorkerPool
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from boardbot.search.engines import Engine, check_engine, engine_notice, per_game
from boardbot.service.auth import TokenInterceptor, is_loopback
from boardbot.service.malformed import MalformedRequestInterceptor
from boardbot.service.metrics import Metrics, serve_metrics
from boardbot.service.open_streams import DEFAULT_OPEN_STREAMS, OpenStreamInterceptor
from boardbot.service.request_log import request_logger
from boardbot.service.servicer import BoardBotServicer

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["BoardBot"].full_name
RULES_QUEUE_PER_WORKER = 32
"""Rules calls that may wait for each rules worker (they take milliseconds each)."""
SHUTDOWN_KILL_S = 5.0
"""After the grace, how long workers get to stop before the process gives up on them."""
SHUTDOWN_ANSWER_S = 1.0
"""After the grace, how long the calls whose workers were stopped get to send their answer
(UNAVAILABLE `SHUTTING_DOWN` with its details) before gRPC cancels every call left."""


def plaintext_token_warning(config: ServerConfig) -> str | None:
    """The warning to give at start when a token would cross the network in the clear."""
    if config.token and config.tls_cert is None and not is_loopback(config.host):
        return (
            f"warning: --token is set but the server listens on {config.host} without TLS: "
            "the token crosses the network in the clear (set --tls-cert and --tls-key, or "
            "listen on a loopback address behind a TLS-terminating proxy)"
        )
    return None


@dataclass(frozen=True)
class ServerConfig:
    """Everything `boardbot serve` can be told."""

    host: str = "127.0.0.1"
    port: int = 50051
    workers: int = field(default_factory=available_cores)
    queue_limit: int = 16
    io_threads: int | None = None
    """gRPC handler threads; None: enough for every admitted search and rules call, plus 8."""
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    """Where the metrics endpoint listens: loopback unless exposed on purpose."""
    rules_workers: int = 1
    """Worker processes for rules calls (NewGame, LegalMoves, ApplyMove, ViewState)."""
    tls_cert: Path | None = None
    tls_key: Path | None = None
    token: str | None = None
    open_streams: int = DEFAULT_OPEN_STREAMS
    """Streams of the open methods (health Watch, reflection) that callers without the token
    may hold at once, on threads apart from the service's; more are refused at once."""
    max_message_bytes: int = 4 * 1024 * 1024
    grace_seconds: float = 30.0
    drain_seconds: float = 0.0
    """After a stop request, keep serving this long while health says NOT_SERVING, so load
    balancers stop routing here before new calls are refused."""
    limits: Limits = field(default_factory=Limits)
    extra_games: str | None = None
    """More games, `name=package.module:Class,…` (None: from BOARDBOT_EXTRA_GAMES)."""
    engine: Engine = Engine.AUTO
    """Searches on the native core where a game has one (auto, native) or always in Python."""
    search_threads: int | None = None
    """Most threads one native search takes from the idle cores (None: auto, `workers`; 1: one
    thread per search). A request's explicit `settings.workers` is kept as it asked."""
    tree_cache_entries: int = DEFAULT_ENTRIES
    """Search trees each search worker keeps for requests with a session key (0: none)."""
    tree_cache_nodes: int = DEFAULT_NODES
    """Nodes of all the trees one search worker keeps, together (0: none)."""


def listen_failure(host: str, port: int) -> str | None:
    """Why a server cannot listen on `host:port` (the system's reason, e.g. "Address already
    in use"), or None when it can: a probe that binds a plain socket the way gRPC does."""
    if port == 0:
        return None
    reason = "no address to listen on"
    try:
        found = socket.getaddrinfo(
            host.strip("[]") or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except OSError as error:
        return str(error.strerror or error)
    for family, kind, proto, _, address in found:
        try:
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind(address)
            return None
        except OSError as error:
            reason = str(error.strerror or error)
    return reason


class BotServer:
    """A running boardbot server: gRPC server, worker pool and optional metrics endpoint."""

    def __init__(self, config: ServerConfig, logger: logging.Logger | None = None) -> None:
        if config.search_threads is not None and config.search_threads < 1:
            raise ValueError("search_threads must be at least 1 (or None: auto)")
        if config.tree_cache_entries < 0 or config.tree_cache_nodes < 0:
            raise ValueError("the tree cache's bounds must be at least 0")
        self.config = config
        self.logger = logger or request_logger()
        self.metrics = Metrics()
        margin = config.limits.watchdog_margin_ms / 1000.0
        self.pool = WorkerPool(
            config.workers,
            config.queue_limit,
            self.metrics.worker_restarted,
            extra_games=config.extra_games,
            watchdog_margin_s=margin,
            on_kill=self.metrics.worker_killed,
            name="search worker",
            tree_cache=(config.tree_cache_entries, config.tree_cache_nodes),
        )
        self.native_searches = NativeSearches(config.workers, config.queue_limit)
        """Searches of games with a native twin, run in this process (jobs/native_searches.py)."""
        self.rules_pool = WorkerPool(
            config.rules_workers,
            RULES_QUEUE_PER_WORKER * config.rules_workers,
            self.metrics.worker_restarted,
            extra_games=config.extra_games,
            watchdog_margin_s=margin,
            on_kill=self.metrics.worker_killed,
            name="rules worker",
        )
        self.health = health.HealthServicer(experimental_non_blocking=True)
        self.port = 0
        self.metrics_port: int | None = None
        self._metrics_server: object | None = None
        self._grpc: grpc.Server | None = None
        self.open_stream_gate = OpenStreamInterceptor(
            config.open_streams, config.token, self.metrics, self.logger
        )
        self._stopped = threading.Event()
        self.servicer: BoardBotServicer | None = None
        """The servicer, once started."""
        self.warnings: list[str] = []
        """Warnings given at start (also written to the log)."""

    def start(self) -> int:
        """Start workers, then listen; returns the bound port (useful with port 0)."""
        cfg = self.config
        register_env_games(cfg.extra_games)
        check_engine(cfg.engine)
        warning = plaintext_token_warning(cfg)
        if warning is not None:
            self.logger.warning(warning)
            self.warnings.append(warning)
        notice = engine_notice(cfg.engine)
        if notice is not None:  # said once on stderr by `serve`; the request log stays JSON
            self.warnings.append(notice)
        tree_cache.configure(cfg.tree_cache_entries, cfg.tree_cache_nodes)
        refused = listen_failure(cfg.host, cfg.port)
        if refused is not None:  # said before any worker starts (gRPC would say it in a log)
            raise OSError(f"cannot listen on {cfg.host}:{cfg.port}: {refused}")
        self.pool.start()
        self.rules_pool.start()
        pool, native = self.pool, self.native_searches
        self.metrics.gauge(
            "boardbot_queue_depth",
            "Requests waiting for a worker or a native search slot.",
            lambda: pool.queue_depth + native.queue_depth,
        )
        self.metrics.gauge(
            "boardbot_workers_busy",
            "Searches running (in search workers and natively in the server).",
            lambda: pool.busy + native.busy,
        )
        self.metrics.gauge("boardbot_workers", "Search worker processes.", lambda: pool.size)
        self.metrics.gauge(
            "boardbot_search_threads_busy",
            "Threads the running searches use (a native search may take several idle cores).",
            lambda: pool.cores_busy + native.cores_busy,
        )
        # Outermost first: bound token-less open streams, check the token, then read the bytes.
        interceptors: list[grpc.ServerInterceptor] = [self.open_stream_gate]
        if cfg.token:
            interceptors.append(TokenInterceptor(cfg.token, self.metrics, self.logger))
        interceptors.append(MalformedRequestInterceptor(self.metrics, self.logger))
        rules_calls = cfg.rules_workers * (1 + RULES_QUEUE_PER_WORKER)
        threads = cfg.io_threads or cfg.workers + cfg.queue_limit + rules_calls + 8
        server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=threads, thread_name_prefix="grpc-io"),
            interceptors=interceptors,
            options=[
                ("grpc.max_receive_message_length", cfg.max_message_bytes),
                ("grpc.max_send_message_length", cfg.max_message_bytes),
                ("grpc.so_reuseport", 0),
            ],
            maximum_concurrent_rpcs=threads * 4,
        )
        servicer = BoardBotServicer(
            self.pool,
            self.metrics,
            self.logger,
            cfg.limits,
            rules_pool=self.rules_pool,
            native_searches=self.native_searches,
            engine=per_game(cfg.engine),
            search_threads=cfg.search_threads,
        )
        self.servicer = servicer
        pb_grpc.add_BoardBotServicer_to_server(servicer, server)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
        )
        address = f"{cfg.host}:{cfg.port}"
        if cfg.tls_cert is not None or cfg.tls_key is not None:
            if cfg.tls_cert is None or cfg.tls_key is None:
                raise ValueError("TLS needs both a certificate and a key")
            credentials = grpc.ssl_server_credentials(
                [(cfg.tls_key.read_bytes(), cfg.tls_cert.read_bytes())]
            )
            self.port = self._bind(lambda: server.add_secure_port(address, credentials))
        else:
            self.port = self._bind(lambda: server.add_insecure_port(address))
        if self.port == 0:
            self._abandon()
            raise OSError(f"cannot listen on {address}: {listen_failure(cfg.host, cfg.port)}")
        server.start()
        self._grpc = server
        if cfg.metrics_port is not None:
            try:
                metrics_server = serve_metrics(self.metrics, cfg.metrics_host, cfg.metrics_port)
            except OSError as error:
                server.stop(0)
                self._abandon()
                raise OSError(
                    f"cannot serve metrics on {cfg.metrics_host}:{cfg.metrics_port}: "
                    f"{error.strerror or error}"
                ) from None
            self.metrics_port = metrics_server.server_address[1]
            self._metrics_server = metrics_server
        for name in ("", SERVICE_NAME):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        return self.port

    @staticmethod
    def _bind(add_port: Callable[[], int]) -> int:
        """The port gRPC bound, or 0 when it could not (older gRPC returns 0, newer raises)."""
        try:
            return add_port()
        except RuntimeError:
            return 0

    def _abandon(self) -> None:
        """Stop the workers of a start that failed."""
        self.native_searches.close(timeout=0)
        for pool in (self.pool, self.rules_pool):
            pool.close(timeout=0)

    def stop(self, grace: float | None = None) -> None:
        """Graceful shutdown: report NOT_SERVING, refuse new calls, finish in-flight ones.

        The grace is a hard bound: once it has passed, workers still busy are killed and their
        calls answered SHUTTING_DOWN, so this returns within about drain + grace + 1 s.
        """
        if self._stopped.is_set():
            return
        self._stopped.set()
        self.health.enter_graceful_shutdown()
        if self.config.drain_seconds > 0:
            threading.Event().wait(self.config.drain_seconds)
        grace_s = self.config.grace_seconds if grace is None else grace
        ends = time.monotonic() + grace_s
        # gRPC refuses new calls now and cancels what is left only after the answer window:
        # the calls whose workers are stopped at the grace's end are answered SHUTTING_DOWN
        # with details, not cut off by the transport.
        calls_done = None if self._grpc is None else self._grpc.stop(grace_s + SHUTDOWN_ANSWER_S)
        self.native_searches.close(timeout=max(0.0, ends - time.monotonic()))
        for pool in (self.pool, self.rules_pool):
            pool.close(timeout=max(0.0, ends - time.monotonic()))
        if self._grpc is not None and calls_done is not None:
            calls_done.wait(max(0.0, ends + SHUTDOWN_ANSWER_S - time.monotonic()))
            self._grpc.stop(0).wait(SHUTDOWN_KILL_S)
        self.open_stream_gate.shutdown()
        shutdown = getattr(self._metrics_server, "shutdown", None)
        if shutdown is not None:
            shutdown()

    def wait(self) -> None:
        """Block until `stop` has run."""
        self._stopped.wait()
