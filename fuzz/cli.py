"""The command line: `python -m fuzz [run] [options]` and `python -m fuzz replay FILE...`."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from boardbot.jobs.cores import available_cores
from fuzz import report
from fuzz.grpc_phase import GrpcResult, run_grpc
from fuzz.grpc_server import ServerSettings
from fuzz.inprocess import InprocessResult, run_inprocess, write_repros
from fuzz.pipeline import Limits
from fuzz.repro import DEFAULT_DIR
from fuzz.seeds import all_seeds
from fuzz.web_phase import WebResult, run_web
from fuzz.web_report import web_lines, web_summary
from fuzz.web_repro import replay_any
from fuzz.web_target import WebSettings

PHASES = ("inprocess", "grpc", "web")
INPROCESS_SHARE = 0.55
"""Share of `--minutes` the in-process phase gets; the gRPC phase gets the rest."""
WEB_SHARE = 0.2
"""Share of `--minutes` the web phase gets when other phases run too (before the split)."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of both subcommands."""
    parser = argparse.ArgumentParser(
        prog="python -m fuzz",
        description="Fuzz the engines in process, the server over gRPC and the web gateway "
        "over HTTP; exit 1 on failures.",
    )
    sub = parser.add_subparsers(dest="command")
    run = sub.add_parser("run", help="fuzz (the default)")
    add_run_options(run)
    again = sub.add_parser("replay", help="replay repro files")
    again.add_argument("files", nargs="+", type=Path, help="repro files written by a run")
    return parser


def add_run_options(p: argparse.ArgumentParser) -> None:
    """The options of `run`."""
    p.add_argument("--minutes", type=float, default=5.0,
                   help="time for all phases (default 5; shrinking comes on top)")
    p.add_argument("--seed", type=int, default=1, help="same seed, same cases (default 1)")
    p.add_argument("--phases", default=",".join(PHASES), help="any of inprocess,grpc,web")
    p.add_argument("--cases", type=int, default=None,
                   help="stop the in-process phase after this many cases")
    p.add_argument("--requests", type=int, default=None,
                   help="stop the gRPC phase after this many requests")
    p.add_argument("--web-cases", type=int, default=None,
                   help="stop the web phase after this many cases (probes included)")
    p.add_argument("--repro-dir", type=Path, default=DEFAULT_DIR,
                   help="where repro files, summary.json and the server log go")
    p.add_argument("--jobs", type=int, default=available_cores(),
                   help="processes running in-process cases (default: usable cores)")
    p.add_argument("--threads", type=int, default=6, help="concurrent gRPC requests")
    p.add_argument("--slow-seconds", type=float, default=1.0,
                   help="an engine call slower than this is a failure")
    p.add_argument("--hang-seconds", type=float, default=2.0,
                   help="the watchdog interrupts a case after this long")
    p.add_argument("--shrink-seconds", type=float, default=15.0,
                   help="most time to shrink one failure class (0: no shrinking)")
    p.add_argument("--shrink-total", type=float, default=60.0,
                   help="most time to shrink the failure classes of one phase")
    p.add_argument("--server-workers", type=int, default=2, help="workers of the fuzzed server")
    p.add_argument("--max-time-ms", type=float, default=2000.0,
                   help="--max-time-ms of the fuzzed server")
    p.add_argument("--token", default="fuzz-token",
                   help="--token of the fuzzed server, sent on every request but those sent "
                        "without it on purpose ('': no token)")
    p.add_argument("--long-streams", type=int, default=3,
                   help="time-limited AnalyzeStreams of 3-5 s the probes send (default 3)")
    p.add_argument("--no-probes", dest="probes", action="store_false",
                   help="skip the gRPC probes (long streams, open streams, an idle worker "
                        "killed, SIGTERM during a search)")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; the exit status is 1 when any failure was found."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in ("run", "replay", "-h", "--help"):
        argv = ["run", *argv]
    args = build_parser().parse_args(argv)
    if args.command == "replay":
        return max(replay_any(path) for path in args.files)
    phases = [p for p in args.phases.split(",") if p]
    unknown = set(phases) - set(PHASES)
    if unknown:
        print(f"unknown phases {sorted(unknown)}; known: {', '.join(PHASES)}", file=sys.stderr)
        return 2
    return run(args, phases)


def run(args: argparse.Namespace, phases: list[str]) -> int:
    """Run the selected phases and print the report."""
    started = time.monotonic()
    seconds = args.minutes * 60.0
    others = [p for p in phases if p != "web"]
    web_seconds = seconds * WEB_SHARE if others else seconds
    seconds -= web_seconds if "web" in phases and others else 0.0
    share = INPROCESS_SHARE if len(others) == 2 else 1.0
    print(f"fuzz: seed {args.seed}, {args.minutes:g} minutes, phases {', '.join(phases)}; "
          f"repros in {args.repro_dir}", flush=True)
    seeds = all_seeds(args.seed)
    print(f"  {len(seeds)} seed documents (corpus, playouts of every setup, seat views)",
          flush=True)
    limits = Limits(slow_seconds=args.slow_seconds)
    inprocess: InprocessResult | None = None
    grpc: GrpcResult | None = None
    lines: list[str] = []
    if "inprocess" in phases:
        inprocess = run_inprocess(
            seeds, args.seed, jobs=args.jobs, seconds=seconds * share, max_cases=args.cases,
            limits=limits, hang_seconds=args.hang_seconds, say=_say,
        )
        write_repros(inprocess, args.seed, args.repro_dir, limits, args.hang_seconds,
                     args.shrink_seconds, args.shrink_total)
        lines += report.inprocess_lines(inprocess, args.seed)
        print("\n".join(lines), flush=True)
    if "grpc" in phases:
        settings = ServerSettings(workers=args.server_workers, max_time_ms=args.max_time_ms,
                                  token=args.token)
        left = seconds - inprocess.elapsed if inprocess is not None else seconds
        grpc = run_grpc(
            seeds, args.seed, seconds=max(left, 10.0), max_requests=args.requests,
            threads=args.threads, settings=settings, repro_dir=args.repro_dir,
            shrink_seconds=args.shrink_seconds, shrink_total=args.shrink_total, say=_say,
            long_streams=args.long_streams, probes=args.probes,
        )
        grpc_report = report.grpc_lines(grpc)
        print("\n".join(grpc_report), flush=True)
        lines += grpc_report
    web: WebResult | None = None
    if "web" in phases:
        web = run_web(args.seed, web_seconds, args.web_cases, WebSettings(), args.repro_dir, _say)
        web_report = web_lines(web)
        print("\n".join(web_report), flush=True)
        lines += web_report
    body = report.summary(inprocess, grpc, args.seed)
    if web is not None:
        body["web"] = web_summary(web)
    path = report.write_summary(args.repro_dir, body)
    failures = sum(inprocess.report.failures.values()) if inprocess else 0
    classes = len(inprocess.report.failures) if inprocess else 0
    if grpc is not None:
        failures += sum(grpc.failures.values())
        classes += len(grpc.failures)
    if web is not None:
        failures += sum(web.failures.values())
        classes += len(web.failures)
    elapsed = time.monotonic() - started
    verdict = "no failures" if not failures else f"{failures:,} failures in {classes} classes"
    print(f"== fuzz: {verdict} ({elapsed:.0f} s in all); summary in {path}", flush=True)
    return 1 if failures else 0


def _say(text: str) -> None:
    print(text, flush=True)
