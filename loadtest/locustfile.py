"""Locust scenarios for a running boardbot server, driven over gRPC only.

Run from the repository root, e.g.
`python -m locust -f loadtest/locustfile.py --headless -u 2 -r 1 -t 30s --host 127.0.0.1:50051
PlayerUser`. `PlayerUser` mirrors real use (bot moves at mixed presets for every game setup,
analyses, and the cheap rules calls); `OverloadUser` only asks for bot moves, with no think time.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import gevent
import grpc
from locust import between, constant, events, task
from locust.env import Environment

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from loadtest.corpus import CORPUS_DIR, SETUPS, Position, load_corpus
from loadtest.grpc_user import GrpcUser, RpcFailure
from loadtest.names import search_name

_user_numbers = itertools.count()
_corpus_cache: dict[Path, dict[str, list[Position]]] = {}


@events.init_command_line_parser.add_listener
def add_arguments(parser: Any) -> None:
    """The scenario options of this locustfile."""
    group = parser.add_argument_group("boardbot")
    group.add_argument("--corpus", default=str(CORPUS_DIR), help="directory of recorded states")
    group.add_argument(
        "--presets",
        default="beginner,easy,medium,hard",
        help="comma-separated presets ChooseMove draws from",
    )
    group.add_argument("--analyze-preset", default="easy", help="preset of Analyze calls")
    group.add_argument("--overload-preset", default="medium", help="preset of OverloadUser")
    group.add_argument("--rpc-timeout", type=float, default=30.0, help="deadline per call (s)")
    group.add_argument(
        "--samples-file",
        default="",
        help="also write every request as a JSON line [name, ms, status] to this file",
    )
    group.add_argument(
        "--shed-backoff",
        type=float,
        default=0.25,
        help="seconds a user waits after RESOURCE_EXHAUSTED before its next call",
    )


_samples: list[tuple[str, float, str]] = []


@events.request.add_listener
def keep_sample(
    name: str, response_time: float, exception: BaseException | None, **_: Any
) -> None:
    """Keep every request's exact latency and status for --samples-file."""
    if exception is None:
        status = "OK"
    elif isinstance(exception, RpcFailure):
        status = exception.code.name
    else:
        status = type(exception).__name__
    _samples.append((name, response_time, status))


@events.quitting.add_listener
def write_samples(environment: Environment, **_: Any) -> None:
    """Write the kept samples to --samples-file, one JSON array per line."""
    path = _option(environment, "samples_file", "")
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(sample) + "\n" for sample in _samples)


def scenario_corpus(environment: Environment) -> dict[str, list[Position]]:
    """The corpus named by --corpus, read once per process."""
    directory = Path(_option(environment, "corpus", str(CORPUS_DIR)))
    if directory not in _corpus_cache:
        _corpus_cache[directory] = load_corpus(directory)
    return _corpus_cache[directory]


def _option(environment: Environment, name: str, default: Any) -> Any:
    options = environment.parsed_options
    return getattr(options, name, default) if options is not None else default


class BoardBotUser(GrpcUser):
    """A frontend of the bot service: a seeded random stream of requests over the corpus."""

    abstract = True
    stub_class = pb_grpc.BoardBotStub

    def __init__(self, environment: Environment) -> None:
        self.rpc_timeout_s = float(_option(environment, "rpc_timeout", 30.0))
        super().__init__(environment)
        self.number = next(_user_numbers)
        self.rng = random.Random(self.number)
        self.corpus = scenario_corpus(environment)
        self.presets = [p for p in str(_option(environment, "presets", "")).split(",") if p]
        self.analyze_preset = str(_option(environment, "analyze_preset", "easy"))
        self.shed_backoff_s = float(_option(environment, "shed_backoff", 0.25))

    def position(self) -> Position:
        """A recorded state of a setup drawn at random."""
        setup = self.rng.choice(SETUPS).label
        return self.rng.choice(self.corpus[setup])

    def seed(self) -> int:
        """A fresh request seed from this user's own stream."""
        return self.rng.getrandbits(63)

    def choose_move(self, preset: str) -> None:
        """Ask for the bot's move in a recorded state at `preset`."""
        p = self.position()
        request = pb.ChooseMoveRequest(
            game=p.game, state_json=p.state_json, seat=p.seat, preset=preset, seed=self.seed()
        )
        self.search_call("ChooseMove", search_name("ChooseMove", preset), request)

    def search_call(self, rpc: str, name: str, request: Any) -> Any | None:
        """A search call; after a RESOURCE_EXHAUSTED answer, back off before going on."""
        response = self.client.call(rpc, name, request)
        failure = self.client.last_failure
        if failure is not None and failure.code is grpc.StatusCode.RESOURCE_EXHAUSTED:
            gevent.sleep(self.shed_backoff_s * (0.5 + self.rng.random()))
        return response


class PlayerUser(BoardBotUser):
    """Real use: mostly bot moves at mixed presets, some analyses, and the rules calls."""

    wait_time = between(0.1, 0.5)

    @task(5)
    def bot_move(self) -> None:
        """ChooseMove at a preset drawn from --presets."""
        self.choose_move(self.rng.choice(self.presets))

    @task(1)
    def analyze(self) -> None:
        """Analyze the top moves at --analyze-preset."""
        p = self.position()
        request = pb.AnalyzeRequest(
            game=p.game,
            state_json=p.state_json,
            seat=p.seat,
            preset=self.analyze_preset,
            seed=self.seed(),
            top_k=5,
        )
        self.search_call("Analyze", search_name("Analyze", self.analyze_preset), request)

    @task(1)
    def new_game(self) -> None:
        """Set up a new game of a setup drawn at random."""
        setup = self.rng.choice(SETUPS)
        request = pb.NewGameRequest(
            game=setup.game, options_json=json.dumps(setup.options).encode(), seed=self.seed()
        )
        self.client.call("NewGame", "NewGame", request)

    @task(3)
    def human_turn(self) -> None:
        """What a frontend does for a human's turn: list the legal moves, then play one."""
        p = self.position()
        listed = self.client.call(
            "LegalMoves",
            "LegalMoves",
            pb.LegalMovesRequest(game=p.game, state_json=p.state_json, seat=p.seat),
        )
        if listed is None or not listed.moves:
            return
        move = self.rng.choice(listed.moves)
        request = pb.ApplyMoveRequest(
            game=p.game, state_json=p.state_json, move_json=move.move_json, seed=self.seed()
        )
        self.client.call("ApplyMove", "ApplyMove", request)


class OverloadUser(BoardBotUser):
    """A bot-move client with no think time, to push the server past what its workers serve."""

    wait_time = constant(0)

    @task
    def bot_move(self) -> None:
        """ChooseMove at --overload-preset."""
        self.choose_move(str(_option(self.environment, "overload_preset", "medium")))

