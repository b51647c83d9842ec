"""Record seeded LEDA states of the Python engine as codec vectors for the Rust twin.

Run from the repository root (it only imports the Python engine and writes one file):

    .venv/bin/python core/rules/tests/vectors/record_leda_states.py [GAMES_PER_PAIRING]

Output: `core/rules/tests/vectors/leda_states.jsonl.gz`, one JSON object per line.

- line 1, `data`: the component tables of `engine/leda/data.py`, `bounds.py` and `frames.py`
  (names, ids, effects and their ops, cards with both faces and costs, frame shapes), which the
  Rust test compares with its port.
- one `state` line per sampled state of seeded random games over every ordered clan pairing
  (uniformly random moves, Python's own shuffles): the full state JSON, both seats' views
  (`state_to_json(state, seat)`) and, for each view, the full JSON of the state Python decodes
  that view to (`state_to_json(state_from_json(view))`).
- then one `mutation` line per damaged document, from every 8th recorded state's full JSON and
  one of its views: 8 with one value replaced, removed, added or duplicated (4 anywhere, 4 where
  the rule checks look) and 6 still well formed but changed in the round (`tweak`: frames,
  seats, arguments, zone, winner, P4 block, counters). Each holds the document and Python's
  verdict, the error path and reason or the decoded JSON (for the document's observer), and
  `stage`: `codec` when the format decoder raised, `validation` when the rule-consistency
  checks of `engine/leda/validation.py` did.

Last recording: 2,316 states (12 pairings x 6 games, every 5th step and the last), 7,812
mutations (6,455 rejected, 3,954 of them by the codec), 985 kB.
"""

from __future__ import annotations

import copy
import gzip
import io
import json
import random
import sys
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))

from boardbot.engine import get_game  # noqa: E402
from boardbot.engine.api import CHANCE  # noqa: E402
from boardbot.engine.errors import EngineError  # noqa: E402
from boardbot.engine.leda import bounds, codec, frames  # noqa: E402
from boardbot.engine.leda import data as D  # noqa: E402
from boardbot.engine.leda.data import CLAN_NAMES  # noqa: E402

OUT = Path(__file__).with_name("leda_states.jsonl.gz")
GAME = get_game("leda")
GAMES_PER_PAIRING = 6
RECORD_EVERY = 5  # record every 5th step of a game, and its last state
MUTATE_EVERY = 8  # mutate every 8th recorded state

Json = Any


def data_line() -> dict[str, Json]:
    """The component tables, as plain JSON."""
    return {
        "kind": "data",
        "clan_names": list(D.CLAN_NAMES),
        "mv_threshold": list(D.MV_THRESHOLD),
        "starting": [D.STARTING_HAND, D.STARTING_FOOD, D.SHARK_TOKENS],
        "square_names": list(D.SQUARE_NAMES),
        "corners": list(D.CORNERS),
        "neighbours": [list(n) for n in D.NEIGHBOURS],
        "zone_names": list(D.ZONE_NAMES),
        "zone_squares": [list(z) for z in D.ZONE_SQUARES],
        "action_tile_zones": [list(D.ACTION_TILE_ZONES[t]) for t in D.ACTION_TILES],
        "effects": [[list(op) for op in ops] for ops in D.EFFECTS],
        "effect_text": list(D.EFFECT_TEXT),
        "tile_kind_names": list(D.TILE_KIND_NAMES),
        "tile_kind_fx": [list(fx) for fx in D.TILE_KIND_FX],
        "tile_kind": list(D.TILE_KIND),
        "tile_permanent": list(D.TILE_PERMANENT),
        "tile_names": list(D.TILE_NAMES),
        "mv_symbols": [D.MV_SYMBOLS[t] for t in D.MV_TOKENS],
        "mv_fx": [D.MV_FX[t] for t in D.MV_TOKENS],
        "cards": [
            [
                D.CARD_NAMES[c],
                D.CARD_CLAN[c],
                list(D.CARD_FACES[c]),
                D.CARD_FOOD_COST[c],
                D.CARD_CARD_COST[c],
                D.CARD_TEXT[c],
            ]
            for c in range(D.CARD_COUNT)
        ],
        "panda_level": [D.PANDA_LEVEL[c] for c in D.CLAN_CARDS[D.PANDAS]],
        "rings": list(D.RINGS),
        "portals": list(D.PORTALS),
        "special_fx": list(D.SPECIAL_FX),
        "item_names": list(D.ITEM_NAMES),
        "bounds": [
            bounds.FOOD_MAX,
            bounds.MILITARY_MAX,
            bounds.SPECIALS_MAX,
            bounds.PENDING_MAX,
            bounds.LARGEST_CLAN,
            bounds.MV_TOKEN_COUNT,
            bounds.REVEALED_MAX,
            bounds.ROTATED_MAX,
            bounds.KNOWS_MAX,
            bounds.DISCOUNT_MAX,
            bounds.CARD_COST_MAX,
            bounds.OP_INDEX_MAX,
        ],
        "frame_names": list(frames.FRAME_NAMES),
        "frame_args": [[list(frames.ARG_RANGES[a]) for a in args] for args in frames.FRAME_ARGS],
    }


