"""Reader-free decoding of the well-formed parts of a LEDA state's JSON.

Each function reads plain parsed JSON values and returns the decoded part only when every check
of the codec's checked path would pass on it, with the same result. On anything else it returns
None, and the codec runs its checked path, which raises the error with its exact path and reason.
So these functions decide nothing about validity: they only skip building a `JsonReader` per
field when there is nothing to report.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardbot.engine.leda.bounds import PENDING_MAX
from boardbot.engine.leda.data import (
    ACTION_TILES,
    CAT_ROTATING,
    CLAN_CARDS,
    EFFECTS,
    ITEM_NAMES,
    MV_TOKENS,
    SHARK_TOKENS,
    SHARKS,
    SQUARES,
    TILE_BY_NAME,
    TILE_FACE_BY_NAME,
)
from boardbot.engine.leda.frames import ARG_RANGES, F_EFFECT, FRAME_ARGS, FRAME_BY_NAME
from boardbot.engine.leda.state import Frame, Square

ItemsByName = Mapping[str, int]
PileParts = tuple[list[int | None], dict[int, int] | None]


def _by_name(items: tuple[int, ...] | frozenset[int]) -> dict[str, int]:
    return {ITEM_NAMES[i]: i for i in sorted(items)}


CLAN_CARD_BY_NAME = tuple(_by_name(CLAN_CARDS[clan]) for clan in range(len(CLAN_CARDS)))
MV_TOKEN_BY_NAME = _by_name(MV_TOKENS)
ACTION_TILE_BY_NAME = _by_name(ACTION_TILES)
ROTATING_BY_NAME = _by_name(CAT_ROTATING)
ANY_ITEM_BY_NAME = _by_name(tuple(range(len(ITEM_NAMES))))

_SQUARE_FIELDS = frozenset({"tile", "face", "cards", "shark_token"})
_VIEW_FIELDS = frozenset({"count", "known"})
_ENTRY_FIELDS = frozenset({"index", "item"})
_FRAME_FIELDS = frozenset({"frame", "seat", "args"})
_FRAME_RANGES = tuple(tuple(ARG_RANGES[shape] for shape in shapes) for shapes in FRAME_ARGS)
_TILES: Mapping[Any, int] = TILE_BY_NAME  # looked up with any JSON value
_FACES: Mapping[Any, int] = TILE_FACE_BY_NAME
_NO_CARDS: list[str] = []  # never mutated
_new = tuple.__new__  # builds a NamedTuple from a tuple without the keyword machinery


def names(value: Any, by_name: ItemsByName, max_len: int | None = None) -> list[int] | None:
    """The ids of a list of names that are all keys of `by_name` (at most `max_len` names)."""
    if type(value) is not list or (max_len is not None and len(value) > max_len):
        return None
    try:
        return [by_name[name] for name in value]
    except (KeyError, TypeError):  # an unknown name, or a value that is no name at all
        return None


def pile(value: Any, by_name: ItemsByName) -> PileParts | None:
    """A sequence given in full (a list of names) or as a view {count, known: [{index, item}]}.

    Returns the items by position (None for a placeholder) and, for a view, which `known`
    entry gave each known position (None for a list). It holds at most `len(by_name)` items.
    """
    most = len(by_name)
    if type(value) is list:
        ids = names(value, by_name, most)
        if ids is None:
            return None
        full: list[int | None] = list(ids)
        return full, None
    if type(value) is not dict or not value.keys() <= _VIEW_FIELDS:
        return None
    count = value.get("count")
    known = value.get("known", [])
    if type(count) is not int or not 0 <= count <= most or type(known) is not list:
        return None
    if len(known) > count:
        return None
    items: list[int | None] = [None] * count
    positions: dict[int, int] = {}
    for k, entry in enumerate(known):
        if type(entry) is not dict or not entry.keys() <= _ENTRY_FIELDS:
            return None
        index, name = entry.get("index"), entry.get("item")
        if type(index) is not int or not 0 <= index < count or items[index] is not None:
            return None
        if type(name) is not str or name not in by_name:
            return None
        items[index] = by_name[name]
        positions[index] = k
    return items, positions


def hand_view(value: Any, by_name: ItemsByName) -> tuple[int, list[int]] | None:
    """A hidden hand {count, known: [names]}: its size and the cards known to be in it."""
    if type(value) is not dict or not value.keys() <= _VIEW_FIELDS:
        return None
    count = value.get("count")
    if type(count) is not int or not 0 <= count <= len(by_name):
        return None
    known = names(value.get("known", []), by_name, count)
    if known is None or len(known) > count:
        return None
    return count, known


def grid(value: Any, clan: int, cards: ItemsByName) -> tuple[Square, ...] | None:
    """A player's 16 squares (tiles, faces, card stacks, Shark tokens)."""
    if type(value) is not list or len(value) != SQUARES:
        return None
    sharks = clan == SHARKS
    most = len(cards)
    squares = []
    tiles: set[int] = set()
    tokens = 0
    try:  # a KeyError is an unknown name, a TypeError a value that is no name at all
        for square in value:
            if type(square) is not dict or not square.keys() <= _SQUARE_FIELDS:
                return None
            get = square.get
            tile = _TILES.get(get("tile"))
            face = _FACES.get(get("face"))
            listed = get("cards", _NO_CARDS)
            token = get("shark_token", False)
            if tile is None or face is None or tile in tiles or type(listed) is not list:
                return None
            if len(listed) > most:
                return None
            tiles.add(tile)
            stack = tuple([cards[name] for name in listed]) if listed else ()
            if token is True:
                if not sharks:
                    return None
                tokens += 1
            elif token is not False or (stack and sharks):
                return None
            squares.append(_new(Square, (tile, face, stack, token)))
    except (KeyError, TypeError):
        return None
    if tokens > SHARK_TOKENS:
        return None
    return tuple(squares)


def frames(value: Any) -> tuple[Frame, ...] | None:
    """The pending frames, each (kind, seat, *args) with its arguments in their ranges."""
    if type(value) is not list or len(value) > PENDING_MAX:
        return None
    stack = []
    for frame in value:
        if type(frame) is not dict or not frame.keys() <= _FRAME_FIELDS:
            return None
        name, seat, args = frame.get("frame"), frame.get("seat"), frame.get("args")
        if type(name) is not str or type(seat) is not int or not 0 <= seat <= 1:
            return None
        kind = FRAME_BY_NAME.get(name)
        if kind is None or type(args) is not list:
            return None
        ranges = _FRAME_RANGES[kind]
        if len(args) != len(ranges):
            return None
        for arg, (lo, hi) in zip(args, ranges, strict=True):
            if type(arg) is not int or not lo <= arg <= hi:
                return None
        if kind == F_EFFECT and not args[1] < max(1, len(EFFECTS[args[0]])):
            return None
        stack.append((kind, seat, *args))
    return tuple(stack)
