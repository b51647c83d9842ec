"""Matching the server's request log to the requests sent: how long each really took.

A client stops waiting at its deadline, but the server may go on. Each request log line gives
the server's end time (`ts`) and its handling time (`latency_ms`); a line is matched to the
request of the same method and game sent closest to the time the server started on it (the
phase sends at most one request per method and game at a time, so neighbours are far apart).
Within the log's millisecond resolution, a request whose status agrees with the line wins.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fuzz.grpc_client import LATE_MARGIN_S, Answer, GrpcFailure

MATCH_WINDOW_S = 0.5
"""Largest gap between a request's sending and the server's start on it to be matched."""
RESOLUTION_S = 0.005
"""Gaps closer than this are a tie (the log's times are rounded to the millisecond)."""
TINY_DEADLINE_S = 0.1
"""Requests with a shorter deadline may never reach a handler: not suspects when unmatched."""


@dataclass
class Lateness:
    """Per-request time past the deadline, as the server's log tells it."""

    failures: list[tuple[GrpcFailure, Answer]] = field(default_factory=list)
    longest: float = 0.0
    """Longest time (s) a handler ran past its request's deadline."""
    longest_index: int = -1
    matched: int = 0
    unfinished: list[Answer] = field(default_factory=list)
    """Requests the client gave up on that the server never logged (maybe still running)."""


def request_key(answer: Answer) -> tuple[str, str] | None:
    """(method, game) of a request the server logs under that key; None for other games."""
    case = answer.case
    if case.method == "ListGames":
        return ("ListGames", "")
    fields = case.fields.get("analysis", case.fields)
    game = fields.get("game", "")
    return (case.method, game) if game in known_games() else None


def known_games() -> tuple[str, ...]:
    """The games the server knows."""
    from boardbot.engine import list_games

    return tuple(list_games())


def match(
    answers: Iterable[Answer], lines: Iterable[dict[str, Any]]
) -> list[tuple[Answer, dict[str, Any]]]:
    """Pairs of (request, its log line), nearest start first within MATCH_WINDOW_S."""
    by_key: dict[tuple[str, str], list[Answer]] = defaultdict(list)
    for answer in answers:
        key = request_key(answer)
        if key is not None:
            by_key[key].append(answer)
    sent_times: dict[tuple[str, str], list[float]] = {}
    for key, group in by_key.items():
        group.sort(key=lambda a: a.sent)
        sent_times[key] = [a.sent for a in group]
    pairs: list[tuple[int, bool, float, int, Answer, dict[str, Any]]] = []
    for n, line in enumerate(lines):
        key = (str(line.get("method", "")), str(line.get("game", "")))
        if key not in by_key:
            continue
        start = float(line.get("ts", 0.0)) - float(line.get("latency_ms", 0.0)) / 1000.0
        times, group = sent_times[key], by_key[key]
        low = bisect.bisect_left(times, start - MATCH_WINDOW_S)
        high = bisect.bisect_right(times, start + MATCH_WINDOW_S)
        for answer in group[low:high]:
            gap = abs(answer.sent - start)
            agrees = answer.status == line.get("status")
            pairs.append((int(gap / RESOLUTION_S), not agrees, gap, n, answer, line))
    pairs.sort(key=lambda p: p[:3])
    used_lines: set[int] = set()
    used_answers: set[int] = set()
    matched = []
    for *_, n, answer, line in pairs:
        if n in used_lines or answer.case.index in used_answers:
            continue
        used_lines.add(n)
        used_answers.add(answer.case.index)
        matched.append((answer, line))
    return matched


def lateness(answers: list[Answer], lines: list[dict[str, Any]], max_time_ms: float) -> Lateness:
    """Time past deadline of every matched request; late ones as failures."""
    result = Lateness()
    matched = match(answers, lines)
    result.matched = len(matched)
    seen = set()
    for answer, line in matched:
        seen.add(answer.case.index)
        case = answer.case
        end = float(line.get("ts", 0.0))
        if case.timeout is not None and line.get("status") != "OK":
            # An OK line was logged while the call was still active: before its deadline.
            past = end - (answer.sent + case.timeout)
            if past > result.longest:
                result.longest, result.longest_index = past, case.index
            if past > LATE_MARGIN_S:
                failure = GrpcFailure(
                    "answered-late", case.method, str(line.get("status", "")),
                    f"the server finished {past:.2f} s after the {case.timeout:.3f} s deadline",
                    past,
                )
                result.failures.append((failure, answer))
        search_ms = float(line.get("search_ms", 0.0) or 0.0)
        if case.timeout is None and search_ms > max_time_ms + LATE_MARGIN_S * 1000.0:
            failure = GrpcFailure(
                "search-over-bound", case.method, str(line.get("status", "")),
                f"a search without a deadline ran {search_ms / 1000:.2f} s; the server's "
                f"--max-time-ms is {max_time_ms:g}",
                (search_ms - max_time_ms) / 1000.0,
            )
            result.failures.append((failure, answer))
    for answer in answers:
        if answer.case.index in seen or request_key(answer) is None:
            continue
        if answer.status in ("DEADLINE_EXCEEDED", "NO_ANSWER") and (
            answer.case.timeout is None or answer.case.timeout >= TINY_DEADLINE_S
        ):
            result.unfinished.append(answer)
    return result
