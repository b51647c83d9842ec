"""Record LEDA's move notation from the Python engine as vectors for the Rust twin.

Run from the repository root (it only imports the Python engine and writes one file):

    .venv/bin/python core/rules/tests/vectors/record_leda_moves.py [GAMES_PER_PAIRING]

Output: `core/rules/tests/vectors/leda_moves.jsonl.gz`, one JSON object per line.

- `action` lines: every action the parsers can produce but shuffles (every kind over every
  value of its argument shapes, swaps with the first square not after the second), and
  shuffle orders of every length 0..13, each with its Python tuple (`[kind, *args]`, a
  shuffle `[27, [order]]`), `action_to_str` and `action_to_json`; `legal` counts how often the
  action was legal (or the outcome drawn) in the sampled states of seeded random games over
  every ordered clan pairing. Python's notation is the same in every state: the recorder
  checks that every legal action renders the same in each state it was seen in, and that
  Python parses its text and JSON back to it there.
- `bad_text` / `bad_json` lines: malformed move texts and JSON objects (hand-written and
  random edits of good ones) with Python's verdict in a sampled decision state: `error`
  (`invalid` or `illegal`), `path`, `reason`, and `stage`: `parse` when the move cannot be
  read whatever the state (Python's `InvalidActionError`, or the text form's "is not legal
  here" for a text no action renders to), `legality` when it is a well-formed action that
  Python rejected as not legal in that state (the Rust twin must then parse it), `ok` when
  Python accepted it (the Rust twin must parse it to `action`).

Python's text parser refuses `shuffle:`, the text its renderer writes for the empty order (the
Rust twin does the same; the test knows).

Last recording: 4,458 actions (4,006 decisions, 452 shuffle orders; 1,056 seen legal or drawn
in 1,940 sampled decision states, 12 pairings x 3 games), 668 bad texts (629 rejected by the
parser, 39 by legality), 655 bad JSON objects (630 by the parser, 24 by legality, 1 accepted),
62 kB.
"""

from __future__ import annotations

import gzip
import io
import itertools
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))

from boardbot.engine import get_game  # noqa: E402
from boardbot.engine.api import CHANCE  # noqa: E402
from boardbot.engine.errors import IllegalActionError, InvalidActionError  # noqa: E402
from boardbot.engine.leda import notation  # noqa: E402
from boardbot.engine.leda.data import CLAN_NAMES, ITEM_NAMES  # noqa: E402
from boardbot.engine.leda.frames import A_SHUFFLE, ACTION_ARGS  # noqa: E402

OUT = Path(__file__).with_name("leda_moves.jsonl.gz")
GAME = get_game("leda")
GAMES_PER_PAIRING = 3
SAMPLE_EVERY = 3  # look at every 3rd decision state
SHUFFLES_PER_LENGTH = 40
SIZES = {"square": 16, "card": len(ITEM_NAMES), "token": len(ITEM_NAMES), "zone": 14}
SIZES |= {"pile": 3, "put": 2, "bool": 2, "option": 2}

Json = Any
Action = tuple[Any, ...]


def tuple_json(action: tuple[Any, ...]) -> Json:
    if action[0] == A_SHUFFLE:
        return [A_SHUFFLE, list(action[1])]
    return list(action)


def all_actions(rng: random.Random) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for kind, shapes in enumerate(ACTION_ARGS):
        if kind == A_SHUFFLE:
            continue
        if shapes == ("square", "square"):
            out += [(kind, a, b) for a in range(16) for b in range(a, 16)]
            continue
        out += [(kind, *args) for args in itertools.product(*(range(SIZES[s]) for s in shapes))]
    for n in range(14):
        for _ in range(SHUFFLES_PER_LENGTH if n > 1 else 1):
            order = list(range(n))
            rng.shuffle(order)
            out.append((A_SHUFFLE, tuple(order)))
    return list(dict.fromkeys(out))


def verdict(parse: Any, state: Any, move: Json, known_texts: set[str]) -> dict[str, Json]:
    try:
        action = parse(state, move)
    except InvalidActionError as e:
        return {"error": "invalid", "path": e.path, "reason": e.reason, "stage": "parse"}
    except IllegalActionError as e:
        stage = "legality"
        if isinstance(move, str) and not move.startswith("shuffle:") and move not in known_texts:
            stage = "parse"
        return {"error": "illegal", "path": e.path, "reason": e.reason, "stage": stage}
    return {"stage": "ok", "action": tuple_json(action)}


