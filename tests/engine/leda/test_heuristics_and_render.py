"""Heuristic evaluation, rollout weights, tuned presets and the text rendering (evaluation and
weights on both engines; the heuristic's parts, the presets and the rendering are the Python
engine's own)."""

from __future__ import annotations

import random

import pytest

from boardbot.engine import CHANCE, get_game
from boardbot.engine.leda.data import ZONE_BY_NAME, ZONE_MASKS
from boardbot.engine.leda.heuristics import NETWORK_SETTINGS, pending_yield, player_points
from boardbot.engine.leda.state import LedaState, Player
from boardbot.search.api import SearchConfig
from boardbot.search.bots import MctsBot, make_bot
from boardbot.search.native_presets import NATIVE_PRESET_OVERRIDES
from boardbot.search.presets import PRESETS, resolve_preset
from tests.engine.leda.builders import Engine, make_player, make_state, org_stack

GAME = get_game("leda")


def evaluate(engine: Engine, state: LedaState) -> tuple[float, ...]:
    """The engine's evaluation of a Python-built state."""
    return tuple(engine.game.evaluate(engine.state(state)))


def value_after(engine: Engine, state: LedaState, text: str, seat: int = 0) -> float:
    """Seat's evaluation once the action `text` is played."""
    return evaluate(engine, engine.play(state, text))[seat]


def test_evaluation_prefers_the_player_closer_to_victory(engine: Engine) -> None:
    ahead = make_player("sharks", mv=["mv-4", "mv-5", "mv-1"], tokens=("r1c1", "r1c2"))
    state = make_state(ahead, make_player("pandas"), stack=org_stack())
    v0, v1 = evaluate(engine, state)
    assert 0.5 < v0 <= 1.0 and abs(v0 + v1 - 1.0) < 1e-9


def test_evaluation_and_weights_along_random_games(engine: Engine) -> None:
    game = engine.game
    rng = random.Random(0)
    for seed in range(5):
        state = game.new_state({}, seed)
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
                continue
            values = game.evaluate(state)
            assert all(0.0 <= v <= 1.0 for v in values) and abs(sum(values) - 1.0) < 1e-9
            actions = game.legal_actions(state)
            weights = game.policy_weights(state, actions)
            assert len(weights) == len(actions) and all(w > 0 for w in weights)
            state = game.apply(state, rng.choices(list(actions), weights=list(weights))[0])
        assert game.evaluate(state) in ((1.0, 0.0), (0.0, 1.0))


@pytest.mark.parametrize(
    ("clan", "card", "opponent"),
    [
        ("sharks", "shark-4", "pandas"),
        ("pandas", "panda-3", "cats"),
        ("cats", "cat-8", "scorpions"),
        ("scorpions", "scorpion-3", "sharks"),
        ("scorpions", "scorpion-8", "sharks"),
    ],
)
def test_playing_a_card_is_worth_more_than_taking_food(
    engine: Engine, clan: str, card: str, opponent: str
) -> None:
    # r3c1 holds a temporary Food tile still on its front: a card covers something of value.
    p0 = make_player(clan, hand=[card], food=9)
    state = make_state(p0, make_player(opponent), stack=org_stack())
    assert value_after(engine, state, f"play:{card}@r3c1") > value_after(engine, state, "food")


def test_a_card_is_best_played_on_a_desert_and_not_over_an_upgrade(engine: Engine) -> None:
    tiles = {"r3c1": ("temp-food-1", "back"), "r2c1": ("military-1", "back")}
    p0 = make_player("sharks", hand=["shark-4"], food=5, tiles=tiles)
    state = make_state(p0, make_player("cats"), stack=org_stack())
    on_desert = value_after(engine, state, "play:shark-4@r3c1")
    assert on_desert > value_after(engine, state, "play:shark-4@r2c1")
    assert on_desert > value_after(engine, state, "play:shark-4@r3c2")


