"""Record seeded playouts of the Python Legend Raiders engine as test vectors for the Rust twin.

Run from the repository root (it only imports the Python engine and writes one file):

    .venv/bin/python core/rules/tests/vectors/record_legend_raiders.py [GAMES_PER_CONFIGURATION]

Output: `core/rules/tests/vectors/legend_raiders.jsonl.gz`, one JSON object per line.

- line 1, `header`: the notation of every action (text and JSON, for the standard game and the
  diceless variant; notation depends on nothing else), and setup options with the error
  `new_state` raises for them.
- then one `game` line per playout: the options and the starting state JSON, then per step the
  current player, the legal actions (decisions) or the chance outcomes with probabilities, the
  action taken and the JSON patch to the next state; sampled steps add `evaluate`,
  `policy_weights`, seat views (the view, the state decoded back from it, one determinization),
  move parsing results and mutated states with the decoder's verdict. At the end: returns and
  scores.

A patch is a list of operations on the previous JSON value: `["set", path, value]` (a dict key,
a list index, or the list's length to append) and `["del", path]`; a path is a list of keys and
indices. Values compare with their JSON types (`true` is not `1`).
"""

from __future__ import annotations

import copy
import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))

from boardbot.engine.api import CHANCE, TERMINAL  # noqa: E402
from boardbot.engine.errors import EngineError  # noqa: E402
from boardbot.engine.legend_raiders import actions as A  # noqa: E402
from boardbot.engine.legend_raiders.components import COMPONENTS as C  # noqa: E402
from boardbot.engine.legend_raiders.game import LegendRaidersGame  # noqa: E402

OUT = Path(__file__).with_name("legend_raiders.jsonl.gz")
GAME = LegendRaidersGame()
GAMES_PER_CONFIG = 50
CONFIGS = [(n, v) for n in (2, 3, 4) for v in ("dice", "diceless")]
EVAL_EVERY = 7  # evaluate every 7th step
WEIGHTS_EVERY = 3  # policy weights every 3rd decision step
VIEW_EVERY = 23  # views and determinization every 23rd step
MUTATE_EVERY = 41  # mutated states every 41st step
PARSE_EVERY = 37  # move parsing every 37th step

Json = Any
# Integers stay within 64 bits: the service reads JSON with orjson, which (like the native
# engine's reader) turns larger ones into floats.


