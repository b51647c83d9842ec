"""The component data file: the reconstructed set's properties and its validation on load."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

import pytest

from boardbot.engine.legend_raiders.components import (
    CARD_DIE,
    CARD_DISCOVERY,
    CARD_MISSION,
    COMPONENTS,
    DATA_FILE,
    ComponentDataError,
    parse_components,
)

C = COMPONENTS


def _raw() -> dict[str, Any]:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def test_the_reconstructed_set_matches_the_rules_file() -> None:
    assert C.tool_ids == ("compass", "map", "shovel", "rope") and C.tool_counts == (9, 9, 9, 9)
    assert len(C.tile_ids) == 28 and len(C.card_ids) == 28
    places = [i for i in range(28) if C.symbols[C.tile_symbol[i]] == "place"]
    assert len(places) == 8
    for i in range(28):
        assert sum(C.tile_cost[i]) == (3 if i in places else 2)
        assert C.tile_coins[i] == (1 if i in places else 0)
    # Every tool appears 16 times over all tiles; every relic pair appears on exactly two relics.
    assert [sum(cost[t] for cost in C.tile_cost) for t in range(4)] == [16, 16, 16, 16]
    pairs = Counter(C.tile_cost[i] for i in range(28) if i not in places)
    assert len(pairs) == 10 and set(pairs.values()) == {2}
    kinds = Counter(C.card_kind)
    assert kinds == {CARD_DIE: 4, CARD_DISCOVERY: 8, CARD_MISSION: 16}
    assert sorted(C.mission_points[j] for j in range(28) if C.card_kind[j] == CARD_MISSION) == (
        [3, 3, 3, 3, 4] + [5] * 9 + [7, 8])
    assert C.completed_space_coins == (0, 0, 0, 0, 0, 1)
    assert [C.tool_ids[f] for f in C.board_favourite] == ["rope", "map", "shovel", "compass"]
    assert C.board_names[0][0] == "Montana John" and C.board_names[1][0] == "Joe Manjee"


def test_the_file_documents_itself_as_reconstructed() -> None:
    assert "RECONSTRUCTED" in C.about


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(_raw())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["tools"][0].update(count=10), "$.tools"),
        (lambda d: d["tiles"][0].update(symbol="sword"), "$.tiles[0].symbol"),
        (lambda d: d["tiles"][1].update(id="clavicola-salomonis"), "$.tiles[1].id"),
        (lambda d: d["tiles"][0].update(cost=["compass", "whip"]), "$.tiles[0].cost[1]"),
        (lambda d: d["expedition_cards"][0].update(kind="joker"), "$.expedition_cards[0].kind"),
        (lambda d: d["characters"][0].update(favourite="torch"), "$.characters[0].favourite"),
        (lambda d: d["die"].update(faces=["tool", "skull"]), "$.die.faces[1]"),
        (lambda d: d["limits"].update(max_prepared=4), "$.limits.max_prepared"),
        (lambda d: d.update(extra=1), "$.extra"),
    ],
)
def test_bad_component_data_is_rejected_with_its_path(change: Any, path: str) -> None:
    with pytest.raises(ComponentDataError) as err:
        parse_components(_broken(change))
    assert err.value.path == path


def test_a_replacement_file_changes_the_game_without_code() -> None:
    data = _broken(lambda d: d["tiles"][0].update(cost=["rope", "rope"]))
    comps = parse_components(data)
    assert comps.tile_cost[0] == (0, 0, 0, 2)
