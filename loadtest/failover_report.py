"""The failover run's figures: calls read from the trace, split into phases, and the goals checked.

A call belongs to the phase in which it ended (a call cut off by a kill ends at the kill). Its
latency runs from its first attempt's start to its last attempt's end, retries and backoff
included.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from loadtest.proxy import ProxyLogLine, ServerState
from loadtest.slo import Check
from loadtest.stats import percentile

CLIENTS = ("plain", "retrying")
"""The client kinds of failover_locustfile: calls sent once, calls retried."""
UNAVAILABLE = "UNAVAILABLE"


@dataclass(frozen=True)
class Attempt:
    """One try of a call: its request id, wall-clock start and end, status code and details."""

    request_id: str
    start: float
    end: float
    code: str
    details: str

    @property
    def failed(self) -> bool:
        """The attempt ended with a status other than OK."""
        return self.code != "OK"


@dataclass(frozen=True)
class Call:
    """One call of a locust user, with every attempt it took."""

    client: str
    name: str
    attempts: tuple[Attempt, ...]

    @property
    def start(self) -> float:
        """When the first attempt started."""
        return self.attempts[0].start

    @property
    def end(self) -> float:
        """When the last attempt ended."""
        return self.attempts[-1].end

    @property
    def code(self) -> str:
        """The call's final status code."""
        return self.attempts[-1].code

    @property
    def failed(self) -> bool:
        """The call's last attempt failed."""
        return self.attempts[-1].failed

    @property
    def latency_ms(self) -> float:
        """Milliseconds from the first attempt's start to the last attempt's end."""
        return (self.end - self.start) * 1000.0


def read_trace(path: Path) -> list[Call]:
    """The calls of a trace file (JSON lines of failover_locustfile); ValueError on a bad line."""
    calls = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            data = json.loads(line)
            attempts = tuple(
                Attempt(str(a["id"]), float(a["start"]), float(a["end"]), str(a["code"]),
                        str(a["details"]))
                for a in data["attempts"]
            )
            if not attempts or data["client"] not in CLIENTS:
                raise ValueError("no attempts, or an unknown client kind")
            calls.append(Call(str(data["client"]), str(data["name"]), attempts))
        except (ValueError, TypeError, KeyError) as error:
            raise ValueError(f"{path}:{number}: not a call of the trace: {error}") from None
    return calls


@dataclass(frozen=True)
class Phase:
    """A stretch of the run between two events: [start, end) in wall-clock seconds."""

    name: str
    start: float
    end: float
    kind: str
    """`warm-up`, `steady`, `kill` or `roll`: which goal applies."""

    def holds(self, moment: float) -> bool:
        """Whether `moment` falls in this phase."""
        return self.start <= moment < self.end


def phase_of(moment: float, phases: Sequence[Phase]) -> Phase | None:
    """The phase `moment` falls in, if any."""
    return next((phase for phase in phases if phase.holds(moment)), None)


@dataclass(frozen=True)
class PhaseRow:
    """The calls of one client kind that ended in one phase."""

    phase: str
    client: str
    seconds: float
    calls: int
    failed: int
    failures_by_code: dict[str, int]
    retried: int
    """Calls that took more than one attempt."""
    failed_attempts: int
    """Attempts that failed, whether or not a later attempt of the same call succeeded."""
    p50_ms: float
    p99_ms: float


def phase_rows(calls: Iterable[Call], phases: Sequence[Phase]) -> list[PhaseRow]:
    """A row per phase and client kind."""
    grouped: dict[tuple[str, str], list[Call]] = {}
    for call in calls:
        phase = phase_of(call.end, phases)
        if phase is not None:
            grouped.setdefault((phase.name, call.client), []).append(call)
    rows = []
    for phase in phases:
        seconds = phase.end - phase.start
        for client in CLIENTS:
            group = grouped.get((phase.name, client), [])
            latencies = [call.latency_ms for call in group]
            rows.append(PhaseRow(
                phase=phase.name,
                client=client,
                seconds=seconds,
                calls=len(group),
                failed=sum(call.failed for call in group),
                failures_by_code=dict(Counter(call.code for call in group if call.failed)),
                retried=sum(len(call.attempts) > 1 for call in group),
                failed_attempts=sum(a.failed for call in group for a in call.attempts),
                p50_ms=percentile(latencies, 0.50),
                p99_ms=percentile(latencies, 0.99),
            ))
    return rows


