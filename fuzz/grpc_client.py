"""Sending one fuzz request and judging the answer."""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from typing import Any

import grpc
import orjson
from google.rpc import error_details_pb2
from grpc_status import rpc_status

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
WATCHDOG = re.compile(r"plus \d+(\.\d+)? ?s")
"""The watchdog's DEADLINE_EXCEEDED: a worker was killed for overrunning its time."""
UNDETAILED = {"OK", "DEADLINE_EXCEEDED", "NO_ANSWER", "CANCELLED"}
"""Statuses whose answer may come without an ErrorInfo (gRPC's own deadline, a cancel)."""
SERVICE = "/boardbot.v1.BoardBot/"
RESPONSE_TYPES: dict[str, Any] = {
    "ListGames": "ListGamesResponse", "NewGame": "NewGameResponse",
    "LegalMoves": "LegalMovesResponse", "ApplyMove": "ApplyMoveResponse",
    "ViewState": "ViewStateResponse", "ChooseMove": "ChooseMoveResponse",
    "Analyze": "AnalyzeResponse", "AnalyzeStream": "AnalyzeResponse",
}


@dataclass
class Conn:
    """A channel to the fuzzed server, its stub, and the token the server requires ("": none)."""

    channel: grpc.Channel
    stub: Any
    token: str = ""

    def metadata(self, case: GrpcCase) -> list[tuple[str, str]]:
        """The call's metadata: the token, unless the case is sent without it."""
        if not self.token or case.tokenless:
            return []
        return [("authorization", f"Bearer {self.token}")]


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
    reason: str = ""
    """The ErrorInfo reason of an error ("" when the error came without details)."""
    error_metadata: dict[str, str] | None = None
    """The ErrorInfo metadata (field, json_path), None without an ErrorInfo."""
    token_required: bool = False
    """The server requires a token (so a case sent without it must be refused)."""


def error_info(error: grpc.RpcError) -> tuple[str, dict[str, str] | None]:
    """The ErrorInfo reason and metadata of a gRPC error (("", None) without one)."""
    try:
        status = rpc_status.from_call(error)
    except (ValueError, AttributeError):
        return "", None
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason, dict(info.metadata)
    return "", None


def _callables(conn: Conn, case: GrpcCase) -> Any:
    """The stub's method, or for raw bytes a method of the channel without serializers (the
    reply is parsed afterwards)."""
    if case.raw is None:
        return getattr(conn.stub, case.method)
    path = SERVICE + case.method
    if case.method == "AnalyzeStream":
        return conn.channel.unary_stream(path)
    return conn.channel.unary_unary(path)


def _parse_reply(case: GrpcCase, reply: Any) -> Any:
    if case.raw is None or not isinstance(reply, bytes):
        return reply
    from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb

    return getattr(pb, RESPONSE_TYPES[case.method]).FromString(reply)


def send(conn: Conn, case: GrpcCase, allowance: float) -> Answer:
    """Send `case` and wait; without a deadline, give up (cancel) after `allowance` seconds."""
    request = case.raw if case.raw is not None else case.message()
    method = _callables(conn, case)
    metadata = conn.metadata(case)
    sent, start = time.time(), time.perf_counter()
    status, message, count, reply = "OK", "", 0, None
    reason, details = "", None
    gave_up = threading.Event()
    try:
        if case.method == "AnalyzeStream":
            call = method(request, timeout=case.timeout, metadata=metadata)
            timer = None
            if case.timeout is None:

                def give_up() -> None:
                    gave_up.set()
                    call.cancel()

                timer = threading.Timer(allowance, give_up)
                timer.start()
            try:
                for item in call:
                    reply = _parse_reply(case, item)
                    count += 1
            finally:
                if timer is not None:
                    timer.cancel()
        else:
            future = method.future(request, timeout=case.timeout, metadata=metadata)
            try:
                reply = _parse_reply(case, future.result(
                    timeout=allowance if case.timeout is None else None))
                count = 1
            except grpc.FutureTimeoutError:
                gave_up.set()
                future.cancel()
                status = "NO_ANSWER"
    except grpc.RpcError as error:
        code = error.code() if isinstance(error, grpc.Call) else None
        status = code.name if code is not None else "UNKNOWN"
        message = (error.details() if isinstance(error, grpc.Call) else str(error)) or ""
        reason, details = error_info(error)
    if gave_up.is_set():
        status = "NO_ANSWER"
    answer = Answer(case, sent, time.perf_counter() - start, status, message, count, None,
                    reason, details, bool(conn.token))
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
    if status == "DEADLINE_EXCEEDED" and WATCHDOG.search(message):
        return fail("worker-killed", f"the watchdog killed the worker: {cut(message, 300)}")
    if case.tokenless and answer.token_required:
        if status in ("UNAUTHENTICATED", "DEADLINE_EXCEEDED"):
            return None
        return fail("tokenless-served", f"answered {status} without the token, not "
                                        f"UNAUTHENTICATED: {cut(message, 300)}")
    if status not in ALLOWED:
        return fail(f"status-{status}")
    if status not in UNDETAILED and not answer.reason:
        return fail("no-details", f"{status} without an ErrorInfo reason: {cut(message, 300)}")
    if case.expect == "malformed" and status != "DEADLINE_EXCEEDED" and (
        status != "INVALID_ARGUMENT" or answer.reason != "MALFORMED_REQUEST"
    ):
        return fail("malformed-answer", f"bytes that are no {case.method} message answered "
                                        f"{status} {answer.reason or '(no reason)'}")
    if case.expect == "json-path" and status in ("OK", "FAILED_PRECONDITION"):
        return fail("nesting-accepted", f"JSON nested thousands of levels deep answered {status}")
    about_json = (answer.error_metadata or {}).get("field") in ("state_json", "options_json")
    if case.expect == "json-path" and status == "INVALID_ARGUMENT" and about_json and (
        answer.reason != "FIELD_TOO_LARGE"
    ) and not ((answer.error_metadata or {}).get("json_path") or "$" in message):
        return fail("nesting-no-path", f"deep JSON refused without a JSON path: "
                                       f"{answer.reason} {cut(message, 200)}")
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
    if case.method in ("NewGame", "ApplyMove", "ViewState"):
        name = case.fields.get("game", "")
        try:
            doc = orjson.loads(reply.state_json)
            get_game(name).state_from_json(doc)
        except (EngineError, orjson.JSONDecodeError) as error:
            return f"the state answered does not decode: {cut(str(error), 300)}"
        except Exception as error:
            return f"the state answered does not decode: {type(error).__name__}: {error}"
        if case.method == "ViewState" and doc.get("observer") != case.fields.get("seat"):
            return f"the view's observer is {doc.get('observer')!r}, not the seat asked"
        # At a chance step, ApplyMove without an outcome draws that one outcome itself.
        drawn = case.method == "ApplyMove" and not (
            case.fields.get("notation") or case.fields.get("move_json")
        )
        if case.fields.get("manual_chance") and len(reply.chance_events) > int(drawn):
            return (f"manual_chance, yet the server resolved chance steps itself: "
                    f"{cut(repr(list(reply.chance_events)), 200)}")
    if case.method == "ChooseMove" and len(reply.candidates) > max(case.fields.get("top_k", 0), 0):
        return f"{len(reply.candidates)} candidates for top_k {case.fields.get('top_k', 0)}"
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
