"""Seed documents: the recorded corpus, states of seeded random playouts, and seat views."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from boardbot.engine import CHANCE, Game, State, get_game, list_games
from loadtest.corpus import CORPUS_DIR, load_corpus

MAX_PLAYOUT_STEPS = 20_000
"""Bound on the steps of one seeding playout (games end long before)."""


@dataclass(frozen=True)
class Setup:
    """A game with one choice of its options, e.g. LEDA sharks against cats."""

    game: str
    label: str
    options: dict[str, Any]


@dataclass(frozen=True)
class Seed:
    """One document to mutate, with what a request about it needs (seat, legal moves)."""

    game: str
    label: str
    doc: dict[str, Any]
    to_move: int
    """The seat to move, CHANCE (-1) or TERMINAL (-2)."""
    players: int
    moves: tuple[tuple[str, dict[str, Any]], ...]
    """The legal moves of the seat to move: (notation, JSON object)."""


def setups() -> list[Setup]:
    """Every game with every option choice worth covering, read from `describe_options()`:
    all ordered clan pairings, every player count, every variant."""
    found: list[Setup] = []
    for name in list_games():
        described = get_game(name).describe_options()
        axes: list[list[tuple[str, Any]]] = []
        clans = described.get("clans", {}).get("values")
        if clans:
            axes.append([("clans", [a, b]) for a, b in itertools.permutations(clans, 2)])
        players = described.get("players", {})
        counts = players.get("values") or list(
            range(players.get("min", 2), players.get("max", 2) + 1)
        )
        if len(counts) > 1:
            axes.append([("players", n) for n in counts])
        variants = described.get("variant", {}).get("choices")
        if variants:
            axes.append([("variant", v) for v in variants])
        for combo in itertools.product(*axes):
            options = dict(combo)
            label = "-".join([name, *(_label(v) for v in options.values())])
            found.append(Setup(name, label, options))
    return found


def _label(value: Any) -> str:
    if isinstance(value, list):
        return "+".join(str(v) for v in value)
    return f"{value}p" if isinstance(value, int) else str(value)


def seed_from_state(game: Game, state: State, label: str, observer: int | None) -> Seed:
    """A seed of `state` (its full document, or the view of `observer`)."""
    doc = game.state_to_json(state, observer)
    doc = orjson.loads(orjson.dumps(doc))
    decoded = game.state_from_json(doc) if observer is not None else state
    to_move = game.current_player(decoded)
    moves: tuple[tuple[str, dict[str, Any]], ...] = ()
    if to_move >= 0:
        moves = tuple(
            (game.action_to_str(decoded, a), game.action_to_json(decoded, a))
            for a in game.legal_actions(decoded)
        )
    return Seed(game.name, label, doc, to_move, game.num_players(decoded), moves)


def with_views(game: Game, state: State, label: str) -> list[Seed]:
    """The full state and each seat's view of it."""
    seeds = [seed_from_state(game, state, label, None)]
    for seat in range(game.num_players(state)):
        seeds.append(seed_from_state(game, state, f"{label}/view{seat}", seat))
    return seeds


def corpus_seeds(directory: Path = CORPUS_DIR) -> list[Seed]:
    """Every recorded load-test position, with its views."""
    seeds: list[Seed] = []
    for setup, positions in load_corpus(directory).items():
        for i, position in enumerate(positions):
            game = get_game(position.game)
            state = game.state_from_json(orjson.loads(position.state_json))
            seeds.extend(with_views(game, state, f"corpus/{setup}/{i}"))
    return seeds


def playout_states(
    game: Game, setup: Setup, game_seed: int, picks: int, rng: random.Random
) -> list[tuple[int, State]]:
    """`picks` states (with their step numbers) of one seeded random game; the last state
    (usually the end of the game) and the first chance step are always among them."""
    state = game.new_state(setup.options, game_seed)
    trajectory = [state]
    for _ in range(MAX_PLAYOUT_STEPS):
        if game.is_terminal(state):
            break
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            actions = game.legal_actions(state)
            state = game.apply(state, actions[rng.randrange(len(actions))])
        trajectory.append(state)
    steps = sorted(rng.sample(range(len(trajectory) - 1), min(picks - 1, len(trajectory) - 1)))
    steps.append(len(trajectory) - 1)
    # The first chance step too (a LEDA mulligan's shuffle, a Legend Raiders roll), so the
    # targeted edits of chance piles have a state to start from in every setup.
    chance = next((i for i, t in enumerate(trajectory) if game.current_player(t) == CHANCE), None)
    if chance is not None and chance not in steps:
        steps = sorted([*steps, chance])
    return [(step, trajectory[step]) for step in steps]


def playout_seeds(seed: int, games_per_setup: int = 2, picks: int = 3) -> list[Seed]:
    """States of seeded random playouts of every setup, with their views."""
    rng = random.Random(f"{seed}/playouts")
    seeds: list[Seed] = []
    for setup in setups():
        game = get_game(setup.game)
        for _ in range(games_per_setup):
            game_seed = rng.randrange(2**32)
            for step, state in playout_states(game, setup, game_seed, picks, rng):
                label = f"playout/{setup.label}/{game_seed}/{step}"
                seeds.extend(with_views(game, state, label))
    return seeds


def all_seeds(seed: int, games_per_setup: int = 2, corpus: Path | None = CORPUS_DIR) -> list[Seed]:
    """The corpus (unless `corpus` is None) and the playout states of `seed`, with views."""
    found = corpus_seeds(corpus) if corpus is not None else []
    return found + playout_seeds(seed, games_per_setup)


def by_game(seeds: Iterable[Seed]) -> dict[str, list[Seed]]:
    """Seeds grouped by game name (sorted names, seeds in their order)."""
    grouped: dict[str, list[Seed]] = {}
    for s in seeds:
        grouped.setdefault(s.game, []).append(s)
    return dict(sorted(grouped.items()))
