"""Rule points pinned by the rules audit: one Die card per roll, Discovery cards for Missions
only, the tie-break counted from the first player, determinization along whole games, hands
revealed at the end, and the end of a game whose 6th discovery is out of reach."""

from __future__ import annotations

import random

import pytest

from boardbot.engine import CHANCE, InvalidStateError
from boardbot.engine.legend_raiders.chance import bits
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.scoring import final_scores, mission_points
from tests.engine.legend_raiders.builders import (
    FIVE,
    GAME,
    P,
    Table,
    build,
    card,
    phase_name,
    play,
    texts,
    tools,
)


def test_only_one_die_card_per_roll_in_the_standard_game() -> None:
    state = build([P(3, known=("die-1", "die-2")), P(1)])
    state = play(state, "roll:torch", "die-card:coin")
    assert phase_name(state) == "action"
    assert not any(t.startswith("die-card") for t in texts(state))
    assert state.players[0].known == (card("die-2"),), "the other Die card is kept"
    assert state.removed_cards == 1 << card("die-1")
    state = play(state, "prepare:1", "reveal:olympus", "draw:map", "draw:map", "roll:coin")
    assert phase_name(state) == "action", "the other player has no card that could be a Die card"
    # The kept one can be used after this player's next roll.
    state = play(state, "prepare:2", "reveal:babel", "draw:map", "draw:map", "roll:torch")
    assert state.seat == 0
    assert texts(state) == ["keep-roll", "die-card:tool", "die-card:coin"]


def test_discovery_cards_count_for_missions_but_not_for_coins_or_the_end() -> None:
    cards = ("discovery-book-2", "discovery-weapon-1", "discovery-idol-2")
    p = P(1, tools=tools(shovel=2), prepared=("aegis",), completed=FIVE[:4], points=20,
          known=cards, blind=("mission-weapon-weapon", "mission-book-book-place"))
    state = build([p, P(2)])
    player = state.players[0]
    # Book Book Place: no Place, so not met; Weapon Weapon: only the card so far.
    assert mission_points(player) == 0
    state = play(state, "roll:coin", "keep-roll", "expedition:row1", "reveal:mission-place-place",
                 "complete:aegis")
    player = state.players[0]
    assert len(player.completed) == 5 and not state.ending, (
        "8 symbols with the cards, but only completed tiles trigger the end"
    )
    # Aegis: 3 empty spaces + the 6th space + the Coin face; the cards show no coins.
    assert player.points == 20 + 5
    assert GAME.state_to_json(state)["players"][0]["coins_visible"] == 4
    assert mission_points(player) == 3, "Weapon Weapon: Aegis and the Discovery card"


@pytest.mark.parametrize(("first", "winner"), [(2, 0), (0, 2), (3, 2), (1, 0)])
def test_the_tie_break_follows_the_turn_order_from_the_first_player(
    first: int, winner: int
) -> None:
    """Seats 0 and 2 tie at the top; the one later in the turn order from `first` wins."""
    places = ("babel", "babylon", "olympus", "agartha")
    players = [P(b + 1, completed=(places[b],), points=pts)
               for b, pts in enumerate((7, 4, 7, 5))]
    table = Table(hq=(None, None, None, None), stack=(),
                  removed_tiles=tuple(t for t in C.tile_ids if t not in places),
                  hq_tools=(tools(), tools(), tools(), tools()))
    last = (first - 1) % 4
    state = build(players, table, first=first, seat=last, ending=True)
    state = play(state, "roll:coin", "expedition:row4", "reveal:die-4")
    assert GAME.is_terminal(state)
    assert final_scores(state) == (7, 4, 7, 5)
    assert GAME.returns(state) == tuple(1.0 if s == winner else 0.0 for s in range(4))


def _views_equal_after_determinize(options: dict[str, object], seed: int) -> int:
    rng = random.Random(seed)
    state = GAME.new_state(options, seed)
    checked = 0
    step = 0
    while not GAME.is_terminal(state):
        if step % 6 == 0:
            for observer in range(GAME.num_players(state)):
                world = GAME.determinize(state, observer, rng)
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


def test_render_reveals_every_hand_once_the_game_is_over() -> None:
    table = Table(hq=(None, None, None, None), stack=(),
                  removed_tiles=tuple(t for t in C.tile_ids if t not in ("babel", "babylon")),
                  hq_tools=(tools(), tools(), tools(), tools()))
    state = build([P(1, completed=("babel",), points=6, blind=("mission-book-book",)),
                   P(2, completed=("babylon",), points=6)], table, seat=1, ending=True)
    assert "1 hidden" in GAME.render(state, 1)
    state = play(state, "roll:coin", "expedition:row4", "reveal:die-4")
    assert GAME.is_terminal(state)
    text = GAME.render(state, 1)
    assert "mission-book-book" in text and "hidden" not in text


def test_an_exhausted_supply_does_not_end_the_game_while_a_sixth_discovery_is_possible() -> None:
    table = Table(hq=(None, None, None, "babel"), stack=(),
                  removed_tiles=tuple(t for t in C.tile_ids if t not in ("babel", *FIVE)),
                  hq_tools=(tools(), tools(), tools(), tools(rope=2)))
    state = build([P(1, completed=FIVE, points=20, tools=tools(compass=1)), P(2)], table,
                  first=0, seat=0)
    state = play(state, "roll:coin", "prepare:4", "draw:map", "draw:map")
    assert state.stack == 0 and all(t == -1 for t in state.hq_tiles)
    assert not state.ending, "5 completed + Babel prepared: the 6th discovery is in reach"
    state = play(state, "roll:coin", "expedition:row1", "reveal:die-1")
    assert state.seat == 0 and not GAME.is_terminal(state), "a new round starts"
    data = GAME.state_to_json(state)
    assert "idle_turns" not in data, "no longer written"
    data["idle_turns"] = 6
    assert GAME.state_from_json(data) == state, "still accepted from former versions, unused"
    data["idle_turns"] = 7
    with pytest.raises(InvalidStateError) as err:
        GAME.state_from_json(data)
    assert err.value.path == "$.idle_turns"
    state = play(state, "roll:torch", "expedition:row2", "reveal:die-2", "complete:babel")
    assert state.ending and state.seat == 1
    state = play(state, "roll:coin", "prepare:4", "draw:map", "draw:map")
    assert GAME.is_terminal(state)
