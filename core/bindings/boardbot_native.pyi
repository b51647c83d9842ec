"""Type stubs of `boardbot_native`, the PyO3 binding of boardbot's native rules and search."""

from collections.abc import Callable, Iterable
from typing import Any, Final, final

Action = int | tuple[Any, ...]
"""An action as the Python engine writes it: an int (Legend Raiders), a tuple (LEDA)."""

CONFIG_KEYS: Final[tuple[str, ...]]
"""The keys `search` accepts in its config (Python's `SearchConfig` fields)."""
OPTIMIZED: Final[bool]
"""True for an optimised (release) build; a debug build searches about ten times slower."""

class NativeError(ValueError):
    """The base of every refusal of the native core (a ValueError)."""

class EngineError(NativeError):
    """A bad state or move; `path` is the JSON path at fault, `reason` what is wrong there."""

    path: str
    reason: str

class InvalidStateError(EngineError):
    """A state JSON that is malformed or impossible; the message starts with the JSON path."""

class MalformedJsonError(InvalidStateError):
    """State text that is not JSON at all (not UTF-8, or a syntax error), at `$`."""

class InvalidOptionsError(InvalidStateError):
    """Options of a new game that are malformed or out of range (path under `$.options`)."""

class InvalidActionError(EngineError):
    """A move that does not parse or is out of range."""

class IllegalActionError(InvalidActionError):
    """A well-formed move that is not legal in the state."""

class SearchError(NativeError):
    """A search that cannot run (bad configuration, terminal state, wrong seat)."""

class InvalidConfigError(SearchError):
    """A search configuration that cannot drive a search (no budget, a value out of range)."""

class InvalidSeatError(SearchError):
    """A seat that does not exist in the state."""

class GameOverError(SearchError):
    """A search of a terminal state: no seat is to move."""

class ChanceStepError(SearchError):
    """A search of a state waiting for a chance outcome: no seat is to move."""

class NotSeatToMoveError(SearchError):
    """A search for a seat while another seat is to move."""

class NetworkError(NativeError):
    """An input a network cannot evaluate (a feature vector of the wrong length, an
    action-feature index outside the policy head)."""

class InvalidNetworkError(NetworkError):
    """Bytes that are not a valid `.bbnet` network file; the message says what is wrong."""

@final
class LegendRaiders:
    """Legend Raiders (2-4 players, with the die or diceless): builds and decodes states."""

    def __init__(self) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    def describe_options(self) -> str:
        """The options with their allowed values and defaults, as JSON text."""
    def new_state(
        self, options_json: str = "{}", seed: int = 0, *, python_stream: bool = False
    ) -> State:
        """A fresh game from the options (JSON text); the seed (0 to 2**64-1) drives the native
        stream, or with `python_stream` CPython's `random.Random(seed)`, giving the Python
        engine's `new_state(options, seed)`. Bad options raise InvalidOptionsError."""
    def state_from_json(self, json: str | bytes) -> State:
        """Decode and validate a state's JSON (text, or UTF-8 bytes); InvalidStateError names
        the path (MalformedJsonError when it is not JSON at all)."""
    def random_playouts(self, options_json: str, seed: int, seconds: float) -> dict[str, Any]:
        """Seeded uniformly random games for about `seconds` (in (0, 600]; whole games), played
        natively without the GIL: {"games", "steps", "decisions", "chance": int, "seconds":
        float}. A step is a decision or a chance step, as in `boardbot bench engine`. Bad options
        raise InvalidOptionsError, a bad `seconds` ValueError."""

@final
class Leda:
    """LEDA (2 players, four clans): builds and decodes states."""

    def __init__(self) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    def describe_options(self) -> str:
        """The options with their allowed values and defaults, as JSON text."""
    def new_state(
        self, options_json: str = "{}", seed: int = 0, *, python_stream: bool = False
    ) -> State:
        """A fresh game from the options (JSON text); the seed (0 to 2**64-1) drives the native
        stream, or with `python_stream` CPython's `random.Random(seed)`, giving the Python
        engine's `new_state(options, seed)`. Bad options raise InvalidOptionsError."""
    def state_from_json(self, json: str | bytes) -> State:
        """Decode and validate a state's JSON (text, or UTF-8 bytes); InvalidStateError names
        the path (MalformedJsonError when it is not JSON at all)."""
    def random_playouts(self, options_json: str, seed: int, seconds: float) -> dict[str, Any]:
        """Seeded uniformly random games for about `seconds` (in (0, 600]; whole games), played
        natively without the GIL: {"games", "steps", "decisions", "chance": int, "seconds":
        float}. A step is a decision or a chance step, as in `boardbot bench engine`. Bad options
        raise InvalidOptionsError, a bad `seconds` ValueError."""

