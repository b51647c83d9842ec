"""Self-play data: games of the native search against itself, recorded decision by decision into
a folder of shards (`learn/shards.py`) that a run resumes (docs/learning.md, "Self-play data").

Every seat is played by one bot setting (as `boardbot match` names it). At each decision with two
or more legal actions the run records the deciding seat's view features, the share of the
search's root visits of every legal action, each legal action's action features, the search's
value of the position for that seat (`root_value`) and, once the game is over, every seat's
final reward (`terminal_reward` with margin weight 0.1) rotated to the deciding seat. Game i is
seeded as `boardbot match` seeds game i without duplicate deals (`derive_seed(seed, "game",
i)`), its chance steps, searches and exploration draw from streams derived from that seed
alone, so the same settings give the same data on any runner.
"""

from __future__ import annotations

import dataclasses
import math
import os
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import orjson

from boardbot.engine.api import CHANCE, Action
from boardbot.engine.errors import BoardbotError
from boardbot.engine.registry import get_game
from boardbot.learn.shards import FORMAT, GameData, write_shard
from boardbot.search.api import SearchResult
from boardbot.search.bots import MctsBot, make_bot
from boardbot.search.engines import HOW_TO_GET_NATIVE, Engine, native_module, twin_name
from boardbot.search.native_game import NativeGame
from boardbot.search.rewards import terminal_reward
from boardbot.search.seeds import derive_seed
from boardbot.tools.match import game_seed, with_seat_count
from boardbot.tools.progress import Progress
from boardbot.tools.runners import Runner, SerialRunner

SETTINGS_FILE = "selfplay.json"
SHARD_PATTERN = "shard-{:05d}.npz"
# FORMAT (learn/shards.py) versions the folder's format, stored with its settings: format 2
# adds each decision's root_value; a folder of another format is read, never appended to.

MARGIN_WEIGHT = 0.1
"""The margin weight of the recorded rewards (`search/rewards.terminal_reward`)."""

STEP_LIMIT = 5_000
"""Steps after which a game is stopped and recorded as unfinished, without data (as the ladder
does: bots can stall a Legend Raiders game forever where the rules let them)."""

DEFAULT_GAMES_PER_SHARD = 50

COMPARED = (
    "format",
    "game",
    "players",
    "options",
    "bot",
    "search",
    "seed",
    "engine",
    "feature_size",
    "action_feature_size",
    "features_version",
    "temperature",
    "temperature_moves",
    "margin_weight",
    "step_limit",
)
"""The settings a folder's data depends on: a run must match the folder's in all of them."""


class SelfPlayError(BoardbotError, RuntimeError):
    """Self-play cannot run: no native core, a bot without a search, a folder of other settings."""


@dataclass(frozen=True)
class SelfPlaySettings:
    """Everything the recorded data depends on (not how many games, nor how fast)."""

    game: str
    players: int
    options: dict[str, Any]
    bot: str
    search: dict[str, Any]
    """The bot's search configuration as resolved (a preset's budget on the native core)."""
    seed: int
    feature_size: int
    action_feature_size: int
    features_version: int
    temperature: float = 0.0
    temperature_moves: int = 0
    margin_weight: float = MARGIN_WEIGHT
    step_limit: int = STEP_LIMIT
    engine: str = "native"
    format: int = FORMAT

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict."""
        data: dict[str, Any] = orjson.loads(orjson.dumps(dataclasses.asdict(self)))
        return data


@dataclass(frozen=True)
class SelfPlayJob:
    """One game to play (plain values, so that every runner can ship it)."""

    game: str
    options: dict[str, Any]
    bot: str
    seed: int
    """The game's own seed (from the run's seed and the game's index)."""
    index: int
    temperature: float
    temperature_moves: int
    step_limit: int = STEP_LIMIT


@dataclass(frozen=True)
class PlayedGame:
    """One self-play game: its recorded decisions, whether it ended, and its time."""

    data: GameData
    finished: bool
    steps: int
    seconds: float


@dataclass(frozen=True)
class SelfPlayRun:
    """What one run did: games already in the folder, games and decisions recorded now."""

    before: int
    played: int
    decisions: int
    shards: int
    seconds: float
    total: int


def native_game(name: str) -> NativeGame:
    """The native twin of the game `name`, or SelfPlayError saying why there is none."""
    rules = get_game(name)
    if twin_name(rules) is None:
        raise SelfPlayError(f"self-play runs on the native core, and {rules.name} has no "
                            "native twin")
    if native_module() is None:
        raise SelfPlayError(f"self-play runs on the native core, which is not built here: "
                            f"{HOW_TO_GET_NATIVE}")
    game = NativeGame.of(rules)
    if game is None:  # pragma: no cover - the checks above cover every case
        raise SelfPlayError(f"no native twin of {rules.name}")
    return game


