"""The BoardBot gRPC servicer: request checks here, search in the worker pool."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import grpc
import orjson

from engine import EngineError, list_games
from proto.boardbot.v1 import boardbot_pb2 as pb
from proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from service import convert, rules, settings
from service.errors import ServiceError, from_engine_error, invalid_argument
from service.metrics import Metrics
from service.request_log import log_request
from service.search_job import SearchJob, SearchOutcome
from service.worker_pool import PoolBusy, PoolClosed, PoolJob, WorkerPool

Response = TypeVar("Response")
Record = dict[str, Any]

DEFAULT_STREAM_EVERY_MS = 100.0
"""Period of partial analyses when a stream request sets neither period."""


class BoardBotServicer(pb_grpc.BoardBotServicer):
    """Implements every RPC of boardbot.v1.BoardBot."""

    def __init__(
        self,
        pool: WorkerPool,
        metrics: Metrics,
        logger: logging.Logger,
        limits: settings.Limits,
    ) -> None:
        self.pool = pool
        self.metrics = metrics
        self.logger = logger
        self.limits = limits

    # -- RPCs -------------------------------------------------------------------------------

    def ListGames(self, request: pb.ListGamesRequest, context: grpc.ServicerContext) -> Any:
        """Every game with its options, and the difficulty presets."""
        return self._unary("ListGames", self._list_games, request, context)

    def NewGame(self, request: pb.NewGameRequest, context: grpc.ServicerContext) -> Any:
        """A fresh game from options and seed."""
        return self._unary("NewGame", self._new_game, request, context)

    def LegalMoves(self, request: pb.LegalMovesRequest, context: grpc.ServicerContext) -> Any:
        """The legal moves of the seat to move."""
        return self._unary("LegalMoves", self._legal_moves, request, context)

    def ApplyMove(self, request: pb.ApplyMoveRequest, context: grpc.ServicerContext) -> Any:
        """The state after a move."""
        return self._unary("ApplyMove", self._apply_move, request, context)

    def ChooseMove(self, request: pb.ChooseMoveRequest, context: grpc.ServicerContext) -> Any:
        """The bot's move for a seat."""
        return self._unary("ChooseMove", self._choose_move, request, context)

    def Analyze(self, request: pb.AnalyzeRequest, context: grpc.ServicerContext) -> Any:
        """The best moves for a seat, ranked."""
        return self._unary("Analyze", self._analyze, request, context)

    def AnalyzeStream(
        self, request: pb.AnalyzeStreamRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.AnalyzeResponse]:
        """Partial analyses while the search runs, then the final one."""
        record: Record = {"method": "AnalyzeStream", "game": request.analysis.game}
        start = time.perf_counter()
        status = "OK"
        try:
            yield from self._analyze_stream(request, context, record)
        except ServiceError as error:
            status = error.code.name
            context.abort(error.code, error.message)
        except Exception as error:
            status = "INTERNAL"
            self.logger.exception("AnalyzeStream failed")
            context.abort(grpc.StatusCode.INTERNAL, f"internal error: {type(error).__name__}")
        finally:
            if status == "OK" and not context.is_active():
                status = "CANCELLED"
            self._record(record, status, start)

    # -- plumbing ---------------------------------------------------------------------------

    def _unary(
        self,
        method: str,
        handler: Callable[[Any, grpc.ServicerContext, Record], Response],
        request: Any,
        context: grpc.ServicerContext,
    ) -> Response:
        record: Record = {"method": method, "game": getattr(request, "game", "")}
        start = time.perf_counter()
        status = "OK"
        try:
            return handler(request, context, record)
        except ServiceError as error:
            status = error.code.name
            context.abort(error.code, error.message)
        except Exception as error:
            status = "INTERNAL"
            self.logger.exception("%s failed", method)
            context.abort(grpc.StatusCode.INTERNAL, f"internal error: {type(error).__name__}")
        finally:
            if status == "OK" and not context.is_active():
                status = "CANCELLED"  # the client left (cancelled, or its deadline passed)
            self._record(record, status, start)
        raise AssertionError("unreachable: context.abort raises")

    def _record(self, record: Record, status: str, start: float) -> None:
        latency = time.perf_counter() - start
        self.metrics.observe_request(record["method"], status, latency)
        record["status"] = status
        record["latency_ms"] = round(latency * 1000.0, 3)
        log_request(self.logger, record)

    # -- handlers ---------------------------------------------------------------------------

    def _list_games(
        self, request: pb.ListGamesRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.ListGamesResponse:
        games = []
        for name in list_games():
            try:
                game = rules.load_game(name)
            except (ImportError, ServiceError):
                continue  # a registered game whose package is absent from this build
            games.append(
                pb.GameInfo(
                    name=name,
                    min_players=game.min_players,
                    max_players=game.max_players,
                    options_json=orjson.dumps(game.describe_options()),
                    presets=self._preset_messages(name),
                )
            )
        return pb.ListGamesResponse(games=games, presets=self._preset_messages(None))

    def _preset_messages(self, game: str | None) -> list[pb.Preset]:
        """Each preset as this server runs it for `game` (after its caps, e.g. workers)."""
        return [
            pb.Preset(
                name=name,
                settings=convert.settings_message(settings.resolve(name, {}, self.limits, game)),
            )
            for name in settings.presets(game)
        ]

    def _new_game(
        self, request: pb.NewGameRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.NewGameResponse:
        game = rules.load_game(request.game)
        raw = request.options_json
        options = rules.parse_json(raw, "options_json") if raw else {}
        if not isinstance(options, dict):
            raise invalid_argument("options_json: expected a JSON object of options")
        options = rules.with_player_count(game, request.game, options, request.players)
        try:
            state = game.new_state(options, request.seed)
        except EngineError as error:
            raise from_engine_error("options_json", error) from None
        except (ValueError, TypeError, KeyError) as error:
            raise invalid_argument(f"options_json: {error}") from None
        state, events = rules.resolve_chance(game, state, random.Random(request.seed))
        return pb.NewGameResponse(
            state_json=rules.encode_state(game, state),
            summary=convert.summary_message(rules.summarise(game, state)),
            chance_events=events,
        )

    def _legal_moves(
        self, request: pb.LegalMovesRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.LegalMovesResponse:
        game = rules.load_game(request.game)
        state = rules.decode_state(game, request.state_json)
        rules.check_seat(game, state, request.seat)
        moves = rules.legal_moves(game, state)
        return pb.LegalMovesResponse(moves=[convert.move_message(m) for m in moves])

    def _apply_move(
        self, request: pb.ApplyMoveRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.ApplyMoveResponse:
        game = rules.load_game(request.game)
        state = rules.decode_state(game, request.state_json)
        rules.check_decision_state(game, state)
        which = request.WhichOneof("move")
        action = rules.parse_move(
            game,
            state,
            request.move_json if which == "move_json" else None,
            request.notation if which == "notation" else None,
        )
        applied = rules.move_forms(game, state, action)
        state = game.apply(state, action)
        state, events = rules.resolve_chance(game, state, random.Random(request.seed))
        return pb.ApplyMoveResponse(
            state_json=rules.encode_state(game, state),
            summary=convert.summary_message(rules.summarise(game, state)),
            move=convert.move_message(applied),
            chance_events=events,
        )

    def _choose_move(
        self, request: pb.ChooseMoveRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.ChooseMoveResponse:
        job = self._search_job(request, context, record, ranked=False)
        outcome = self._finish(self._submit(job, context), record)
        return convert.choose_move_response(outcome)

    def _analyze(
        self, request: pb.AnalyzeRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.AnalyzeResponse:
        job = self._search_job(request, context, record, top_k=request.top_k)
        outcome = self._finish(self._submit(job, context), record)
        return convert.analyze_response(outcome)

    def _analyze_stream(
        self, request: pb.AnalyzeStreamRequest, context: grpc.ServicerContext, record: Record
    ) -> Iterator[pb.AnalyzeResponse]:
        if request.every_iterations < 0 or request.every_ms < 0:
            raise invalid_argument("every_iterations and every_ms must not be negative")
        every_ms = float(request.every_ms)
        if request.every_iterations == 0 and every_ms == 0:
            every_ms = DEFAULT_STREAM_EVERY_MS
        job = self._search_job(
            request.analysis,
            context,
            record,
            top_k=request.analysis.top_k,
            every_iterations=request.every_iterations,
            every_ms=every_ms,
        )
        pool_job = self._submit(job, context)
        for outcome in pool_job.stream():
            if outcome.final:
                self._note_search(outcome, record)
            yield convert.analyze_response(outcome)

    # -- search requests --------------------------------------------------------------------

    def _search_job(
        self,
        request: pb.ChooseMoveRequest | pb.AnalyzeRequest,
        context: grpc.ServicerContext,
        record: Record,
        top_k: int = 0,
        every_iterations: int = 0,
        every_ms: float = 0.0,
        ranked: bool = True,
    ) -> SearchJob:
        rules.load_game(request.game)
        if top_k < 0:
            raise invalid_argument(f"top_k: must be 0 (all) or more, got {top_k}")
        if not request.state_json:
            raise invalid_argument("state_json: required (a JSON document), got empty bytes")
        record["preset"] = request.preset or settings.default_preset_name()
        overrides = convert.settings_overrides(request.settings)
        config = settings.resolve(request.preset, overrides, self.limits, request.game)
        config = settings.clip_to_deadline(
            config, context.time_remaining(), self.limits, time.time()
        )
        return SearchJob(
            game=request.game,
            state_json=request.state_json,
            seat=request.seat,
            config=config,
            seed=request.seed,
            top_k=top_k,
            progress_every_iterations=every_iterations,
            progress_every_ms=every_ms,
            ranked=ranked,
        )

    def _submit(self, job: SearchJob, context: grpc.ServicerContext) -> PoolJob:
        try:
            pool_job = self.pool.submit(job)
        except PoolBusy as error:
            raise ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, str(error)) from None
        except PoolClosed as error:
            raise ServiceError(grpc.StatusCode.UNAVAILABLE, str(error)) from None
        if not context.add_callback(pool_job.cancel):
            pool_job.cancel()  # the call ended already
        return pool_job

    def _finish(self, pool_job: PoolJob, record: Record) -> SearchOutcome:
        outcome = pool_job.result()
        self._note_search(outcome, record)
        return outcome

    def _note_search(self, outcome: SearchOutcome, record: Record) -> None:
        record["iterations"] = outcome.iterations
        record["search_ms"] = round(outcome.elapsed_ms, 3)
        record["stopped_by"] = outcome.stopped_by
        self.metrics.observe_search(outcome.iterations, outcome.elapsed_ms)
