"""Tree reuse between requests with a session_key: the proto fields and their errors, each
worker's bounded tree cache, routing by key, and cold workers."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from boardbot.engine import Game, State
from boardbot.jobs import game_ops, tree_cache
from boardbot.jobs.failures import FailureKind, Reason, RequestError
from boardbot.jobs.request_bounds import MAX_SESSION_KEY_CHARS, check_session_key
from boardbot.jobs.search_job import SearchJob, SearchOutcome, run_search_job
from boardbot.jobs.settings import Limits, resolve
from boardbot.jobs.tree_cache import TreeCache
from boardbot.jobs.worker_pool import WorkerPool, _JobBoard, preferred_worker
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search.engines import Engine
from boardbot.search.reuse import KeptTree
from boardbot.search.tree import Node
from tests.service.positions import decision_state, load
from tests.service.servers import Served, error_details

OVERRIDES: dict[str, Any] = {"iterations": 300}


def kept(nodes: int) -> KeptTree:
    return KeptTree("leda", 0, None, nodes, "python", root=Node(None, -1))


def test_the_cache_evicts_the_least_recently_used_past_its_entries() -> None:
    cache = TreeCache(max_entries=2, max_nodes=1000)
    cache.put(("a", "leda", 0), kept(10))
    cache.put(("b", "leda", 0), kept(10))
    assert cache.take(("a", "leda", 0)) is not None  # taken out: b is the only one left
    cache.put(("a", "leda", 0), kept(10))
    cache.put(("c", "leda", 0), kept(10))  # evicts b, the least recently used
    assert ("b", "leda", 0) not in cache
    assert ("a", "leda", 0) in cache and ("c", "leda", 0) in cache
    assert len(cache) == 2 and cache.nodes == 20 and cache.evictions == 1


def test_the_cache_evicts_past_its_nodes_and_skips_a_tree_too_large() -> None:
    cache = TreeCache(max_entries=10, max_nodes=100)
    cache.put(("a", "leda", 0), kept(60))
    cache.put(("b", "leda", 1), kept(30))
    cache.put(("c", "leda", 0), kept(30))  # 120 nodes: a goes
    assert ("a", "leda", 0) not in cache and cache.nodes == 60
    cache.put(("d", "leda", 0), kept(101))  # larger than the bound on its own
    assert ("d", "leda", 0) not in cache and cache.nodes == 60
    cache.put(("b", "leda", 1), kept(5))  # replacing an entry frees its old nodes
    assert cache.nodes == 35 and len(cache) == 2


def test_a_cache_with_a_zero_bound_keeps_nothing() -> None:
    for cache in (TreeCache(0, 100), TreeCache(10, 0)):
        assert not cache.enabled
        cache.put(("a", "leda", 0), kept(1))
        assert len(cache) == 0
    with pytest.raises(ValueError):
        TreeCache(-1, 10)


@pytest.mark.parametrize(
    ("key", "ok"),
    [("", True), ("game-42/seat-1", True), ("x" * MAX_SESSION_KEY_CHARS, True),
     ("x" * (MAX_SESSION_KEY_CHARS + 1), False), ("tab\there", False), ("nul\x00", False)],
)
def test_session_key_bounds(key: str, ok: bool) -> None:
    if ok:
        check_session_key(key)
        return
    with pytest.raises(RequestError) as info:
        check_session_key(key)
    assert info.value.kind is FailureKind.INVALID_ARGUMENT
    assert info.value.reason == Reason.INVALID_SESSION_KEY
    assert info.value.field == "session_key"


def search_job(
    game: Game, state: State, seed: int, key: str = "", engine: Engine = Engine.AUTO
) -> SearchJob:
    return SearchJob(
        game.name,
        game_ops.encode_state(game, state),
        game.current_player(state),
        resolve("medium", OVERRIDES, Limits(), game.name, engine),
        seed,
        engine=engine,
        session_key=key,
    )


def without_timing(outcome: SearchOutcome) -> SearchOutcome:
    return dataclasses.replace(outcome, elapsed_ms=0.0, timings={})


@pytest.fixture
def fresh_cache() -> Iterator[TreeCache]:
    """This process's tree cache, empty, restored afterwards."""
    before = tree_cache.cache()
    tree_cache.configure(8, 1_000_000)
    yield tree_cache.cache()
    tree_cache.CACHE = before


@pytest.mark.parametrize("name", ["leda", "legend_raiders"])
def test_a_keyed_job_reuses_its_tree_and_an_unkeyed_one_is_untouched(
    name: str, fresh_cache: TreeCache
) -> None:
    game = load(name)
    state = decision_state(game, {"players": 2} if name == "legend_raiders" else {}, seed=7)
    plain = without_timing(run_search_job(search_job(game, state, 3)))
    assert len(fresh_cache) == 0  # no key: the cache is not touched
    first = run_search_job(search_job(game, state, 3, "g1"))
    assert not first.tree_reused and first.reused_visits == 0
    assert without_timing(first) == plain  # nothing kept yet: exactly the search without a key
    assert len(fresh_cache) == 1
    again = run_search_job(search_job(game, state, 4, "g1"))  # the same position, asked again
    assert again.tree_reused and again.reused_visits == first.iterations
    other = run_search_job(search_job(game, state, 4, "another game"))
    assert not other.tree_reused  # another key: a cold search
    unkeyed = without_timing(run_search_job(search_job(game, state, 3)))
    assert unkeyed == plain  # the cache never changes a request without a key
    assert len(fresh_cache) == 2


