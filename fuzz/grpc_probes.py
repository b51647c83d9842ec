"""The gRPC phase's probes: what one request at a time cannot show, on a server of their own.

After the hostile requests, the phase starts a second server (the same token and workers, a
`--max-time-ms` long enough for searches of several seconds, a short `--grace`, and
`--max-search-workers 2`) and runs, in order:

- **long streams**: time-limited AnalyzeStreams of 3-5 s on an idle server, so the native
  search takes every core (automatic threads, or `settings.workers` 2). Each must end with a
  final analysis stopped by `time`, within the limit plus 100 ms by its own statistics and
  plus `STREAM_WALL_MARGIN_S` by the wall clock, and no worker may be killed (the watchdog's
  DEADLINE_EXCEEDED "... plus 1 s", `boardbot_worker_kills_total`);
- **open streams**: `OPEN_STREAMS` reflection and health Watch streams opened without the token
  and never sending are held open; meanwhile a ChooseMove with the token and a health Check must
  answer in time, and the streams refused must be RESOURCE_EXHAUSTED `OPEN_STREAMS_BUSY`;
- **idle worker**: one worker killed with SIGKILL while idle; the set of worker processes must
  be whole again within `RESPAWN_S`;
- **shutdown** (last: it stops the server): a long search runs when the server gets SIGTERM;
  the call must end UNAVAILABLE with the ErrorInfo reason `SHUTTING_DOWN` (or OK), and the
  server must exit within its grace.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from fuzz.grpc_cases import GrpcCase, StateSpec
from fuzz.grpc_client import WATCHDOG, GrpcFailure, error_info
from fuzz.grpc_server import FuzzServer, ServerSettings
from fuzz.seeds import Seed

PROBE_MAX_TIME_MS = 6000.0
"""`--max-time-ms` of the probes' server: long enough for the long streams."""
PROBE_GRACE_S = 2.0
"""`--grace` of the probes' server: the shutdown probe's search outlives it."""
STREAM_LIMITS_MS = (3000.0, 4000.0, 5000.0)
"""Time limits of the long streams, in turn."""
STREAM_STATS_MARGIN_MS = 100.0
"""How far past its limit a time-limited search may run by its own statistics."""
STREAM_WALL_MARGIN_S = 0.9
"""How far past its limit a time-limited stream may end by the wall clock (decoding, the
worker's start, the last message's way back)."""
OPEN_STREAMS = 150
"""Streams without the token held open by the open-streams probe."""
RESPAWN_S = 1.5
"""How soon the worker processes must be whole again after one died while idle."""
PROBE_SECONDS = 35.0
"""About how long the probes take (taken from the phase's sending time)."""


@dataclass
class ProbeReport:
    """What the probes found and measured."""

    failures: list[tuple[GrpcFailure, GrpcCase, float]] = field(default_factory=list)
    """Each failure, the request it concerns, and when it was found (time.monotonic())."""
    lines: list[str] = field(default_factory=list)
    longest_past_limit: float = 0.0
    """Longest time (s) a long stream ran past its limit (wall clock or its statistics)."""
    worker_kills: float = 0.0
    threads: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


