"""Final scoring: what counts for Missions and coins, and the tie-break from the first player."""

from __future__ import annotations

import pytest

from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.scoring import final_scores, mission_points
from tests.engine.legend_raiders.builders import FIVE, Engine, P, Table, tools


def test_discovery_cards_count_for_missions_but_not_for_coins_or_the_end(engine: Engine) -> None:
    cards = ("discovery-book-2", "discovery-weapon-1", "discovery-idol-2")
    p = P(1, tools=tools(shovel=2), prepared=("aegis",), completed=FIVE[:4], points=20,
          known=cards, blind=("mission-weapon-weapon", "mission-book-book-place"))
    state = engine.build([p, P(2)])
    player = engine.py(state).players[0]
    # Book Book Place: no Place, so not met; Weapon Weapon: only the card so far.
    assert mission_points(player) == 0
    state = engine.play(state, "roll:coin", "keep-roll", "expedition:row1",
                        "reveal:mission-place-place", "complete:aegis")
    player = engine.py(state).players[0]
    assert len(player.completed) == 5 and not engine.py(state).ending, (
        "8 symbols with the cards, but only completed tiles trigger the end"
    )
    # Aegis: 3 empty spaces + the 6th space + the Coin face; the cards show no coins.
    assert player.points == 20 + 5
    assert engine.game.state_to_json(state)["players"][0]["coins_visible"] == 4
    assert mission_points(player) == 3, "Weapon Weapon: Aegis and the Discovery card"


@pytest.mark.parametrize(("first", "winner"), [(2, 0), (0, 2), (3, 2), (1, 0)])
def test_the_tie_break_follows_the_turn_order_from_the_first_player(
    engine: Engine, first: int, winner: int
) -> None:
    """Seats 0 and 2 tie at the top; the one later in the turn order from `first` wins."""
    places = ("babel", "babylon", "olympus", "agartha")
    players = [P(b + 1, completed=(places[b],), points=pts)
               for b, pts in enumerate((7, 4, 7, 5))]
    table = Table(hq=(None, None, None, None), stack=(),
                  removed_tiles=tuple(t for t in C.tile_ids if t not in places),
                  hq_tools=(tools(), tools(), tools(), tools()))
    last = (first - 1) % 4
    state = engine.build(players, table, first=first, seat=last, ending=True)
    state = engine.play(state, "roll:coin", "expedition:row4", "reveal:die-4")
    assert engine.game.is_terminal(state)
    assert final_scores(engine.py(state)) == (7, 4, 7, 5)
    assert engine.game.scores(state) == (7.0, 4.0, 7.0, 5.0)
    assert engine.game.returns(state) == tuple(1.0 if s == winner else 0.0 for s in range(4))
