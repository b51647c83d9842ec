"""The board's component lookups (`web/static/games/leda_data.js`, `lr_data.js`), run in Node on
the data files the engines read: every record resolves to the file's own names and numbers."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest

from boardbot.engine import get_game
from boardbot.web.static_files import STATIC_DIR

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="no Node.js to run the page's modules")
CHECK = Path(__file__).with_name("board_data_check.mjs")


def data_file(game: str) -> Path:
    found = get_game(game).game_type.components
    assert found is not None
    return found


@pytest.fixture(scope="module")
def seen() -> dict[str, Any]:
    """What the page's lookups give for every record of both games' data files."""
    files = [str(data_file(game)) for game in ("leda", "legend_raiders")]
    done = subprocess.run(
        [str(NODE), str(CHECK), str(STATIC_DIR), *files],
        capture_output=True,
        timeout=60,
        check=True,
    )
    result: dict[str, Any] = orjson.loads(done.stdout)
    return result


def test_leda_lookups_give_the_files_names(seen: dict[str, Any]) -> None:
    data = orjson.loads(data_file("leda").read_bytes())
    leda = seen["leda"]
    assert len(leda["squares"]) == 16 and leda["squares"][5] == "r2c2"
    assert leda["corners"] == [0, 3, 12, 15] and leda["neighbours"][5] == [1, 9, 4, 6]
    assert leda["rings"] == ["cat-10", "cat-11", "cat-12", "cat-13"]
    assert leda["portals"] == ["scorpion-8", "scorpion-9", "scorpion-10", "scorpion-11"]
    assert leda["golds"] == ["panda-10", "panda-11"]
    for clan in data["clans"]:
        assert leda["clans"][clan["id"]]["mv"] == clan["mv_threshold"]
    for effect in data["effects"]:
        assert leda["effects"][str(effect["number"])] == effect["text"]
    for record in data["cards"] + data["action_tiles"] + data["mv_tokens"]:
        assert leda["items"][str(record["number"])] == record["id"]
    details = {e["id"]: e.get("details", e["text"]) for e in data["effects"]}
    for card in data["cards"]:
        shown = leda["cards"][card["id"]]
        assert shown["clan"] == card["clan"]
        assert shown["faces"] == [details.get(face) for face in card["faces"]]
        assert shown["title"].startswith(shown["name"])
    for tile in data["tiles"]:
        assert leda["tiles"][tile["id"]]["kind"] == tile["kind"]
    for zone in data["zones"]:
        name, squares = leda["zones"][zone["id"]]
        assert name == zone["name"] and [leda["squares"][sq] for sq in squares] == zone["squares"]
    for tile in data["action_tiles"]:
        assert leda["actions"][tile["id"]] == [tile["name"], tile["zones"]]
    for token in data["mv_tokens"]:
        assert leda["mv"][token["id"]][1]["symbols"] == token["symbols"]
    assert leda["unknown"] == ["Cat 99", "effect 999", None, None]


def test_leda_names_read_as_the_board_shows_them(seen: dict[str, Any]) -> None:
    cards, tiles, mv = seen["leda"]["cards"], seen["leda"]["tiles"], seen["leda"]["mv"]
    assert cards["cat-10"]["name"] == "Cat 10 (Red Ring)" and cards["cat-10"]["cost"] == "Ring"
    assert cards["panda-10"]["label"] == "Gold King" and cards["panda-2"]["label"] == "Bronze"
    assert cards["scorpion-8"]["cost"] == "9 \u2212 cards in hand"
    assert (cards["cat-1"]["cost"], cards["cat-7"]["cost"], cards["shark-1"]["cost"]) == (
        "3 cards", "1 card", "6 Food",
    )  # fmt: skip
    assert cards["shark-3"]["faces"] == [None, "Put an MV token under the pile, draw one"]
    assert tiles["temp-food-2"] == {
        "name": "Temp. Food 2", "kind": "temp-food", "permanent": False, "front": "1 Food",
        "back": None,
    }  # fmt: skip
    assert tiles["draw"]["name"] == "Draw" and tiles["special"]["back"] == (
        "Special activation + 1 Food"
    )
    assert mv["mv-4"][0] == "MV 4: 2★" and mv["mv-15"][0] == "MV 15: 1★ + Steal 1 Food"


def test_legend_raiders_lookups_give_the_files_names(seen: dict[str, Any]) -> None:
    data = orjson.loads(data_file("legend_raiders").read_bytes())
    raiders = seen["legend_raiders"]
    for tool in data["tools"]:
        assert raiders["tools"][tool["id"]] == [tool["name"], tool["name"][0]]
    for tile in data["tiles"]:
        shown = raiders["tiles"][tile["id"]]
        assert (shown["name"], shown["symbol"], shown["cost"], shown["coins"]) == (
            tile["name"], tile["symbol"], tile["cost"], tile["coins"],
        )  # fmt: skip
    for card in data["expedition_cards"]:
        shown = raiders["cards"][card["id"]]
        assert shown["kind"] == card["kind"]
        if card["kind"] == "mission":
            assert (shown["requires"], shown["points"]) == (card["requires"], card["points"])
        if card["kind"] == "discovery":
            assert shown["symbol"] == card["symbol"]
    assert raiders["cards"]["die-2"]["name"] == "Die card 2"
    assert raiders["cards"]["discovery-idol-2"]["title"].startswith("Discovery card (Idol 2)")
    assert raiders["characters"][0] == {
        "names": "Montana John / Lin Diana Jones", "favourite": "rope",
    }  # fmt: skip
    assert raiders["limits"] == [3, 6, 6, 4, 4, 3, 1, 1, 0]
