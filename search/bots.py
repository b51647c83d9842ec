"""Bots behind one interface: uniform random, one-step greedy, ISMCTS at a preset or an Elo."""

from __future__ import annotations

import random
from typing import Protocol

from boardbot.engine.api import CHANCE, Action, Game, State
from boardbot.engine.errors import BoardbotError
from boardbot.engine.registry import get_game
from boardbot.search.api import SearchConfig, SearchResult
from boardbot.search.checks import checked_config
from boardbot.search.engines import Engine
from boardbot.search.errors import InvalidConfigError
from boardbot.search.ismcts import search
from boardbot.search.overrides import apply_overrides, finite_number, split_random, split_reuse
from boardbot.search.presets import PRESETS, GameRef, UnknownPresetError, resolve_preset
from boardbot.search.reuse import KeptTree, search_reusing
from boardbot.search.rewards import state_reward
from boardbot.search.strength.errors import EloOutOfRangeError, NotCalibratedError
from boardbot.search.strength.loader import calibration_engine, calibrations_for, load_calibration
from boardbot.search.strength.mapping import (
    draws_random,
    knob_config,
    plays_random,
    random_move,
    strength_for,
)
from boardbot.search.strength.table import Calibration

ELO_PREFIXES = ("elo=", "elo:")
"""How a bot name asks for a target Elo: `elo=1400` or `elo:1400`."""

GREEDY_CHANCE_SAMPLES = 4
"""Chance outcomes a greedy bot samples to value a move that leads to a chance step."""


class Bot(Protocol):
    """Chooses a move for `seat`, seeing only what `seat` may know."""

    name: str

    def choose(self, game: Game, state: State, seat: int, rng: random.Random) -> Action:
        """The move to play; all randomness comes from `rng`."""
        ...


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, game: Game, state: State, seat: int, rng: random.Random) -> Action:
        """A uniformly drawn legal action."""
        actions = game.legal_actions(state)
        return actions[rng.randrange(len(actions))]


def relative_value(values: tuple[float, ...], seat: int) -> float:
    """Seat's value minus the best rival's value."""
    rival = max(v for i, v in enumerate(values) if i != seat) if len(values) > 1 else 0.0
    return values[seat] - rival


class GreedyBot:
    """One-step lookahead on the game's evaluation, in one determinization of its view."""

    name = "greedy"

    def __init__(self, margin_weight: float = 0.1) -> None:
        self.margin_weight = margin_weight

    def choose(self, game: Game, state: State, seat: int, rng: random.Random) -> Action:
        """The action whose successor evaluates best for `seat` (ties broken by `rng`)."""
        world = game.determinize(game.observe(state, seat), rng)
        best: list[Action] = []
        best_value = -float("inf")
        for action in game.legal_actions(world):
            value = self.action_value(game, game.apply(world, action), seat, rng)
            if value > best_value + 1e-12:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return best[rng.randrange(len(best))]

    def action_value(self, game: Game, after: State, seat: int, rng: random.Random) -> float:
        """Value of the successor, averaging a few sampled outcomes at a chance step."""
        if game.current_player(after) != CHANCE:
            return relative_value(state_reward(game, after, self.margin_weight), seat)
        total = 0.0
        for _ in range(GREEDY_CHANCE_SAMPLES):
            state = after
            while game.current_player(state) == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
            total += relative_value(state_reward(game, state, self.margin_weight), seat)
        return total / GREEDY_CHANCE_SAMPLES


class MctsBot:
    """The ISMCTS search with a preset or explicit configuration.

    With `reuse`, the bot keeps each seat's search tree between its moves (one bot object
    plays one game) and grows the next search on the node that stands for the new position
    (`search/reuse.py`); `reuse_moves`, `reused_moves` and `reused_visits` count how often.

    With a `random_share` above 0 (the bot name's `+random=S`), each move first takes one
    seeded draw from `rng`, as the strength knob's EloBot does: with that probability the move
    is drawn uniformly from the seat's legal moves instead of searched (at 0 no draw is taken,
    so the bot plays exactly as without the override)."""

    def __init__(
        self,
        config: SearchConfig,
        name: str = "mcts",
        engine: Engine = Engine.AUTO,
        reuse: bool = False,
        random_share: float = 0.0,
    ) -> None:
        self.config = config
        self.name = name
        self.engine = engine
        self.reuse = reuse
        self.random_share = random_share
        self._kept: dict[int, KeptTree] = {}
        self.reuse_moves = 0
        """Searches run with reuse on (single legal moves included)."""
        self.reused_moves = 0
        """Of those, the searches that grew on an earlier tree."""
        self.reused_visits = 0
        """Root visits those searches started with, summed."""

    def choose(self, game: Game, state: State, seat: int, rng: random.Random) -> Action:
        """The searched move, seeded from `rng` (or, with the random share, a random one)."""
        if self.random_share > 0.0 and draws_random(self.random_share, rng):
            return random_move(game, state, seat, rng)
        return self.search(game, state, seat, rng.getrandbits(63)).action

    def search(self, game: Game, state: State, seat: int, seed: int) -> SearchResult:
        """The bot's search for `seat` with `seed` (growing on its kept tree with reuse)."""
        if not self.reuse:
            return search(game, state, seat, self.config, seed, engine=self.engine)
        config = checked_config(game, state, seat, self.config)
        result, kept = search_reusing(
            game, state, seat, config, seed, self._kept.pop(seat, None), engine=self.engine
        )
        if kept is not None:
            self._kept[seat] = kept
        self.reuse_moves += 1
        if result.reused:
            self.reused_moves += 1
            self.reused_visits += result.reused_visits
        return result


