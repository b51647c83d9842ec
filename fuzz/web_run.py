"""Running one case of the web phase: send it (or run its probe), then judge the answer."""

from __future__ import annotations

from fuzz.web_cases import SEARCH_METHODS, WebCase
from fuzz.web_http import exchange
from fuzz.web_judge import WebFailure, judge, outcome_of, printed_failures
from fuzz.web_probes import ProbeResult, idle_probe, stream_probe
from fuzz.web_target import WebSettings, WebTarget

QUICK_TIMEOUT_S = 6.0
"""Longest a complete request that starts no search may go unanswered."""


def case_timeout(settings: WebSettings, case: WebCase) -> float:
    """Longest a request may go unanswered: for a search, the server's bound and a margin."""
    first_line = case.data[:100]
    if any(b"/api/" + m.encode() in first_line for m in SEARCH_METHODS):
        return settings.max_time_ms / 1000.0 + 15.0
    return QUICK_TIMEOUT_S


def run_case(target: WebTarget, case: WebCase) -> ProbeResult:
    """Send one case (or run one probe) and judge it, tracebacks printed meanwhile included."""
    if case.category == "idle":
        result = idle_probe(target, case)
    elif case.category == "stream":
        result = stream_probe(target, case)
    else:
        answer = exchange(target.port, case.data, case_timeout(target.settings, case),
                          case.half_close)
        failures = judge(case, answer, "")
        result = ProbeResult(outcome_of(answer), failures, f"{answer.sent}")
    result.failures += judge_printed(target)
    if not target.alive():
        code = target.gateway.returncode if target.gateway is not None else None
        result.failures.append(WebFailure("gateway-died", case.label,
                                          f"the gateway exited with code {code}"))
    return result


def judge_printed(target: WebTarget) -> list[WebFailure]:
    """Failures in what the gateway printed since the last look (its tracebacks)."""
    return printed_failures(target.output())