@final
class State:
    """An immutable state of either game; `apply`, `observe`, `determinize` give new handles."""

    @property
    def game(self) -> str:
        """The game's registry name (`legend_raiders`, `leda`)."""
    def num_players(self) -> int: ...
    def to_json(self, observer: int | None = None) -> str:
        """The documented JSON text; with `observer`, that seat's view."""
    def current_player(self) -> int:
        """The seat to decide, -1 at a chance step, -2 once the game is over."""
    def is_terminal(self) -> bool: ...
    def chance_form(self) -> str | None:
        """How to write an outcome of the pending chance step when its outcomes are not
        listed (LEDA's shuffles); None otherwise."""
    def legal_actions(self) -> list[Any]:
        """The legal decisions, the Python engine's actions in its order."""
    def apply(self, action: Action) -> State:
        """The state after a legal decision or chance outcome (IllegalActionError for one not
        legal now, InvalidActionError for a value that is no action of the game)."""
    def chance_outcomes(self) -> list[tuple[Any, float]] | None:
        """The outcomes and probabilities at a chance step; None elsewhere, and when there are
        too many to list (LEDA's shuffles)."""
    def sample_chance(self, seed: int = 0) -> Any | None:
        """One outcome of the pending chance step (native stream from `seed`); None elsewhere."""
    def sample_chance_from(self, rng: PythonRandom) -> Any | None:
        """One outcome of the pending chance step drawn from `rng` exactly as the Python
        engine's `sample_chance(state, rng)` draws it from a `random.Random` in the same state,
        advancing `rng`; None, with no draw, when no chance step is pending."""
    def action_to_str(self, action: Action) -> str: ...
    def action_from_str(self, text: str) -> Any: ...
    def action_to_json(self, action: Action) -> str: ...
    def action_from_json(self, json: str) -> Any: ...
    def returns(self) -> list[float]: ...
    def scores(self) -> list[float]: ...
    def evaluate(self) -> list[float]: ...
    def policy_weights(self, actions: Iterable[Action]) -> list[float]: ...
    def observe(self, seat: int) -> State:
        """`seat`'s view as a state: everything hidden from it canonical (what `to_json(seat)`
        decodes to; equal for any two states `seat` cannot tell apart)."""
    def determinize(self, observer: int, seed: int) -> State:
        """A full world consistent with all `observer` knows (native stream from `seed`): a
        determinization of `observer`'s view."""
    def __eq__(self, other: object) -> bool: ...

@final
class PythonRandom:
    """CPython's `random.Random(seed)` for an integer seed: the same stream, draw for draw."""

    def __init__(self, seed: int) -> None: ...
    @staticmethod
    def from_state(state: list[int]) -> PythonRandom:
        """The generator in the state of `random.Random.getstate()[1]` (624 words, then the
        position)."""
    def state(self) -> list[int]:
        """The state as `random.Random.getstate()[1]` gives it."""
    def random(self) -> float:
        """The next float in [0, 1)."""
    def getrandbits(self, k: int) -> int:
        """An int of `k` random bits (`k` from 0 to 2**24)."""
    def randrange(self, n: int) -> int:
        """A uniform int in `range(n)` (`n` > 0; ValueError otherwise)."""

@final
class CancelFlag:
    """A cancellation flag for `search`: call `cancel()` from any thread."""

    def __init__(self) -> None: ...
    def cancel(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...
    def __call__(self) -> bool:
        """True once cancelled: the flag is also a stop check."""

def search(
    state: State,
    seat: int,
    config: dict[str, Any] | None = None,
    seed: int = 0,
    cancel: CancelFlag | None = None,
    on_progress: Callable[[dict[str, Any]], object] | None = None,
    progress_every: int = 0,
    progress_ms: float = 0.0,
    search_forced: bool = False,
) -> dict[str, Any]:
    """ISMCTS for `seat` without the GIL; a dict mirroring `boardbot.search.api.SearchResult`.
    `on_progress` gets a partial result about every `progress_every` iterations and at most once
    per `progress_ms` (either may be 0); reports are coalesced, never queued. `search_forced`
    searches a position with one legal move too (else answered at once). A search that cannot
    run raises a SearchError: InvalidConfigError, InvalidSeatError, GameOverError,
    ChanceStepError or NotSeatToMoveError."""

@final
class Tree:
    """A search tree kept for the next search of the same seat in the same game, with the full
    state it searched; a search handed it consumes it and returns the tree it grew."""

    @property
    def nodes(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def consumed(self) -> bool: ...

def search_reusing(
    view: State,
    state: State,
    seat: int,
    config: dict[str, Any] | None = None,
    seed: int = 0,
    cancel: CancelFlag | None = None,
    on_progress: Callable[[dict[str, Any]], object] | None = None,
    progress_every: int = 0,
    previous: Tree | None = None,
    progress_ms: float = 0.0,
    search_forced: bool = False,
) -> tuple[dict[str, Any], Tree | None]:
    """`search` from the seat's `view`, growing on the node of `previous` that stands for the
    full `state` (docs/search.md, "Tree reuse between requests"); the result dict (with
    `reused` and `reused_visits`) and the tree to keep (`previous` after a single legal move,
    None from a root-parallel search)."""

def reuse_match(tree: Tree, state: State) -> tuple[list[Action], int] | None:
    """The node of `tree` that stands for the full `state`: (decisions from the old root,
    reused visits), or None; the tree is left as it is."""

def tree_from_edges(
    state: State, seat: int, edges: list[tuple[int, int, Action, int, int, float]]
) -> Tree:
    """A kept tree of `seat` grown from `state`, from `search/reuse.py` `export_edges`."""

@final
class Network:
    """A value and policy network read from the bytes of a `.bbnet` file (the twin of
    `boardbot.learn.network.Network`); raises InvalidNetworkError naming what is wrong."""

    def __init__(self, data: bytes) -> None: ...
    @property
    def game(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def feature_size(self) -> int: ...
    @property
    def action_feature_size(self) -> int: ...
    @property
    def features_version(self) -> int: ...
    @property
    def hidden(self) -> list[int]: ...
    def evaluate(self, features: list[float]) -> list[float]:
        """Each seat's expected reward (the sigmoid of the value head), rotated as the
        features."""
    def forward(self, features: list[float]) -> tuple[list[float], list[float]]:
        """(values, every policy head output)."""
    def policy_logits(self, features: list[float], actions: list[list[int]]) -> list[float]:
        """Each action's logit: the sum of the policy outputs at its action-feature indices."""
    def bench(self, features: list[float], actions: list[list[int]], iterations: int) -> float:
        """Seconds `iterations` evaluations (values and the logits of `actions`) take inside
        Rust, without the GIL."""
