"""Sending one fuzz request and judging the answer."""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from typing import Any

import grpc
import orjson

from boardbot.engine import EngineError, get_game
from fuzz.grpc_cases import GrpcCase

MESSAGE_LIMIT = 1000
"""Longest acceptable status message, in bytes."""
LATE_MARGIN_S = 1.0
"""How far past its deadline an answer may come before it counts as late."""
ALLOWED = {"OK", "INVALID_ARGUMENT", "NOT_FOUND", "FAILED_PRECONDITION", "DEADLINE_EXCEEDED"}
"""Statuses a hostile request may get (RESOURCE_EXHAUSTED only as the server's own refusal)."""
BUSY = re.compile(r"search workers are busy")
TOO_LARGE = re.compile(r"larger than max")


@dataclass
class GrpcFailure:
    """Something wrong with an answer, or with the server around it."""

    kind: str
    """status-INTERNAL, status-UNKNOWN, status-..., long-message, resource-exhausted,
    worker-crash, unavailable, no-answer, answered-late, still-running, search-over-bound,
    bad-response, server-exited, server-unhealthy, worker-restarts, workers-busy,
    server-busy, harness-error (the harness itself failed to send it)."""
    method: str
    status: str
    message: str
    seconds_late: float = 0.0

    def signature(self) -> str:
        """The failure class: kind, method, status and the message's shape."""
        return "|".join((self.kind, self.method, self.status, message_shape(self.message)))

    def to_json(self) -> dict[str, Any]:
        """A JSON object of this failure."""
        return {"kind": self.kind, "method": self.method, "status": self.status,
                "message": self.message, "seconds_late": round(self.seconds_late, 3)}


def message_shape(message: str) -> str:
    """A message with quoted values, numbers and long runs removed: its class, not its data."""
    shape = re.sub(r"'[^']*'?", "'…'", message[:200])
    shape = re.sub(r"\d+", "N", shape)
    return shape[:80]


@dataclass
class Answer:
    """What one request got back and when."""

    case: GrpcCase
    sent: float
    """time.time() just before sending."""
    elapsed: float
    status: str
    """A status code name, or NO_ANSWER when the harness gave up and cancelled."""
    message: str
    responses: int
    failure: GrpcFailure | None = None


def send(stub: Any, case: GrpcCase, allowance: float) -> Answer:
    """Send `case` and wait; without a deadline, give up (cancel) after `allowance` seconds."""
    request = case.message()
    sent, start = time.time(), time.perf_counter()
    status, message, count, reply = "OK", "", 0, None
    gave_up = threading.Event()
    try:
        if case.method == "AnalyzeStream":
            call = stub.AnalyzeStream(request, timeout=case.timeout)
            timer = None
            if case.timeout is None:

                def give_up() -> None:
                    gave_up.set()
                    call.cancel()

                timer = threading.Timer(allowance, give_up)
                timer.start()
            try:
                for item in call:
                    reply = item
                    count += 1
            finally:
                if timer is not None:
                    timer.cancel()
        else:
            future = getattr(stub, case.method).future(request, timeout=case.timeout)
            try:
                reply = future.result(timeout=allowance if case.timeout is None else None)
                count = 1
            except grpc.FutureTimeoutError:
                gave_up.set()
                future.cancel()
                status = "NO_ANSWER"
    except grpc.RpcError as error:
        code = error.code() if isinstance(error, grpc.Call) else None
        status = code.name if code is not None else "UNKNOWN"
        message = (error.details() if isinstance(error, grpc.Call) else str(error)) or ""
    if gave_up.is_set():
        status = "NO_ANSWER"
    answer = Answer(case, sent, time.perf_counter() - start, status, message, count)
    answer.failure = judge(answer, reply)
    return answer


def judge(answer: Answer, reply: Any) -> GrpcFailure | None:
    """The failure in an answer, if any."""
    case, status, message = answer.case, answer.status, answer.message

    def fail(kind: str, text: str | None = None, late: float = 0.0) -> GrpcFailure:
        return GrpcFailure(kind, case.method, status, cut(message if text is None else text),
                           late)

    size = len(message.encode("utf-8", "replace"))
    if status == "NO_ANSWER":
        return fail("no-answer", f"no answer {answer.elapsed:.1f} s after sending, no deadline")
    if status in ("INTERNAL", "UNKNOWN"):
        return fail(f"status-{status}")
    if size > MESSAGE_LIMIT:
        return fail("long-message", f"{size} bytes: {cut(message, 300)}")
    if status == "RESOURCE_EXHAUSTED":
        if BUSY.search(message) or TOO_LARGE.search(message):
            return None
        return fail("resource-exhausted")
    if status == "UNAVAILABLE":
        return fail("worker-crash" if "worker" in message else "unavailable")
    if status not in ALLOWED:
        return fail(f"status-{status}")
    if case.timeout is not None and answer.elapsed > case.timeout + LATE_MARGIN_S:
        late = answer.elapsed - case.timeout
        return fail("answered-late", f"answered {late:.2f} s past the deadline", late)
    if status == "OK":
        problem = check_reply(case, reply, answer.responses)
        if problem:
            return fail("bad-response", problem)
    return None


def check_reply(case: GrpcCase, reply: Any, responses: int) -> str:
    """What is wrong with a successful answer ("" if nothing)."""
    if case.method in ("NewGame", "ApplyMove"):
        name = case.fields.get("game", "")
        try:
            get_game(name).state_from_json(orjson.loads(reply.state_json))
        except (EngineError, orjson.JSONDecodeError) as error:
            return f"the state answered does not decode: {cut(str(error), 300)}"
        except Exception as error:
            return f"the state answered does not decode: {type(error).__name__}: {error}"
    if case.method == "LegalMoves" and not reply.moves and not reply.chance_form:
        return "no legal moves for the seat to move (nor the form of a chance outcome)"
    if case.method == "ChooseMove" and not reply.move.notation:
        return "no move chosen"
    if case.method == "AnalyzeStream" and (responses == 0 or not reply.final):
        return "the stream ended without a final analysis"
    return ""


def cut(text: str, limit: int = 600) -> str:
    """`text` cut to `limit` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters in all)"
