"""The native search honours priors and progressive widening, with Python's exact counts."""

from __future__ import annotations

import json
import math
import types

import pytest

from boardbot.engine import get_game
from boardbot.search import native as native_search
from boardbot.search.api import SearchConfig, SearchResult
from boardbot.search.engines import Engine
from boardbot.search.ismcts import search
from boardbot.search.native import NativeCoreError, native_config
from tests.native import parity
from tests.search.figures import figures
from tests.search.positions import mid_game_decision

pytestmark = pytest.mark.skipif(
    parity.boardbot_native is None,
    reason="boardbot_native is not built (run `make native`, which needs a Rust toolchain)",
)

BASE = SearchConfig(iterations=120, cutoff_depth=8, rollout="heuristic", early_stop=False)


def expanded_after(iterations: int, k: float, alpha: float, moves: int) -> int:
    """Root children after `iterations` under widening (see tests/search)."""
    children = 0
    for visits in range(1, iterations + 1):
        if children < moves and (children == 0 or children < math.ceil(k * visits**alpha)):
            children += 1
    return children


def visited(result: SearchResult) -> set[str | None]:
    """The notations of the root moves that got at least one visit."""
    return {m.notation for m in result.moves if m.visits > 0}


@pytest.mark.parametrize(("name", "options"), [("leda", {}), ("legend_raiders", {"players": 2})])
def test_the_fields_reach_the_native_core(name: str, options: dict[str, object]) -> None:
    config = BASE.replace(prior_weight=1.5, widening=2.0, widening_exponent=0.25)
    keys = native_config(config)
    assert (keys["prior_weight"], keys["widening"], keys["widening_exponent"]) == (1.5, 2.0, 0.25)
    game = get_game(name)
    state = mid_game_decision(name, options, 3, 30)
    seat = game.current_player(state)
    plain = search(game, state, seat, BASE, 6, engine=Engine.NATIVE)
    explicit = BASE.replace(prior_weight=0.0, widening=0.0)
    assert figures(search(game, state, seat, explicit, 6, engine=Engine.NATIVE)) == figures(plain)


@pytest.mark.parametrize("prior_weight", [0.0, 1.0])
def test_widening_caps_the_root_alike_in_python_and_native(prior_weight: float) -> None:
    game = get_game("leda")
    state = mid_game_decision("leda", {}, 0, 60)
    seat = game.current_player(state)
    legal = len(game.legal_actions(state))
    config = BASE.replace(prior_weight=prior_weight, widening=1.0, widening_exponent=0.5)
    expected = min(legal, expanded_after(120, 1.0, 0.5, legal))
    assert expected < legal
    python = search(game, state, seat, config, 4, engine=Engine.PYTHON)
    native = search(game, state, seat, config, 4, engine=Engine.NATIVE)
    assert len(visited(python)) == len(visited(native)) == expected
    if prior_weight > 0:
        # The prior orders the expansions (ties in legal order): the same moves on both.
        assert visited(python) == visited(native)


def test_native_refuses_out_of_range_values() -> None:
    native = parity.boardbot_native
    assert native is not None
    game = get_game("leda")
    state = mid_game_decision("leda", {}, 0, 60)
    twin = native.Leda().state_from_json(json.dumps(game.state_to_json(state)))
    seat = game.current_player(state)
    for key, value, message in [
        ("prior_weight", -1.0, "prior_weight must be a finite number >= 0"),
        ("widening", -0.5, "widening must be a finite number >= 0"),
        ("widening_exponent", 2.0, r"widening_exponent must lie in \[0, 1\]"),
    ]:
        with pytest.raises(native.SearchError, match=message):
            native.search(twin, seat, {"iterations": 10, key: value}, 0)


def test_an_older_native_core_is_refused_rather_than_ignoring_the_fields(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    native = parity.boardbot_native
    assert native is not None
    older = types.SimpleNamespace(
        CONFIG_KEYS=tuple(k for k in native.CONFIG_KEYS if k != "prior_weight")
    )
    monkeypatch.setattr(native_search, "native_module", lambda: older)
    assert "prior_weight" not in native_search.native_config(BASE)
    with pytest.raises(NativeCoreError, match="predates prior_weight"):
        native_search.native_config(BASE.replace(prior_weight=1.0))
