"""The RPC-level differential: every rules call sent to a Python-engine server and to a native one,
every reply compared byte for byte.

Two in-process servers run side by side, `--engine python` and `--engine auto` (rules calls on
the native twin). Each request goes to both, and the two answers must be identical: the reply
message's bytes, or the status code, message and rich details (reason, field, JSON path) of a
refusal. The requests:

* the load-test corpus (`loadtest/corpus`): LegalMoves, ViewState for every seat, and ApplyMove
  of each legal move (by JSON and by notation) with a seed;
* recorded deals (the ladders' games files: each game's options and seed): NewGame, then the game
  played to its end through the servers, a seeded legal move at a time, with LegalMoves,
  ViewState and ApplyMove (chance resolved by the server, or given by hand with
  `manual_chance`) compared at every step;
* the fuzzer's hostile requests (`fuzz/grpc_cases.py`) for the rules RPCs: mutated states, bad
  seats, names, moves and chance outcomes, deep documents, raw bytes.

`python -m tests.native.rpc_parity --cases N --games G` runs it at any size (`make diff` runs it
after the engine differential); `tests/native/test_rpc_parity.py` runs a bounded slice.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import orjson

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search.engines import Engine
from fuzz.grpc_cases import REQUEST_TYPES, GrpcCaseFactory, Target
from fuzz.seeds import all_seeds
from loadtest.corpus import CORPUS_DIR, load_corpus
from tests.service.servers import MAX_MESSAGE_BYTES, Served, start_server

RULES_METHODS = ("NewGame", "LegalMoves", "ApplyMove", "ViewState")
"""The RPCs whose replies must be identical on both engines."""
LADDERS_DIR = Path(__file__).resolve().parents[2] / "ladders"
"""Where the recorded deals are (each ladder's games.jsonl)."""
CALL_TIMEOUT_S = 60.0
"""Generous: the comparison is of answers, not of speed."""
MAX_GAME_STEPS = 2_000
"""Bound on the ApplyMove calls of one replayed game (games end long before)."""


@dataclass(frozen=True)
class Answer:
    """A reply as compared: the message's bytes, or the refusal's code, message and details."""

    code: str
    message: str = ""
    details: bytes = b""
    reply: bytes = b""


@dataclass
class Tally:
    """Requests compared and the differences found (the first few kept, with their requests)."""

    compared: dict[str, int] = field(default_factory=dict)
    refused: int = 0
    differences: list[str] = field(default_factory=list)

    def add(self, method: str, python: Answer, native: Answer, request: str) -> None:
        """Count one comparison; keep the difference if the answers differ."""
        self.compared[method] = self.compared.get(method, 0) + 1
        self.refused += python.code != "OK"
        if python != native and len(self.differences) < 20:
            self.differences.append(
                f"{method} {request[:300]}\n  python: {_shown(python)}\n  native: {_shown(native)}"
            )
        elif python != native:
            self.differences.append(method)

    @property
    def total(self) -> int:
        """Requests compared in all."""
        return sum(self.compared.values())


def _shown(answer: Answer) -> str:
    if answer.code == "OK":
        return f"OK {answer.reply[:400]!r}"
    return f"{answer.code} {answer.message[:300]!r}"


class ServerPair:
    """A Python-engine server and a native one, with raw callables for every RPC."""

    def __init__(self) -> None:
        self.python = start_server(engine=Engine.PYTHON, workers=1)
        self.native = start_server(engine=Engine.AUTO, workers=1)

    def close(self) -> None:
        """Stop both servers."""
        self.python.close()
        self.native.close()

    def both(self, method: str, request: Any) -> tuple[Answer, Answer]:
        """The answers of both servers to `request` (a message, or raw bytes)."""
        return _call(self.python, method, request), _call(self.native, method, request)


def _call(served: Served, method: str, request: Any) -> Answer:
    raw = request if isinstance(request, bytes) else request.SerializeToString()
    call = served.channel.unary_unary(
        f"/boardbot.v1.BoardBot/{method}",
        request_serializer=None,
        response_deserializer=None,
    )
    try:
        reply = call(raw, timeout=CALL_TIMEOUT_S)
    except grpc.RpcError as error:
        assert isinstance(error, grpc.Call)
        trailers = dict(error.trailing_metadata() or ())
        details = trailers.get("grpc-status-details-bin", b"")
        return Answer(error.code().name, error.details() or "", bytes(details))
    return Answer("OK", reply=bytes(reply))


def _describe(request: Any) -> str:
    if isinstance(request, bytes):
        return f"raw {request[:200]!r}"
    return str(request).replace("\n", " ")


def compare(pair: ServerPair, tally: Tally, method: str, request: Any) -> Answer:
    """Send `request` to both servers, tally the comparison, and return the Python answer."""
    python, native = pair.both(method, request)
    tally.add(method, python, native, _describe(request))
    return python


# -- the load-test corpus ----------------------------------------------------------------------


def corpus_requests(limit: int, seed: int) -> Iterator[tuple[str, Any]]:
    """Rules requests about the recorded mid-game positions: LegalMoves, ViewState of every
    seat, and ApplyMove of legal moves by JSON and by notation (at most `limit` positions)."""
    rng = random.Random(seed)
    positions = [p for setup in load_corpus(CORPUS_DIR).values() for p in setup]
    rng.shuffle(positions)
    for position in positions[:limit]:
        game, state = position.game, position.state_json
        yield "LegalMoves", pb.LegalMovesRequest(game=game, state_json=state, seat=position.seat)
        for seat in range(-1, 5):
            yield "ViewState", pb.ViewStateRequest(game=game, state_json=state, seat=seat)
        yield "ApplyMove", pb.ApplyMoveRequest(
            game=game, state_json=state, notation="", seed=rng.getrandbits(64)
        )


def corpus_moves(pair: ServerPair, tally: Tally, limit: int, seed: int) -> None:
    """Compare the corpus requests, then apply a few of each position's legal moves."""
    rng = random.Random(seed)
    for method, request in corpus_requests(limit, seed):
        answer = compare(pair, tally, method, request)
        if method != "LegalMoves" or answer.code != "OK":
            continue
        listed = pb.LegalMovesResponse.FromString(answer.reply)
        for move in rng.sample(list(listed.moves), min(3, len(listed.moves))):
            by_json = pb.ApplyMoveRequest(
                game=request.game,
                state_json=request.state_json,
                move_json=move.move_json,
                seed=rng.getrandbits(64),
            )
            compare(pair, tally, "ApplyMove", by_json)
            by_notation = pb.ApplyMoveRequest(
                game=request.game,
                state_json=request.state_json,
                notation=move.notation,
                seed=rng.getrandbits(64),
                manual_chance=rng.random() < 0.5,
            )
            compare(pair, tally, "ApplyMove", by_notation)


# -- recorded deals, played through ------------------------------------------------------------


def recorded_deals(limit: int, seed: int) -> list[tuple[str, dict[str, Any], int]]:
    """(game, options, seed) of `limit` games picked from the ladders' games files."""
    deals: set[tuple[str, str, int]] = set()
    for path in sorted(LADDERS_DIR.glob("*/games.jsonl")):
        game = "leda" if path.parent.name.startswith("leda") else "legend_raiders"
        for line in path.read_text().splitlines():
            record = json.loads(line)
            deals.add((game, json.dumps(record["options"], sort_keys=True), record["seed"]))
    picked = random.Random(seed).sample(sorted(deals), min(limit, len(deals)))
    return [(game, json.loads(options), deal_seed) for game, options, deal_seed in picked]


def play_deal(
    pair: ServerPair, tally: Tally, game: str, options: dict[str, Any], seed: int, rng: Any
) -> None:
    """NewGame from a recorded deal, then the game to its end through both servers, every
    LegalMoves, ViewState and ApplyMove compared (chance by the server, or by hand)."""
    manual = rng.random() < 0.5
    request = pb.NewGameRequest(
        game=game, options_json=orjson.dumps(options), seed=seed, manual_chance=manual
    )
    answer = compare(pair, tally, "NewGame", request)
    if answer.code != "OK":
        return
    step = pb.NewGameResponse.FromString(answer.reply)
    state, summary = step.state_json, step.summary
    for _ in range(MAX_GAME_STEPS):
        if summary.terminal:
            return
        seat = summary.current_player
        if rng.random() < 0.2:
            view_seat = rng.randrange(summary.num_players)
            compare(pair, tally, "ViewState", pb.ViewStateRequest(
                game=game, state_json=state, seat=view_seat))  # fmt: skip
        listed = compare(pair, tally, "LegalMoves", pb.LegalMovesRequest(
            game=game, state_json=state, seat=seat))  # fmt: skip
        if listed.code != "OK":
            return
        moves = list(pb.LegalMovesResponse.FromString(listed.reply).moves)
        apply = pb.ApplyMoveRequest(
            game=game, state_json=state, seed=rng.getrandbits(64), manual_chance=manual
        )
        if moves:
            move = rng.choice(moves)
            if rng.random() < 0.5:
                apply.move_json = move.move_json
            else:
                apply.notation = move.notation
        answer = compare(pair, tally, "ApplyMove", apply)
        if answer.code != "OK":
            return
        applied = pb.ApplyMoveResponse.FromString(answer.reply)
        state, summary = applied.state_json, applied.summary


def deals(pair: ServerPair, tally: Tally, limit: int, seed: int) -> None:
    """Play `limit` recorded deals through both servers."""
    rng = random.Random(seed)
    for game, options, deal_seed in recorded_deals(limit, seed):
        play_deal(pair, tally, game, options, deal_seed, rng)


# -- the fuzzer's documents --------------------------------------------------------------------


def fuzz_requests(count: int, seed: int) -> Iterator[tuple[str, Any]]:
    """The fuzzer's hostile rules requests (`count` of them, from run seed `seed`), without
    deadlines and with the token (the comparison is of the engines' answers)."""
    factory = GrpcCaseFactory(
        seed, all_seeds(seed, games_per_setup=1), Target(MAX_MESSAGE_BYTES, 60_000.0)
    )
    made = 0
    for index in itertools.count():
        if made >= count:
            return
        case = factory.case(index)
        if case.method not in RULES_METHODS or case.tokenless:
            continue
        made += 1
        if case.raw is not None:
            yield case.method, case.raw
        else:
            message = case.message()
            yield case.method, REQUEST_TYPES[case.method].FromString(message.SerializeToString())


def fuzz(pair: ServerPair, tally: Tally, count: int, seed: int) -> None:
    """Compare `count` of the fuzzer's rules requests."""
    for method, request in fuzz_requests(count, seed):
        compare(pair, tally, method, request)


def run(cases: int, games: int, positions: int, seed: int) -> Tally:
    """Every family of requests at the given sizes; the tally of comparisons."""
    tally = Tally()
    pair = ServerPair()
    try:
        corpus_moves(pair, tally, positions, seed)
        deals(pair, tally, games, seed)
        fuzz(pair, tally, cases, seed)
    finally:
        pair.close()
    return tally


def main(argv: list[str] | None = None) -> int:
    """Run the RPC differential and print the counts; exit 1 on any difference."""
    parser = argparse.ArgumentParser(prog="python -m tests.native.rpc_parity")
    parser.add_argument("--cases", type=int, default=20_000, help="fuzzer requests")
    parser.add_argument("--games", type=int, default=100, help="recorded deals played through")
    parser.add_argument("--positions", type=int, default=400, help="corpus positions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tally = run(args.cases, args.games, args.positions, args.seed)
    counts = ", ".join(f"{m} {n:,}" for m, n in sorted(tally.compared.items()))
    print(
        f"rpc parity: {tally.total:,} requests compared ({counts}), {tally.refused:,} refused "
        f"on both; {len(tally.differences)} differences; {time.perf_counter() - started:.0f} s"
    )
    for difference in tally.differences[:20]:
        print(difference)
    return 1 if tally.differences else 0


if __name__ == "__main__":
    sys.exit(main())