@dataclass(frozen=True)
class FailedAttempt:
    """A failed attempt, where it went and when it started relative to an event."""

    client: str
    name: str
    request_id: str
    start_ms: float
    """Milliseconds from the event (the kill) to the attempt's start; negative: before it."""
    end_ms: float
    code: str
    details: str
    replica: str
    """The replica HAProxy sent it to, `?` when HAProxy logged no line for it."""
    proxy_flags: str


def failed_attempts(
    calls: Iterable[Call], phase: Phase, event_at: float, proxy_log: dict[str, ProxyLogLine]
) -> list[FailedAttempt]:
    """Every failed attempt that ended in `phase`, timed from `event_at`."""
    found = []
    for call in calls:
        for attempt in call.attempts:
            if attempt.failed and phase.holds(attempt.end):
                logged = proxy_log.get(attempt.request_id)
                found.append(FailedAttempt(
                    client=call.client,
                    name=call.name,
                    request_id=attempt.request_id,
                    start_ms=(attempt.start - event_at) * 1000.0,
                    end_ms=(attempt.end - event_at) * 1000.0,
                    code=attempt.code,
                    details=attempt.details,
                    replica=logged.server if logged is not None else "?",
                    proxy_flags=logged.flags if logged is not None else "?",
                ))
    return sorted(found, key=lambda failure: failure.start_ms)


def _no_failed_attempt(
    rows: Sequence[PhaseRow], phases: Sequence[Phase], kind: str, goal: str
) -> list[Check]:
    """One check per phase of `kind`: no attempt failed in it."""
    checks = []
    for phase in phases:
        if phase.kind != kind:
            continue
        mine = [row for row in rows if row.phase == phase.name]
        failed = sum(row.failed_attempts for row in mine)
        calls = sum(row.calls for row in mine)
        checks.append(
            Check(phase.name, goal, failed == 0, f"{failed} failed attempts in {calls} calls")
        )
    return checks


def check_rolls(rows: Sequence[PhaseRow], phases: Sequence[Phase]) -> list[Check]:
    """During each rolling restart (SIGTERM to the replacement up), no attempt failed."""
    return _no_failed_attempt(rows, phases, "roll", "no failed call during a graceful restart")


def check_steady(rows: Sequence[PhaseRow], phases: Sequence[Phase]) -> list[Check]:
    """With every replica up, no attempt failed."""
    return _no_failed_attempt(rows, phases, "steady", "no failed call with every replica up")


def unanswered_calls(
    states: dict[str, ServerState], proxy_log: dict[str, ProxyLogLine]
) -> dict[str, int]:
    """Per replica, the calls HAProxy sent it that got no answer and were not sent elsewhere:
    its sessions less the calls logged with its name and the calls redispatched from it.

    HAProxy 2.6 logs no line for a call whose replica's connection closed mid-call (it resets
    the client's stream instead), so such calls show only in this difference."""
    answered = Counter(line.server for line in proxy_log.values())
    return {
        name: state.sessions - answered[name] - state.redispatches
        for name, state in states.items()
    }


