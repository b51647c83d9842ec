"""Loads and validates the LEDA component data (`components.json`).

The file is the one copy of every component fact: the Python engine reads it here, the native
engine compiles it in (core/rules/codegen/) and the analysis board fetches it from the web
gateway. `data.py` turns what this module reads into the engine's tables; the format is in
docs/leda/components.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardbot.engine.errors import EngineError
from boardbot.engine.jsonread import JsonReader

DATA_FILE = Path(__file__).with_name("components.json")

OP_NAMES = (
    "food", "military", "draw", "upgrade", "spy", "special", "flip", "steal", "or",
    "play-discount", "draw-mv", "queen", "activate-tile-upgrade", "retrigger-mv", "mv-under-draw",
    "military-per-adjacent-token", "food-per-mv-pair", "food-per-mv", "place-token", "copy",
    "search-ring", "activate-tile", "military-per-hand", "food-per-hand", "ring-for-mv",
    "food-per-desert-pair", "military-per-desert-pair", "discount-per-desert-pair",
    "desert-effect", "upgrade-activate", "portal-bonus", "spy-twice", "downgrade-opponent",
    "swap", "block-mv", "awaken", "ring-rotate",
)  # fmt: skip
"""The ops the engines know, by name; an op's kind (`data.OP_*`) is its index here."""

OP_ARGS = {
    "food": ("amount",),
    "military": ("amount",),
    "draw": ("amount",),
    "or": ("either",),
    "play-discount": ("amount", "pandas_only"),
}
"""The arguments of each op that has any, in the order of the engine's op tuple."""

RING_COLOURS = ("red", "blue", "purple", "orange")
"""The Cats' Rings, in the order of the engine's Ring masks."""

PANDA_LEVELS = ("none", "bronze", "silver", "gold")
"""Panda levels; a level's number (`data.BRONZE`, ...) is its index here."""

ROYAL_ROLES = ("king", "queen")
"""The two Gold Pandas a Panda clan victory needs."""

PORTAL_NUMBERS = (1, 2, 3, 4)
"""The Portals' numbers (the `portal` field of four Scorpion cards)."""

ZONE_SIZE = 4
"""Squares in every zone."""

MAX_SQUARES = 16
"""Most squares a grid may have: the state holds sets of squares as 16-bit masks."""


class ComponentDataError(EngineError):
    """The component data file is malformed or inconsistent."""


@dataclass(frozen=True)
class Effect:
    """An effect: its ops as the engine's tuples `(kind, *ints)`, and its texts."""

    id: str
    text: str
    details: str
    ops: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Card:
    """A clan card as the data file gives it (effects as indices, -1 for a blank face)."""

    id: str
    clan: int
    faces: tuple[int, int]
    food_cost: int
    """-1 when not paid in Food (a card cost, a Ring, an Awakening or a Portal)."""
    card_cost: int
    text: str
    ring: str | None
    level: int | None
    role: str | None
    portal: int | None


@dataclass(frozen=True)
class Components:
    """Every LEDA component fact, as read from the data file (indices in file order)."""

    rows: int
    columns: int
    starting_hand: int
    starting_food: int
    shark_tokens: int
    clan_names: tuple[str, ...]
    mv_threshold: tuple[int, ...]
    clan_special: tuple[int, ...]
    zone_names: tuple[str, ...]
    zone_squares: tuple[tuple[int, ...], ...]
    action_tile_names: tuple[str, ...]
    action_tile_zones: tuple[tuple[int, ...], ...]
    effects: tuple[Effect, ...]
    tile_kind_names: tuple[str, ...]
    tile_kind_fx: tuple[tuple[int, int], ...]
    tile_kind_permanent: tuple[bool, ...]
    tile_names: tuple[str, ...]
    tile_kind: tuple[int, ...]
    mv_names: tuple[str, ...]
    mv_symbols: tuple[int, ...]
    mv_fx: tuple[int, ...]
    cards: tuple[Card, ...]


def square_names(rows: int, columns: int) -> tuple[str, ...]:
    """The squares of a grid, row-major: `r1c1`, `r1c2`, ..."""
    return tuple(f"r{r}c{c}" for r in range(1, rows + 1) for c in range(1, columns + 1))


def _ids(items: list[JsonReader], what: str) -> tuple[str, ...]:
    seen: list[str] = []
    for item in items:
        ident = item.get("id").as_str()
        if not ident or ident in seen:
            raise item.get("id").fail(f"a {what} id must be new and not empty, got {ident!r}")
        seen.append(ident)
    return tuple(seen)


