"""What each seat knows, and determinization keeping exactly that."""

from __future__ import annotations

import random

import pytest

from boardbot.engine import CHANCE, get_game
from boardbot.engine.leda.knowledge import sample_world
from boardbot.engine.leda.state import LedaState
from tests.engine.leda.builders import (
    CLAN_PAIRS,
    Engine,
    card,
    check_valid,
    conflict_stack,
    make_player,
    make_state,
    org_stack,
    play,
)

GAME = get_game("leda")


def _worlds(engine: Engine, state: LedaState, observer: int, n: int = 30) -> list[LedaState]:
    """Worlds the engine samples from `observer`'s view of `state`, read back as Python states;
    each is valid for both engines and gives `observer` the view of `state`."""
    game = engine.game
    truth = engine.state(state)
    seen = game.state_to_json(truth, observer)
    view = game.observe(truth, observer)
    rng = random.Random(4)
    worlds = []
    for _ in range(n):
        world = engine.checked(game.determinize(view, rng))
        assert game.state_to_json(world, observer) == seen
        assert game.observe(world, observer) == view
        worlds.append(check_valid(engine.py(world)))
    return worlds


def test_determinize_keeps_the_observers_view_and_resamples_the_rest(engine: Engine) -> None:
    p0 = make_player("sharks", hand=["shark-1", "shark-2"], food=3)
    p1 = make_player("pandas", hand=["panda-1", "panda-2", "panda-3"])
    state = make_state(p0, p1, stack=org_stack())
    worlds = _worlds(engine, state, 0)
    for w in worlds:
        assert w.players[0].hand == state.players[0].hand
        assert sorted(w.players[0].deck) == sorted(state.players[0].deck)
        assert len(w.players[1].hand) == 3 and w.players[1].grid == state.players[1].grid
        assert GAME.state_to_json(w, 0) == GAME.state_to_json(state, 0)
    assert len({w.players[1].hand for w in worlds}) > 1
    assert len({w.mv_pile for w in worlds}) > 1
    assert len({w.players[0].deck for w in worlds}) > 1


def test_a_view_keeps_known_positions_and_orders_the_rest(engine: Engine) -> None:
    """Items the seat can place stay put (the opponent's known hand cards first); every other
    hidden position holds the unknown items in ascending order; only the seat's knowledge stays."""
    p1 = make_player("pandas", military=2)
    state = engine.conflict(make_player("sharks"), p1, mv_top=["mv-6"])
    state = engine.play(state, "spy:mv", "put:top")
    top = state.mv_pile[0]
    game, truth = engine.game, engine.state(state)
    view = game.observe(truth, 1)
    seen = engine.py(view.state)
    assert view.seat == 1
    assert seen.mv_pile[0] == top and list(seen.mv_pile[1:]) == sorted(state.mv_pile[1:])
    assert seen.known == (frozenset(), frozenset({top}))
    assert seen.players[1].hand == state.players[1].hand
    assert list(seen.players[0].hand) == sorted(state.players[0].hand)
    assert view.state == game.state_from_json(game.state_to_json(truth, 1))
    seat0 = game.observe(truth, 0)
    assert engine.py(seat0.state).known == (frozenset(), frozenset()), (
        "what seat 1 knows is not seat 0's"
    )
    assert game.observe(seat0.state, 0) == seat0


def test_states_the_seat_cannot_tell_apart_give_equal_views(engine: Engine) -> None:
    p0 = make_player("sharks", hand=["shark-1", "shark-2"], food=3)
    p1 = make_player("pandas", hand=["panda-1", "panda-2", "panda-3"])
    state = make_state(p0, p1, stack=org_stack())
    own, opp = state.players
    # The opponent's hand and deck trade a card, seat 0's deck and both piles are reordered, and
    # the opponent knows the MV pile's top: nothing seat 0 can see.
    opp_twin = opp._replace(hand=(opp.deck[0], *opp.hand[1:]), deck=(opp.hand[0], *opp.deck[1:]))
    twin = state._replace(
        players=(own._replace(deck=own.deck[::-1]), opp_twin),
        action_pile=state.action_pile[::-1],
        mv_pile=state.mv_pile[::-1],
        known=(state.known[0], frozenset({state.mv_pile[-1]})),
    )
    game = engine.game

    def view(s: LedaState, seat: int) -> object:
        return game.observe(engine.state(check_valid(s)), seat)

    assert engine.state(twin) != engine.state(state)
    assert view(twin, 0) == view(state, 0)
    assert view(twin, 1) != view(state, 1), "seat 1's own hand changed"
    fed = state._replace(players=(own._replace(food=4), opp))
    assert view(fed, 0) != view(state, 0), "Food is public"


