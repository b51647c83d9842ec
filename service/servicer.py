"""The BoardBot gRPC servicer: request checks here, search in the worker pool."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import math
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import grpc
import orjson

from boardbot.engine import list_games
from boardbot.jobs import game_ops, review, settings
from boardbot.jobs.failures import FailureKind, Reason, RequestError, internal
from boardbot.jobs.native_searches import NativeSearch, NativeSearches
from boardbot.jobs.request_bounds import (
    MAX_NAME_CHARS,
    MAX_STATE_BYTES,
    MAX_STREAM_EVERY_MS,
    MAX_TOP_K,
    check_document,
    check_range,
    check_session_key,
)
from boardbot.jobs.review_job import PositionJob, PositionSearch
from boardbot.jobs.rules_job import NewGameCall, RulesCall, RulesJob, run_native_rules_job
from boardbot.jobs.search_job import SearchJob, SearchOutcome
from boardbot.jobs.threads import auto_thread_cap
from boardbot.jobs.worker_pool import PoolBusy, PoolClosed, PoolJob, WorkerPool
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from boardbot.search.engines import Engine, native_games
from boardbot.search.presets import preset_names
from boardbot.search.strength.errors import CalibrationFileError
from boardbot.search.strength.loader import calibrations_for
from boardbot.service import convert
from boardbot.service.errors import grpc_status
from boardbot.service.metrics import Metrics
from boardbot.service.request_log import log_request

Response = TypeVar("Response")
Record = dict[str, Any]

DEFAULT_STREAM_EVERY_MS = 100.0
"""Period of partial analyses when a stream request sets neither period."""
REVIEW_CANDIDATES = 5
"""Top moves listed for each reviewed position."""


class BoardBotServicer(pb_grpc.BoardBotServicer):
    """Implements every RPC of boardbot.v1.BoardBot."""

    def __init__(
        self,
        pool: WorkerPool,
        metrics: Metrics,
        logger: logging.Logger,
        limits: settings.Limits,
        rules_pool: WorkerPool,
        native_searches: NativeSearches,
        engine: Engine = Engine.AUTO,
        search_threads: int | None = None,
    ) -> None:
        self.pool = pool
        self.engine = engine
        """What runs each search: the native core where a game has one, or Python."""
        self.search_threads = search_threads
        """Most threads a native search takes from idle cores (None: every worker's core)."""
        self.native_games = frozenset(native_games() if engine is not Engine.PYTHON else ())
        """Games whose searches run on the native core here (they may use several threads)."""
        self.rules_pool = rules_pool
        """Where rules calls (NewGame, LegalMoves, ApplyMove, ViewState) of games served by the
        Python engine run."""
        self.native_searches = native_searches
        """Where the searches of games served natively run: in this process."""
        self.metrics = metrics
        self.logger = logger
        self.limits = limits
        self._reviews = 0
        """Game reviews running now (at most `limits.max_reviews`)."""
        self._reviews_lock = threading.Lock()

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

    def ViewState(self, request: pb.ViewStateRequest, context: grpc.ServicerContext) -> Any:
        """The state as one seat sees it."""
        return self._unary("ViewState", self._view_state, request, context)

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
        record: Record = {"method": "AnalyzeStream", "game": request.analysis.game[:MAX_NAME_CHARS]}
        return self._streaming(record, self._analyze_stream, request, context)

    def ReviewGame(
        self, request: pb.ReviewGameRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.ReviewGameResponse]:
        """Each decision of a record reviewed, in order, then the summary per seat."""
        record: Record = {"method": "ReviewGame", "game": ""}
        return self._streaming(record, self._review_game, request, context)

    # -- plumbing ---------------------------------------------------------------------------

    def _streaming(
        self,
        record: Record,
        handler: Callable[[Any, grpc.ServicerContext, Record], Iterator[Response]],
        request: Any,
        context: grpc.ServicerContext,
    ) -> Iterator[Response]:
        """The messages of a server-streaming call, its failure answered and the call logged
        and counted as a unary call is."""
        start = time.perf_counter()
        status = "OK"
        try:
            yield from handler(request, context, record)
        except Exception as error:
            failure = self._failure(record["method"], error, record)
            status = failure.kind.name
            self._refuse(context, failure)
        finally:
            if status == "OK" and not context.is_active():
                status = "CANCELLED"
            self._record(record, status, start)

    def _unary(
        self,
        method: str,
        handler: Callable[[Any, grpc.ServicerContext, Record], Response],
        request: Any,
        context: grpc.ServicerContext,
    ) -> Response:
        record: Record = {"method": method, "game": getattr(request, "game", "")[:MAX_NAME_CHARS]}
        start = time.perf_counter()
        status = "OK"
        try:
            return handler(request, context, record)
        except Exception as error:
            failure = self._failure(method, error, record)
            status = failure.kind.name
            self._refuse(context, failure)
        finally:
            if status == "OK" and not context.is_active():
                status = "CANCELLED"  # the client left (cancelled, or its deadline passed)
            self._record(record, status, start)
        raise AssertionError("unreachable: context.abort raises")

    def _failure(self, method: str, error: Exception, record: Record) -> RequestError:
        """The error to answer with (INTERNAL, logged, for anything but a RequestError)."""
        if not isinstance(error, RequestError):
            self.logger.exception("%s failed", method)
            error = internal(f"internal error: {type(error).__name__}")
        record["reason"] = error.reason
        return error

    @staticmethod
    def _refuse(context: grpc.ServicerContext, error: RequestError) -> None:
        """End the call with `error` and its rich details (raises, as `abort` does)."""
        context.abort_with_status(grpc_status(error))

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
                game = game_ops.load_game(name)
            except (ImportError, RequestError):
                continue  # a registered game whose package is absent from this build
            games.append(
                pb.GameInfo(
                    name=name,
                    min_players=game.min_players,
                    max_players=game.max_players,
                    options_json=orjson.dumps(game.describe_options()),
                    presets=self._preset_messages(name),
                    strength_ranges=self._strength_ranges(
                        name, range(game.min_players, game.max_players + 1)
                    ),
                )
            )
        return pb.ListGamesResponse(games=games, presets=self._preset_messages(None))

    def _strength_ranges(self, game: str, player_counts: range) -> list[pb.StrengthRange]:
        """The calibrated target_elo range of each player count (none for an unreadable file,
        which is logged)."""
        try:
            found = calibrations_for(game, player_counts, self.engine)
        except CalibrationFileError as error:
            self.logger.warning("strength calibration of %s ignored: %s", game, error)
            return []
        return [convert.strength_range_message(c) for c in found.values()]

    def _preset_messages(self, game: str | None) -> list[pb.Preset]:
        """Each preset as this server runs it for `game` (after its caps, e.g. workers)."""
        return [
            pb.Preset(
                name=name,
                settings=convert.settings_message(
                    settings.resolve(name, {}, self.limits, game, self.engine)
                ),
                analysis_settings=convert.settings_message(
                    settings.resolve(name, {}, self.limits, game, self.engine, analysis=True)
                ),
            )
            for name in preset_names()
        ]

    def _new_game(
        self, request: pb.NewGameRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.NewGameResponse:
        step = self._rules_call(convert.new_game_call(request), context)
        return convert.new_game_response(step)

    def _legal_moves(
        self, request: pb.LegalMovesRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.LegalMovesResponse:
        listed = self._rules_call(convert.legal_moves_call(request), context)
        return convert.legal_moves_response(listed)

    def _apply_move(
        self, request: pb.ApplyMoveRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.ApplyMoveResponse:
        step = self._rules_call(convert.apply_move_call(request), context)
        return convert.apply_move_response(step)

    def _view_state(
        self, request: pb.ViewStateRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.ViewStateResponse:
        view = self._rules_call(convert.view_state_call(request), context)
        return convert.view_state_response(view)

    def _rules_call(self, call: RulesCall, context: grpc.ServicerContext) -> Any:
        """Run a rules call, bounded by the client's deadline and the server's: on the native
        core in this thread (every native call ends within the request's bounds), on the
        Python engine in a worker the watchdog can kill."""
        game_ops.load_game(call.game)  # an unknown game is refused without a worker
        if not isinstance(call, NewGameCall):
            check_document("state_json", call.state_json, MAX_STATE_BYTES)
        remaining = context.time_remaining()
        deadline = None
        if remaining is not None and math.isfinite(remaining):
            deadline = time.time() + remaining
        budget_s = self.limits.max_call_ms / 1000
        if call.game in self.native_games:
            return run_native_rules_job(RulesJob(call, deadline, budget_s, Engine.AUTO))
        job = RulesJob(call, deadline, budget_s)
        return self._submit(self.rules_pool, job, context).result()

    def _choose_move(
        self, request: pb.ChooseMoveRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.ChooseMoveResponse:
        job = self._search_job(request, context, record, top_k=request.top_k, ranked=False)
        outcome = self._finish(self._submit(self._searches_of(job), job, context), record)
        return convert.choose_move_response(outcome)

    def _analyze(
        self, request: pb.AnalyzeRequest, context: grpc.ServicerContext, record: Record
    ) -> pb.AnalyzeResponse:
        job = self._search_job(request, context, record, top_k=request.top_k)
        outcome = self._finish(self._submit(self._searches_of(job), job, context), record)
        return convert.analyze_response(outcome)

    def _analyze_stream(
        self, request: pb.AnalyzeStreamRequest, context: grpc.ServicerContext, record: Record
    ) -> Iterator[pb.AnalyzeResponse]:
        check_range("every_iterations", request.every_iterations, 0, self.limits.max_iterations)
        check_range("every_ms", request.every_ms, 0, MAX_STREAM_EVERY_MS)
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
        pool_job = self._submit(self._searches_of(job), job, context)
        for outcome in pool_job.stream():
            if outcome.final:
                self._note_search(outcome, record)
            yield convert.analyze_response(outcome)

    def _review_game(
        self, request: pb.ReviewGameRequest, context: grpc.ServicerContext, record: Record
    ) -> Iterator[pb.ReviewGameResponse]:
        plan = review.plan_review(request.record_json, list(request.seats))
        record["game"] = plan.game[:MAX_NAME_CHARS]
        record["decisions"] = len(plan.decisions)
        record["preset"] = (request.preset or settings.default_preset_name())[:MAX_NAME_CHARS]
        review_settings = self._review_settings(request, context, plan.game)
        record["positions"] = record["iterations"] = 0
        with self._review_slot():
            runner = functools.partial(self._review_position, context=context, record=record)
            for item in review.review(plan, review_settings, runner):
                yield convert.review_response(item)

    def _review_settings(
        self, request: pb.ReviewGameRequest, context: grpc.ServicerContext, game: str
    ) -> review.ReviewSettings:
        """Each position's search: Analyze's for the preset and settings, its time capped at
        MAX_REVIEW_POSITION_MS, every search ending by the call's deadline."""
        overrides = convert.settings_overrides(request.settings)
        config = review.review_config(request.preset, overrides, self.limits, game, self.engine)
        config = settings.clip_to_deadline(
            config, context.time_remaining(), self.limits, time.time()
        )
        return review.ReviewSettings(
            config=config, seed=request.seed, top_k=REVIEW_CANDIDATES, engine=self.engine
        )

    @contextlib.contextmanager
    def _review_slot(self) -> Iterator[None]:
        """Hold one of the `limits.max_reviews` places; RESOURCE_EXHAUSTED when none is free."""
        with self._reviews_lock:
            if self._reviews >= self.limits.max_reviews:
                raise RequestError(
                    FailureKind.RESOURCE_EXHAUSTED,
                    f"{self.limits.max_reviews} game reviews are already running; retry later",
                    Reason.SERVER_BUSY,
                )
            self._reviews += 1
        try:
            yield
        finally:
            with self._reviews_lock:
                self._reviews -= 1

    def _review_position(
        self, job: PositionJob, context: grpc.ServicerContext, record: Record
    ) -> PositionSearch:
        """One reviewed position, searched at low priority where the game's searches run."""
        if not context.is_active():
            raise RequestError(
                FailureKind.CANCELLED, "the review was cancelled", Reason.CANCELLED
            )
        pool = self.native_searches if job.game in self.native_games else self.pool
        search: PositionSearch = self._submit(pool, job, context).result()
        record["positions"] += 1
        record["iterations"] += search.iterations
        self.metrics.observe_search(search.iterations, search.elapsed_ms)
        return search

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
        game = game_ops.load_game(request.game)
        check_range("top_k", top_k, 0, MAX_TOP_K)
        check_document("state_json", request.state_json, MAX_STATE_BYTES)
        check_session_key(request.session_key)
        if request.session_key:
            record["session_key"] = True
        overrides = convert.settings_overrides(request.settings)
        elo = None
        if request.HasField("target_elo"):
            record["target_elo"] = request.target_elo
            config, elo = settings.resolve_elo(
                request.target_elo,
                request.preset,
                overrides,
                self.limits,
                request.game,
                range(game.min_players, game.max_players + 1),
                self.engine,
            )
            # An analysis shows the search at that strength; random moves are for play only.
            elo = dataclasses.replace(elo, random_moves=not ranked)
        else:
            record["preset"] = (request.preset or settings.default_preset_name())[:MAX_NAME_CHARS]
            config = settings.resolve(
                request.preset, overrides, self.limits, request.game, self.engine, analysis=ranked
            )
        config = settings.clip_to_deadline(
            config, context.time_remaining(), self.limits, time.time()
        )
        thread_cap = auto_thread_cap(
            self.search_threads,
            self.pool.size,
            native=request.game in self.native_games,
            # A target Elo was measured with one tree, and a session key keeps one tree between
            # requests: the server adds no threads to either.
            explicit="workers" in overrides or elo is not None or bool(request.session_key),
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
            engine=self.engine,
            thread_cap=thread_cap,
            elo=elo,
            session_key=request.session_key,
        )

    def _searches_of(self, job: SearchJob) -> WorkerPool | NativeSearches:
        """Where `job` runs: in this process for a game served natively, else in a worker."""
        return self.native_searches if job.game in self.native_games else self.pool

    @staticmethod
    def _submit(
        pool: WorkerPool | NativeSearches, job: Any, context: grpc.ServicerContext
    ) -> PoolJob | NativeSearch:
        try:
            pool_job = pool.submit(job)
        except PoolBusy as error:
            raise RequestError(
                FailureKind.RESOURCE_EXHAUSTED, str(error), Reason.SERVER_BUSY
            ) from None
        except PoolClosed as error:
            raise RequestError(FailureKind.UNAVAILABLE, str(error), Reason.SHUTTING_DOWN) from None
        if not context.add_callback(pool_job.cancel):
            pool_job.cancel()  # the call ended already
        return pool_job

    def _finish(self, pool_job: PoolJob | NativeSearch, record: Record) -> SearchOutcome:
        outcome = pool_job.result()
        self._note_search(outcome, record)
        return outcome

    def _note_search(self, outcome: SearchOutcome, record: Record) -> None:
        record["iterations"] = outcome.iterations
        record["workers"] = outcome.config.workers
        record["search_ms"] = round(outcome.elapsed_ms, 3)
        record["stopped_by"] = outcome.stopped_by
        if outcome.tree_reused:
            record["reused_visits"] = outcome.reused_visits
        self.metrics.observe_search(outcome.iterations, outcome.elapsed_ms)