def _numbered(items: list[JsonReader], first: int) -> None:
    for i, item in enumerate(items):
        item.get("number").as_int(first + i, first + i)


def _index(r: JsonReader, names: tuple[str, ...]) -> int:
    return names.index(r.as_str(names))


def _effect_or_blank(r: JsonReader, names: tuple[str, ...]) -> int:
    return -1 if r.value is None else _index(r, names)


def _op(r: JsonReader, effect_ids: tuple[str, ...]) -> tuple[int, ...]:
    name = r.obj().get("op").as_str(OP_NAMES)
    arg_names = OP_ARGS.get(name, ())
    r.obj({"op", *arg_names})
    args: list[int] = []
    for arg in arg_names:
        value = r.get(arg)
        if arg == "either":
            args.extend(_index(e, effect_ids) for e in value.as_list(2, 2))
        elif arg == "pandas_only":
            args.append(int(value.as_bool()))
        else:
            args.append(value.as_int(1, 9))
    return (OP_NAMES.index(name), *args)


def _effects(root: JsonReader) -> tuple[Effect, ...]:
    items = root.get("effects").as_list(1)
    ids = _ids(items, "effect")
    _numbered(items, 0)
    out = []
    for item, ident in zip(items, ids, strict=True):
        item.obj({"id", "number", "text", "details", "ops"})
        text = item.get("text").as_str()
        details = item.opt("details", text).as_str()
        ops = tuple(_op(op, ids) for op in item.get("ops").as_list())
        out.append(Effect(ident, text, details, ops))
    return tuple(out)


def _card(r: JsonReader, clans: tuple[str, ...], effect_ids: tuple[str, ...]) -> Card:
    r.obj({"id", "number", "clan", "ring", "level", "role", "portal", "food_cost", "card_cost",
           "cost_text", "faces", "text"})  # fmt: skip
    clan = clans[_index(r.get("clan"), clans)]
    only = {"ring": "cats", "level": "pandas", "portal": "scorpions", "role": "pandas"}
    for key, owner in only.items():
        if r.has(key) and clan != owner:
            raise r.get(key).fail(f"only {owner} cards have a {key}")
    if clan == "pandas" and not r.has("level"):
        raise r.fail("a Panda card needs a level")
    level = PANDA_LEVELS.index(r.get("level").as_str(PANDA_LEVELS)) if r.has("level") else None
    if r.has("role") and level != PANDA_LEVELS.index("gold"):
        raise r.get("role").fail("only a Gold Panda has a role")
    faces = r.get("faces").as_list(2, 2)
    r.opt("cost_text", "").as_str()
    return Card(
        id=r.get("id").as_str(),
        clan=clans.index(clan),
        faces=(_effect_or_blank(faces[0], effect_ids), _effect_or_blank(faces[1], effect_ids)),
        food_cost=r.get("food_cost").as_int(0, 99) if r.has("food_cost") else -1,
        card_cost=r.opt("card_cost", 0).as_int(0, 9),
        text=r.get("text").as_str(),
        ring=r.get("ring").as_str(RING_COLOURS) if r.has("ring") else None,
        level=level,
        role=r.get("role").as_str(ROYAL_ROLES) if r.has("role") else None,
        portal=r.get("portal").as_int(1, len(PORTAL_NUMBERS)) if r.has("portal") else None,
    )


def _once_each(r: JsonReader, cards: tuple[Card, ...], key: str, wanted: tuple[Any, ...]) -> None:
    found = [getattr(card, key) for card in cards if getattr(card, key) is not None]
    if sorted(found, key=str) != sorted(wanted, key=str):
        raise r.fail(f"the cards' {key} values must be {', '.join(map(str, wanted))}, once each")


