"""`make scaleout`: boardbot replicas behind HAProxy under locust load, killed and rolled mid-run.

Three `boardbot serve` replicas listen on loopback ports behind HAProxy (loadtest/proxy.py);
locust users of loadtest/ call the proxy, half sending each call once and half retrying as
docs/api.md advises (loadtest/failover_locustfile.py). The timeline: a warm-up; a steady
`before` phase; the replica with the most calls in flight is killed with SIGKILL, kept dead
for a while, then started again on its port; a steady phase; every replica in turn gets SIGTERM
(it drains, finishes its calls and exits) and a new one starts on its port, up in the proxy
before the next is stopped; a last steady phase. Every call is traced; the report gives, per
phase, calls, failures by code and p50/p99 latency, and checks the goals:

- no failed call during the rolling restart, nor with every replica up;
- during the kill, only calls in flight on the killed replica fail, each UNAVAILABLE with
  details;
- the retrying clients see no failure at all.

Markdown and JSON go to --out; the exit status is 0 when every goal held, 1 when one was
missed, 2 when the run broke.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from loadtest import report
from loadtest.corpus import CORPUS_DIR
from loadtest.failover_report import (
    Call,
    FailedAttempt,
    Phase,
    PhaseRow,
    check_kill,
    check_retrying,
    check_rolls,
    check_steady,
    details_seen,
    failed_attempts,
    markdown_failures,
    markdown_rows,
    phase_rows,
    read_trace,
    text_rows,
    unanswered_calls,
)
from loadtest.proxy import (
    Proxy,
    ProxyError,
    ProxyLogLine,
    ProxySettings,
    ServerState,
    read_proxy_log,
    start_proxy,
)
from loadtest.replicas import ReplicaOptions, Replicas
from loadtest.scenarios import REPO_ROOT
from loadtest.server_process import ServerError
from loadtest.slo import Check

OUT_DIR = Path(__file__).resolve().parent / "out" / "scaleout"
LOCUSTFILE = Path(__file__).resolve().parent / "failover_locustfile.py"
USER_CLASSES = ("PlainPlayerUser", "RetryingPlayerUser")
KILL_WINDOW_MS = 1000.0
"""An attempt that starts this soon after the kill may still be sent to the dead replica's
connection before HAProxy has seen it close; later ones must not fail."""
LOCUST_STOP_TIMEOUT_S = 30
"""Seconds users get to finish the call in flight when the run ends."""
BUSY_WAIT_S = 10.0
"""How long to wait for a replica with a call in flight before killing one anyway."""
BUSY_AGE_S = 0.03
"""The age of a call in flight that makes its replica the one to kill."""
LOAD_START_TIMEOUT_S = 120.0
"""How long locust may take to start and finish its first call."""
UP_TIMEOUT_S = 60.0
"""How long a restarted replica may take to be up in the proxy."""


@dataclass(frozen=True)
class Plan:
    """What one failover run does."""

    replicas: int = 3
    users: int = 6
    warmup_s: float = 10.0
    steady_s: float = 30.0
    """Length of each steady phase: before, after the restart, after the rolling restart."""
    dead_s: float = 10.0
    """How long the killed replica stays down before it is started again."""
    rolls: int = 3
    """How many replicas the rolling restart stops and replaces, one by one."""
    presets: tuple[str, ...] = ("easy", "medium", "hard")
    analyze_preset: str = "beginner"
    replica: ReplicaOptions = field(default_factory=ReplicaOptions)
    proxy: ProxySettings = field(default_factory=ProxySettings)
    corpus: Path = CORPUS_DIR
    out: Path = OUT_DIR

    def locust_bound_s(self) -> int:
        """A run time after which locust stops by itself, should the driver not stop it."""
        events = self.dead_s + UP_TIMEOUT_S * (1 + self.rolls)
        return int(3 * (self.warmup_s + 3 * self.steady_s + events)) + 60


@dataclass
class Outcome:
    """What a run measured and concluded."""

    rows: list[PhaseRow]
    kill_failures: list[FailedAttempt]
    checks: list[Check]
    record: dict[str, Any]
    markdown: str
    text: str

    @property
    def passed(self) -> bool:
        """Every goal held."""
        return all(check.passed for check in self.checks)


def locust_command(plan: Plan, address: str, trace: Path) -> list[str]:
    """The headless locust command of the run, stopped by SIGTERM (or its bound)."""
    return [
        sys.executable, "-m", "locust", "-f", str(LOCUSTFILE),
        "--headless", "--only-summary", "--loglevel", "WARNING",
        "-u", str(plan.users), "-r", str(plan.users),
        "-t", f"{plan.locust_bound_s()}s", "--stop-timeout", str(LOCUST_STOP_TIMEOUT_S),
        "--host", address,
        "--trace-file", str(trace),
        "--corpus", str(plan.corpus),
        "--presets", ",".join(plan.presets),
        "--analyze-preset", plan.analyze_preset,
        *USER_CLASSES,
    ]


class Timeline:
    """The events of a run, as they happen, and the phases between them."""

    def __init__(self, proxy: Proxy, replicas: Replicas, locust: subprocess.Popen[bytes]) -> None:
        self.proxy = proxy
        self.replicas = replicas
        self.locust = locust
        self.started = time.time()
        self.boundaries: list[tuple[str, str, float]] = [("warm-up", "warm-up", self.started)]
        self.events: list[dict[str, Any]] = []

    def hold(self, seconds: float) -> None:
        """Let the load run for `seconds`, watching that locust and the proxy still run."""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            if self.locust.poll() is not None:
                raise RuntimeError(f"locust exited early with code {self.locust.returncode}")
            self.proxy.check_alive()
            time.sleep(min(0.2, max(0.0, until - time.monotonic())))

    def wait_for_load(self, trace: Path) -> None:
        """Wait until locust has finished its first call."""
        deadline = time.monotonic() + LOAD_START_TIMEOUT_S
        while not trace.is_file() or trace.stat().st_size == 0:
            if time.monotonic() > deadline:
                raise RuntimeError(f"locust made no call within {LOAD_START_TIMEOUT_S:.0f} s")
            self.hold(0.1)

    def phase(self, name: str, kind: str, at: float | None = None) -> None:
        """A new phase starts now (or at `at`)."""
        self.boundaries.append((name, kind, time.time() if at is None else at))

    def busy_replica(self) -> tuple[str, int]:
        """A replica with a call that has run for BUSY_AGE_S already (most searches end within
        milliseconds, so a call that old is likely a longer search, still running at a kill
        a moment later); after BUSY_WAIT_S without one, the replica with the most calls in
        flight. Its name and its calls in flight."""
        deadline = time.monotonic() + BUSY_WAIT_S
        busy_since: dict[str, tuple[int, float]] = {}
        while True:
            states = self.proxy.states()
            now = time.monotonic()
            for name, state in states.items():
                if state.in_flight == 0:
                    busy_since.pop(name, None)
                elif busy_since.get(name, (-1, 0.0))[0] != state.sessions:
                    busy_since[name] = (state.sessions, now)
                elif now - busy_since[name][1] >= BUSY_AGE_S:
                    # No call has started on it since: a call in flight now was in flight then.
                    return name, state.in_flight
            if now > deadline:
                name, state = max(states.items(), key=lambda item: item[1].in_flight)
                return name, state.in_flight
            time.sleep(0.005)

    def kill_and_restart(self, dead_s: float) -> None:
        """SIGKILL a busy replica, keep it dead `dead_s`, start it again, wait until it is up."""
        name, in_flight = self.busy_replica()
        killed_at, gone_at = self.replicas.kill(name)
        self.phase(f"kill {name}", "kill", killed_at)
        down_at = self.proxy.wait_status(name, False, UP_TIMEOUT_S)
        self.hold(max(0.0, killed_at + dead_s - time.time()))
        restarted_at = time.time()
        self.replicas.restart(name)
        serving_at = time.time()
        up_at = self.proxy.wait_status(name, True, UP_TIMEOUT_S)
        self.events.append({
            "event": "SIGKILL", "replica": name, "at": killed_at,
            "in_flight_at_kill": in_flight,
            "exited_after_ms": (gone_at - killed_at) * 1000,
            "down_after_s": down_at - killed_at,
            "restarted_after_s": restarted_at - killed_at,
            "serving_after_s": serving_at - killed_at,
            "up_after_s": up_at - killed_at,
        })
        self.phase("after restart", "steady", up_at)

    def roll(self, name: str) -> None:
        """SIGTERM one replica, wait for its exit, start it again, wait until up."""
        in_flight = self.proxy.states()[name].in_flight
        sent_at = self.replicas.terminate(name)
        self.phase(f"roll {name}", "roll", sent_at)
        down_at = self.proxy.wait_status(name, False, UP_TIMEOUT_S)
        code = self.replicas.wait_exit(name)
        exited_at = time.time()
        self.replicas.restart(name)
        serving_at = time.time()
        up_at = self.proxy.wait_status(name, True, UP_TIMEOUT_S)
        self.events.append({
            "event": "SIGTERM", "replica": name, "at": sent_at,
            "in_flight_at_signal": in_flight,
            "down_after_s": down_at - sent_at,
            "exit_code": code,
            "exit_after_s": exited_at - sent_at,
            "serving_after_s": serving_at - sent_at,
            "up_after_s": up_at - sent_at,
        })

    def phases(self, end: float) -> list[Phase]:
        """The phases between the events, the last one closing at `end`."""
        starts = [*self.boundaries[1:], ("", "", end)]
        return [
            Phase(name, start, next_start, kind)
            for (name, kind, start), (_, _, next_start) in zip(self.boundaries, starts, strict=True)
        ]


def execute(
    plan: Plan, proxy: Proxy, replicas: Replicas, locust: subprocess.Popen[bytes], trace: Path
) -> Timeline:
    """The timeline of the run, up to the end of the last steady phase."""
    timeline = Timeline(proxy, replicas, locust)
    timeline.wait_for_load(trace)
    timeline.hold(plan.warmup_s)
    timeline.phase("before", "steady")
    timeline.hold(plan.steady_s)
    timeline.kill_and_restart(plan.dead_s)
    timeline.hold(plan.steady_s)
    names = [name for name, _ in replicas.ports()][: plan.rolls]
    for name in names:
        timeline.roll(name)
    if names:
        timeline.phase("after", "steady")
        timeline.hold(plan.steady_s)
    return timeline


def stop_locust(locust: subprocess.Popen[bytes]) -> int:
    """SIGTERM locust (its users finish their calls in flight) and wait; its exit code."""
    if locust.poll() is None:
        locust.send_signal(signal.SIGTERM)
        try:
            locust.wait(LOCUST_STOP_TIMEOUT_S + 30)
        except subprocess.TimeoutExpired:
            locust.kill()
            locust.wait(10)
    return locust.returncode


def run(plan: Plan) -> Outcome:
    """Start everything, play the timeline, stop everything, and judge the trace."""
    plan.out.mkdir(parents=True, exist_ok=True)
    trace = plan.out / "trace.jsonl"
    trace.unlink(missing_ok=True)
    load_before = os.getloadavg()[0]
    replicas = Replicas(plan.out, plan.replica)
    proxy: Proxy | None = None
    locust: subprocess.Popen[bytes] | None = None
    try:
        replicas.start(plan.replicas)
        proxy = start_proxy(replicas.ports(), plan.out, plan.proxy)
        with (plan.out / "locust.log").open("wb") as log:
            locust = subprocess.Popen(
                locust_command(plan, proxy.address, trace), cwd=REPO_ROOT,
                env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
                stdout=log, stderr=subprocess.STDOUT,
            )
            timeline = execute(plan, proxy, replicas, locust, trace)
            locust_code = stop_locust(locust)
        end = time.time()
        proxy_states = proxy.states()
    finally:
        if locust is not None:
            stop_locust(locust)
        if proxy is not None:
            proxy.stop()
        final_codes = replicas.stop_all()
    calls = read_trace(trace)
    proxy_log = read_proxy_log(proxy.log_path)
    return judge(plan, timeline, calls, proxy_log, proxy_states, {
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(timeline.started)),
        "cores": os.cpu_count(),
        "load_average": [load_before, os.getloadavg()[0]],
        "locust_exit_code": locust_code,
        "replica_exit_codes_at_end": final_codes,
    }, end)


def judge(
    plan: Plan, timeline: Timeline, calls: list[Call], proxy_log: dict[str, ProxyLogLine],
    proxy_states: dict[str, ServerState], facts: dict[str, Any], end: float,
) -> Outcome:
    """The figures and verdicts of a finished run."""
    phases = timeline.phases(end)
    rows = phase_rows(calls, phases)
    checks = check_steady(rows, phases) + check_rolls(rows, phases)
    kill = next(e for e in timeline.events if e["event"] == "SIGKILL")
    kill_phase = next(p for p in phases if p.kind == "kill")
    kill_failures = failed_attempts(calls, kill_phase, kill["at"], proxy_log)
    unanswered = unanswered_calls(proxy_states, proxy_log)
    checks += check_kill(kill_failures, kill["replica"], KILL_WINDOW_MS, kill_phase.name,
                         unanswered)
    checks.append(check_retrying(calls))
    for event in timeline.events:
        if event["event"] == "SIGTERM":
            checks.append(Check(f"roll {event['replica']}", "graceful exit",
                                event["exit_code"] == 0, f"exit code {event['exit_code']}"))
    if not calls:
        checks.append(Check("whole run", "calls were made", False, "the trace is empty"))
    record = {
        **facts,
        "plan": {**asdict(plan), "corpus": str(plan.corpus), "out": str(plan.out)},
        "events": [{**e, "at_s": e["at"] - timeline.started} for e in timeline.events],
        "phases": [{"name": p.name, "kind": p.kind, "start_s": p.start - timeline.started,
                    "end_s": p.end - timeline.started} for p in phases],
        "rows": [asdict(row) for row in rows],
        "kill_failed_attempts": [asdict(f) for f in kill_failures],
        "kill_details_seen": details_seen(kill_failures),
        "proxy_servers_at_end": {
            name: {**asdict(state), "unanswered": unanswered[name]}
            for name, state in proxy_states.items()
        },
        "checks": [asdict(check) for check in checks],
    }
    return Outcome(rows, kill_failures, checks, record,
                   markdown_summary(plan, record, rows, kill_failures, checks),
                   text_summary(record, rows, kill_failures, checks))


def _event_line(event: dict[str, Any]) -> str:
    if event["event"] == "SIGKILL":
        return (
            f"SIGKILL {event['replica']} at {event['at_s']:.1f} s "
            f"(calls in flight on it: {event['in_flight_at_kill']}): exited after "
            f"{event['exited_after_ms']:.0f} ms, marked down by the proxy "
            f"after {event['down_after_s']:.2f} s; started again after "
            f"{event['restarted_after_s']:.1f} s, SERVING after {event['serving_after_s']:.1f} s, "
            f"up in the proxy after {event['up_after_s']:.1f} s"
        )
    return (
        f"SIGTERM {event['replica']} at {event['at_s']:.1f} s "
        f"(calls in flight on it: {event['in_flight_at_signal']}): marked down after "
        f"{event['down_after_s']:.2f} s; exit {event['exit_code']} after "
        f"{event['exit_after_s']:.1f} s; its replacement SERVING after "
        f"{event['serving_after_s']:.1f} s, up in the proxy after {event['up_after_s']:.1f} s"
    )


def markdown_summary(
    plan: Plan, record: dict[str, Any], rows: list[PhaseRow],
    kill_failures: list[FailedAttempt], checks: list[Check],
) -> str:
    """The run as a Markdown report."""
    options = plan.replica
    servers = record["proxy_servers_at_end"]
    lines = [
        f"# Failover: {plan.replicas} replicas behind HAProxy",
        "",
        f"Started {record['started']}; {record['cores']} cores; machine load average "
        f"{record['load_average'][0]:.1f} before, {record['load_average'][1]:.1f} after. "
        f"Replicas: `boardbot serve --workers {options.workers} --queue {options.queue} "
        f"{' '.join(options.serve_args())}`. Proxy: {plan.proxy.balance}, health checked every "
        f"{plan.proxy.check_interval_ms} ms (fall {plan.proxy.fall}, rise {plan.proxy.rise}). "
        f"{plan.users} locust users (half plain, half retrying), ChooseMove at "
        f"{', '.join(plan.presets)}, Analyze at {plan.analyze_preset}.",
        "",
        "## Events",
        "",
        *(f"- {_event_line(event)}" for event in record["events"]),
        "",
        "## Calls per phase",
        "",
        "A call counts in the phase in which it ended; latency includes retries.",
        "",
        markdown_rows(rows),
        "",
        "## The kill: every failed attempt",
        "",
        markdown_failures(kill_failures) if kill_failures else "None.",
        "",
        "HAProxy logs no line for a call cut off by its replica's death (replica `?` above); "
        "the calls it sent each replica and never saw answered are counted below.",
        "",
        "Errors seen: " + (", ".join(f"`{text}` ({n})" for text, n in
                                     record["kill_details_seen"].items()) or "none") + ".",
        "",
        "## The proxy",
        "",
        "| replica | calls sent | answered (logged) | redispatched | unanswered "
        "| connections retried |",
        "|---|---:|---:|---:|---:|---:|",
        *(f"| {name} | {s['sessions']} | {s['sessions'] - s['redispatches'] - s['unanswered']} "
          f"| {s['redispatches']} | {s['unanswered']} | {s['retries']} |"
          for name, s in servers.items()),
        "",
        "## Goals",
        "",
        *(f"- {line}" for line in report.checks_text(checks).splitlines()),
        "",
    ]
    return "\n".join(lines)


def text_summary(
    record: dict[str, Any], rows: list[PhaseRow], kill_failures: list[FailedAttempt],
    checks: list[Check],
) -> str:
    """The run as printed at its end."""
    failures = [
        f"  {f.client:<9}{f.name:<20}{f.start_ms:>+8.0f} ms  {f.replica:<4}{f.code}: {f.details}"
        for f in kill_failures[:10]
    ]
    return "\n".join([
        "== events",
        *(_event_line(event) for event in record["events"]),
        "== calls per phase (latency ms)",
        text_rows(rows),
        f"== failed attempts around the kill: {len(kill_failures)}",
        *failures,
        "== goals",
        report.checks_text(checks),
    ])


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The driver's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="length of each steady phase (before, after restart, after)")
    parser.add_argument("--warmup", type=float, default=10.0, help="warm-up seconds")
    parser.add_argument("--dead-seconds", type=float, default=10.0,
                        help="how long the killed replica stays down")
    parser.add_argument("--users", type=int, default=6, help="locust users (half retry)")
    parser.add_argument("--replicas", type=int, default=3, help="boardbot replicas")
    parser.add_argument("--rolls", type=int, default=None,
                        help="replicas the rolling restart replaces (default: all)")
    parser.add_argument("--workers", type=int, default=1, help="search workers per replica")
    parser.add_argument("--drain", type=float, default=3.0, help="each replica's --drain")
    parser.add_argument("--grace", type=float, default=30.0, help="each replica's --grace")
    parser.add_argument("--presets", default="easy,medium,hard",
                        help="comma-separated presets of the ChooseMove calls")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="report, trace and logs")
    args = parser.parse_args(argv)
    if args.replicas < 2:
        parser.error("--replicas: at least 2, so that one can fail over to another")
    if args.drain <= ProxySettings().drain_detection_s():
        parser.error(f"--drain: more than the {ProxySettings().drain_detection_s():g} s HAProxy "
                     "takes to mark a draining replica down")
    if args.users < 2:
        parser.error("--users: at least 2 (one plain, one retrying)")
    rolls = args.replicas if args.rolls is None else args.rolls
    if not 0 <= rolls <= args.replicas:
        parser.error(f"--rolls: 0 to {args.replicas}")
    args.rolls = rolls
    return args


def plan_from(args: argparse.Namespace) -> Plan:
    """The plan the options describe."""
    return Plan(
        replicas=args.replicas, users=args.users, warmup_s=args.warmup, steady_s=args.seconds,
        dead_s=args.dead_seconds, rolls=args.rolls,
        presets=tuple(p for p in args.presets.split(",") if p),
        replica=ReplicaOptions(workers=args.workers, queue=max(8, 2 * args.workers),
                               drain_s=args.drain, grace_s=args.grace),
        out=args.out,
    )


def main(argv: list[str] | None = None) -> int:
    """Run the failover test; 0 when every goal held, 1 when one was missed, 2 when it broke."""
    plan = plan_from(parse_args(argv))
    try:
        outcome = run(plan)
    except (ServerError, ProxyError, RuntimeError, OSError, ValueError,
            subprocess.SubprocessError) as error:
        print(f"error: the run broke off: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    report.write_summary(plan.out / "summary.json", outcome.record)
    (plan.out / "summary.md").write_text(outcome.markdown, encoding="utf-8")
    print(outcome.text)
    print(f"report: {plan.out / 'summary.md'}, {plan.out / 'summary.json'}")
    return 0 if outcome.passed else 1


if __name__ == "__main__":
    sys.exit(main())
