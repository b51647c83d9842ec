"""Leaf evaluation, rollout policy weights and the text rendering."""

from __future__ import annotations

from boardbot.engine.legend_raiders import actions as A
from boardbot.engine.legend_raiders.components import COMPONENTS
from tests.engine.legend_raiders.builders import FIVE, GAME, Engine, P, build, tools


def test_evaluate_is_a_value_per_seat_in_unit_range_favouring_the_leader(engine: Engine) -> None:
    state = engine.build([P(1, completed=("olympus", "atlantis"), points=12),
                          P(2, completed=("aegis",), points=2),
                          P(3, completed=("adam",), points=4)])
    values = engine.game.evaluate(state)
    assert len(values) == 3 and all(0.1 <= v <= 0.9 for v in values)
    assert values[0] > values[2] > values[1]


def test_any_win_outranks_every_heuristic_value(engine: Engine) -> None:
    """A runaway lead still evaluates below a won game's reward, so a search finishes the game."""
    state = engine.build([P(1, completed=FIVE, points=24, tools=tools(map=3, rope=3),
                            blind=("mission-book-book",)), P(2)])
    value = engine.game.evaluate(state)[0]
    assert 0.85 < value <= 0.9, "the search's reward for any win is at least 0.9"


def test_evaluate_counts_missions_in_reach(engine: Engine) -> None:
    near = P(1, completed=("aegis",), points=2, blind=("mission-weapon-weapon",))
    far = P(2, completed=("adam",), points=2, blind=("mission-treasure-treasure",))
    values = engine.game.evaluate(engine.build([near, far]))
    assert values[0] > values[1]


def test_policy_prefers_completing_over_stopping(engine: Engine) -> None:
    state = engine.build([P(1, tools=tools(shovel=1, rope=1), prepared=("mjollnir",)), P(2)])
    state = engine.play(state, "roll:coin", "expedition:row1", "reveal:mission-book-book")
    actions = engine.game.legal_actions(state)
    weights = dict(zip(actions, engine.game.policy_weights(state, actions), strict=True))
    assert all(w > 0 for w in weights.values())
    assert weights[A.complete_action(8)] > weights[A.STOP_ACTION]


def test_render_shows_the_table_and_hides_other_hands() -> None:
    # Python only: the native engine has no text picture (`render`).
    state = build([P(1, blind=("mission-book-book",)), P(2)])
    text = GAME.render(state, 1)
    assert "Montana John" in text and "Headquarters" in text
    assert "mission-book-book" not in text and "1 hidden" in text
    assert "mission-book-book" in GAME.render(state, 0)


def test_render_numbers_the_face_up_cards_as_the_moves_name_them() -> None:
    state = GAME.new_state({"players": 3}, 4)
    while GAME.current_player(state) != state.seat or state.row.count(-1) == len(state.row):
        state = GAME.apply(state, GAME.chance_outcomes(state)[0][0])
    line = next(ln for ln in GAME.render(state, 0).splitlines() if ln.startswith("Face-up"))
    named = [GAME.action_to_str(state, a) for a in GAME.legal_actions(state)]
    rows = [n.removeprefix("expedition:") for n in named if n.startswith("expedition:row")]
    assert rows == [f"row{k + 1}" for k in range(A.N_ROW)]
    shown = ", ".join(f"{r} {COMPONENTS.card_ids[j]}" for r, j in zip(rows, state.row, strict=True))
    assert line == f"Face-up cards: {shown}"
