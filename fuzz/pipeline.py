"""One case through the engine: decode, round trips, views, determinize, moves, a playout."""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import orjson

from boardbot.engine import CHANCE, EngineError, Game, State, get_game
from fuzz import invariants, twin
from fuzz.cases import Case

T = TypeVar("T")

REPO_ROOT = Path(__file__).resolve().parent.parent
MESSAGE_LIMIT = 1000
"""Longest acceptable error message, in characters."""


class Hang(BaseException):
    """Raised by the watchdog alarm inside a call that takes too long (not an Exception, so
    no `except Exception` in the code under test swallows it)."""


@dataclass(frozen=True)
class Limits:
    """How hard one case pushes and what counts as too slow."""

    slow_seconds: float = 1.0
    """A single engine call taking longer than this is a failure."""
    legal_checks: int = 3
    """Legal moves per state round-tripped through both notations and applied."""
    playout_steps: int = 12
    """Random steps played from the decoded state."""
    twin: bool = True
    """Check the state, its chance outcomes and moves against the native twin (if built)."""


@dataclass
class Failure:
    """What went wrong in a case: kind, the step it happened in, the error and where."""

    kind: str
    """exception, engine-error, long-message, bad-error, slow, hang, encode, re-decode,
    round-trip, view, determinize, stuck, illegal-accepted, rule (a rule invariant broken),
    twin-decode, twin-parse, twin-apply, twin-state (the Python and native engines disagree)."""
    step: str
    error: str = ""
    message: str = ""
    where: str = ""
    """file:line of the innermost frame of the repository code that raised (if any)."""
    seconds: float = 0.0

    def signature(self) -> str:
        """The failure class: kind, step, error type and location."""
        return "|".join((self.kind, self.step.split("[")[0], self.error, self.where))

    def to_json(self) -> dict[str, Any]:
        """A JSON object of this failure."""
        return {
            "kind": self.kind, "step": self.step, "error": self.error,
            "message": self.message, "where": self.where, "seconds": round(self.seconds, 3),
        }


class CaseFailure(Exception):
    """Stops a case with the failure found."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.kind)
        self.failure = failure


@dataclass
class CaseResult:
    """The outcome of a case: ok, rejected (a documented engine error) or failure."""

    outcome: str
    failure: Failure | None = None
    move: str = "none"
    """What happened to the case's move: none, rejected, accepted, skipped."""
    error_message: str = ""
    """The message of the engine error that rejected the state or move (for the report)."""
    extra: dict[str, Any] = field(default_factory=dict)


