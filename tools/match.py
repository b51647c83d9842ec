"""The match runner: seeded bot-vs-bot games with seats rotated, and per-bot figures."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from boardbot.engine.api import CHANCE, Game
from boardbot.engine.errors import BoardbotError
from boardbot.engine.record import Record, RecordBuilder
from boardbot.search.bots import make_bot
from boardbot.search.engines import Engine
from boardbot.search.seeds import derive_seed
from boardbot.tools.runners import Runner, make_runner
from boardbot.tools.stats import wilson_interval

MAX_GAME_STEPS = 100_000
"""A game still running after this many steps is an engine fault, reported as an error."""


class MatchError(BoardbotError, RuntimeError):
    """A match could not be played (bad request, or a game that never ends)."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game: who sat where and how it ended."""

    index: int
    seed: int
    options: dict[str, Any]
    seating: tuple[int, ...]
    """Bot index (into the match's bot list) for each seat."""
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    decisions: int
    decision_seconds: tuple[float, ...]
    """Time spent choosing, per seat."""
    decision_counts: tuple[int, ...]
    reuse_moves: tuple[int, ...] = ()
    """Per seat, the moves its bot searched with tree reuse on (empty: no bot reuses)."""
    reused_moves: tuple[int, ...] = ()
    """Per seat, of those, the moves whose search grew on an earlier tree."""
    reused_visits: tuple[int, ...] = ()
    """Per seat, the root visits those searches started with, summed."""
    finished: bool = True
    """False: the game was stopped at a runner's step limit before it ended (no returns)."""
    record: Record | None = None
    """Every move and chance outcome of the game (`boardbot.engine.record`), when recorded."""


@dataclass(frozen=True)
class BotReport:
    """Figures of one bot (one entry of the bot list) over a match."""

    bot: str
    entry: int
    games: int
    wins: float
    win_rate: float
    win_rate_low: float
    win_rate_high: float
    mean_score: float
    mean_margin: float
    mean_game_length: float
    mean_decision_ms: float
    reuse_rate: float | None = None
    """Share of its reuse searches that found a node to grow on (None: the bot does not reuse)."""
    mean_reused_visits: float | None = None
    """Root visits reused per move searched with reuse on (None: the bot does not reuse)."""


