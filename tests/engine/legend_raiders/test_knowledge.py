"""Hidden information: observer views and determinization."""

from __future__ import annotations

import random

import pytest

from boardbot.engine import CHANCE
from boardbot.engine.legend_raiders.chance import bits
from tests.engine.legend_raiders.builders import GAME, P, build, card


def _state() -> object:
    return build([
        P(1, known=("die-1",), blind=("mission-book-book", "discovery-weapon-2")),
        P(2, blind=("die-2",)),
        P(3, known=("mission-place-place",), blind=("discovery-idol-2", "mission-idol-idol",
                                                    "die-3")),
    ])


def test_views_show_hidden_cards_as_counts() -> None:
    state = _state()
    view = GAME.state_to_json(state, 1)
    assert view["observer"] == 1
    assert view["players"][0]["cards_blind"] == 2
    assert view["players"][1]["cards_blind"] == ["die-2"]
    assert view["players"][2]["cards_blind"] == 3
    assert view["players"][2]["cards_face_up"] == ["mission-place-place"]
    assert view["deck"] == state.deck.bit_count()
    assert "stack" in view and isinstance(view["stack"], list), "the stack's contents are public"
    assert view["bag"] == GAME.state_to_json(state)["bag"], "the bag's contents are public"


def test_determinize_keeps_what_the_observer_knows_and_redeals_the_rest() -> None:
    state = _state()
    rng = random.Random(3)
    seen_other_hands = set()
    for _ in range(40):
        world = GAME.determinize(GAME.observe(state, 1), rng)
        assert world.players[1] == state.players[1]
        assert world.players[0].known == state.players[0].known
        assert world.players[2].known == state.players[2].known
        assert [len(p.blind) for p in world.players] == [2, 1, 3]
        assert world.row == state.row and world.hq_tiles == state.hq_tiles
        pool = set(bits(state.deck)) | set(state.players[0].blind) | set(state.players[2].blind)
        redealt = set(bits(world.deck)) | set(world.players[0].blind) | set(
            world.players[2].blind)
        assert redealt == pool
        seen_other_hands.add(world.players[0].blind)
        assert GAME.state_to_json(world, 1) == GAME.state_to_json(state, 1)
    assert len(seen_other_hands) > 10, "the other hands really are resampled"


def test_a_view_deals_the_unknown_cards_canonically() -> None:
    state = _state()
    view = GAME.observe(state, 1)
    assert view.seat == 1 and view.state.players[1] == state.players[1]
    # The lowest unseen card ids, seat by seat, then the deck: what the JSON view decodes to.
    assert view.state.players[0].blind == (card("die-3"), card("die-4"))
    assert view.state == GAME.state_from_json(GAME.state_to_json(state, 1))
    assert GAME.observe(view.state, 1) == view


def test_states_the_seat_cannot_tell_apart_give_equal_views() -> None:
    state = _state()
    # Seat 0's blind Mission and a deck card trade places: only seat 0 can tell.
    mission, other = card("mission-book-book"), min(bits(state.deck))
    p0 = state.players[0]
    twin = state._replace(
        players=(
            p0._replace(blind=tuple(sorted({*p0.blind} - {mission} | {other}))),
            *state.players[1:],
        ),
        deck=state.deck & ~(1 << other) | (1 << mission),
    )
    assert twin != state
    assert GAME.observe(twin, 1) == GAME.observe(state, 1)
    assert GAME.observe(twin, 2) == GAME.observe(state, 2)
    assert GAME.observe(twin, 0) != GAME.observe(state, 0)


def test_a_view_decodes_with_placeholder_cards() -> None:
    state = _state()
    view = GAME.state_to_json(state, 1)
    decoded = GAME.state_from_json(view)
    assert GAME.state_to_json(decoded, 1) == view
    assert decoded.players[1].blind == (card("die-2"),)
    # Placeholders: the lowest unseen card ids, seat by seat, then the deck.
    assert decoded.players[0].blind == (card("die-3"), card("die-4"))


def test_determinize_from_a_decoded_view_is_valid() -> None:
    decoded = GAME.state_from_json(GAME.state_to_json(_state(), 2))
    world = GAME.determinize(GAME.observe(decoded, 2), random.Random(0))
    assert GAME.state_from_json(GAME.state_to_json(world)) == world


def test_a_blind_die_card_used_in_the_diceless_game_goes_back_into_the_deck() -> None:
    state = build([P(1, blind=("die-2", "mission-book-book"), torch=False), P(2)], dice=False)
    deck_before = state.deck.bit_count()
    after = GAME.apply(state, GAME.action_from_str(state, "die-card:torch"))
    assert after.players[0].blind == (card("mission-book-book"),)
    view = GAME.state_to_json(after, 1)
    assert view["players"][0]["cards_blind"] == 1
    assert view["deck"] == deck_before + 1


def _views_equal_after_determinize(options: dict[str, object], seed: int) -> int:
    rng = random.Random(seed)
    state = GAME.new_state(options, seed)
    checked = 0
    step = 0
    while not GAME.is_terminal(state):
        if step % 6 == 0:
            for observer in range(GAME.num_players(state)):
                world = GAME.determinize(GAME.observe(state, observer), rng)
                assert GAME.state_to_json(world, observer) == GAME.state_to_json(state, observer)
                assert world.players[observer] == state.players[observer]
                others = [s for s in range(len(state.players)) if s != observer]
                pool = set(bits(state.deck)).union(*(state.players[s].blind for s in others))
                dealt = set(bits(world.deck)).union(*(world.players[s].blind for s in others))
                assert dealt == pool
                assert GAME.state_from_json(GAME.state_to_json(world)) == world
                checked += 1
        if GAME.current_player(state) == CHANCE:
            action = GAME.sample_chance(state, rng)
        else:
            actions = GAME.legal_actions(state)
            action = actions[rng.randrange(len(actions))]
        state = GAME.apply(state, action)
        step += 1
    return checked


@pytest.mark.parametrize("variant", ["dice", "diceless"])
def test_determinize_keeps_every_view_along_a_whole_game(variant: str) -> None:
    assert _views_equal_after_determinize({"players": 3, "variant": variant}, 11) > 50
