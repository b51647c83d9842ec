"""Tree reuse between searches of one seat (search/reuse.py), on the Python reference."""

from __future__ import annotations

import dataclasses
import random

import pytest

from boardbot.engine import CHANCE, get_game
from boardbot.search.api import SearchConfig, SearchResult, StopReason
from boardbot.search.bots import MctsBot, UnknownBotError, make_bot
from boardbot.search.engines import Engine
from boardbot.search.ismcts import search
from boardbot.search.reuse import KeptTree, find_match, search_reusing, seat_visits
from boardbot.search.tree import Node
from boardbot.search.tree_search import subtree_size
from boardbot.tools.match import play_game, summarize
from tests.search.positions import mid_game_decision
from tests.search.reuse_helpers import (
    OPTIONS,
    illegal_reusing_moves,
    play_along,
    tree_with_an_illegal_move,
)

CONFIG = SearchConfig(iterations=600, cutoff_depth=8, rollout="heuristic", early_stop=False)


def comparable(result: SearchResult) -> SearchResult:
    """The result without its timing."""
    return dataclasses.replace(result, elapsed_ms=0.0)


def root_visits(result: SearchResult) -> int:
    return sum(move.visits for move in result.moves)


@pytest.mark.parametrize("name", ["leda", "legend_raiders"])
def test_reuse_finds_the_node_after_an_own_and_an_opponent_move(name: str) -> None:
    game = get_game(name)
    state = mid_game_decision(name, OPTIONS[name], 5, 30)
    seat = game.current_player(state)
    result, kept = search_reusing(game, state, seat, CONFIG, 1, None, engine="python")
    assert not result.reused and result.reused_visits == 0
    assert kept is not None and kept.root is not None and kept.nodes == result.nodes
    along = play_along(game, kept.root, state, seat, random.Random(3))
    assert along is not None
    reached, played = along
    assert len(played) >= 2 and game.current_player(reached) == seat
    match = find_match(game, kept.root, state, reached, seat)
    assert match is not None
    # The moves played, or the same moves in another order reaching the same view.
    assert sorted(map(repr, match.path)) == sorted(map(repr, played))
    node: Node = kept.root
    for action in match.path:
        node = next(k[action] for k in node.children.values() if action in k)
    assert match.node is node
    # The node's visits for the seat in moves legal there (it may hold others, grown in
    # worlds of the old position).
    legal = set(game.legal_actions(reached))
    assert match.reused_visits == seat_visits(node, seat, legal) > 0
    again, kept_again = search_reusing(game, reached, seat, CONFIG, 2, kept, engine="python")
    assert again.reused and again.reused_visits == match.reused_visits
    assert root_visits(again) == match.reused_visits + CONFIG.iterations
    assert again.iterations == CONFIG.iterations
    assert kept_again is not None and kept_again.root is match.node


def test_seat_sums_are_kept_when_the_match_is_the_old_root_only() -> None:
    game = get_game("legend_raiders")
    state = mid_game_decision("legend_raiders", OPTIONS["legend_raiders"], 5, 30)
    seat = game.current_player(state)
    result, kept = search_reusing(game, state, seat, CONFIG, 1, None, engine="python")
    assert kept is not None and kept.root is not None and kept.root_sums is not None
    assert result.seat_values[seat] == result.moves[0].mean_value
    # The same position again: the match is the old root, its edges keep every seat's sums.
    again, kept_again = search_reusing(game, state, seat, CONFIG, 2, kept, engine="python")
    assert again.reused and kept_again is not None and kept_again.root is kept.root
    assert kept_again.root_sums is not None
    children = list(kept.root.children[seat].values())
    assert all(kept_again.root_sums[c].visits == c.visits for c in children if c.visits)
    # Further on: the matched node's edges bring their visits, not every seat's sums.
    _, kept = search_reusing(game, state, seat, CONFIG, 1, None, engine="python")
    assert kept is not None and kept.root is not None
    along = play_along(game, kept.root, state, seat, random.Random(3))
    assert along is not None
    reached = along[0]
    match = find_match(game, kept.root, state, reached, seat)
    assert match is not None and match.path and match.node is not None
    before = {id(c): c.visits for c in match.node.children.get(seat, {}).values()}
    later, kept_later = search_reusing(game, reached, seat, CONFIG, 3, kept, engine="python")
    assert later.reused and kept_later is not None and kept_later.root_sums is not None
    assert kept_later.root is match.node
    for child in kept_later.root.children[seat].values():
        summed = kept_later.root_sums[child].visits if child in kept_later.root_sums else 0
        assert summed == child.visits - before.get(id(child), 0)
    best = later.moves[0]
    assert later.seat_values == best.seat_values
    assert len(later.seat_values) == 2 and later.seat_values[seat] == best.mean_value