def test_a_spied_item_stays_where_the_spy_put_it(engine: Engine) -> None:
    p0 = make_player("sharks", military=2)
    state = engine.conflict(p0, make_player("pandas"), mv_top=["mv-6"])
    # seat 0 won mv-6 (Spy): look at the MV pile and put the top at the bottom.
    top = state.mv_pile[0]
    state = engine.play(state, "spy:mv", "put:bottom")
    for w in _worlds(engine, state, 0):
        assert w.mv_pile[-1] == top
    assert any(w.mv_pile[-1] != top for w in _worlds(engine, state, 1))


def test_cards_put_under_the_deck_are_known_to_their_owner_only(engine: Engine) -> None:
    p0 = make_player("cats", hand=["cat-7", "cat-8"])
    state = make_state(p0, make_player("sharks"), stack=org_stack())
    state = engine.play(state, "play:cat-7@r1c1", "pay:cat-8")
    assert state.players[0].deck[-1] == card("cat-8")
    for w in _worlds(engine, state, 0):
        assert w.players[0].deck[-1] == card("cat-8")
    assert any(w.players[0].deck[-1] != card("cat-8") for w in _worlds(engine, state, 1))


def test_a_card_returned_to_hand_is_known_to_the_opponent(engine: Engine) -> None:
    cards = {"r1c1": ["panda-2"], "r1c2": ["panda-3"]}
    p0 = make_player("pandas", cards=cards, hand=["panda-7"], specials=1)
    state = make_state(p0, make_player("sharks"), zone="row3")
    state = engine.play(state, "activate:r3c1", "activate:r3c2", "activate:r3c3", "activate:r3c4")
    state = engine.play(state, "choose:2", "awaken:panda-7@r1c1")
    for w in _worlds(engine, state, 1):
        assert card("panda-2") in w.players[0].hand
    view = engine.game.state_to_json(engine.state(state), 1)
    assert view["players"][0]["hand"]["known"] == ["panda-2"]


def test_mulligan_forgets_what_was_known(engine: Engine) -> None:
    state = GAME.new_state({"clans": ["cats", "pandas"], "first_player": 0}, seed=9)
    state = state._replace(known=(frozenset(state.players[0].deck[:1]), frozenset()))
    state = engine.play(check_valid(state), "mulligan:yes")
    assert not state.known[0]


def test_determinize_never_changes_public_parts_or_the_decision(engine: Engine) -> None:
    state = GAME.new_state({"clans": ["sharks", "scorpions"], "first_player": 1}, seed=2)
    state = engine.play(state, "mulligan:no", "mulligan:no")
    for w in _worlds(engine, state, 1, 5):
        assert w.stack == state.stack and w.revealed == state.revealed
        assert engine.options(w) == engine.options(state)


def test_worlds_sampled_for_either_seat_leave_the_mover_something_to_do(engine: Engine) -> None:
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
            # Python games; the engine under test samples the worlds.
            game, truth = engine.game, engine.state(state)
            for _ in range(5):
                world = game.determinize(game.observe(truth, 1 - mover), rng)
                assert game.current_player(world) == mover
                assert game.legal_actions(world), game.render(world)
    assert seen > 20


