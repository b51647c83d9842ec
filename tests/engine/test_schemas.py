"""The documented JSON Schemas carry the engine's bounds, and real states conform to them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from boardbot.engine import get_game
from boardbot.engine.leda import bounds as L
from boardbot.engine.leda.frames import ARG_RANGES, FRAME_ARGS, FRAME_NAMES
from boardbot.engine.legend_raiders import bounds as R
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.components import ID_CHARS_MAX
from tests.engine.conformance import random_trajectory
from tests.engine.schema_check import resolve, schema_errors

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _schema(game: str) -> dict[str, Any]:
    return json.loads((DOCS / game / "state.schema.json").read_text())  # type: ignore[no-any-return]


def test_the_leda_schema_carries_every_bound() -> None:
    schema = _schema("leda")
    defs = schema["$defs"]
    player = defs["player"]["properties"]
    assert player["food"]["maximum"] == L.FOOD_MAX
    assert player["military"]["maximum"] == L.MILITARY_MAX
    assert player["specials"]["maximum"] == L.SPECIALS_MAX
    assert player["mv_tokens"]["maxItems"] == L.MV_TOKEN_COUNT
    assert player["rotated"]["maxItems"] == L.ROTATED_MAX
    assert player["knows"]["maxItems"] == L.KNOWS_MAX
    assert defs["gridSquare"]["properties"]["cards"]["maxItems"] == L.LARGEST_CLAN
    assert schema["properties"]["pending"]["maxItems"] == L.PENDING_MAX
    assert schema["properties"]["revealed_actions"]["maxItems"] == L.REVEALED_MAX
    for name, most in (("actionPile", L.ACTION_TILE_COUNT), ("mvPile", L.MV_TOKEN_COUNT),
                       ("deck", L.LARGEST_CLAN), ("hand", L.LARGEST_CLAN)):
        listed, view = defs[name]["oneOf"]
        assert listed["maxItems"] == most and view["properties"]["count"]["maximum"] == most
        assert view["properties"]["known"]["maxItems"] == most


def test_the_leda_schema_gives_every_frame_its_argument_ranges() -> None:
    schema = _schema("leda")
    frames = schema["$defs"]["frame"]["oneOf"]
    assert [f["properties"]["frame"]["const"] for f in frames] == list(FRAME_NAMES)
    for frame, shapes in zip(frames, FRAME_ARGS, strict=True):
        args = frame["properties"]["args"]
        assert args["minItems"] == args["maxItems"] == len(shapes)
        ranges = [resolve(a["$ref"], schema) for a in args.get("prefixItems", [])]
        assert [(r["minimum"], r["maximum"]) for r in ranges] == [ARG_RANGES[s] for s in shapes]


def test_the_legend_raiders_schema_carries_every_bound() -> None:
    schema = _schema("legend_raiders")
    top, defs = schema["properties"], schema["$defs"]
    player, turn = defs["player"]["properties"], defs["turn"]["properties"]
    assert player["points"]["maximum"] == R.POINTS_MAX
    assert player["coins_visible"]["maximum"] == R.COINS_MAX
    assert player["prepared"]["maxItems"] == R.PREPARED_MAX
    assert player["completed"]["maxItems"] == R.COMPLETED_MAX
    assert player["cards_face_up"]["maxItems"] == R.N_CARDS
    assert [b.get("maxItems", b.get("maximum")) for b in player["cards_blind"]["oneOf"]] == [
        R.N_CARDS, R.N_CARDS]
    assert player["character"]["maxLength"] == R.CHARACTER_CHARS_MAX
    assert player["favourite"]["maxLength"] == ID_CHARS_MAX
    assert defs["tile"]["maxLength"] == defs["card"]["maxLength"] == ID_CHARS_MAX
    assert [defs["tools"]["properties"][t]["maximum"] for t in C.tool_ids] == list(C.tool_counts)
    assert turn["coin_bonus"]["maximum"] == R.COIN_BONUS_MAX
    assert turn["tool_draws_left"]["maximum"] == R.TOOL_DRAWS_MAX
    assert turn["completed_this_turn"]["maximum"] == C.completions_per_turn
    assert top["stack"]["maxItems"] == R.STACK_MAX
    assert [b.get("maxItems", b.get("maximum")) for b in top["deck"]["oneOf"]] == [
        R.DECK_MAX, R.DECK_MAX]
    assert top["removed_tiles"]["maxItems"] == R.N_TILES
    assert top["removed_cards"]["maxItems"] == R.N_DIE_CARDS
    assert top["final_scores"]["items"]["maximum"] == R.FINAL_SCORE_MAX
    assert top["idle_turns"]["maximum"] == R.LEGACY_IDLE_TURNS_PER_PLAYER * 4


@pytest.mark.parametrize(("name", "options"), [
    ("leda", {"clans": ["cats", "sharks"]}), ("leda", {"clans": ["pandas", "scorpions"]}),
    ("legend_raiders", {"players": 3, "variant": "diceless"}),
])
def test_random_states_and_views_conform_and_a_number_past_a_bound_does_not(
    name: str, options: dict[str, Any]
) -> None:
    game = get_game(name)
    schema = _schema(name)
    for step, state in enumerate(random_trajectory(game, options, 2, 600)):
        if step % 5 == 0:
            for observer in (None, *range(game.num_players(state))):
                data = game.state_to_json(state, observer)
                assert schema_errors(data, schema, schema) == [], (step, observer)
    data = game.state_to_json(state)
    key = "food" if name == "leda" else "points"
    data["players"][0][key] = 10**6
    assert schema_errors(data, schema, schema) == [f"$.players[0].{key}: above maximum"]


def test_the_schemas_reject_overlong_names() -> None:
    schema = _schema("legend_raiders")
    data = get_game("legend_raiders").state_to_json(
        get_game("legend_raiders").new_state({}, random.Random(3).randrange(100)))
    data["stack"][0] = "x" * (ID_CHARS_MAX + 1)
    assert schema_errors(data, schema, schema) == ["$.stack[0]: longer than maxLength"]
