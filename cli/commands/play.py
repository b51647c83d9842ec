"""`boardbot play GAME`: a human plays against the bot in the terminal."""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from boardbot.cli.commands.common import (
    CommandError,
    add_elo_argument,
    add_server_arguments,
    describe_turn,
    run_guarded,
    search_overrides,
)
from boardbot.cli.commands.options import game_options
from boardbot.engine import CHANCE, Game, State
from boardbot.engine.record import RecordBuilder, write_record
from boardbot.jobs import game_ops, settings
from boardbot.jobs.failures import RequestError
from boardbot.jobs.search_job import SearchJob, run_search_job
from boardbot.search.engines import Engine

BotMove = Callable[[Game, State, int, int], str]
"""(game, state, seat, seed) → the bot's move in notation."""

FRESH_SEEDS = 1_000_000_000
"""Without `--seed`, a game is dealt from a fresh seed below this (printed, to replay it)."""


@dataclass(frozen=True)
class RecordTarget:
    """Where `play` writes the game's record, and what the record says of the game."""

    path: Path
    options: dict[str, Any]
    bot_name: str


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `play` command."""
    p = sub.add_parser("play", help="play against the bot in the terminal")
    p.add_argument("game", help="game name, e.g. leda or legend_raiders")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--players", type=int, default=None, help="number of players")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--preset", default="", help="bot difficulty preset")
    add_elo_argument(p)
    p.add_argument("--iterations", type=int, default=None)
    p.add_argument("--time-ms", type=float, default=None)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--exploration", type=float, default=None)
    p.add_argument("--temperature", type=float, default=None)
    p.add_argument(
        "--seed", type=int, default=None,
        help="seed of setup, dice and bot (default: a fresh one, printed at the start, so the "
        "same deal can be played again)",
    )
    p.add_argument(
        "--record", type=Path, default=None, metavar="FILE",
        help="write the game's record to FILE when the game ends or you quit (docs/records.md)",
    )
    p.add_argument(
        "--remote", action="store_true", help="ask the server for bot moves (default: in-process)"
    )
    add_server_arguments(p)
    p.set_defaults(func=lambda args: run_guarded(run_play, args))


def run_play(args: argparse.Namespace) -> int:
    """Set up the game and alternate human and bot turns until the end."""
    game = game_ops.load_game(args.game)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(FRESH_SEEDS)
    if seed < 0:
        raise CommandError(f"--seed must be at least 0, got {seed}")
    bot = remote_bot(args) if args.remote else local_bot(args)
    options = game_options(args)
    try:
        state = game.new_state(options, seed)
    except (ValueError, TypeError, KeyError) as error:
        raise CommandError(f"bad options: {error}") from None
    if not 0 <= args.seat < game.num_players(state):
        raise CommandError(f"--seat must be in 0..{game.num_players(state) - 1}")
    record = None
    if args.record is not None:
        if not args.record.parent.is_dir():
            raise CommandError(f"--record {args.record}: no folder {args.record.parent}")
        record = RecordTarget(args.record, options, _bot_name(args))
    sys.stdout.write(f"{args.game}, seed {seed} (deal it again with --seed {seed})\n")
    return play_game(game, state, args.seat, bot, seed, sys.stdin, sys.stdout, record)


def play_game(
    game: Game,
    state: State,
    human: int,
    bot: BotMove,
    seed: int,
    inp: TextIO,
    out: TextIO,
    record: RecordTarget | None = None,
) -> int:
    """The game loop: render, ask the human or the bot, apply, resolve chance; 0 at the end.

    Chance outcomes are not printed: they may show cards the human must not see (the rendering
    from the human's seat shows what it may know). With `record`, the game's record (every move
    and chance outcome, with the time each mover took) is written when it ends or is quit."""
    builder = None
    if record is not None:
        players = [
            {"seat": s, "name": "you" if s == human else record.bot_name,
             "kind": "human" if s == human else "bot"}
            for s in range(game.num_players(state))
        ]
        builder = RecordBuilder(game, state, record.options, seed, players)
    rng = random.Random(seed)
    state = _resolve_chance(game, state, rng, builder)
    turn = 0
    while not game.is_terminal(state):
        seat = game.current_player(state)
        start = time.perf_counter()
        if seat == human:
            out.write(f"\n--- your turn (seat {human}) ---\n" + game.render(state, human) + "\n")
            action = _ask_human(game, state, inp, out)
            if action is None:
                _write_record(builder, record, state, out)
                out.write("bye\n")
                return 0
        else:
            notation = bot(game, state, seat, seed + turn)
            action = game.action_from_str(state, notation)
            out.write(f"seat {seat} (bot) plays {notation}\n")
        if builder is not None:
            builder.add(state, action, clock_ms=round(1000.0 * (time.perf_counter() - start), 1))
        state = game.apply(state, action)
        state = _resolve_chance(game, state, rng, builder)
        turn += 1
    out.write("\n" + game.render(state, human) + "\n" + describe_turn(game, state) + "\n")
    _write_record(builder, record, state, out)
    return 0


def _resolve_chance(
    game: Game, state: State, rng: random.Random, builder: RecordBuilder | None
) -> State:
    """Play chance steps with `rng` until a seat must decide or the game ends, recording each
    outcome (the same draws as `game_ops.resolve_chance`)."""
    for _ in range(game_ops.MAX_CHANCE_STEPS):
        if game.current_player(state) != CHANCE:
            return state
        outcome = game.sample_chance(state, rng)
        if builder is not None:
            builder.add(state, outcome)
        state = game.apply(state, outcome)
    raise CommandError("too many chance steps in a row")


def _write_record(
    builder: RecordBuilder | None, record: RecordTarget | None, state: State, out: TextIO
) -> None:
    """Write the game's record, saying where (nothing without `--record`)."""
    if builder is None or record is None:
        return
    date = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        write_record(builder.finish(state, date=date, event="boardbot play"), record.path)
    except OSError as error:
        raise CommandError(f"--record: cannot write {record.path}: {error.strerror}") from None
    over = "" if builder.game.is_terminal(state) else " (unfinished)"
    out.write(f"game record{over} written to {record.path}\n")


def _bot_name(args: argparse.Namespace) -> str:
    """How the record names the bot: its preset or target Elo."""
    if getattr(args, "elo", None) is not None:
        return f"elo {args.elo:g}"
    return args.preset or settings.default_preset_name()


def _ask_human(game: Game, state: State, inp: TextIO, out: TextIO) -> Any:
    moves = game_ops.legal_moves(game, state)
    actions = game.legal_actions(state)
    while True:
        out.write("your moves:\n")
        for number, move in enumerate(moves, start=1):
            out.write(f"{number:3d}. {move.notation}\n")
        out.write("move (number or notation, q to quit)> ")
        out.flush()
        line = inp.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            return None
        text = line.strip()
        if text.isdigit():
            if 1 <= int(text) <= len(actions):
                return actions[int(text) - 1]
            out.write(f"no move numbered {text}: choose 1..{len(actions)}\n")
            continue
        try:
            return game_ops.parse_move(game, state, None, text)
        except RequestError as error:
            out.write(f"not a legal move: {error.message}\n")


def local_bot(args: argparse.Namespace) -> BotMove:
    """A bot searching in this process."""
    limits = settings.Limits(max_workers=os.cpu_count() or 1)
    overrides = search_overrides(args)
    elo = None
    target = getattr(args, "elo", None)
    if target is not None:
        rules = game_ops.load_game(args.game)
        seats = range(rules.min_players, rules.max_players + 1)
        config, elo = settings.resolve_elo(
            target, args.preset, overrides, limits, args.game, seats, Engine.AUTO
        )
    else:
        config = settings.resolve(args.preset, overrides, limits, args.game)

    def choose(game: Game, state: State, seat: int, seed: int) -> str:
        job = SearchJob(
            args.game, _state_bytes(game, state), seat, config, seed, ranked=False, elo=elo
        )
        return run_search_job(job).chosen.notation

    return choose


def remote_bot(args: argparse.Namespace) -> BotMove:
    """A bot answered by the server named by the server flags."""
    # Imported here, not at the top: only `--remote` needs gRPC.
    from boardbot.cli.commands.remote import choose_move_request, connect

    client = connect(args)

    def choose(game: Game, state: State, seat: int, seed: int) -> str:
        request = choose_move_request(args, _state_bytes(game, state), seat, seed)
        return str(client.choose_move(request).move.notation)

    return choose


def _state_bytes(game: Game, state: State) -> bytes:
    return game_ops.encode_state(game, state)
