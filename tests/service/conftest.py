"""Fixtures of the service tests: in-process servers on port 0 and their stubs."""

from __future__ import annotations

import io
import itertools
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import grpc
import pytest

from boardbot.engine import CHANCE, Game, State, get_game
from boardbot.jobs import game_ops
from boardbot.jobs.settings import Limits
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from boardbot.service.server import BotServer, ServerConfig

GAME_CASES: list[tuple[str, dict[str, Any]]] = [
    ("leda", {}),
    ("legend_raiders", {"players": 2}),
    ("legend_raiders", {"players": 4}),
]
"""Every real game (and player count) the RPC tests cover."""

GAME_IDS = ["leda", "legend_raiders-2p", "legend_raiders-4p"]

MAX_MESSAGE_BYTES = 1024 * 1024

_SERVER_NUMBERS = itertools.count()


class Served:
    """A running test server with a client stub and its captured request log."""

    def __init__(self, server: BotServer, log: io.StringIO) -> None:
        self.server = server
        self.log = log
        self.address = f"127.0.0.1:{server.port}"
        self.channel = grpc.insecure_channel(
            self.address,
            options=[("grpc.max_send_message_length", 4 * MAX_MESSAGE_BYTES)],
        )
        self.stub = pb_grpc.BoardBotStub(self.channel)

    def close(self) -> None:
        """Close the channel and stop the server."""
        self.channel.close()
        self.server.stop(grace=2)


def start_server(**overrides: Any) -> Served:
    """A server on 127.0.0.1, port 0, with small limits suited to tests."""
    log = io.StringIO()
    logger = logging.getLogger(f"boardbot.test-requests.{next(_SERVER_NUMBERS)}")
    handler = logging.StreamHandler(log)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    values: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "workers": 2,
        "queue_limit": 8,
        "max_message_bytes": MAX_MESSAGE_BYTES,
        "grace_seconds": 5.0,
        # A wide deadline margin keeps deadline tests reliable on a busy machine.
        "limits": Limits(max_workers=1, max_time_ms=60_000, deadline_margin_ms=250.0),
        **overrides,
    }
    server = BotServer(ServerConfig(**values), logger)
    server.start()
    return Served(server, log)


@pytest.fixture(scope="session")
def served() -> Iterator[Served]:
    """The shared test server (two workers)."""
    s = start_server()
    yield s
    s.close()


@pytest.fixture(params=GAME_CASES, ids=GAME_IDS)
def game_case(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    """One real game with its options."""
    name, options = request.param
    return name, dict(options)


def decision_state(game: Game, options: Mapping[str, Any], seed: int, plies: int = 6) -> State:
    """A seeded state `plies` random decisions in, where a seat has at least two moves."""
    rng = random.Random(seed)
    state, _ = game_ops.resolve_chance(game, game.new_state(options, seed), rng)
    best = state
    for _ in range(plies):
        actions = game.legal_actions(state)
        if len(actions) >= 2:
            best = state
        next_state, _ = game_ops.resolve_chance(
            game, game.apply(state, actions[rng.randrange(len(actions))]), rng
        )
        if game.is_terminal(next_state):
            break
        state = next_state
    if len(game.legal_actions(state)) >= 2:
        best = state
    assert game.current_player(best) >= 0 and game.current_player(best) != CHANCE
    return best


def terminal_state(game: Game, options: Mapping[str, Any], seed: int) -> State:
    """A seeded random game played to its end."""
    rng = random.Random(seed)
    state = game.new_state(options, seed)
    for _ in range(100_000):
        if game.is_terminal(state):
            return state
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            actions = game.legal_actions(state)
            state = game.apply(state, actions[rng.randrange(len(actions))])
    raise AssertionError("random game did not end")


def wait_until(predicate: Callable[[], bool], timeout: float) -> bool:
    """Poll `predicate` until it holds or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while time.monotonic() < deadline:
        if predicate():
            return True
        pause.wait(0.01)
    return predicate()


def load(name: str) -> Game:
    """The registered game `name`."""
    return get_game(name)


def error_details(error: grpc.RpcError) -> tuple[Any, list[tuple[str, str]]]:
    """The ErrorInfo and the (field, description) of each BadRequest field violation or
    PreconditionFailure violation a refused call carries."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, "the error carries no google.rpc.Status"
    info = None
    violations: list[tuple[str, str]] = []
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            violations.extend((v.field, v.description) for v in bad.field_violations)
        elif detail.Is(error_details_pb2.PreconditionFailure.DESCRIPTOR):
            failure = error_details_pb2.PreconditionFailure()
            detail.Unpack(failure)
            violations.extend((v.subject, v.description) for v in failure.violations)
    assert info is not None, "the error carries no ErrorInfo"
    assert info.domain == "boardbot.v1"
    return info, violations
