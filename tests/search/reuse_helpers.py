"""Helpers of the tree-reuse tests: play on along a kept tree to the seat's next decision."""

from __future__ import annotations

import random
from typing import Any

from boardbot.engine import CHANCE, Action, Game, State
from boardbot.search.tree import Node, most_visited

OPTIONS: dict[str, dict[str, Any]] = {
    "leda": {"clans": ["sharks", "pandas"]},
    "legend_raiders": {"players": 2},
}


def play_along(
    game: Game, root: Node, state: State, seat: int, rng: random.Random
) -> tuple[State, tuple[Action, ...]] | None:
    """From `state` (seat to move, `root` its tree), play the most visited legal move of the
    tree at every decision (seat's and the rivals'), chance steps drawn with `rng`, until
    `seat` is to move again after a rival's decision; the state reached and the decisions
    played (None where the tree ends before)."""
    node = root
    played: list[Action] = []
    rival_moved = False
    while True:
        player = game.current_player(state)
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        if player < 0 or (player == seat and rival_moved):
            return state, tuple(played)
        rival_moved = rival_moved or player != seat
        legal = game.legal_actions(state)
        options = {a: c for a, c in node.children.get(player, {}).items() if a in legal}
        child = most_visited(options) if options else None
        if child is None:
            return None
        action = child.action
        node = child
        played.append(action)
        state = game.apply(state, action)