def test_covering_one_of_your_cards_loses_its_value(engine: Engine) -> None:
    tiles = {"r3c1": ("temp-food-1", "back")}
    p0 = make_player("cats", cards={"r3c2": ["cat-9"]}, hand=["cat-8"], food=5, tiles=tiles)
    state = make_state(p0, make_player("pandas"), stack=org_stack())
    on_desert = value_after(engine, state, "play:cat-8@r3c1")
    assert on_desert > value_after(engine, state, "play:cat-8@r3c2")


def test_more_mv_symbols_raise_the_value(engine: Engine) -> None:
    others = make_player("pandas")
    fewer = make_state(make_player("scorpions", mv=["mv-1"]), others, stack=org_stack())
    more = make_state(make_player("scorpions", mv=["mv-1", "mv-4"]), others, stack=org_stack())
    assert evaluate(engine, more)[0] > evaluate(engine, fewer)[0]
    assert evaluate(engine, more)[1] < evaluate(engine, fewer)[1]


@pytest.mark.parametrize(
    ("weaker", "stronger"),
    [
        (make_player("sharks", tokens=("r1c1",)), make_player("sharks", tokens=("r1c1", "r4c4"))),
        (
            make_player("scorpions", cards={"r2c2": ["scorpion-8"]}),
            make_player("scorpions", cards={"r1c1": ["scorpion-8"]}),
        ),
        (make_player("scorpions"), make_player("scorpions", cards={"r2c2": ["scorpion-8"]})),
        (
            make_player("pandas", cards={"r3c1": ["panda-2"], "r3c2": ["panda-3"]}),
            make_player("pandas", cards={"r3c1": ["panda-7"], "r3c2": ["panda-3"]}),
        ),
        (
            make_player("cats", cards={"r3c1": ["cat-10"]}),
            make_player("cats", cards={"r3c1": ["cat-10"], "r3c2": ["cat-11"]}),
        ),
        (make_player("cats"), make_player("cats", tiles={"r1c1": ("food-1", "back")})),
    ],
    ids=["shark-token", "portal-on-corner", "portal-elsewhere", "awakening", "ring", "upgrade"],
)
def test_clan_progress_and_upgrades_raise_the_points(weaker: Player, stronger: Player) -> None:
    assert player_points(stronger) > player_points(weaker)


def test_a_clan_victory_is_worth_one(engine: Engine) -> None:
    tokens = ("r1c1", "r1c2", "r1c3", "r1c4", "r2c1", "r2c2", "r2c3", "r2c4")
    p0 = make_player("sharks", hand=["shark-11"], food=3, tokens=tokens)
    state = make_state(p0, make_player("pandas", mv=["mv-4", "mv-5"]), stack=org_stack())
    assert 0.5 < evaluate(engine, state)[0] < 1.0
    won = engine.play(state, "play:shark-11@r4c4")
    assert engine.game.is_terminal(engine.state(won)) and evaluate(engine, won) == (1.0, 0.0)


def test_leading_a_pending_conflict_is_worth_part_of_a_token(engine: Engine) -> None:
    def value(military: int, pending: bool) -> float:
        p0 = make_player("sharks", military=military)
        p1 = make_player("cats", military=1)
        # Seat 1 is about to activate row 3 (Food only): the conflict is still to come.
        stack = None if pending else org_stack()
        return evaluate(engine, make_state(p0, p1, zone="row3", seat=1, stack=stack))[0]

    assert value(3, pending=True) > value(1, pending=True)
    assert value(3, pending=False) == value(1, pending=False)  # after the conflict: no bonus