def check_kill(
    failures: Sequence[FailedAttempt], killed: str, window_ms: float, phase: str,
    unanswered: dict[str, int],
) -> list[Check]:
    """Only attempts in flight on the killed replica failed, each UNAVAILABLE with details."""
    not_unavailable = [f for f in failures if f.code != UNAVAILABLE or not f.details]
    late = [f for f in failures if f.start_ms > window_ms]
    elsewhere = [f for f in failures if f.replica not in (killed, "?")]
    unlogged = sum(f.replica == "?" for f in failures)
    others = {name: n for name, n in unanswered.items() if name != killed and n != 0}
    return [
        Check(phase, "failed attempts are UNAVAILABLE with details", not not_unavailable,
              f"{len(failures) - len(not_unavailable)} of {len(failures)}"
              + (f"; e.g. {not_unavailable[0].code}: {not_unavailable[0].details!r}"
                 if not_unavailable else "")),
        Check(phase, f"failed attempts were in flight at the kill (started by +{window_ms:.0f} ms)",
              not late, f"{len(late)} started later"
              + (f"; the first at +{late[0].start_ms:.0f} ms" if late else "")),
        Check(phase, f"failed attempts were on the killed replica {killed}",
              not elsewhere and not others and unanswered.get(killed, 0) == unlogged,
              f"{len(failures) - unlogged} in the proxy's log, {len(elsewhere)} of them "
              f"elsewhere; {unlogged} not logged, against {unanswered.get(killed, 0)} calls "
              f"the proxy sent {killed} without an answer"
              + (f"; unanswered calls on other replicas: {others}" if others else "")),
    ]


def check_retrying(calls: Iterable[Call]) -> Check:
    """Clients that retry as docs/api.md advises saw no failed call in the whole run."""
    mine = [call for call in calls if call.client == "retrying"]
    failed = [call for call in mine if call.failed]
    codes = Counter(call.code for call in failed)
    return Check("whole run", "retrying clients: no failed call", not failed,
                 f"{len(failed)} failed of {len(mine)} ({dict(codes)}); "
                 f"{sum(len(c.attempts) > 1 for c in mine)} needed a retry")


def _ms(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.0f}"


def _codes(counts: dict[str, int]) -> str:
    return ", ".join(f"{code} {n}" for code, n in sorted(counts.items())) or "-"


def markdown_rows(rows: Sequence[PhaseRow]) -> str:
    """The per-phase table in Markdown (latencies in ms)."""
    lines = [
        "| phase | clients | seconds | calls | failed | failures by code | retried | "
        "failed attempts | p50 ms | p99 ms |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    lines += [
        f"| {r.phase} | {r.client} | {r.seconds:.1f} | {r.calls} | {r.failed} | "
        f"{_codes(r.failures_by_code)} | {r.retried} | {r.failed_attempts} | "
        f"{_ms(r.p50_ms)} | {_ms(r.p99_ms)} |"
        for r in rows
    ]
    return "\n".join(lines)


def text_rows(rows: Sequence[PhaseRow]) -> str:
    """The per-phase table as plain text (latencies in ms)."""
    head = (f"{'phase':<16}{'clients':<10}{'s':>6}{'calls':>7}{'failed':>7}{'retried':>8}"
            f"{'p50':>7}{'p99':>7}  failures by code")
    lines = [head]
    lines += [
        f"{r.phase:<16}{r.client:<10}{r.seconds:>6.1f}{r.calls:>7}{r.failed:>7}{r.retried:>8}"
        f"{_ms(r.p50_ms):>7}{_ms(r.p99_ms):>7}  {_codes(r.failures_by_code)}"
        for r in rows
    ]
    return "\n".join(lines)


def markdown_failures(failures: Sequence[FailedAttempt], limit: int = 20) -> str:
    """The failed attempts of the kill as a Markdown table (the first `limit`)."""
    lines = [
        "| client | request | start (ms from kill) | end | code | details | replica "
        "| proxy flags |",
        "|---|---|---:|---:|---|---|---|---|",
    ]
    lines += [
        f"| {f.client} | {f.name} | {f.start_ms:+.0f} | {f.end_ms:+.0f} | {f.code} | "
        f"{f.details} | {f.replica} | {f.proxy_flags} |"
        for f in failures[:limit]
    ]
    if len(failures) > limit:
        lines.append(f"| ... {len(failures) - limit} more | | | | | | | |")
    return "\n".join(lines)


def details_seen(failures: Iterable[FailedAttempt]) -> dict[str, int]:
    """How often each `CODE: details` text came back."""
    return dict(Counter(f"{f.code}: {f.details}" for f in failures))

