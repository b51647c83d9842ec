"""Game options and the seeded setup of a new game."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from boardbot.engine.errors import InvalidStateError, echo
from boardbot.engine.jsonread import JsonReader
from boardbot.engine.legend_raiders.components import COMPONENTS as C
from boardbot.engine.legend_raiders.state import (
    ACTION,
    EMPTY,
    NO_FACE,
    ROLL,
    PlayerState,
    RaidersState,
)

VARIANTS = ("dice", "diceless")
N_TOOLS = len(C.tool_ids)


def describe_options() -> dict[str, Any]:
    """Option names with their allowed values and defaults."""
    names = [name for names in C.board_names for name in names]
    return {
        "players": {"type": "int", "min": 2, "max": 4, "default": 2},
        "variant": {"type": "str", "choices": list(VARIANTS), "default": "dice",
                    "help": "standard game with the die, or the diceless variant"},
        "characters": {
            "type": "list|null", "default": None,
            "help": "one entry per seat: a board number 1-4 or a character name "
                    f"({', '.join(names)}); all different; null deals boards at random",
        },
        "first_player": {"type": "int|null", "default": None,
                         "help": "seat of the first player; null chooses at random"},
    }


def board_of(entry: JsonReader) -> int:
    """Board index 0..3 from a board number (1-4) or a character name."""
    if isinstance(entry.value, int) and not isinstance(entry.value, bool):
        return entry.as_int(1, len(C.board_names)) - 1
    name = entry.as_str().casefold()
    for board, names in enumerate(C.board_names):
        if name in (n.casefold() for n in names):
            return board
    raise entry.fail(f"unknown character {echo(entry.value)}")


def draw_tool(bag: list[int], rng: random.Random) -> int:
    """One tool type drawn from `bag` (counts), weighted by the counts."""
    r = rng.randrange(sum(bag))
    for t, n in enumerate(bag):
        if r < n:
            return t
        r -= n
    raise AssertionError("unreachable")


def new_state(options: Mapping[str, Any] | None, seed: int) -> RaidersState:
    """A fresh game: every random setup choice (boards, first player, reveals) from `seed`."""
    opts = JsonReader.document(dict(options or {}), ("options",), InvalidStateError).obj(
        {"players", "variant", "characters", "first_player"}
    )
    n = opts.opt("players", 2).as_int(2, 4)
    dice = opts.opt("variant", "dice").as_str(VARIANTS) == "dice"
    rng = random.Random(seed)
    chars = opts.opt("characters", None)
    if chars.value is None:
        boards = rng.sample(range(len(C.board_names)), n)
    else:
        entries = chars.as_list(n, n)
        boards = [board_of(e) for e in entries]
        for i, b in enumerate(boards):
            if b in boards[:i]:
                raise entries[i].fail("each player needs a different board")
    first_opt = opts.opt("first_player", None)
    first = rng.randrange(n) if first_opt.value is None else first_opt.as_int(0, n - 1)

    stack = list(range(len(C.tile_ids)))
    hq_tiles = []
    for _ in range(C.hq_columns):
        hq_tiles.append(stack.pop(rng.randrange(len(stack))))
    bag = list(C.tool_counts)
    hq_tools = []
    for _ in range(C.hq_columns):
        column = [0] * N_TOOLS
        for _ in range(C.tools_per_column):
            t = draw_tool(bag, rng)
            bag[t] -= 1
            column[t] += 1
        hq_tools.append(tuple(column))
    deck = list(range(len(C.card_ids)))
    row = []
    for _ in range(C.face_up_cards):
        row.append(deck.pop(rng.randrange(len(deck))))
    players = tuple(
        PlayerState(b, (0,) * N_TOOLS, (), (), True, 0, (), ()) for b in boards
    )
    return RaidersState(
        players=players,
        dice=dice,
        first=first,
        seat=first,
        phase=ROLL if dice else ACTION,
        die=NO_FACE,
        coin_bonus=0,
        done=0,
        column=EMPTY,
        draws=0,
        resume=EMPTY,
        hq_tiles=tuple(hq_tiles),
        hq_tools=tuple(hq_tools),
        bag=tuple(bag),
        stack=sum(1 << i for i in stack),
        row=tuple(row),
        deck=sum(1 << j for j in deck),
        removed_cards=0,
        removed_tiles=0,
        ending=False,
    )
