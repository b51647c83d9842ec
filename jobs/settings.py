"""Search settings of a request: preset, explicit overrides, server caps and the deadline."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from boardbot.engine.errors import echo
from boardbot.jobs.failures import Reason, deadline_exceeded, invalid_argument, not_found
from boardbot.jobs.request_bounds import (
    MAX_EXPLORATION,
    MAX_FPU,
    MAX_NAME_CHARS,
    MAX_PUCT,
    MAX_TEMPERATURE,
)
from boardbot.jobs.strength import EloTarget, check_target
from boardbot.search.api import SearchConfig
from boardbot.search.engines import Engine
from boardbot.search.errors import InvalidConfigError
from boardbot.search.models import (
    AUTO_MODEL,
    NO_MODEL,
    is_model_name,
    model_path,
    shipped_models,
)
from boardbot.search.presets import UnknownPresetError, preset_names, resolve_preset
from boardbot.search.strength.table import FAMILY

OVERRIDABLE = (
    "iterations",
    "time_ms",
    "workers",
    "exploration",
    "temperature",
    "model",
    "leaf_lambda",
    "puct",
    "fpu",
)
"""SearchConfig fields a request may set explicitly (the proto's SearchSettings)."""

MODEL_SETTINGS = ("leaf_lambda", "puct", "fpu")
"""The settings of a search with a model (shown with the settings used only when it has one)."""


@dataclass(frozen=True)
class Limits:
    """Server-side caps on what one request may ask of the search."""

    max_iterations: int = 1_000_000
    max_time_ms: float = 30_000.0
    """Longest any search runs, presets and iteration budgets included (the server's bound)."""
    max_workers: int = 1
    deadline_margin_ms: float = 30.0
    """Time kept back from a client deadline for sending the answer."""
    min_search_ms: float = 5.0
    """A deadline leaving less than this (after the margin) is refused at once."""
    watchdog_margin_ms: float = 1_000.0
    """A worker still busy this long after its request's deadline (or its search's time
    bound) is killed and replaced, and the request answered DEADLINE_EXCEEDED."""
    max_reviews: int = 4
    """Game reviews (ReviewGame) running at once; one more is refused RESOURCE_EXHAUSTED."""
    max_call_ms: float = 5_000.0
    """Longest a rules call (NewGame, LegalMoves, ApplyMove, ViewState) may take without a
    deadline."""


def default_preset_name() -> str:
    """The preset used when a request names none."""
    names = preset_names()
    return "medium" if "medium" in names else names[len(names) // 2]


def resolve(
    preset: str,
    overrides: dict[str, Any],
    limits: Limits,
    game: str | None = None,
    engine: Engine | str = Engine.AUTO,
    *,
    analysis: bool = False,
) -> SearchConfig:
    """The preset's configuration for `game` on the engine its search runs on (the server's
    per-game `engine`, as the SearchJob gets it; for an `analysis`, the preset's analysis
    budget), with explicit overrides applied and checked against limits."""
    name = preset or default_preset_name()
    try:
        if len(name) > MAX_NAME_CHARS:
            raise UnknownPresetError(name, preset_names())
        config = resolve_preset(name, game, engine, analysis=analysis)
    except UnknownPresetError as error:
        raise not_found(
            f"preset: unknown preset {echo(name)}; known: {', '.join(error.known)}",
            Reason.UNKNOWN_PRESET,
            "preset",
        ) from None
    for key, value in overrides.items():
        if key not in OVERRIDABLE:
            raise invalid_argument(
                f"settings.{key}: not a search setting", Reason.INVALID_SETTINGS, f"settings.{key}"
            )
        _check_override(key, value, limits)
    if overrides.get("model") == NO_MODEL:
        overrides = {**overrides, "model": None}
    config = config.replace(**overrides)
    # The server's bound applies to every search, whatever budget the preset or request set.
    if config.time_ms is None or config.time_ms > limits.max_time_ms:
        config = config.replace(time_ms=limits.max_time_ms)
    if config.workers > limits.max_workers:
        config = config.replace(workers=limits.max_workers)
    return config


def resolve_elo(
    target: float,
    preset: str,
    overrides: dict[str, Any],
    limits: Limits,
    game: str,
    player_counts: range,
    engine: Engine | str = Engine.AUTO,
) -> tuple[SearchConfig, EloTarget]:
    """The knob's family configuration (budget set per state by the worker, see
    `jobs.strength.resolve_target`) with the server's caps, and the checked target."""
    elo = check_target(
        target, preset, overrides, game, player_counts, engine, limits.max_iterations
    )
    return resolve(FAMILY, overrides, limits, game, engine), elo


def _check_override(key: str, value: Any, limits: Limits) -> None:
    if key == "iterations" and not 1 <= value <= limits.max_iterations:
        _bad_setting(key, f"must be in 1..{limits.max_iterations}, got {value}")
    if key == "time_ms" and not (math.isfinite(value) and 0 < value <= limits.max_time_ms):
        _bad_setting(key, f"must be in (0, {limits.max_time_ms:g}] milliseconds, got {value}")
    if key == "workers" and not 1 <= value <= limits.max_workers:
        _bad_setting(key, f"must be in 1..{limits.max_workers}, got {value}")
    if key == "exploration" and not (math.isfinite(value) and 0 <= value <= MAX_EXPLORATION):
        _bad_setting(key, f"must be a number in [0, {MAX_EXPLORATION:g}], got {value}")
    if key == "temperature" and not (math.isfinite(value) and 0 <= value <= MAX_TEMPERATURE):
        _bad_setting(key, f"must be a number in [0, {MAX_TEMPERATURE:g}], got {value}")
    if key == "model":
        check_model_name(value)
    if key == "leaf_lambda" and not (math.isfinite(value) and 0 <= value <= 1):
        _bad_setting(key, f"must be a number in [0, 1], got {value}")
    if key == "puct" and not (math.isfinite(value) and 0 <= value <= MAX_PUCT):
        _bad_setting(key, f"must be a number in [0, {MAX_PUCT:g}], got {value}")
    if key == "fpu" and not (math.isfinite(value) and -MAX_FPU <= value <= MAX_FPU):
        _bad_setting(key, f"must be a number in [{-MAX_FPU:g}, {MAX_FPU:g}], got {value}")


def check_model_name(name: str) -> None:
    """INVALID_ARGUMENT (INVALID_SETTINGS, `settings.model`) unless `name` names a model the
    server ships, `auto` or `none`: a request names no file of the server's, so a path is
    refused."""
    if name in (AUTO_MODEL, NO_MODEL):
        return
    if len(name) > MAX_NAME_CHARS or not is_model_name(name):
        _bad_setting(
            "model",
            f"must be auto, none or the name of a shipped model (<game>-<players>p, e.g. "
            f"leda-2p), not a path; got {echo(name[:MAX_NAME_CHARS])} (shipped: {_shipped()})",
        )
    try:
        model_path(name)
    except InvalidConfigError:
        _bad_setting("model", f"no shipped model named {echo(name)} (shipped: {_shipped()})")


def _shipped() -> str:
    """The shipped models' names, for an error message (the folder is read only then)."""
    return ", ".join(shipped_models()) or "none"


def _bad_setting(key: str, why: str) -> None:
    raise invalid_argument(f"settings.{key}: {why}", Reason.INVALID_SETTINGS, f"settings.{key}")


def clip_to_deadline(
    config: SearchConfig, time_remaining_s: float | None, limits: Limits, now: float
) -> SearchConfig:
    """Set the search's absolute deadline from the client's, keeping the answer margin."""
    if time_remaining_s is None or math.isinf(time_remaining_s):
        return config
    usable_ms = time_remaining_s * 1000.0 - limits.deadline_margin_ms
    if usable_ms < limits.min_search_ms:
        raise deadline_exceeded(
            f"the deadline leaves {time_remaining_s * 1000.0:.0f} ms, less than the "
            f"{limits.deadline_margin_ms + limits.min_search_ms:.0f} ms a search needs",
            Reason.DEADLINE_TOO_SHORT,
        )
    deadline = now + usable_ms / 1000.0
    if config.deadline is not None:
        deadline = min(deadline, config.deadline)
    return config.replace(deadline=deadline)
