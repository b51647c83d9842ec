"""Every move and chance outcome either engine writes reads back in both, as the same move.

Random playouts of both games over every setup (LEDA: every ordered clan pairing with either
seat first; Legend Raiders: every player count and variant, random boards half the time) step
the Python and native engines together. At each position, every legal move and every chance
outcome (Legend Raiders: all listed; LEDA's shuffles: one drawn by each engine's sampler) is
written as notation and as JSON by each engine, and each of those four forms must parse back in
both engines to that same move, which both engines then apply. LEDA's decisions are checked at
every 4th step only (a position offers up to a hundred moves, and the Python engine reads a
notation by writing every legal move): every chance step is checked in both games.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from boardbot.engine.api import Game
from boardbot.engine.leda.game import LedaGame
from boardbot.engine.legend_raiders.game import LegendRaidersGame
from tests.native import parity
from tests.native.native_game import NOT_BUILT

pytestmark = pytest.mark.skipif(parity.boardbot_native is None, reason=NOT_BUILT)

CHANCE = -1
MAX_STEPS = 160
"""Steps played per game at most (enough to reach deck shuffles and the Action tiles' reshuffle
in LEDA)."""


def _as_python(value: Any) -> Any:
    """A native action as the Python engine's value (lists as tuples, nested)."""
    if isinstance(value, list | tuple):
        return tuple(_as_python(v) for v in value)
    return value


def _check_forms(game: Game, ps: Any, ns: Any, action: Any, what: str) -> None:
    """`action` written by both engines, in both forms, parses back in both to `action`."""
    texts = {game.action_to_str(ps, action), ns.action_to_str(action)}
    documents = [game.action_to_json(ps, action), json.loads(ns.action_to_json(action))]
    for text in texts:
        assert game.action_from_str(ps, text) == action, (what, text)
        assert _as_python(ns.action_from_str(text)) == action, (what, text)
    for document in documents:
        assert game.action_from_json(ps, document) == action, (what, document)
        assert _as_python(ns.action_from_json(json.dumps(document))) == action, (what, document)


def _outcomes(game: Game, ps: Any, ns: Any, rng: random.Random) -> list[Any]:
    """Every listed chance outcome, else one drawn by each engine's sampler."""
    listed = game.chance_outcomes(ps)
    if listed is not None:
        return [outcome for outcome, _ in listed]
    drawn = [game.sample_chance(ps, rng), _as_python(ns.sample_chance(rng.getrandbits(64)))]
    return list(dict.fromkeys(drawn))


def _roundtrip_game(
    game: Game, native: Any, options: dict[str, Any], seed: int, every: int = 1
) -> int:
    """Play one random game in both engines checking every form (of the decisions, at every
    `every`th step); the positions checked."""
    checked = 0
    rng = random.Random(seed)
    ps = game.new_state(options, seed)
    ns = native.state_from_json(json.dumps(game.state_to_json(ps)))
    for step in range(MAX_STEPS):
        if game.is_terminal(ps):
            break
        if game.current_player(ps) == CHANCE:
            checked += 1
            choices = _outcomes(game, ps, ns, rng)
            for outcome in choices:
                _check_forms(game, ps, ns, outcome, "chance outcome")
                game.apply(ps, outcome)
                ns.apply(outcome)  # the native engine accepts every outcome either one wrote
        else:
            choices = list(game.legal_actions(ps))
            assert choices == ns.legal_actions()
            if step % every == 0:
                checked += 1
                for action in choices:
                    _check_forms(game, ps, ns, action, "move")
        action = rng.choice(choices)
        ps, ns = game.apply(ps, action), ns.apply(action)
    return checked


def test_every_leda_move_and_shuffle_reads_back_in_both_engines() -> None:
    assert parity.boardbot_native is not None
    game, native = LedaGame(), parity.boardbot_native.Leda()
    positions = sum(
        _roundtrip_game(game, native, parity.leda_options(config), seed, every=4)
        for seed, config in enumerate(parity.LEDA_CONFIGS)
    )
    assert positions > len(parity.LEDA_CONFIGS) * 20


def test_every_legend_raiders_move_and_outcome_reads_back_in_both_engines() -> None:
    assert parity.boardbot_native is not None
    game, native = LegendRaidersGame(), parity.boardbot_native.LegendRaiders()
    rng = random.Random(11)
    positions = 0
    for seed in range(2 * len(parity.CONFIGS)):
        players, variant = parity.CONFIGS[seed % len(parity.CONFIGS)]
        options = parity.random_options(rng, players, variant)
        positions += _roundtrip_game(game, native, options, seed)
    assert positions > len(parity.CONFIGS) * 100
