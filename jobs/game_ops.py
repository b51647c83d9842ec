"""Game-level operations behind the RPCs and the CLI: decode, check, apply, summarise."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import orjson

from boardbot.engine import CHANCE, EngineError, Game, State, get_game, list_games
from boardbot.engine.errors import UnknownGameError, echo
from boardbot.jobs.failures import (
    Reason,
    RequestError,
    bounded,
    from_engine_error,
    from_search_error,
    internal,
    invalid_argument,
    not_found,
)
from boardbot.jobs.request_bounds import (
    MAX_MOVE_BYTES,
    MAX_NAME_CHARS,
    MAX_NOTATION_CHARS,
    MAX_STATE_BYTES,
    check_document,
    check_nesting,
    check_size,
    check_text_nesting,
)
from boardbot.search import checks
from boardbot.search.engines import Engine, uses_native
from boardbot.search.errors import InvalidSeatError, NotSeatToMoveError, SearchError
from boardbot.search.native_game import NativeGame

MAX_CHANCE_STEPS = 10_000
"""Safety bound on chance steps resolved in a row (a game never needs this many)."""


@dataclass(frozen=True)
class MoveForms:
    """A move as notation and as JSON bytes (with its probability, for a chance outcome)."""

    notation: str
    json: bytes
    probability: float | None = None


@dataclass(frozen=True)
class MoveList:
    """What LegalMoves lists: the seat to move's moves, or a chance step's outcomes."""

    moves: tuple[MoveForms, ...]
    chance: bool = False
    """True at a chance step: `moves` are its outcomes, each with its probability."""
    chance_form: str = ""
    """At a chance step whose outcomes cannot be listed: how to write one (else empty)."""


@dataclass(frozen=True)
class Summary:
    """Who is to move in a state and the outcome once it is over."""

    current_player: int
    terminal: bool
    num_players: int
    scores: tuple[float, ...]
    returns: tuple[float, ...]


def load_game(name: str) -> Game:
    """The registered game called `name`, or NOT_FOUND listing the known ones."""
    if not name:
        raise invalid_argument(
            "game: required (see ListGames for the names)", Reason.MISSING_FIELD, "game"
        )
    try:
        if len(name) > MAX_NAME_CHARS:
            raise UnknownGameError(name)
        return get_game(name)
    except UnknownGameError:
        known = ", ".join(list_games())
        raise not_found(
            f"game: unknown game {echo(name)}; known: {known}", Reason.UNKNOWN_GAME, "game"
        ) from None


def served_game(name: str, engine: Engine | str) -> Game:
    """The game `name` on the engine that serves it under `engine`: its native twin (states
    are native handles) when `engine` runs it natively, else the Python engine."""
    game = load_game(name)
    if uses_native(engine, name):
        native = NativeGame.of(game)
        if native is not None:
            return native
    return game


def parse_json(raw: bytes, field: str, limit: int = MAX_STATE_BYTES) -> Any:
    """Decode the JSON document in a bytes field, or INVALID_ARGUMENT saying where it breaks.

    Every JSON field of a request is parsed here: its size and its nesting depth are bounded
    (a document nested too deep is refused at its path, whichever game reads it).
    """
    check_document(field, raw, limit)
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        check_text_nesting(field, raw)
        raise invalid_argument(
            f"{field}: malformed JSON: {bounded(str(error), 200)}", Reason.MALFORMED_JSON, field
        ) from None
    check_nesting(field, document)
    return document


def decode_state(game: Game, raw: bytes, field: str = "state_json") -> State:
    """Decode and fully validate a state sent as JSON bytes (on a native twin, parsed and
    validated once, natively, from the bytes)."""
    if isinstance(game, NativeGame):
        return _decode_natively(game, raw, field)
    return decode_document(game, parse_json(raw, field), field)


def _decode_natively(game: NativeGame, raw: bytes, field: str) -> State:
    """The native decode of `raw`; text the native parser does not read as JSON goes through
    `parse_json`, whose error (or document) is the Python engine's."""
    check_document(field, raw, MAX_STATE_BYTES)
    try:
        state = game.state_from_bytes(raw)
    except EngineError as error:
        raise from_engine_error(field, error) from None
    if state is None:
        return decode_document(game, parse_json(raw, field), field)
    return state