def same(a: Json, b: Json) -> bool:
    """JSON equality with types (`True` is not `1`)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def diff(a: Json, b: Json, path: list[Any] | None = None) -> list[Json]:
    """Patch operations turning `a` into `b`."""
    path = path or []
    if isinstance(a, dict) and isinstance(b, dict):
        ops: list[Json] = [["del", [*path, k]] for k in a if k not in b]
        for k, v in b.items():
            if k not in a:
                ops.append(["set", [*path, k], v])
            else:
                ops.extend(diff(a[k], v, [*path, k]))
        return ops
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        ops = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            ops.extend(diff(x, y, [*path, i]))
        return ops
    return [] if same(a, b) else [["set", path, b]]


def patched(value: Json, ops: list[Json]) -> Json:
    """`value` with the patch applied (a deep copy: `value` and `ops` are left alone)."""
    out = copy.deepcopy(value)
    for op in ops:
        if not op[1]:
            out = copy.deepcopy(op[2])
            continue
        parent = out
        for key in op[1][:-1]:
            parent = parent[key]
        last = op[1][-1]
        if op[0] == "del":
            del parent[last]
        elif isinstance(parent, list) and last == len(parent):
            parent.append(copy.deepcopy(op[2]))
        else:
            parent[last] = copy.deepcopy(op[2])
    return out


def error_of(exc: EngineError) -> list[str]:
    return [type(exc).__name__, exc.path, exc.reason]


def notation_table(dice: bool) -> list[Json]:
    state = GAME.new_state({"variant": "dice" if dice else "diceless"}, 0)
    return [[GAME.action_to_str(state, a), GAME.action_to_json(state, a)]
            for a in range(A.N_ACTIONS)]


BAD_OPTIONS: list[Json] = [
    {"players": 5}, {"players": 1}, {"players": "3"}, {"players": True}, {"players": None},
    {"variant": "dicey"}, {"variant": 1}, {"foo": 1}, {"characters": [1]},
    {"characters": [1, 1]}, {"characters": ["Nobody", 2]}, {"characters": [0, 2]},
    {"characters": "montana john"}, {"characters": [1, 2.5]}, {"first_player": 2},
    {"players": 3, "first_player": -1}, {"first_player": "0"},
    {"players": 3, "characters": ["montana JOHN", "June Manjill", 3]},
    {"players": 2, "characters": ["Lin Diana Jones", "Montana John"]},
    {"players": 4, "variant": "diceless", "characters": [4, 3, 2, 1], "first_player": 3},
]


def options_cases() -> list[Json]:
    cases = []
    for opts in BAD_OPTIONS:
        try:
            state = GAME.new_state(opts, 1)
        except EngineError as exc:
            cases.append({"options": opts, "error": error_of(exc)})
        else:
            data = GAME.state_to_json(state)
            cases.append({"options": opts, "ok": {
                "variant": data["variant"],
                "boards": [p["board"] for p in data["players"]],
                "first_player": data["first_player"] if "first_player" in opts else None,
            }})
    return cases


GARBAGE_TEXTS = [
    "", "stop", " stop ", "stop:1", "keep-roll", "prepare:1", "prepare:9", "prepare:0",
    "prepare:x", "prepare:", "prepare:007", "prepare:99999999999999999999999", "expedition:row1",
    "expedition:row9", "expedition:deck", "expedition:none", "expedition", "discard:olympus",
    "discard:shovel", "discard:die-1", "discard:hammer", "complete:olympus",
    "complete:olympus+torch=rope", "complete:olympus+torch=hammer", "complete:nothing",
    "die-card:coin", "die-card:tools", "die-card:torch", "die-card:tool", "roll:coin",
    "draw:map", "reveal:olympus", "reveal:die-1", "reveal:map", "reveal:nothing", "foo",
    "foo:bar", "PREPARE:1", "prepare:1:2", "complete:+torch=", "x" * 80, "discard:" + "y" * 70,
    "prepare:" + "1" * 70, "reveal:it's", "\tstop\n", "prepare:\u0663",
]
GARBAGE_JSON: list[Json] = [
    None, 3, "stop", [], {}, {"type": "stop"}, {"type": "stop", "x": 1}, {"type": 1},
    {"type": "prepare"}, {"type": "prepare", "column": "1"}, {"type": "prepare", "column": 1.0},
    {"type": "prepare", "column": True}, {"type": "prepare", "column": 2},
    {"type": "discard"}, {"type": "discard", "tile": "olympus", "tool": "map"},
    {"type": "discard", "tool": "map"}, {"type": "complete", "tile": "aegis", "torch": None},
    {"type": "reveal", "card": "die-2"}, {"type": "reveal"}, {"type": "die-card", "face": "coin"},
    {"type": "die-card", "effect": "coin"}, {"type": "expedition", "card": "row4"},
    {"type": "expedition", "card": "Row1"}, {"type": "roll", "face": "torch"},
    {"type": "draw", "tool": "rope"},
]


def parse_case_text(state: Any, text: str) -> Json:
    try:
        return {"text": text, "ok": GAME.action_from_str(state, text)}
    except EngineError as exc:
        return {"text": text, "error": error_of(exc)}


def parse_case_json(state: Any, data: Json) -> Json:
    try:
        return {"json": data, "ok": GAME.action_from_json(state, data)}
    except EngineError as exc:
        return {"json": data, "error": error_of(exc)}


def parse_cases(state: Any, legal: list[int], rng: random.Random) -> list[Json]:
    texts = [GAME.action_to_str(state, a) for a in legal]
    texts += rng.sample(GARBAGE_TEXTS, 6)
    cases = [parse_case_text(state, t) for t in texts]
    objects = [GAME.action_to_json(state, a) for a in legal[:3]]
    objects += rng.sample(GARBAGE_JSON, 5)
    cases += [parse_case_json(state, d) for d in objects]
    return cases


def leaves(value: Json, path: list[Any]) -> list[list[Any]]:
    """Every path in `value` (containers and leaves), the root excluded."""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append([*path, k])
            out.extend(leaves(v, [*path, k]))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append([*path, i])
            out.extend(leaves(v, [*path, i]))
    return out


def get_at(value: Json, path: list[Any]) -> Json:
    for key in path:
        value = value[key]
    return value


def mutation(data: Json, rng: random.Random) -> list[Json]:
    """One random edit of a state JSON, as patch operations."""
    paths = leaves(data, [])
    path = rng.choice(paths)
    old = get_at(data, path)
    names = [*C.tile_ids, *C.card_ids, *C.tool_ids]
    kind = rng.randrange(9)
    if kind == 0:
        return [["del", path]]
    if kind == 1:
        new: Json = rng.choice([None, True, False, 0, 1, 2, -1, 7, 99, 1.5, "x", rng.choice(names),
                          [], {}, 2**64 - 1, -(2**63), "z" * 70, 1e-7, "it's"])
        return [["set", path, new]]
    if kind == 2 and isinstance(old, int) and not isinstance(old, bool):
        return [["set", path, old + rng.choice([-2, -1, 1, 2])]]
    if kind == 3 and isinstance(old, bool):
        return [["set", path, not old]]
    if kind == 4 and isinstance(old, list):
        if old:
            i = rng.randrange(len(old))
            return [["del", [*path, i]]]
        return [["set", [*path, 0], rng.choice(names)]]
    if kind == 5 and isinstance(old, list) and old:
        return [["set", [*path, len(old)], copy.deepcopy(rng.choice(old))]]
    if kind == 6 and isinstance(old, dict):
        keys = ["extra", "x", *C.tool_ids, "tile", "q" * 70]
        return [["set", [*path, rng.choice(keys)], 1]]
    if kind == 7:
        # Move an item between two lists of names (a card from the deck to a hand, ...).
        lists = [p for p in paths if isinstance(get_at(data, p), list)
                 and all(isinstance(x, str) for x in get_at(data, p)) and get_at(data, p)]
        if len(lists) >= 2:
            src, dst = rng.sample(lists, 2)
            items = get_at(data, src)
            i = rng.randrange(len(items))
            return [["del", [*src, i]], ["set", [*dst, len(get_at(data, dst))], items[i]]]
    if kind == 8 and isinstance(old, str):
        pool = names if old in names else [old + "x", old.upper(), *names[:3]]
        return [["set", path, rng.choice(pool)]]
    return [["set", path, rng.choice([None, "x", -1, 3])]]


def decode_verdict(data: Json) -> Json:
    try:
        state = GAME.state_from_json(data)
    except EngineError as exc:
        return {"error": error_of(exc)}
    return {"ok": diff(data, GAME.state_to_json(state))}


def mutations(data: Json, rng: random.Random, count: int) -> list[Json]:
    cases = []
    for _ in range(count):
        ops = mutation(data, rng)
        if rng.random() < 0.25:
            ops += mutation(patched(data, ops), rng)
        cases.append({"ops": ops, **decode_verdict(patched(data, ops))})
    return cases


def views(state: Any, data: Json, rng: random.Random) -> list[Json]:
    out = []
    n = GAME.num_players(state)
    for observer in rng.sample(range(n), min(n, 2)):
        view = GAME.state_to_json(state, observer)
        decoded = GAME.state_to_json(GAME.state_from_json(view))
        world = GAME.determinize(GAME.observe(state, observer), rng)
        out.append({
            "observer": observer,
            "view": diff(data, view),
            "decoded": diff(data, decoded),
            "determinized": diff(data, GAME.state_to_json(world)),
        })
    return out


def random_options(n: int, variant: str, rng: random.Random) -> dict[str, Any]:
    opts: dict[str, Any] = {"players": n, "variant": variant}
    if rng.random() < 0.3:
        boards = rng.sample(range(1, 5), n)
        opts["characters"] = [
            b if rng.random() < 0.5 else rng.choice(C.board_names[b - 1]) for b in boards
        ]
    if rng.random() < 0.3:
        opts["first_player"] = rng.randrange(n)
    return opts


def play(game_id: int, n: int, variant: str) -> Json:
    seed = 1000 + game_id
    rng = random.Random(seed)
    weighted = game_id % 2 == 1
    options = random_options(n, variant, rng)
    state = GAME.new_state(options, seed)
    data = GAME.state_to_json(state)
    record: Json = {"kind": "game", "id": game_id, "options": options, "seed": seed,
                    "policy": "weighted" if weighted else "uniform", "start": data, "steps": []}
    k = 0
    while True:
        player = GAME.current_player(state)
        step: Json = {"player": player}
        if k % EVAL_EVERY == 0:
            step["evaluate"] = list(GAME.evaluate(state))
            step["scores"] = list(GAME.scores(state))
        if k % VIEW_EVERY == 0:
            step["views"] = views(state, data, rng)
        if k % MUTATE_EVERY == 0:
            step["mutations"] = mutations(data, rng, 6)
        if player == TERMINAL:
            record["steps"].append(step)
            break
        if player == CHANCE:
            outcomes = GAME.chance_outcomes(state) or []
            step["chance"] = [[a, p] for a, p in outcomes]
            action = GAME.sample_chance(state, rng)
        else:
            legal = list(GAME.legal_actions(state))
            step["legal"] = legal
            weights = list(GAME.policy_weights(state, legal))
            if k % WEIGHTS_EVERY == 0:
                step["weights"] = weights
            if k % PARSE_EVERY == 0:
                step["parse"] = parse_cases(state, legal, rng)
            action = rng.choices(legal, weights)[0] if weighted else rng.choice(legal)
        step["action"] = action
        nxt = GAME.apply(state, action)
        nxt_data = GAME.state_to_json(nxt)
        step["next"] = diff(data, nxt_data)
        record["steps"].append(step)
        state, data = nxt, nxt_data
        k += 1
    record["returns"] = list(GAME.returns(state))
    record["scores"] = list(GAME.scores(state))
    record["terminal_view"] = diff(data, GAME.state_to_json(state, 0))
    return record


def main() -> None:
    per_config = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES_PER_CONFIG
    header = {
        "kind": "header",
        "about": "Seeded playouts of the Python Legend Raiders engine (see this script).",
        "notation": {"dice": notation_table(True), "diceless": notation_table(False)},
        "options": options_cases(),
    }
    game_id = 0
    steps = 0
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as out:
        out.write(json.dumps(header, separators=(",", ":")) + "\n")
        for n, variant in CONFIGS:
            for _ in range(per_config):
                record = play(game_id, n, variant)
                steps += len(record["steps"])
                out.write(json.dumps(record, separators=(",", ":")) + "\n")
                game_id += 1
    print(f"{game_id} games, {steps} steps -> {OUT.relative_to(ROOT)} "
          f"({OUT.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
