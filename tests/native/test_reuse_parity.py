"""Tree reuse on the native core: the same walk as the Python reference (search/reuse.py) on
the same tree, and the native search growing on the node it finds."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import orjson
import pytest

from boardbot.engine import Game, State, get_game
from boardbot.search.api import SearchConfig
from boardbot.search.engines import native_twin
from boardbot.search.ismcts import search
from boardbot.search.native import NativeCoreError
from boardbot.search.reuse import KeptTree, export_edges, find_match, search_reusing
from tests.native import parity
from tests.search.positions import mid_game_decision
from tests.search.reuse_helpers import (
    OPTIONS,
    illegal_reusing_moves,
    play_along,
    tree_with_an_illegal_move,
)

pytestmark = pytest.mark.skipif(
    parity.boardbot_native is None,
    reason="boardbot_native is not built (run `make native`, which needs a Rust toolchain)",
)

CONFIG = SearchConfig(iterations=600, cutoff_depth=8, rollout="heuristic", early_stop=False)


def native_state(game: Game, state: State) -> Any:
    """The native twin's handle on the full `state`."""
    text = orjson.dumps(game.state_to_json(state)).decode()
    return native_twin(game.name).state_from_json(text)


@pytest.mark.parametrize("name", ["leda", "legend_raiders"])
def test_python_and_native_match_the_same_node_of_the_same_tree(name: str) -> None:
    game = get_game(name)
    module = parity.boardbot_native
    assert module is not None
    compared = matched = 0
    for seed in range(5, 17):
        state = mid_game_decision(name, OPTIONS[name], seed, 30)
        seat = game.current_player(state)
        _, kept = search_reusing(game, state, seat, CONFIG, seed, None, engine="python")
        assert kept is not None and kept.root is not None
        tree = module.tree_from_edges(native_state(game, state), seat, export_edges(kept.root))
        assert tree.nodes == kept.nodes and tree.seat == seat
        targets = [state]
        along = play_along(game, kept.root, state, seat, random.Random(seed))
        if along is not None:
            targets.append(along[0])
        targets.append(mid_game_decision(name, OPTIONS[name], seed + 100, 30))
        for target in targets:
            if game.current_player(target) != seat:
                continue
            python = find_match(game, kept.root, state, target, seat)
            native = module.reuse_match(tree, native_state(game, target))
            compared += 1
            if python is None:
                assert native is None
                continue
            matched += 1
            assert native is not None
            path, visits = native
            assert tuple(path) == python.path
            assert visits == python.reused_visits
    assert matched >= 12 and compared > matched


@pytest.mark.parametrize("name", ["leda", "legend_raiders"])
def test_the_native_search_grows_on_the_node_after_an_own_and_an_opponent_move(
    name: str,
) -> None:
    game = get_game(name)
    for seed in range(5, 30):
        state = mid_game_decision(name, OPTIONS[name], seed, 30)
        seat = game.current_player(state)
        _, python_kept = search_reusing(game, state, seat, CONFIG, 1, None, engine="python")
        assert python_kept is not None and python_kept.root is not None
        along = play_along(game, python_kept.root, state, seat, random.Random(3))
        if along is None:
            continue
        reached, played = along
        # The same tree on both engines: the native search's own tree, then its walk.
        result, kept = search_reusing(game, state, seat, CONFIG, 1, None, engine="native")
        assert kept is not None and kept.engine == "native" and not result.reused
        assert parity.boardbot_native is not None
        found = parity.boardbot_native.reuse_match(kept.handle, native_state(game, reached))
        if found is None or len(found[0]) < 2:
            continue
        again, kept_again = search_reusing(game, reached, seat, CONFIG, 2, kept, engine="native")
        assert kept.handle.consumed
        assert again.reused and again.reused_visits == found[1] > 0
        assert sum(m.visits for m in again.moves) == found[1] + CONFIG.iterations
        assert kept_again is not None and kept_again.nodes == again.nodes
        assert len(played) >= 2
        return
    pytest.fail("no position where the native walk found the node")


