"""The component data file (`engine/leda/components.json`) and the engine's tables read from it."""

from __future__ import annotations

import copy
import gzip
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from boardbot.engine.leda import data as D
from boardbot.engine.leda.components import (
    DATA_FILE,
    OP_ARGS,
    OP_NAMES,
    ComponentDataError,
    parse_components,
)

ROOT = Path(__file__).resolve().parents[3]
VECTORS = ROOT / "core" / "rules" / "tests" / "vectors"


def raw() -> dict[str, Any]:
    """The data file as plain JSON, read without the engine's loader."""
    with DATA_FILE.open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def effect_name(fx: int) -> str | None:
    return None if fx == D.NONE else raw_effects()[fx]["id"]


def raw_effects() -> list[dict[str, Any]]:
    effects: list[dict[str, Any]] = raw()["effects"]
    return effects


def test_clans_setup_and_geometry_are_the_files() -> None:
    data = raw()
    assert list(D.CLAN_NAMES) == [c["id"] for c in data["clans"]]
    assert list(D.MV_THRESHOLD) == [c["mv_threshold"] for c in data["clans"]]
    assert [effect_name(fx) for fx in D.SPECIAL_FX] == [c["special"] for c in data["clans"]]
    assert data["setup"] == {
        "starting_hand": D.STARTING_HAND,
        "starting_food": D.STARTING_FOOD,
        "shark_tokens": D.SHARK_TOKENS,
    }
    assert D.SQUARES == data["grid"]["rows"] * data["grid"]["columns"] == 16
    assert D.SQUARE_NAMES[0] == "r1c1" and D.SQUARE_NAMES[-1] == "r4c4"
    assert [D.SQUARE_NAMES[sq] for sq in D.CORNERS] == ["r1c1", "r1c4", "r4c1", "r4c4"]
    assert D.NEIGHBOURS[5] == (1, 9, 4, 6)


def test_zones_and_action_tiles_are_the_files() -> None:
    data = raw()
    assert list(D.ZONE_NAMES) == [z["id"] for z in data["zones"]]
    for z, zone in enumerate(data["zones"]):
        assert [D.SQUARE_NAMES[sq] for sq in D.ZONE_SQUARES[z]] == zone["squares"]
    for tile in data["action_tiles"]:
        number = tile["number"]
        assert D.ITEM_NAMES[number] == tile["id"]
        assert [D.ZONE_NAMES[z] for z in D.ACTION_TILE_ZONES[number]] == tile["zones"]


def test_effects_are_the_files() -> None:
    effects = raw_effects()
    assert len(D.EFFECTS) == len(effects) == 55
    for fx, effect in enumerate(effects):
        assert effect["number"] == fx and D.EFFECT_TEXT[fx] == effect["text"]
        ops = []
        for op in effect["ops"]:
            args: list[int] = []
            for arg in OP_ARGS.get(op["op"], ()):
                value = op[arg]
                args += [D.EFFECT_BY_NAME[e] for e in value] if arg == "either" else [int(value)]
            ops.append((OP_NAMES.index(op["op"]), *args))
        assert D.EFFECTS[fx] == tuple(ops), effect["id"]
    assert OP_NAMES[D.OP_MIL_PER_ADJ_TOKEN] == "military-per-adjacent-token"
    assert OP_NAMES[D.OP_RING_ROTATE] == "ring-rotate" and len(OP_NAMES) == D.OP_RING_ROTATE + 1


def test_tiles_and_mv_tokens_are_the_files() -> None:
    data = raw()
    kinds = {k["id"]: k for k in data["tile_kinds"]}
    assert list(D.TILE_KIND_NAMES) == list(kinds)
    for t, tile in enumerate(data["tiles"]):
        kind = kinds[tile["kind"]]
        assert D.TILE_NAMES[t] == tile["id"]
        assert D.TILE_KIND_NAMES[D.TILE_KIND[t]] == tile["kind"]
        assert D.TILE_PERMANENT[t] is kind["permanent"]
        front, back = D.TILE_KIND_FX[D.TILE_KIND[t]]
        assert (effect_name(front), effect_name(back)) == (kind["front"], kind["back"])
    for token in data["mv_tokens"]:
        number = token["number"]
        assert D.ITEM_NAMES[number] == token["id"]
        assert D.MV_SYMBOLS[number] == token["symbols"]
        assert effect_name(D.MV_FX[number]) == token["effect"]


