"""Record seeded LEDA games played by the Python engine as vectors for the Rust transitions.

Run from the repository root (it only imports the Python engine and writes one file):

    .venv/bin/python core/rules/tests/vectors/record_leda_games.py [GAMES_PER_CONFIG]

Output: `core/rules/tests/vectors/leda_games.jsonl.gz`, one JSON object per line, one game per
line, over every ordered clan pairing and both first players (24 configurations), a third of
the games in each of three modes: `uniform` chooses decisions uniformly at random; `cards` first
chooses an action kind, card plays (`play`, `ring`, `awaken`, ...) weighted up and swaps down,
then an action of that kind uniformly, so that many more card effects happen; `policy` chooses
by Python's rollout weights (`heuristics.policy_weights`). Shuffles are sampled by the recorder
(its own seeded `random.Random`).

Each game line holds `options` (the `new_state` options), `seed`, `mode`, `start` (the full
state JSON after setup), and `steps`, one per step:

- `player`: `current_player` (-1 at a shuffle);
- `actions`: the legal actions as Python tuples (`[kind, *args]`; absent at a shuffle);
- `action`: the chosen action or shuffle outcome (`[27, [order]]`);
- `patch`: the next state JSON as a change of the previous one: its top-level keys that
  changed, with `players` (when one changed) a list of two objects holding each player's
  changed keys (the key sets never change, which the recorder checks);
- every 5th decision and every shuffle, `probes`: moves that are not legal there (three
  picked at random among a few candidates; at a shuffle, `food` and a shuffle order of the
  wrong size), each with `text` (`action_to_str`), `json` (`action_to_json`) and Python's
  verdicts on them, `text_error` / `json_error` as `[kind, path, reason]` (`invalid` or
  `illegal`);
- every 7th decision, `parsed`: Python's `action_from_str` and `action_from_json` checked on
  every legal action's text and JSON (the recorder asserts both give the action back).

At the end of a game, `returns` and `scores`.

Last recording: 288 games, 47,622 steps (46,323 decisions, 1,299 shuffles), 30,750 probes
of illegal moves; 1.9 MB gzipped. Every effect op of the game is resolved at least 5 times.
"""

from __future__ import annotations

import gzip
import io
import json
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))

from boardbot.engine import get_game  # noqa: E402
from boardbot.engine.api import CHANCE  # noqa: E402
from boardbot.engine.errors import IllegalActionError, InvalidActionError  # noqa: E402
from boardbot.engine.leda import codec, heuristics, notation, rules  # noqa: E402
from boardbot.engine.leda.data import CLAN_NAMES  # noqa: E402
from boardbot.engine.leda.frames import (  # noqa: E402
    A_ACTIVATE,
    A_AWAKEN,
    A_COPY,
    A_DONE,
    A_FOOD,
    A_MULLIGAN,
    A_PLAY,
    A_QUEEN,
    A_REVEAL,
    A_RING,
    A_SHUFFLE,
    A_SKIP,
    A_SWAP,
    A_TAKE,
    A_TOKEN,
    A_ZONE,
)

OUT = Path(__file__).with_name("leda_games.jsonl.gz")
GAME = get_game("leda")
GAMES_PER_CONFIG = 12  # a third each: uniform, biased to card plays, rollout policy
MODES = ("uniform", "cards", "policy")
PROBE_EVERY = 5
PARSE_EVERY = 7
MAX_STEPS = 5000

# Kind weights of the `cards` games (others 1).
KIND_WEIGHTS = {
    A_PLAY: 12.0,
    A_RING: 12.0,
    A_AWAKEN: 12.0,
    A_REVEAL: 6.0,
    A_TAKE: 6.0,
    A_TOKEN: 3.0,
    A_QUEEN: 3.0,
    A_COPY: 3.0,
    A_SWAP: 0.3,
}
# Moves tried as illegal probes (the first few not legal in the state are used).
PROBE_CANDIDATES: list[tuple[Any, ...]] = [
    (A_FOOD,),
    (A_SKIP,),
    (A_DONE,),
    (A_SWAP, 0, 15),
    (A_ACTIVATE, 5),
    (A_MULLIGAN, 1),
    (A_ZONE, 3),
    (A_PLAY, 0, 0),
    (A_RING, 9, 4),
    (A_SHUFFLE, (1, 0)),
]

Json = Any


def tuple_json(action: Json) -> Json:
    """An action tuple as JSON: `[kind, *args]`, a shuffle order as a nested list."""
    return [list(a) if isinstance(a, tuple) else a for a in action]


def patch(before: dict[str, Json], after: dict[str, Json]) -> dict[str, Json]:
    """The top-level keys of `after` that differ, players key by key."""
    assert before.keys() == after.keys()
    out: dict[str, Json] = {}
    for key, value in after.items():
        if key == "players" or before[key] == value:
            continue
        out[key] = value
    players = []
    for p0, p1 in zip(before["players"], after["players"], strict=True):
        assert p0.keys() == p1.keys()
        players.append({k: v for k, v in p1.items() if p0[k] != v})
    if any(players):
        out["players"] = players
    return out