class Probes:
    """The probes against one server of their own."""

    def __init__(self, settings: ServerSettings, log_dir: Path, seeds: list[Seed],
                 long_streams: int, say: Callable[[str], None]) -> None:
        self.settings = ServerSettings(
            workers=settings.workers, queue=settings.queue,
            max_time_ms=max(settings.max_time_ms, PROBE_MAX_TIME_MS),
            max_message_bytes=settings.max_message_bytes, token=settings.token,
            extra=("--grace", f"{PROBE_GRACE_S:g}", "--max-search-workers", "2"),
        )
        self.server = FuzzServer(self.settings, log_dir / "grpc-probes-server.log")
        full = [s for s in seeds if s.to_move >= 0 and s.moves and "/view" not in s.label]
        # The largest decisions first: they give a search the most to do.
        self.positions = sorted(full, key=lambda s: (-len(s.moves), s.label))
        self.long_streams = long_streams
        self.say = say
        self.report = ProbeReport()

    def fail(self, kind: str, case: GrpcCase, status: str, message: str,
             late: float = 0.0) -> None:
        failure = GrpcFailure(kind, case.method, status, message, late)
        self.report.failures.append((failure, case, time.monotonic()))

    def case(self, method: str, fields: dict[str, Any], seed: Seed,
             timeout: float | None) -> GrpcCase:
        return GrpcCase(-2, method, fields, StateSpec(seed.doc), timeout, seed.game, seed.label)

    def run(self) -> ProbeReport:
        start = time.monotonic()
        self.server.start()
        try:
            self.report.threads = self.server.threads()
            kills = self.server.metrics().get("boardbot_worker_kills_total", 0.0)
            self.long_stream_probe()
            self.report.worker_kills = (
                self.server.metrics().get("boardbot_worker_kills_total", 0.0) - kills
            )
            if self.report.worker_kills:
                case = self.stream_case(0)
                self.fail("worker-killed", case, "-", f"the watchdog killed "
                          f"{self.report.worker_kills:g} workers during the long streams")
            self.open_streams_probe()
            self.fresh_if_unhealthy()
            self.idle_worker_probe()
            self.fresh_if_unhealthy()
            self.shutdown_probe()
        finally:
            self.server.stop()
        self.report.seconds = time.monotonic() - start
        return self.report

    def fresh_if_unhealthy(self) -> None:
        """A new server when the last probe left this one unable to answer, so each probe
        tests what it means to."""
        assert self.server.conn is not None
        status, _ = _health(self.server.conn.channel, 3.0)
        if status != "SERVING" or not self.server.alive():
            self.report.lines.append(f"(the server answered health {status}: a new one for "
                                     "the next probe)")
            self.server.start()

    # -- long streams -----------------------------------------------------------------------

    def stream_case(self, n: int) -> GrpcCase:
        seed = self.positions[n % max(1, min(len(self.positions), 6))]
        limit = STREAM_LIMITS_MS[n % len(STREAM_LIMITS_MS)]
        settings: dict[str, Any] = {"time_ms": limit, "iterations": 1_000_000}
        if n % 3 == 2:
            settings["workers"] = 2
        analysis = {"game": seed.game, "seat": seed.to_move, "preset": "", "seed": n + 1,
                    "settings": settings, "top_k": 3}
        return self.case("AnalyzeStream", {"analysis": analysis, "every_ms": 100}, seed, None)

    def long_stream_probe(self) -> None:
        for n in range(self.long_streams):
            case = self.stream_case(n)
            limit_ms = case.fields["analysis"]["settings"]["time_ms"]
            status, message, last, wall = self.stream(case, limit_ms / 1000.0 + 10.0)
            past = wall - limit_ms / 1000.0
            stats = last.stats if last is not None else None
            if stats is not None:
                past = max(past, (stats.elapsed_ms - limit_ms) / 1000.0)
            self.report.longest_past_limit = max(self.report.longest_past_limit, past)
            threads = stats.settings.workers if stats is not None else 0
            stopped = stats.stopped_by if stats is not None else "-"
            self.report.lines.append(
                f"long stream {n}: {case.game}, limit {limit_ms / 1000:g} s, {status}, "
                f"{wall:.3f} s by the wall clock, stopped by {stopped}, "
                f"{stats.elapsed_ms if stats is not None else 0:.0f} ms searched on "
                f"{threads} threads"
            )
            if status == "DEADLINE_EXCEEDED" and WATCHDOG.search(message):
                self.fail("worker-killed", case, status, f"a {limit_ms:g} ms stream: {message}",
                          past)
                continue
            if status != "OK" or last is None or not last.final:
                self.fail("stream-unfinished", case, status, f"a {limit_ms:g} ms stream ended "
                          f"without a final analysis: {message}", past)
                continue
            assert stats is not None
            if stats.stopped_by == "iterations":
                continue  # a fast machine ran out of iterations first: nothing to time
            if stats.stopped_by != "time":
                self.fail("stream-stop", case, status, f"a {limit_ms:g} ms stream stopped by "
                          f"{stats.stopped_by!r}, not by time")
            if stats.elapsed_ms > limit_ms + STREAM_STATS_MARGIN_MS:
                self.fail("stream-over-limit", case, status, f"searched "
                          f"{stats.elapsed_ms:.0f} ms for a {limit_ms:g} ms limit", past)
            elif wall > limit_ms / 1000.0 + STREAM_WALL_MARGIN_S:
                self.fail("stream-over-limit", case, status, f"ended {wall:.2f} s after it "
                          f"was sent, for a {limit_ms:g} ms limit", past)

    def stream(self, case: GrpcCase, give_up_s: float) -> tuple[str, str, Any, float]:
        conn = self.server.conn
        start = time.perf_counter()
        call = conn.stub.AnalyzeStream(case.message(), metadata=conn.metadata(case))
        timer = threading.Timer(give_up_s, call.cancel)
        timer.start()
        last = None
        try:
            for item in call:
                last = item
        except grpc.RpcError as error:
            code = error.code() if isinstance(error, grpc.Call) else None
            name = "NO_ANSWER" if code == grpc.StatusCode.CANCELLED else (
                code.name if code is not None else "UNKNOWN")
            detail = error.details() if isinstance(error, grpc.Call) else str(error)
            return name, detail or "", last, time.perf_counter() - start
        finally:
            timer.cancel()
        return "OK", "", last, time.perf_counter() - start

    # -- open streams without the token -----------------------------------------------------

    def probe_case(self, timeout: float) -> GrpcCase:
        seed = self.positions[-1]
        fields = {"game": seed.game, "seat": seed.to_move, "preset": "beginner", "seed": 1}
        return self.case("ChooseMove", fields, seed, timeout)

    def open_streams_probe(self) -> None:
        process = self.server.process
        assert process is not None
        release = threading.Event()
        channels = [grpc.insecure_channel(process.address) for _ in range(3)]
        calls: list[Any] = []
        case = self.probe_case(5.0)
        probe_start = time.monotonic()
        try:
            for i in range(OPEN_STREAMS):
                channel = channels[i % len(channels)]
                if i % 10 == 0:
                    health = health_pb2_grpc.HealthStub(channel)
                    calls.append(health.Watch(health_pb2.HealthCheckRequest(service=""),
                                              timeout=60))
                else:
                    reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
                    calls.append(reflection.ServerReflectionInfo(_silent(release), timeout=60))
            time.sleep(2.0)
            conn = self.server.conn
            started = time.perf_counter()
            try:
                reply = conn.stub.ChooseMove(case.message(), timeout=5.0,
                                             metadata=conn.metadata(case))
                status = "OK" if reply.move.notation else "NO_MOVE"
                message = ""
            except grpc.RpcError as error:
                status = error.code().name if isinstance(error, grpc.Call) else "UNKNOWN"
                message = error.details() if isinstance(error, grpc.Call) else str(error)
            choose_s = time.perf_counter() - started
            health_status, health_s = _health(self.server.conn.channel, 3.0)
            refused = [c for c in calls if c.done()]
            codes = {c.code().name for c in refused}
            reasons = {error_info(c)[0] for c in refused
                       if c.code() == grpc.StatusCode.RESOURCE_EXHAUSTED}
            self.report.lines.append(
                f"open streams: {OPEN_STREAMS} without the token, {len(refused)} refused "
                f"({', '.join(sorted(codes)) or '-'}; {', '.join(sorted(reasons)) or '-'}); "
                f"ChooseMove with the token {status} in {choose_s:.2f} s, health "
                f"{health_status} in {health_s:.2f} s"
            )
            if status != "OK":
                self.fail("open-streams-starve", case, status, f"with {OPEN_STREAMS} streams "
                          f"held open without the token, a ChooseMove with it: {message}")
            if health_status != "SERVING":
                health_case = GrpcCase(-2, "Health/Check", {}, None, 3.0)
                self.fail("open-streams-starve", health_case, health_status, f"with "
                          f"{OPEN_STREAMS} streams held open without the token, health Check "
                          f"answered {health_status}")
            if codes - {"RESOURCE_EXHAUSTED"} or reasons - {"OPEN_STREAMS_BUSY"}:
                stream_case = GrpcCase(-2, "ServerReflectionInfo", {}, None, 60.0,
                                       tokenless=True)
                self.fail("open-streams-refusal", stream_case, ",".join(sorted(codes)),
                          f"held streams refused with {sorted(codes)} {sorted(reasons)}, not "
                          "RESOURCE_EXHAUSTED OPEN_STREAMS_BUSY")
        finally:
            release.set()
            for call in calls:
                call.cancel()
            for channel in channels:
                channel.close()
        # The server must serve normally once they are gone.
        after, _ = _health(self.server.conn.channel, 5.0)
        if after != "SERVING":
            self.fail("open-streams-starve", GrpcCase(-2, "Health/Check", {}, None, 5.0),
                      after, f"health answered {after} after the held streams were closed "
                      f"({time.monotonic() - probe_start:.0f} s into the probe)")

    # -- a worker that dies while idle ------------------------------------------------------

    def idle_worker_probe(self) -> None:
        before = self.server.worker_pids()
        if not before:
            self.report.lines.append("idle worker: no worker process found")
            return
        victim = before[0]
        os.kill(victim, signal.SIGKILL)
        killed = time.monotonic()
        whole = None
        while time.monotonic() - killed < RESPAWN_S + 3.5:
            now = self.server.worker_pids()
            if victim not in now and len(now) >= len(before):
                whole = time.monotonic() - killed
                break
            time.sleep(0.05)
        shown = f"{whole:.2f} s" if whole is not None else f"not within {RESPAWN_S + 3.5:g} s"
        self.report.lines.append(f"idle worker {victim} killed: worker processes whole again "
                                 f"after {shown}")
        if whole is None or whole > RESPAWN_S:
            case = GrpcCase(-2, "-", {}, None, None)
            self.fail("idle-worker-lost", case, "-", f"a worker killed while idle was not "
                      f"replaced within {RESPAWN_S:g} s ({shown})")

    # -- SIGTERM while a search runs --------------------------------------------------------

    def shutdown_probe(self) -> None:
        process = self.server.process
        assert process is not None
        seed = self.positions[0]
        fields = {"game": seed.game, "seat": seed.to_move, "preset": "", "seed": 1,
                  "settings": {"time_ms": self.settings.max_time_ms - 500.0,
                               "iterations": 1_000_000}}
        case = self.case("ChooseMove", fields, seed, 30.0)
        outcome: dict[str, Any] = {}
        conn = self.server.conn

        def ask() -> None:
            try:
                conn.stub.ChooseMove(case.message(), timeout=30.0, metadata=conn.metadata(case))
                outcome["status"] = "OK"
            except grpc.RpcError as error:
                outcome["status"] = error.code().name if isinstance(error, grpc.Call) else "?"
                outcome["message"] = error.details() if isinstance(error, grpc.Call) else ""
                outcome["reason"] = error_info(error)[0]

        caller = threading.Thread(target=ask, daemon=True)
        caller.start()
        limit = time.monotonic() + 10.0
        while time.monotonic() < limit and not self.server.metrics().get("boardbot_workers_busy"):
            time.sleep(0.05)
        time.sleep(0.3)
        process.process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        caller.join(PROBE_GRACE_S + 10.0)
        try:
            code = process.process.wait(PROBE_GRACE_S + 10.0)
        except Exception:  # still running: FuzzServer.stop kills it
            code = None
        exited = time.monotonic() - signalled
        status = outcome.get("status", "NO_ANSWER")
        reason = outcome.get("reason", "")
        self.report.lines.append(f"shutdown: a search running at SIGTERM got {status} "
                                 f"{reason or '(no reason)'}; the server exited {code} after "
                                 f"{exited:.2f} s (--grace {PROBE_GRACE_S:g})")
        if status not in ("OK", "UNAVAILABLE") or (
            status == "UNAVAILABLE" and reason != "SHUTTING_DOWN"
        ):
            self.fail("shutdown-answer", case, status, f"a call running when the grace ended "
                      f"got {status} {reason or 'without details'}: "
                      f"{outcome.get('message', '')}")
        if code is None or exited > PROBE_GRACE_S + 5.0:
            self.fail("shutdown-slow", case, status, f"the server had not exited "
                      f"{exited:.1f} s after SIGTERM (--grace {PROBE_GRACE_S:g})")


def _silent(until: threading.Event) -> Iterator[Any]:
    """A request stream that sends nothing until `until` is set, then ends."""
    until.wait(60)
    yield from ()


def _health(channel: grpc.Channel, timeout: float) -> tuple[str, float]:
    start = time.perf_counter()
    try:
        reply = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=""), timeout=timeout
        )
    except grpc.RpcError as error:
        code = error.code() if isinstance(error, grpc.Call) else None
        return (code.name if code is not None else "UNKNOWN"), time.perf_counter() - start
    name = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    return str(name), time.perf_counter() - start


def run_probes(settings: ServerSettings, log_dir: Path, seeds: list[Seed], long_streams: int,
               say: Callable[[str], None]) -> ProbeReport:
    """Run every probe on a fresh server (stopped at the end)."""
    _ = reflection_pb2  # the reflection messages must be importable for the stub
    return Probes(settings, log_dir, seeds, long_streams, say).run()
