"""Arguments and helpers shared by the commands (state files, search flags, error reporting).

Nothing here imports gRPC: local commands (new, moves, apply, play, bench, match) must start
and run without it. Client-side helpers live in `boardbot.cli.commands.remote`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from boardbot.engine import CHANCE, Game, State
from boardbot.engine.errors import BoardbotError
from boardbot.jobs import game_ops
from boardbot.jobs.extra_games import register_env_games
from boardbot.jobs.failures import RequestError
from boardbot.jobs.game_ops import Summary
from boardbot.search.engines import Engine, NativeUnavailableError, check_engine, engine_notice
from boardbot.service.defaults import DEFAULT_ADDRESS


class CommandError(BoardbotError):
    """A failure to report on stderr with exit status 1 (no traceback)."""


def add_engine_argument(parser: argparse.ArgumentParser, env_default: str = "auto") -> None:
    """`--engine auto|native|python`: the native core where a game has one, or Python."""
    parser.add_argument(
        "--engine",
        choices=[e.value for e in Engine],
        default=env_default,
        help="auto: the native core for games that have one (default); native: insist on it; "
        "python: the Python engines and search",
    )


def say_engine_notice(engine: Engine) -> None:
    """Print on stderr the one line about the engines `engine` gets here, if there is one."""
    notice = engine_notice(engine)
    if notice is not None:
        print(notice, file=sys.stderr, flush=True)


def chosen_engine(args: argparse.Namespace, say_notice: bool = True) -> Engine:
    """The `--engine` of parsed arguments, checked, saying once when Python stands in or the
    native core is a debug build (a server says it in its own start-up warnings instead)."""
    try:
        engine = check_engine(args.engine)
    except NativeUnavailableError as error:
        raise CommandError(str(error)) from None
    if say_notice:
        say_engine_notice(engine)
    return engine


def add_state_arguments(parser: argparse.ArgumentParser) -> None:
    """`--game` and `--state FILE` (`-` reads standard input)."""
    parser.add_argument("--game", required=True, help="game name, e.g. leda or legend_raiders")
    parser.add_argument(
        "--state", required=True, metavar="FILE", help="state JSON file, - for stdin"
    )


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """`--out FILE` and `--pretty` for commands that print a state."""
    parser.add_argument("--out", type=Path, default=None, help="write the state here, not stdout")
    parser.add_argument("--pretty", action="store_true", help="indent the JSON")


def add_manual_chance_argument(parser: argparse.ArgumentParser) -> None:
    """`--manual-chance`: stop at the first chance step instead of resolving it."""
    parser.add_argument(
        "--manual-chance",
        action="store_true",
        help="stop at the first chance step instead of resolving it with the seed (give its "
        "outcome with `boardbot apply --move/--move-json/--number`, or draw it with --roll)",
    )


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    """`--server`, `--token`, `--tls-ca`, `--timeout` (defaults from BOARDBOT_* variables)."""
    env = os.environ.get
    parser.add_argument(
        "--server", default=env("BOARDBOT_SERVER", DEFAULT_ADDRESS), help="HOST:PORT of the server"
    )
    parser.add_argument("--token", default=env("BOARDBOT_TOKEN"), help="shared token, if any")
    parser.add_argument(
        "--tls-ca", type=Path, default=env("BOARDBOT_TLS_CA"), help="CA certificate for TLS"
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="call deadline in seconds")


def add_search_arguments(parser: argparse.ArgumentParser) -> None:
    """Preset, explicit search settings and seed."""
    parser.add_argument("--preset", default="", help="difficulty preset (default: server's)")
    add_elo_argument(parser)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--time-ms", type=float, default=None)
    parser.add_argument("--workers", type=int, default=None, help="root-parallel processes")
    parser.add_argument("--exploration", type=float, default=None)
    parser.add_argument("--temperature", type=float, default=None)
    parser.add_argument(
        "--model", default=None, metavar="NAME",
        help="guide the search by a model the server ships (e.g. leda-2p), `auto` (the "
        "game's shipped model for the state's player count) or `none` (default: the "
        "preset's); the analysis then shows the network's prior and value of each move",
    )
    parser.add_argument("--leaf-lambda", type=float, default=None,
                        help="with --model: the network's share of a leaf's value, in [0, 1]")
    parser.add_argument("--puct", type=float, default=None, help="with --model: PUCT constant")
    parser.add_argument("--fpu", type=float, default=None,
                        help="with --model: first-play urgency")
    parser.add_argument("--seed", type=int, default=0)


def add_elo_argument(parser: argparse.ArgumentParser) -> None:
    """`--elo N`: play at a target Elo (random bot = 0) instead of a preset."""
    parser.add_argument(
        "--elo", type=float, default=None, metavar="N",
        help="target strength in Elo (random bot = 0), from the game's calibration; "
        "instead of --preset (docs/search.md, 'Strength by Elo')",
    )


def search_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The search settings given explicitly by flags, by SearchConfig field name."""
    values = {
        "iterations": args.iterations,
        "time_ms": args.time_ms,
        "workers": args.workers,
        "exploration": args.exploration,
        "temperature": args.temperature,
        "model": getattr(args, "model", None),
        "leaf_lambda": getattr(args, "leaf_lambda", None),
        "puct": getattr(args, "puct", None),
        "fpu": getattr(args, "fpu", None),
    }
    return {k: v for k, v in values.items() if v is not None}


