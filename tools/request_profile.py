"""Where the time of one request goes: gRPC transport, the servicer's own work, the state's
decode and the search, for a ChooseMove at 200 iterations and for the rules calls.

The servicer of a local server is called directly (no gRPC) with `bench rpc`'s requests, its
search jobs timed phase by phase (`SearchOutcome.timings`); the same requests then go through
gRPC to that server, and the transport is what the call through gRPC takes beyond the servicer.
`python -m boardbot.tools.request_profile --game leda` prints the p50 of every part.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import grpc

from boardbot.jobs import native_searches
from boardbot.jobs.search_job import SearchJob, SearchOutcome
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from boardbot.search.engines import Engine
from boardbot.service.server import BotServer, ServerConfig
from boardbot.tools.rpc_bench import Request, rpc_requests

CALL_TIMEOUT_S = 30.0
"""The deadline of every call (the servicer clips a search's time to it)."""


class _Context:
    """The little of a gRPC context the servicer reads, for calling it directly."""

    def time_remaining(self) -> float:
        return CALL_TIMEOUT_S  # as the gRPC calls' deadline: the same clipped budget

    def is_active(self) -> bool:
        return True

    def add_callback(self, callback: Callable[[], None]) -> bool:
        return True

    def abort_with_status(self, status: Any) -> None:
        raise RuntimeError(f"refused: {status}")


def _direct(method: Callable[..., Any], request: Request, numbers: Iterator[int]) -> Any:
    """The servicer's answer to the next request, called without gRPC."""
    return method(request(next(numbers)), _Context())


def _remote(method: Callable[..., Any], request: Request, numbers: Iterator[int]) -> Any:
    """The server's answer to the next request, through gRPC."""
    return method(request(next(numbers)), timeout=CALL_TIMEOUT_S)


def _p50_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def _timed(call: Callable[[], Any], count: int) -> list[float]:
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return samples


PROFILED = ("ChooseMove 200 it", "LegalMoves", "ApplyMove", "ViewState")
"""The RPCs profiled: `bench rpc`'s requests of those names (`tools/rpc_bench.rpc_requests`)."""


def profile(
    game_name: str, options: dict[str, Any], count: int, engine: Engine = Engine.AUTO
) -> list[str]:
    """The lines of the report: each RPC's parts, p50 in milliseconds."""
    requests = rpc_requests(game_name, options, seed=0, positions=4)
    jobs: list[tuple[float, SearchOutcome]] = []
    run_job = native_searches.run_search_job

    def timed_job(
        job: SearchJob,
        should_stop: Callable[[], bool] | None = None,
        on_progress: Callable[[SearchOutcome], None] | None = None,
    ) -> SearchOutcome:
        start = time.perf_counter()
        outcome = run_job(job, should_stop, on_progress)
        jobs.append((time.perf_counter() - start, outcome))
        return outcome

    lines = []
    server = BotServer(ServerConfig(host="127.0.0.1", port=0, workers=1, engine=engine))
    port = server.start()
    server.logger.disabled = True
    servicer = server.servicer
    assert servicer is not None
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    stub = pb_grpc.BoardBotStub(channel)
    native_searches.run_search_job = timed_job
    try:
        for rpc in PROFILED:
            method, request = requests[rpc]
            numbers = itertools.count()
            direct = partial(_direct, getattr(servicer, method), request, numbers)
            remote = partial(_remote, getattr(stub, method), request, numbers)
            for _ in range(40):
                direct()
                remote()
            jobs.clear()
            here = _timed(direct, count)
            direct_jobs = list(jobs)
            there = _timed(remote, count)
            line = (
                f"{rpc:<17} through gRPC {_p50_ms(there):6.3f}  servicer {_p50_ms(here):6.3f}"
                f"  transport {_p50_ms(there) - _p50_ms(here):6.3f}"
            )
            if direct_jobs:
                decode = statistics.median(o.timings["decode_ms"] for _, o in direct_jobs)
                search = statistics.median(o.timings["search_ms"] for _, o in direct_jobs)
                job = _p50_ms([t for t, _ in direct_jobs])
                line += (
                    f"  | job {job:6.3f}: decode + checks {decode:6.3f}, observe + search +"
                    f" moves {search:6.3f}; servicer outside the job"
                    f" {_p50_ms(here) - job:6.3f}"
                )
            lines.append(line)
    finally:
        native_searches.run_search_job = run_job
        channel.close()
        server.stop(grace=1)
    return lines


def main(argv: list[str] | None = None) -> None:
    """Print the profile of one request of each kind."""
    parser = argparse.ArgumentParser(prog="python -m boardbot.tools.request_profile")
    parser.add_argument("--game", default="leda")
    parser.add_argument("--players", type=int, default=0)
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args(argv)
    options = {"players": args.players} if args.players else {}
    print(f"{args.game}{f' {options}' if options else ''}: p50 in ms")
    for line in profile(args.game, options, args.requests):
        print(line)


if __name__ == "__main__":
    main()