def decode_document(game: Game, data: Any, field: str = "state_json") -> State:
    """Decode and fully validate a state from its parsed JSON document."""
    try:
        return game.state_from_json(data)
    except EngineError as error:
        raise from_engine_error(field, error) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as error:
        # A codec that slipped past its own validation: still the caller's input at fault.
        kind = type(error).__name__
        raise invalid_argument(
            f"{field}: cannot be decoded ({kind}: {bounded(str(error), 200)})",
            Reason.INVALID_STATE,
            field,
        ) from None


def with_player_count(
    game: Game, name: str, options: dict[str, Any], players: int
) -> dict[str, Any]:
    """`options` with the `players` option set from a request's player count (0: unchanged)."""
    if players == 0:
        return options
    if not game.min_players <= players <= game.max_players:
        raise invalid_argument(
            f"players: must be in {game.min_players}..{game.max_players} for {name}, got {players}",
            Reason.INVALID_FIELD,
            "players",
        )
    given = options.get("players")
    if given is not None and given != players:
        raise invalid_argument(
            f"players: {players} disagrees with options_json $.players = {echo(given)}",
            Reason.INVALID_OPTIONS,
            "options_json",
            "$.players",
        )
    return {**options, "players": players}


def encode_state(game: Game, state: State, observer: int | None = None) -> bytes:
    """The state's JSON bytes (with `observer`, hidden parts only as counts)."""
    if isinstance(game, NativeGame):
        return game.state_bytes(state, observer)
    return orjson.dumps(game.state_to_json(state, observer))


def check_listing_seat(game: Game, state: State, seat: int) -> None:
    """LegalMoves' seat: the seat to move, or CHANCE (-1) at a chance step; else the error."""
    to_move = game.current_player(state)
    players = game.num_players(state)
    try:
        if to_move == CHANCE and seat == CHANCE:
            return
        if to_move == CHANCE and 0 <= seat < players:
            raise NotSeatToMoveError(
                f"seat {seat} is not to move: the state is at a chance step (ask with seat -1 "
                "for its outcomes)"
            )
        if seat == CHANCE:
            raise InvalidSeatError(
                f"seat: must be in 0..{players - 1} for this state (-1 only at a chance step), "
                "got -1"
            )
        checks.check_seat(game, state, seat)
    except SearchError as error:
        raise from_search_error(error) from None


def check_seat_exists(game: Game, state: State, seat: int) -> None:
    """INVALID_ARGUMENT naming `seat` unless it is a seat of the state (0..players-1)."""
    try:
        checks.check_seat_exists(game, state, seat)
    except SearchError as error:
        raise from_search_error(error) from None


def check_not_over(game: Game, state: State) -> None:
    """FAILED_PRECONDITION GAME_OVER once the game is over."""
    try:
        checks.check_not_over(game, state)
    except SearchError as error:
        raise from_search_error(error) from None


def move_forms(
    game: Game, state: State, action: Any, probability: float | None = None
) -> MoveForms:
    """Notation and JSON bytes of `action` in `state` (and a chance outcome's probability)."""
    notation = game.action_to_str(state, action)
    return MoveForms(notation, move_json(game, state, action), probability)


def move_json(game: Game, state: State, action: Any) -> bytes:
    """The JSON bytes of `action` in `state`."""
    if isinstance(game, NativeGame):
        return game.action_bytes(state, action)
    return orjson.dumps(game.action_to_json(state, action))


def legal_moves(game: Game, state: State) -> list[MoveForms]:
    """Every legal move of the seat to move, in the engine's order."""
    return [move_forms(game, state, action) for action in game.legal_actions(state)]