# Worlds sampled from a full state, which records what the opponent knows too (a view keeps
# only its own seat's knowledge). Python only: `sample_world` is the Python engine's function
# under `determinize`; the engines' `determinize` starts from a view.
def test_a_world_keeps_that_the_opponent_knows_the_pile_position_they_spied() -> None:
    """Seat 1 spied the MV pile top: in worlds sampled for seat 0 the (resampled) top is
    still known to seat 1, so the sampled world agrees with what seat 0 knows of seat 1."""
    p1 = make_player("pandas", military=2)
    state = make_state(make_player("sharks"), p1, stack=conflict_stack(), mv_top=["mv-6"])
    state = play(state, "spy:mv", "put:top")
    assert state.mv_pile[0] in state.known[1] and not state.known[0]
    rng = random.Random(3)
    tops = set()
    for _ in range(30):
        world = check_valid(sample_world(state, 0, rng))
        assert world.known[1] == frozenset({world.mv_pile[0]})
        assert GAME.state_to_json(world, 0) == GAME.state_to_json(state, 0)
        tops.add(world.mv_pile[0])
    assert len(tops) > 1
    # The spying seat's own worlds keep the very item on top.
    for _ in range(10):
        world = sample_world(state, 1, rng)
        assert world.mv_pile[0] == state.mv_pile[0] and world.known[1] == state.known[1]


def test_a_world_keeps_that_the_opponent_knows_cards_they_put_under_their_deck() -> None:
    p1 = make_player("cats", hand=["cat-7", "cat-8", "cat-9"])
    state = make_state(make_player("sharks"), p1, stack=conflict_stack())
    state = play(state, "food", "play:cat-7@r1c1", "pay:cat-8")
    assert state.known[1] == frozenset({state.players[1].deck[-1]})
    rng = random.Random(5)
    bottoms = set()
    for _ in range(30):
        world = check_valid(sample_world(state, 0, rng))
        assert world.known[1] == frozenset({world.players[1].deck[-1]})
        bottoms.add(world.players[1].deck[-1])
    assert len(bottoms) > 1


def _hidden_pools(state: LedaState, observer: int) -> tuple[object, ...]:
    """What `observer` cannot place, as unordered pools: a world may only deal these anew."""
    own, opp = state.players[observer], state.players[1 - observer]
    return (
        sorted(own.deck), sorted(opp.hand + opp.deck), sorted(state.mv_pile),
        sorted(state.action_pile), len(opp.hand), len(opp.deck),
    )  # fmt: skip


def _public(state: LedaState, observer: int) -> tuple[object, ...]:
    """Everything `observer` sees in place."""
    own, opp = state.players[observer], state.players[1 - observer]
    return (
        own.hand, opp.grid, own.grid, opp.mv, own.mv, opp.food, opp.military, opp.specials,
        opp.rotated, own.rotated, state.revealed, state.stack, state.zone, state.active,
        state.blocked, state.winner,
    )  # fmt: skip


@pytest.mark.parametrize("clans", CLAN_PAIRS, ids=["-".join(p) for p in CLAN_PAIRS])
def test_determinize_keeps_every_view_along_a_whole_game(
    engine: Engine, clans: tuple[str, str]
) -> None:
    """The engine's own game: every few steps, a world sampled for either seat gives that seat
    its view, keeps what it sees in place and deals the hidden items anew from the same pools."""
    game = engine.game
    rng = random.Random(7)
    state = game.new_state({"clans": list(clans), "first_player": 0}, 7)
    checked = 0
    step = 0
    while not game.is_terminal(state):
        if step % 5 == 0:
            truth = engine.py(state)
            for observer in (0, 1):
                world = game.determinize(game.observe(state, observer), rng)
                assert game.state_to_json(world, observer) == game.state_to_json(state, observer)
                assert game.state_from_json(game.state_to_json(world)) == world
                w = engine.py(world)
                assert _public(w, observer) == _public(truth, observer)
                assert _hidden_pools(w, observer) == _hidden_pools(truth, observer)
                checked += 1
        if game.current_player(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            actions = game.legal_actions(state)
            state = game.apply(state, actions[rng.randrange(len(actions))])
        step += 1
    assert checked > 20