def test_the_zone_still_to_activate_counts_for_its_owner(engine: Engine) -> None:
    # `pending_yield` is the Python heuristic's part; the evaluations run on the engine.
    p0 = make_player("pandas", tiles={"r2c1": ("military-1", "back")})
    row2, row3 = ZONE_BY_NAME["row2"], ZONE_BY_NAME["row3"]
    military, points = pending_yield(p0, ZONE_MASKS[row2], row2)
    assert military == 2 + 1  # upgraded and plain Military tiles; Draw and Special add points
    assert points > 0
    assert pending_yield(p0, 0, row2) == (0.0, 0.0)
    assert pending_yield(p0, ZONE_MASKS[row3], row3)[0] == 0
    # Seat 0 is about to activate its Military row while seat 1 has only Deserts there.
    deserts = {f"r2c{c}": (f"temp-food-{c}", "back") for c in range(1, 5)}
    p1 = make_player("cats", tiles=deserts)
    before = evaluate(engine, make_state(p0, p1, zone="row2"))[0]
    assert before > evaluate(engine, make_state(p0, p1, stack=org_stack()))[0]


def test_playing_cards_weighs_more_than_swapping(engine: Engine) -> None:
    p0 = make_player("sharks", hand=["shark-4"], food=5)
    state = engine.state(make_state(p0, make_player("pandas"), stack=org_stack()))
    game = engine.game
    actions = game.legal_actions(state)
    weights = dict(zip(actions, game.policy_weights(state, actions), strict=True))
    play_action = next(a for a in actions if game.action_to_str(state, a).startswith("play"))
    swap = next(a for a in actions if game.action_to_str(state, a).startswith("swap"))
    assert weights[play_action] > weights[swap]


def test_render_hides_the_opponents_hand() -> None:
    p0 = make_player("sharks", hand=["shark-4"])
    p1 = make_player("pandas", hand=["panda-3"])
    state = make_state(p0, p1, stack=org_stack())
    text = GAME.render(state, 0)
    assert "shark-4" in text and "panda-3" not in text and "hand: 1 cards" in text
    assert "organization" in text and "food" in text
    assert "panda-3" in GAME.render(state)


def test_the_expert_preset_is_tuned_for_leda() -> None:
    """The overrides turn the shared expert preset into LEDA's tuned one, and are read-only."""
    overrides = GAME.preset_overrides
    assert set(overrides) == set(PRESETS)
    assert PRESETS["expert"].replace(**overrides["expert"]) == SearchConfig(
        iterations=6400, exploration=0.7, rollout="heuristic", cutoff_depth=24, temperature=0.0,
        puct=2.0, fpu=-1.0, leaf_lambda=0.0,
    )
    with pytest.raises(TypeError):
        overrides["hard"] = {"iterations": 1}  # type: ignore[index]
    assert dict(get_game("legend_raiders").preset_overrides) == {}
    # On the native core LEDA's presets change their iterations alone (tests/search/test_bots.py
    # pins the values the ladder rated).
    native = NATIVE_PRESET_OVERRIDES["leda"]
    assert all(set(fields) == {"iterations"} for fields in native.values())


def test_every_leda_preset_searches_a_model_with_leda_s_network_settings() -> None:
    """Every preset, on either engine, carries LEDA's settings for a search with a model; a
    bot's own override still wins; Legend Raiders keeps the search's defaults."""
    for engine in ("python", "native"):
        for name in PRESETS:
            config = resolve_preset(name, "leda", engine)
            assert (config.puct, config.fpu, config.leaf_lambda) == (2.0, -1.0, 0.0)
            assert config.model is None
            assert resolve_preset(name, "legend_raiders", engine).fpu == SearchConfig().fpu
    tuned = make_bot("hard+model=leda-2p", "leda", "python")
    assert isinstance(tuned, MctsBot)
    assert tuned.config.model == "leda-2p" and dict(NETWORK_SETTINGS) == {
        "puct": tuned.config.puct, "fpu": tuned.config.fpu, "leaf_lambda": tuned.config.leaf_lambda
    }
    chosen = make_bot("hard+model=leda-2p+puct=0.5+fpu=0.2+lambda=0.5", "leda", "python")
    assert isinstance(chosen, MctsBot)
    assert (chosen.config.puct, chosen.config.fpu, chosen.config.leaf_lambda) == (0.5, 0.2, 0.5)