def cut(text: str, limit: int = 600) -> str:
    """`text` cut to `limit` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters in all)"


def where(error: BaseException) -> str:
    """file:line of the innermost frame of this repository (outside fuzz/) in the traceback."""
    found = ""
    for frame in traceback.extract_tb(error.__traceback__):
        path = Path(frame.filename)
        try:
            relative = path.resolve().relative_to(REPO_ROOT)
        except ValueError:
            continue
        if relative.parts and relative.parts[0] not in ("fuzz", ".venv"):
            found = f"{relative}:{frame.lineno}"
    return found


class Runner:
    """Runs cases of one game; every engine call is timed and its errors classified."""

    def __init__(self, game: Game, limits: Limits) -> None:
        self.game = game
        self.limits = limits
        self.step = ""
        native = twin.native_engine(game.name) if limits.twin else None
        self.twins: tuple[twin.Engine, twin.Engine] | None = (
            (twin.PythonEngine(game), native) if native is not None else None
        )

    def call(self, step: str, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)`, timed; an exception other than EngineError becomes a failure."""
        self.step = step
        start = time.perf_counter()
        try:
            result = fn(*args)
        except EngineError:
            raise
        except Exception as error:
            raise CaseFailure(
                Failure(
                    "exception", step, type(error).__name__,
                    cut(f"{type(error).__name__}: {error}"), where(error),
                )
            ) from None
        elapsed = time.perf_counter() - start
        if elapsed > self.limits.slow_seconds:
            raise CaseFailure(
                Failure("slow", step, "", f"one call took {elapsed:.2f} s", seconds=elapsed)
            )
        return result

    def strict(self, step: str, fn: Callable[..., T], *args: Any) -> T:
        """`call`, where even an EngineError is a failure (the engine refusing its own output)."""
        try:
            return self.call(step, fn, *args)
        except EngineError as error:
            raise CaseFailure(
                Failure("engine-error", step, type(error).__name__, cut(str(error)), where(error))
            ) from None

    def check_error(self, step: str, error: EngineError) -> str:
        """The message of a documented engine error, or a failure if it is malformed or long."""
        message = str(error)
        if len(message) > MESSAGE_LIMIT:
            raise CaseFailure(
                Failure(
                    "long-message", step, type(error).__name__,
                    f"{len(message)} characters: {cut(message, 300)}", where(error),
                )
            )
        path, reason = getattr(error, "path", None), getattr(error, "reason", None)
        if not isinstance(path, str) or not path.startswith("$") or not isinstance(reason, str):
            raise CaseFailure(
                Failure(
                    "bad-error", step, type(error).__name__,
                    f"path {path!r}, reason {reason!r}", where(error),
                )
            )
        return message

    # -- the case ---------------------------------------------------------------------------

    def run(self, case: Case, doc: Any) -> CaseResult:
        """Run `case` on its (already mutated) document `doc`."""
        game = self.game
        try:
            state = self.call("decode", game.state_from_json, doc)
        except EngineError as error:
            self.check_twin(doc, case.rng_seed)
            return CaseResult("rejected", error_message=self.check_error("decode", error))
        rng = random.Random(case.rng_seed)
        self.round_trip("encode", state)
        self.check_rules("decode", state)
        self.check_twin(doc, case.rng_seed)
        players = self.strict("num_players", game.num_players, state)
        for seat in range(players):
            self.check_view(state, seat)
        for seat in range(players):
            self.check_determinize(state, seat, rng)
        self.check_next_states(state, rng)
        move = self.check_move(case, state, doc)
        self.playout(state, rng)
        return CaseResult("ok", move=move)

    def check_rules(self, step: str, state: State) -> None:
        """The rule invariants of the game (`fuzz/invariants.py`) on a state it accepted or
        reached, as the engine encodes it."""
        game = self.game
        doc = self.strict(f"{step} to_json", game.state_to_json, state, None)
        problem = invariants.check(game.name, doc, self.strict(step, game.is_terminal, state))
        if problem:
            raise CaseFailure(Failure("rule", step, game.name, cut(problem)))

    def check_twin(self, doc: Any, seed: int) -> None:
        """Both engines take or refuse the document alike; what either writes of its chance
        outcomes and moves, the other reads back the same and applies (`fuzz/twin.py`)."""
        if self.twins is None:
            return
        self.step = "twin"
        start = time.perf_counter()
        try:
            found = twin.cross_check(self.twins, doc, random.Random(seed ^ 0x7457))
        except Exception as error:
            raise CaseFailure(
                Failure("exception", "twin", type(error).__name__,
                        cut(f"{type(error).__name__}: {error}"), where(error))
            ) from None
        if found is not None:
            raise CaseFailure(Failure(found.kind, "twin", found.key, cut(found.message)))
        elapsed = time.perf_counter() - start
        if elapsed > self.limits.slow_seconds:
            raise CaseFailure(
                Failure("slow", "twin", "", f"the twin check took {elapsed:.2f} s",
                        seconds=elapsed)
            )

    def round_trip(self, step: str, state: State, observer: int | None = None) -> bytes:
        """Encode `state`, re-decode it, encode again: the two documents must be equal."""
        game = self.game
        doc = self.strict(f"{step} to_json", game.state_to_json, state, observer)
        try:
            raw = orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)
        except (orjson.JSONEncodeError, TypeError) as error:
            raise CaseFailure(
                Failure("encode", step, type(error).__name__, cut(str(error)))
            ) from None
        back = self.call_redecode(step, orjson.loads(raw))
        again = self.strict(f"{step} to_json", game.state_to_json, back, observer)
        raw_again = orjson.dumps(again, option=orjson.OPT_SORT_KEYS)
        if raw_again != raw:
            raise CaseFailure(
                Failure("round-trip", step, "", f"differs at {first_difference(doc, again)}")
            )
        return raw

    def call_redecode(self, step: str, doc: Any) -> State:
        """Decode a document the engine wrote: any error is a failure."""
        try:
            return self.call(f"{step} re-decode", self.game.state_from_json, doc)
        except EngineError as error:
            raise CaseFailure(
                Failure("re-decode", step, type(error).__name__, cut(str(error)), where(error))
            ) from None

    def check_view(self, state: State, seat: int) -> None:
        """The seat's view decodes, and gives the same view back."""
        self.round_trip(f"view[{seat}]", state, seat)

    def check_determinize(self, state: State, seat: int, rng: random.Random) -> None:
        """A determinized world is a valid state the seat cannot tell from the original."""
        game = self.game
        step = f"determinize[{seat}]"
        view = self.strict(step, game.observe, state, seat)
        world = self.strict(step, game.determinize, view, rng)
        self.round_trip(step, world)
        if self.strict(step, game.observe, world, seat) != view:
            raise CaseFailure(Failure("determinize", step, "", "the seat's observed view changed"))
        seen = self.strict(step, game.state_to_json, state, seat)
        if self.strict(step, game.state_to_json, world, seat) != seen:
            raise CaseFailure(Failure("determinize", step, "", "the seat's view changed"))
        if self.strict(step, game.current_player, world) != game.current_player(state):
            raise CaseFailure(Failure("determinize", step, "", "another seat is to move"))

    def legal(self, state: State, step: str) -> list[Any]:
        """The legal moves of a decision state; a failure if there are none."""
        actions = list(self.strict(step, self.game.legal_actions, state))
        if not actions:
            raise CaseFailure(Failure("stuck", step, "", "a seat is to move but has no move"))
        return actions

    def check_next_states(self, state: State, rng: random.Random) -> None:
        """A few legal moves (or a chance outcome) survive both notations and apply cleanly."""
        game = self.game
        player = self.strict("current_player", game.current_player, state)
        if player == CHANCE:
            outcome = self.strict("sample_chance", game.sample_chance, state, rng)
            self.round_trip("apply chance", self.strict("apply chance", game.apply, state, outcome))
            return
        if self.strict("is_terminal", game.is_terminal, state):
            return
        actions = self.legal(state, "legal")
        for action in rng.sample(actions, min(self.limits.legal_checks, len(actions))):
            text = self.strict("action_to_str", game.action_to_str, state, action)
            doc = orjson.loads(orjson.dumps(self.strict("action_to_json", game.action_to_json,
                                                        state, action)))
            if self.strict("action_from_str", game.action_from_str, state, text) != action:
                raise CaseFailure(Failure("round-trip", "action_from_str", "", f"{text!r}"))
            if self.strict("action_from_json", game.action_from_json, state, doc) != action:
                raise CaseFailure(Failure("round-trip", "action_from_json", "", f"{doc!r}"))
            self.round_trip("apply legal", self.strict("apply legal", game.apply, state, action))

    def check_move(self, case: Case, state: State, doc: Any) -> str:
        """Parse the case's move; if accepted it must be legal and apply cleanly."""
        game = self.game
        spec = case.move
        if spec.kind == "none" or game.current_player(state) < 0:
            return "none" if spec.kind == "none" else "skipped"
        actions = self.legal(state, "legal")
        forms = [
            (
                game.action_to_str(state, a),
                orjson.loads(orjson.dumps(game.action_to_json(state, a))),
            )
            for a in actions
        ]
        spec.resolve(forms, doc)
        move = spec.value()
        parse = game.action_from_str if spec.kind == "text" else game.action_from_json
        try:
            action = self.call("parse move", parse, state, move)
        except EngineError as error:
            self.check_error("parse move", error)
            return "rejected"
        if action not in actions:
            raise CaseFailure(
                Failure(
                    "illegal-accepted", "parse move", "", f"{cut(repr(move), 200)} → {action!r}"
                )
            )
        self.round_trip("apply move", self.strict("apply move", game.apply, state, action))
        return "accepted"

    def playout(self, state: State, rng: random.Random) -> None:
        """A short random continuation; the state reached must round-trip."""
        game = self.game
        for _ in range(self.limits.playout_steps):
            if self.strict("playout", game.is_terminal, state):
                self.check_rules("playout", state)
                break
            if self.strict("playout", game.current_player, state) == CHANCE:
                action = self.strict("playout", game.sample_chance, state, rng)
            else:
                actions = self.legal(state, "playout")
                action = actions[rng.randrange(len(actions))]
            state = self.strict("playout", game.apply, state, action)
        self.round_trip("playout", state)


