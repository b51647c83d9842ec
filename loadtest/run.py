"""`make loadtest`: start a local server, measure the unloaded baseline, run every scenario.

Scenarios, in order: load (users = workers), overload (six users per worker, no think time),
soak (memory before and after), fault (a worker killed mid-load). Each is a bounded headless
locust run writing CSV statistics and an HTML report into the output directory. The server is
stopped at the end, and the exit status is 1 when an objective of slo.toml was missed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import grpc

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from loadtest import faults, report
from loadtest.baseline import BaselinePlan, measure_baseline
from loadtest.corpus import CORPUS_DIR, Position, load_corpus
from loadtest.memory import MemorySampler, total_rss_mib
from loadtest.scenarios import LocustResult, Scenario, run_locust, standard_scenarios
from loadtest.server_process import ServerError, ServerProcess, start_server
from loadtest.slo import (
    SLO_FILE,
    Check,
    check_baseline,
    check_fault,
    check_load,
    check_overload,
    check_soak,
    load_slo,
)
from loadtest.stats import Row, pooled

OUT_DIR = Path(__file__).resolve().parent / "out"
SCENARIO_ORDER = ("load", "overload", "soak", "fault")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The driver's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="server search workers")
    parser.add_argument("--queue", type=int, default=None, help="server queue (default: workers)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every duration")
    parser.add_argument(
        "--scenarios", default=",".join(SCENARIO_ORDER), help="comma-separated scenarios to run"
    )
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="CSV, HTML and logs go here")
    parser.add_argument("--slo", type=Path, default=SLO_FILE, help="objectives file")
    parser.add_argument("--corpus", type=Path, default=CORPUS_DIR, help="recorded states")
    parser.add_argument(
        "--engine", choices=("auto", "native", "python"), default="auto",
        help="the server's --engine: the native core where a game has one, or Python",
    )
    parser.add_argument(
        "--search-threads", default="1",
        help="the server's --search-threads (default 1: a search takes one core whether the "
        "server is idle or loaded, so the latency objectives compare like with like)",
    )
    args = parser.parse_args(argv)
    unknown = set(args.scenarios.split(",")) - set(SCENARIO_ORDER)
    if unknown:
        parser.error(f"unknown scenarios {sorted(unknown)}; known: {', '.join(SCENARIO_ORDER)}")
    if args.queue is None:
        args.queue = args.workers
    return args


def probe(address: str, corpus_dir: Path) -> bool:
    """One cheap bot move answered: the server serves searches."""
    corpus = load_corpus(corpus_dir)
    position = next(iter(corpus.values()))[0]
    request = pb.ChooseMoveRequest(
        game=position.game, state_json=position.state_json, seat=position.seat,
        preset="beginner", seed=1,
    )
    with grpc.insecure_channel(address) as channel:
        try:
            pb_grpc.BoardBotStub(channel).ChooseMove(request, timeout=30)
        except grpc.RpcError:
            return False
    return True


def pooled_baseline(first: dict[str, Row], second: dict[str, Row]) -> dict[str, Row]:
    """Per request name, the samples of both baselines together: the unloaded latency over the
    time around a scenario, not just one (perhaps unusually quiet) moment of a shared machine."""
    merged = dict(first)
    for name, row in second.items():
        merged[name] = pooled(merged[name], row) if name in merged else row
    return merged


def search_speed(server: ServerProcess) -> tuple[float, float]:
    """The server's search counters: iterations run, and seconds the searches took."""
    metrics = server.metrics()
    return (
        metrics.get("boardbot_search_iterations_total", 0.0),
        metrics.get("boardbot_search_seconds_total", 0.0),
    )


def speed_between(before: tuple[float, float], after: tuple[float, float]) -> str:
    """Iterations per second of search time between two counter readings: how fast one search
    ran, which drops when the machine (its other users included) gives the workers less CPU."""
    iterations, seconds = after[0] - before[0], after[1] - before[1]
    return "-" if seconds <= 0 else f"{iterations / seconds:,.0f} iterations/s per search"


def _seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.1f} s"


