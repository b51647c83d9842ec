"""The search entry point runs the native core for a game that has one, Python otherwise."""

from __future__ import annotations

import argparse
import itertools
import time
import types
from typing import Any

import orjson
import pytest

from boardbot.cli.commands import bench
from boardbot.cli.commands.common import CommandError, chosen_engine
from boardbot.engine import get_game
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search import engines
from boardbot.search.api import SearchConfig, SearchResult, StopReason
from boardbot.search.bots import MctsBot, UnknownBotError, make_bot
from boardbot.search.engines import Engine, NativeUnavailableError, uses_native
from boardbot.search.ismcts import search
from tests.native import parity
from tests.search.figures import figures
from tests.search.positions import mid_game_decision, twin_world
from tests.service.servers import start_server

needs_native = pytest.mark.skipif(
    parity.boardbot_native is None,
    reason="boardbot_native is not built (run `make native`, which needs a Rust toolchain)",
)
CONFIG = SearchConfig(iterations=200, cutoff_depth=8, rollout="heuristic", early_stop=False)


@pytest.fixture
def no_native_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a machine without a Rust toolchain: the native module cannot be imported."""
    monkeypatch.setattr(engines, "native_module", lambda: None)


@needs_native
def test_auto_picks_native_for_a_game_with_a_twin_and_python_otherwise() -> None:
    assert uses_native(Engine.AUTO, "legend_raiders")
    assert uses_native(Engine.AUTO, "leda")
    assert not uses_native(Engine.AUTO, "high_card")
    assert not uses_native(Engine.PYTHON, "legend_raiders")
    assert uses_native(Engine.NATIVE, "legend_raiders")
    with pytest.raises(NativeUnavailableError, match="high_card has no native twin"):
        uses_native(Engine.NATIVE, "high_card")
    assert engines.engine_notice(Engine.AUTO) is None
    assert engines.native_games() == ["leda", "legend_raiders"]


@needs_native
def test_the_native_core_in_use_is_an_optimised_build() -> None:
    """`make native` compiles with optimisation: every time budget and latency target assumes
    it (an editable install would otherwise be a debug build, about ten times slower)."""
    assert parity.boardbot_native is not None and parity.boardbot_native.OPTIMIZED is True


def test_a_debug_build_of_the_native_core_is_named_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(engines, "native_module", lambda: types.SimpleNamespace(OPTIMIZED=False))
    notice = engines.engine_notice(Engine.AUTO)
    assert notice is not None and "debug build" in notice and "make native" in notice
    assert engines.engine_notice(Engine.NATIVE) == notice
    assert engines.engine_notice(Engine.PYTHON) is None
    assert chosen_engine(argparse.Namespace(engine="auto")) is Engine.AUTO
    assert capsys.readouterr().err == notice + "\n"
    monkeypatch.setattr(engines, "native_module", lambda: types.SimpleNamespace(OPTIMIZED=True))
    assert engines.engine_notice(Engine.AUTO) is None


@pytest.mark.parametrize("choice", [Engine.AUTO, Engine.NATIVE])
def test_bench_net_names_a_debug_build_of_the_native_core_once(
    choice: Engine, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    debug = types.SimpleNamespace(OPTIMIZED=False)
    monkeypatch.setattr(engines, "native_module", lambda: debug)
    monkeypatch.setattr(bench, "native_module", lambda: debug)
    assert bench.native_module_or_error(choice) is True
    assert capsys.readouterr().err == f"{engines.engine_notice(choice)}\n"
    assert bench.native_module_or_error(Engine.PYTHON) is False
    assert capsys.readouterr().err == ""


@pytest.mark.usefixtures("no_native_core")
def test_without_the_native_core_auto_runs_python_and_says_so_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert not uses_native(Engine.AUTO, "legend_raiders")
    with pytest.raises(NativeUnavailableError, match=r"not built.*make native"):
        uses_native(Engine.NATIVE, "legend_raiders")
    assert chosen_engine(argparse.Namespace(engine="auto")) is Engine.AUTO
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "run on the Python engines" in err and "make native" in err
    with pytest.raises(CommandError, match="not built"):
        chosen_engine(argparse.Namespace(engine="native"))
    state = mid_game_decision("legend_raiders", {"players": 2}, 3, 30)
    game = get_game("legend_raiders")
    seat = game.current_player(state)
    result = search(game, state, seat, CONFIG, 5)
    assert figures(result) == figures(search(game, state, seat, CONFIG, 5, engine=Engine.PYTHON))


@needs_native
@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("legend_raiders", {"players": 2}),
        ("legend_raiders", {"players": 3}),
        ("legend_raiders", {"players": 4}),
        ("leda", {"clans": ["pandas", "scorpions"]}),
        ("leda", {"clans": ["sharks", "cats"]}),
    ],
)
def test_native_search_answers_like_the_python_search(name: str, options: dict[str, Any]) -> None:
    game = get_game(name)
    players = game.num_players(game.new_state(options, 0))
    state = mid_game_decision(name, options, players, 40)
    seat = game.current_player(state)
    native = search(game, state, seat, CONFIG, 9, engine=Engine.NATIVE, shown=2)
    again = search(game, state, seat, CONFIG, 9, engine=Engine.NATIVE, shown=2)
    python = search(game, state, seat, CONFIG, 9, engine=Engine.PYTHON, shown=2)
    assert figures(native) == figures(again)  # same seed, same result
    for result in (native, python):
        assert isinstance(result, SearchResult)
        assert result.action in game.legal_actions(state)
        assert result.notation == game.action_to_str(state, result.action)
        assert result.seat == seat and result.iterations == 200
        assert result.stopped_by is StopReason.ITERATIONS
        assert sorted(m.action for m in result.moves) == sorted(game.legal_actions(state))
        described = [m for m in result.moves if m.notation is not None]
        assert 1 <= len(described) <= 3  # the two shown, and the chosen one
        assert all(m.principal_variation[0] == m.notation for m in described)


@needs_native
def test_native_search_sees_only_the_seats_view() -> None:
    game = get_game("legend_raiders")
    state = mid_game_decision("legend_raiders", {"players": 4}, 2, 50)
    seat = game.current_player(state)
    twin = twin_world(game, state, seat)
    here = figures(search(game, state, seat, CONFIG, 3, engine=Engine.NATIVE))
    assert figures(search(game, twin, seat, CONFIG, 3, engine=Engine.NATIVE)) == here


@needs_native
def test_native_search_is_cancelled_and_reports_progress() -> None:
    game = get_game("legend_raiders")
    state = mid_game_decision("legend_raiders", {"players": 2}, 4, 30)
    seat = game.current_player(state)
    partials: list[SearchResult] = []
    stop_after = time.monotonic() + 0.2
    endless = SearchConfig(iterations=None, time_ms=20_000, early_stop=False)
    start = time.monotonic()
    result = search(
        game, state, seat, endless, 1, engine=Engine.NATIVE,
        should_stop=lambda: time.monotonic() > stop_after,
        on_progress=partials.append, progress_every=500,
    )  # fmt: skip
    assert time.monotonic() - start < 5
    assert result.stopped_by is StopReason.CANCELLED
    assert partials and all(p.stopped_by is StopReason.RUNNING for p in partials)
    assert [p.iterations for p in partials] == sorted(p.iterations for p in partials)


@needs_native
@pytest.mark.parametrize("workers", [1, 2, 4])
def test_native_progress_is_paced_and_a_slow_callback_never_delays_the_end(workers: int) -> None:
    module = engines.native_module()
    assert module is not None
    game = get_game("legend_raiders")
    state = mid_game_decision("legend_raiders", {"players": 2}, 4, 30)
    seat = game.current_player(state)
    twin = engines.native_twin("legend_raiders")
    view = twin.state_from_json(orjson.dumps(game.state_to_json(state, seat)).decode())
    config = {"iterations": None, "time_ms": 600.0, "early_stop": False, "workers": workers}
    called: list[float] = []

    def slow(partial: dict[str, Any]) -> None:
        assert partial["stopped_by"] == "running"
        called.append(time.monotonic())
        time.sleep(0.03)  # slower than asked for: reports are coalesced, not queued

    start = time.monotonic()
    result = module.search(view, seat, config, 1, None, slow, 1, progress_ms=50.0)
    took = time.monotonic() - start
    assert result["stopped_by"] == "time"
    assert result["elapsed_ms"] <= 600.0 + 100.0
    assert took < 0.6 + 0.4
    assert 3 <= len(called) <= 13  # about one per 50 ms after the previous one returned
    assert all(b - a >= 0.05 + 0.03 for a, b in itertools.pairwise(called))
    with pytest.raises(ValueError, match="progress_ms"):
        module.search(view, seat, config, 1, None, slow, 1, progress_ms=-1.0)


@needs_native
def test_bots_pick_their_engine_by_suffix_or_match_default() -> None:
    assert _engine_of(make_bot("medium/native", "legend_raiders")) is Engine.NATIVE
    assert _engine_of(make_bot("hard@50/python", "legend_raiders")) is Engine.PYTHON
    assert _engine_of(make_bot("easy", "legend_raiders", Engine.PYTHON)) is Engine.PYTHON
    with pytest.raises(UnknownBotError, match="bad engine"):
        make_bot("medium/fast", "legend_raiders")
    with pytest.raises(UnknownBotError, match="random has no engine"):
        make_bot("random/native", "legend_raiders")


def _engine_of(bot: Any) -> Engine:
    assert isinstance(bot, MctsBot)
    return bot.engine


@pytest.mark.usefixtures("no_native_core")
def test_a_server_without_the_native_core_says_so_once_outside_its_request_log() -> None:
    served = start_server()
    try:
        served.stub.ListGames(pb.ListGamesRequest(), timeout=30)
        assert [w for w in served.server.warnings if "Python engines" in w] == [
            engines.engine_notice(Engine.AUTO)
        ]
        assert all(line.startswith("{") for line in served.log.getvalue().splitlines())
    finally:
        served.close()
