"""Features of a seat's view and of its decisions (the twin of Rust's `features.rs`)."""

from __future__ import annotations

from typing import Any

FEATURES_VERSION = 0
"""Version of this feature definition (bumped on any change; models record it)."""


def feature_size(num_players: int) -> int:
    """Length of the view vector for `num_players` seats."""
    return 0


def features(state: Any, seat: int) -> list[float]:
    """`seat`'s view of `state` as `feature_size` values."""
    return []


def action_feature_size() -> int:
    """Size of the action-feature space."""
    return 0


def action_features(state: Any, action: Any) -> tuple[int, ...]:
    """The active action-feature indices of decision `action` in `state`."""
    return ()