@dataclass(frozen=True)
class MatchReport:
    """A whole match: settings and per-bot figures."""

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int
    option_sets: tuple[dict[str, Any], ...]
    reports: tuple[BotReport, ...]
    seconds: float
    duplicate: bool = True
    """Whether each deal was played once from every seat (see `run_match`)."""

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON-ready dict."""
        return asdict(self)


def with_seat_count(game: Game, options: Mapping[str, Any], players: int) -> dict[str, Any]:
    """A copy of `options` with `players` seats when they name no seat count and the game
    offers a choice."""
    chosen = dict(options)
    if "players" not in chosen and game.min_players != game.max_players:
        chosen["players"] = players
    return chosen


def game_seed(seed: int, index: int, players: int, duplicate: bool) -> int:
    """Seed of game `index`: shared by a whole seat rotation when `duplicate`, else its own."""
    if duplicate:
        return derive_seed(seed, "deal", index // players)
    return derive_seed(seed, "game", index)


def seating_for(index: int, players: int) -> tuple[int, ...]:
    """Bot index per seat in game `index`: the bot list rotated by `index` seats."""
    return tuple((seat + index) % players for seat in range(players))


def play_game(
    game: Game,
    options: Mapping[str, Any],
    bots: Sequence[str],
    seating: tuple[int, ...],
    seed: int,
    index: int = 0,
    engine: Engine = Engine.AUTO,
    step_limit: int | None = None,
    record: bool = False,
) -> GameRecord:
    """Play one seeded game to the end, seat s played by bot `bots[seating[s]]`.

    A game still running after MAX_GAME_STEPS steps is a MatchError; with `step_limit` it is
    returned after that many steps as an unfinished record instead (`finished` False, no
    returns), for runners that must go on past a game the bots never end. With `record`, the
    result carries the game's record (players named by their bots, clocks the decision times);
    recording changes no move."""
    players = [make_bot(bots[b], game, engine) for b in seating]
    state = game.new_state(options, seed)
    if game.num_players(state) != len(seating):
        raise MatchError(
            f"{game.name} with {dict(options)} has {game.num_players(state)} seats, "
            f"but {len(seating)} bots were given"
        )
    chance_rng = random.Random(derive_seed(seed, "chance"))
    seat_rngs = [random.Random(derive_seed(seed, "seat", s)) for s in range(len(seating))]
    builder = None
    if record:
        names = [{"seat": s, "name": bots[b], "kind": "bot"} for s, b in enumerate(seating)]
        builder = RecordBuilder(game, state, options, seed, names)
    seconds = [0.0] * len(seating)
    counts = [0] * len(seating)
    decisions = 0
    clock = time.perf_counter
    for _ in range(MAX_GAME_STEPS if step_limit is None else step_limit):
        if game.is_terminal(state):
            break
        seat = game.current_player(state)
        if seat == CHANCE:
            outcome = game.sample_chance(state, chance_rng)
            if builder is not None:
                builder.add(state, outcome)
            state = game.apply(state, outcome)
            continue
        start = clock()
        action = players[seat].choose(game, state, seat, seat_rngs[seat])
        took = clock() - start
        seconds[seat] += took
        counts[seat] += 1
        decisions += 1
        if builder is not None:
            builder.add(state, action, clock_ms=round(1000.0 * took, 3))
        state = game.apply(state, action)
    else:
        if step_limit is None:
            raise MatchError(
                f"game {index} (seed {seed}) did not end within {MAX_GAME_STEPS} steps"
            )
    finished = game.is_terminal(state)
    reusing = [getattr(p, "reuse", False) for p in players]
    reuse_fields: dict[str, tuple[int, ...]] = {}
    if any(reusing):
        for field_name in ("reuse_moves", "reused_moves", "reused_visits"):
            reuse_fields[field_name] = tuple(
                int(getattr(p, field_name, 0)) if on else 0
                for p, on in zip(players, reusing, strict=True)
            )
    return GameRecord(
        index=index,
        seed=seed,
        options=dict(options),
        seating=seating,
        returns=tuple(game.returns(state)) if finished else (),
        scores=tuple(game.scores(state)),
        decisions=decisions,
        decision_seconds=tuple(seconds),
        decision_counts=tuple(counts),
        finished=finished,
        record=None if builder is None else builder.finish(state),
        **reuse_fields,
    )


GameJob = tuple[Game, dict[str, Any], tuple[str, ...], tuple[int, ...], int, int, Engine]
"""Arguments of one game of a match: game, options, bots, seating, seed, index, engine."""


def match_job(
    game: Game,
    bots: Sequence[str],
    index: int,
    seed: int,
    option_sets: Sequence[Mapping[str, Any]],
    duplicate: bool = True,
    engine: Engine = Engine.AUTO,
) -> GameJob:
    """Game `index` of a match: seats rotated by `index`, the option set of its rotation."""
    players = len(bots)
    return (
        game,
        dict(option_sets[(index // players) % len(option_sets)]),
        tuple(bots),
        seating_for(index, players),
        game_seed(seed, index, players, duplicate),
        index,
        engine,
    )


def play_job(args: GameJob) -> GameRecord:
    """Play the game a job describes (a module-level function, so every runner can ship it)."""
    game, options, bots, seating, seed, index, engine = args
    return play_game(game, options, bots, seating, seed, index, engine)


def play_recorded_job(args: GameJob) -> GameRecord:
    """`play_job`, with the game's record in the result."""
    game, options, bots, seating, seed, index, engine = args
    return play_game(game, options, bots, seating, seed, index, engine, record=True)


