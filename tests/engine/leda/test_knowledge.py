"""What each seat knows, and determinization keeping exactly that."""

from __future__ import annotations

import random

from boardbot.engine import get_game
from boardbot.engine.leda.state import LedaState
from tests.engine.leda.builders import card, check_valid, make_player, make_state, play
from tests.engine.leda.test_round import conflict_stack, org_stack

GAME = get_game("leda")


def _worlds(state: LedaState, observer: int, n: int = 30) -> list[LedaState]:
    rng = random.Random(4)
    return [check_valid(GAME.determinize(state, observer, rng)) for _ in range(n)]


def test_determinize_keeps_the_observers_view_and_resamples_the_rest() -> None:
    p0 = make_player("sharks", hand=["shark-1", "shark-2"], food=3)
    p1 = make_player("pandas", hand=["panda-1", "panda-2", "panda-3"])
    state = make_state(p0, p1, stack=org_stack())
    worlds = _worlds(state, 0)
    for w in worlds:
        assert w.players[0].hand == state.players[0].hand
        assert sorted(w.players[0].deck) == sorted(state.players[0].deck)
        assert len(w.players[1].hand) == 3 and w.players[1].grid == state.players[1].grid
        assert GAME.state_to_json(w, 0) == GAME.state_to_json(state, 0)
    assert len({w.players[1].hand for w in worlds}) > 1
    assert len({w.mv_pile for w in worlds}) > 1
    assert len({w.players[0].deck for w in worlds}) > 1


def test_a_spied_item_stays_where_the_spy_put_it() -> None:
    p0 = make_player("sharks", military=2)
    state = make_state(p0, make_player("pandas"), stack=conflict_stack(), mv_top=["mv-6"])
    # seat 0 won mv-6 (Spy): look at the MV pile and put the top at the bottom.
    top = state.mv_pile[0]
    state = play(state, "spy:mv", "put:bottom")
    for w in _worlds(state, 0):
        assert w.mv_pile[-1] == top
    assert any(w.mv_pile[-1] != top for w in _worlds(state, 1))


def test_cards_put_under_the_deck_are_known_to_their_owner_only() -> None:
    p0 = make_player("cats", hand=["cat-7", "cat-8"])
    state = make_state(p0, make_player("sharks"), stack=org_stack())
    state = play(state, "play:cat-7@r1c1", "pay:cat-8")
    assert state.players[0].deck[-1] == card("cat-8")
    for w in _worlds(state, 0):
        assert w.players[0].deck[-1] == card("cat-8")
    assert any(w.players[0].deck[-1] != card("cat-8") for w in _worlds(state, 1))


def test_a_card_returned_to_hand_is_known_to_the_opponent() -> None:
    cards = {"r1c1": ["panda-2"], "r1c2": ["panda-3"]}
    p0 = make_player("pandas", cards=cards, hand=["panda-7"], specials=1)
    state = make_state(p0, make_player("sharks"), zone="row3")
    state = play(state, "activate:r3c1", "activate:r3c2", "activate:r3c3", "activate:r3c4")
    state = play(state, "choose:2", "awaken:panda-7@r1c1")
    for w in _worlds(state, 1):
        assert card("panda-2") in w.players[0].hand
    view = GAME.state_to_json(state, 1)
    assert view["players"][0]["hand"]["known"] == ["panda-2"]


def test_mulligan_forgets_what_was_known() -> None:
    state = GAME.new_state({"clans": ["cats", "pandas"], "first_player": 0}, seed=9)
    state = state._replace(known=(frozenset(state.players[0].deck[:1]), frozenset()))
    state = play(state, "mulligan:yes")
    assert not state.known[0]


def test_determinize_never_changes_public_parts_or_the_decision() -> None:
    state = GAME.new_state({"clans": ["sharks", "scorpions"], "first_player": 1}, seed=2)
    state = play(state, "mulligan:no", "mulligan:no")
    for w in _worlds(state, 1, 5):
        assert w.stack == state.stack and w.revealed == state.revealed
        assert GAME.legal_actions(w) == GAME.legal_actions(state)


def test_worlds_sampled_for_either_seat_leave_the_mover_something_to_do() -> None:
    """No decision exists only because of a hidden card: every world keeps it open."""
    from boardbot.engine.leda.frames import (
        F_AWAKEN,
        F_DISCOUNT,
        F_RING_REVEAL,
        F_RINGS,
        F_SEARCH_RING,
    )
    from tests.engine.conformance import random_trajectory

    sensitive = {F_AWAKEN, F_DISCOUNT, F_RING_REVEAL, F_RINGS, F_SEARCH_RING}
    rng = random.Random(11)
    seen = 0
    for g in range(60):
        clans = [["cats", "pandas"], ["pandas", "scorpions"], ["cats", "sharks"]][g % 3]
        for state in random_trajectory(GAME, {"clans": clans}, 300 + g, 5000):
            mover = GAME.current_player(state)
            if mover < 0 or state.stack[-1][0] not in sensitive:
                continue
            seen += 1
            for _ in range(5):
                world = GAME.determinize(state, 1 - mover, rng)
                assert GAME.current_player(world) == mover
                assert GAME.legal_actions(world), GAME.render(world)
    assert seen > 20