def bad_texts(rng: random.Random, texts: list[str]) -> list[str]:
    out = [
        "",
        " ",
        "play",
        "play:",
        "play:shark-6",
        "play:shark-6@",
        "play:@r1c1",
        "play:nope@r1c1",
        "play:shark-6@r5c1",
        "play:shark-6@r1c1@r1c1",
        "zone:row9",
        "zone:",
        "zone",
        "choose:0",
        "choose:3",
        "choose:1 ",
        " choose:1",
        "choose:01",
        "mulligan:maybe",
        "mulligan:Yes",
        "mulligan",
        "swap:r2c2-r1c1",
        "swap:r1c1-r1c1",
        "swap:r1c1",
        "swap:r1c1@r2c2",
        "skip:",
        "skip:1",
        "done:now",
        "food:1",
        "spy:deck",
        "spy:hand",
        "put:middle",
        "take:mv-1",
        "reveal:action-3",
        "under:shark-1",
        "ZONE:row1",
        "zone:ROW1",
        "dance",
        "dance:row1",
        ":",
        "::",
        "zone::row1",
        "shuffle",
        "shuffle:",
        "shuffle:0",
        "shuffle:1",
        "shuffle:0,1",
        "shuffle:1,0",
        "shuffle:0,0",
        "shuffle:0,,1",
        "shuffle:0,1,",
        "shuffle:a",
        "shuffle:-1",
        "shuffle:00,1",
        "shuffle:000",
        "shuffle:100",
        "shuffle:0, 1",
        "shuffle:\u0663",
        "shuffle:" + ",".join(str(i) for i in range(13)),
        "shuffle:" + ",".join(str(i) for i in range(14)),
        "shuffle:" + ",".join(str(i) for i in range(20)),
        "shuffle:" + ",".join(str(i) for i in range(13)) + ",",
        "play:" + "x" * 100,
        "z" * 70,
        "é:row1",
        "zone:row1\n",
        "'",
        '"',
        "\\",
        "zone:\x00",
    ]
    alphabet = "abcdefgrstuvwxyz0123456789:@-,. "
    for _ in range(600):
        t = list(rng.choice(texts))
        for _ in range(rng.randint(1, 2)):
            i = rng.randrange(len(t) + 1)
            op = rng.randrange(3)
            if op == 0 and i < len(t):
                del t[i]
            elif op == 1:
                t.insert(i, rng.choice(alphabet))
            elif i < len(t):
                t[i] = rng.choice(alphabet)
        out.append("".join(t))
    return list(dict.fromkeys(out))


JUNK: list[Json] = [
    None,
    True,
    False,
    0,
    1,
    2,
    3,
    -1,
    1.0,
    1.5,
    "",
    "r1c1",
    "row1",
    "shark-6",
    "mv-1",
    "deck",
    "top",
    "yes",
    [],
    [0],
    ["r1c1"],
    {},
    {"a": 1},
]