def summarize(bots: Sequence[str], records: Sequence[GameRecord]) -> tuple[BotReport, ...]:
    """Per-bot figures: wins with a Wilson 95% interval, score, margin, length, time."""
    reports = []
    for entry, name in enumerate(bots):
        games = 0
        wins = score = margin = length = seconds = 0.0
        decisions = 0
        reuse_moves = reused_moves = reused_visits = 0
        for record in records:
            for seat, bot in enumerate(record.seating):
                if bot != entry:
                    continue
                if record.reuse_moves:
                    reuse_moves += record.reuse_moves[seat]
                    reused_moves += record.reused_moves[seat]
                    reused_visits += record.reused_visits[seat]
                games += 1
                wins += record.returns[seat]
                score += record.scores[seat]
                rivals = [s for i, s in enumerate(record.scores) if i != seat]
                margin += record.scores[seat] - max(rivals) if rivals else 0.0
                length += record.decisions
                seconds += record.decision_seconds[seat]
                decisions += record.decision_counts[seat]
        low, high = wilson_interval(wins, games)
        reports.append(
            BotReport(
                bot=name,
                entry=entry,
                games=games,
                wins=wins,
                win_rate=wins / games if games else 0.0,
                win_rate_low=low,
                win_rate_high=high,
                mean_score=score / games if games else 0.0,
                mean_margin=margin / games if games else 0.0,
                mean_game_length=length / games if games else 0.0,
                mean_decision_ms=1000.0 * seconds / decisions if decisions else 0.0,
                reuse_rate=reused_moves / reuse_moves if reuse_moves else None,
                mean_reused_visits=reused_visits / reuse_moves if reuse_moves else None,
            )
        )
    return tuple(reports)


def run_match(
    game: Game,
    bots: Sequence[str],
    games: int,
    seed: int,
    option_sets: Sequence[Mapping[str, Any]] = ({},),
    parallel: int = 1,
    duplicate: bool = True,
    engine: Engine = Engine.AUTO,
    runner: Runner | None = None,
    record: bool = False,
) -> tuple[MatchReport, list[GameRecord]]:
    """Play `games` seeded games; game i rotates seats by i and cycles option sets every
    full rotation (so each option set is played from every seat).

    With `duplicate`, the games of one rotation share their seed: each deal (setup and chance
    stream) is played once from every seat, which removes most of the luck from a comparison.
    `engine` runs the searching bots whose names do not pick one (`medium/native`).
    `runner` plays the games (`tools/runners.py`: serial, process pool or Ray); by default a
    process pool of `parallel` workers, or this process when `parallel` is 1.
    With `record`, each game's result carries its record (the same games are played).
    """
    for name in bots:
        make_bot(name, game, engine)
    if games < 1:
        raise MatchError("a match needs at least one game")
    if not option_sets:
        raise MatchError("a match needs at least one option set")
    jobs = [match_job(game, bots, i, seed, option_sets, duplicate, engine) for i in range(games)]
    start = time.perf_counter()
    chosen = runner if runner is not None else make_runner(parallel)
    play = play_recorded_job if record else play_job
    finished = sorted(chosen.imap(play, jobs), key=lambda pair: pair[0])
    records = [record for _, record in finished]
    report = MatchReport(
        game=game.name,
        bots=tuple(bots),
        games=games,
        seed=seed,
        option_sets=tuple(dict(o) for o in option_sets),
        reports=summarize(bots, records),
        seconds=round(time.perf_counter() - start, 3),
        duplicate=duplicate,
    )
    return report, records


def clan_option_sets(
    game: Game, options: Mapping[str, Any], spec: str
) -> list[dict[str, Any]]:
    """Option sets for a clan spec: `a,b` (seat 0 plays a, seat 1 plays b) or `rotate`."""
    described = game.describe_options()
    key = next((k for k in described if "clan" in k.lower()), None)
    if key is None:
        raise MatchError(f"{game.name} has no clan option")
    choices = clan_choices(described[key])
    if spec == "rotate":
        pairs = [(a, b) for a in choices for b in choices if a != b]
    else:
        pair = [clan_named(part.strip(), choices) for part in spec.split(",")]
        if len(pair) != 2:
            raise MatchError(f"--clans expects two clans 'a,b' or 'rotate', got {spec!r}")
        pairs = [(pair[0], pair[1])]
    return [{**options, key: list(pair)} for pair in pairs]


def clan_choices(description: Any) -> list[str]:
    """The clan names listed in a game's option description."""
    if isinstance(description, dict):
        for field in ("values", "choices", "allowed", "clans"):
            if isinstance(description.get(field), list):
                return [str(v) for v in description[field]]
    if isinstance(description, list):
        return [str(v) for v in description]
    raise MatchError(f"cannot read the clan choices from {description!r}")


def clan_named(name: str, choices: list[str]) -> str:
    """The listed clan called `name`, accepting the singular (`shark` for `sharks`)."""
    for choice in choices:
        if name.lower() in (choice.lower(), choice.lower().rstrip("s")):
            return choice
    raise MatchError(f"unknown clan {name!r}; known: {', '.join(choices)}")
