"""Assembling and running the gRPC server: servicer, health, reflection, TLS, token, metrics."""

from __future__ import annotations

import logging
import threading
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from proto.boardbot.v1 import boardbot_pb2 as pb
from proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from service.auth import TokenInterceptor
from service.cores import available_cores
from service.extra_games import register_env_games
from service.metrics import Metrics, serve_metrics
from service.request_log import request_logger
from service.servicer import BoardBotServicer
from service.settings import Limits
from service.worker_pool import WorkerPool

SERVICE_NAME = pb.DESCRIPTOR.services_by_name["BoardBot"].full_name


@dataclass(frozen=True)
class ServerConfig:
    """Everything `boardbot serve` can be told."""

    host: str = "127.0.0.1"
    port: int = 50051
    workers: int = field(default_factory=available_cores)
    queue_limit: int = 16
    io_threads: int | None = None
    """gRPC handler threads; None: enough for every admitted search plus 8 for quick calls."""
    metrics_port: int | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None
    token: str | None = None
    max_message_bytes: int = 4 * 1024 * 1024
    grace_seconds: float = 30.0
    drain_seconds: float = 0.0
    """After a stop request, keep serving this long while health says NOT_SERVING, so load
    balancers stop routing here before new calls are refused."""
    limits: Limits = field(default_factory=Limits)
    extra_games: str | None = None
    """More games, `name=package.module:Class,…` (None: from BOARDBOT_EXTRA_GAMES)."""


class BotServer:
    """A running boardbot server: gRPC server, worker pool and optional metrics endpoint."""

    def __init__(self, config: ServerConfig, logger: logging.Logger | None = None) -> None:
        self.config = config
        self.logger = logger or request_logger()
        self.metrics = Metrics()
        self.pool = WorkerPool(
            config.workers,
            config.queue_limit,
            self.metrics.worker_restarted,
            extra_games=config.extra_games,
        )
        self.health = health.HealthServicer(experimental_non_blocking=True)
        self.port = 0
        self.metrics_port: int | None = None
        self._metrics_server: object | None = None
        self._grpc: grpc.Server | None = None
        self._stopped = threading.Event()

    def start(self) -> int:
        """Start workers, then listen; returns the bound port (useful with port 0)."""
        cfg = self.config
        register_env_games(cfg.extra_games)
        self.pool.start()
        pool = self.pool
        self.metrics.gauge(
            "boardbot_queue_depth", "Requests waiting for a worker.", lambda: pool.queue_depth
        )
        self.metrics.gauge(
            "boardbot_workers_busy", "Search workers running a request.", lambda: self.pool.busy
        )
        self.metrics.gauge("boardbot_workers", "Search worker processes.", lambda: self.pool.size)
        interceptors = [TokenInterceptor(cfg.token)] if cfg.token else []
        threads = cfg.io_threads or cfg.workers + cfg.queue_limit + 8
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
        servicer = BoardBotServicer(self.pool, self.metrics, self.logger, cfg.limits)
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
            self.port = server.add_secure_port(address, credentials)
        else:
            self.port = server.add_insecure_port(address)
        if self.port == 0:
            raise OSError(f"cannot listen on {address}")
        server.start()
        self._grpc = server
        if cfg.metrics_port is not None:
            metrics_server = serve_metrics(self.metrics, cfg.host, cfg.metrics_port)
            self.metrics_port = metrics_server.server_address[1]
            self._metrics_server = metrics_server
        for name in ("", SERVICE_NAME):
            self.health.set(name, health_pb2.HealthCheckResponse.SERVING)
        return self.port

    def stop(self, grace: float | None = None) -> None:
        """Graceful shutdown: report NOT_SERVING, refuse new calls, finish in-flight ones."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        self.health.enter_graceful_shutdown()
        if self.config.drain_seconds > 0:
            threading.Event().wait(self.config.drain_seconds)
        if self._grpc is not None:
            self._grpc.stop(self.config.grace_seconds if grace is None else grace).wait()
        self.pool.close()
        shutdown = getattr(self._metrics_server, "shutdown", None)
        if shutdown is not None:
            shutdown()

    def wait(self) -> None:
        """Block until `stop` has run."""
        self._stopped.wait()
