"""The round-robin ladder: play every table's games into a folder (resuming), then rate the bots.

The schedule is `tools/ladder_schedule.py`, the folder `tools/ladder_store.py`, the fit
`tools/ratings.py`, the report `tools/ladder_report.py` and `tools/ladder_plot.py`; games run on
any runner of `tools/runners.py` (serial, process pool, Ray). docs/ratings.md describes it all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from boardbot.engine.api import Game
from boardbot.search.bots import make_bot
from boardbot.search.engines import Engine
from boardbot.search.seeds import derive_seed
from boardbot.tools.extras import import_extra
from boardbot.tools.ladder_plot import draw_ratings_png
from boardbot.tools.ladder_report import write_report
from boardbot.tools.ladder_schedule import ScheduledGame, build_schedule
from boardbot.tools.ladder_store import (
    LadderError,
    LadderSettings,
    LadderStore,
    entry_key,
    game_entry,
)
from boardbot.tools.match import (
    GameJob,
    GameRecord,
    MatchError,
    clan_option_sets,
    play_game,
    with_seat_count,
)
from boardbot.tools.progress import Progress
from boardbot.tools.ratings import LadderRatings, fit_ladder
from boardbot.tools.runners import Runner, SerialRunner

LADDER_STEP_LIMIT = 5_000
"""Steps after which a ladder game is stopped and kept as unfinished, left out of the fit: bots
can stall a game forever where the rules let them (a Legend Raiders player who would lose by
completing a 6th discovery may never complete it). Real games take a few hundred steps."""


def play_ladder_job(args: GameJob) -> GameRecord:
    """Play one ladder game, stopped at LADDER_STEP_LIMIT steps (module level, for every runner)."""
    game, options, bots, seating, seed, index, engine = args
    return play_game(game, options, bots, seating, seed, index, engine, LADDER_STEP_LIMIT)


def ladder_settings(
    game: Game,
    options: Mapping[str, Any],
    bots: Sequence[str],
    games_per_pairing: int,
    seed: int,
    engine: Engine | str = Engine.AUTO,
) -> LadderSettings:
    """Checked settings: the seat count, and every ordered clan pairing as the option sets of
    a two-player game with clans (unless the options fix the clans)."""
    if len(bots) < 2:
        raise LadderError("a ladder needs at least two bots")
    if len(set(bots)) != len(bots):
        raise LadderError(f"each bot may appear once in the ladder: {', '.join(bots)}")
    if games_per_pairing < 1:
        raise LadderError("--games-per-pairing must be at least 1")
    for name in bots:
        make_bot(name, game, engine)
    options = with_seat_count(game, options, 2)
    players = game.num_players(game.new_state(options, seed))
    if players > len(bots):
        raise LadderError(f"{players} seats need at least {players} bots, got {len(bots)}")
    option_sets: list[dict[str, Any]] = [options]
    if players == 2 and not any("clan" in key.lower() for key in options):
        try:
            option_sets = clan_option_sets(game, options, "rotate")
        except MatchError:
            option_sets = [options]
    return LadderSettings(
        game=game.name,
        options=options,
        players=players,
        bots=tuple(bots),
        games_per_pairing=games_per_pairing,
        seed=seed,
        engine=Engine(engine).value,
        option_sets=tuple(option_sets),
    )


def schedule_of(game: Game, settings: LadderSettings) -> list[ScheduledGame]:
    """Every game the settings ask for, in the interleaved order they are played."""
    return build_schedule(
        game,
        settings.bots,
        settings.players,
        settings.games_per_pairing,
        settings.seed,
        settings.option_sets,
        Engine(settings.engine),
    )


def pending_games(
    schedule: Sequence[ScheduledGame], entries: Sequence[dict[str, Any]]
) -> list[ScheduledGame]:
    """The scheduled games not in the games file yet (checking that the file's games are the
    scheduled ones)."""
    by_key = {g.key: g for g in schedule}
    for entry in entries:
        key = entry_key(entry)
        scheduled = by_key.get(key)
        if scheduled is None or scheduled.job[4] != entry["seed"]:
            raise LadderError(f"the games file holds a game the schedule does not: {key}")
    done = {entry_key(entry) for entry in entries}
    return [g for g in schedule if g.key not in done]


@dataclass(frozen=True)
class LadderRun:
    """What one run played: games already there, games played now, games still to play."""

    before: int
    played: int
    remaining: int
    total: int


def run_ladder(
    game: Game,
    settings: LadderSettings,
    directory: Path,
    runner: Runner | None = None,
    limit: int | None = None,
    stream: TextIO | None = None,
) -> LadderRun:
    """Play the ladder's games missing from `directory` (at most `limit` of them), appending
    each to the games file as it finishes, with progress lines on `stream` (stderr)."""
    store = LadderStore(directory)
    store.open(settings)
    schedule = schedule_of(game, settings)
    entries = store.load_games()
    pending = pending_games(schedule, entries)
    chosen = pending if limit is None else pending[:limit]
    progress = Progress(len(schedule), len(entries), stream=stream)
    jobs = [g.job for g in chosen]
    for position, record in (runner or SerialRunner()).imap(play_ladder_job, jobs):
        scheduled = chosen[position]
        store.append(game_entry(scheduled, record))
        progress.advance(f"{' vs '.join(scheduled.table)}, game {scheduled.index}")
    return LadderRun(len(entries), len(chosen), len(pending) - len(chosen), len(schedule))


def check_report_packages() -> None:
    """Fail early (before any game) when choix or matplotlib is missing."""
    import_extra("choix", "ladder", "fitting ratings")
    import_extra("matplotlib", "ladder", "drawing ratings.png")


def report_ladder(directory: Path, resamples: int = 1000) -> tuple[LadderRatings, list[Path]]:
    """Fit the ratings of the games in `directory` and write ratings.json, .md and .png."""
    store = LadderStore(directory)
    settings = store.read_settings()
    entries = store.load_games()
    if not entries:
        raise LadderError(f"{store.games_path} has no finished games to rate")
    ratings = fit_ladder(
        entries, settings.bots, resamples, derive_seed(settings.seed, "bootstrap")
    )
    title = (f"{settings.game}, {settings.players} players: ladder of {len(settings.bots)} bots "
             f"(seed {settings.seed}, {settings.games_per_pairing} games per table)")
    about = {"game": settings.game, "players": settings.players, "engine": settings.engine,
             "seed": settings.seed, "games_per_pairing": settings.games_per_pairing}
    paths = write_report(ratings, directory, title, about)
    paths.append(draw_ratings_png(ratings, directory, title))
    return ratings, paths
