"""Well-formed states no game can reach are rejected, naming the JSON path at fault (on both
engines, the native one with the Python engine's reason)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from boardbot.engine import get_game
from tests.engine.json_edits import setter
from tests.engine.leda.builders import Engine, base_json

GAME = get_game("leda")


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
    ("military before the step", _from_base(setter(["players", 1, "military"], 2)),
     "$.players[1].military"),
    ("zone between rounds", _between_rounds(setter(["zone"], "row1")), "$.zone"),
    ("military between rounds", _between_rounds(setter(["players", 0, "military"], 1)),
     "$.players[0].military"),
    ("blocked between rounds", _between_rounds(setter(["mv_blocked"], True)), "$.mv_blocked"),
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
    engine: Engine, what: str, build: Callable[[], dict[str, Any]], path: str
) -> None:
    engine.rejects(build(), path)


@pytest.mark.parametrize("mask", [0, 1 << 15], ids=["nothing-left", "outside-the-zone"])
def test_an_activation_with_no_square_of_the_zone_left_is_rejected(
    engine: Engine, mask: int
) -> None:
    """Seat 0 is activating row 1: its `activate` frame may only hold squares still to activate
    there (an empty one is resolved, one outside the zone never offered)."""
    data = base_json()
    assert data["zone"] == "row1" and data["pending"][6]["frame"] == "activate"
    data["pending"][6]["args"] = [mask]
    engine.rejects(data, "$.pending[6]", "the decision on top offers no legal action")


@pytest.mark.parametrize("kept", [0, 1, 2], ids=["empty-deck", "one-card", "two-cards"])
def test_a_shuffle_of_fewer_than_two_cards_is_rejected(engine: Engine, kept: int) -> None:
    """The rules shuffle only a deck of 2 cards or more (a smaller one is left as it is), so a
    pending shuffle of an empty or one-card deck is no state of a game: both engines refuse it
    at decode, where they used to disagree on its outcome (Python applied the empty order,
    which its own notation `shuffle:` could not read back; the native engine refused it)."""
    data = base_json()
    player = data["players"][0]
    player["hand"] += player["deck"][kept:]
    player["deck"] = player["deck"][:kept]
    _push_shuffle(1)(data)
    if kept == 2:
        state = engine.decode(data)
        assert engine.current_player(state) == -1
        return
    engine.rejects(
        data,
        "$.pending[7]",
        "a shuffle orders at least 2 items (the rules shuffle no smaller pile), "
        f"this pile holds {kept}",
    )