def test_cards_are_the_files() -> None:
    cards = raw()["cards"]
    assert D.CARD_COUNT == len(cards) == 46
    for c, card in enumerate(cards):
        assert (c, D.CARD_NAMES[c], D.ITEM_NAMES[c]) == (card["number"], card["id"], card["id"])
        assert D.CLAN_NAMES[D.CARD_CLAN[c]] == card["clan"]
        assert [effect_name(fx) for fx in D.CARD_FACES[c]] == card["faces"]
        assert D.CARD_FOOD_COST[c] == card.get("food_cost", -1)
        assert D.CARD_CARD_COST[c] == card.get("card_cost", 0)
        assert D.CARD_TEXT[c] == card["text"]
        if "level" in card:
            assert ("none", "bronze", "silver", "gold")[D.PANDA_LEVEL[c]] == card["level"]
    by_id = {card["id"]: card for card in cards}
    assert [by_id[D.CARD_NAMES[r]]["ring"] for r in D.RINGS] == ["red", "blue", "purple", "orange"]
    assert [by_id[D.CARD_NAMES[p]]["portal"] for p in D.PORTALS] == [1, 2, 3, 4]
    assert by_id[D.CARD_NAMES[D.PANDA_KING]]["role"] == "king"
    assert by_id[D.CARD_NAMES[D.PANDA_QUEEN]]["role"] == "queen"
    assert (D.CARD_NAMES[D.CAT_COPY], D.CARD_NAMES[D.CAT_SEARCH]) == ("cat-1", "cat-2")


def test_ids_and_counts_agree() -> None:
    assert len(set(D.ITEM_NAMES)) == len(D.ITEM_NAMES) == D.ITEM_COUNT == 69
    assert list(D.ACTION_TILES) + list(D.MV_TOKENS) == list(range(46, 69))
    assert D.ITEM_BY_NAME["action-1"] == D.ACTION_TILE_BASE and D.ITEM_BY_NAME["mv-1"] == D.MV_BASE
    assert [len(cards) for cards in D.CLAN_CARDS] == [13, 11, 11, 11]
    assert sorted(c for cards in D.CLAN_CARDS for c in cards) == list(range(D.CARD_COUNT))
    assert len(D.CAT_ROTATING) == 9 and len(D.NOT_PLAYABLE) == 9
    assert len(set(D.TILE_NAMES)) == len(D.TILE_NAMES) == D.SQUARES
    assert sum(D.MV_SYMBOLS.values()) == 20
    for ops in D.EFFECTS:
        for kind, *args in ops:
            if kind == D.OP_OR:
                assert all(0 <= fx < len(D.EFFECTS) for fx in args)


def test_the_tables_are_those_the_native_vectors_recorded() -> None:
    # The native twin's test compares its tables with this same recorded line.
    recorder_file = VECTORS / "record_leda_states.py"
    spec = importlib.util.spec_from_file_location("record_leda_states", recorder_file)
    assert spec is not None and spec.loader is not None
    recorder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(recorder)
    with gzip.open(VECTORS / "leda_states.jsonl.gz", "rt", encoding="utf-8") as lines:
        recorded = json.loads(next(lines))
    assert json.loads(json.dumps(recorder.data_line())) == recorded


def broken(change: Any) -> ComponentDataError:
    data = copy.deepcopy(raw())
    change(data)
    with pytest.raises(ComponentDataError) as caught:
        parse_components(data)
    return caught.value


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["effects"][3]["ops"][0].update(op="fly"), "$.effects[3].ops[0].op"),
        (lambda d: d["effects"][25]["ops"][0]["either"].pop(), "$.effects[25].ops[0].either"),
        (lambda d: d["effects"][4].update(number=5), "$.effects[4].number"),
        (lambda d: d["cards"][7].update(faces=["draw-3", None]), "$.cards[7].faces[0]"),
        (lambda d: d["cards"][10].update(ring="red"), "$.cards"),
        (lambda d: d["cards"][20].update(level="iron"), "$.cards[20].level"),
        (lambda d: d["cards"][1].update(portal=1), "$.cards[1].portal"),
        (lambda d: d["mv_tokens"][0].update(number=50), "$.mv_tokens[0].number"),
        (lambda d: d["zones"][0]["squares"].append("r5c1"), "$.zones[0].squares"),
        (lambda d: d["tile_kinds"][4].update(back="food-2"), "$.tile_kinds[4].back"),
        (lambda d: d["action_tiles"][0].update(id="cat-1"), "$"),
        (lambda d: d.update(extra=1), "$.extra"),
    ],
)
def test_a_broken_file_is_refused_at_its_path(change: Any, path: str) -> None:
    assert broken(change).path == path