def bad_jsons(rng: random.Random, jsons: list[Json]) -> list[Json]:
    out: list[Json] = [
        None,
        1,
        "zone:row1",
        [],
        ["zone", "row1"],
        {},
        {"type": None},
        {"type": 1},
        {"type": "dance"},
        {"type": "Zone", "zone": "row1"},
        {"type": "zone"},
        {"type": "zone", "zone": "row1", "extra": 1},
        {"extra": 1, "type": "zone"},
        {"type": "zone", "zone": 1},
        {"type": "choose", "option": 0},
        {"type": "choose", "option": 3},
        {"type": "choose", "option": True},
        {"type": "choose", "option": 1.0},
        {"type": "choose", "option": "1"},
        {"type": "mulligan", "redraw": 1},
        {"type": "mulligan", "redraw": None},
        {"type": "mulligan", "bool": True},
        {"type": "swap", "squares": []},
        {"type": "swap", "squares": ["r1c1"]},
        {"type": "swap", "squares": ["r1c1", "r1c1"]},
        {"type": "swap", "squares": ["r2c2", "r1c1"]},
        {"type": "swap", "squares": ["r1c1", "r2c2", "r3c3"]},
        {"type": "swap", "squares": "r1c1-r2c2"},
        {"type": "swap", "squares": ["r1c1", 5]},
        {"type": "swap", "square": "r1c1"},
        {"type": "play", "card": "shark-6"},
        {"type": "play", "square": "r1c1"},
        {"type": "play", "card": "mv-1", "square": "r1c1"},
        {"type": "play", "card": "x" * 100, "square": "r1c1"},
        {"type": "take", "card": "action-2"},
        {"type": "shuffle"},
        {"type": "shuffle", "order": None},
        {"type": "shuffle", "order": []},
        {"type": "shuffle", "order": [0]},
        {"type": "shuffle", "order": [1]},
        {"type": "shuffle", "order": [0, 0]},
        {"type": "shuffle", "order": [1, 0]},
        {"type": "shuffle", "order": [0, 13]},
        {"type": "shuffle", "order": [0, -1]},
        {"type": "shuffle", "order": [0, True]},
        {"type": "shuffle", "order": [0, 1.0]},
        {"type": "shuffle", "order": list(range(13))},
        {"type": "shuffle", "order": list(range(14))},
        {"type": "shuffle", "order": [0], "extra": 1},
        {"type": "skip", "square": "r1c1"},
        {"type": "done"},
        {"type": "food"},
        {"type": "spy", "pile": "hand"},
        {"type": "put", "put": "middle"},
        {"type": "zone", "zone": "square-tl"},
    ]
    for _ in range(600):
        doc = dict(rng.choice(jsons))
        op = rng.randrange(4)
        keys = list(doc)
        if op == 0:
            doc[rng.choice(keys)] = rng.choice(JUNK)
        elif op == 1:
            del doc[rng.choice(keys)]
        elif op == 2:
            doc[rng.choice(["extra", "order", "card", "square", "squares", "option"])] = rng.choice(
                JUNK
            )
        else:
            key = rng.choice(keys)
            value = doc[key]
            if isinstance(value, list) and value:
                value = list(value)
                value[rng.randrange(len(value))] = rng.choice(JUNK)
                doc[key] = value
            else:
                doc[key] = rng.choice(JUNK)
        out.append(doc)
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES_PER_PAIRING
    rng = random.Random(20261201)
    actions = all_actions(rng)
    any_state = GAME.new_state({}, 0)
    rendered = {
        a: (notation.action_to_str(any_state, a), notation.action_to_json(any_state, a))
        for a in actions
    }
    legal_count: dict[tuple[Any, ...], int] = dict.fromkeys(actions, 0)
    decision_states = []
    states = 0
    for c0, c1 in itertools.permutations(range(4), 2):
        for g in range(games):
            seed = 1000 * (c0 * 4 + c1) + g
            state = GAME.new_state({"clans": [CLAN_NAMES[c0], CLAN_NAMES[c1]]}, seed)
            grng = random.Random(seed)
            step = 0
            while not GAME.is_terminal(state):
                if GAME.current_player(state) == CHANCE:
                    action = cast(Action, GAME.sample_chance(state, grng))
                    if action not in rendered:
                        rendered[action] = (
                            notation.action_to_str(state, action),
                            notation.action_to_json(state, action),
                        )
                        legal_count[action] = 0
                    legal_count[action] += 1
                else:
                    legal = cast(list[Action], GAME.legal_actions(state))
                    if step % SAMPLE_EVERY == 0:
                        states += 1
                        if states % 50 == 0:
                            decision_states.append(state)
                        for a in legal:
                            text = notation.action_to_str(state, a)
                            data = notation.action_to_json(state, a)
                            assert (text, data) == rendered[a], a
                            assert notation.action_from_str(state, text) == a, text
                            assert notation.action_from_json(state, data) == a, data
                            legal_count[a] += 1
                    action = grng.choice(legal)
                state = GAME.apply(state, action)
                step += 1
    lines: list[dict[str, Json]] = []
    for a, (text, data) in rendered.items():
        lines.append(
            {
                "kind": "action",
                "tuple": tuple_json(a),
                "text": text,
                "json": data,
                "legal": legal_count[a],
            }
        )
    known_texts = {text for text, _ in rendered.values()}
    texts = [text for text, _ in rendered.values()]
    jsons = [data for _, data in rendered.values()]
    for i, move in enumerate(bad_texts(rng, texts)):
        state = decision_states[i % len(decision_states)]
        lines.append(
            {
                "kind": "bad_text",
                "text": move,
                **verdict(notation.action_from_str, state, move, known_texts),
            }
        )
    for i, move in enumerate(bad_jsons(rng, jsons)):
        state = decision_states[i % len(decision_states)]
        lines.append(
            {
                "kind": "bad_json",
                "json": move,
                **verdict(notation.action_from_json, state, move, known_texts),
            }
        )
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as f:
        for line in lines:
            f.write((json.dumps(line, sort_keys=False) + "\n").encode())
    OUT.write_bytes(buf.getvalue())
    kinds = Counter(line["kind"] for line in lines)
    seen = sum(1 for a, n in legal_count.items() if n)
    stages = Counter(f"{line['kind']}:{line['stage']}" for line in lines if "stage" in line)
    print(
        f"{states} decision states sampled, {seen} distinct actions seen legal/drawn;"
        f" {dict(kinds)};"
        f" {dict(stages)}; {len(buf.getvalue())} bytes -> {OUT}"
    )


if __name__ == "__main__":
    main()
