"""Differential harness: each Python engine against its native twin (boardbot_native).

Both engines start from the same JSON state (a Python setup with random options) and are stepped
together. At every step the harness compares the current player, the legal moves (the Python
engine's action values and their notation), the chance outcomes and their probabilities, and the
full state JSON (as parsed values); every few steps the evaluation, the rollout weights, the
seats' views and a native determinization (it must keep the seat's view and decode in Python);
at the end the returns and the scores. The learned evaluation's features are compared too,
exactly (the Python values cast to float32 against the native f32): at every decision the
action features of the move taken, every `EVERY_FEATURES` steps the features of the seat to
move, and every `EVERY_ALL_FEATURES` steps the features of every seat and the action features
of every legal decision, with their sizes and index bounds (about a quarter more time per
step on LEDA). Chance outcomes are chosen by the harness (with its own RNG: weighted by the
Python engine's probabilities where it lists them, else Python's sampler fed the harness RNG,
as for LEDA's shuffles) and applied to both engines, so the engines' random streams never
matter.

Legend Raiders cycles through every player count and variant; LEDA through every ordered clan
pairing with either seat first. A difference stops that game and is reported with a minimal
reproduction: the state JSON before the step and the action taken.

    python -m tests.native.parity --steps 1000000 [--game leda] [--seed 7]
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import sys
import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from boardbot.engine.api import Game
from boardbot.engine.leda.data import CLAN_NAMES
from boardbot.engine.leda.game import LedaGame
from boardbot.engine.legend_raiders.game import LegendRaidersGame


def _load_native() -> ModuleType | None:
    """The native module, optional: `make native` builds it (it needs a Rust toolchain)."""
    try:
        return importlib.import_module("boardbot_native")
    except ImportError:  # pragma: no cover - depends on the machine
        return None


boardbot_native = _load_native()

CONFIGS = [(players, variant) for players in (2, 3, 4) for variant in ("dice", "diceless")]
"""Legend Raiders: every player count and variant."""
LEDA_CONFIGS = [(a, b, first) for a in CLAN_NAMES for b in CLAN_NAMES if a != b for first in (0, 1)]
"""LEDA: every ordered clan pairing, either seat first."""
GAMES = ("legend_raiders", "leda")
EVERY_EVALUATION = 7
EVERY_WEIGHTS = 3
EVERY_VIEW = 23
EVERY_FEATURES = 4
EVERY_ALL_FEATURES = 13
TOLERANCE = 1e-9


@dataclass
class Difference:
    """One disagreement between the engines, with what reproduces it."""

    game: int
    step: int
    what: str
    python: Any
    native: Any
    state_json: str
    """The (full) state JSON before the step."""
    action: Any = None
    """The action about to be applied (None when the difference is in the state itself)."""

    def reproduction(self) -> str:
        """A minimal reproduction: the state before the step and the action."""
        lines = [
            f"difference in game {self.game}, step {self.step}: {self.what}",
            f"  python: {self.python!r}"[:2000],
            f"  native: {self.native!r}"[:2000],
            f"  action: {self.action!r}",
            "  state before the step:",
            f"  {self.state_json}",
            "  reproduce: s = boardbot_native.<Game>().state_from_json(STATE); "
            "p = get_game(NAME).state_from_json(json.loads(STATE))",
        ]
        return "\n".join(lines)


@dataclass
class Summary:
    """What a run compared."""

    steps: int = 0
    games: int = 0
    finished_games: int = 0
    decisions: int = 0
    chance_steps: int = 0
    determinizations: int = 0
    feature_checks: int = 0
    """Steps at which features of one or more seats were compared."""
    seconds: float = 0.0
    differences: list[Difference] = field(default_factory=list)

    def line(self) -> str:
        rate = self.steps / self.seconds if self.seconds > 0 else 0.0
        return (
            f"{self.steps} steps ({self.decisions} decisions, {self.chance_steps} chance), "
            f"{self.games} games ({self.finished_games} finished), "
            f"{self.determinizations} determinizations, {self.feature_checks} feature checks, "
            f"{len(self.differences)} differences, "
            f"{self.seconds:.1f} s, {rate:,.0f} steps/s"
        )


def _close(a: list[float] | tuple[float, ...], b: list[float] | tuple[float, ...]) -> bool:
    if len(a) != len(b):
        return False
    return all(math.isclose(x, y, abs_tol=TOLERANCE) for x, y in zip(a, b, strict=True))


def as_float32(values: Sequence[float]) -> array[float]:
    """`values` rounded to float32, as numpy.float32 and Rust's `as f32` round them."""
    return array("f", values)