class EloBot:
    """The strength knob: `medium@N` with a share of random moves, set from a target Elo by
    the calibration of the game's player count (read when a game first shows its seats)."""

    def __init__(self, target: float, name: str, engine: Engine = Engine.AUTO) -> None:
        self.target = target
        self.name = name
        self.engine = engine
        self._calibrations: dict[tuple[str, int], Calibration] = {}

    def choose(self, game: Game, state: State, seat: int, rng: random.Random) -> Action:
        """A uniformly random move with the knob's share, else the searched one."""
        key = (game.name, game.num_players(state))
        calibration = self._calibrations.get(key)
        if calibration is None:
            calibration = load_calibration(key[0], key[1], self.engine)
            self._calibrations[key] = calibration
        strength = strength_for(calibration, self.target)
        if plays_random(strength, rng):
            return random_move(game, state, seat, rng)
        config = knob_config(calibration, strength)
        return search(
            game, state, seat, config, rng.getrandbits(63), engine=Engine(calibration.engine)
        ).action


class UnknownBotError(BoardbotError, KeyError):
    """No bot has that name."""


def parse_elo(name: str) -> float | None:
    """The target of a bot name `elo=N` or `elo:N` (None: another name)."""
    if not name.startswith(ELO_PREFIXES):
        return None
    text = name[len(ELO_PREFIXES[0]) :]
    try:
        return finite_number(text)
    except ValueError:
        raise UnknownBotError(
            f"bad target in {name!r}: expected elo=N with a finite number N"
        ) from None


def make_elo_bot(name: str, target: float, game: GameRef, engine: Engine | str) -> EloBot:
    """The knob's bot for `target`, checked against `game`'s calibrations when one is given."""
    if game is not None:
        rules = get_game(game) if isinstance(game, str) else game
        seats = range(rules.min_players, rules.max_players + 1)
        found = calibrations_for(rules.name, seats, engine)
        if not found:
            raise NotCalibratedError(rules.name, None, calibration_engine(rules.name, engine))
        if not any(c.low <= target <= c.high for c in found.values()):
            spans = tuple((n, c.low, c.high) for n, c in found.items())
            raise EloOutOfRangeError(target, rules.name, spans)
    return EloBot(target, name, Engine(engine))


def budget_change(name: str, budget: str) -> dict[str, int | float | None]:
    """The SearchConfig fields `preset@budget` sets: N iterations, or with `Nms` a time budget
    of N milliseconds a move and no iteration budget (for matches at equal time)."""
    count = budget.removesuffix("ms")
    if not count.isdigit() or not 1 <= int(count) <= 10**7:
        raise UnknownBotError(
            f"bad budget in {name!r}: expected preset@N (iterations) or preset@Nms "
            "(milliseconds a move) with N >= 1"
        )
    if count != budget:
        return {"iterations": None, "time_ms": float(count)}
    return {"iterations": int(count)}


def bot_names() -> list[str]:
    """Every name `make_bot` accepts."""
    return ["random", "greedy", *PRESETS]


def make_bot(name: str, game: GameRef = None, engine: Engine | str = Engine.AUTO) -> Bot:
    """The bot called `name` (random, greedy, a preset name, or `preset@N` with N iterations or
    `preset@Nms` with N milliseconds a move,
    then optional `+key=value` setting overrides (`search/overrides.py`; `+reuse=1` keeps the
    bot's search tree between its moves, `search/reuse.py`; `+random=S` plays a uniformly
    random move with probability S, else searches), optionally ending in
    `/native` or `/python` to pick its engine over `engine`), with presets
    as tuned for `game` (a Game or a registered game's name) on the engine its searches use.

    `elo=N` (or `elo:N`) is the strength knob at target Elo N, from the game's calibration
    on that engine (NotCalibratedError, EloOutOfRangeError when it cannot be met)."""
    base, slash, which = name.rpartition("/")
    in_override = "=" in base.rpartition("+")[2] if "+" in base else False
    if not slash or (which not in set(Engine) and in_override):
        base, slash = name, ""  # no suffix; a slash inside an override's value (a model path)
    elif which not in set(Engine) - {Engine.AUTO}:
        raise UnknownBotError(f"bad engine in {name!r}: expected /native or /python")
    else:
        engine = which
    target = parse_elo(base)
    if target is not None:
        return make_elo_bot(name, target, game, engine)
    if base in ("random", "greedy"):
        if slash:
            raise UnknownBotError(f"{base} has no engine to choose: drop /{which} from {name!r}")
        return RandomBot() if base == "random" else GreedyBot()
    head, *overrides = base.split("+")
    preset, at, budget = head.partition("@")
    if preset in PRESETS:
        try:
            reuse, overrides = split_reuse(overrides)
            random_share, overrides = split_random(overrides)
        except InvalidConfigError as error:
            raise UnknownBotError(f"bad settings in {name!r}: {error}") from None
        config = resolve_preset(preset, game, engine)  # the budgets of the engine it runs on
        if at:
            config = config.replace(**budget_change(name, budget))
        if overrides:
            try:
                config = apply_overrides(config, overrides)
            except InvalidConfigError as error:
                raise UnknownBotError(f"bad settings in {name!r}: {error}") from None
        return MctsBot(config, name, Engine(engine), reuse, random_share)
    raise UnknownBotError(
        f"unknown bot {name!r}; known: {', '.join(bot_names())} (or preset@iterations, "
        "+key=value overrides, elo=N, and /native or /python)"
    )


__all__ = [
    "Bot",
    "EloBot",
    "GreedyBot",
    "MctsBot",
    "RandomBot",
    "UnknownBotError",
    "UnknownPresetError",
]