def move_list(game: Game, state: State) -> MoveList:
    """The legal moves of the seat to move, or at a chance step its outcomes."""
    if game.current_player(state) == CHANCE:
        return chance_moves(game, state)
    return MoveList(tuple(legal_moves(game, state)))


def chance_moves(game: Game, state: State) -> MoveList:
    """Every possible outcome of the pending chance step with its probability, or, when the
    game cannot list them, none and the form an outcome takes."""
    outcomes = listed_outcomes(game, state)
    if outcomes is None:
        return MoveList((), chance=True, chance_form=game.chance_form(state))
    listed = tuple(move_forms(game, state, a, p) for a, p in outcomes)
    return MoveList(listed, chance=True)


def listed_outcomes(game: Game, state: State) -> list[tuple[Any, float]] | None:
    """The possible outcomes (probability above 0) of the pending chance step, in the engine's
    order, or None when the game cannot list them."""
    outcomes = game.chance_outcomes(state)
    if outcomes is None:
        return None
    return [(action, float(p)) for action, p in outcomes if p > 0]


def parse_move(game: Game, state: State, move_json: bytes | None, notation: str | None) -> Any:
    """The engine action for a move given as JSON bytes or notation, checked legal."""
    try:
        if move_json is not None:
            return game.action_from_json(state, parse_json(move_json, "move_json", MAX_MOVE_BYTES))
        if notation is not None:
            if not notation.strip():
                raise invalid_argument(
                    "notation: empty move notation", Reason.MISSING_FIELD, "notation"
                )
            check_size("notation", notation, MAX_NOTATION_CHARS)
            return game.action_from_str(state, notation)
    except EngineError as error:
        field = "move_json" if move_json is not None else "notation"
        raise with_chance_form(game, state, from_engine_error(field, error)) from None
    raise invalid_argument("move: give either move_json or notation", Reason.MISSING_FIELD, "move")


def with_chance_form(game: Game, state: State, error: RequestError) -> RequestError:
    """`error`, saying what an outcome looks like when it refused a move at a chance step whose
    outcomes cannot be listed (where LegalMoves has no list to pick from)."""
    if game.current_player(state) != CHANCE or game.chance_outcomes(state) is not None:
        return error
    message = f"{error.message}; an outcome of this chance step is a {game.chance_form(state)}"
    return RequestError(error.kind, message, error.reason, error.field, error.json_path)


def resolve_chance(
    game: Game, state: State, rng: random.Random, manual: bool = False
) -> tuple[State, list[str]]:
    """Play chance steps with `rng` until a seat must decide or the game ends (with `manual`,
    none: the state stays at its chance step for the caller to give the outcome)."""
    events: list[str] = []
    while not manual and game.current_player(state) == CHANCE:
        if len(events) >= MAX_CHANCE_STEPS:
            raise internal("too many chance steps in a row")
        state, event = sample_chance_step(game, state, rng)
        events.append(event)
    return state, events


def sample_chance_step(game: Game, state: State, rng: random.Random) -> tuple[State, str]:
    """The state after one outcome of the pending chance step drawn with `rng`, and its
    notation."""
    outcome = game.sample_chance(state, rng)
    return game.apply(state, outcome), _chance_notation(game, state, outcome)


def summarise(game: Game, state: State) -> Summary:
    """Who is to move, whether it is over, scores and returns."""
    return Summary(
        current_player=game.current_player(state),
        terminal=game.is_terminal(state),
        num_players=game.num_players(state),
        scores=tuple(float(s) for s in game.scores(state)),
        returns=tuple(float(r) for r in game.returns(state)),
    )


def _chance_notation(game: Game, state: State, outcome: Any) -> str:
    # Chance outcomes are not decisions; a game may have no notation for some of them.
    try:
        return game.action_to_str(state, outcome)
    except (EngineError, KeyError, ValueError, TypeError):
        return str(outcome)
