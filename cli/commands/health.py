"""`boardbot health`: exit 0 when the server reports SERVING (for container health checks)."""

from __future__ import annotations

import argparse

from boardbot.cli.commands.common import add_server_arguments, run_guarded


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `health` command."""
    p = sub.add_parser("health", help="check a server with the gRPC health service")
    p.add_argument("--service", default="", help="service name ('' is the whole server)")
    add_server_arguments(p)
    p.set_defaults(func=lambda args: run_guarded(run_health, args), timeout=3.0)


def run_health(args: argparse.Namespace) -> int:
    """Print the status; exit 0 only for SERVING."""
    # Imported here, not at the top: only client commands load gRPC.
    from boardbot.cli.commands.remote import connect

    client = connect(args)
    try:
        status = client.health(args.service)
    finally:
        client.close()
    print(status)
    return 0 if status == "SERVING" else 1