def read_state_bytes(path: str) -> bytes:
    """The raw bytes of a state file (`-`: standard input)."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise CommandError(f"cannot read state file {path}: {error.strerror}") from None


def load_state(game: Game, path: str) -> tuple[State, bytes]:
    """Decode and validate the state in `path`; returns the state and its bytes."""
    raw = read_state_bytes(path)
    return game_ops.decode_state(game, raw), raw


def write_state(game: Game, state: State, args: argparse.Namespace) -> None:
    """Print (or write to `--out`) the state as JSON."""
    write_document(game.state_to_json(state), args)


def write_document(data: Any, args: argparse.Namespace) -> None:
    """Print (or write to `--out`) a JSON document, indented with `--pretty`."""
    option = orjson.OPT_INDENT_2 if args.pretty else 0
    text = orjson.dumps(data, option=option)
    if args.out is not None:
        args.out.write_bytes(text + b"\n")
    else:
        sys.stdout.write(text.decode() + "\n")


def describe_turn(game: Game, state: State) -> str:
    """A one-line description of who is to move (or the final outcome)."""
    return describe_summary(game_ops.summarise(game, state))


def describe_summary(summary: Summary) -> str:
    """A one-line description of a state's summary: who is to move, or the final outcome."""
    if summary.terminal:
        scores = ", ".join(f"seat {i}: {s:g}" for i, s in enumerate(summary.scores))
        winners = [i for i, r in enumerate(summary.returns) if r > 0]
        return f"game over; winner: seat {', '.join(map(str, winners))}; scores: {scores}"
    if summary.current_player == CHANCE:
        return (
            "chance step (seat -1): `boardbot moves` lists its outcomes, `boardbot apply` takes "
            "one (--move, --move-json, --number) or draws it (--roll)"
        )
    return f"seat {summary.current_player} to move"


def run_guarded(func: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a command body, turning expected failures into a message and exit status 1."""
    try:
        register_env_games()
        return func(args)
    except RequestError as error:
        print(f"error ({error.kind.name}, {error.reason}): {error.message}", file=sys.stderr)
    except CommandError as error:
        print(f"error: {error}", file=sys.stderr)
    except BoardbotError as error:
        # A refusal of the library (an unknown bot, a bad calibration file): its message.
        said = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"error: {said}", file=sys.stderr)
    except Exception as error:
        # A server's refusal; gRPC is only loaded once a client command ran, and looking it
        # up here (not importing it) keeps local commands free of it.
        grpc = sys.modules.get("grpc")
        if grpc is None or not isinstance(error, grpc.RpcError):
            raise
        from boardbot.cli.commands.rpc_errors import describe_rpc_error

        print(f"error ({describe_rpc_error(error)}): {error.details()}", file=sys.stderr)
    return 1
