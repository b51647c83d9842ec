"""Setting up a LEDA game: the options of `new_state` and the seeded first state."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from boardbot.engine.api import JsonDict
from boardbot.engine.errors import InvalidStateError
from boardbot.engine.jsonread import JsonReader
from boardbot.engine.leda import rules
from boardbot.engine.leda.data import CLAN_BY_NAME, CLAN_NAMES
from boardbot.engine.leda.state import LedaState


def describe_options() -> JsonDict:
    """Options of `new_state`."""
    return {
        "clans": {
            "type": "list of 2 distinct clan names, seat 0 first",
            "values": list(CLAN_NAMES),
            "default": "a seeded random distinct pair",
        },
        "first_player": {
            "type": "0, 1 or null",
            "default": "null: chosen at random from the seed",
        },
        "players": {"type": "integer", "values": [2], "default": 2},
    }


def _clan(entry: JsonReader) -> int:
    """A clan option entry: one of the clan names, as its index."""
    return CLAN_BY_NAME[entry.as_str(CLAN_BY_NAME)]


def new_state(options: Mapping[str, Any] | None = None, seed: int = 0) -> LedaState:
    """A new game; grids, piles, decks and (unless given) clans and first player are seeded."""
    opts = JsonReader.document(dict(options or {}), ("options",), InvalidStateError).obj(
        {"clans", "first_player", "players"}
    )
    rng = random.Random(seed)
    if opts.opt("players", 2).as_int() != 2:
        raise opts.get("players").fail("LEDA is for exactly 2 players")
    clans_opt = opts.opt("clans", None)
    if clans_opt.value is None:
        pair = rng.sample(range(4), 2)
        clans = (pair[0], pair[1])
    else:
        entries = clans_opt.as_list(2, 2)
        clans = (_clan(entries[0]), _clan(entries[1]))
        if clans[0] == clans[1]:
            raise clans_opt.fail("both players took the same clan")
    first_opt = opts.opt("first_player", None)
    first = rng.randrange(2) if first_opt.value is None else first_opt.as_int(0, 1)
    return rules.advance(rules.initial_state(clans, first, rng))
