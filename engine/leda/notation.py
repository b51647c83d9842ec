"""Action notation: tuples <-> JSON objects <-> short strings such as `play:shark-6@r2c2`."""

from __future__ import annotations

from typing import Any

from boardbot.engine.api import JsonDict
from boardbot.engine.errors import IllegalActionError, InvalidActionError, echo
from boardbot.engine.jsonread import JsonReader
from boardbot.engine.leda.bounds import LARGEST_CLAN
from boardbot.engine.leda.data import (
    ITEM_BY_NAME,
    ITEM_NAMES,
    SQUARE_BY_NAME,
    SQUARE_NAMES,
    ZONE_BY_NAME,
    ZONE_NAMES,
)
from boardbot.engine.leda.frames import (
    A_SHUFFLE,
    ACTION_ARGS,
    ACTION_BY_NAME,
    ACTION_NAMES,
    F_SHUFFLE,
    PILE_NAMES,
    SHUFFLE_ACTIONS,
)
from boardbot.engine.leda.rules import legal_actions, shuffle_size
from boardbot.engine.leda.state import KIND, LedaState

Action = tuple[Any, ...]
_PUT = ("top", "bottom")
_BOOL = ("no", "yes")
SHUFFLE_MAX = LARGEST_CLAN
"""Items a shuffle orders at most: the largest deck (the Action pile has 5)."""


def _arg_text(kind: str, value: int) -> str:
    if kind == "square":
        return SQUARE_NAMES[value]
    if kind in ("card", "token"):
        return ITEM_NAMES[value]
    if kind == "zone":
        return ZONE_NAMES[value]
    if kind == "pile":
        return PILE_NAMES[value]
    if kind == "put":
        return _PUT[value]
    if kind == "bool":
        return _BOOL[value]
    return str(value + 1)  # option: 1-based


def action_to_str(state: LedaState, action: Action) -> str:
    """The short text form: `verb` or `verb:arg`, `verb:card@square`, `swap:r1c1-r2c2`.

    A LEDA action reads the same in every state; `state` is part of the codec's signature.
    """
    kind = action[0]
    name = ACTION_NAMES[kind]
    if kind == A_SHUFFLE:
        return f"{name}:{','.join(str(i) for i in action[1])}"
    shapes = ACTION_ARGS[kind]
    if not shapes:
        return name
    parts = [_arg_text(shape, v) for shape, v in zip(shapes, action[1:], strict=True)]
    sep = "-" if name == "swap" else "@"
    return f"{name}:{sep.join(parts)}"


def action_to_json(state: LedaState, action: Action) -> JsonDict:
    """The JSON object: {"type": verb, field: value, ...} (the same in every state)."""
    kind = action[0]
    out: JsonDict = {"type": ACTION_NAMES[kind]}
    if kind == A_SHUFFLE:
        out["order"] = list(action[1])
        return out
    shapes = ACTION_ARGS[kind]
    if shapes == ("square", "square"):
        out["squares"] = [SQUARE_NAMES[action[1]], SQUARE_NAMES[action[2]]]
        return out
    for shape, v in zip(shapes, action[1:], strict=True):
        if shape == "bool":
            out["redraw"] = bool(v)
        elif shape == "option":
            out["option"] = v + 1
        else:
            out[shape] = _arg_text(shape, v)
    return out


def _parse_arg(reader: JsonReader, shape: str) -> int:
    if shape == "square":
        return SQUARE_BY_NAME[reader.as_str(SQUARE_BY_NAME)]
    if shape in ("card", "token"):
        return ITEM_BY_NAME[reader.as_str(ITEM_BY_NAME)]
    if shape == "zone":
        return ZONE_BY_NAME[reader.as_str(ZONE_BY_NAME)]
    if shape == "pile":
        return PILE_NAMES.index(reader.as_str(PILE_NAMES))
    if shape == "put":
        return _PUT.index(reader.as_str(_PUT))
    if shape == "bool":
        return int(reader.as_bool())
    return reader.as_int(1, 2) - 1


