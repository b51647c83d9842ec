"""Helpers of the tree-reuse tests: play on along a kept tree, a kept tree holding a move the
position does not allow, and games played by reusing bots."""

from __future__ import annotations

import random
from typing import Any

from boardbot.engine import CHANCE, Action, Game, State
from boardbot.search.bots import make_bot
from boardbot.search.reuse import KeptTree
from boardbot.search.tree import Node, most_visited
from boardbot.search.tree_search import subtree_size
from tests.search.positions import mid_game_decision

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


def illegal_reusing_moves(
    game: Game, options: dict[str, Any], bots: list[str], seed: int, engine: str
) -> list[tuple[int, Action]]:
    """Play one seeded game of `bots` (seat s plays `bots[s]`, made for `engine`) to the end and
    return the moves a bot chose that were not legal in the real state, with their step (the
    game stops at the first: `apply` trusts its action)."""
    players = [make_bot(name, game, engine) for name in bots]
    state = game.new_state(options, seed)
    chance = random.Random(seed)
    seat_rngs = [random.Random(seed * 31 + s) for s in range(len(players))]
    illegal: list[tuple[int, Action]] = []
    for step in range(2000):
        if game.is_terminal(state):
            break
        player = game.current_player(state)
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, chance))
            continue
        action = players[player].choose(game, state, player, seat_rngs[player])
        if action not in game.legal_actions(state):
            illegal.append((step, action))
            break
        state = game.apply(state, action)
    return illegal


def foreign_action(game: Game, state: State, options: dict[str, Any]) -> Action:
    """A move of another position of the game that is not legal in `state`."""
    legal = set(game.legal_actions(state))
    for seed in range(200):
        other = mid_game_decision(game.name, options, seed, 10 + seed % 60)
        for action in game.legal_actions(other):
            if action not in legal:
                return action
    raise AssertionError("no move outside the legal ones found")


def tree_with_an_illegal_move(
    game: Game, state: State, seat: int, options: dict[str, Any]
) -> tuple[KeptTree, Action, Action]:
    """A kept tree grown from `state` whose root holds, beside a legal move of `seat` (3
    visits), a move of `seat` the position does not allow (the most visited and best, with a
    subtree) and a move of a rival: what an open-loop node matched by the walk can hold. The
    tree, the illegal move and the legal one."""
    legal = game.legal_actions(state)
    illegal = foreign_action(game, state, options)
    root = Node(None, -1)
    good = Node(legal[0], seat)
    good.visits, good.avail, good.total = 3, 3, 1.5
    bad = Node(illegal, seat)
    bad.visits, bad.avail, bad.total = 10_000, 10_000, 9_900.0
    below = Node(legal[-1], seat)
    below.visits, below.avail, below.total = 50, 60, 40.0
    bad.children[seat] = {legal[-1]: below}
    rival = Node(legal[1], 1 - seat)
    rival.visits, rival.avail, rival.total = 7, 7, 3.0
    root.children[seat] = {illegal: bad, legal[0]: good}
    root.children[1 - seat] = {legal[1]: rival}
    kept = KeptTree(game.name, seat, state, subtree_size(root), "python", root=root)
    return kept, illegal, legal[0]
