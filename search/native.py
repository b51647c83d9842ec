"""The search on the native core: a seat's view handed to `boardbot_native.search`, and back.

A request served natively hands over the view's handle itself (`search/native_game.py`); a
Python engine's view is handed over as its JSON."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any

import orjson

from boardbot.engine.api import Game, State, View
from boardbot.engine.errors import BoardbotError
from boardbot.search.api import (
    MoveStats,
    SearchConfig,
    SearchControls,
    SearchResult,
    StopReason,
)
from boardbot.search.engines import native_module
from boardbot.search.models import model_path
from boardbot.search.native_game import NativeGame

CANCEL_POLL_SECONDS = 0.005
"""How often a cancellation callback is polled while the native search runs."""


class NativeCoreError(BoardbotError, RuntimeError):
    """The native core refused what the Python engine accepted: a fault of boardbot's."""


def native_config(config: SearchConfig) -> dict[str, Any]:
    """The configuration as the keys the native search accepts (every SearchConfig field; a
    model as its file's path)."""
    module = native_module()
    keys = module.CONFIG_KEYS if module is not None else ()
    if module is not None:
        default = SearchConfig()
        unknown = [
            f.name
            for f in dataclasses.fields(config)
            if f.name not in keys and getattr(config, f.name) != getattr(default, f.name)
        ]
        if unknown:
            raise NativeCoreError(
                f"the native core predates {', '.join(unknown)}: rebuild it (make native)"
            )
    settings = {key: getattr(config, key) for key in keys}
    if config.model is not None:
        settings["model"] = str(model_path(config.model))
    return settings


def search_native(
    twin: Any,
    game: Game,
    view: View,
    config: SearchConfig,
    seed: int,
    controls: SearchControls,
) -> SearchResult:
    """The native search of a checked request from `view`; the result as the Python search's.

    The native core receives exactly the seat's view (its JSON), so it cannot peek either.
    """
    raw, _ = _run(twin, game, view, config, seed, controls, None)
    return _result(raw, controls.shown)


def search_native_reusing(
    twin: Any,
    game: Game,
    view: View,
    state: State,
    config: SearchConfig,
    seed: int,
    controls: SearchControls,
    previous: Any,
) -> tuple[SearchResult, Any]:
    """`search_native` growing on the node of `previous` (a native tree from an earlier
    search of the seat, or None) that stands for the full `state`; the result and the native
    tree to keep (None from a root-parallel search). See `search/reuse.py`."""
    raw, kept = _run(twin, game, view, config, seed, controls, (state, previous))
    return _result(raw, controls.shown), kept


def _run(
    twin: Any,
    game: Game,
    view: View,
    config: SearchConfig,
    seed: int,
    controls: SearchControls,
    reuse: tuple[State, Any] | None,
) -> tuple[dict[str, Any], Any]:
    module = native_module()
    if module is None:
        raise NativeCoreError("the native core is not built")
    native_view = _native_state(twin, game, view.state, view.seat)
    full = None if reuse is None else _native_state(twin, game, reuse[0], None)
    should_stop, on_progress, shown = controls.should_stop, controls.on_progress, controls.shown
    done = threading.Event()
    if isinstance(should_stop, module.CancelFlag):
        flag, watcher = should_stop, None  # cancelled directly: nothing to poll
    else:
        flag = module.CancelFlag()
        watcher = _cancel_watcher(should_stop, flag, done) if should_stop else None

    def progress(partial: dict[str, Any]) -> None:
        if on_progress is not None:
            on_progress(_result(partial, shown))

    paced = controls.progress_every > 0 or controls.progress_ms > 0
    callback = progress if on_progress is not None and paced else None
    kept = None
    # Only when asked: a core that predates the option still serves every other search.
    forced = {"search_forced": True} if controls.search_forced else {}
    try:
        if reuse is None:
            raw = module.search(
                native_view,
                view.seat,
                native_config(config),
                seed & 0xFFFF_FFFF_FFFF_FFFF,
                flag,
                callback,
                controls.progress_every,
                progress_ms=controls.progress_ms,
                **forced,
            )
        else:
            raw, kept = module.search_reusing(
                native_view,
                full,
                view.seat,
                native_config(config),
                seed & 0xFFFF_FFFF_FFFF_FFFF,
                flag,
                callback,
                controls.progress_every,
                reuse[1],
                progress_ms=controls.progress_ms,
                **forced,
            )
    except module.SearchError as error:
        raise NativeCoreError(f"the native search refused a checked request: {error}") from None
    finally:
        done.set()
        if watcher is not None:
            watcher.join()
    return raw, kept


def _native_state(twin: Any, game: Game, state: State, observer: int | None) -> Any:
    """`state` as a native handle: itself when `game` is served natively (the request's state
    was decoded by the native core), else its JSON (a seat's view: `observer`) decoded by
    `twin`."""
    if isinstance(game, NativeGame):
        return state
    text = orjson.dumps(game.state_to_json(state, observer)).decode()
    try:
        return twin.state_from_json(text)
    except ValueError as error:
        raise NativeCoreError(f"the native core refused a valid state: {error}") from None


def _cancel_watcher(
    should_stop: Callable[[], bool], flag: Any, done: threading.Event
) -> threading.Thread:
    """A thread that cancels the native search once `should_stop()` says so."""

    def watch() -> None:
        while not done.wait(CANCEL_POLL_SECONDS):
            if should_stop():
                flag.cancel()
                return

    thread = threading.Thread(target=watch, name="native-search-cancel", daemon=True)
    thread.start()
    return thread


def _result(raw: dict[str, Any], shown: int | None) -> SearchResult:
    """A native result dict as a SearchResult, describing only the `shown` moves and the chosen."""
    if "seat_values" not in raw or any("principal_variation_seats" not in m for m in raw["moves"]):
        raise NativeCoreError(
            "the native core predates seat_values and principal_variation_seats: rebuild it "
            "(make native)"
        )
    moves = []
    for rank, entry in enumerate(raw["moves"]):
        described = shown is None or rank < shown or entry["action"] == raw["action"]
        moves.append(
            MoveStats(
                action=entry["action"],
                notation=entry["notation"] if described else None,
                visits=entry["visits"],
                mean_value=entry["mean_value"],
                lower_bound=entry["lower_bound"],
                principal_variation=tuple(entry["principal_variation"]) if described else (),
                principal_variation_seats=(
                    tuple(entry["principal_variation_seats"]) if described else ()
                ),
                prior=entry.get("prior") if described else None,
                net_value=entry.get("net_value") if described else None,
                seat_values=tuple(entry["seat_values"]),
            )
        )
    return SearchResult(
        action=raw["action"],
        notation=raw["notation"],
        seat=raw["seat"],
        iterations=raw["iterations"],
        elapsed_ms=raw["elapsed_ms"],
        moves=tuple(moves),
        stopped_by=StopReason(raw["stopped_by"]),
        nodes=raw["nodes"],
        reused=bool(raw.get("reused", False)),
        reused_visits=int(raw.get("reused_visits", 0)),
        seat_values=tuple(raw["seat_values"]),
    )
