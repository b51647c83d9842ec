"""The hot state updates build a LedaState by naming every field in order: they must agree with
`_replace` field for field, so adding or reordering a field cannot silently shift the others."""

from __future__ import annotations

import random

from boardbot.engine.leda.frames import F_ORG
from boardbot.engine.leda.rules import initial_state
from boardbot.engine.leda.state import KIND, SEAT, LedaState, set_player, set_stack


def _state() -> LedaState:
    return initial_state((0, 1), 0, random.Random(7))


def test_set_stack_matches_replace() -> None:
    state = _state()
    stack = (*state.stack, (F_ORG, 1))
    updated = set_stack(state, stack)
    assert type(updated) is LedaState
    assert updated == state._replace(stack=stack)
    assert updated._asdict() == {**state._asdict(), "stack": stack}
    assert all(updated[i] is state[i] for i, name in enumerate(state._fields) if name != "stack")


def test_set_player_matches_replace() -> None:
    state = _state()
    for seat in (0, 1):
        player = state.players[seat]._replace(food=7)
        updated = set_player(state, seat, player)
        players = (player, state.players[1]) if seat == 0 else (state.players[0], player)
        assert type(updated) is LedaState
        assert updated._asdict() == {**state._asdict(), "players": players}
        assert updated.players[1 - seat] is state.players[1 - seat]


def test_frame_indexes() -> None:
    assert (F_ORG, 1)[KIND] == F_ORG and (F_ORG, 1)[SEAT] == 1
