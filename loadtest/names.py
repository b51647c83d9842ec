"""How requests are named in the statistics, shared by the locustfile and the driver."""

from __future__ import annotations

SHED_SUFFIX = " (shed)"
"""Appended to a request's name when the server refused it with RESOURCE_EXHAUSTED, so shed
requests get their own latency statistics apart from the requests the server accepted."""

RULES_RPCS = ("NewGame", "LegalMoves", "ApplyMove")
"""The cheap rules calls, named by their RPC alone."""


def search_name(rpc: str, preset: str) -> str:
    """The name of a search call (ChooseMove, Analyze) at a preset, e.g. `ChooseMove hard`."""
    return f"{rpc} {preset}"
