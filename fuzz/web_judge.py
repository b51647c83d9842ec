"""The web phase's oracles: what makes an answer of the gateway a failure.

- no status line at all (the connection closed or reset without an answer, or an answer
  without a status line to a request that is not HTTP/0.9), or no answer in time;
- a 5xx other than the documented 503 (busy) and 504 (deadline);
- a status other than the one the case requires (a chunked body: 411; two different
  Content-Lengths: 400);
- 200 for a path outside the page's files;
- the page served without frame protection (`X-Frame-Options` or CSP `frame-ancestors`);
- a traceback in what the gateway printed.

The probes' oracles (idle sockets, an abandoned stream) are in fuzz.web_probes.
"""

from __future__ import annotations

from dataclasses import dataclass

from fuzz.web_cases import WebCase
from fuzz.web_http import Answer
from fuzz.web_target import frame_where, tracebacks


@dataclass(frozen=True)
class WebFailure:
    """One finding: its kind, the class it belongs to, and what was seen."""

    kind: str
    detail: str
    """The class within the kind: the case's label, or an exception and where it was raised."""
    message: str

    def signature(self) -> str:
        """The failure class: kind and detail."""
        return f"{self.kind}|{self.detail}"

    def to_json(self) -> dict[str, str]:
        """A JSON object of this failure."""
        return {"kind": self.kind, "detail": self.detail, "message": self.message}


def outcome_of(answer: Answer) -> str:
    """The outcome counted for an answer: its status, or how it ended without one."""
    if answer.answered:
        return str(answer.status)
    if answer.ended == "timeout":
        return "timeout"
    return "no-answer" if answer.size == 0 else "no-status-line"


def simple_request(data: bytes) -> bool:
    """True for a request in HTTP/0.9's form (`GET /path`, or version `HTTP/0.9`), whose
    answer rightly has no status line (words split as http.server splits them)."""
    words = data.split(b"\n", 1)[0].rstrip(b"\r").decode("latin-1").split()
    return len(words) == 2 or (len(words) == 3 and words[2] == "HTTP/0.9")


def frame_protected(answer: Answer) -> bool:
    """True when the answer forbids framing by another site."""
    frame_options = answer.header("X-Frame-Options").strip().upper()
    if frame_options in ("DENY", "SAMEORIGIN"):
        return True
    policies = answer.headers.get("content-security-policy", [])
    return any("frame-ancestors" in policy.lower() for policy in policies)


def judge(case: WebCase, answer: Answer, printed: str) -> list[WebFailure]:
    """The failures of one request's answer and of what the gateway printed meanwhile."""
    found = [*printed_failures(printed)]
    label = case.label
    if not answer.answered:
        if (case.statusless_ok or simple_request(case.data)) and answer.ended != "timeout":
            return found
        if answer.ended == "timeout":
            found.append(WebFailure("timeout", label, f"no answer within {answer.elapsed:.1f} s "
                                    f"({answer.size} bytes, {answer.sent} sent)"))
        elif answer.size:
            found.append(WebFailure(
                "no-status-line", label,
                f"answered {answer.size} bytes without a status line (as to HTTP/0.9): "
                f"{answer.raw[:80]!r}"))
        else:
            found.append(WebFailure(
                "no-answer", label,
                f"connection {answer.ended} after {answer.elapsed:.3f} s without a status "
                f"line ({answer.size} bytes answered, {answer.sent} of the request's sent)"))
        return found
    status = answer.status
    if status >= 500 and status not in case.allowed_5xx:
        found.append(WebFailure(f"status-{status}", label,
                                f"answered {status}: {answer.body()[:300]!r}"))
    if case.expect and status not in case.expect:
        wanted = "/".join(str(s) for s in sorted(case.expect))
        found.append(WebFailure(f"not-{wanted}", label,
                                f"answered {status}, not {wanted}: {answer.body()[:200]!r}"))
    if case.outside and status == 200:
        found.append(WebFailure("outside-static", label,
                                f"200 with {answer.size} bytes for a path outside static/"))
    if case.page and status == 200 and not frame_protected(answer):
        found.append(WebFailure("no-frame-protection", "page",
                                "the page is served without X-Frame-Options or CSP "
                                "frame-ancestors: any site may frame it"))
    return found


def printed_failures(printed: str) -> list[WebFailure]:
    """A failure per traceback the gateway printed."""
    found = []
    for exception, frame in tracebacks(printed):
        kind = exception.split(":", 1)[0]
        found.append(WebFailure("traceback", f"{kind}|{frame_where(frame)}",
                                f"{exception[:300]} ({frame[:200]})"))
    return found
