"""`python -m fuzz replay FILE`: run a repro again and say whether it still fails."""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fuzz import repro
from fuzz.deadlines import lateness
from fuzz.grpc_client import LATE_MARGIN_S, Answer, GrpcFailure, cut, send
from fuzz.grpc_server import FuzzServer, ServerSettings
from fuzz.pipeline import Limits
from fuzz.sandbox import Child

SAME, DIFFERENT, PASSES = "reproduced", "fails differently", "no longer fails"


def replay(path: Path, say: Callable[[str], None] = print) -> int:
    """Replay one repro file: exit status 1 if it still fails, 0 if it passes now (or if the
    file is not a repro, such as `summary.json`)."""
    try:
        body = repro.load(path)
    except (OSError, ValueError) as error:
        say(f"{path}: skipped ({error})")
        return 0
    say(f"{path}: {body['phase']} failure {body['signature']}")
    if body["phase"] == "inprocess":
        verdict, detail = _replay_case(body)
    else:
        verdict, detail = _replay_request(body, say)
    say(f"  {verdict}: {detail}")
    return 0 if verdict == PASSES else 1


def _verdict(expected: str, found: str | None) -> str:
    if found is None:
        return PASSES
    return SAME if _class(found) == _class(expected) else DIFFERENT


def _class(signature: str) -> str:
    """A signature without line numbers (code edited since the repro was written moves them)."""
    return re.sub(r":\d+(?=\||$)", "", signature)


def _replay_case(body: dict[str, Any]) -> tuple[str, str]:
    case, doc = repro.read_case(body)
    settings = body.get("settings", {})
    limits = Limits(
        slow_seconds=settings.get("slow_seconds", Limits.slow_seconds),
        legal_checks=settings.get("legal_checks", Limits.legal_checks),
        playout_steps=settings.get("playout_steps", Limits.playout_steps),
    )
    child = Child(limits, settings.get("hang_seconds", 2.0))
    try:
        result = child.run(case, doc)
    finally:
        child.close()
    failure = result.failure
    if failure is None:
        return PASSES, f"outcome {result.outcome}" + (
            f" ({cut(result.error_message, 200)})" if result.error_message else "")
    found = failure.signature()
    return _verdict(body["signature"], found), f"{found}: {cut(failure.message, 400)}"


def _replay_request(body: dict[str, Any], say: Callable[[str], None]) -> tuple[str, str]:
    case = repro.read_request(body)
    settings = ServerSettings.from_json(body["server"])
    with tempfile.TemporaryDirectory(prefix="fuzz-replay-") as tmp:
        server = FuzzServer(settings, Path(tmp) / "server.log")
        server.start()
        try:
            allowance = 3 * settings.max_time_ms / 1000.0 + LATE_MARGIN_S
            answer = send(server.conn, case, allowance)
            say(f"  answer: {answer.status} after {answer.elapsed:.3f} s: "
                f"{cut(answer.message, 300)}")
            failure = answer.failure or _server_side(server, answer, settings, allowance)
        finally:
            server.stop()
    found = failure.signature() if failure is not None else None
    detail = "the answer is acceptable" if failure is None else (
        f"{failure.kind}: {failure.message}"
    )
    return _verdict(body["signature"], found), detail


def _server_side(
    server: FuzzServer, answer: Answer, settings: ServerSettings, allowance: float
) -> GrpcFailure | None:
    """A failure only the server shows: still busy past the deadline, or late by its log."""
    case = answer.case
    time.sleep(LATE_MARGIN_S)
    busy = server.wait_idle(allowance)
    cpu = server.cpu_percent()
    if busy or cpu > 50.0:
        return GrpcFailure("still-running", case.method, answer.status,
                           f"replayed alone, it leaves the server busy ({busy:g} workers, "
                           f"{cpu:.0f}% CPU) past its deadline")
    late = lateness([answer], server.request_log(), settings.max_time_ms)
    return late.failures[0][0] if late.failures else None
