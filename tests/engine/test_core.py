"""The shared engine core: JSON paths, typed reading, registry."""

from __future__ import annotations

import pytest

from boardbot.engine import get_game, list_games, register_game
from boardbot.engine.errors import (
    InvalidActionError,
    InvalidStateError,
    UnknownGameError,
    format_path,
)
from boardbot.engine.jsonread import JsonReader
from boardbot.engine.registry import unregister_game


def test_format_path() -> None:
    assert format_path([]) == "$"
    assert format_path(["players", 1, "hand", 0]) == "$.players[1].hand[0]"


def test_reader_reports_the_exact_path_and_reason() -> None:
    doc = JsonReader({"players": [{"food": -1}, {"food": "x"}]})
    players = doc.get("players").as_list(2, 2)
    with pytest.raises(InvalidStateError) as bad_range:
        players[0].get("food").as_int(lo=0)
    assert bad_range.value.path == "$.players[0].food"
    assert "at least 0" in bad_range.value.reason
    with pytest.raises(InvalidStateError) as bad_type:
        players[1].get("food").as_int()
    assert bad_type.value.path == "$.players[1].food"
    assert "integer" in bad_type.value.reason


def test_reader_missing_and_unknown_fields() -> None:
    doc = JsonReader({"a": 1, "zz": 2})
    with pytest.raises(InvalidStateError) as missing:
        doc.get("b")
    assert missing.value.path == "$.b" and "missing" in missing.value.reason
    with pytest.raises(InvalidStateError) as unknown:
        doc.obj(allowed={"a"})
    assert unknown.value.path == "$.zz" and "unknown field" in unknown.value.reason


def test_reader_lists_strings_bools_and_error_type() -> None:
    doc = JsonReader({"xs": [1, 2, 3], "s": "up", "b": True}, error=InvalidActionError)
    with pytest.raises(InvalidActionError) as too_long:
        doc.get("xs").as_list(max_len=2)
    assert "0..2" in too_long.value.reason
    assert [r.as_int() for r in doc.get("xs")] == [1, 2, 3]
    assert doc.get("s").as_str({"up", "down"}) == "up"
    with pytest.raises(InvalidActionError):
        doc.get("s").as_str({"left"})
    assert doc.get("b").as_bool() is True
    with pytest.raises(InvalidActionError):
        doc.get("xs").child(0).as_bool()
    assert doc.opt("missing", 5).as_int() == 5
    with pytest.raises(InvalidActionError):
        JsonReader(True, error=InvalidActionError).as_int()  # bools are not integers


def test_registry_knows_both_games() -> None:
    assert {"leda", "legend_raiders"} <= set(list_games())
    assert get_game("leda").name == "leda"
    assert get_game("leda") is get_game("leda")
    with pytest.raises(UnknownGameError):
        get_game("chess")


def test_register_and_unregister_a_game() -> None:
    register_game("leda-alias", "boardbot.engine.leda.game:LedaGame")
    try:
        assert get_game("leda-alias").name == "leda"
        assert "leda-alias" in list_games()
    finally:
        unregister_game("leda-alias")
    assert "leda-alias" not in list_games()
    with pytest.raises(UnknownGameError):
        unregister_game("leda-alias")
