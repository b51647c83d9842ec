"""Bots behind one interface, and the difficulty presets."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from boardbot.engine.errors import BoardbotError, UnknownGameError
from boardbot.search import engines, native_presets
from boardbot.search.api import MoveStats, SearchConfig
from boardbot.search.bots import GreedyBot, MctsBot, RandomBot, UnknownBotError, bot_names, make_bot
from boardbot.search.engines import Engine
from boardbot.search.presets import (
    LATENCY_TARGETS_MS,
    PRESETS,
    UnknownPresetError,
    preset_names,
    presets_for,
    resolve_preset,
    searches_natively,
)
from boardbot.search.results import choose_move, lower_bound
from boardbot.search.rewards import margin_share, terminal_reward
from tests.search.toy_games import DiceGame, GuessGame, GuessState, NimGame


def test_random_bot_plays_legal_moves_from_its_rng() -> None:
    game = NimGame()
    state = game.new_state({"stones": 10})
    picks = [RandomBot().choose(game, state, 0, random.Random(s)) for s in range(20)]
    assert set(picks) == {1, 2, 3}
    assert picks == [RandomBot().choose(game, state, 0, random.Random(s)) for s in range(20)]


def test_greedy_bot_takes_an_immediate_win() -> None:
    game = NimGame()
    for stones in (1, 2, 3):
        state = game.new_state({"stones": stones})
        assert GreedyBot().choose(game, state, 0, random.Random(0)) == stones


def test_greedy_bot_values_chance_by_sampling() -> None:
    game = DiceGame()
    picks = {GreedyBot().choose(game, game.new_state(), 0, random.Random(s)) for s in range(5)}
    assert picks <= {"coin", "die"}


def test_mcts_bot_uses_its_configuration() -> None:
    game = GuessGame()
    bot = MctsBot(SearchConfig(iterations=500), "custom")
    assert bot.choose(game, GuessState((2, 4), (1, 3), 0), 0, random.Random(1)) == "coin"


def test_bot_names() -> None:
    assert bot_names()[:2] == ["random", "greedy"]
    for name in bot_names():
        assert make_bot(name).name == name
    with pytest.raises(UnknownBotError):
        make_bot("grandmaster")
    with pytest.raises(UnknownBotError):
        make_bot("medium@0")
    quick = make_bot("hard@50")
    assert isinstance(quick, MctsBot)
    assert quick.config == resolve_preset("hard").replace(iterations=50)
    timed = make_bot("hard@25ms+lambda=0.5")
    assert isinstance(timed, MctsBot)
    assert timed.config == resolve_preset("hard").replace(
        iterations=None, time_ms=25.0, leaf_lambda=0.5
    )
    for bad in ("hard@0ms", "hard@ms", "hard@2.5ms", "hard@5s"):
        with pytest.raises(UnknownBotError, match="preset@Nms"):
            make_bot(bad)


@pytest.mark.parametrize("engine", list(Engine))
@pytest.mark.parametrize("game", [None, "leda", "legend_raiders"])
def test_presets_form_a_ladder(game: str | None, engine: Engine) -> None:
    names = preset_names()
    assert names == ["beginner", "easy", "medium", "hard", "expert"]
    assert list(presets_for(game, engine)) == names
    # Strength is measured by the ladder (docs/ratings.md); among presets that roll out alike,
    # more iterations stand higher.
    by_rollout: dict[str, list[int]] = {}
    for name in names:
        config = resolve_preset(name, game, engine)
        by_rollout.setdefault(config.rollout, []).append(config.iterations or 0)
    for budgets in by_rollout.values():
        assert budgets == sorted(set(budgets)), "strictly increasing"
    assert resolve_preset("medium") is PRESETS["medium"]
    with pytest.raises(UnknownPresetError, match="unknown preset 'godlike'; known: beginner"):
        resolve_preset("godlike")
    with pytest.raises(KeyError):
        resolve_preset("")


LEDA_NETWORK = {"puct": 2.0, "fpu": -1.0, "leaf_lambda": 0.0}
"""What every LEDA preset sets for a search with a model (inert without one)."""

LEDA_EXPERT = SearchConfig(
    iterations=6400, exploration=0.7, rollout="heuristic", cutoff_depth=24, temperature=0.0,
    **LEDA_NETWORK,
)
"""LEDA's tuned expert, as the per-game table had it before games carried their own, with the
settings LEDA gives a search with a model."""


def test_presets_can_be_tuned_per_game() -> None:
    assert PRESETS["expert"] != LEDA_EXPERT
    assert resolve_preset("expert", "leda") == LEDA_EXPERT
    assert resolve_preset("expert", "legend_raiders") is PRESETS["expert"]
    assert resolve_preset("hard", "leda") == PRESETS["hard"].replace(**LEDA_NETWORK)
    for name in preset_names():
        if name != "expert":
            assert resolve_preset(name, "leda") == PRESETS[name].replace(**LEDA_NETWORK)
    assert make_bot("expert", "leda", "python").config == LEDA_EXPERT  # type: ignore[attr-defined]
    bot = make_bot("expert@50", "leda", "python")
    assert bot.config == LEDA_EXPERT.replace(iterations=50)  # type: ignore[attr-defined]
    assert make_bot("expert").config == PRESETS["expert"]  # type: ignore[attr-defined]
    with pytest.raises(UnknownPresetError):
        resolve_preset("godlike", "leda")
    with pytest.raises(UnknownGameError):
        presets_for("a_game_never_registered")


def test_a_game_tunes_presets_with_its_overrides() -> None:
    class TunedNim(NimGame):
        preset_overrides = {"easy": {"iterations": 3, "temperature": 2.0}}

    table = presets_for(TunedNim())
    assert table["easy"] == PRESETS["easy"].replace(iterations=3, temperature=2.0)
    assert {n: c for n, c in table.items() if n != "easy"} == {
        n: c for n, c in PRESETS.items() if n != "easy"
    }
    assert presets_for(NimGame()) == PRESETS
    assert make_bot("easy", TunedNim()).config.iterations == 3  # type: ignore[attr-defined]


PYTHON_PRESETS = {
    "beginner": SearchConfig(
        iterations=30, exploration=1.0, rollout="random", cutoff_depth=8, temperature=1.0
    ),
    "easy": SearchConfig(
        iterations=80, exploration=0.9, rollout="random", cutoff_depth=12, temperature=0.3
    ),
    "medium": SearchConfig(
        iterations=400, exploration=0.7, rollout="heuristic", cutoff_depth=12, temperature=0.0
    ),
    "hard": SearchConfig(
        iterations=1600, exploration=0.7, rollout="heuristic", cutoff_depth=24, temperature=0.0
    ),
    "expert": SearchConfig(
        iterations=4000, exploration=0.7, rollout="heuristic", cutoff_depth=40, temperature=0.0
    ),
}
"""The presets of the Python search, as they were before the native core had its own."""


@pytest.mark.parametrize("game", [None, "leda", "legend_raiders"])
def test_the_python_presets_are_unchanged(game: str | None) -> None:
    expected = dict(PYTHON_PRESETS)
    if game == "leda":
        expected = {name: config.replace(**LEDA_NETWORK) for name, config in expected.items()}
        expected["expert"] = LEDA_EXPERT
    assert presets_for(game, Engine.PYTHON) == expected
    assert presets_for(game, "python") == presets_for(game) == expected
    for name in preset_names():
        assert resolve_preset(name, game, Engine.PYTHON) == expected[name]


NATIVE_LADDER = {
    # preset: (iterations, exploration, rollout, cut-off depth, temperature), as the ladder of
    # each game rated them (docs/ratings.md, "The presets' ladder").
    "leda": {
        "beginner": (600, 1.0, "random", 8, 1.0),
        "easy": (1500, 0.9, "random", 12, 0.3),
        "medium": (200, 0.7, "heuristic", 12, 0.0),
        "hard": (1000, 0.7, "heuristic", 24, 0.0),
        "expert": (12000, 0.7, "heuristic", 24, 0.0),
    },
    "legend_raiders": {
        "beginner": (2500, 1.0, "random", 8, 1.0),
        "easy": (25, 0.7, "heuristic", 12, 0.0),
        "medium": (60, 0.7, "heuristic", 12, 0.0),
        "hard": (400, 0.7, "heuristic", 24, 0.0),
        "expert": (130000, 0.7, "heuristic", 40, 0.0),
    },
}

NATIVE_LADDER_MODELS = {"leda": {}, "legend_raiders": {"expert": "auto"}}
"""The rated presets guided by a network (docs/learning.md, "Where the network is the default")."""


@pytest.mark.parametrize("game", ["leda", "legend_raiders"])
def test_native_twins_serve_the_rated_presets(game: str) -> None:
    python = presets_for(game, Engine.PYTHON)
    native = presets_for(game, Engine.NATIVE)
    assert list(native) == list(python)
    for name, rated in NATIVE_LADDER[game].items():
        iterations, exploration, rollout, cutoff, temperature = rated
        expected = python[name].replace(
            iterations=iterations,
            exploration=exploration,
            rollout=rollout,
            cutoff_depth=cutoff,
            temperature=temperature,
            model=NATIVE_LADDER_MODELS[game].get(name),
        )
        assert native[name] == expected, name
    # The knob's family (`medium@N`) keeps medium's settings on both engines.
    assert native["medium"].replace(iterations=1) == python["medium"].replace(iterations=1)
    # auto: native exactly where the search runs natively here.
    auto = presets_for(game, Engine.AUTO)
    assert auto == (native if engines.native_module() is not None else python)


NATIVE_ANALYSIS_BUDGETS = {
    # Each preset's latency target on the native core (docs/search.md, "Difficulty presets").
    "leda": [600, 1500, 4000, 12000, 48000],
    "legend_raiders": [600, 2000, 7000, 33000, 130000],
}

NATIVE_ANALYSIS_MODELS = {"leda": None, "legend_raiders": "auto"}
"""The model each game's native analyses are guided by (docs/learning.md)."""


