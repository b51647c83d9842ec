"""The game review engine: judgements, the played move's value, the stream of reviews."""

from __future__ import annotations

import dataclasses
import itertools

import orjson
import pytest

from boardbot.engine import get_game
from boardbot.engine.record import record_from_json, replay
from boardbot.jobs import game_ops, review
from boardbot.jobs.failures import FailureKind, RequestError
from boardbot.jobs.review_job import (
    MIN_PLAYED_VISITS,
    PLAYED_BEST,
    PLAYED_NEXT_DECISION,
    PLAYED_POOLED,
    PLAYED_VISITS,
    PositionJob,
    run_position_job,
)
from boardbot.jobs.review_judgement import (
    BEST,
    BLUNDER,
    FORCED,
    GOOD,
    INACCURACY,
    JUDGEMENTS,
    MISTAKE,
    JudgedMove,
    Thresholds,
    judge,
    move_accuracy,
    summarise,
)
from boardbot.jobs.settings import Limits
from boardbot.search.api import SearchConfig
from boardbot.search.engines import Engine
from tests.service.records import random_record, record_bytes

QUICK = SearchConfig(iterations=60, time_ms=None, rollout="heuristic", cutoff_depth=12)


def _settings(engine: Engine = Engine.AUTO, config: SearchConfig = QUICK) -> review.ReviewSettings:
    return review.ReviewSettings(config=config, seed=5, top_k=3, engine=engine)


def _review(raw: bytes, seats: tuple[int, ...] = (), engine: Engine = Engine.AUTO) -> list:
    plan = review.plan_review(raw, list(seats))
    return list(review.review(plan, _settings(engine), run_position_job))


def test_judgement_classes_follow_the_thresholds() -> None:
    limits = Thresholds(inaccuracy=0.05, mistake=0.1, blunder=0.2)
    assert judge(0.3, False, True, limits) == FORCED
    assert judge(0.0, True, False, limits) == BEST
    assert judge(0.049, False, False, limits) == GOOD
    assert judge(0.05, False, False, limits) == INACCURACY
    assert judge(0.1, False, False, limits) == MISTAKE
    assert judge(0.2, False, False, limits) == BLUNDER


def test_accuracy_falls_with_the_loss() -> None:
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.1) == pytest.approx(64.0, abs=1.0)
    assert move_accuracy(1.0) == 0.0
    assert move_accuracy(0.02) > move_accuracy(0.05) > move_accuracy(0.2)


def test_the_summary_counts_forced_moves_but_averages_the_others() -> None:
    moves = [
        JudgedMove(0, 0.0, FORCED),
        JudgedMove(0, 0.2, BLUNDER),
        JudgedMove(0, 0.0, BEST),
        JudgedMove(1, 0.06, INACCURACY),
    ]
    first, second, third = summarise([0, 1, 2], moves)
    assert (first.moves, first.blunders, first.mistakes) == (3, 1, 0)
    assert first.average_loss == pytest.approx(0.1)
    assert first.accuracy == pytest.approx((move_accuracy(0.2) + 100.0) / 2, abs=0.01)
    assert (second.moves, second.inaccuracies) == (1, 1)
    assert (third.moves, third.average_loss, third.accuracy) == (0, 0.0, 100.0)


def test_a_finished_game_is_reviewed_decision_by_decision() -> None:
    record = random_record("legend_raiders", seed=3)
    items = _review(record_bytes(record))
    *positions, summary = items
    decisions = [i for i, m in enumerate(record["moves"]) if m["seat"] >= 0]
    assert [p.index for p in positions] == decisions
    assert isinstance(summary, review.ReviewSummary)
    assert [s.seat for s in summary.seats] == [0, 1]
    for position in positions:
        assert position.seat == record["moves"][position.index]["seat"]
        assert position.judgement in JUDGEMENTS
        assert position.loss == pytest.approx(max(0.0, position.best_value - position.played_value))
        assert orjson.loads(position.played.move_json) == record["moves"][position.index]["move"]
        assert len(position.values_before) == len(position.values_after) == 2
    # Each decision's values after are the next decision's values before; the last's are
    # the game's returns.
    for earlier, later in itertools.pairwise(positions):
        assert earlier.values_after == later.values_before
    assert list(positions[-1].values_after) == record["result"]["returns"]
    forced = [p for p in positions if p.judgement == FORCED]
    assert forced, "a random Legend Raiders game has forced moves"
    for position in forced:
        assert position.loss == 0.0 and position.best == position.played
        assert position.values_before == position.values_after
    for seat in summary.seats:
        own = [p for p in positions if p.seat == seat.seat]
        assert seat.moves == len(own)
        assert seat.blunders == sum(p.judgement == BLUNDER for p in own)


def test_a_searched_position_reports_every_seats_value_from_its_search() -> None:
    record = random_record("legend_raiders", seed=6, decisions=6)
    plan = review.plan_review(record_bytes(record), [])
    game = get_game("legend_raiders")
    decision = next(d for d in plan.decisions if len(game.legal_actions(d.state)) > 1)
    search = run_position_job(review.position_job(plan, decision, decision.state, _settings()))
    assert not search.forced
    assert search.seat_values[decision.seat] == pytest.approx(search.best_value)
    assert search.best == search.candidates[0]


def test_seats_not_reviewed_are_streamed_but_not_judged() -> None:
    record = random_record("legend_raiders", seed=4, decisions=14)
    *positions, summary = _review(record_bytes(record), seats=(1,))
    assert [s.seat for s in summary.seats] == [1]
    assert {p.seat for p in positions} == {0, 1}
    for position in positions:
        if position.seat == 0:
            assert (position.judgement, position.loss, position.played_value) == ("", 0.0, 0.0)
        else:
            assert position.judgement in JUDGEMENTS


