"""A small client of the bot service: channel setup, token metadata, typed calls."""

from __future__ import annotations

from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from boardbot.service.auth import token_metadata
from boardbot.service.defaults import DEFAULT_ADDRESS

__all__ = ["DEFAULT_ADDRESS", "BotClient", "open_channel"]


def open_channel(
    address: str, tls_ca: Path | None = None, max_message_bytes: int = 4 * 1024 * 1024
) -> grpc.Channel:
    """A channel to `address`; with `tls_ca`, TLS verified against that CA certificate."""
    options = [
        ("grpc.max_receive_message_length", max_message_bytes),
        ("grpc.max_send_message_length", max_message_bytes),
    ]
    if tls_ca is not None:
        credentials = grpc.ssl_channel_credentials(root_certificates=tls_ca.read_bytes())
        return grpc.secure_channel(address, credentials, options=options)
    return grpc.insecure_channel(address, options=options)


class BotClient:
    """Calls to one server with a token and a per-call timeout."""

    def __init__(
        self, channel: grpc.Channel, token: str | None = None, timeout: float | None = 60.0
    ) -> None:
        self.channel = channel
        self.stub = pb_grpc.BoardBotStub(channel)
        self.metadata = token_metadata(token)
        self.timeout = timeout

    def choose_move(self, request: pb.ChooseMoveRequest) -> pb.ChooseMoveResponse:
        """The bot's move."""
        response: pb.ChooseMoveResponse = self.stub.ChooseMove(
            request, timeout=self.timeout, metadata=self.metadata
        )
        return response

    def analyze(self, request: pb.AnalyzeRequest) -> pb.AnalyzeResponse:
        """A ranked analysis."""
        response: pb.AnalyzeResponse = self.stub.Analyze(
            request, timeout=self.timeout, metadata=self.metadata
        )
        return response

    def view_state(self, request: pb.ViewStateRequest) -> pb.ViewStateResponse:
        """A seat's view of a state."""
        response: pb.ViewStateResponse = self.stub.ViewState(
            request, timeout=self.timeout, metadata=self.metadata
        )
        return response

    def health(self, service: str = "") -> str:
        """The health status name of `service` ("" is the whole server)."""
        stub = health_pb2_grpc.HealthStub(self.channel)
        reply = stub.Check(
            health_pb2.HealthCheckRequest(service=service),
            timeout=self.timeout,
            metadata=self.metadata,
        )
        return str(health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status))

    def close(self) -> None:
        """Close the channel."""
        self.channel.close()