@pytest.mark.parametrize("name", ["leda", "legend_raiders"])
def test_no_native_match_is_exactly_the_native_search_without_reuse(name: str) -> None:
    game = get_game(name)
    other = mid_game_decision(name, OPTIONS[name], 8, 12)
    state = mid_game_decision(name, OPTIONS[name], 9, 40)
    seat = game.current_player(state)
    other_seat = game.current_player(other)
    _, kept = search_reusing(game, other, other_seat, CONFIG, 1, None, engine="native")
    result, _ = search_reusing(game, state, seat, CONFIG, 4, kept, engine="native")
    plain = search(game, state, seat, CONFIG, 4, engine="native")
    assert not result.reused and result.reused_visits == 0
    assert dataclasses.replace(result, elapsed_ms=0.0) == dataclasses.replace(
        plain, elapsed_ms=0.0
    )


def test_a_full_state_the_native_core_refuses_is_an_error_not_a_silent_fresh_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get_game("leda")
    state = mid_game_decision("leda", OPTIONS["leda"], 9, 40)
    seat = game.current_player(state)
    twin = native_twin("leda")
    _, kept = search_reusing(game, state, seat, CONFIG, 1, None, engine="native")
    reads = twin.state_from_json
    hidden = orjson.dumps(game.state_to_json(state)).decode()

    class Refusing:
        def state_from_json(self, text: str) -> Any:
            if text == hidden:
                raise ValueError("$.pending: refused")
            return reads(text)

    monkeypatch.setattr("boardbot.search.reuse.native_twin", lambda name: Refusing())
    # Python read the state, so a refusal is a parity fault: it is reported, not worked round.
    with pytest.raises(NativeCoreError, match="refused a valid state"):
        search_reusing(game, state, seat, CONFIG, 4, kept, engine="native")


@pytest.mark.parametrize("name", ["leda", "legend_raiders"])
def test_both_engines_drop_a_reused_root_move_the_position_does_not_allow(name: str) -> None:
    game = get_game(name)
    module = parity.boardbot_native
    assert module is not None
    state = mid_game_decision(name, OPTIONS[name], 9, 40)
    seat = game.current_player(state)
    legal = game.legal_actions(state)

    def previous(engine: str) -> tuple[KeptTree, Any]:
        kept, illegal, _ = tree_with_an_illegal_move(game, state, seat, OPTIONS[name])
        assert kept.root is not None
        if engine == "python":
            return kept, illegal
        edges = export_edges(kept.root)
        tree = module.tree_from_edges(native_state(game, state), seat, edges)
        assert tree.nodes == kept.nodes == 5
        return KeptTree(game.name, seat, state, tree.nodes, "native", handle=tree), illegal

    python_tree, _ = previous("python")
    native_tree, _ = previous("native")
    assert python_tree.root is not None
    python_match = find_match(game, python_tree.root, state, state, seat)
    assert python_match is not None and (python_match.path, python_match.reused_visits) == ((), 3)
    assert module.reuse_match(native_tree.handle, native_state(game, state)) == ([], 3)
    for iterations in (1, 60):
        config = CONFIG.replace(iterations=iterations)
        for engine in ("python", "native"):
            tree, illegal = previous(engine)
            result, kept = search_reusing(game, state, seat, config, 5, tree, engine=engine)
            assert result.reused and result.reused_visits == 3
            assert result.action in legal and result.action != illegal
            assert {m.action for m in result.moves} == set(legal)
            assert sum(m.visits for m in result.moves) == 3 + iterations
            for move in result.moves:
                if move.notation is not None:
                    assert move.principal_variation[0] == move.notation
            assert kept is not None and kept.nodes == result.nodes
            if iterations == 1:
                # The root and its legal move kept (the illegal move's subtree and the rival's
                # move dropped), and the one node the iteration grew: the same on both.
                assert result.nodes == 3


@pytest.mark.parametrize(("name", "seeds"), [("leda", range(6)), ("legend_raiders", range(4))])
def test_every_move_a_native_reusing_bot_chooses_is_legal(name: str, seeds: range) -> None:
    game = get_game(name)
    bots = ["medium@200+reuse=1", "medium@200+reuse=1"]
    for seed in seeds:
        assert illegal_reusing_moves(game, OPTIONS[name], bots, seed, "native") == []