def selfplay_bot(setting: str, game: str) -> MctsBot:
    """The search bot a setting names (`hard`, `medium@400`, `medium+iterations=400`, ...) on
    the native core; SelfPlayError for a setting without a search to record."""
    bot = make_bot(setting, game, Engine.NATIVE)
    if not isinstance(bot, MctsBot):
        raise SelfPlayError(
            f"self-play records the search's root visits: {setting!r} has no search (give a "
            "preset, preset@N or preset+key=value)"
        )
    if bot.engine is not Engine.NATIVE:
        raise SelfPlayError(f"self-play runs on the native core: drop /python from {setting!r}")
    if bot.random_share > 0.0:
        raise SelfPlayError(
            f"{setting!r} plays random moves, which have no visits to record: drop +random "
            "(use --temperature for exploration)"
        )
    return bot


def selfplay_settings(
    game_name: str,
    options: Mapping[str, Any],
    bot: str,
    seed: int,
    temperature: float = 0.0,
    temperature_moves: int = 0,
) -> SelfPlaySettings:
    """Checked settings of a run: the seat count, the bot's search and the feature sizes."""
    game = native_game(game_name)
    chosen = selfplay_bot(bot, game.name)
    if not (math.isfinite(temperature) and temperature >= 0.0):
        raise SelfPlayError(f"--temperature must be a finite number >= 0, got {temperature}")
    if temperature_moves < 0:
        raise SelfPlayError(f"--temperature-moves must be at least 0, got {temperature_moves}")
    if temperature == 0.0:
        temperature_moves = 0  # nothing is sampled: the count does not change the data
    options = with_seat_count(game, options, 2)
    players = game.num_players(game.new_state(options, seed))
    return SelfPlaySettings(
        game=game.name,
        players=players,
        options=options,
        bot=bot,
        search=dataclasses.asdict(chosen.config),
        seed=seed,
        feature_size=game.feature_size(players),
        action_feature_size=game.action_feature_size(),
        features_version=game.features_version,
        temperature=float(temperature),
        temperature_moves=temperature_moves,
    )


def job_for(settings: SelfPlaySettings, index: int) -> SelfPlayJob:
    """Game `index` of a run: its seed as `boardbot match` seeds a game without duplicate deals."""
    return SelfPlayJob(
        game=settings.game,
        options=dict(settings.options),
        bot=settings.bot,
        seed=game_seed(settings.seed, index, settings.players, duplicate=False),
        index=index,
        temperature=settings.temperature,
        temperature_moves=settings.temperature_moves,
        step_limit=settings.step_limit,
    )


def visit_shares(result: SearchResult, legal: list[Action]) -> list[float]:
    """Each legal action's share of the root visits (0 for an action the search did not visit;
    the chosen action alone when no legal action has a visit)."""
    visits: dict[Any, int] = {}
    for move in result.moves:
        visits[move.action] = visits.get(move.action, 0) + move.visits
    counts = [visits.get(action, 0) for action in legal]
    total = sum(counts)
    if total <= 0:
        return [1.0 if action == result.action else 0.0 for action in legal]
    return [count / total for count in counts]


def root_value(result: SearchResult) -> float:
    """The search's value of the position for the deciding seat: the mean value of the most
    visited root move (the first of `result.moves`), clipped to [0, 1]; 0.5 when no root move
    has a visit (nothing was searched)."""
    if not result.moves or result.moves[0].visits <= 0:
        return 0.5
    value = float(result.moves[0].mean_value)
    if not math.isfinite(value):
        raise SelfPlayError(f"the search gave the root move a mean value of {value}")
    return min(max(value, 0.0), 1.0)


def sample_share(shares: list[float], temperature: float, rng: random.Random) -> int:
    """An index drawn from `shares ** (1 / temperature)` (normalised first, so nothing
    overflows), with one `rng.random()` draw."""
    top = max(shares)
    weights = [(share / top) ** (1.0 / temperature) if share > 0 else 0.0 for share in shares]
    point = rng.random() * sum(weights)
    for position, weight in enumerate(weights):
        point -= weight
        if point < 0.0 and weight > 0.0:
            return position
    return max(i for i, weight in enumerate(weights) if weight > 0.0)


