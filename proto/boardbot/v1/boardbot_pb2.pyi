from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListGamesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "presets")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    PRESETS_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[GameInfo]
    presets: _containers.RepeatedCompositeFieldContainer[Preset]
    def __init__(self, games: _Optional[_Iterable[_Union[GameInfo, _Mapping]]] = ..., presets: _Optional[_Iterable[_Union[Preset, _Mapping]]] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("name", "min_players", "max_players", "options_json", "presets", "strength_ranges")
    NAME_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    PRESETS_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_RANGES_FIELD_NUMBER: _ClassVar[int]
    name: str
    min_players: int
    max_players: int
    options_json: bytes
    presets: _containers.RepeatedCompositeFieldContainer[Preset]
    strength_ranges: _containers.RepeatedCompositeFieldContainer[StrengthRange]
    def __init__(self, name: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., options_json: _Optional[bytes] = ..., presets: _Optional[_Iterable[_Union[Preset, _Mapping]]] = ..., strength_ranges: _Optional[_Iterable[_Union[StrengthRange, _Mapping]]] = ...) -> None: ...

class StrengthRange(_message.Message):
    __slots__ = ("players", "min_elo", "max_elo", "engine")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MIN_ELO_FIELD_NUMBER: _ClassVar[int]
    MAX_ELO_FIELD_NUMBER: _ClassVar[int]
    ENGINE_FIELD_NUMBER: _ClassVar[int]
    players: int
    min_elo: float
    max_elo: float
    engine: str
    def __init__(self, players: _Optional[int] = ..., min_elo: _Optional[float] = ..., max_elo: _Optional[float] = ..., engine: _Optional[str] = ...) -> None: ...

class Preset(_message.Message):
    __slots__ = ("name", "settings", "analysis_settings")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    ANALYSIS_SETTINGS_FIELD_NUMBER: _ClassVar[int]
    name: str
    settings: SearchSettings
    analysis_settings: SearchSettings
    def __init__(self, name: _Optional[str] = ..., settings: _Optional[_Union[SearchSettings, _Mapping]] = ..., analysis_settings: _Optional[_Union[SearchSettings, _Mapping]] = ...) -> None: ...

class NewGameRequest(_message.Message):
    __slots__ = ("game", "options_json", "seed", "players", "manual_chance")
    GAME_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MANUAL_CHANCE_FIELD_NUMBER: _ClassVar[int]
    game: str
    options_json: bytes
    seed: int
    players: int
    manual_chance: bool
    def __init__(self, game: _Optional[str] = ..., options_json: _Optional[bytes] = ..., seed: _Optional[int] = ..., players: _Optional[int] = ..., manual_chance: _Optional[bool] = ...) -> None: ...

class NewGameResponse(_message.Message):
    __slots__ = ("state_json", "summary", "chance_events")
    STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    CHANCE_EVENTS_FIELD_NUMBER: _ClassVar[int]
    state_json: bytes
    summary: StateSummary
    chance_events: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, state_json: _Optional[bytes] = ..., summary: _Optional[_Union[StateSummary, _Mapping]] = ..., chance_events: _Optional[_Iterable[str]] = ...) -> None: ...

class StateSummary(_message.Message):
    __slots__ = ("current_player", "terminal", "num_players", "scores", "returns")
    CURRENT_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TERMINAL_FIELD_NUMBER: _ClassVar[int]
    NUM_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    RETURNS_FIELD_NUMBER: _ClassVar[int]
    current_player: int
    terminal: bool
    num_players: int
    scores: _containers.RepeatedScalarFieldContainer[float]
    returns: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, current_player: _Optional[int] = ..., terminal: _Optional[bool] = ..., num_players: _Optional[int] = ..., scores: _Optional[_Iterable[float]] = ..., returns: _Optional[_Iterable[float]] = ...) -> None: ...

