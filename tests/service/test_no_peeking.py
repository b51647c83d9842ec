"""The bot uses only its seat's information: hidden parts the frontend sends change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from boardbot.jobs import game_ops
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from tests.service.positions import hidden_pair, load
from tests.service.servers import Served


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
