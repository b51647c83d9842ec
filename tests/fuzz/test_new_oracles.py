"""The oracles of the newer case families: raw bytes, requests without the token, deep JSON,
error details, the watchdog, chance outcomes and views; the rule invariants; the twins."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from fuzz.grpc_cases import GrpcCase, GrpcCaseFactory, Target, invalid_utf8, parses
from fuzz.grpc_client import Answer, judge
from fuzz.grpc_server import ServerSettings
from fuzz.invariants import legend_raiders_end
from fuzz.mutators import apply_all, end_mutations, move_items, shrink_piles
from fuzz.seeds import Seed, all_seeds
from fuzz.twin import Disagreement, PythonEngine, Refused, cross_check, native_engine


@pytest.fixture(scope="module")
def tiny_seeds() -> list[Seed]:
    """One playout per setup, with views (no corpus)."""
    return all_seeds(1, games_per_setup=1, corpus=None)


def _answer(status: str, reason: str = "", message: str = "", method: str = "ChooseMove",
            token: bool = True, metadata: dict[str, str] | None = None, **case: Any) -> Answer:
    fields = case.pop("fields", {"game": "leda"})
    c = GrpcCase(0, method, fields, None, 5.0, "leda", **case)
    return Answer(c, 1000.0, 0.01, status, message, 0, reason=reason, error_metadata=metadata,
                  token_required=token)


def _kind(answer: Answer, reply: Any = None) -> str | None:
    failure = judge(answer, reply)
    return failure.kind if failure else None


@pytest.mark.parametrize(
    ("status", "reason", "kind"),
    [
        ("INTERNAL", "", "status-INTERNAL"),  # "Exception deserializing request!"
        ("INVALID_ARGUMENT", "MALFORMED_REQUEST", None),
        ("INVALID_ARGUMENT", "INVALID_STATE", "malformed-answer"),
        ("INVALID_ARGUMENT", "", "no-details"),
        ("DEADLINE_EXCEEDED", "", None),
    ],
)
def test_bytes_that_are_no_message_must_be_malformed_request(
    status: str, reason: str, kind: str | None
) -> None:
    answer = _answer(status, reason, "Exception deserializing request!", raw=b"\x0f\x01",
                     expect="malformed")
    assert _kind(answer) == kind


def test_a_call_without_the_token_must_be_refused() -> None:
    assert _kind(_answer("UNAUTHENTICATED", "MISSING_TOKEN", tokenless=True)) is None
    served = _answer("INVALID_ARGUMENT", "INVALID_STATE", tokenless=True)
    assert _kind(served) == "tokenless-served"
    # With a token, UNAUTHENTICATED is a failure; a server without a token ignores the flag.
    assert _kind(_answer("UNAUTHENTICATED", "WRONG_TOKEN")) == "status-UNAUTHENTICATED"
    assert _kind(_answer("NOT_FOUND", "UNKNOWN_GAME", tokenless=True, token=False)) is None


def test_errors_without_details_and_watchdog_kills_are_failures() -> None:
    assert _kind(_answer("FAILED_PRECONDITION", "")) == "no-details"
    assert _kind(_answer("UNAVAILABLE", "", "Cancelling all calls")) == "unavailable"
    killed = _answer("DEADLINE_EXCEEDED", "DEADLINE_EXCEEDED",
                     "no answer by the deadline plus 1 s: the worker was stopped and replaced")
    assert _kind(killed) == "worker-killed"


def test_deep_json_must_be_refused_with_a_json_path() -> None:
    where = {"field": "state_json", "json_path": "$.players[0]" + "[0]" * 50}
    assert _kind(_answer("INVALID_ARGUMENT", "INVALID_STATE", "state_json $...: too deep",
                         metadata=where, expect="json-path")) is None
    pathless = _answer("INVALID_ARGUMENT", "MALFORMED_JSON", "state_json: recursion limit",
                       metadata={"field": "state_json"}, expect="json-path")
    assert _kind(pathless) == "nesting-no-path"
    assert _kind(_answer("INTERNAL", "", "RecursionError", expect="json-path")) == \
        "status-INTERNAL"
    assert _kind(_answer("OK", expect="json-path"), pb.ChooseMoveResponse(
        move=pb.Move(notation="x"))) == "nesting-accepted"
    # Another field at fault (the nesting made options_json too large) says nothing of it.
    other = _answer("INVALID_ARGUMENT", "FIELD_TOO_LARGE", "options_json: 20000 bytes",
                    metadata={"field": "options_json"}, expect="json-path")
    assert _kind(other) is None


def test_views_chance_events_and_candidates_are_checked() -> None:
    from boardbot.engine import get_game

    game = get_game("leda")
    state = game.new_state({"clans": ["cats", "sharks"]}, 1)
    import orjson

    view = orjson.dumps(game.state_to_json(state, 1))
    ok = _answer("OK", method="ViewState", fields={"game": "leda", "seat": 1})
    assert _kind(ok, pb.ViewStateResponse(state_json=view)) is None
    wrong = _answer("OK", method="ViewState", fields={"game": "leda", "seat": 0})
    assert _kind(wrong, pb.ViewStateResponse(state_json=view)) == "bad-response"
    full = orjson.dumps(game.state_to_json(state))
    manual = _answer("OK", method="NewGame", fields={"game": "leda", "manual_chance": True})
    resolved = pb.NewGameResponse(state_json=full, chance_events=["shuffle:0,1"])
    assert _kind(manual, resolved) == "bad-response"
    # ApplyMove at a chance step without an outcome draws that one outcome itself.
    drawn = _answer("OK", method="ApplyMove", fields={"game": "leda", "manual_chance": True})
    assert _kind(drawn, pb.ApplyMoveResponse(state_json=full, chance_events=["x"])) is None
    assert _kind(drawn, pb.ApplyMoveResponse(state_json=full, chance_events=["x", "y"])) == \
        "bad-response"
    many = pb.ChooseMoveResponse(move=pb.Move(notation="x"),
                                 candidates=[pb.MoveAnalysis()] * 3)
    assert _kind(_answer("OK", fields={"game": "leda", "top_k": 2}), many) == "bad-response"
    assert _kind(_answer("OK", fields={"game": "leda", "top_k": 3}), many) is None


def test_invalid_utf8_in_a_string_field_does_not_parse() -> None:
    case = GrpcCase(0, "ChooseMove", {"game": "leda", "preset": "easy"}, None, None)
    data = case.message().SerializeToString()
    assert parses("ChooseMove", data)
    for n in range(20):
        spoiled = invalid_utf8(random.Random(n), case, data)
        assert len(spoiled) == len(data) or spoiled.startswith(data)
        assert not parses("ChooseMove", spoiled)


def test_the_new_families_are_made(tiny_seeds: list[Seed]) -> None:
    factory = GrpcCaseFactory(1, tiny_seeds, Target(256 * 1024, 2000.0))
    cases = [factory.case(i) for i in range(1500)]
    raw = [c for c in cases if c.raw is not None]
    assert raw and all(
        (c.expect == "malformed") == (not parses(c.method, c.raw or b"")) for c in raw
    )
    assert any(c.expect == "malformed" for c in raw)
    assert any(c.tokenless for c in cases)
    nested = [c for c in cases if c.expect == "json-path"]
    assert nested and all(
        (c.state is not None and c.state.raw is not None) or "options_json" in c.fields
        for c in nested
    )
    methods = {c.method for c in cases}
    assert "ViewState" in methods
    assert any("target_elo" in c.fields.get("analysis", c.fields) for c in cases)
    assert any(c.fields.get("manual_chance") for c in cases)
    assert any(c.method == "ChooseMove" and "top_k" in c.fields for c in cases)
    assert any(c.method == "LegalMoves" and c.fields.get("seat") == -1 for c in cases)


def test_server_settings_carry_the_token_and_read_old_repros() -> None:
    flags = ServerSettings(extra=("--grace", "2")).flags()
    assert flags[-4:] == ["--token", "fuzz-token", "--grace", "2"]
    assert "--token" not in ServerSettings(token="").flags()
    old = ServerSettings.from_json({"workers": 2, "queue": 4, "max_time_ms": 2000.0,
                                    "max_message_bytes": 1024})
    assert old.token == "" and old.extra == ()
    new = ServerSettings()
    assert ServerSettings.from_json(new.to_json()) == new


# -- rule invariants --------------------------------------------------------------------------


def _raiders(end: bool, completed: int, prepared: int, stack: int, hq: int) -> dict[str, Any]:
    player = {"completed": ["t"] * completed, "prepared": ["t"] * prepared}
    return {"end_triggered": end, "players": [player, {"completed": [], "prepared": []}],
            "stack": ["t"] * stack, "hq": [{"tile": "t"}] * hq + [{"tile": None}] * (4 - hq)}


def test_the_end_may_not_come_while_a_sixth_discovery_is_reachable() -> None:
    # The legacy state: the supply is exhausted, yet 3 completed + 3 prepared reach 6.
    assert "seat 0 can still complete" in legend_raiders_end(_raiders(True, 3, 3, 0, 0), False)
    assert legend_raiders_end(_raiders(False, 3, 3, 0, 0), True)  # over, by whatever means
    assert legend_raiders_end(_raiders(True, 3, 2, 0, 0), False) == ""  # out of reach
    assert legend_raiders_end(_raiders(True, 6, 0, 9, 4), True) == ""  # a 6th discovery
    assert legend_raiders_end(_raiders(False, 3, 3, 0, 0), False) == ""  # not ending
    view = _raiders(True, 2, 0, 0, 1)
    view["stack"] = {"count": 3, "known": []}
    assert legend_raiders_end(view, False)


# -- the twins --------------------------------------------------------------------------------


class FakeEngine:
    """An engine at a shuffle of `size` items, writing `shuffle:` orders; it may refuse the
    empty order or misread notation."""

    def __init__(self, name: str, size: int, refuse_empty: bool = False,
                 apply_empty: bool = True) -> None:
        self.name, self.size = name, size
        self.refuse_empty, self.apply_empty = refuse_empty, apply_empty

    def decode(self, doc: Any) -> Any:
        return doc

    def encode(self, state: Any) -> Any:
        return state

    def current_player(self, state: Any) -> int:
        return -1

    def legal(self, state: Any) -> list[Any]:
        return []

    def outcomes(self, state: Any, rng: random.Random, samples: int) -> list[Any]:
        return [(9, tuple(range(self.size)))]

    def to_str(self, state: Any, action: Any) -> str:
        return "shuffle:" + ",".join(map(str, action[1]))

    def to_json(self, state: Any, action: Any) -> Any:
        return {"type": "shuffle", "order": list(action[1])}

    def from_str(self, state: Any, text: str) -> Any:
        body = text.removeprefix("shuffle:")
        if not body and self.refuse_empty:
            raise Refused(f"$: bad shuffle order {text!r}")
        return (9, tuple(int(x) for x in body.split(",") if x))

    def from_json(self, state: Any, doc: Any) -> Any:
        return (9, tuple(doc["order"]))

    def apply(self, state: Any, action: Any) -> Any:
        if not action[1] and not self.apply_empty:
            raise Refused("$: no shuffle of nothing")
        return {"after": list(action[1])}


def _check(a: FakeEngine, b: FakeEngine) -> Disagreement | None:
    return cross_check((a, b), {"x": 1}, random.Random(1))


def test_twins_that_agree_pass() -> None:
    assert _check(FakeEngine("python", 3), FakeEngine("native", 3)) is None


def test_an_outcome_one_engine_cannot_read_back_is_a_disagreement() -> None:
    # Python writes `shuffle:` for the empty order and cannot parse it back itself.
    found = _check(FakeEngine("python", 0, refuse_empty=True), FakeEngine("native", 0))
    assert found is not None and found.kind == "twin-parse"
    assert found.key == "python reads python's notation"


def test_an_outcome_one_engine_refuses_to_apply_is_a_disagreement() -> None:
    found = _check(FakeEngine("python", 0), FakeEngine("native", 0, apply_empty=False))
    assert found is not None and found.kind == "twin-apply"
    assert found.key == "native applies python's"


def test_engines_that_apply_an_outcome_differently_reach_other_states() -> None:
    class Reversing(FakeEngine):
        def apply(self, state: Any, action: Any) -> Any:
            return {"after": list(reversed(action[1]))}

    found = _check(FakeEngine("python", 3), Reversing("native", 3))
    assert found is not None and found.kind == "twin-state"


def test_a_misread_notation_is_a_disagreement() -> None:
    class Misreading(FakeEngine):
        def from_str(self, state: Any, text: str) -> Any:
            return (9, tuple(sorted(super().from_str(state, text)[1], reverse=True)))

    found = _check(FakeEngine("python", 3), Misreading("native", 3))
    assert found is not None and found.key == "native reads python's notation"


def test_one_engine_refusing_the_state_is_a_disagreement() -> None:
    class Refusing(FakeEngine):
        def decode(self, doc: Any) -> Any:
            raise Refused("$.pending: a shuffle orders at least 2 items")

    found = _check(FakeEngine("python", 0), Refusing("native", 0))
    assert found is not None and found.kind == "twin-decode" and found.key == "native refuses"
    assert _check(Refusing("python", 0), Refusing("native", 0)) is None


def test_real_twins_agree_on_chance_steps_and_decisions(tiny_seeds: list[Seed]) -> None:
    from boardbot.engine import CHANCE, get_game

    native = {game: native_engine(game) for game in ("leda", "legend_raiders")}
    if any(engine is None for engine in native.values()):
        pytest.skip("boardbot_native is not built")
    chance = [s for s in tiny_seeds if s.to_move == CHANCE]
    assert {s.game for s in chance} == {"leda", "legend_raiders"}
    for seed in chance + [s for s in tiny_seeds if s.to_move >= 0][:10]:
        engines = (PythonEngine(get_game(seed.game)), native[seed.game])
        found = cross_check(engines, seed.doc, random.Random(1))  # type: ignore[arg-type]
        assert found is None, (seed.label, found)


# -- targeted mutators ------------------------------------------------------------------------


def test_moving_items_keeps_every_card_accounted_for() -> None:
    doc = {"players": [{"deck": [1, 2, 3, 4], "hand": [5]}]}
    moves = move_items(doc, ("players", 0, "deck"), ("players", 0, "hand"), 1)
    after = apply_all(doc, moves)
    assert after["players"][0] == {"deck": [1], "hand": [5, 2, 3, 4]}
    assert move_items(doc, ("players", 0, "deck"), ("nowhere",), 0) == []


def test_targeted_edits_reach_chance_piles_and_the_end_trigger(tiny_seeds: list[Seed]) -> None:
    leda = next(s for s in tiny_seeds if s.game == "leda" and s.to_move == -1)
    rng = random.Random(3)
    shrunk = [apply_all(leda.doc, shrink_piles(rng, leda.doc, "leda")) for _ in range(30)]
    assert any(len(d["players"][0]["deck"]) <= 1 or len(d["players"][1]["deck"]) <= 1
               or len(d["action_pile"]) <= 1 for d in shrunk)
    raiders = next(s for s in tiny_seeds if s.game == "legend_raiders" and "/view" not in s.label)
    flipped = apply_all(raiders.doc, end_mutations(random.Random(1), raiders.doc,
                                                   "legend_raiders"))
    assert flipped["end_triggered"] is not raiders.doc["end_triggered"]
    assert end_mutations(rng, leda.doc, "leda") == []
