"""The strength knob: calibration tables, their loader, the Elo mapping and `elo=N` bots."""

from __future__ import annotations

import math
import random
from pathlib import Path

import orjson
import pytest

from boardbot.engine import get_game
from boardbot.jobs import game_ops
from boardbot.search.bots import EloBot, UnknownBotError, make_bot, parse_elo
from boardbot.search.presets import resolve_preset
from boardbot.search.strength.errors import (
    CalibrationFileError,
    EloOutOfRangeError,
    NotCalibratedError,
)
from boardbot.search.strength.loader import (
    DIR_VARIABLE,
    calibration_dir,
    calibration_engine,
    calibrations_for,
    load_calibration,
    read_table,
)
from boardbot.search.strength.mapping import knob_config, random_move, strength_for
from boardbot.search.strength.table import (
    Calibration,
    CalibrationPoint,
    table_from_json,
    table_to_json,
)
from boardbot.tools.strength_calibration import (
    StrengthCalibrationError,
    calibration_source,
    calibrations_from_ratings,
    check_meta,
    ladder_meta,
    read_ratings,
)
from tests.search.strength_tables import (
    MIXTURE_RATINGS,
    RATINGS,
    serve_table,
    write_ratings,
    write_table,
)

GAME = "legend_raiders"


@pytest.fixture
def table_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A calibration folder with a two-player Legend Raiders table, read through the variable."""
    return serve_table(tmp_path, monkeypatch, GAME)


def _calibration(table_dir: Path, engine: str = "python") -> Calibration:
    return load_calibration(GAME, 2, engine, table_dir)


# -- the mapping ---------------------------------------------------------------------------


def test_calibrated_points_are_hit_exactly(table_dir: Path) -> None:
    calibration = _calibration(table_dir)
    assert (calibration.low, calibration.high) == (0.0, 650.0)
    for elo, iterations in ((300.0, 10), (500.0, 40), (650.0, 160)):
        strength = strength_for(calibration, elo)
        assert (strength.iterations, strength.random_share) == (iterations, 0.0)


def test_budgets_are_interpolated_geometrically(table_dir: Path) -> None:
    calibration = _calibration(table_dir)
    assert strength_for(calibration, 400.0).iterations == 20  # halfway from 10 to 40
    assert strength_for(calibration, 575.0).iterations == 80  # halfway from 40 to 160
    quarter = strength_for(calibration, 350.0).iterations
    assert quarter == round(10 * 4**0.25)


def test_below_the_weakest_search_point_random_moves_are_mixed_in(table_dir: Path) -> None:
    calibration = _calibration(table_dir)
    assert strength_for(calibration, 0.0).random_share == 1.0
    half = strength_for(calibration, 150.0)
    assert (half.iterations, half.random_share) == (10, 0.5)
    assert strength_for(calibration, 225.0).random_share == pytest.approx(0.25)


def test_without_mixture_points_the_share_is_the_straight_line(table_dir: Path) -> None:
    calibration = _calibration(table_dir)
    assert calibration.mixture_points() == ()
    low, weakest = calibration.low, calibration.search_points()[0]
    for step in range(0, 3001):
        target = step / 10  # 0.0, 0.1, ..., 300.0
        strength = strength_for(calibration, target)
        if target < weakest.elo:  # the formula of the knob's first tables, bit for bit
            expected = min(1.0, (weakest.elo - target) / (weakest.elo - low))
            assert (strength.iterations, strength.random_share) == (10, expected), target
        else:
            assert (strength.iterations, strength.random_share) == (10, 0.0)


def _mixture_table(*mixtures: CalibrationPoint) -> Calibration:
    """random 0, the mixtures, medium@10 at 300 and medium@40 at 500 (hand-made numbers)."""
    return Calibration(GAME, 2, "python", (
        CalibrationPoint("random", 0.0, None),
        *mixtures,
        CalibrationPoint("medium@10", 300.0, 10),
        CalibrationPoint("medium@40", 500.0, 40),
    ))


HALF = CalibrationPoint("medium@10+random=0.5", 200.0, 10, 0.5)
QUARTER = CalibrationPoint("medium@10+random=0.25", 260.0, 10, 0.25)


def test_mixture_points_set_the_share_between_them() -> None:
    calibration = _mixture_table(HALF, QUARTER)
    assert calibration.search_points() == calibration.points[3:]
    assert calibration.mixture_points() == (HALF, QUARTER)
    expected = {
        0.0: 1.0,
        100.0: 0.75,  # random (0, 1) to HALF (200, 0.5)
        200.0: 0.5,  # HALF exactly
        230.0: 0.375,  # HALF to QUARTER (260, 0.25)
        260.0: 0.25,
        280.0: 0.125,  # QUARTER to medium@10 (300, 0)
        300.0: 0.0,
    }
    for target, share in expected.items():
        strength = strength_for(calibration, target)
        assert (strength.iterations, strength.random_share) == (10, share), target
    assert strength_for(calibration, 400.0).iterations == 20  # the budgets are as before
    assert strength_for(calibration, 50.0).random_share == pytest.approx(0.875)
    shares = [strength_for(calibration, t).random_share for t in range(0, 301, 5)]
    assert shares == sorted(shares, reverse=True)
    one = _mixture_table(CalibrationPoint("medium@10+random=0.4", 150.0, 10, 0.4))
    assert strength_for(one, 75.0).random_share == pytest.approx(0.7)
    assert strength_for(one, 225.0).random_share == pytest.approx(0.2)


def test_the_mapping_is_monotone_in_the_target(table_dir: Path) -> None:
    calibration = _calibration(table_dir)
    settings = [strength_for(calibration, t) for t in range(0, 651, 5)]
    shares = [s.random_share for s in settings]
    budgets = [s.iterations for s in settings]
    assert shares == sorted(shares, reverse=True)
    assert budgets == sorted(budgets)


@pytest.mark.parametrize("target", [-0.5, 650.5, math.nan, math.inf, -math.inf])
def test_targets_outside_the_range_are_refused(table_dir: Path, target: float) -> None:
    with pytest.raises(EloOutOfRangeError, match=r"\[0, 650\]"):
        strength_for(_calibration(table_dir), target)


def test_the_config_is_the_family_preset_with_the_budget(table_dir: Path) -> None:
    calibration = _calibration(table_dir, "python")
    config = knob_config(calibration, strength_for(calibration, 400.0))
    assert config == resolve_preset("medium", GAME, "python").replace(iterations=20)


def test_a_random_move_is_legal_and_seeded() -> None:
    game = get_game(GAME)
    state, _ = game_ops.resolve_chance(game, game.new_state({"players": 2}, 3), random.Random(3))
    seat = game.current_player(state)
    first = random_move(game, state, seat, random.Random(9))
    assert first in game.legal_actions(state)
    assert random_move(game, state, seat, random.Random(9)) == first


# -- tables and the loader ------------------------------------------------------------------


def test_no_file_means_not_calibrated(tmp_path: Path) -> None:
    assert read_table(GAME, 3, tmp_path) == {}
    with pytest.raises(NotCalibratedError, match="legend_raiders with 3 players"):
        load_calibration(GAME, 3, "python", tmp_path)


def test_a_missing_engine_means_not_calibrated(tmp_path: Path) -> None:
    write_table(tmp_path, GAME, 2, engines=("python",))
    assert load_calibration(GAME, 2, "python", tmp_path).engine == "python"
    with pytest.raises(NotCalibratedError, match="native engine"):
        load_calibration(GAME, 2, "native", tmp_path)


def test_the_loader_picks_the_engine_searches_run_on(table_dir: Path) -> None:
    assert calibration_engine(GAME, "python") == "python"
    assert load_calibration(GAME, 2, "python").engine == "python"  # via the variable
    assert set(calibrations_for(GAME, range(2, 5), "python")) == {2}


def test_the_default_folder_ships_no_invented_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DIR_VARIABLE, raising=False)
    folder = Path(__import__("boardbot.search.strength", fromlist=["x"]).__file__).parent
    for path in folder.glob("*.json"):
        doc = orjson.loads(path.read_bytes())
        for entry in doc["engines"].values():
            assert "synthetic" not in str(entry["source"]), path


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{", "malformed JSON"),
        (b'{"format": 9}', "format 1"),
        (b'{"format": 1, "game": "leda", "players": 2, "engines": {}}', "not 'legend_raiders'"),
        (b'{"format": 1, "game": "legend_raiders", "players": 2, "engines": {"gpu": {}}}',
         "keyed by"),
    ],
)
def test_malformed_files_are_refused(tmp_path: Path, content: bytes, message: str) -> None:
    (tmp_path / "legend_raiders-2p.json").write_bytes(content)
    with pytest.raises(CalibrationFileError, match=message):
        read_table(GAME, 2, tmp_path)


def test_a_table_must_grow_in_strength() -> None:
    random_point = CalibrationPoint("random", 0.0, None)
    with pytest.raises(CalibrationFileError, match="rated above"):
        Calibration(GAME, 2, "python", (
            random_point, CalibrationPoint("medium@10", 300.0, 10),
            CalibrationPoint("medium@40", 250.0, 40),
        ))
    with pytest.raises(CalibrationFileError, match="first point"):
        Calibration(GAME, 2, "python", (CalibrationPoint("medium@10", 300.0, 10),) * 2)
    with pytest.raises(CalibrationFileError, match="search points"):
        Calibration(GAME, 2, "python", (random_point,))


@pytest.mark.parametrize(
    ("mixtures", "message"),
    [
        ((CalibrationPoint("medium@40+random=0.5", 200.0, 40, 0.5),),
         r"medium@40\+random=0.5: a mixture point must search with the weakest search point's "
         r"budget \(medium@10: 10 iterations\), got 40"),
        ((QUARTER, CalibrationPoint("medium@10+random=0.5", 280.0, 10, 0.5)),
         r"random shares must fall along the table \(0.5 after 0.25\)"),
        ((HALF, CalibrationPoint("medium@10+random=0.5 again", 250.0, 10, 0.5)),
         r"random shares must fall along the table \(0.5 after 0.5\)"),
        ((CalibrationPoint("medium@10+random=0.25", 150.0, 10, 0.25), HALF),
         "random shares must fall"),
        ((QUARTER, CalibrationPoint("medium@10+random=0.1", 240.0, 10, 0.1)),
         r"random=0.1 \(240\) must be rated above medium@10\+random=0.25 \(260\)"),
        ((CalibrationPoint("medium@10+random=0.5", 320.0, 10, 0.5),),
         r"medium@10 \(300\) must be rated above medium@10\+random=0.5 \(320\)"),
        ((CalibrationPoint("medium@10+random=0.5", -5.0, 10, 0.5),), "must be rated above random"),
        ((CalibrationPoint("medium@10+random=1", 100.0, 10, 1.0),),
         r"random_share must lie in \[0, 1\)"),
        ((CalibrationPoint("medium@10+random=-0.5", 100.0, 10, -0.5),),
         r"random_share must lie in \[0, 1\)"),
        ((CalibrationPoint("medium@10+random=nan", 100.0, 10, math.nan),),
         r"random_share must lie in \[0, 1\)"),
    ],
)
def test_a_table_refuses_misplaced_mixture_points(
    mixtures: tuple[CalibrationPoint, ...], message: str
) -> None:
    with pytest.raises(CalibrationFileError, match=message):
        _mixture_table(*mixtures)


def test_mixture_points_come_before_the_pure_search_points() -> None:
    random_point = CalibrationPoint("random", 0.0, None)
    pure = CalibrationPoint("medium@10", 300.0, 10)
    with pytest.raises(CalibrationFileError, match=r"random=0.5: a mixture point \(random_share "
                       r"0.5\) must come before the search points without random moves"):
        Calibration(GAME, 2, "python", (
            random_point, pure, CalibrationPoint("medium@10+random=0.5", 350.0, 10, 0.5)
        ))
    with pytest.raises(CalibrationFileError, match="at least one search point without random"):
        Calibration(GAME, 2, "python", (random_point, HALF))
    with pytest.raises(CalibrationFileError, match=r"random bot's random_share is 1, got 0\.5"):
        Calibration(GAME, 2, "python", (CalibrationPoint("random", 0.0, None, 0.5), pure))
    # The random bot's share is 1 implicitly; saying so is allowed.
    assert Calibration(GAME, 2, "python", (CalibrationPoint("random", 0.0, None, 1.0), pure))


def test_mixture_points_round_trip_through_the_file_format() -> None:
    table = _mixture_table(HALF, QUARTER)
    doc = table_to_json(GAME, 2, {"python": table})
    points = doc["engines"]["python"]["points"]
    assert points[1] == {"bot": "medium@10+random=0.5", "elo": 200.0, "iterations": 10,
                         "random_share": 0.5}
    assert [("random_share" in p) for p in points] == [False, True, True, False, False]
    assert table_from_json(doc, GAME, 2)["python"] == table
    points[1]["random_share"] = "half"
    with pytest.raises(CalibrationFileError, match=r"points\[1\].random_share: expected a number"):
        table_from_json(doc, GAME, 2)
    points[1]["random_share"] = True
    with pytest.raises(CalibrationFileError, match="expected a number"):
        table_from_json(doc, GAME, 2)


def test_the_shipped_files_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DIR_VARIABLE, raising=False)
    paths = sorted(calibration_dir().glob("*.json"))
    assert paths
    for path in paths:
        doc = orjson.loads(path.read_bytes())
        tables = table_from_json(doc, doc["game"], doc["players"])
        assert table_to_json(doc["game"], doc["players"], tables) == doc, path
        for table in tables.values():
            mixtures = table.mixture_points()
            assert table.points[1 : 1 + len(mixtures)] == mixtures
            assert table.search_points() == table.points[1 + len(mixtures) :]
            assert all(p.random_share == 0.0 for p in table.search_points())


def test_leda_on_the_native_core_has_measured_mixture_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(DIR_VARIABLE, raising=False)
    table = load_calibration("leda", 2, "native")
    shares = [p.random_share for p in table.mixture_points()]
    assert shares == [0.75, 0.5, 0.25]
    assert {p.iterations for p in table.mixture_points()} == {table.search_points()[0].iterations}


# -- the calibration tool -------------------------------------------------------------------


def test_the_tool_keeps_the_family_and_records_the_source(tmp_path: Path) -> None:
    path = write_ratings(tmp_path, RATINGS)
    rated, meta = read_ratings(path)
    source = calibration_source(meta, path, "boardbot ladder --bots ...", "2026-02-03")
    found = calibrations_from_ratings(rated, GAME, 2, "native", source)
    table = found["native"]
    assert [p.bot for p in table.points] == ["random", "medium@10", "medium@40", "medium@160"]
    assert table.source["games"] == 240 and table.source["date"] == "2026-02-03"


def test_suffixed_bots_go_to_their_engine(tmp_path: Path) -> None:
    ratings = {"random": 0.0, "medium@10/python": 100.0, "medium@400/native": 700.0}
    rated, _ = read_ratings(write_ratings(tmp_path, ratings))
    found = calibrations_from_ratings(rated, GAME, 2, None, {})
    assert {k: v.high for k, v in found.items()} == {"python": 100.0, "native": 700.0}


def test_the_tool_refuses_what_the_knob_cannot_use(tmp_path: Path) -> None:
    rated, _ = read_ratings(write_ratings(tmp_path, {"random": 0.0, "medium@10": 300.0}))
    with pytest.raises(StrengthCalibrationError, match="names no engine"):
        calibrations_from_ratings(rated, GAME, 2, None, {})
    rated, _ = read_ratings(write_ratings(tmp_path, {"medium@10": 300.0}))
    with pytest.raises(StrengthCalibrationError, match="exactly once"):
        calibrations_from_ratings(rated, GAME, 2, "python", {})
    bumpy = {"random": 0.0, "medium@10": 300.0, "medium@40": 280.0, "medium@160": 400.0}
    rated, _ = read_ratings(write_ratings(tmp_path, bumpy))
    with pytest.raises(StrengthCalibrationError, match="drop-non-monotone"):
        calibrations_from_ratings(rated, GAME, 2, "python", {})
    kept = calibrations_from_ratings(rated, GAME, 2, "python", {}, drop_non_monotone=True)
    assert [p.bot for p in kept["python"].points] == ["random", "medium@10", "medium@160"]
    assert kept["python"].source["dropped"] == ["medium@40"]
    with pytest.raises(StrengthCalibrationError, match="not 'leda'"):
        check_meta({"game": GAME}, "leda", 2)


def test_the_tool_picks_the_mixture_points(tmp_path: Path) -> None:
    rated, meta = read_ratings(write_ratings(tmp_path, MIXTURE_RATINGS))
    found = calibrations_from_ratings(rated, GAME, 2, "python", {"games": meta["games"]})
    table = found["python"]
    assert [(p.bot, p.elo, p.iterations, p.random_share) for p in table.points] == [
        ("random", 0.0, None, 0.0),
        ("medium@10+random=0.75", 120.0, 10, 0.75),
        ("medium@10+random=0.5", 200.0, 10, 0.5),
        ("medium@10+random=0.25", 260.0, 10, 0.25),
        ("medium@10", 300.0, 10, 0.0),
        ("medium@40", 500.0, 40, 0.0),
        ("medium@160", 650.0, 160, 0.0),
    ]
    assert table.source == {"games": 240}  # nothing dropped
    assert strength_for(table, 230.0).random_share == 0.375


def test_the_tool_refuses_or_drops_mixtures_out_of_order(tmp_path: Path) -> None:
    bumpy = {**RATINGS, "medium@10+random=0.5": 200.0, "medium@10+random=0.25": 180.0}
    rated, _ = read_ratings(write_ratings(tmp_path, bumpy))
    with pytest.raises(StrengthCalibrationError, match=r"random=0.25 \(180\) is not rated "
                       r"between medium@10\+random=0.5 \(200\) and medium@10 \(300\).*"
                       "drop-non-monotone"):
        calibrations_from_ratings(rated, GAME, 2, "python", {})
    kept = calibrations_from_ratings(rated, GAME, 2, "python", {}, drop_non_monotone=True)
    assert [p.bot for p in kept["python"].mixture_points()] == ["medium@10+random=0.5"]
    assert kept["python"].source["dropped"] == ["medium@10+random=0.25"]
    above = {**RATINGS, "medium@10+random=0.1": 310.0}
    rated, _ = read_ratings(write_ratings(tmp_path, above))
    with pytest.raises(StrengthCalibrationError, match="not rated between random"):
        calibrations_from_ratings(rated, GAME, 2, "python", {})
    twice = {**RATINGS, "medium@10+random=0.5": 200.0, "medium@10+random=0.50": 210.0}
    rated, _ = read_ratings(write_ratings(tmp_path, twice))
    with pytest.raises(StrengthCalibrationError, match=r"has the random share of medium@10\+"):
        calibrations_from_ratings(rated, GAME, 2, "python", {})


def test_suffixed_mixtures_go_to_their_engine(tmp_path: Path) -> None:
    ratings = {
        "random": 0.0,
        "medium@10/python": 300.0,
        "medium@10+random=0.5/python": 150.0,
        "medium@25/native": 500.0,
        "medium@25+random=0.5/native": 260.0,
        "medium@10+random=0.4/native": 200.0,  # not the native table's weakest budget
    }
    rated, _ = read_ratings(write_ratings(tmp_path, ratings))
    found = calibrations_from_ratings(rated, GAME, 2, None, {})
    assert {k: [p.bot for p in v.points] for k, v in found.items()} == {
        "native": ["random", "medium@25+random=0.5/native", "medium@25/native"],
        "python": ["random", "medium@10+random=0.5/python", "medium@10/python"],
    }
    rated, _ = read_ratings(write_ratings(tmp_path, {**RATINGS, "medium@10+random=0.5": 9.0}))
    with pytest.raises(StrengthCalibrationError, match="names no engine"):
        calibrations_from_ratings(rated, GAME, 2, None, {})


def test_the_ladder_folder_gives_the_provenance(tmp_path: Path) -> None:
    (tmp_path / "ladder.json").write_bytes(orjson.dumps(
        {"game": GAME, "players": 2, "engine": "native", "bots": ["random", "medium@10"],
         "seed": 4, "games_per_pairing": 8}
    ))
    (tmp_path / "games.jsonl").write_text('{"a": 1}\n{"a": 2}\n')
    meta = ladder_meta(tmp_path)
    assert (meta["game"], meta["players"], meta["engine"], meta["games"]) == (GAME, 2, "native", 2)
    assert calibration_source(meta, tmp_path, None, "d")["ladder"]["seed"] == 4


# -- bots -----------------------------------------------------------------------------------


def test_elo_bot_names_parse() -> None:
    assert parse_elo("elo=1400") == 1400.0
    assert parse_elo("elo:1250.5") == 1250.5
    assert parse_elo("medium@10") is None
    for bad in ("elo=", "elo=abc", "elo=nan", "elo=inf", "elo=" + "1" * 40):
        with pytest.raises(UnknownBotError, match="finite number"):
            parse_elo(bad)


def test_make_bot_builds_the_knob(table_dir: Path) -> None:
    bot = make_bot("elo=400", GAME, "python")
    assert isinstance(bot, EloBot) and bot.name == "elo=400" and bot.target == 400.0
    assert isinstance(make_bot("elo:400/python", GAME), EloBot)
    with pytest.raises(EloOutOfRangeError) as refused:
        make_bot("elo=9000", GAME, "python")
    # Worded as the knob's own refusal, naming the game, the range and its player count.
    with pytest.raises(EloOutOfRangeError) as knob:
        strength_for(_calibration(table_dir), 9000.0)
    assert str(refused.value) == str(knob.value) == (
        f"target Elo 9000 is outside the calibrated range of {GAME}: [0, 650] with 2 players"
    )
    with pytest.raises(NotCalibratedError, match="leda"):
        make_bot("elo=400", "leda", "python")
    with pytest.raises(UnknownBotError, match="/native or /python"):
        make_bot("elo=400/gpu", GAME)


def test_the_elo_bot_is_deterministic_and_plays_random_at_the_bottom(table_dir: Path) -> None:
    game = get_game(GAME)
    state, _ = game_ops.resolve_chance(game, game.new_state({"players": 2}, 5), random.Random(5))
    seat = game.current_player(state)
    bot = make_bot("elo=400", GAME, "python")
    first = bot.choose(game, state, seat, random.Random(1))
    assert bot.choose(game, state, seat, random.Random(1)) == first
    assert first in game.legal_actions(state)
    bottom = make_bot("elo=0", GAME, "python")
    expected_rng = random.Random(2)
    expected_rng.random()  # the share draw
    expected = random_move(game, state, seat, expected_rng)
    assert bottom.choose(game, state, seat, random.Random(2)) == expected
