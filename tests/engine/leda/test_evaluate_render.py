"""Heuristic evaluation, rollout weights and the text rendering."""

from __future__ import annotations

import random

from engine import CHANCE, get_game
from tests.engine.leda.builders import make_player, make_state
from tests.engine.leda.test_round import org_stack

GAME = get_game("leda")


def test_evaluation_prefers_the_player_closer_to_victory() -> None:
    ahead = make_player("sharks", mv=["mv-4", "mv-5", "mv-1"], tokens=("r1c1", "r1c2"))
    state = make_state(ahead, make_player("pandas"), stack=org_stack())
    v0, v1 = GAME.evaluate(state)
    assert 0.5 < v0 <= 1.0 and abs(v0 + v1 - 1.0) < 1e-9


def test_evaluation_and_weights_along_random_games() -> None:
    rng = random.Random(0)
    for seed in range(5):
        state = GAME.new_state({}, seed)
        while not GAME.is_terminal(state):
            if GAME.current_player(state) == CHANCE:
                state = GAME.apply(state, GAME.sample_chance(state, rng))
                continue
            values = GAME.evaluate(state)
            assert all(0.0 <= v <= 1.0 for v in values)
            actions = GAME.legal_actions(state)
            weights = GAME.policy_weights(state, actions)
            assert len(weights) == len(actions) and all(w > 0 for w in weights)
            state = GAME.apply(state, rng.choices(list(actions), weights=list(weights))[0])
        assert GAME.evaluate(state) in ((1.0, 0.0), (0.0, 1.0))


def test_playing_cards_weighs_more_than_swapping() -> None:
    p0 = make_player("sharks", hand=["shark-4"], food=5)
    state = make_state(p0, make_player("pandas"), stack=org_stack())
    actions = GAME.legal_actions(state)
    weights = dict(zip(actions, GAME.policy_weights(state, actions), strict=True))
    play = next(a for a in actions if GAME.action_to_str(state, a).startswith("play"))
    swap = next(a for a in actions if GAME.action_to_str(state, a).startswith("swap"))
    assert weights[play] > weights[swap]


def test_render_hides_the_opponents_hand() -> None:
    p0 = make_player("sharks", hand=["shark-4"])
    p1 = make_player("pandas", hand=["panda-3"])
    state = make_state(p0, p1, stack=org_stack())
    text = GAME.render(state, 0)
    assert "shark-4" in text and "panda-3" not in text and "hand: 1 cards" in text
    assert "organization" in text and "food" in text
    assert "panda-3" in GAME.render(state)
