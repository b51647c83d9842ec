"""Hidden information: observer views and determinization."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardbot.engine import CHANCE
from boardbot.engine.legend_raiders.chance import bits
from tests.engine.legend_raiders.builders import Engine, P, build, card


def _build() -> Any:
    return build([
        P(1, known=("die-1",), blind=("mission-book-book", "discovery-weapon-2")),
        P(2, blind=("die-2",)),
        P(3, known=("mission-place-place",), blind=("discovery-idol-2", "mission-idol-idol",
                                                    "die-3")),
    ])


def _state(engine: Engine) -> Any:
    return engine.state(_build())


def test_views_show_hidden_cards_as_counts(engine: Engine) -> None:
    game = engine.game
    state = _state(engine)
    view = game.state_to_json(state, 1)
    assert view["observer"] == 1
    assert view["players"][0]["cards_blind"] == 2
    assert view["players"][1]["cards_blind"] == ["die-2"]
    assert view["players"][2]["cards_blind"] == 3
    assert view["players"][2]["cards_face_up"] == ["mission-place-place"]
    assert view["deck"] == engine.py(state).deck.bit_count()
    assert "stack" in view and isinstance(view["stack"], list), "the stack's contents are public"
    assert view["bag"] == game.state_to_json(state)["bag"], "the bag's contents are public"


def test_determinize_keeps_what_the_observer_knows_and_redeals_the_rest(engine: Engine) -> None:
    game = engine.game
    state = _state(engine)
    truth = engine.py(state)
    rng = random.Random(3)
    seen_other_hands = set()
    for _ in range(40):
        world = game.determinize(game.observe(state, 1), rng)
        w = engine.py(world)
        assert w.players[1] == truth.players[1]
        assert w.players[0].known == truth.players[0].known
        assert w.players[2].known == truth.players[2].known
        assert [len(p.blind) for p in w.players] == [2, 1, 3]
        assert w.row == truth.row and w.hq_tiles == truth.hq_tiles
        pool = set(bits(truth.deck)) | set(truth.players[0].blind) | set(truth.players[2].blind)
        redealt = set(bits(w.deck)) | set(w.players[0].blind) | set(w.players[2].blind)
        assert redealt == pool
        seen_other_hands.add(w.players[0].blind)
        assert game.state_to_json(world, 1) == game.state_to_json(state, 1)
    assert len(seen_other_hands) > 10, "the other hands really are resampled"


def test_a_view_deals_the_unknown_cards_canonically(engine: Engine) -> None:
    game = engine.game
    state = _state(engine)
    view = game.observe(state, 1)
    assert view.seat == 1 and engine.py(view.state).players[1] == engine.py(state).players[1]
    # The lowest unseen card ids, seat by seat, then the deck: what the JSON view decodes to.
    assert engine.py(view.state).players[0].blind == (card("die-3"), card("die-4"))
    assert view.state == game.state_from_json(game.state_to_json(state, 1))
    assert game.observe(view.state, 1) == view


def test_states_the_seat_cannot_tell_apart_give_equal_views(engine: Engine) -> None:
    game = engine.game
    built = _build()
    # Seat 0's blind Mission and a deck card trade places: only seat 0 can tell.
    mission, other = card("mission-book-book"), min(bits(built.deck))
    p0 = built.players[0]
    twin = engine.state(built._replace(
        players=(
            p0._replace(blind=tuple(sorted({*p0.blind} - {mission} | {other}))),
            *built.players[1:],
        ),
        deck=built.deck & ~(1 << other) | (1 << mission),
    ))
    state = engine.state(built)
    assert twin != state
    assert game.observe(twin, 1) == game.observe(state, 1)
    assert game.observe(twin, 2) == game.observe(state, 2)
    assert game.observe(twin, 0) != game.observe(state, 0)


def test_a_view_decodes_with_placeholder_cards(engine: Engine) -> None:
    game = engine.game
    state = _state(engine)
    view = game.state_to_json(state, 1)
    decoded = game.state_from_json(view)
    assert game.state_to_json(decoded, 1) == view
    assert engine.py(decoded).players[1].blind == (card("die-2"),)
    # Placeholders: the lowest unseen card ids, seat by seat, then the deck.
    assert engine.py(decoded).players[0].blind == (card("die-3"), card("die-4"))


def test_determinize_from_a_decoded_view_is_valid(engine: Engine) -> None:
    game = engine.game
    decoded = game.state_from_json(game.state_to_json(_state(engine), 2))
    world = game.determinize(game.observe(decoded, 2), random.Random(0))
    assert game.state_from_json(game.state_to_json(world)) == world


def test_a_blind_die_card_used_in_the_diceless_game_goes_back_into_the_deck(
    engine: Engine,
) -> None:
    game = engine.game
    state = engine.build([P(1, blind=("die-2", "mission-book-book"), torch=False), P(2)],
                         dice=False)
    deck_before = engine.py(state).deck.bit_count()
    after = game.apply(state, game.action_from_str(state, "die-card:torch"))
    assert engine.py(after).players[0].blind == (card("mission-book-book"),)
    view = game.state_to_json(after, 1)
    assert view["players"][0]["cards_blind"] == 1
    assert view["deck"] == deck_before + 1


def _views_equal_after_determinize(engine: Engine, options: dict[str, object], seed: int) -> int:
    game = engine.game
    rng = random.Random(seed)
    state = game.new_state(options, seed)
    checked = 0
    step = 0
    while not game.is_terminal(state):
        if step % 6 == 0:
            truth = engine.py(state)
            for observer in range(game.num_players(state)):
                world = game.determinize(game.observe(state, observer), rng)
                w = engine.py(world)
                assert game.state_to_json(world, observer) == game.state_to_json(state, observer)
                assert w.players[observer] == truth.players[observer]
                others = [s for s in range(len(truth.players)) if s != observer]
                pool = set(bits(truth.deck)).union(*(truth.players[s].blind for s in others))
                dealt = set(bits(w.deck)).union(*(w.players[s].blind for s in others))
                assert dealt == pool
                assert game.state_from_json(game.state_to_json(world)) == world
                checked += 1
        if game.current_player(state) == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            actions = game.legal_actions(state)
            action = actions[rng.randrange(len(actions))]
        state = game.apply(state, action)
        step += 1
    return checked


@pytest.mark.parametrize("variant", ["dice", "diceless"])
def test_determinize_keeps_every_view_along_a_whole_game(engine: Engine, variant: str) -> None:
    assert _views_equal_after_determinize(engine, {"players": 3, "variant": variant}, 11) > 50