def play_selfplay_game(job: SelfPlayJob) -> PlayedGame:
    """Play one self-play game and record its decisions (a module-level function, for runners).

    The seat streams are those of `tools/match.play_game` (`derive_seed(seed, "seat", s)`, one
    search seed drawn per decision, forced moves included), so without temperature the game is
    the one `boardbot match` plays with that bot in every seat; exploration draws from a stream
    of its own (`derive_seed(seed, "explore")`)."""
    start = time.perf_counter()
    game = native_game(job.game)
    bot = selfplay_bot(job.bot, game.name)
    state = game.new_state(job.options, job.seed)
    players = game.num_players(state)
    width = game.feature_size(players)
    chance_rng = random.Random(derive_seed(job.seed, "chance"))
    seat_rngs = [random.Random(derive_seed(job.seed, "seat", s)) for s in range(players)]
    explore_rng = random.Random(derive_seed(job.seed, "explore"))
    features: list[list[float]] = []
    seats: list[int] = []
    legal_counts: list[int] = []
    visits: list[float] = []
    roots: list[float] = []
    action_counts: list[int] = []
    action_index: list[int] = []
    steps = 0
    while steps < job.step_limit and not game.is_terminal(state):
        steps += 1
        seat = game.current_player(state)
        if seat == CHANCE:
            state = game.apply(state, game.sample_chance(state, chance_rng))
            continue
        legal = list(game.legal_actions(state))
        seed = seat_rngs[seat].getrandbits(63)
        if len(legal) == 1:
            state = game.apply(state, legal[0])  # what the search answers, searching nothing
            continue
        result = bot.search(game, state, seat, seed)
        shares = visit_shares(result, legal)
        action = result.action
        if job.temperature > 0.0 and len(seats) < job.temperature_moves:
            action = legal[sample_share(shares, job.temperature, explore_rng)]
        view = game.features(state, seat)
        if len(view) != width:
            raise SelfPlayError(f"{game.name} gave {len(view)} features for seat {seat}, but "
                                f"its feature size is {width}")
        features.append(view)
        seats.append(seat)
        legal_counts.append(len(legal))
        visits.extend(shares)
        roots.append(root_value(result))
        for each in legal:
            active = game.action_features(state, each)
            action_counts.append(len(active))
            action_index.extend(active)
        state = game.apply(state, action)
    finished = game.is_terminal(state)
    if not finished:
        features, seats, legal_counts, visits, roots = [], [], [], [], []
        action_counts, action_index = [], []
    seat_array = np.asarray(seats, dtype=np.int8)
    if finished:
        final = np.asarray(terminal_reward(game, state, MARGIN_WEIGHT), dtype=np.float64)
        rotation = (seat_array[:, None].astype(np.int64) + np.arange(players)) % players
        rewards = final[rotation].astype(np.float32)
    else:
        rewards = np.zeros((0, players), dtype=np.float32)
    data = GameData(
        index=job.index,
        features=np.asarray(features, dtype=np.float32).reshape(len(seats), width),
        seat=seat_array,
        rewards=rewards.reshape(len(seats), players),
        legal_counts=np.asarray(legal_counts, dtype=np.int32),
        visits=np.asarray(visits, dtype=np.float32),
        action_counts=np.asarray(action_counts, dtype=np.int32),
        action_index=np.asarray(action_index, dtype=np.int32),
        root_value=np.asarray(roots, dtype=np.float32),
    )
    return PlayedGame(data, finished, steps, time.perf_counter() - start)


