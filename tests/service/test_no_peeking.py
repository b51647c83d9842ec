"""The bot uses only its seat's information: hidden parts the frontend sends change nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardbot.engine import Game, State
from boardbot.jobs import game_ops
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from tests.service.conftest import Served, load


def _other_world(game: Game, state: State, seat: int) -> State | None:
    """A state the seat cannot tell apart from `state`, but with different hidden parts."""
    full = game_ops.encode_state(game, state)
    view = game_ops.encode_state(game, state, observer=seat)
    for k in range(20):
        world = game.determinize(state, seat, random.Random(1000 + k))
        if game_ops.encode_state(game, world) != full:
            assert game_ops.encode_state(game, world, observer=seat) == view
            return world
    return None


def hidden_pair(game: Game, options: dict[str, Any], seed: int) -> tuple[State, State, int]:
    """A decision state with hidden opponent information, and a consistent alternative."""
    rng = random.Random(seed)
    state, _ = game_ops.resolve_chance(game, game.new_state(options, seed), rng)
    for _ in range(400):
        if game.is_terminal(state):
            break
        seat = game.current_player(state)
        if len(game.legal_actions(state)) >= 2:
            other = _other_world(game, state, seat)
            if other is not None:
                return state, other, seat
        actions = game.legal_actions(state)
        state, _ = game_ops.resolve_chance(
            game, game.apply(state, actions[rng.randrange(len(actions))]), rng
        )
    raise AssertionError("no state with hidden opponent information found")


@pytest.mark.parametrize("rpc", ["ChooseMove", "Analyze"])
def test_same_view_same_answer(served: Served, game_case: tuple[str, Any], rpc: str) -> None:
    name, options = game_case
    game = load(name)
    state, other, seat = hidden_pair(game, options, seed=31)
    replies = []
    for s in (state, other):
        if rpc == "ChooseMove":
            reply: Any = served.stub.ChooseMove(
                pb.ChooseMoveRequest(
                    game=name,
                    state_json=game_ops.encode_state(game, s),
                    seat=seat,
                    settings=pb.SearchSettings(iterations=150),
                    seed=5,
                ),
                timeout=60,
            )
            replies.append((reply.move.notation, reply.stats.iterations, reply.analysis.visits,
                            reply.analysis.value))
        else:
            reply = served.stub.Analyze(
                pb.AnalyzeRequest(
                    game=name,
                    state_json=game_ops.encode_state(game, s),
                    seat=seat,
                    settings=pb.SearchSettings(iterations=150),
                    seed=5,
                ),
                timeout=60,
            )
            replies.append(reply.SerializeToString(deterministic=True).replace(
                reply.stats.SerializeToString(deterministic=True), b""))
    assert replies[0] == replies[1]


def test_view_only_state_is_accepted(served: Served, game_case: tuple[str, Any]) -> None:
    """A frontend may send only what the seat sees (hidden parts as counts)."""
    name, options = game_case
    game = load(name)
    state, _, seat = hidden_pair(game, options, seed=32)
    full = served.stub.ChooseMove(
        pb.ChooseMoveRequest(
            game=name,
            state_json=game_ops.encode_state(game, state),
            seat=seat,
            settings=pb.SearchSettings(iterations=100),
            seed=8,
        ),
        timeout=60,
    )
    view = served.stub.ChooseMove(
        pb.ChooseMoveRequest(
            game=name,
            state_json=game_ops.encode_state(game, state, observer=seat),
            seat=seat,
            settings=pb.SearchSettings(iterations=100),
            seed=8,
        ),
        timeout=60,
    )
    assert (view.move.notation, view.analysis.visits) == (full.move.notation, full.analysis.visits)
