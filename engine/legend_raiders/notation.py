"""Readable move notation: JSON objects and short strings for every action.

Columns and face-up slots are numbered from 1, as on the Headquarters board. The full table is in
docs/legend_raiders/moves.md; in short: `prepare:3`, `expedition:row2` / `expedition:deck` /
`expedition:none`, `discard:olympus` / `discard:shovel`, `complete:olympus`,
`complete:mjollnir+torch=rope`, `stop`, `keep-roll`, `die-card:coin` (diceless: `die-card:tools`,
`die-card:torch`, `die-card:coin`), and the chance outcomes `roll:coin`, `draw:map`,
`reveal:olympus`, `reveal:die-1`.
"""

from __future__ import annotations

from typing import Any

from boardbot.engine.api import JsonDict
from boardbot.engine.errors import IllegalActionError, InvalidActionError, echo
from boardbot.engine.jsonread import JsonReader
from boardbot.engine.legend_raiders import actions as A
from boardbot.engine.legend_raiders.chance import chance_outcomes
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.components import FACE_KINDS
from boardbot.engine.legend_raiders.rules import legal_actions
from boardbot.engine.legend_raiders.state import CHANCE_PHASES, OVER, RaidersState

TOOLS = C.tool_ids
TILES = C.tile_ids
CARDS = C.card_ids
_TILE_INDEX = {t: i for i, t in enumerate(TILES)}
_TOOL_INDEX = {t: i for i, t in enumerate(TOOLS)}
_CARD_INDEX = {c: j for j, c in enumerate(CARDS)}


def action_json(action: int, dice: bool) -> JsonDict:
    """The JSON object of an action."""
    kind = A.ACTION_KIND[action]
    arg = A.ACTION_ARG[action]
    if kind == A.PREPARE:
        return {"type": "prepare", "column": arg + 1}
    if kind == A.TAKE_ROW:
        return {"type": "expedition", "card": f"row{arg + 1}"}
    if kind == A.TAKE_DECK:
        return {"type": "expedition", "card": "deck"}
    if kind == A.NO_CARD:
        return {"type": "expedition", "card": "none"}
    if kind == A.DISCARD_TILE:
        return {"type": "discard", "tile": TILES[arg]}
    if kind == A.DISCARD_TOOL:
        return {"type": "discard", "tool": TOOLS[arg]}
    if kind == A.COMPLETE:
        out: JsonDict = {"type": "complete", "tile": TILES[arg]}
        option = A.ACTION_ARG2[action]
        if option:
            out["torch"] = TOOLS[option - 1]
        return out
    if kind == A.STOP:
        return {"type": "stop"}
    if kind == A.KEEP_ROLL:
        return {"type": "keep-roll"}
    if kind == A.DIE_CARD:
        if dice:
            return {"type": "die-card", "face": FACE_KINDS[arg]}
        return {"type": "die-card", "effect": A.EFFECT_NAMES[arg]}
    if kind == A.ROLL_FACE:
        return {"type": "roll", "face": FACE_KINDS[arg]}
    if kind == A.DRAW_TOOL:
        return {"type": "draw", "tool": TOOLS[arg]}
    if kind == A.REVEAL_TILE:
        return {"type": "reveal", "tile": TILES[arg]}
    return {"type": "reveal", "card": CARDS[arg]}


def action_text(action: int, dice: bool) -> str:
    """The short text of an action."""
    data = action_json(action, dice)
    kind = data.pop("type")
    if kind == "complete" and "torch" in data:
        return f"complete:{data['tile']}+torch={data['torch']}"
    if not data:
        return str(kind)
    (value,) = data.values()
    return f"{kind}:{value}"


_KINDS = ("prepare", "expedition", "discard", "complete", "stop", "keep-roll", "die-card",
          "roll", "draw", "reveal")