def features_difference(
    py_game: Game, ps: Any, ns: Any, seats: Sequence[int], actions: Sequence[Any]
) -> tuple[str, Any, Any] | None:
    """The first disagreement of the engines' features of `seats` and action features of
    `actions` (decisions of `ps`), or a value out of its declared size: (what, python, native);
    None when they agree exactly."""
    size = py_game.feature_size(py_game.num_players(ps))
    for seat in seats:
        py = py_game.features(ps, seat)
        native = ns.features(seat)
        if len(py) != size or as_float32(py) != as_float32(native):
            at = next(
                (i for i, (a, b) in enumerate(zip(as_float32(py), native, strict=False)) if a != b),
                min(len(py), len(native)),
            )
            return (f"features of seat {seat} (size {size}, first difference at {at})", py, native)
    action_size = py_game.action_feature_size()
    for action in actions:
        py_indices = tuple(py_game.action_features(ps, action))
        native_indices = tuple(ns.action_features(action))
        if py_indices != native_indices or not all(0 <= i < action_size for i in py_indices):
            return (f"action features of {action!r} (size {action_size})", py_indices,
                    native_indices)  # fmt: skip
    return None


def random_options(rng: random.Random, players: int, variant: str) -> dict[str, Any]:
    """Setup options: random boards or characters and first player half the time."""
    options: dict[str, Any] = {"players": players, "variant": variant}
    if rng.random() < 0.5:
        options["characters"] = rng.sample(range(1, 5), players)
        options["first_player"] = rng.randrange(players)
    return options


def leda_options(config: tuple[str, str, int]) -> dict[str, Any]:
    """LEDA setup options of one configuration (clans of seats 0 and 1, the first player)."""
    a, b, first = config
    return {"clans": [a, b], "first_player": first}


def compare_game(
    py_game: Game,
    native: Any,
    index: int,
    options: dict[str, Any],
    seed: int,
    rng: random.Random,
    summary: Summary,
    max_steps: int,
) -> None:
    """Play one game in both engines from the Python setup; stop at the first difference."""
    summary.games += 1
    weighted = rng.random() < 0.5
    ps = py_game.new_state(options, seed)
    ns = native.state_from_json(json.dumps(py_game.state_to_json(ps)))
    step = 0

    def differ(what: str, python: Any, nat: Any, action: Any = None) -> None:
        summary.differences.append(
            Difference(
                index, step, what, python, nat, json.dumps(py_game.state_to_json(ps)), action
            )
        )

    while summary.steps < max_steps:
        py_json = py_game.state_to_json(ps)
        native_json = json.loads(ns.to_json())
        if py_json != native_json:
            differ("state JSON", py_json, native_json)
            return
        player = py_game.current_player(ps)
        if player != ns.current_player():
            differ("current player", player, ns.current_player())
            return
        if player == -2:
            if not _close(py_game.returns(ps), ns.returns()):
                differ("returns", py_game.returns(ps), ns.returns())
            elif not _close(py_game.scores(ps), ns.scores()):
                differ("scores", py_game.scores(ps), ns.scores())
            else:
                summary.finished_games += 1
            return
        if step % EVERY_EVALUATION == 0 and not _close(py_game.evaluate(ps), ns.evaluate()):
            differ("evaluate", py_game.evaluate(ps), ns.evaluate())
            return
        if step % EVERY_VIEW == 0 and not _check_views(py_game, ps, ns, rng, summary, differ):
            return
        seats: Sequence[int] = ()
        actions: list[Any] = []
        if step % EVERY_ALL_FEATURES == 0:
            seats = range(py_game.num_players(ps))
            actions = list(py_game.legal_actions(ps))
        elif step % EVERY_FEATURES == 0 and player >= 0:
            seats = (player,)
        if seats:
            summary.feature_checks += 1
            found = features_difference(py_game, ps, ns, seats, actions)
            if found is not None:
                differ(*found)
                return
        if player == -1:
            listed = py_game.chance_outcomes(ps)
            native_outcomes = ns.chance_outcomes()
            if listed is None:
                if native_outcomes is not None:
                    differ("chance outcomes", None, native_outcomes)
                    return
                action = py_game.sample_chance(ps, rng)
            else:
                outcomes = list(listed)
                native_outcomes = native_outcomes or []
                if [a for a, _ in outcomes] != [a for a, _ in native_outcomes] or not _close(
                    [p for _, p in outcomes], [p for _, p in native_outcomes]
                ):
                    differ("chance outcomes", outcomes, native_outcomes)
                    return
                action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
            summary.chance_steps += 1
        else:
            legal = list(py_game.legal_actions(ps))
            native_legal = ns.legal_actions()
            if legal != native_legal:
                differ("legal actions", legal, native_legal)
                return
            notation = [py_game.action_to_str(ps, a) for a in legal]
            native_notation = [ns.action_to_str(a) for a in legal]
            if notation != native_notation:
                differ("legal moves as notation", notation, native_notation)
                return
            weights: list[float] = []
            if weighted or step % EVERY_WEIGHTS == 0:
                weights = list(py_game.policy_weights(ps, legal))
                if step % EVERY_WEIGHTS == 0 and not _close(weights, ns.policy_weights(legal)):
                    differ("policy weights", weights, ns.policy_weights(legal))
                    return
            action = rng.choices(legal, weights=weights)[0] if weighted else rng.choice(legal)
            found = features_difference(py_game, ps, ns, (), (action,))
            if found is not None:
                differ(*found, action)
                return
            summary.decisions += 1
        try:
            next_native = ns.apply(action)
        except Exception as exc:  # a native refusal of a Python-legal move is a difference
            differ("native apply raised", None, repr(exc), action)
            return
        ps = py_game.apply(ps, action)
        ns = next_native
        step += 1
        summary.steps += 1


