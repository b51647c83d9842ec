"""The search's public value types: configuration in, chosen move and statistics out."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardbot.engine.api import Action


class StopReason(enum.StrEnum):
    """What ended a search (the strings are part of the wire contract: SearchStats.stopped_by)."""

    ITERATIONS = "iterations"
    TIME = "time"
    DEADLINE = "deadline"
    EARLY_STOP = "early_stop"
    CANCELLED = "cancelled"
    SINGLE_MOVE = "single_move"
    """Only one legal move: nothing to search."""
    RUNNING = "running"
    """Not ended: a progress report of a search still running."""


@dataclass(frozen=True)
class SearchConfig:
    """One configuration of the ISMCTS search; difficulty presets are named instances."""

    iterations: int | None = 1000
    """Iteration budget (None: unbounded, another budget must be set)."""
    time_ms: float | None = None
    """Wall-clock budget in milliseconds from the start of the search."""
    deadline: float | None = None
    """Absolute `time.time()` after which the search stops (from an RPC deadline)."""
    workers: int = 1
    """Root-parallel worker processes, each with its own tree and derived seed."""
    exploration: float = 0.7
    """UCB exploration constant."""
    temperature: float = 0.0
    """0 picks the most visited move; > 0 samples from visits ** (1 / temperature)."""
    rollout: str = "random"
    """Rollout policy, a name in `boardbot.search.rollout.ROLLOUT_POLICIES`: `random` (uniform) or
    `heuristic` (the game's policy_weights)."""
    cutoff_depth: int | None = None
    """Stop rollouts after this many steps and use the game's evaluate (None: play out)."""
    max_rollout_steps: int = 2000
    """Safety bound on a rollout's length; the game's evaluate scores a truncated rollout."""
    node_cap: int = 200_000
    """Maximum tree nodes; beyond it the tree stops growing (memory bound)."""
    early_stop: bool = True
    """Stop once the most visited root move can no longer be overtaken within the budget."""
    margin_weight: float = 0.1
    """Share of a terminal reward given by the squashed score margin (the rest: win or loss)."""
    prior_weight: float = 0.0
    """Progressive bias: adds `prior_weight · P(a) / (visits + 1)` to a child's UCB score, P the
    game's `policy_weights` normalised over the node's legal actions; > 0 also expands the
    untried action with the highest prior first (0: no priors, uniform expansion)."""
    widening: float = 0.0
    """Progressive widening coefficient k: a node expands at most `ceil(k · n^widening_exponent)`
    children for a seat, n its visits with that seat to move, this one included (0: off)."""
    widening_exponent: float = 0.5
    """Progressive widening exponent alpha, in [0, 1] (used only when `widening` > 0)."""
    model: str | None = None
    """A value and policy network guiding the search: a shipped model's name (`leda-2p`,
    `legend_raiders-3p`) or a model file's path (docs/learning.md). With a model, selection is
    PUCT on the network's priors and a leaf is valued by the network; None: the search without
    a model, bit for bit as before."""
    leaf_lambda: float = 0.5
    """With a model, a leaf's value is `leaf_lambda · net + (1 - leaf_lambda) · rollout`, in
    [0, 1] (1: the network replaces the rollout; 0: rollouts only, priors still learned).
    The bot override is `+lambda=`."""
    puct: float = 0.5
    """With a model, the PUCT constant: a decision scores `Q + puct · P · sqrt(N) / (1 + n)`."""
    fpu: float = 0.2
    """With a model, first-play urgency: an unvisited decision's Q is its node's mean value for
    the seat to move less `fpu`."""

    def replace(self, **changes: Any) -> SearchConfig:
        """A copy with some fields changed."""
        return SearchConfig(**{**self.__dict__, **changes})


@dataclass(frozen=True)
class SearchControls:
    """How a caller steers one running search: cancellation, progress, moves to describe."""

    should_stop: Callable[[], bool] | None = None
    """Polled every few iterations; True cancels the search (stopped_by `cancelled`)."""
    on_progress: Callable[[SearchResult], None] | None = None
    """Receives partial results (stopped_by `running`) about every `progress_every` iterations."""
    progress_every: int = 0
    shown: int | None = None
    """How many of the most visited moves get notation and a principal variation (None: all;
    the chosen move always does)."""
    progress_ms: float = 0.0
    """At most one partial result per this many milliseconds (0: no time condition). The
    native search paces itself by it; the Python search leaves the pacing to the callback."""
    search_forced: bool = False
    """Search a position with a single legal move too (an analysis wants the position's
    value); False answers it at once, unsearched (stopped_by `single_move`, no visits)."""


@dataclass(frozen=True)
class MoveStats:
    """Statistics of one root move, as an analysis view shows them."""

    action: Action
    notation: str | None
    """The move in the engine's notation; None for a move the search was not asked to
    describe (see `SearchControls.shown`)."""
    visits: int
    mean_value: float
    """Mean reward of the deciding seat after this move, in [0, 1]."""
    lower_bound: float
    """A lower confidence bound on mean_value."""
    principal_variation: tuple[str, ...] = ()
    """The most visited line after (and including) this move, in the engine's notation
    (empty for a move not described)."""
    prior: float | None = None
    """With a model, for a described move: the network's prior of this move at the root for
    the deciding seat (the softmax over the legal moves of the policy outputs, from the root
    view's features). None without a model."""
    net_value: float | None = None
    """With a model, for a described move: the network's value of the position after this
    move for the deciding seat, in [0, 1]: the mean over a few determinizations of the root view
    (seeded from the search seed) of the move, then chance sampled on to the next decision,
    valued by the terminal reward at the end of the game or by the network from the mover's
    view. None without a model."""
    seat_values: tuple[float, ...] = ()
    """Every seat's mean reward after this move, by seat, in [0, 1], from the iterations that
    played it (the deciding seat's entry is `mean_value`); empty for a move no iteration
    played. After tree reuse from a deeper node of the earlier tree, the other seats' means
    count only this search's iterations (that node's moves kept their own seat's sums only)."""
    principal_variation_seats: tuple[int, ...] = ()
    """The seat that plays each move of `principal_variation` (in the world the line was
    replayed in), the deciding seat first."""


@dataclass(frozen=True)
class SearchResult:
    """The chosen move and the statistics behind it."""

    action: Action
    notation: str
    seat: int
    iterations: int
    elapsed_ms: float
    moves: tuple[MoveStats, ...] = field(default=())
    """Every root move, most visited first; the described ones carry notation and a line."""
    stopped_by: StopReason = StopReason.ITERATIONS
    """What ended the search (`running` in a progress report)."""
    nodes: int = 0
    engine_ms: float = 0.0
    """Time spent inside engine calls (for the overhead figure), when measured."""
    reused: bool = False
    """True when the search grew on a node of an earlier tree (`search/reuse.py`)."""
    reused_visits: int = 0
    """Visits the root moves had from that earlier tree before this search began."""
    seat_values: tuple[float, ...] = ()
    """Every seat's value at the root from this one search, by seat, in [0, 1]: the
    `seat_values` of the most visited move (`moves[0]`), so the deciding seat's entry is that
    move's `mean_value`. Empty when nothing was searched (a single legal move answered at
    once)."""
