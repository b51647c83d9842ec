"""Per-seat reward vectors: win first, score margin second, heuristic values at cut-offs."""

from __future__ import annotations

from boardbot.engine.api import Game, State


def margin_share(scores: tuple[float, ...], seat: int) -> float:
    """Seat's score margin over its best rival, squashed into [0, 1] (0.5: level)."""
    own = scores[seat]
    rival = max(s for i, s in enumerate(scores) if i != seat)
    spread = abs(own) + abs(rival)
    if spread == 0:
        return 0.5
    return 0.5 + 0.5 * (own - rival) / spread


def terminal_reward(game: Game, state: State, margin_weight: float) -> tuple[float, ...]:
    """Reward of each seat at a terminal state: (1-w)·returns + w·squashed margin."""
    returns = game.returns(state)
    if margin_weight <= 0.0 or len(returns) < 2:
        return tuple(returns)
    scores = tuple(game.scores(state))
    keep = 1.0 - margin_weight
    return tuple(
        keep * r + margin_weight * margin_share(scores, seat) for seat, r in enumerate(returns)
    )


def state_reward(game: Game, state: State, margin_weight: float) -> tuple[float, ...]:
    """Terminal reward at the end of the game, else the game's heuristic evaluation."""
    if game.is_terminal(state):
        return terminal_reward(game, state, margin_weight)
    return tuple(game.evaluate(state))
