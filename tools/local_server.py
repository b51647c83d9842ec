"""A one-worker server on a free loopback port for measurements, with a client stub."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import grpc

from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from boardbot.search.engines import Engine
from boardbot.service.server import BotServer, ServerConfig


@contextmanager
def local_server(engine: Engine) -> Iterator[pb_grpc.BoardBotStub]:
    """Serve on 127.0.0.1 with one search worker and a silent request log; yield a stub."""
    server = BotServer(
        ServerConfig(host="127.0.0.1", port=0, workers=1, queue_limit=4, engine=engine)
    )
    port = server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    server.logger.disabled = True
    try:
        yield pb_grpc.BoardBotStub(channel)
    finally:
        channel.close()
        server.logger.disabled = False
        server.stop(grace=1)
