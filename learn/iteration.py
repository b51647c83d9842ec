"""Expert iteration: self-play by generation g's search, train generation g+1 on it, keep it
only while a match at equal time shows a gain (docs/learning.md, "Expert iteration").

A run lives in one folder, resumable step by step:

    DIR/iteration.json      the settings and, per generation, its model, card and match
    DIR/gen-G/data/         generation G's self-play (`boardbot selfplay`'s folder)
    DIR/gen-G/model.bbnet   the model trained on it (with its card and figures)
    DIR/gen-G/match.json    the match of that model against the incumbent, games included

Generation 1 learns from the search without a model (`first_bot`); generation g+1 from the
search guided by generation g's model (`bot` with `+model=`). Each new model plays the
incumbent (the previous generation's model, or for generation 1 the search without a model)
at the same time per move (`match_bot`), one seat against the rest, on duplicate deals; it is
kept when the lower end of the 95% interval of its win rate is above an equal share
(1 / players), and the run stops at the first generation that is not.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

import orjson

from boardbot.engine.errors import BoardbotError
from boardbot.engine.registry import get_game
from boardbot.learn.selfplay import run_selfplay, selfplay_settings
from boardbot.learn.train import TrainConfig, train_folder
from boardbot.tools.match import BotReport, run_match
from boardbot.tools.runners import Runner

STATE_FILE = "iteration.json"
"""The run's settings and results, in its folder."""


class IterationError(BoardbotError, RuntimeError):
    """An expert-iteration run cannot go on: a folder of other settings, a bad setting."""


@dataclass(frozen=True)
class IterationSettings:
    """What a run's generations depend on (not how many generations, nor where games run)."""

    game: str
    options: dict[str, Any]
    first_bot: str
    """The self-play search of generation 1 (no model): a bot setting, e.g. `hard`."""
    bot: str
    """The self-play search of later generations, given the previous model: `hard@800`."""
    games: int
    """Self-play games per generation."""
    match_bot: str
    """Both sides' search in a match, at equal time: `hard@5ms`."""
    match_games: int
    seed: int
    temperature: float = 1.0
    temperature_moves: int = 8
    train: dict[str, Any] = field(default_factory=dict)
    """TrainConfig fields (their defaults where absent)."""

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict."""
        data: dict[str, Any] = orjson.loads(orjson.dumps(asdict(self)))
        return data


@dataclass(frozen=True)
class GenerationResult:
    """One generation: its model and how it did against the incumbent."""

    generation: int
    model: str
    sha256: str
    decisions: int
    held_out: dict[str, Any]
    candidate: str
    incumbent: str
    games: int
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    equal_share: float
    kept: bool


def with_model(bot: str, model: Path | None) -> str:
    """`bot` guided by `model` (unchanged without one)."""
    return bot if model is None else f"{bot}+model={model}"


def generation_dir(directory: Path, generation: int) -> Path:
    """The folder of generation `generation`."""
    return directory / f"gen-{generation}"


class IterationStore:
    """The run's folder: its settings, checked against a rerun's, and the results so far."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / STATE_FILE

    def open(self, settings: IterationSettings) -> list[GenerationResult]:
        """Start the folder, or check it holds a run of the same settings; its results."""
        wanted = settings.to_json()
        if not self.path.exists():
            self.directory.mkdir(parents=True, exist_ok=True)
            self._write(wanted, [])
            return []
        stored = orjson.loads(self.path.read_bytes())
        differing = [
            f"{key}: folder has {stored['settings'].get(key)!r}, asked {value!r}"
            for key, value in wanted.items()
            if stored["settings"].get(key) != value
        ]
        if differing:
            raise IterationError(
                f"{self.directory} holds a run of other settings ({'; '.join(differing)})"
            )
        return [GenerationResult(**entry) for entry in stored["generations"]]

    def record(self, settings: IterationSettings, results: list[GenerationResult]) -> None:
        """Write the results so far."""
        self._write(settings.to_json(), [asdict(r) for r in results])

    def _write(self, settings: dict[str, Any], generations: list[dict[str, Any]]) -> None:
        temporary = self.path.with_suffix(".tmp")
        temporary.write_bytes(
            orjson.dumps({"settings": settings, "generations": generations},
                         option=orjson.OPT_INDENT_2)
        )
        temporary.replace(self.path)