def _check_views(
    py_game: Game,
    ps: Any,
    ns: Any,
    rng: random.Random,
    summary: Summary,
    differ: Any,
) -> bool:
    """One seat's view in both engines, and a native determinization for that seat."""
    seat = rng.randrange(py_game.num_players(ps))
    view = py_game.state_to_json(ps, seat)
    native_view = json.loads(ns.to_json(seat))
    if view != native_view:
        differ(f"view of seat {seat}", view, native_view)
        return False
    world = ns.determinize(seat, rng.getrandbits(63))
    summary.determinizations += 1
    world_view = json.loads(world.to_json(seat))
    if world_view != view:
        differ(f"native determinization changed seat {seat}'s view", view, world_view)
        return False
    try:
        decoded = py_game.state_from_json(json.loads(world.to_json()))
    except ValueError as exc:
        differ("native determinization does not decode in Python", None, str(exc))
        return False
    if py_game.state_to_json(decoded, seat) != view:
        differ(f"determinization decoded in Python changes seat {seat}'s view", view, None)
        return False
    return True


def run(
    steps: int, seed: int = 0, stop_at_first: bool = False, game: str = "legend_raiders"
) -> Summary:
    """Compare at least `steps` steps of `game` (whole games, cycling its configurations)."""
    if boardbot_native is None:
        raise RuntimeError("boardbot_native is not importable: run `make native` first")
    py_game: Game
    if game == "leda":
        py_game, native = LedaGame(), boardbot_native.Leda()
    elif game == "legend_raiders":
        py_game, native = LegendRaidersGame(), boardbot_native.LegendRaiders()
    else:
        raise ValueError(f"no native twin for {game!r}; known: {', '.join(GAMES)}")
    rng = random.Random(seed)
    summary = Summary()
    start = time.perf_counter()
    index = 0
    while summary.steps < steps:
        if game == "leda":
            options = leda_options(LEDA_CONFIGS[index % len(LEDA_CONFIGS)])
        else:
            players, variant = CONFIGS[index % len(CONFIGS)]
            options = random_options(rng, players, variant)
        compare_game(py_game, native, index, options, rng.getrandbits(32), rng, summary, steps)
        index += 1
        if stop_at_first and summary.differences:
            break
    summary.seconds = time.perf_counter() - start
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=100_000, help="steps to compare per game")
    parser.add_argument(
        "--game", choices=(*GAMES, "all"), default="all", help="the game to compare (default: all)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the harness RNG's seed")
    parser.add_argument("--show", type=int, default=3, help="differences to print in full")
    args = parser.parse_args(argv)
    failed = False
    for game in GAMES if args.game == "all" else (args.game,):
        summary = run(args.steps, args.seed, game=game)
        for difference in summary.differences[: args.show]:
            print(difference.reproduction())
        print(f"{game}: {summary.line()}")
        failed = failed or bool(summary.differences)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