class LegalMovesRequest(_message.Message):
    __slots__ = ("game", "state_json", "seat")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game: str
    state_json: bytes
    seat: int
    def __init__(self, game: _Optional[str] = ..., state_json: _Optional[bytes] = ..., seat: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("notation", "move_json", "probability")
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    MOVE_JSON_FIELD_NUMBER: _ClassVar[int]
    PROBABILITY_FIELD_NUMBER: _ClassVar[int]
    notation: str
    move_json: bytes
    probability: float
    def __init__(self, notation: _Optional[str] = ..., move_json: _Optional[bytes] = ..., probability: _Optional[float] = ...) -> None: ...

class LegalMovesResponse(_message.Message):
    __slots__ = ("moves", "chance", "chance_form")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FORM_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    chance: bool
    chance_form: str
    def __init__(self, moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., chance: _Optional[bool] = ..., chance_form: _Optional[str] = ...) -> None: ...

class ApplyMoveRequest(_message.Message):
    __slots__ = ("game", "state_json", "move_json", "notation", "seed", "manual_chance")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    MOVE_JSON_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MANUAL_CHANCE_FIELD_NUMBER: _ClassVar[int]
    game: str
    state_json: bytes
    move_json: bytes
    notation: str
    seed: int
    manual_chance: bool
    def __init__(self, game: _Optional[str] = ..., state_json: _Optional[bytes] = ..., move_json: _Optional[bytes] = ..., notation: _Optional[str] = ..., seed: _Optional[int] = ..., manual_chance: _Optional[bool] = ...) -> None: ...

class ApplyMoveResponse(_message.Message):
    __slots__ = ("state_json", "summary", "move", "chance_events")
    STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    CHANCE_EVENTS_FIELD_NUMBER: _ClassVar[int]
    state_json: bytes
    summary: StateSummary
    move: Move
    chance_events: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, state_json: _Optional[bytes] = ..., summary: _Optional[_Union[StateSummary, _Mapping]] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., chance_events: _Optional[_Iterable[str]] = ...) -> None: ...

class ViewStateRequest(_message.Message):
    __slots__ = ("game", "state_json", "seat")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    game: str
    state_json: bytes
    seat: int
    def __init__(self, game: _Optional[str] = ..., state_json: _Optional[bytes] = ..., seat: _Optional[int] = ...) -> None: ...

class ViewStateResponse(_message.Message):
    __slots__ = ("state_json", "summary")
    STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    state_json: bytes
    summary: StateSummary
    def __init__(self, state_json: _Optional[bytes] = ..., summary: _Optional[_Union[StateSummary, _Mapping]] = ...) -> None: ...

class SearchSettings(_message.Message):
    __slots__ = ("iterations", "time_ms", "workers", "exploration", "temperature", "model", "leaf_lambda", "puct", "fpu")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    EXPLORATION_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    LEAF_LAMBDA_FIELD_NUMBER: _ClassVar[int]
    PUCT_FIELD_NUMBER: _ClassVar[int]
    FPU_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    time_ms: float
    workers: int
    exploration: float
    temperature: float
    model: str
    leaf_lambda: float
    puct: float
    fpu: float
    def __init__(self, iterations: _Optional[int] = ..., time_ms: _Optional[float] = ..., workers: _Optional[int] = ..., exploration: _Optional[float] = ..., temperature: _Optional[float] = ..., model: _Optional[str] = ..., leaf_lambda: _Optional[float] = ..., puct: _Optional[float] = ..., fpu: _Optional[float] = ...) -> None: ...

class ChooseMoveRequest(_message.Message):
    __slots__ = ("game", "state_json", "seat", "preset", "settings", "seed", "target_elo", "session_key", "top_k")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PRESET_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TARGET_ELO_FIELD_NUMBER: _ClassVar[int]
    SESSION_KEY_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    game: str
    state_json: bytes
    seat: int
    preset: str
    settings: SearchSettings
    seed: int
    target_elo: float
    session_key: str
    top_k: int
    def __init__(self, game: _Optional[str] = ..., state_json: _Optional[bytes] = ..., seat: _Optional[int] = ..., preset: _Optional[str] = ..., settings: _Optional[_Union[SearchSettings, _Mapping]] = ..., seed: _Optional[int] = ..., target_elo: _Optional[float] = ..., session_key: _Optional[str] = ..., top_k: _Optional[int] = ...) -> None: ...

