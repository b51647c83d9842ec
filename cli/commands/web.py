"""`boardbot web`: serve the analysis board on a local port, as a client of a bot server."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from boardbot.cli.commands.common import add_engine_argument, chosen_engine
from boardbot.jobs.cores import available_cores
from boardbot.web.handler_pool import DEFAULT_MAX_HANDLERS
from boardbot.web.origins import OriginError, parse_origin, parse_origins
from boardbot.web.request_io import IDLE_TIMEOUT_S

DEFAULT_WEB_PORT = 8080
ALLOW_ORIGIN_VARIABLE = "BOARDBOT_ALLOW_ORIGIN"
"""Allowed origins, separated by spaces or commas, when no --allow-origin is given."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `web` command."""
    p = sub.add_parser(
        "web",
        help="serve the analysis board in the browser",
        description="Serve the analysis board (board, live analysis, play and watch) at "
        "http://HOST:PORT/. It talks to the boardbot server given by --server; without it, it "
        "starts one of its own on a free loopback port.",
    )
    env = os.environ.get
    p.add_argument("--host", default="127.0.0.1", help="address of the page (default: loopback)")
    p.add_argument(
        "--port", type=int, default=DEFAULT_WEB_PORT, help="port of the page; 0 picks a free one"
    )
    p.add_argument(
        "--server",
        default=env("BOARDBOT_SERVER"),
        help="HOST:PORT of a running `boardbot serve` (default: start a local one)",
    )
    p.add_argument("--token", default=env("BOARDBOT_TOKEN"), help="the server's token, if any")
    p.add_argument(
        "--tls-ca", type=Path, default=env("BOARDBOT_TLS_CA"), help="CA certificate for TLS"
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="deadline in seconds of every call the page makes (default: 15 for the rules "
        "calls, 120 for ChooseMove and Analyze, 600 for an analysis stream)",
    )
    p.add_argument(
        "--max-connections",
        type=int,
        default=DEFAULT_MAX_HANDLERS,
        help=f"connections the page's gateway handles at once; one more is answered 503 "
        f"(default {DEFAULT_MAX_HANDLERS})",
    )
    p.add_argument(
        "--idle-timeout",
        type=float,
        default=IDLE_TIMEOUT_S,
        help="seconds a connection may stay silent while its request is read "
        f"(default {IDLE_TIMEOUT_S:g})",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        type=_origin,
        metavar="ORIGIN",
        help="let pages at ORIGIN (scheme://host[:port], exactly as the browser sends it) call "
        "the /api routes; repeat for more; no wildcard "
        f"(default: ${ALLOW_ORIGIN_VARIABLE}, else none)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=available_cores(),
        help="search workers of the local server (without --server)",
    )
    add_engine_argument(p)
    p.set_defaults(func=run_web)


def run_web(args: argparse.Namespace) -> int:
    """Serve the page until interrupted (SIGINT or SIGTERM)."""
    from boardbot.service.client import BotClient, open_channel
    from boardbot.web.gateway import Gateway, GatewayConfig

    try:
        origins = _allowed_origins(args.allow_origin)
    except OriginError as error:
        source = ALLOW_ORIGIN_VARIABLE if args.allow_origin is None else "--allow-origin"
        print(f"boardbot web: {source}: {error}", file=sys.stderr)
        return 2
    with _server_address(args) as address:
        channel = open_channel(address, args.tls_ca)
        client = BotClient(channel, args.token)
        try:
            gateway = Gateway(
                GatewayConfig(
                    args.host,
                    args.port,
                    client,
                    args.timeout,
                    max_handlers=args.max_connections,
                    idle_timeout_s=args.idle_timeout,
                    allow_origins=origins,
                )
            )
        except OSError as error:
            print(
                f"boardbot web: cannot listen on {args.host}:{args.port}: {error.strerror}",
                file=sys.stderr,
            )
            return 1
        for origin in origins:
            print(f"boardbot web: pages at {origin} may call the /api routes", flush=True)
        host = f"[{args.host}]" if ":" in args.host else args.host
        print(
            f"boardbot web: the board is at http://{host}:{gateway.port}/ (server {address})",
            flush=True,
        )
        stop = threading.Event()

        def _stop(signum: int, frame: FrameType | None) -> None:
            stop.set()

        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)
        thread = threading.Thread(target=gateway.serve_forever, daemon=True)
        thread.start()
        stop.wait()
        gateway.shutdown()
        gateway.server_close()
        channel.close()
    return 0


def _origin(text: str) -> str:
    """An --allow-origin value, checked (argparse reports the error)."""
    try:
        return parse_origin(text)
    except OriginError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _allowed_origins(given: list[str] | None) -> tuple[str, ...]:
    """The --allow-origin values, or else those of ALLOW_ORIGIN_VARIABLE (OriginError)."""
    listed = given
    if listed is None:
        listed = os.environ.get(ALLOW_ORIGIN_VARIABLE, "").replace(",", " ").split()
    return tuple(sorted(parse_origins(listed)))


@contextmanager
def _server_address(args: argparse.Namespace) -> Iterator[str]:
    """The server to talk to: --server, or a local one started for the page's lifetime."""
    if args.server:
        yield args.server
        return
    from boardbot.service.server import BotServer, ServerConfig

    server = BotServer(
        ServerConfig(host="127.0.0.1", port=0, workers=args.workers, engine=chosen_engine(args))
    )
    port = server.start()
    print(f"boardbot web: started a local server on 127.0.0.1:{port}", flush=True)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(grace=1)