@pytest.mark.parametrize("name", ["leda", "legend_raiders"])
def test_no_match_is_exactly_the_search_without_reuse(name: str) -> None:
    game = get_game(name)
    other = mid_game_decision(name, OPTIONS[name], 8, 12)
    state = mid_game_decision(name, OPTIONS[name], 9, 40)
    seat = game.current_player(state)
    other_seat = game.current_player(other)
    _, kept = search_reusing(game, other, other_seat, CONFIG, 1, None, engine="python")
    assert kept is not None
    result, fresh = search_reusing(game, state, seat, CONFIG, 4, kept, engine="python")
    plain = search(game, state, seat, CONFIG, 4, engine="python")
    assert not result.reused
    assert comparable(result) == comparable(plain)
    assert fresh is not None and fresh.root is not kept.root


def test_a_single_legal_move_keeps_the_previous_tree() -> None:
    game = get_game("leda")
    state = game.new_state(OPTIONS["leda"], 2)
    rng = random.Random(0)
    for _ in range(400):
        player = game.current_player(state)
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        assert player >= 0, "no single-move decision found"
        if len(game.legal_actions(state)) == 1:
            break
        state = game.apply(state, game.legal_actions(state)[0])
    seat = game.current_player(state)
    previous = KeptTree("leda", seat, state, 1, "python", root=Node(None, -1))
    result, kept = search_reusing(game, state, seat, CONFIG, 1, previous, engine="python")
    assert result.stopped_by == StopReason.SINGLE_MOVE
    assert kept is previous


def test_a_root_parallel_search_keeps_no_tree() -> None:
    game = get_game("legend_raiders")
    state = mid_game_decision("legend_raiders", OPTIONS["legend_raiders"], 5, 30)
    seat = game.current_player(state)
    config = CONFIG.replace(iterations=40, workers=2)
    result, kept = search_reusing(game, state, seat, config, 1, None, engine="python")
    assert kept is None and not result.reused


def test_the_reuse_override_makes_a_reusing_bot() -> None:
    bot = make_bot("medium@40+reuse=1", "leda", "python")
    assert isinstance(bot, MctsBot) and bot.reuse and bot.config.iterations == 40
    plain = make_bot("medium@40+reuse=0", "leda", "python")
    assert isinstance(plain, MctsBot) and not plain.reuse
    assert plain.config == bot.config
    for bad in ("medium+reuse=2", "medium+reuse", "medium+reuse=yes"):
        with pytest.raises(UnknownBotError, match="reuse"):
            make_bot(bad, "leda", "python")


def test_a_match_reports_the_reused_visits() -> None:
    game = get_game("legend_raiders")
    bots = ["medium@60+reuse=1", "medium@60"]
    record = play_game(game, {"players": 2}, bots, (0, 1), 11, engine=Engine.PYTHON)
    assert record.reuse_moves[0] > 0 and record.reuse_moves[1] == 0
    assert record.reused_moves[0] > 0 and record.reused_visits[0] > 0
    reports = summarize(bots, [record])
    assert reports[0].reuse_rate is not None and 0.0 < reports[0].reuse_rate <= 1.0
    assert reports[0].mean_reused_visits is not None and reports[0].mean_reused_visits > 0
    assert reports[1].reuse_rate is None and reports[1].mean_reused_visits is None


@pytest.mark.parametrize("name", ["leda", "legend_raiders"])
def test_a_reused_root_never_chooses_or_reports_a_move_the_position_does_not_allow(
    name: str,
) -> None:
    game = get_game(name)
    state = mid_game_decision(name, OPTIONS[name], 9, 40)
    seat = game.current_player(state)
    legal = game.legal_actions(state)
    previous, illegal, good = tree_with_an_illegal_move(game, state, seat, OPTIONS[name])
    assert previous.root is not None
    match = find_match(game, previous.root, state, state, seat)
    assert match is not None and match.path == () and match.node is previous.root
    # Only the legal move's visits are reused, not the illegal one's.
    assert match.reused_visits == 3 == seat_visits(previous.root, seat, set(legal))
    config = CONFIG.replace(iterations=60)
    result, kept = search_reusing(game, state, seat, config, 5, previous, engine="python")
    assert result.reused and result.reused_visits == 3
    assert result.action in legal and result.action != illegal
    assert [m.action for m in result.moves if m.action not in legal] == []
    assert {m.action for m in result.moves} == set(legal)
    assert sum(m.visits for m in result.moves) == 3 + config.iterations
    assert next(m for m in result.moves if m.action == good).visits >= 3
    for move in result.moves:
        if move.notation is not None:
            assert move.principal_variation[0] == move.notation
    assert kept is not None and kept.root is not None
    assert set(kept.root.children) == {seat}
    assert illegal not in kept.root.children[seat]
    assert kept.nodes == subtree_size(kept.root) == result.nodes


@pytest.mark.parametrize(("name", "seeds"), [("leda", range(4, 8)), ("legend_raiders", range(2))])
def test_every_move_a_reusing_bot_chooses_is_legal(name: str, seeds: range) -> None:
    game = get_game(name)
    bots = ["medium@60+reuse=1", "medium@60+reuse=1"]
    for seed in seeds:
        assert illegal_reusing_moves(game, OPTIONS[name], bots, seed, "python") == []
