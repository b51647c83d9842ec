"""The declared type of a game: its name, seats, chance, information and capabilities."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path


class Chance(Enum):
    """How a game's random events are drawn."""

    NONE = "none"
    """No chance steps: `current_player` is never CHANCE."""
    LISTED = "listed"
    """Every chance step lists its outcomes with their probabilities (`chance_outcomes`)."""
    SAMPLED = "sampled"
    """Chance steps have too many outcomes to list: they are drawn with `sample_chance`."""


class Information(Enum):
    """Whether some seat may not see part of the state."""

    PERFECT = "perfect"
    IMPERFECT = "imperfect"


@dataclass(frozen=True)
class GameType:
    """What a game is, declared once by the game and checked when it is registered."""

    name: str
    min_players: int
    max_players: int
    chance: Chance
    information: Information
    heuristics: bool = False
    """True when the game has its own `evaluate` and `policy_weights` (else uniform)."""
    render: bool = False
    """True when the game draws its own text picture (else indented JSON)."""
    native_twin: str | None = None
    """The name of the game's twin in the native core's binding (the `boardbot_native` class,
    e.g. "Leda"), or None when it has none. This is the one place the Python side declares a
    twin: the search finds it here (search/engines.py, docs/native.md)."""
    components: Path | None = None
    """The game's component data file (JSON): the one copy of its cards, tiles, names and
    numbers, which its engines read and the web gateway serves to the analysis board
    (`GET /api/games/<name>/components`, docs/web.md). None when the game has none."""
