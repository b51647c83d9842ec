"""Loads and validates the Legend Raiders component data (`components.json`).

The data file is a reconstructed component set (see its `about` field); every number the rules
engine uses — tools, characters and favourite tools, tiles with costs and symbols, Expedition
cards, die faces, coin positions and limits — comes from it, so replacing the file is enough to
play with the real component set.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardbot.engine.errors import EngineError
from boardbot.engine.jsonread import JsonReader

DATA_FILE = Path(__file__).with_name("components.json")

FACE_KINDS = ("tool", "torch", "coin")
"""The three die effects the rules know (the data file says how many faces show each)."""

ID_CHARS_MAX = 40
"""The longest id of a tool, tile or card (and of a character's name): a bound of the state."""

CARD_DIE, CARD_DISCOVERY, CARD_MISSION = 0, 1, 2
CARD_KINDS = ("die", "discovery", "mission")


class ComponentDataError(EngineError):
    """The component data file is malformed or inconsistent."""


@dataclass(frozen=True)
class Components:
    """Every component number of the game, as read from the data file."""

    about: str
    tool_ids: tuple[str, ...]
    tool_names: tuple[str, ...]
    tool_counts: tuple[int, ...]
    board_names: tuple[tuple[str, ...], ...]
    board_favourite: tuple[int, ...]
    discovery_spaces: int
    coins_per_empty_space: int
    completed_space_coins: tuple[int, ...]
    backpack_size: int
    symbols: tuple[str, ...]
    tile_ids: tuple[str, ...]
    tile_names: tuple[str, ...]
    tile_symbol: tuple[int, ...]
    tile_cost: tuple[tuple[int, ...], ...]
    tile_coins: tuple[int, ...]
    card_ids: tuple[str, ...]
    card_kind: tuple[int, ...]
    card_symbol: tuple[int, ...]
    mission_requires: tuple[tuple[int, ...], ...]
    mission_points: tuple[int, ...]
    die_faces: tuple[int, ...]
    hq_columns: int
    tools_per_column: int
    face_up_cards: int
    max_prepared: int
    completions_per_turn: int
    end_trigger: int
    die_card_points: int
    diceless_tools: int

    @property
    def total_tools(self) -> int:
        """Number of tool tokens in the game."""
        return sum(self.tool_counts)

    def completed_coins_from(self, covered: int) -> int:
        """Coins still visible on the completed spaces when `covered` of them are covered."""
        return sum(self.completed_space_coins[covered:])


def _ids(items: list[JsonReader], what: str) -> list[str]:
    seen: dict[str, int] = {}
    out: list[str] = []
    for item in items:
        ident = item.get("id").as_str()
        if not 0 < len(ident) <= ID_CHARS_MAX:
            raise item.get("id").fail(f"an id has 1 to {ID_CHARS_MAX} characters")
        if ident in seen:
            raise item.get("id").fail(f"duplicate {what} id {ident!r}")
        seen[ident] = len(out)
        out.append(ident)
    return out


def _name(r: JsonReader) -> str:
    name = r.as_str()
    if not 0 < len(name) <= ID_CHARS_MAX:
        raise r.fail(f"a name has 1 to {ID_CHARS_MAX} characters")
    return name


def parse_components(data: Any) -> Components:
    """Validate decoded component data and build the tables the engine uses."""
    root = JsonReader(data, error=ComponentDataError).obj(
        {"about", "tools", "characters", "board", "symbols", "tiles", "expedition_cards", "die",
         "limits"}
    )
    about = root.get("about").as_str()
    tools = root.get("tools").as_list(1)
    tool_ids = _ids(tools, "tool")
    tool_names = tuple(t.get("name").as_str() for t in tools)
    tool_counts = tuple(t.get("count").as_int(1) for t in tools)
    if sum(tool_counts) != 36:
        raise root.get("tools").fail(f"tool counts add up to {sum(tool_counts)}, expected 36")

    chars = root.get("characters").as_list(4, 4)
    boards = [c.get("board").as_int(1, 4) for c in chars]
    for i, c in enumerate(chars):
        if boards[i] != i + 1:
            raise c.get("board").fail(f"boards must be listed in order 1..4, got {boards[i]}")
    board_names = tuple(tuple(_name(n) for n in c.get("names").as_list(1, 2)) for c in chars)
    board_favourite = tuple(tool_ids.index(c.get("favourite").as_str(tool_ids)) for c in chars)

    board = root.get("board").obj(
        {"discovery_spaces", "coins_per_empty_discovery_space", "completed_space_coins",
         "backpack_size"}
    )
    discovery_spaces = board.get("discovery_spaces").as_int(1, 6)
    coins_per_empty = board.get("coins_per_empty_discovery_space").as_int(0, 5)
    completed_coins = tuple(c.as_int(0, 5) for c in board.get("completed_space_coins").as_list(1))
    backpack = board.get("backpack_size").as_int(1, 20)

    symbols = tuple(s.as_str() for s in root.get("symbols").as_list(1))
    if len(set(symbols)) != len(symbols):
        raise root.get("symbols").fail("duplicate symbol")

    tiles = root.get("tiles").as_list(1, 60)
    tile_ids = _ids(tiles, "tile")
    if set(tile_ids) & set(tool_ids):
        # Move notation names tiles and tools alike (`discard:<id>`, `reveal:<id>`).
        raise root.get("tiles").fail("tile ids must differ from tool ids")
    tile_symbol: list[int] = []
    tile_cost: list[tuple[int, ...]] = []
    for t in tiles:
        t.obj({"id", "name", "symbol", "cost", "coins"})
        tile_symbol.append(symbols.index(t.get("symbol").as_str(symbols)))
        counts = [0] * len(tool_ids)
        for c in t.get("cost").as_list(1, backpack):
            counts[tool_ids.index(c.as_str(tool_ids))] += 1
        tile_cost.append(tuple(counts))
    tile_names = tuple(t.get("name").as_str() for t in tiles)
    tile_coins = tuple(t.get("coins").as_int(0, 5) for t in tiles)

    cards = root.get("expedition_cards").as_list(1, 60)
    card_ids = _ids(cards, "card")
    if set(card_ids) & (set(tile_ids) | set(tool_ids)):
        raise root.get("expedition_cards").fail("card ids must differ from tile and tool ids")
    card_kind: list[int] = []
    card_symbol: list[int] = []
    requires: list[tuple[int, ...]] = []
    points: list[int] = []
    for c in cards:
        kind = CARD_KINDS.index(c.get("kind").as_str(CARD_KINDS))
        card_kind.append(kind)
        sym, req, pts = -1, (0,) * len(symbols), 0
        if kind == CARD_DIE:
            c.obj({"id", "kind"})
        elif kind == CARD_DISCOVERY:
            c.obj({"id", "kind", "symbol"})
            sym = symbols.index(c.get("symbol").as_str(symbols))
        else:
            c.obj({"id", "kind", "requires", "points"})
            counts = [0] * len(symbols)
            for s in c.get("requires").as_list(1):
                counts[symbols.index(s.as_str(symbols))] += 1
            req, pts = tuple(counts), c.get("points").as_int(0, 100)
        card_symbol.append(sym)
        requires.append(req)
        points.append(pts)

    faces = tuple(FACE_KINDS.index(f.as_str(FACE_KINDS)) for f in root.get("die").obj(
        {"faces"}).get("faces").as_list(1))

    limits = root.get("limits").obj(
        {"hq_columns", "tools_per_column", "face_up_cards", "max_prepared",
         "completions_per_turn", "end_trigger_completions", "die_card_points",
         "diceless_die_card_tools"}
    )
    comps = Components(
        about=about,
        tool_ids=tuple(tool_ids),
        tool_names=tool_names,
        tool_counts=tool_counts,
        board_names=board_names,
        board_favourite=board_favourite,
        discovery_spaces=discovery_spaces,
        coins_per_empty_space=coins_per_empty,
        completed_space_coins=completed_coins,
        backpack_size=backpack,
        symbols=symbols,
        tile_ids=tuple(tile_ids),
        tile_names=tile_names,
        tile_symbol=tuple(tile_symbol),
        tile_cost=tuple(tile_cost),
        tile_coins=tile_coins,
        card_ids=tuple(card_ids),
        card_kind=tuple(card_kind),
        card_symbol=tuple(card_symbol),
        mission_requires=tuple(requires),
        mission_points=tuple(points),
        die_faces=faces,
        hq_columns=limits.get("hq_columns").as_int(1, 8),
        tools_per_column=limits.get("tools_per_column").as_int(0, 6),
        face_up_cards=limits.get("face_up_cards").as_int(1, 8),
        max_prepared=limits.get("max_prepared").as_int(1, 6),
        completions_per_turn=limits.get("completions_per_turn").as_int(1, 8),
        end_trigger=limits.get("end_trigger_completions").as_int(1, 20),
        die_card_points=limits.get("die_card_points").as_int(0, 10),
        diceless_tools=limits.get("diceless_die_card_tools").as_int(0, 6),
    )
    if comps.max_prepared != comps.discovery_spaces:
        raise limits.get("max_prepared").fail("must equal board.discovery_spaces")
    if len(tile_ids) < comps.hq_columns or len(card_ids) < comps.face_up_cards:
        raise root.fail("not enough tiles or cards to set up the HQ and the face-up row")
    if comps.hq_columns * comps.tools_per_column > comps.total_tools:
        raise limits.get("tools_per_column").fail("more HQ tools than tools in the game")
    return comps


def load_components(path: Path = DATA_FILE) -> Components:
    """Read and validate a component data file."""
    with path.open(encoding="utf-8") as handle:
        return parse_components(json.load(handle))


COMPONENTS = load_components()
"""The component set the engine plays with."""