def _shuffle_pending(state: LedaState) -> bool:
    return state.winner < 0 and state.stack[-1][KIND] == F_SHUFFLE


def chance_form(state: LedaState) -> str:
    """How to write the outcome of the pending shuffle: an order of the pile's items."""
    if not _shuffle_pending(state):
        raise IllegalActionError("$", "no shuffle is pending")
    n = shuffle_size(state)
    _, seat, what, _ = state.stack[-1]
    pile = "Action tiles" if what == SHUFFLE_ACTIONS else f"cards (seat {seat}'s deck)"
    return (
        f'shuffle of {n} {pile}: {{"type":"shuffle","order":[...]}} with order a permutation of '
        f"0..{n - 1}, item i of the new pile being item order[i] of the old "
        f"(notation shuffle:{','.join(str(i) for i in range(min(n, 3)))},...)"
    )


def _check_legal(state: LedaState, action: Action, shown: str) -> Action:
    if action[0] == A_SHUFFLE:
        if not _shuffle_pending(state):
            raise IllegalActionError("$", "no shuffle is pending")
        if len(action[1]) != shuffle_size(state):
            raise IllegalActionError("$.order", f"the shuffle orders {shuffle_size(state)} items")
        return action
    if action in legal_actions(state):
        return action
    raise IllegalActionError("$", f"{shown} is not legal here")


def action_from_json(state: LedaState, data: Any) -> Action:
    """Parse a JSON action and check it is legal in `state`."""
    root = JsonReader.document(data, (), InvalidActionError)
    root.obj()
    name = root.get("type").as_str(ACTION_BY_NAME)
    kind = ACTION_BY_NAME[name]
    if kind == A_SHUFFLE:
        root.obj({"type", "order"})
        entries = root.get("order").as_list(0, SHUFFLE_MAX)
        order = tuple(r.as_int(0, SHUFFLE_MAX - 1) for r in entries)
        if sorted(order) != list(range(len(order))):
            raise root.get("order").fail("not a permutation")
        return _check_legal(state, (A_SHUFFLE, order), "shuffle")
    shapes = ACTION_ARGS[kind]
    if shapes == ("square", "square"):
        root.obj({"type", "squares"})
        pair = root.get("squares").as_list(2, 2)
        a, b = sorted(_parse_arg(r, "square") for r in pair)
        return _check_legal(state, (kind, a, b), name)
    fields = ["redraw" if s == "bool" else s for s in shapes]
    root.obj({"type", *fields})
    args = tuple(_parse_arg(root.get(f), s) for f, s in zip(fields, shapes, strict=True))
    action = (kind, *args)
    return _check_legal(state, action, action_to_str(state, action))


def _small_number(text: str) -> bool:
    """`text` is 1 or 2 ASCII digits."""
    return text.isascii() and text.isdigit() and len(text) <= 2


def action_from_str(state: LedaState, text: Any) -> Action:
    """Parse the short text form and check it is legal in `state`."""
    if not isinstance(text, str):
        raise InvalidActionError("$", "expected a move text such as 'zone:row2'")
    if text.startswith("shuffle:"):
        parts = text[8:].split(",", SHUFFLE_MAX)
        if len(parts) > SHUFFLE_MAX or not all(_small_number(x) for x in parts):
            raise InvalidActionError("$", f"bad shuffle order {echo(text)}")
        order = tuple(int(x) for x in parts)
        if sorted(order) != list(range(len(order))):
            raise InvalidActionError("$", "not a permutation")
        return _check_legal(state, (A_SHUFFLE, order), "shuffle")
    for action in legal_actions(state):
        if action_to_str(state, action) == text:
            return action
    name = text.partition(":")[0]
    if name not in ACTION_BY_NAME:
        raise InvalidActionError("$", f"unknown action {echo(text)}")
    raise IllegalActionError("$", f"{echo(text)} is not legal here")