def parse_action_json(data: Any, dice: bool) -> int:
    """The action described by a JSON object (not yet checked for legality)."""
    r = JsonReader.document(data, (), InvalidActionError).obj()
    kind = r.get("type").as_str(_KINDS)
    if kind == "prepare":
        r.obj({"type", "column"})
        return A.PREPARE_BASE + r.get("column").as_int(1, A.N_COLUMNS) - 1
    if kind == "expedition":
        r.obj({"type", "card"})
        rows = [f"row{k + 1}" for k in range(A.N_ROW)]
        card = r.get("card").as_str([*rows, "deck", "none"])
        if card == "deck":
            return A.TAKE_DECK_ACTION
        if card == "none":
            return A.NO_CARD_ACTION
        return A.ROW_BASE + rows.index(card)
    if kind == "discard":
        r.obj({"type", "tile", "tool"})
        if r.has("tile") == r.has("tool"):
            raise r.fail("a discard names exactly one of 'tile' or 'tool'")
        if r.has("tile"):
            return A.DISCARD_TILE_BASE + _TILE_INDEX[r.get("tile").as_str(TILES)]
        return A.DISCARD_TOOL_BASE + _TOOL_INDEX[r.get("tool").as_str(TOOLS)]
    if kind == "complete":
        r.obj({"type", "tile", "torch"})
        tile = _TILE_INDEX[r.get("tile").as_str(TILES)]
        option = 0
        if r.has("torch"):
            option = 1 + _TOOL_INDEX[r.get("torch").as_str(TOOLS)]
        return A.complete_action(tile, option)
    if kind in ("stop", "keep-roll"):
        r.obj({"type"})
        return A.STOP_ACTION if kind == "stop" else A.KEEP_ROLL_ACTION
    if kind == "die-card":
        if dice:
            r.obj({"type", "face"})
            return A.DIE_BASE + FACE_KINDS.index(r.get("face").as_str(FACE_KINDS))
        r.obj({"type", "effect"})
        return A.DIE_BASE + A.EFFECT_NAMES.index(r.get("effect").as_str(A.EFFECT_NAMES))
    if kind == "roll":
        r.obj({"type", "face"})
        return A.ROLL_BASE + FACE_KINDS.index(r.get("face").as_str(FACE_KINDS))
    if kind == "draw":
        r.obj({"type", "tool"})
        return A.TOOL_BASE + _TOOL_INDEX[r.get("tool").as_str(TOOLS)]
    r.obj({"type", "tile", "card"})
    if r.has("tile") == r.has("card"):
        raise r.fail("a reveal names exactly one of 'tile' or 'card'")
    if r.has("tile"):
        return A.TILE_BASE + _TILE_INDEX[r.get("tile").as_str(TILES)]
    return A.CARD_BASE + _CARD_INDEX[r.get("card").as_str(CARDS)]


def parse_action_text(text: Any, dice: bool) -> int:
    """The action described by a short text (not yet checked for legality)."""
    if not isinstance(text, str):
        raise InvalidActionError("$", "expected a move text such as 'prepare:3'")
    kind, sep, value = text.strip().partition(":")
    data: JsonDict = {"type": kind}
    if kind == "complete" and "+torch=" in value:
        tile, _, torch = value.partition("+torch=")
        data.update(tile=tile, torch=torch)
    elif sep:
        key = {
            "prepare": "column", "expedition": "card", "die-card": "face" if dice else "effect",
            "roll": "face", "draw": "tool", "complete": "tile",
        }.get(kind)
        if kind in ("discard", "reveal"):
            key = "tile" if value in _TILE_INDEX else "tool" if value in _TOOL_INDEX else "card"
            if kind == "discard" and key == "card":
                raise InvalidActionError("$", f"unknown tile or tool {echo(value)}")
        if key is None:
            raise InvalidActionError("$", f"unknown move {echo(text)}")
        if key == "column":
            if not (value.isascii() and value.isdigit() and len(value) <= 2):
                raise InvalidActionError(
                    "$.column", f"expected a column number, got {echo(value)}"
                )
            data[key] = int(value)
        else:
            data[key] = value
    return parse_action_json(data, dice)


def check_legal(s: RaidersState, action: int) -> int:
    """`action` if it is legal in `s` (a decision of the player to move or a chance outcome)."""
    if s.phase == OVER:
        raise IllegalActionError("$", "the game is over")
    if s.phase in CHANCE_PHASES:
        if action not in {a for a, _ in chance_outcomes(s)}:
            raise IllegalActionError("$", f"{action_text(action, s.dice)} is not a possible "
                                          "outcome of this chance step")
        return action
    if action not in legal_actions(s):
        raise IllegalActionError("$", f"{action_text(action, s.dice)} is not legal now")
    return action


def action_to_json(s: RaidersState, action: int) -> JsonDict:
    """The readable JSON object of `action` in `s`."""
    return action_json(action, s.dice)


def action_from_json(s: RaidersState, data: Any) -> int:
    """Parse a JSON action and check it is legal in `s`."""
    return check_legal(s, parse_action_json(data, s.dice))


def action_to_str(s: RaidersState, action: int) -> str:
    """The short text of `action` in `s` (e.g. `prepare:3`)."""
    return action_text(action, s.dice)


def action_from_str(s: RaidersState, text: str) -> int:
    """Parse the short text of an action and check it is legal in `s`."""
    return check_legal(s, parse_action_text(text, s.dice))