class SearchStats(_message.Message):
    __slots__ = ("iterations", "elapsed_ms", "stopped_by", "nodes", "seat", "settings", "random_move_share", "random_move", "tree_reused", "reused_visits")
    ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    STOPPED_BY_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    RANDOM_MOVE_SHARE_FIELD_NUMBER: _ClassVar[int]
    RANDOM_MOVE_FIELD_NUMBER: _ClassVar[int]
    TREE_REUSED_FIELD_NUMBER: _ClassVar[int]
    REUSED_VISITS_FIELD_NUMBER: _ClassVar[int]
    iterations: int
    elapsed_ms: float
    stopped_by: str
    nodes: int
    seat: int
    settings: SearchSettings
    random_move_share: float
    random_move: bool
    tree_reused: bool
    reused_visits: int
    def __init__(self, iterations: _Optional[int] = ..., elapsed_ms: _Optional[float] = ..., stopped_by: _Optional[str] = ..., nodes: _Optional[int] = ..., seat: _Optional[int] = ..., settings: _Optional[_Union[SearchSettings, _Mapping]] = ..., random_move_share: _Optional[float] = ..., random_move: _Optional[bool] = ..., tree_reused: _Optional[bool] = ..., reused_visits: _Optional[int] = ...) -> None: ...

class MoveAnalysis(_message.Message):
    __slots__ = ("rank", "move", "visits", "value", "lower_bound", "principal_variation", "prior", "net_value", "seat_values", "principal_variation_seats")
    RANK_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    VISITS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    LOWER_BOUND_FIELD_NUMBER: _ClassVar[int]
    PRINCIPAL_VARIATION_FIELD_NUMBER: _ClassVar[int]
    PRIOR_FIELD_NUMBER: _ClassVar[int]
    NET_VALUE_FIELD_NUMBER: _ClassVar[int]
    SEAT_VALUES_FIELD_NUMBER: _ClassVar[int]
    PRINCIPAL_VARIATION_SEATS_FIELD_NUMBER: _ClassVar[int]
    rank: int
    move: Move
    visits: int
    value: float
    lower_bound: float
    principal_variation: _containers.RepeatedScalarFieldContainer[str]
    prior: float
    net_value: float
    seat_values: _containers.RepeatedScalarFieldContainer[float]
    principal_variation_seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, rank: _Optional[int] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., visits: _Optional[int] = ..., value: _Optional[float] = ..., lower_bound: _Optional[float] = ..., principal_variation: _Optional[_Iterable[str]] = ..., prior: _Optional[float] = ..., net_value: _Optional[float] = ..., seat_values: _Optional[_Iterable[float]] = ..., principal_variation_seats: _Optional[_Iterable[int]] = ...) -> None: ...

class ChooseMoveResponse(_message.Message):
    __slots__ = ("move", "stats", "analysis", "candidates")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    move: Move
    stats: SearchStats
    analysis: MoveAnalysis
    candidates: _containers.RepeatedCompositeFieldContainer[MoveAnalysis]
    def __init__(self, move: _Optional[_Union[Move, _Mapping]] = ..., stats: _Optional[_Union[SearchStats, _Mapping]] = ..., analysis: _Optional[_Union[MoveAnalysis, _Mapping]] = ..., candidates: _Optional[_Iterable[_Union[MoveAnalysis, _Mapping]]] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("game", "state_json", "seat", "preset", "settings", "seed", "top_k", "target_elo", "session_key")
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATE_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PRESET_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TOP_K_FIELD_NUMBER: _ClassVar[int]
    TARGET_ELO_FIELD_NUMBER: _ClassVar[int]
    SESSION_KEY_FIELD_NUMBER: _ClassVar[int]
    game: str
    state_json: bytes
    seat: int
    preset: str
    settings: SearchSettings
    seed: int
    top_k: int
    target_elo: float
    session_key: str
    def __init__(self, game: _Optional[str] = ..., state_json: _Optional[bytes] = ..., seat: _Optional[int] = ..., preset: _Optional[str] = ..., settings: _Optional[_Union[SearchSettings, _Mapping]] = ..., seed: _Optional[int] = ..., top_k: _Optional[int] = ..., target_elo: _Optional[float] = ..., session_key: _Optional[str] = ...) -> None: ...

class AnalyzeResponse(_message.Message):
    __slots__ = ("moves", "stats", "final", "seat_values")
    MOVES_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    SEAT_VALUES_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[MoveAnalysis]
    stats: SearchStats
    final: bool
    seat_values: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, moves: _Optional[_Iterable[_Union[MoveAnalysis, _Mapping]]] = ..., stats: _Optional[_Union[SearchStats, _Mapping]] = ..., final: _Optional[bool] = ..., seat_values: _Optional[_Iterable[float]] = ...) -> None: ...

