"""A game added from outside the package (tests/games/high_card), registered by the
BOARDBOT_EXTRA_GAMES environment variable, is served over gRPC like the built-in ones."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest

from boardbot.engine import list_games
from boardbot.engine.registry import unregister_game
from boardbot.jobs.extra_games import ENV_VAR
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from tests.service.servers import Served, start_server

NAME = "high_card"


@pytest.fixture(scope="module")
def served_with_high_card() -> Iterator[Served]:
    """A server whose process and workers register High Card from the environment only."""
    with pytest.MonkeyPatch.context() as patch:
        # Kept set while the server runs: a replacement worker registers from it too.
        patch.setenv(ENV_VAR, f"{NAME}=tests.games.high_card.game:HighCardGame")
        served = start_server(workers=1, rules_workers=1)
        try:
            yield served
        finally:
            served.close()
            if NAME in list_games():
                unregister_game(NAME)


def test_an_environment_game_is_listed_and_played(served_with_high_card: Served) -> None:
    stub = served_with_high_card.stub
    listed = {g.name: g for g in stub.ListGames(pb.ListGamesRequest()).games}
    assert NAME in listed
    assert (listed[NAME].min_players, listed[NAME].max_players) == (2, 2)

    game = stub.NewGame(pb.NewGameRequest(game=NAME, seed=4))
    seat = game.summary.current_player
    assert seat in (0, 1) and not game.summary.terminal
    moves = stub.LegalMoves(pb.LegalMovesRequest(game=NAME, state_json=game.state_json, seat=seat))
    assert sorted(m.notation for m in moves.moves) == ["keep", "redraw"]

    request = pb.ChooseMoveRequest(
        game=NAME,
        state_json=game.state_json,
        seat=seat,
        preset="easy",
        settings=pb.SearchSettings(iterations=60),
        seed=2,
    )
    chosen = stub.ChooseMove(request)
    assert chosen.move.notation in ("keep", "redraw")
    assert 0 < chosen.stats.iterations <= 60 and chosen.stats.seat == seat
    assert chosen.stats.stopped_by in ("iterations", "early_stop")
    assert stub.ChooseMove(request).move == chosen.move  # seeded: the same answer again
    assert chosen.analysis.principal_variation[0] == chosen.move.notation
    assert orjson.loads(chosen.move.move_json) is not None

    analysis = stub.Analyze(
        pb.AnalyzeRequest(
            game=NAME, state_json=game.state_json, seat=seat, preset="easy", seed=2, top_k=0
        )
    )
    assert sorted(m.move.notation for m in analysis.moves) == ["keep", "redraw"]

    after = stub.ApplyMove(
        pb.ApplyMoveRequest(
            game=NAME, state_json=game.state_json, notation=chosen.move.notation, seed=3
        )
    )
    assert after.move.notation == chosen.move.notation
    assert after.summary.current_player != seat or after.summary.terminal