@pytest.mark.parametrize("game", ["leda", "legend_raiders"])
def test_an_analysis_searches_a_preset_with_its_latency_budget(game: str) -> None:
    for engine in Engine:
        play = presets_for(game, engine)
        analysis = presets_for(game, engine, analysis=True)
        native = searches_natively(game, engine)
        for name, budget in zip(preset_names(), NATIVE_ANALYSIS_BUDGETS[game], strict=True):
            model = NATIVE_ANALYSIS_MODELS[game]
            expected = play[name].replace(iterations=budget, model=model) if native else play[name]
            assert analysis[name] == expected
            assert resolve_preset(name, game, engine, analysis=True) == expected
            if analysis[name].model is None:
                # An analysis looks at least as deep as the move the preset would play (with a
                # model each iteration costs more, and the budget is the same time).
                assert (analysis[name].iterations or 0) >= (play[name].iterations or 0)


def test_native_budgets_apply_only_where_the_search_runs_natively(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class NativeNim(NimGame):
        game_type = replace(NimGame.game_type, native_twin="Nim")

    nim = {"toy-nim": {"medium": {"iterations": 9000}}}
    budgets = {**native_presets.NATIVE_PRESET_OVERRIDES, **nim}
    monkeypatch.setattr(native_presets, "NATIVE_PRESET_OVERRIDES", budgets)
    # Without a native twin the search runs in Python, whatever the engine asked for.
    for engine in Engine:
        assert not searches_natively(NimGame(), engine)
        assert presets_for(NimGame(), engine) == PRESETS
    game = NativeNim()  # its GameType declares a twin
    assert searches_natively(game, "native") and not searches_natively(game, "python")
    assert presets_for(game, Engine.NATIVE)["medium"] == PRESETS["medium"].replace(
        iterations=9000
    )
    assert presets_for(game, Engine.PYTHON) == PRESETS
    monkeypatch.setattr(engines, "native_module", lambda: None)
    assert not searches_natively(game, Engine.AUTO)  # not built: auto runs Python
    assert presets_for(game, Engine.AUTO) == PRESETS


def test_unknown_presets_are_errors_on_every_engine() -> None:
    for engine in Engine:
        with pytest.raises(UnknownPresetError, match="unknown preset 'godlike'; known: beginner"):
            resolve_preset("godlike", "legend_raiders", engine)
    with pytest.raises(ValueError):
        presets_for("legend_raiders", "rust")


def test_bots_take_the_budgets_of_their_engine() -> None:
    native = resolve_preset("medium", "legend_raiders", Engine.NATIVE)
    python = resolve_preset("medium", "legend_raiders", Engine.PYTHON)
    assert native != python
    bots = {
        "medium/native": native,
        "medium/python": python,
        "medium@80/native": native.replace(iterations=80),
        "medium@80/python": python.replace(iterations=80),
    }
    for name, config in bots.items():
        assert make_bot(name, "legend_raiders").config == config  # type: ignore[attr-defined]
    bot = make_bot("medium", "legend_raiders", Engine.NATIVE)
    assert bot.config == native  # type: ignore[attr-defined]
    assert make_bot("medium", "legend_raiders", "python").config == python  # type: ignore[attr-defined]
    leda = make_bot("medium/native", "leda").config  # type: ignore[attr-defined]
    assert leda == resolve_preset("medium", "leda", Engine.NATIVE) != PRESETS["medium"]


def test_every_preset_has_a_latency_target() -> None:
    assert list(LATENCY_TARGETS_MS) == preset_names()
    targets = list(LATENCY_TARGETS_MS.values())
    assert targets == sorted(set(targets))


def test_preset_and_bot_errors_are_boardbot_errors() -> None:
    with pytest.raises(BoardbotError):
        resolve_preset("godlike")
    with pytest.raises(BoardbotError):
        make_bot("grandmaster")


def test_terminal_reward_puts_winning_before_margin() -> None:
    class ScoredNim(NimGame):
        def scores(self, state: object) -> tuple[float, ...]:
            return (30.0, 10.0)

    game = ScoredNim()
    end = game.apply(game.new_state({"stones": 1}), 1)
    reward = terminal_reward(game, end, 0.1)
    assert reward[0] == pytest.approx(0.9 + 0.1 * (0.5 + 0.5 * 20 / 40))
    assert reward[1] == pytest.approx(0.1 * (0.5 - 0.5 * 20 / 40))
    assert min(reward[0], 0.9) > max(reward[1], 0.1) - 0.1
    assert terminal_reward(game, end, 0.0) == (1.0, 0.0)
    assert margin_share((0.0, 0.0, 0.0), 1) == 0.5


def test_lower_bound_and_move_choice() -> None:
    assert lower_bound(0.5, 0) == 0.0
    assert lower_bound(0.5, 100) == pytest.approx(0.5 - 1.96 * 0.05)
    moves = (MoveStats("a", "a", 90, 0.6, 0.5), MoveStats("b", "b", 10, 0.4, 0.1))
    assert choose_move(moves, 0.0, random.Random(0)).action == "a"
    picks = [choose_move(moves, 1.0, random.Random(s)).action for s in range(400)]
    assert 15 < picks.count("b") < 70
