"""Comparable summaries of search results (everything but the wall-clock time)."""

from __future__ import annotations

from boardbot.search.api import SearchResult


def figures(result: SearchResult) -> tuple[object, ...]:
    """Everything in a result except the wall-clock time."""
    return (
        result.action,
        result.iterations,
        result.stopped_by,
        result.nodes,
        tuple((m.action, m.visits, m.mean_value, m.lower_bound, m.principal_variation)
              for m in result.moves),
    )
