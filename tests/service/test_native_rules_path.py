"""Where rules calls run: natively in the server's thread for a game with a twin, in the rules
pool for the Python engine; a native call whose deadline has passed is refused unrun."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import grpc
import orjson
import pytest

from boardbot.engine import get_game
from boardbot.jobs.failures import FailureKind, Reason, RequestError
from boardbot.jobs.rules_job import LegalMovesCall, RulesJob, run_native_rules_job
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.search.engines import Engine
from tests.native.native_game import NOT_BUILT
from tests.native.parity import boardbot_native
from tests.service.servers import Served, start_server

pytestmark = pytest.mark.skipif(boardbot_native is None, reason=NOT_BUILT)


@pytest.fixture(scope="module", params=[Engine.AUTO, Engine.PYTHON], ids=["auto", "python"])
def server(request: pytest.FixtureRequest) -> Iterator[Served]:
    """A one-worker server on either engine."""
    served = start_server(engine=request.param, workers=1)
    yield served
    served.close()


def _state() -> bytes:
    game = get_game("leda")
    return orjson.dumps(game.state_to_json(game.new_state({}, 5)))


@pytest.mark.parametrize("rpc", ["NewGame", "LegalMoves", "ApplyMove", "ViewState"])
def test_rules_calls_of_a_native_game_skip_the_pool(server: Served, rpc: str) -> None:
    pool = server.server.rules_pool
    before = pool.admitted
    state = _state()
    requests = {
        "NewGame": pb.NewGameRequest(game="leda", seed=3),
        "LegalMoves": pb.LegalMovesRequest(game="leda", state_json=state, seat=0),
        "ApplyMove": pb.ApplyMoveRequest(game="leda", state_json=state, seed=3),
        "ViewState": pb.ViewStateRequest(game="leda", state_json=state, seat=1),
    }
    with contextlib.suppress(grpc.RpcError):  # refused or not: where it ran is the point
        getattr(server.stub, rpc)(requests[rpc], timeout=30)
    native = server.server.config.engine is not Engine.PYTHON
    assert pool.admitted == before + (0 if native else 1)


def test_a_native_call_past_its_deadline_is_refused_unrun() -> None:
    call = LegalMovesCall("leda", _state(), 0)
    job = RulesJob(call, deadline=time.time() - 0.001, budget_s=5.0, engine=Engine.AUTO)
    with pytest.raises(RequestError) as refused:
        run_native_rules_job(job)
    assert refused.value.kind is FailureKind.DEADLINE_EXCEEDED
    assert refused.value.reason == Reason.DEADLINE_EXCEEDED
