"""A one-worker server on a free loopback port for measurements, with a client stub."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import grpc

from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from boardbot.search.engines import Engine
from boardbot.service.server import BotServer, ServerConfig


@contextmanager
def local_address(engine: Engine, workers: int = 1, queue_limit: int = 4) -> Iterator[str]:
    """Serve on 127.0.0.1 with `workers` search workers and a silent request log; yield its
    HOST:PORT."""
    server = BotServer(
        ServerConfig(
            host="127.0.0.1", port=0, workers=workers, queue_limit=queue_limit, engine=engine
        )
    )
    port = server.start()
    server.logger.disabled = True
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.logger.disabled = False
        server.stop(grace=1)


@contextmanager
def local_server(engine: Engine) -> Iterator[pb_grpc.BoardBotStub]:
    """Serve on 127.0.0.1 with one search worker and a silent request log; yield a stub."""
    with local_address(engine) as address:
        channel = grpc.insecure_channel(address)
        try:
            yield pb_grpc.BoardBotStub(channel)
        finally:
            channel.close()