def check_settings(settings: IterationSettings) -> None:
    """IterationError for counts a run cannot use."""
    if settings.games < 1 or settings.match_games < 1:
        raise IterationError("self-play and match games must be at least 1 each")
    TrainConfig(**settings.train).check()


def play_generation_match(
    settings: IterationSettings,
    candidate: Path,
    incumbent: Path | None,
    out: Path,
    runner: Runner | None,
) -> tuple[str, str, BotReport, int]:
    """The match of `candidate` against `incumbent` (None: no model), one seat each against
    the rest, written to `out` with its games; the two bot names, the candidate's figures and
    the seat count."""
    game = get_game(settings.game)
    players = game.num_players(game.new_state(settings.options, settings.seed))
    mine = with_model(settings.match_bot, candidate)
    theirs = with_model(settings.match_bot, incumbent)
    bots = [mine] + [theirs] * (players - 1)
    report, records = run_match(
        game, bots, settings.match_games, settings.seed, (settings.options,), runner=runner
    )
    out.write_bytes(orjson.dumps(
        {"report": report.to_json(), "games": [asdict(r) for r in records]},
        option=orjson.OPT_INDENT_2,
    ))
    return mine, theirs, report.reports[0], players  # the candidate is the first bot


def run_iteration(
    directory: Path,
    settings: IterationSettings,
    generations: int,
    runner: Runner | None = None,
    stream: TextIO | None = None,
    say: Callable[[str], None] = print,
) -> list[GenerationResult]:
    """Run generations 1..`generations` of `settings` in `directory` (those done are kept),
    stopping after the first one whose model shows no gain; every result so far."""
    check_settings(settings)
    store = IterationStore(directory)
    results = store.open(settings)
    config = TrainConfig(**settings.train)
    for generation in range(1, generations + 1):
        if generation <= len(results):
            continue
        if results and not results[-1].kept:
            say(f"generation {results[-1].generation} showed no gain: the run has ended")
            break
        incumbent = latest_kept_model(results)
        folder = generation_dir(directory, generation)
        bot = settings.first_bot if incumbent is None else with_model(settings.bot, incumbent)
        say(f"generation {generation}: self-play by {bot}")
        selfplay = selfplay_settings(
            settings.game, settings.options, bot, settings.seed + generation,
            settings.temperature, settings.temperature_moves,
        )
        run_selfplay(selfplay, folder / "data", settings.games, runner, stream=stream)
        model = folder / "model.bbnet"
        command = retrain_command(folder / "data", model, settings.train)
        say(f"generation {generation}: training ({command})")
        trained = train_folder(folder / "data", model, config, command)
        say(f"generation {generation}: match at equal time against "
            f"{'generation ' + str(generation - 1) if incumbent else 'the search without a model'}")
        mine, theirs, figures, players = play_generation_match(
            settings, model, incumbent, folder / "match.json", runner
        )
        equal = 1.0 / players
        card = dict(trained.result.network.card)
        result = GenerationResult(
            generation=generation,
            model=str(model),
            sha256=trained.sha256,
            decisions=int(card.get("decisions", 0)),
            held_out=dict(card.get("held_out") or {}),
            candidate=mine,
            incumbent=theirs,
            games=figures.games,
            win_rate=figures.win_rate,
            win_rate_low=figures.win_rate_low,
            win_rate_high=figures.win_rate_high,
            equal_share=equal,
            kept=figures.win_rate_low > equal,
        )
        results.append(result)
        store.record(settings, results)
        say(f"generation {generation}: win rate {figures.win_rate:.3f} "
            f"[{figures.win_rate_low:.3f}, {figures.win_rate_high:.3f}] against an equal share "
            f"of {equal:.3f}: {'kept' if result.kept else 'no gain'}")
    return results


def latest_kept_model(results: list[GenerationResult]) -> Path | None:
    """The model of the last generation kept (None before the first)."""
    kept = [r for r in results if r.kept]
    return Path(kept[-1].model) if kept else None


def retrain_command(data: Path, model: Path, train: Mapping[str, Any]) -> str:
    """The `boardbot train` command that retrains `model` from `data`."""
    flags: list[str] = []
    for key, value in sorted(train.items()):
        text = ",".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value)
        flags += [f"--{key.replace('_', '-')}", text]
    parts = ["boardbot", "train", "--data", str(data), "--out", str(model), *flags]
    return " ".join(shlex.quote(p) for p in parts)
