"""The `+random=S` bot override: a search bot mixed with uniformly random moves, the strength
knob's low end as a bot of its own (measured in ladders to calibrate the knob)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardbot.engine import get_game
from boardbot.jobs import game_ops
from boardbot.search import bots as bots_module
from boardbot.search.bots import MctsBot, UnknownBotError, make_bot
from boardbot.search.engines import Engine, native_module
from boardbot.search.overrides import BadOverrideError, split_random
from boardbot.search.presets import resolve_preset
from boardbot.search.strength.mapping import random_move
from boardbot.tools.ladder import ladder_settings
from boardbot.tools.match import play_game, run_match
from tests.search.strength_tables import serve_table

GAME = "legend_raiders"

needs_native = pytest.mark.skipif(native_module() is None, reason="the native core is not built")


def _decision(seed: int) -> tuple[object, int]:
    game = get_game(GAME)
    state, _ = game_ops.resolve_chance(
        game, game.new_state({"players": 2}, seed), random.Random(seed)
    )
    return state, game.current_player(state)


# -- parsing ----------------------------------------------------------------------------------


def test_the_random_override_sets_the_bots_share() -> None:
    bot = make_bot("medium@50+random=0.4", GAME, "python")
    assert isinstance(bot, MctsBot) and bot.random_share == 0.4 and not bot.reuse
    assert bot.name == "medium@50+random=0.4"
    # The override is the bot's, not a SearchConfig field: the search is medium@50's.
    assert bot.config == resolve_preset("medium", GAME, "python").replace(iterations=50)
    plain = make_bot("medium@50", GAME, "python")
    assert isinstance(plain, MctsBot) and plain.random_share == 0.0
    shares = {
        "hard+random=1": 1.0,
        "easy+random=0": 0.0,
        "medium+random=.25": 0.25,
        "medium+random=1e-1": 0.1,
        "medium+random=-0": 0.0,
        "medium+random=0.2+random=0.7": 0.7,  # the last one wins, as with reuse
    }
    for name, share in shares.items():
        mixture = make_bot(name, GAME, "python")
        assert isinstance(mixture, MctsBot) and mixture.random_share == share, name


def test_the_random_override_goes_with_the_others() -> None:
    bot = make_bot("medium@40+random=0.5+reuse=1+exploration=0.9", GAME, "python")
    assert isinstance(bot, MctsBot)
    assert (bot.random_share, bot.reuse, bot.config.exploration) == (0.5, True, 0.9)
    assert bot.config.iterations == 40


@pytest.mark.parametrize("engine", ["native", "python"])
def test_the_random_override_takes_an_engine_suffix(engine: str) -> None:
    bot = make_bot(f"medium@50+random=0.25/{engine}", GAME)
    assert isinstance(bot, MctsBot) and bot.engine == Engine(engine)
    assert bot.random_share == 0.25
    assert bot.config == resolve_preset("medium", GAME, engine).replace(iterations=50)


@pytest.mark.parametrize(
    "name",
    [
        "medium+random",
        "medium+random=",
        "medium+random=abc",
        "medium+random=1.5",
        "medium+random=-0.1",
        "medium+random=nan",
        "medium+random=inf",
        "medium+random=" + "0" * 40,
        "medium@50+random=2/native",
    ],
)
def test_bad_random_shares_are_refused(name: str) -> None:
    with pytest.raises(UnknownBotError, match=r"random=S with S a number in \[0, 1\]"):
        make_bot(name, GAME, "python")


def test_the_random_override_is_only_for_search_bots() -> None:
    with pytest.raises(UnknownBotError, match="unknown bot"):
        make_bot("random+random=0.5", GAME)
    with pytest.raises(UnknownBotError, match="unknown bot"):
        make_bot("greedy+random=0.5", GAME)
    with pytest.raises(UnknownBotError, match=r"key one of .*, reuse, random"):
        make_bot("medium+randomness=0.5", GAME, "python")


def test_split_random_keeps_the_other_parts() -> None:
    assert split_random(["reuse=1", "random=0.3", "widening=2"]) == (0.3, ["reuse=1", "widening=2"])
    assert split_random([]) == (0.0, [])
    with pytest.raises(BadOverrideError, match="'random=x'"):
        split_random(["random=x"])


# -- play -------------------------------------------------------------------------------------


def test_a_mixture_bot_plays_the_same_moves_from_the_same_seed() -> None:
    game = get_game(GAME)
    state, seat = _decision(3)
    bot = make_bot("medium@20+random=0.5", GAME, "python")
    picks = [bot.choose(game, state, seat, random.Random(s)) for s in range(12)]
    again = make_bot("medium@20+random=0.5", GAME, "python")
    assert picks == [again.choose(game, state, seat, random.Random(s)) for s in range(12)]
    assert set(picks) <= set(game.legal_actions(state))
    first = play_game(game, {"players": 2}, ["medium@10+random=0.4", "medium@10"], (0, 1), 7,
                      engine=Engine.PYTHON)
    second = play_game(game, {"players": 2}, ["medium@10+random=0.4", "medium@10"], (0, 1), 7,
                       engine=Engine.PYTHON)
    assert (first.returns, first.scores, first.decisions) == (
        second.returns, second.scores, second.decisions
    )


def test_the_share_is_drawn_first_from_the_bots_rng() -> None:
    game = get_game(GAME)
    state, seat = _decision(5)
    bot = make_bot("medium@20+random=0.5", GAME, "python")
    for seed in range(20):
        expected_rng = random.Random(seed)
        drawn = expected_rng.random() < 0.5
        rng = random.Random(seed)
        action = bot.choose(game, state, seat, rng)
        if drawn:  # then the random move from the same generator
            assert action == random_move(game, state, seat, expected_rng)
            assert rng.getstate() == expected_rng.getstate()


def test_random_one_plays_only_random_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("a bot with random=1 never searches")

    monkeypatch.setattr(bots_module, "search", no_search)
    game = get_game(GAME)
    for position in (5, 6):
        state, seat = _decision(position)
        bot = make_bot("medium@50+random=1", GAME, "python")
        picks = []
        for seed in range(60):
            expected_rng = random.Random(seed)
            expected_rng.random()  # the share draw, as EloBot takes it
            expected = random_move(game, state, seat, expected_rng)
            picks.append(bot.choose(game, state, seat, random.Random(seed)))
            assert picks[-1] == expected
        legal = game.legal_actions(state)
        assert set(picks) == set(legal)  # every legal move comes up over the seeds


def test_random_zero_plays_as_the_plain_bot() -> None:
    game = get_game(GAME)
    state, seat = _decision(5)
    plain = make_bot("medium@20", GAME, "python")
    zero = make_bot("medium@20+random=0", GAME, "python")
    for seed in range(8):
        plain_rng, zero_rng = random.Random(seed), random.Random(seed)
        assert zero.choose(game, state, seat, zero_rng) == plain.choose(
            game, state, seat, plain_rng
        )
        assert zero_rng.getstate() == plain_rng.getstate()  # no extra draw at share 0
    bots = ["medium@10+random=0", "medium@10"]
    mixed = play_game(game, {"players": 2}, bots, (0, 1), 4, engine=Engine.PYTHON)
    pure = play_game(game, {"players": 2}, ["medium@10", "medium@10"], (0, 1), 4,
                     engine=Engine.PYTHON)
    assert (mixed.returns, mixed.scores, mixed.decisions) == (
        pure.returns, pure.scores, pure.decisions
    )


def test_a_mixture_bot_is_the_knobs_bot_at_that_share(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve_table(tmp_path, monkeypatch, GAME)  # elo=150: medium@10 with half random moves
    game = get_game(GAME)
    state, seat = _decision(7)
    knob = make_bot("elo=150", GAME, "python")
    mixture = make_bot("medium@10+random=0.5", GAME, "python")
    for seed in range(10):
        assert mixture.choose(game, state, seat, random.Random(seed)) == knob.choose(
            game, state, seat, random.Random(seed)
        )


@needs_native
def test_a_native_mixture_bot_is_seeded_too() -> None:
    game = get_game(GAME)
    state, seat = _decision(3)
    bot = make_bot("medium@30+random=0.5/native", GAME)
    picks = [bot.choose(game, state, seat, random.Random(s)) for s in range(8)]
    assert picks == [bot.choose(game, state, seat, random.Random(s)) for s in range(8)]
    assert set(picks) <= set(game.legal_actions(state))
    leda = get_game("leda")
    record = play_game(leda, {"clans": ["cats", "sharks"]},
                       ["medium@20+random=0.5", "medium@20"], (0, 1), 3, engine=Engine.NATIVE)
    assert record.finished


def test_matches_and_ladders_take_mixture_bots() -> None:
    game = get_game(GAME)
    bots = ["medium@10+random=0.5/python", "medium@10+random=0.25+reuse=1/python"]
    report, records = run_match(game, bots, 2, 1, ({"players": 2},))
    assert [r.bot for r in report.reports] == bots and len(records) == 2
    settings = ladder_settings(game, {}, ["random", "medium@50+random=0.5", "medium@50"], 2, 1,
                               "python")
    assert settings.bots[1] == "medium@50+random=0.5"
    with pytest.raises(UnknownBotError, match="random=S"):
        ladder_settings(game, {}, ["random", "medium@50+random=5"], 2, 1, "python")