def record_state(state: Any) -> dict[str, Json]:
    full = codec.state_to_json(state)
    views = [codec.state_to_json(state, seat) for seat in (0, 1)]
    decoded = [codec.state_to_json(codec.state_from_json(view)) for view in views]
    return {"kind": "state", "state": full, "views": views, "view_states": decoded}


def verdict(doc: Json) -> dict[str, Json]:
    try:
        state = codec.state_from_json(doc)
    except EngineError as err:
        files = [frame.filename for frame in traceback.extract_tb(err.__traceback__)]
        stage = "validation" if any(f.endswith("validation.py") for f in files) else "codec"
        return {"error": {"path": err.path, "reason": err.reason}, "stage": stage}
    except Exception as err:  # a decoder crash is a finding, recorded as such
        return {"crash": repr(err)}
    return {"decoded": codec.state_to_json(state, doc.get("observer"))}


def _paths(value: Json, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _at(doc: Json, path: tuple[Any, ...]) -> Json:
    for key in path:
        doc = doc[key]
    return doc


REPLACEMENTS: list[Json] = [
    None, True, -1, 0, 1, 2, 5, 1000, 3.5, "", "x", "cat-1", "panda-11", "shark-3",
    "scorpion-8", "mv-1", "mv-18", "action-1", "action-5", "food-1", "back", "front", "row1",
    "corners", "pandas", "sharks", "round", "shuffle", [], ["cat-1"], {}, {"count": 1},
    {"count": 2, "known": [{"index": 0, "item": "mv-2"}]}, 12345678901234567890,
]  # fmt: skip


# Where the rule-consistency checks look: the round, the pending work, the counters.
PHASE_KEYS = ("active", "winner", "zone", "mv_blocked", "revealed_actions", "pending")
PLAYER_PHASE_KEYS = ("food", "military", "specials", "knows", "rotated", "mv_tokens")


def _phase_path(path: tuple[Any, ...]) -> bool:
    if path[0] in PHASE_KEYS:
        return True
    return len(path) >= 3 and path[0] == "players" and path[2] in PLAYER_PHASE_KEYS


def mutate(doc: Json, rng: random.Random, phase: bool = False) -> Json:
    """`doc` with one value replaced, one key removed or added, or one list item duplicated;
    with `phase`, only where the rule-consistency checks look."""
    out = copy.deepcopy(doc)
    paths = [p for p in _paths(out)[1:] if not phase or _phase_path(p)]
    path = rng.choice(paths)
    parent = _at(out, path[:-1])
    key = path[-1]
    kind = rng.randrange(4)
    if kind == 0 or not isinstance(parent, dict | list):
        parent[key] = copy.deepcopy(rng.choice(REPLACEMENTS))
    elif kind == 1:
        if isinstance(parent, dict):
            del parent[key]
        else:
            parent.pop(key)
    elif kind == 2:
        if isinstance(parent, dict):
            parent[rng.choice(["extra", "knows", "count", "known", "index", "item"])] = 0
        else:
            parent.insert(key, copy.deepcopy(parent[key]))
    else:
        target = _at(out, path)
        if isinstance(target, list) and target:
            rng.shuffle(target)
            target.append(copy.deepcopy(target[0]))
        else:
            parent[key] = copy.deepcopy(rng.choice(REPLACEMENTS))
    return out


def tweak(doc: Json, rng: random.Random) -> Json:
    """`doc` still well formed but changed where the rule-consistency checks look: a frame
    renamed, dropped, duplicated or moved, a seat or argument changed, the zone, the winner, the
    P4 block or a player's counters set."""
    out = copy.deepcopy(doc)
    pending = out["pending"]
    kind = rng.randrange(9)
    if kind == 0 and pending:
        frame = rng.choice(pending)
        frame["frame"] = rng.choice(frames.FRAME_NAMES)
        shapes = frames.FRAME_ARGS[frames.FRAME_BY_NAME[frame["frame"]]]
        frame["args"] = [rng.randint(*frames.ARG_RANGES[shape]) for shape in shapes]
    elif kind == 1 and pending:
        pending.pop(rng.randrange(len(pending)))
    elif kind == 2 and pending:
        i = rng.randrange(len(pending))
        pending.insert(rng.randrange(len(pending) + 1), copy.deepcopy(pending[i]))
    elif kind == 3 and pending:
        frame = rng.choice(pending)
        frame["seat"] = 1 - frame["seat"]
    elif kind == 4 and pending and any(f["args"] for f in pending):
        frame = rng.choice([f for f in pending if f["args"]])
        shapes = frames.FRAME_ARGS[frames.FRAME_BY_NAME[frame["frame"]]]
        i = rng.randrange(len(shapes))
        frame["args"][i] = rng.randint(*frames.ARG_RANGES[shapes[i]])
    elif kind == 5:
        out["zone"] = rng.choice([None, *D.ZONE_NAMES])
    elif kind == 6:
        out["winner"] = rng.choice([None, 0, 1])
        if rng.random() < 0.5:
            out["pending"] = []
    elif kind == 7:
        out["mv_blocked"] = not out["mv_blocked"]
    else:
        player = rng.choice(out["players"])
        field = rng.choice(["food", "military", "specials"])
        player[field] = rng.randint(0, 4)
    return out


def play(clans: tuple[int, int], seed: int, lines: list[dict[str, Json]]) -> list[Json]:
    rng = random.Random(seed)
    options = {"clans": [CLAN_NAMES[clans[0]], CLAN_NAMES[clans[1]]]}
    state = GAME.new_state(options, seed)
    docs: list[Json] = []
    step = 0
    while not GAME.is_terminal(state):
        if step % RECORD_EVERY == 0:
            line = record_state(state)
            lines.append(line)
            if len(lines) % MUTATE_EVERY == 0:
                docs.append(line["state"])
                docs.append(line["views"][len(lines) % 2])
        if GAME.current_player(state) == CHANCE:
            action = GAME.sample_chance(state, rng)
        else:
            action = rng.choice(GAME.legal_actions(state))
        state = GAME.apply(state, action)
        step += 1
    lines.append(record_state(state))
    return docs


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES_PER_PAIRING
    lines: list[dict[str, Json]] = []
    docs: list[Json] = []
    pairings = [(a, b) for a in range(4) for b in range(4) if a != b]
    for p, clans in enumerate(pairings):
        for g in range(games):
            docs += play(clans, 1000 * p + g, lines)
    rng = random.Random(7)
    mutations = []
    for doc in docs:
        for k in range(8):
            bad = mutate(doc, rng, phase=k >= 4)
            mutations.append({"kind": "mutation", "doc": bad, **verdict(bad)})
        for _ in range(6):
            bad = tweak(doc, rng)
            mutations.append({"kind": "mutation", "doc": bad, **verdict(bad)})
    # mtime=0: the same engine gives the same bytes (a re-recording shows only real changes).
    with (
        gzip.GzipFile(OUT, "wb", compresslevel=9, mtime=0) as raw,
        io.TextIOWrapper(raw, encoding="utf-8") as out,
    ):
        for line in [data_line(), *lines, *mutations]:
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
    rejected = sum(1 for m in mutations if "error" in m)
    by_codec = sum(1 for m in mutations if m.get("stage") == "codec")
    crashes = sum(1 for m in mutations if "crash" in m)
    print(
        f"{len(lines)} states ({len(pairings)} pairings x {games} games), "
        f"{len(mutations)} mutations ({rejected} rejected, {by_codec} by the codec, "
        f"{crashes} crashes); {OUT.stat().st_size} bytes"
    )


if __name__ == "__main__":
    main()