def parse_components(data: Any) -> Components:
    """Validate decoded component data and build the tables the engine uses."""
    root = JsonReader.document(data, error=ComponentDataError).obj(
        {"about", "grid", "setup", "clans", "zones", "action_tiles", "effects", "tile_kinds",
         "tiles", "mv_tokens", "cards"}
    )  # fmt: skip
    root.get("about").as_str()
    grid = root.get("grid").obj({"rows", "columns"})
    rows, columns = grid.get("rows").as_int(2, 8), grid.get("columns").as_int(2, 8)
    if rows * columns > MAX_SQUARES:
        raise grid.fail(f"at most {MAX_SQUARES} squares")
    squares = square_names(rows, columns)
    setup = root.get("setup").obj({"starting_hand", "starting_food", "shark_tokens"})

    effects = _effects(root)
    effect_ids = tuple(e.id for e in effects)

    clans_r = root.get("clans").as_list(1)
    clans = _ids(clans_r, "clan")
    for clan in clans_r:
        clan.obj({"id", "name", "singular", "mv_threshold", "special", "goal"})
        for text in ("name", "singular", "goal"):
            clan.get(text).as_str()

    zones_r = root.get("zones").as_list(1)
    zones = _ids(zones_r, "zone")
    zone_squares = []
    for zone in zones_r:
        zone.obj({"id", "name", "squares"}).get("name").as_str()
        listed_r = zone.get("squares").as_list(ZONE_SIZE, ZONE_SIZE)
        listed = tuple(_index(s, squares) for s in listed_r)
        if len(set(listed)) != len(listed):
            raise zone.get("squares").fail("a square is listed twice")
        zone_squares.append(listed)

    cards_r = root.get("cards").as_list(1)
    tiles_r = root.get("action_tiles").as_list(1)
    mv_r = root.get("mv_tokens").as_list(1)
    action_tiles = _ids(tiles_r, "Action tile")
    _numbered(tiles_r, len(cards_r))
    for tile in tiles_r:
        tile.obj({"id", "number", "name", "zones"}).get("name").as_str()
    mv_names = _ids(mv_r, "MV token")
    _numbered(mv_r, len(cards_r) + len(tiles_r))
    for token in mv_r:
        token.obj({"id", "number", "symbols", "effect"})

    kinds_r = root.get("tile_kinds").as_list(1)
    kinds = _ids(kinds_r, "tile kind")
    kind_fx = []
    for kind in kinds_r:
        kind.obj({"id", "name", "permanent", "front", "back"}).get("name").as_str()
        back = _effect_or_blank(kind.get("back"), effect_ids)
        if kind.get("permanent").as_bool() != (back != -1):
            raise kind.get("back").fail("null (the Desert) exactly when the kind is temporary")
        kind_fx.append((_index(kind.get("front"), effect_ids), back))
    tiles = root.get("tiles").as_list(len(squares), len(squares))
    for tile in tiles:
        tile.obj({"id", "kind"})

    card_ids = _ids(cards_r, "card")
    _numbered(cards_r, 0)
    if set(card_ids) & {*action_tiles, *mv_names} or set(action_tiles) & set(mv_names):
        raise root.fail("cards, Action tiles and MV tokens share one id space: ids must differ")
    cards = tuple(_card(card, clans, effect_ids) for card in cards_r)
    for key, wanted in (("ring", RING_COLOURS), ("role", ROYAL_ROLES), ("portal", PORTAL_NUMBERS)):
        _once_each(root.get("cards"), cards, key, wanted)

    return Components(
        rows=rows,
        columns=columns,
        starting_hand=setup.get("starting_hand").as_int(0, 13),
        starting_food=setup.get("starting_food").as_int(0, 99),
        shark_tokens=setup.get("shark_tokens").as_int(1, len(squares)),
        clan_names=clans,
        mv_threshold=tuple(c.get("mv_threshold").as_int(1, 99) for c in clans_r),
        clan_special=tuple(_index(c.get("special"), effect_ids) for c in clans_r),
        zone_names=zones,
        zone_squares=tuple(zone_squares),
        action_tile_names=action_tiles,
        action_tile_zones=tuple(
            tuple(_index(z, zones) for z in t.get("zones").as_list(1)) for t in tiles_r
        ),
        effects=effects,
        tile_kind_names=kinds,
        tile_kind_fx=tuple(kind_fx),
        tile_kind_permanent=tuple(k.get("permanent").as_bool() for k in kinds_r),
        tile_names=_ids(tiles, "tile"),
        tile_kind=tuple(_index(t.get("kind"), kinds) for t in tiles),
        mv_names=mv_names,
        mv_symbols=tuple(t.get("symbols").as_int(1, 9) for t in mv_r),
        mv_fx=tuple(_index(t.get("effect"), effect_ids) for t in mv_r),
        cards=cards,
    )


def load_components(path: Path = DATA_FILE) -> Components:
    """Read and validate a component data file."""
    with path.open(encoding="utf-8") as handle:
        return parse_components(json.load(handle))


COMPONENTS = load_components()
"""The component set the engine plays with."""