def first_difference(a: Any, b: Any, path: str = "$") -> str:
    """The JSON path of the first place two documents differ."""
    stack = [(a, b, path)]
    while stack:
        x, y, here = stack.pop()
        if isinstance(x, dict) and isinstance(y, dict):
            for key in sorted(set(x) | set(y), key=str):
                if key not in x or key not in y:
                    return f"{here}.{key}"
                stack.append((x[key], y[key], f"{here}.{key}"))
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return f"{here} (length {len(x)} vs {len(y)})"
            stack.extend((i, j, f"{here}[{n}]") for n, (i, j) in enumerate(zip(x, y, strict=True)))
        elif x != y:
            return f"{here} ({cut(repr(x), 60)} vs {cut(repr(y), 60)})"
    return "nowhere"


def run_case(case: Case, limits: Limits, doc: Any = None) -> CaseResult:
    """Run one case (on `doc` if given, else on the case's mutated document); a Hang raised
    by an alarm is turned into a failure naming the step it interrupted."""
    runner = Runner(get_game(case.game), limits)
    try:
        return runner.run(case, case.document() if doc is None else doc)
    except CaseFailure as stop:
        return CaseResult("failure", stop.failure)
    except Hang as error:
        return CaseResult(
            "failure", Failure("hang", runner.step, "", "a call did not return", where(error))
        )
