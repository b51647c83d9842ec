"""Defects found by the rules audit: each test pins the corrected behaviour."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from boardbot.engine import InvalidStateError, get_game
from tests.engine.leda.builders import card, check_valid, make_player, make_state, options, play
from tests.engine.leda.test_codec import base_json
from tests.engine.leda.test_round import conflict_stack

GAME = get_game("leda")
ALL_CATS = [f"cat-{i}" for i in range(1, 14)]


# ----------------------------------------------------------------------------- Red Ring window
def test_red_ring_drawn_by_the_conflicts_own_token_can_be_played() -> None:
    """The window follows the token's effect: a Ring that effect draws is playable."""
    deck = ["cat-10", *(c for c in ALL_CATS if c != "cat-10")]
    p0 = make_player("cats", deck=deck, military=4)
    assert not p0.hand
    state = make_state(
        p0, make_player("sharks", military=1), stack=conflict_stack(), mv_top=["mv-17"]
    )
    assert "ring:cat-10@r2c3" in options(state)
    state = play(state, "ring:cat-10@r2c3")
    assert state.players[0].grid[6].cards[-1] == card("cat-10")


def test_red_window_with_an_empty_hand_and_nothing_drawn_is_skipped() -> None:
    p0 = make_player("cats", deck=list(ALL_CATS), military=4)
    state = make_state(
        p0, make_player("sharks", military=1), stack=conflict_stack(), mv_top=["mv-1"]
    )
    assert "food" in options(state) and not any(o.startswith("ring") for o in options(state))


# ----------------------------------------------------------------------------- determinize
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
        world = check_valid(GAME.determinize(state, 0, rng))
        assert world.known[1] == frozenset({world.mv_pile[0]})
        assert GAME.state_to_json(world, 0) == GAME.state_to_json(state, 0)
        tops.add(world.mv_pile[0])
    assert len(tops) > 1
    # The spying seat's own worlds keep the very item on top.
    for _ in range(10):
        world = GAME.determinize(state, 1, rng)
        assert world.mv_pile[0] == state.mv_pile[0] and world.known[1] == state.known[1]


def test_a_world_keeps_that_the_opponent_knows_cards_they_put_under_their_deck() -> None:
    p1 = make_player("cats", hand=["cat-7", "cat-8", "cat-9"])
    state = make_state(make_player("sharks"), p1, stack=conflict_stack())
    state = play(state, "food", "play:cat-7@r1c1", "pay:cat-8")
    assert state.known[1] == frozenset({state.players[1].deck[-1]})
    rng = random.Random(5)
    bottoms = set()
    for _ in range(30):
        world = check_valid(GAME.determinize(state, 0, rng))
        assert world.known[1] == frozenset({world.players[1].deck[-1]})
        bottoms.add(world.players[1].deck[-1])
    assert len(bottoms) > 1


# ----------------------------------------------------------------------------- validation
def _shark_card_without_token(data: dict[str, Any]) -> None:
    data["players"][0]["grid"][0]["shark_token"] = False


def _between_rounds(edit: Callable[[dict[str, Any]], None]) -> Callable[[], dict[str, Any]]:
    def build() -> dict[str, Any]:
        state = GAME.new_state({"clans": ["sharks", "pandas"], "first_player": 0}, seed=4)
        data: dict[str, Any] = orjson.loads(orjson.dumps(GAME.state_to_json(state)))
        assert data["pending"][0]["frame"] == "round"
        GAME.state_from_json(copy.deepcopy(data))
        edit(data)
        return data

    return build


def _four_revealed(data: dict[str, Any]) -> None:
    data["revealed_actions"] = data["action_pile"][:4]
    data["action_pile"] = data["action_pile"][4:]


def _from_base(edit: Callable[[dict[str, Any]], None]) -> Callable[[], dict[str, Any]]:
    def build() -> dict[str, Any]:
        data = base_json()
        GAME.state_from_json(copy.deepcopy(data))
        edit(data)
        return data

    return build


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def _swap_frames(i: int, j: int) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        pending = data["pending"]
        pending[i], pending[j] = pending[j], pending[i]

    return edit


def _drop_frame(i: int) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        del data["pending"][i]

    return edit


def _zone_below_step(data: dict[str, Any]) -> None:
    # Seat 0 is activating: a zone choice still pending under its begun step.
    tile = data["revealed_actions"][-1]
    data["pending"].insert(5, {"frame": "zone", "seat": 0, "args": [46 + int(tile[-1]) - 1]})
    data["zone"] = None


def _push_shuffle(what: int) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["pending"].append({"frame": "shuffle", "seat": 0, "args": [what, 0]})

    return edit


def _push(frame: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["pending"].append(frame)

    return edit


def _push_or(data: dict[str, Any]) -> None:
    data["pending"].append({"frame": "or", "seat": 0, "args": [0, 2, -1]})


BAD = [
    ("shark card without its token", _from_base(_shark_card_without_token),
     "$.players[0].grid[0].shark_token"),
    ("military before the step", _from_base(_set(["players", 1, "military"], 2)),
     "$.players[1].military"),
    ("zone between rounds", _between_rounds(_set(["zone"], "row1")), "$.zone"),
    ("military between rounds", _between_rounds(_set(["players", 0, "military"], 1)),
     "$.players[0].military"),
    ("blocked between rounds", _between_rounds(_set(["mv_blocked"], True)), "$.mv_blocked"),
    ("one Action tile left between rounds", _between_rounds(_four_revealed), "$.action_pile"),
    ("organizations in the wrong order", _from_base(_swap_frames(1, 2)), "$.pending[1]"),
    ("conflict missing", _from_base(_drop_frame(3)), "$.pending[3]"),
    ("zone choice below a step", _from_base(_zone_below_step), "$.pending[5]"),
    ("Ring window for the Sharks", _from_base(_push({"frame": "rings", "seat": 0,
     "args": [0, 2]})), "$.pending[7].seat"),
    ("Awakening for the Sharks", _from_base(_push({"frame": "awaken", "seat": 0, "args": []})),
     "$.pending[7].seat"),
    ("effect between rounds", _between_rounds(_push_or), "$.pending[3]"),
    ("deck shuffle between rounds", _between_rounds(_push_shuffle(1)), "$.pending[3]"),
    ("Action tile shuffle mid-round", _from_base(_push_shuffle(2)), "$.pending[7]"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "build", "path"), BAD, ids=[b[0] for b in BAD])
def test_inconsistent_states_are_rejected_with_their_path(
    what: str, build: Callable[[], dict[str, Any]], path: str
) -> None:
    with pytest.raises(InvalidStateError) as err:
        GAME.state_from_json(build())
    assert err.value.path == path, err.value


# ----------------------------------------------------------------------------- coverage gaps
def test_awakening_in_reach_without_a_silver_in_hand_asks_and_gives_one_food() -> None:
    """Two uncovered Bronzes make the Awakening public; with no Silver in hand it gives 1 Food."""
    p0 = make_player(
        "pandas", cards={"r1c1": ["panda-2"], "r1c2": ["panda-3"]}, hand=["panda-4"], specials=1
    )
    state = make_state(p0, make_player("sharks"), zone="row3")
    state = play(state, "activate:r3c1", "activate:r3c2", "activate:r3c3", "activate:r3c4")
    food = state.players[0].food
    state = play(state, "choose:2")
    assert options(state) == ["food"]
    assert play(state, "food").players[0].food == food + 1