class SelfPlayStore:
    """The folder of a self-play run: `selfplay.json` and its shards."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.settings_path = self.directory / SETTINGS_FILE
        self.document: dict[str, Any] = {}

    def open(self, settings: SelfPlaySettings, games_per_shard: int) -> None:
        """Create the folder for `settings`, or check that it holds a run of the same settings
        (SelfPlayError naming each setting that differs) whose listed shards all exist."""
        self.directory.mkdir(parents=True, exist_ok=True)
        wanted = settings.to_json()
        if self.settings_path.exists():
            try:
                stored = orjson.loads(self.settings_path.read_bytes())
            except orjson.JSONDecodeError as error:
                raise SelfPlayError(f"{self.settings_path} is not JSON: {error}") from None
            if stored.get("format", 1) != settings.format:
                raise SelfPlayError(
                    f"{self.directory} holds self-play data of format {stored.get('format', 1)}, "
                    f"and this boardbot writes format {settings.format} (which adds each "
                    "decision's root_value): a folder never mixes formats, so games cannot be "
                    "added to it; choose another --out (the folder still trains as it is)"
                )
            differing = [k for k in COMPARED if stored.get(k) != wanted.get(k)]
            if differing:
                details = "; ".join(
                    f"{k}: folder has {stored.get(k)!r}, asked {wanted.get(k)!r}"
                    for k in differing
                )
                raise SelfPlayError(
                    f"{self.directory} holds self-play data of other settings ({details}); "
                    "rerun with the folder's settings to add games, or choose another --out"
                )
            for shard in stored.get("shards", []):
                if not (self.directory / shard["file"]).exists():
                    raise SelfPlayError(
                        f"{self.directory / shard['file']} is listed in {SETTINGS_FILE} but "
                        "missing: restore it, or choose another --out"
                    )
            self.document = stored
        else:
            if any(self.directory.glob("shard-*.npz")):
                raise SelfPlayError(f"{self.directory} holds shards without {SETTINGS_FILE}: "
                                    "choose another --out")
            created = datetime.now(UTC).isoformat(timespec="seconds")
            self.document = {**wanted, "created": created, "games_per_shard": games_per_shard,
                             "games_done": [], "unfinished": [], "shards": []}
            self._save()
        for stale in self.directory.glob(".shard-*.npz.*.tmp"):
            stale.unlink(missing_ok=True)  # a temporary shard of a stopped run

    def games_done(self) -> set[int]:
        """The indices of the games in the folder's shards (unfinished ones included)."""
        return {int(i) for i in self.document.get("games_done", [])}

    def next_shard(self) -> int:
        """The number of the next shard to write."""
        return len(self.document.get("shards", []))

    def add_shard(self, games: list[PlayedGame]) -> tuple[Path, int]:
        """Write `games` as the next shard, then list it and its games in `selfplay.json`;
        the shard's path and its decisions."""
        number = self.next_shard()
        path = self.directory / SHARD_PATTERN.format(number)
        decisions = write_shard(path, [g.data for g in games], FORMAT)
        indices = [g.data.index for g in games]
        unfinished = [g.data.index for g in games if not g.finished]
        document = self.document
        document["shards"].append(
            {"file": path.name, "games": indices, "decisions": decisions,
             "unfinished": unfinished}
        )
        document["games_done"] = sorted(self.games_done().union(indices))
        document["unfinished"] = sorted({*document.get("unfinished", []), *unfinished})
        self._save()
        return path, decisions

    def _save(self) -> None:
        """Write `selfplay.json` at once (a temporary file renamed into place)."""
        temporary = self.settings_path.with_name(f".{SETTINGS_FILE}.tmp")
        temporary.write_bytes(orjson.dumps(self.document, option=orjson.OPT_INDENT_2) + b"\n")
        os.replace(temporary, self.settings_path)


def run_selfplay(
    settings: SelfPlaySettings,
    directory: Path,
    games: int,
    runner: Runner | None = None,
    games_per_shard: int = DEFAULT_GAMES_PER_SHARD,
    stream: TextIO | None = None,
) -> SelfPlayRun:
    """Play games 0..games-1 of `settings` missing from `directory` and write them, in index
    order, `games_per_shard` to a shard, each shard as soon as all its games are in; progress
    lines go to `stream` (stderr)."""
    if games < 1:
        raise SelfPlayError(f"--games must be at least 1, got {games}")
    if games_per_shard < 1:
        raise SelfPlayError(f"--games-per-shard must be at least 1, got {games_per_shard}")
    store = SelfPlayStore(directory)
    store.open(settings, games_per_shard)
    done = store.games_done()
    pending = [i for i in range(games) if i not in done]
    chunks = [pending[i : i + games_per_shard] for i in range(0, len(pending), games_per_shard)]
    buffered: dict[int, PlayedGame] = {}
    progress = Progress(games, games - len(pending), stream=stream, label="selfplay")
    start = time.perf_counter()
    decisions = written = 0
    for _, played in (runner or SerialRunner()).imap(
        play_selfplay_game, [job_for(settings, i) for i in pending]
    ):
        buffered[played.data.index] = played
        decisions += played.data.decisions
        while written < len(chunks) and all(i in buffered for i in chunks[written]):
            store.add_shard([buffered.pop(i) for i in chunks[written]])
            written += 1
        rate = decisions / max(time.perf_counter() - start, 1e-9)
        progress.advance(f"{decisions} decisions recorded, {rate:.0f}/s, {written} shards")
    return SelfPlayRun(
        before=games - len(pending),
        played=len(pending),
        decisions=decisions,
        shards=written,
        seconds=time.perf_counter() - start,
        total=games,
    )