def _loadavg() -> str:
    """The machine's 1-minute load average (all its users, not only this run)."""
    return f"{os.getloadavg()[0]:.1f}"


class Run:
    """One driver run: the server, the baseline, the results and the verdicts."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.slo = load_slo(args.slo)
        self.scenarios = standard_scenarios(args.workers, args.scale)
        self.checks: list[Check] = []
        self.markdown: list[str] = []
        self.corpus: dict[str, list[Position]] = {}
        self.record: dict[str, Any] = {
            "cores": os.cpu_count(),
            "workers": args.workers,
            "queue": args.queue,
            "command": " ".join(["python -m loadtest.run", *sys.argv[1:]]),
            "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        }

    def execute(self, server: ServerProcess) -> None:
        """A baseline, then each selected scenario in order, each relative one followed by a
        fresh baseline: it is judged against the slower of the two baselines around it."""
        self.corpus = load_corpus(self.args.corpus)
        baseline = self._baseline(server, "start")
        self._verdicts(check_baseline(baseline))
        selected = self.args.scenarios.split(",")
        for name in SCENARIO_ORDER:
            if name in selected:
                server.check_alive()
                baseline = getattr(self, f"_{name}")(server, self.scenarios[name], baseline)

    def _baseline(self, server: ServerProcess, when: str) -> dict[str, Row]:
        load = self.scenarios["load"]
        plan = BaselinePlan(presets=load.presets, analyze_preset=load.analyze_preset)
        load_before, speed_before = _loadavg(), search_speed(server)
        rows = measure_baseline(server.address, self.corpus, plan)
        self._say(f"== baseline ({when}): one request at a time; machine load average "
                  f"{load_before}; {speed_between(speed_before, search_speed(server))}")
        print(report.baseline_table(rows), flush=True)
        self.markdown.append(report.markdown_table(list(rows.values())))
        self.record.setdefault("baselines", {})[when] = rows
        return rows

    def _bracket(
        self, server: ServerProcess, scenario: Scenario, before: dict[str, Row]
    ) -> tuple[dict[str, Row], dict[str, Row]]:
        """The baseline after `scenario`, and it pooled with `before`."""
        after = self._baseline(server, f"after {scenario.name}")
        self._verdicts(check_baseline(after))
        return after, pooled_baseline(before, after)

    def _run(self, server: ServerProcess, scenario: Scenario) -> LocustResult:
        load_before, speed_before = _loadavg(), search_speed(server)
        result = run_locust(scenario, server.address, self.args.out, self.args.corpus)
        self.record[scenario.name] = {
            "rows": result.rows, "total": result.total, "failures": result.failures,
            "load_average": [load_before, _loadavg()],
            "search_speed": speed_between(speed_before, search_speed(server)),
        }
        return result

    def _show(self, result: LocustResult, unloaded: dict[str, Row]) -> None:
        heading = report.scenario_heading(result, self.args.workers, self.args.queue)
        record = self.record[result.scenario.name]
        load_before, load_after = record["load_average"]
        load_line = (
            f"machine load average {load_before} before, {load_after} after; "
            f"{record['search_speed']}"
        )
        print(heading, load_line, report.result_table(result, unloaded), sep="\n", flush=True)
        self.markdown += [
            f"### {result.scenario.name}",
            f"{heading.lstrip('= ')}; {load_line}",
            report.markdown_table([*result.rows, result.total], unloaded),
        ]

    def _load(
        self, server: ServerProcess, scenario: Scenario, baseline: dict[str, Row]
    ) -> dict[str, Row]:
        result = self._run(server, scenario)
        after, bracket = self._bracket(server, scenario, baseline)
        self._show(result, bracket)
        self._verdicts(check_load(result, bracket, self.slo))
        return after

    def _overload(
        self, server: ServerProcess, scenario: Scenario, baseline: dict[str, Row]
    ) -> dict[str, Row]:
        result = self._run(server, scenario)
        after, bracket = self._bracket(server, scenario, baseline)
        self._show(result, bracket)
        self._verdicts(
            check_overload(result, bracket, self.slo, self.args.workers, self.args.queue)
        )
        return after

    def _soak(
        self, server: ServerProcess, scenario: Scenario, baseline: dict[str, Row]
    ) -> dict[str, Row]:
        before = total_rss_mib(server)
        sampler = MemorySampler(server, interval_s=5.0)
        sampler.start()
        try:
            result = self._run(server, scenario)
        finally:
            samples = sampler.stop()
        after = total_rss_mib(server)
        self._show(result, baseline)
        self._say(f"memory (server + workers, MiB): before {before:.1f}, during "
                  f"{', '.join(f'{s:.1f}' for s in samples)}, after {after:.1f}")
        self.record["soak"]["memory_mib"] = {"before": before, "during": samples, "after": after}
        self._verdicts(check_soak(result, before, after, self.slo))
        return baseline

    def _fault(
        self, server: ServerProcess, scenario: Scenario, baseline: dict[str, Row]
    ) -> dict[str, Row]:
        if self.args.engine != "python":
            # Searches of games with a native twin run in the server process: no worker to kill.
            self._say("fault: skipped, the searches run natively in the server process (the "
                      "worker-kill scenario needs --engine python)")
            self.record["fault"] = {"skipped": "native searches run in the server process"}
            return baseline
        delay = scenario.duration_s / 3
        kill = faults.kill_worker_later(
            server, delay, self.args.workers, watch_s=scenario.duration_s - delay - 1
        )
        result = self._run(server, scenario)
        self._show(result, baseline)
        kill.done.wait(timeout=scenario.duration_s)
        ok = probe(server.address, self.args.corpus)
        self._say(f"killed worker pid {kill.pid}; new worker and SERVING after "
                  f"{_seconds(kill.replaced_s)}; every worker searching again after "
                  f"{_seconds(kill.recovery_s)}{'; ' + kill.error if kill.error else ''}; "
                  f"probe after the run {'ok' if ok else 'FAILED'}")
        self.record["fault"]["kill"] = {
            "pid": kill.pid, "replaced_s": kill.replaced_s, "recovery_s": kill.recovery_s,
            "error": kill.error, "probe_ok": ok,
        }
        killed = 1 if kill.pid is not None else 0
        self._verdicts(check_fault(result, killed, kill.recovery_s, ok, self.slo))
        return baseline

    def _say(self, line: str) -> None:
        print(line, flush=True)
        self.markdown.append("### " + line[3:] if line.startswith("== ") else line)

    def _verdicts(self, checks: list[Check]) -> None:
        print(report.checks_text(checks), flush=True)
        self.checks += checks
        self.markdown.append("\n".join(f"- {line}" for line in
                                       report.checks_text(checks).splitlines()))


def main(argv: list[str] | None = None) -> int:
    """Run everything; 0 when every objective held, 1 otherwise, 2 when the run broke."""
    args = parse_args(argv)
    run = Run(args)
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        server = start_server(
            args.workers,
            args.queue,
            args.out / "server.log",
            ["--engine", args.engine, "--search-threads", args.search_threads],
        )
    except ServerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    broke: str | None = None
    try:
        run.execute(server)
    except (ServerError, RuntimeError, OSError, ValueError, subprocess.SubprocessError) as error:
        broke = f"{type(error).__name__}: {error}"
    finally:
        code = server.stop()
        run.checks.append(Check("server", "graceful stop", code == 0, f"exit code {code}"))
        print(report.checks_text(run.checks[-1:]))
    run.record["checks"] = run.checks
    run.record["broke"] = broke
    report.write_summary(args.out / "summary.json", run.record)
    (args.out / "summary.md").write_text("\n\n".join(run.markdown) + "\n", encoding="utf-8")
    failed = [c for c in run.checks if not c.passed]
    print(f"\n== {len(run.checks) - len(failed)} of {len(run.checks)} objectives met"
          f"{'' if not failed else '; missed:'}")
    if failed:
        print(report.checks_text(failed))
    if broke is not None:
        print(f"error: the run broke off: {broke}", file=sys.stderr)
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