def test_an_unfinished_game_ends_with_the_values_of_its_last_position() -> None:
    record = random_record("legend_raiders", seed=4, decisions=5)
    assert "result" not in record or record["result"] is None
    *positions, _ = _review(record_bytes(record))
    assert len(positions) == 5
    assert len(positions[-1].values_after) == 2
    assert all(0.0 <= v <= 1.0 for v in positions[-1].values_after)


def test_a_record_that_stops_at_a_chance_step_has_no_values_after_its_last_move() -> None:
    for seed in range(20):
        record = random_record("legend_raiders", seed=seed, decisions=3, settle=False)
        if record["moves"][-1]["seat"] >= 0:
            break
    *positions, _ = _review(record_bytes(record))
    assert positions[-1].values_after == ()
    assert len(positions[0].values_after) == 2


def _unlikely_move_job(budget: int) -> tuple[PositionJob, int]:
    """A position and, as the move played, the move a search of `budget` iterations visited
    least; with that search's visits of it."""
    record = random_record("legend_raiders", seed=8, decisions=30)
    plan = review.plan_review(record_bytes(record), [])
    game = get_game("legend_raiders")
    settings = _settings(config=QUICK.replace(iterations=budget))
    for decision in plan.decisions:
        if len(game.legal_actions(decision.state)) < 4:
            continue
        job = review.position_job(plan, decision, decision.state, settings)
        probe = run_position_job(job)
        least = min(probe.candidates, key=lambda m: m.visits)
        if least.move_json != probe.best.move_json:
            return dataclasses.replace(job, played_json=least.move_json, top_k=0), least.visits
    raise AssertionError("no position with four moves")


def test_a_played_move_with_few_visits_is_measured_by_a_second_search() -> None:
    job, visits = _unlikely_move_job(40)
    assert visits < MIN_PLAYED_VISITS
    search = run_position_job(job)
    assert search.played_source in (PLAYED_NEXT_DECISION, PLAYED_POOLED)
    assert search.iterations > job.config.iterations  # two searches
    assert 0.0 <= search.played_value <= 1.0


def test_a_played_move_the_search_visited_enough_keeps_its_mean() -> None:
    job, _ = _unlikely_move_job(4000)
    search = run_position_job(job)
    assert search.played.visits >= MIN_PLAYED_VISITS
    assert search.played_source == PLAYED_VISITS
    assert search.played_value == search.played.value
    best = run_position_job(dataclasses.replace(job, played_json=search.best.move_json))
    assert best.played_source == PLAYED_BEST and best.played_value == best.best_value


def test_the_python_engine_reviews_a_record_as_well() -> None:
    record = random_record("legend_raiders", seed=4, decisions=4)
    *positions, summary = _review(record_bytes(record), engine=Engine.PYTHON)
    assert len(positions) == 4 and len(summary.seats) == 2
    for position in positions:
        assert position.judgement in JUDGEMENTS


def _refusal(raw: bytes, seats: tuple[int, ...] = ()) -> RequestError:
    with pytest.raises(RequestError) as caught:
        review.plan_review(raw, list(seats))
    return caught.value


def test_a_bad_record_is_refused_at_its_json_path() -> None:
    error = _refusal(b"{not json")
    assert (error.kind, error.reason, error.field) == (
        FailureKind.INVALID_ARGUMENT, "MALFORMED_JSON", "record_json"
    )
    record = random_record("legend_raiders", seed=4, decisions=6)
    decisions = [i for i, m in enumerate(record["moves"]) if m["seat"] >= 0]
    record["moves"][decisions[2]]["seat"] = 1 - record["moves"][decisions[2]]["seat"]
    error = _refusal(record_bytes(record))
    assert error.reason == "INVALID_RECORD" and error.field == "record_json"
    assert error.json_path.startswith(f"$.moves[{decisions[2]}]")
    assert error.violation_field().startswith(f"record_json.moves[{decisions[2]}]")
    error = _refusal(record_bytes({"format": "boardbot-record"}))
    assert error.reason == "INVALID_RECORD"
    error = _refusal(record_bytes({**record, "game": "chess"}))
    assert (error.reason, error.violation_field()) == ("INVALID_RECORD", "record_json.game")
    assert "unknown game 'chess'" in error.message


def test_seats_and_the_number_of_decisions_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = record_bytes(random_record("legend_raiders", seed=4, decisions=6))
    error = _refusal(raw, seats=(2,))
    assert (error.reason, error.field) == ("INVALID_SEAT", "seats")
    monkeypatch.setattr(review, "MAX_REVIEW_DECISIONS", 5)
    error = _refusal(raw)
    assert (error.reason, error.json_path) == ("FIELD_TOO_LARGE", "$.moves")


def test_a_position_budget_above_the_cap_is_refused() -> None:
    with pytest.raises(RequestError) as caught:
        review.review_config("", {"time_ms": 20_000.0}, Limits(), "leda", Engine.AUTO)
    assert caught.value.field == "settings.time_ms"
    config = review.review_config("", {}, Limits(max_time_ms=60_000), "leda", Engine.AUTO)
    assert config.time_ms is not None and config.time_ms <= 10_000


def test_the_replayed_positions_are_the_ones_reviewed() -> None:
    record = random_record("leda", seed=2, decisions=8)
    game = get_game("leda")
    plan = review.plan_review(record_bytes(record), [])
    positions = replay(game, record_from_json(record))
    expected = [p for p in positions if p.move is not None and p.move.seat >= 0]
    assert [d.index for d in plan.decisions] == [p.index for p in expected]
    for decision, position in zip(plan.decisions, expected, strict=True):
        assert game_ops.encode_state(game, decision.state) == game_ops.encode_state(
            game, position.state
        )
