"""Chance steps chosen by the client: `manual_chance`, outcomes listed by LegalMoves (seat -1),
ApplyMove of an outcome or without one (drawn from the seed), and the errors around them."""

from __future__ import annotations

import random
from typing import Any

import grpc
import orjson
import pytest

from boardbot.engine import CHANCE, Game, State
from boardbot.engine.leda.rules import shuffle_size
from boardbot.jobs import game_ops
from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from tests.engine.legend_raiders.builders import P, build, play, tools
from tests.search.toy_games import DiceGame
from tests.service.positions import decision_state, load, terminal_state
from tests.service.servers import Served, error_details

Code = grpc.StatusCode
RAIDERS = "legend_raiders"


def _apply(served: Served, **fields: Any) -> pb.ApplyMoveResponse:
    reply: pb.ApplyMoveResponse = served.stub.ApplyMove(pb.ApplyMoveRequest(**fields), timeout=10)
    return reply


def _listed(served: Served, game: str, raw: bytes, seat: int = CHANCE) -> pb.LegalMovesResponse:
    request = pb.LegalMovesRequest(game=game, state_json=raw, seat=seat)
    reply: pb.LegalMovesResponse = served.stub.LegalMoves(request, timeout=10)
    return reply


def _refused(call: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value


def _manual_raiders(served: Served, seed: int = 8, players: int = 2) -> pb.NewGameResponse:
    request = pb.NewGameRequest(game=RAIDERS, players=players, seed=seed, manual_chance=True)
    reply: pb.NewGameResponse = served.stub.NewGame(request, timeout=10)
    return reply


def _give_outcomes(served: Served, game: Game, raw: bytes, events: list[str]) -> bytes:
    """Give each outcome of `events` in turn as the client, checking every step: the outcomes
    listed with probabilities summing to 1, and the state after each the engine's."""
    for event in events:
        state = game_ops.decode_state(game, raw)
        listed = _listed(served, RAIDERS, raw)
        assert listed.chance and not listed.chance_form
        assert all(m.HasField("probability") and m.probability > 0 for m in listed.moves)
        assert abs(sum(m.probability for m in listed.moves) - 1.0) < 1e-9
        assert event in [m.notation for m in listed.moves]
        reply = _apply(served, game=RAIDERS, state_json=raw, notation=event, manual_chance=True)
        assert reply.move.notation == event and not reply.chance_events
        expected = game.apply(state, game.action_from_str(state, event))
        assert game_ops.decode_state(game, reply.state_json) == expected
        assert reply.summary.current_player == game.current_player(expected)
        raw = reply.state_json
    return raw


def test_a_whole_game_with_every_outcome_chosen_by_the_client(served: Served) -> None:
    """The client gives every chance outcome the seed would draw: each state is the one the
    server reaches resolving them itself."""
    game = load(RAIDERS)
    rng = random.Random(8)
    auto = served.stub.NewGame(pb.NewGameRequest(game=RAIDERS, players=2, seed=8), timeout=10)
    manual = _manual_raiders(served, seed=8)
    assert manual.summary.current_player == CHANCE and not manual.chance_events
    assert auto.chance_events
    raw = _give_outcomes(served, game, manual.state_json, list(auto.chance_events))
    assert raw == auto.state_json
    summary = auto.summary
    given = len(auto.chance_events)
    for step in range(3000):
        if summary.terminal:
            break
        moves = _listed(served, RAIDERS, raw, summary.current_player)
        assert not moves.chance and not any(m.HasField("probability") for m in moves.moves)
        move = moves.moves[rng.randrange(len(moves.moves))]
        common = dict(game=RAIDERS, state_json=raw, move_json=move.move_json, seed=step)
        auto_step = _apply(served, **common)
        manual_step = _apply(served, **common, manual_chance=True)
        assert manual_step.move.notation == move.notation and not manual_step.chance_events
        if auto_step.chance_events:
            assert manual_step.summary.current_player == CHANCE
        chosen = _give_outcomes(served, game, manual_step.state_json, list(auto_step.chance_events))
        assert chosen == auto_step.state_json
        raw, summary = auto_step.state_json, auto_step.summary
        given += len(auto_step.chance_events)
    assert summary.terminal and sorted(summary.returns) == [0.0, 1.0]
    assert given > 50


def test_manual_new_game_stops_at_the_first_chance_step(served: Served) -> None:
    game = load(RAIDERS)
    manual = _manual_raiders(served, seed=4, players=3)
    state = game_ops.decode_state(game, manual.state_json)
    assert state == game.new_state({"players": 3}, 4)
    assert manual.summary.current_player == CHANCE == game.current_player(state)
    assert not manual.summary.terminal and manual.summary.num_players == 3
    # By default, the opening chance steps are resolved with the seed, as before.
    auto = served.stub.NewGame(pb.NewGameRequest(game=RAIDERS, players=3, seed=4), timeout=10)
    expected, events = game_ops.resolve_chance(game, state, random.Random(4))
    assert game_ops.decode_state(game, auto.state_json) == expected
    assert list(auto.chance_events) == events
    # LEDA opens with a decision: manual_chance changes nothing there.
    leda = [
        served.stub.NewGame(pb.NewGameRequest(game="leda", seed=3, manual_chance=m), timeout=10)
        for m in (False, True)
    ]
    assert leda[0].state_json == leda[1].state_json and leda[1].summary.current_player >= 0


def test_a_chance_step_without_a_move_is_drawn_from_the_seed(served: Served) -> None:
    game = load(RAIDERS)
    raw = _manual_raiders(served, seed=5).state_json
    state = game_ops.decode_state(game, raw)
    resolved = _apply(served, game=RAIDERS, state_json=raw, seed=4)
    expected, events = game_ops.resolve_chance(game, state, random.Random(4))
    assert game_ops.decode_state(game, resolved.state_json) == expected
    assert list(resolved.chance_events) == events and len(events) >= 2
    assert not resolved.HasField("move")
    one = _apply(served, game=RAIDERS, state_json=raw, seed=4, manual_chance=True)
    outcome = game.sample_chance(state, random.Random(4))
    after = game.apply(state, outcome)
    assert game_ops.decode_state(game, one.state_json) == after
    assert list(one.chance_events) == [game.action_to_str(state, outcome)]
    assert one.summary.current_player == game.current_player(after) == CHANCE
    assert not one.HasField("move")


def test_an_outcome_given_then_the_seed_resolves_the_rest(served: Served) -> None:
    game = load(RAIDERS)
    raw = _manual_raiders(served, seed=6).state_json
    state = game_ops.decode_state(game, raw)
    reply = _apply(served, game=RAIDERS, state_json=raw, move_json=b'{"type":"roll","face":"tool"}',
                   seed=2)
    action = game.action_from_str(state, "roll:tool")
    expected, events = game_ops.resolve_chance(game, game.apply(state, action), random.Random(2))
    assert game_ops.decode_state(game, reply.state_json) == expected
    assert list(reply.chance_events) == events and events[0].startswith("draw:")
    assert reply.move.notation == "roll:tool"
    assert orjson.loads(reply.move.move_json) == {"type": "roll", "face": "tool"}
    assert not reply.move.HasField("probability")


def _leda_shuffle(served: Served) -> tuple[bytes, State]:
    """A LEDA state waiting for a mulligan's shuffle, reached with manual_chance."""
    game = load("leda")
    new = served.stub.NewGame(pb.NewGameRequest(game="leda", seed=2), timeout=10)
    reply = _apply(served, game="leda", state_json=new.state_json, notation="mulligan:yes",
                   manual_chance=True, seed=1)
    assert reply.summary.current_player == CHANCE and not reply.chance_events
    return reply.state_json, game_ops.decode_state(game, reply.state_json)


def test_a_leda_shuffle_given_explicitly(served: Served) -> None:
    game = load("leda")
    raw, state = _leda_shuffle(served)
    n = shuffle_size(state)
    listed = _listed(served, "leda", raw)
    assert listed.chance and not listed.moves
    assert listed.chance_form.startswith(f"shuffle of {n} cards")
    assert f"permutation of 0..{n - 1}" in listed.chance_form
    assert '{"type":"shuffle","order":[...]}' in listed.chance_form
    order = list(reversed(range(n)))
    reply = _apply(served, game="leda", state_json=raw, seed=3,
                   move_json=orjson.dumps({"type": "shuffle", "order": order}))
    action = game.action_from_json(state, {"type": "shuffle", "order": order})
    expected, _ = game_ops.resolve_chance(game, game.apply(state, action), random.Random(3))
    assert game_ops.decode_state(game, reply.state_json) == expected
    assert reply.move.notation == "shuffle:" + ",".join(map(str, order))
    by_text = _apply(served, game="leda", state_json=raw, seed=3, notation=reply.move.notation)
    assert by_text.state_json == reply.state_json
    drawn = _apply(served, game="leda", state_json=raw, seed=4, manual_chance=True)
    sampled = game.sample_chance(state, random.Random(4))
    assert game_ops.decode_state(game, drawn.state_json) == game.apply(state, sampled)
    assert list(drawn.chance_events) == [game.action_to_str(state, sampled)]


def _empty_bag_draw() -> bytes:
    """A Legend Raiders tool draw with every map out of the bag (drawing one: probability 0)."""
    state = play(build([P(1, tools=tools(map=6)), P(2, tools=tools(map=1, rope=3))]), "roll:tool")
    return game_ops.encode_state(load(RAIDERS), state)


def test_the_listed_outcomes_leave_out_impossible_ones(served: Served) -> None:
    raw = _empty_bag_draw()
    listed = _listed(served, RAIDERS, raw)
    notations = [m.notation for m in listed.moves]
    assert notations == ["draw:compass", "draw:shovel", "draw:rope"]
    assert [m.probability for m in listed.moves] == pytest.approx([7 / 18, 7 / 18, 4 / 18])
    assert [orjson.loads(m.move_json)["tool"] for m in listed.moves] == [
        "compass", "shovel", "rope",
    ]


class LoadedDiceGame(DiceGame):
    """A die that lists its six with probability 0."""

    def chance_outcomes(self, state: State) -> list[tuple[Any, float]] | None:
        """Faces 1-5 at 1/5 each, and a six that never comes up."""
        if state.player != CHANCE:
            return None
        return [(face, 0.0 if face == 6 else 0.2) for face in range(1, 7)]


def test_outcomes_of_probability_zero_are_not_listed() -> None:
    game = LoadedDiceGame()
    state = game.apply(game.new_state(), "die")
    listed = game_ops.chance_moves(game, state)
    assert listed.chance and not listed.chance_form
    assert [(m.notation, m.probability) for m in listed.moves] == [
        (str(face), 0.2) for face in range(1, 6)
    ]
    assert game_ops.listed_outcomes(game, state) == [(face, 0.2) for face in range(1, 6)]
    assert game_ops.listed_outcomes(game, game.new_state()) is None


@pytest.mark.parametrize(
    ("fields", "field", "path", "reason", "fragment"),
    [
        ({"notation": "draw:map"}, "notation", "$", "ILLEGAL_MOVE",
         "draw:map is not a possible outcome of this chance step"),
        ({"move_json": b'{"type": "draw", "tool": "map"}'}, "move_json", "$", "ILLEGAL_MOVE",
         "draw:map is not a possible outcome"),
        ({"notation": "roll:coin"}, "notation", "$", "ILLEGAL_MOVE", "not a possible outcome"),
        ({"notation": "stop"}, "notation", "$", "ILLEGAL_MOVE", "not a possible outcome"),
        ({"move_json": b'{"type": "draw", "tool": "whip"}'}, "move_json", "$.tool",
         "INVALID_MOVE", "move_json $.tool"),
    ],
    ids=["zero-probability-text", "zero-probability-json", "other-step", "decision", "unknown"],
)
def test_impossible_outcomes_are_refused_naming_the_field(
    served: Served, fields: dict[str, Any], field: str, path: str, reason: str, fragment: str
) -> None:
    raw = _empty_bag_draw()
    error = _refused(lambda: _apply(served, game=RAIDERS, state_json=raw, **fields))
    assert error.code() == Code.INVALID_ARGUMENT
    assert error.details().startswith(f"{field} {path}") and fragment in error.details()
    info, violations = error_details(error)
    assert (info.reason, info.metadata["field"], info.metadata["json_path"]) == (
        reason, field, path,
    )
    assert [f for f, _ in violations] == [field + path.removeprefix("$")]


@pytest.mark.parametrize(
    ("fields", "field", "path", "reason", "fragment"),
    [
        ({"order": "repeat"}, "move_json", "$.order", "INVALID_MOVE", "not a permutation"),
        ({"order": "short"}, "move_json", "$.order", "ILLEGAL_MOVE", "the shuffle orders"),
        ({"notation": "mulligan:no"}, "notation", "$", "ILLEGAL_MOVE", "is not legal here"),
        ({"notation": "shuffle:1,0"}, "notation", "$.order", "ILLEGAL_MOVE", "the shuffle orders"),
    ],
    ids=["not-a-permutation", "wrong-length", "decision", "wrong-length-text"],
)
def test_bad_shuffles_are_refused_naming_the_field(
    served: Served, fields: dict[str, Any], field: str, path: str, reason: str, fragment: str
) -> None:
    raw, state = _leda_shuffle(served)
    n = shuffle_size(state)
    orders = {"repeat": [0] * n, "short": list(range(n - 1))}
    if "order" in fields:
        fields = {"move_json": orjson.dumps({"type": "shuffle", "order": orders[fields["order"]]})}
    error = _refused(lambda: _apply(served, game="leda", state_json=raw, **fields))
    assert error.code() == Code.INVALID_ARGUMENT
    assert error.details().startswith(f"{field} {path}") and fragment in error.details()
    # The outcomes cannot be listed: the message says what one looks like.
    assert f"an outcome of this chance step is a shuffle of {n} cards" in error.details()
    info, _ = error_details(error)
    assert (info.reason, info.metadata["field"], info.metadata["json_path"]) == (
        reason, field, path,
    )


def test_legal_moves_seat_at_chance_and_decision_states(served: Served) -> None:
    chance = _manual_raiders(served, seed=3).state_json
    for seat in (0, 1):
        error = _refused(lambda s=seat: _listed(served, RAIDERS, chance, s))
        assert error.code() == Code.FAILED_PRECONDITION
        assert error.details().startswith(f"seat {seat} is not to move: the state is at a chance")
        info, violations = error_details(error)
        assert (info.reason, info.metadata["field"]) == ("NOT_SEAT_TO_MOVE", "seat")
        assert [subject for subject, _ in violations] == ["seat"]
    for seat in (2, -2):
        error = _refused(lambda s=seat: _listed(served, RAIDERS, chance, s))
        assert error.code() == Code.INVALID_ARGUMENT
        assert error.details().startswith("seat: must be in 0..1")
        assert error_details(error)[0].reason == "INVALID_SEAT"
    game = load(RAIDERS)
    decision = game_ops.encode_state(game, decision_state(game, {"players": 2}, seed=3))
    error = _refused(lambda: _listed(served, RAIDERS, decision, CHANCE))
    assert error.code() == Code.INVALID_ARGUMENT
    assert "-1 only at a chance step" in error.details()
    assert error_details(error)[0].metadata["field"] == "seat"
    over = game_ops.encode_state(game, terminal_state(game, {"players": 2}, seed=3))
    error = _refused(lambda: _listed(served, RAIDERS, over, 0))
    assert error.code() == Code.FAILED_PRECONDITION and "game is over" in error.details()


def test_apply_move_keeps_its_refusals_at_decisions_and_ends(served: Served) -> None:
    game = load(RAIDERS)
    decision = game_ops.encode_state(game, decision_state(game, {"players": 2}, seed=4))
    error = _refused(lambda: _apply(served, game=RAIDERS, state_json=decision, manual_chance=True))
    assert error.code() == Code.INVALID_ARGUMENT
    assert error_details(error)[0].reason == "MISSING_FIELD"
    assert error.details().startswith("move: give either move_json or notation")
    over = game_ops.encode_state(game, terminal_state(game, {"players": 2}, seed=4))
    error = _refused(lambda: _apply(served, game=RAIDERS, state_json=over))
    assert error.code() == Code.FAILED_PRECONDITION
    assert error_details(error)[0].reason == "GAME_OVER"


@pytest.mark.parametrize("rpc", ["ChooseMove", "Analyze"])
def test_searches_still_refuse_a_chance_step(served: Served, rpc: str) -> None:
    raw = _manual_raiders(served, seed=3).state_json
    for seat, code, reason in ((0, Code.FAILED_PRECONDITION, "CHANCE_STEP"),
                               (CHANCE, Code.INVALID_ARGUMENT, "INVALID_SEAT")):
        fields = dict(game=RAIDERS, state_json=raw, seat=seat,
                      settings=pb.SearchSettings(iterations=10))
        call = (
            (lambda f=fields: served.stub.ChooseMove(pb.ChooseMoveRequest(**f), timeout=30))
            if rpc == "ChooseMove"
            else (lambda f=fields: served.stub.Analyze(pb.AnalyzeRequest(**f), timeout=30))
        )
        error = _refused(call)
        assert error.code() == code
        assert error_details(error)[0].reason == reason