def test_a_keyed_job_follows_its_game_after_a_move_and_a_reply(fresh_cache: TreeCache) -> None:
    game = load("leda")
    state = decision_state(game, {}, seed=7)
    seat = game.current_player(state)
    first = run_search_job(search_job(game, state, 3, "g2", Engine.PYTHON))
    tree = fresh_cache.take(("g2", "leda", seat))
    assert tree is not None and tree.root is not None
    from tests.search.reuse_helpers import play_along

    along = play_along(game, tree.root, state, seat, random.Random(1))
    assert along is not None
    fresh_cache.put(("g2", "leda", seat), tree)
    after = run_search_job(search_job(game, along[0], 5, "g2", Engine.PYTHON))
    assert first.iterations > 0 and after.tree_reused and after.reused_visits > 0


def test_jobs_go_to_the_worker_their_key_hashes_to_when_it_is_free() -> None:
    class Keyed:
        def __init__(self, key: str) -> None:
            self.key = key

        def affinity(self) -> str:
            return self.key

    assert preferred_worker(Keyed(""), 3) is None and preferred_worker(object(), 3) is None
    assert preferred_worker(Keyed("g"), 3) == preferred_worker(Keyed("g"), 3)
    assert {preferred_worker(Keyed(f"g{i}"), 3) for i in range(50)} == {0, 1, 2}

    class FakeJob:
        def __init__(self, preferred: int | None) -> None:
            self.preferred = preferred

    board = _JobBoard(None)  # type: ignore[arg-type]
    board._waiting = {0, 1}
    for_one, anyone = FakeJob(1), FakeJob(None)
    board._items = [for_one, anyone]  # type: ignore[list-item]
    assert board._may_run(for_one, 1)  # type: ignore[arg-type]
    assert not board._may_run(for_one, 0)  # type: ignore[arg-type]  # worker 1 is free
    assert board._may_run(anyone, 0)  # type: ignore[arg-type]
    board._waiting = {0}  # worker 1 busy: any free worker takes it, cold
    assert board._may_run(for_one, 0)  # type: ignore[arg-type]


def test_a_pool_routes_a_key_to_its_worker_and_a_cold_worker_still_answers() -> None:
    game = load("leda")
    state = decision_state(game, {}, seed=9)
    pool = WorkerPool(workers=2, queue_limit=2, tree_cache=(4, 1_000_000))
    pool.start()
    try:
        key = "pool-game"
        first = pool.submit(search_job(game, state, 1, key)).result()
        assert not first.tree_reused  # a cold worker: a fresh search that answers
        again = pool.submit(search_job(game, state, 2, key)).result()
        assert again.tree_reused and again.reused_visits == first.iterations
    finally:
        pool.close()


def test_session_key_on_the_wire(served: Served) -> None:
    game = load("legend_raiders")
    state = decision_state(game, {"players": 2}, seed=11)
    common: dict[str, Any] = {
        "game": "legend_raiders",
        "state_json": game_ops.encode_state(game, state),
        "seat": game.current_player(state),
        "preset": "easy",
        "settings": pb.SearchSettings(iterations=200),
        "seed": 5,
    }
    plain = served.stub.ChooseMove(pb.ChooseMoveRequest(**common), timeout=30)
    assert not plain.stats.tree_reused and plain.stats.reused_visits == 0
    analysed = served.stub.Analyze(
        pb.AnalyzeRequest(**common, session_key="wire-game/0", top_k=3), timeout=30
    )
    assert not analysed.stats.tree_reused
    played = served.stub.ChooseMove(
        pb.ChooseMoveRequest(**common, session_key="wire-game/0"), timeout=30
    )
    assert played.stats.tree_reused
    assert played.stats.reused_visits == analysed.stats.iterations
    for bad in ("k" * (MAX_SESSION_KEY_CHARS + 1), "line\nbreak"):
        for call, message in (
            (served.stub.ChooseMove, pb.ChooseMoveRequest(**common, session_key=bad)),
            (served.stub.Analyze, pb.AnalyzeRequest(**common, session_key=bad)),
        ):
            with pytest.raises(grpc.RpcError) as info:
                call(message, timeout=30)
            assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            details, violations = error_details(info.value)
            assert details.reason == "INVALID_SESSION_KEY"
            assert [field for field, _ in violations] == ["session_key"]


def test_the_server_flags_bound_the_cache() -> None:
    import argparse

    from boardbot.cli.commands.serve import config_from_args, register

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    register(sub)
    args = parser.parse_args(["serve", "--tree-cache-entries", "3", "--tree-cache-nodes", "99"])
    config = config_from_args(args)
    assert (config.tree_cache_entries, config.tree_cache_nodes) == (3, 99)
    assert Engine(config.engine) in set(Engine)
