"""Every tile face when activated, upgrades, Deserts and flips."""

from __future__ import annotations

import pytest

from boardbot.engine.leda.state import LedaState
from tests.engine.leda.builders import Engine, make_player, make_state, sq


def _activate(
    engine: Engine, square: str, zone: str, face: str = "front", tile: str | None = None
) -> LedaState:
    tiles = {square: (tile, face)} if tile else {}
    p0 = make_player("sharks", tiles=tiles, food=0)
    p1 = make_player("pandas", food=0)
    state = make_state(p0, p1, zone=zone)
    return engine.play(state, f"activate:{square}")


@pytest.mark.parametrize(
    ("tile", "face", "food", "military", "hand"),
    [
        ("food-1", "front", 1, 0, 0),
        ("food-1", "back", 2, 0, 0),
        ("military-1", "front", 0, 1, 0),
        ("military-1", "back", 0, 2, 0),
        ("draw", "front", 0, 0, 1),
        ("draw", "back", 0, 0, 2),
        ("temp-food-1", "front", 1, 0, 0),
        ("temp-military", "front", 0, 1, 0),
        ("temp-draw", "front", 0, 0, 1),
    ],
)
def test_tile_faces(
    engine: Engine, tile: str, face: str, food: int, military: int, hand: int
) -> None:
    state = _activate(engine, "r1c1", "row1", face, tile)
    p = state.players[0]
    assert (p.food, p.military, len(p.hand)) == (food, military, hand)


def test_temporary_tile_becomes_a_desert_and_then_has_nothing_to_activate(engine: Engine) -> None:
    state = _activate(engine, "r3c1", "row3")
    assert state.players[0].grid[sq("r3c1")].face == 1
    assert "activate:r3c1" not in engine.options(state)
    p0 = make_player("sharks", tiles={"r1c1": ("temp-food-1", "back")})
    fresh = make_state(p0, make_player("pandas"), zone="row1")
    assert "activate:r1c1" not in engine.options(fresh)


def test_permanent_special_and_upgraded_special(engine: Engine) -> None:
    p0 = make_player("sharks", tiles={"r1c1": ("special", "back")}, food=0)
    state = make_state(p0, make_player("pandas"), zone="row1")
    state = engine.play(state, "activate:r1c1")
    # The Food comes now, the special (Sharks: 2 Military) waits for the end of the step.
    assert state.players[0].food == 1 and state.players[0].specials == 1
    assert state.players[0].military == 0


def test_temporary_special_flips(engine: Engine) -> None:
    state = _activate(engine, "r4c4", "row4")
    assert state.players[0].grid[sq("r4c4")].face == 1
    assert state.players[0].specials == 1


def test_temporary_upgrade_upgrades_a_permanent_uncovered_tile(engine: Engine) -> None:
    state = _activate(engine, "r4c3", "row4")
    assert state.players[0].grid[sq("r4c3")].face == 1
    opts = engine.options(state)
    # Only permanent, not-yet-upgraded, uncovered tiles: rows 1 and 2 of the default grid.
    assert opts == [f"upgrade:r{r}c{c}" for r in (1, 2) for c in range(1, 5)]
    state = engine.play(state, "upgrade:r2c1")
    assert state.players[0].grid[sq("r2c1")].face == 1


def test_upgrade_is_lost_without_a_target(engine: Engine) -> None:
    tiles = {f"r{r}c{c}": (name, "back") for r, c, name in _all_permanent()}
    p0 = make_player("sharks", tiles=tiles)
    state = make_state(p0, make_player("pandas"), zone="row4")
    state = engine.play(state, "activate:r4c3")
    assert not any(o.startswith("upgrade:") for o in engine.options(state))


def _all_permanent() -> list[tuple[int, int, str]]:
    names = ["food-1", "food-2", "food-3", "food-4", "military-1", "military-2", "draw", "special"]
    return [(1 + i // 4, 1 + i % 4, n) for i, n in enumerate(names)]


def test_covered_tile_is_not_activated_nor_upgradable(engine: Engine) -> None:
    p0 = make_player("sharks", cards={"r1c1": ["shark-4"]}, food=0)
    state = make_state(p0, make_player("pandas"), zone="row4")
    state = engine.play(state, "activate:r4c3")
    assert "upgrade:r1c1" not in engine.options(state)