class AnalyzeStreamRequest(_message.Message):
    __slots__ = ("analysis", "every_iterations", "every_ms")
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    EVERY_ITERATIONS_FIELD_NUMBER: _ClassVar[int]
    EVERY_MS_FIELD_NUMBER: _ClassVar[int]
    analysis: AnalyzeRequest
    every_iterations: int
    every_ms: int
    def __init__(self, analysis: _Optional[_Union[AnalyzeRequest, _Mapping]] = ..., every_iterations: _Optional[int] = ..., every_ms: _Optional[int] = ...) -> None: ...

class ReviewGameRequest(_message.Message):
    __slots__ = ("record_json", "preset", "settings", "seed", "seats")
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    PRESET_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    record_json: bytes
    preset: str
    settings: SearchSettings
    seed: int
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, record_json: _Optional[bytes] = ..., preset: _Optional[str] = ..., settings: _Optional[_Union[SearchSettings, _Mapping]] = ..., seed: _Optional[int] = ..., seats: _Optional[_Iterable[int]] = ...) -> None: ...

class ReviewGameResponse(_message.Message):
    __slots__ = ("position", "summary")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    position: PositionReview
    summary: ReviewSummary
    def __init__(self, position: _Optional[_Union[PositionReview, _Mapping]] = ..., summary: _Optional[_Union[ReviewSummary, _Mapping]] = ...) -> None: ...

class PositionReview(_message.Message):
    __slots__ = ("index", "seat", "played", "best", "values_before", "values_after", "best_value", "played_value", "loss", "judgement", "stats", "candidates")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    VALUES_BEFORE_FIELD_NUMBER: _ClassVar[int]
    VALUES_AFTER_FIELD_NUMBER: _ClassVar[int]
    BEST_VALUE_FIELD_NUMBER: _ClassVar[int]
    PLAYED_VALUE_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    JUDGEMENT_FIELD_NUMBER: _ClassVar[int]
    STATS_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    index: int
    seat: int
    played: Move
    best: Move
    values_before: _containers.RepeatedScalarFieldContainer[float]
    values_after: _containers.RepeatedScalarFieldContainer[float]
    best_value: float
    played_value: float
    loss: float
    judgement: str
    stats: SearchStats
    candidates: _containers.RepeatedCompositeFieldContainer[MoveAnalysis]
    def __init__(self, index: _Optional[int] = ..., seat: _Optional[int] = ..., played: _Optional[_Union[Move, _Mapping]] = ..., best: _Optional[_Union[Move, _Mapping]] = ..., values_before: _Optional[_Iterable[float]] = ..., values_after: _Optional[_Iterable[float]] = ..., best_value: _Optional[float] = ..., played_value: _Optional[float] = ..., loss: _Optional[float] = ..., judgement: _Optional[str] = ..., stats: _Optional[_Union[SearchStats, _Mapping]] = ..., candidates: _Optional[_Iterable[_Union[MoveAnalysis, _Mapping]]] = ...) -> None: ...

class ReviewSummary(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedCompositeFieldContainer[SeatReview]
    def __init__(self, seats: _Optional[_Iterable[_Union[SeatReview, _Mapping]]] = ...) -> None: ...

class SeatReview(_message.Message):
    __slots__ = ("seat", "moves", "average_loss", "accuracy", "inaccuracies", "mistakes", "blunders")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    AVERAGE_LOSS_FIELD_NUMBER: _ClassVar[int]
    ACCURACY_FIELD_NUMBER: _ClassVar[int]
    INACCURACIES_FIELD_NUMBER: _ClassVar[int]
    MISTAKES_FIELD_NUMBER: _ClassVar[int]
    BLUNDERS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    moves: int
    average_loss: float
    accuracy: float
    inaccuracies: int
    mistakes: int
    blunders: int
    def __init__(self, seat: _Optional[int] = ..., moves: _Optional[int] = ..., average_loss: _Optional[float] = ..., accuracy: _Optional[float] = ..., inaccuracies: _Optional[int] = ..., mistakes: _Optional[int] = ..., blunders: _Optional[int] = ...) -> None: ...
