"""Record the Python LEDA heuristics on seeded states as vectors for the Rust twin.

Run from the repository root (it only imports the Python engine and writes one file):

    .venv/bin/python core/rules/tests/vectors/record_leda_heuristics.py [GAMES_PER_PAIRING]

Output: `core/rules/tests/vectors/leda_heuristics.jsonl.gz`, one JSON object per line: for
every sampled state of seeded random games over every ordered clan pairing (uniformly random
moves, Python's own shuffles; every 3rd step and the last state), the full state JSON and
`evaluate`, Python's `heuristics.evaluate(state)` (floats written with `repr`, exact), and for
a decision state `actions`, its legal actions as Python tuples (`[kind, *args]`), and `weights`,
`heuristics.policy_weights(state, actions)`.
"""

from __future__ import annotations

import gzip
import io
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))

from boardbot.engine import get_game  # noqa: E402
from boardbot.engine.api import CHANCE  # noqa: E402
from boardbot.engine.leda import codec, heuristics  # noqa: E402
from boardbot.engine.leda.data import CLAN_NAMES  # noqa: E402

OUT = Path(__file__).with_name("leda_heuristics.jsonl.gz")
GAME = get_game("leda")
GAMES_PER_PAIRING = 4
RECORD_EVERY = 3

Json = Any


def tuple_json(action: Json) -> Json:
    """An action tuple as JSON: `[kind, *args]`, a shuffle order as a nested list."""
    return [list(a) if isinstance(a, tuple) else a for a in action]


def record(state: Any) -> dict[str, Json]:
    line = {
        "state": codec.state_to_json(state),
        "evaluate": list(heuristics.evaluate(state)),
    }
    if not GAME.is_terminal(state) and GAME.current_player(state) != CHANCE:
        actions = GAME.legal_actions(state)
        line["actions"] = [tuple_json(a) for a in actions]
        line["weights"] = heuristics.policy_weights(state, actions)
    return line


def play(clans: tuple[int, int], seed: int, lines: list[dict[str, Json]]) -> None:
    rng = random.Random(seed)
    options = {"clans": [CLAN_NAMES[clans[0]], CLAN_NAMES[clans[1]]]}
    state = GAME.new_state(options, seed)
    step = 0
    while not GAME.is_terminal(state):
        if step % RECORD_EVERY == 0:
            lines.append(record(state))
        if GAME.current_player(state) == CHANCE:
            action = GAME.sample_chance(state, rng)
        else:
            action = rng.choice(GAME.legal_actions(state))
        state = GAME.apply(state, action)
        step += 1
    lines.append(record(state))


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else GAMES_PER_PAIRING
    lines: list[dict[str, Json]] = []
    pairings = [(a, b) for a in range(4) for b in range(4) if a != b]
    for p, clans in enumerate(pairings):
        for g in range(games):
            play(clans, 5000 + 1000 * p + g, lines)
    # mtime=0: the same engine gives the same bytes (a re-recording shows only real changes).
    with (
        gzip.GzipFile(OUT, "wb", compresslevel=9, mtime=0) as raw,
        io.TextIOWrapper(raw, encoding="utf-8") as out,
    ):
        for line in lines:
            out.write(json.dumps(line, separators=(",", ":")) + "\n")
    decisions = sum(1 for line in lines if "actions" in line)
    print(
        f"{len(lines)} states ({len(pairings)} pairings x {games} games, {decisions} decisions); "
        f"{OUT.stat().st_size} bytes"
    )


if __name__ == "__main__":
    main()