def verdict(parse: Any, state: Any, move: Json) -> Json:
    """Python's error on `move` as `[kind, path, reason]`, or the accepted tuple."""
    try:
        return {"ok": tuple_json(parse(state, move))}
    except InvalidActionError as e:
        return ["invalid", e.path, e.reason]
    except IllegalActionError as e:
        return ["illegal", e.path, e.reason]


def probe(state: Any, move: Any) -> Json:
    text = notation.action_to_str(state, move)
    data = notation.action_to_json(state, move)
    return {
        "text": text,
        "json": data,
        "text_error": verdict(notation.action_from_str, state, text),
        "json_error": verdict(notation.action_from_json, state, data),
    }


def probes(state: Any, legal: list[Any], rng: random.Random) -> list[Json]:
    """Three moves of `PROBE_CANDIDATES` not legal in the decision `state`, picked at random."""
    candidates = [m for m in PROBE_CANDIDATES if m not in legal]
    return [probe(state, m) for m in rng.sample(candidates, 3)]


def chance_probes(state: Any) -> list[Json]:
    """At a shuffle: a decision, and a shuffle of the wrong size."""
    size = rules.shuffle_size(state)
    wrong = tuple(range(size + 1)) if size < 13 else (1, 0)
    return [probe(state, (A_FOOD,)), probe(state, (A_SHUFFLE, wrong))]


def choose(rng: random.Random, state: Any, legal: list[Any], mode: str) -> Any:
    if mode == "uniform":
        return rng.choice(legal)
    if mode == "policy":
        return rng.choices(legal, heuristics.policy_weights(state, legal))[0]
    by_kind: dict[int, list[Any]] = defaultdict(list)
    for action in legal:
        by_kind[action[0]].append(action)
    kinds = sorted(by_kind)
    weights = [KIND_WEIGHTS.get(k, 1.0) for k in kinds]
    kind = rng.choices(kinds, weights)[0]
    return rng.choice(by_kind[kind])


def play(clans: tuple[int, int], first: int, seed: int, mode: str) -> dict[str, Json]:
    rng = random.Random(seed)
    probe_rng = random.Random(-seed)
    options = {"clans": [CLAN_NAMES[clans[0]], CLAN_NAMES[clans[1]]], "first_player": first}
    state = GAME.new_state(options, seed)
    doc = codec.state_to_json(state)
    line: dict[str, Json] = {
        "options": options,
        "seed": seed,
        "mode": mode,
        "start": doc,
        "steps": [],
    }
    decisions = 0
    while not GAME.is_terminal(state):
        assert len(line["steps"]) < MAX_STEPS, "a game too long"
        player = GAME.current_player(state)
        step: dict[str, Json] = {"player": player}
        if player == CHANCE:
            action = GAME.sample_chance(state, rng)
            step["probes"] = chance_probes(state)
            assert GAME.action_from_str(state, GAME.action_to_str(state, action)) == action
        else:
            legal = cast(list[Any], GAME.legal_actions(state))
            step["actions"] = [tuple_json(a) for a in legal]
            if decisions % PROBE_EVERY == 0:
                step["probes"] = probes(state, legal, probe_rng)
            if decisions % PARSE_EVERY == 0:
                for a in legal:
                    assert GAME.action_from_str(state, GAME.action_to_str(state, a)) == a
                    assert GAME.action_from_json(state, GAME.action_to_json(state, a)) == a
                step["parsed"] = True
            action = choose(rng, state, legal, mode)
            decisions += 1
        step["action"] = tuple_json(action)
        state = GAME.apply(state, action)
        after = codec.state_to_json(state)
        step["patch"] = patch(doc, after)
        doc = after
        line["steps"].append(step)
    line["returns"] = list(GAME.returns(state))
    line["scores"] = list(GAME.scores(state))
    return line


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES_PER_CONFIG
    lines: list[dict[str, Json]] = []
    pairings = [(a, b) for a in range(4) for b in range(4) if a != b]
    for p, clans in enumerate(pairings):
        for first in (0, 1):
            for g in range(games):
                seed = 70000 + 1000 * p + 100 * first + g
                lines.append(play(clans, first, seed, MODES[g % len(MODES)]))
    # mtime=0: the same engine gives the same bytes (a re-recording shows only real changes).
    with (
        gzip.GzipFile(OUT, "wb", compresslevel=9, mtime=0) as raw,
        io.TextIOWrapper(raw, encoding="utf-8") as out,
    ):
        for line in lines:
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
    steps = sum(len(line["steps"]) for line in lines)
    chance = sum(1 for line in lines for s in line["steps"] if s["player"] == CHANCE)
    probed = sum(len(s.get("probes", ())) for line in lines for s in line["steps"])
    wins = [0, 0]
    for line in lines:
        wins[line["returns"].index(1.0)] += 1
    print(
        f"{len(lines)} games ({len(pairings)} pairings x 2 first players x {games}), "
        f"{steps} steps ({steps - chance} decisions, {chance} shuffles), {probed} probes, "
        f"wins {wins}; {OUT.stat().st_size} bytes"
    )


if __name__ == "__main__":
    main()
