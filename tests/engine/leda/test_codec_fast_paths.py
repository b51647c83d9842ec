"""The codec's reader-free fast paths accept exactly what the checked path accepts.

Decoding reads each part through `boardbot.engine.leda.fastdecode` first and falls back to the
checked,
reader-based path when a fast function returns None. These tests decode the same documents with
the fast functions switched off and on: every document must give the same state, or the same
error at the same path for the same reason.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest

from boardbot.engine import InvalidStateError, get_game
from boardbot.engine.api import CHANCE, TERMINAL
from boardbot.engine.leda import fastdecode
from boardbot.engine.leda.data import CLAN_BY_NAME, EFFECTS
from boardbot.engine.leda.state import LedaState
from tests.engine.conformance import random_trajectory

GAME = get_game("leda")
_PAIRINGS = [
    ["cats", "sharks"], ["pandas", "scorpions"], ["sharks", "pandas"], ["scorpions", "cats"],
]  # fmt: skip
_FAST = ("names", "pile", "hand_view", "grid", "frames")
# Values of every JSON type, including near misses of the format's names and ranges.
_VALUES: list[Any] = [
    None, True, False, -1, 0, 1, 2, 4, 15, 16, 20, 21, 46, 100, 101, 1 << 40, 1.0, 2.5, "",
    "r1c1", "mv-1", "mv-18", "cat-1", "cat-5", "shark-4", "panda-1", "scorpion-2", "front", "back",
    "row1", "effect", "zone", "food-1", "action-1", "action-5", [], [0], ["cat-1"], ["mv-1"],
    [["mv-1"]], [{}], {}, {"count": 2}, {"count": 2, "known": []}, {"count": 2, "known": ["cat-1"]},
    {"count": 3, "known": [{"index": 0, "item": "mv-2"}]}, {"index": 0, "item": "action-1"},
    {"frame": "zone", "seat": 0, "args": [46]}, {"tile": "food-1", "face": "front"},
]  # fmt: skip


def _documents() -> list[dict[str, Any]]:
    """Full states and views of the seat to move, from seeded random games of every clan."""
    docs = []
    for seed, clans in enumerate(_PAIRINGS):
        states = list(random_trajectory(GAME, {"clans": clans}, seed, 400))
        for state in states[10::25]:
            seat = GAME.current_player(state)
            docs.append(GAME.state_to_json(state))
            if seat not in (CHANCE, TERMINAL):
                docs.append(GAME.state_to_json(state, seat))
    return docs


DOCUMENTS = _documents()


@contextmanager
def _checked_path_only() -> Iterator[None]:
    with mock.patch.multiple(fastdecode, **{name: lambda *args: None for name in _FAST}):
        yield


def _outcome(data: Any) -> tuple[Any, ...]:
    try:
        return ("state", GAME.state_from_json(copy.deepcopy(data)))
    except InvalidStateError as error:
        return ("error", error.path, error.reason)


def _leaf_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _leaf_paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _leaf_paths(value, (*prefix, i))
    return out


def _mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """`data` with one to three random edits: a replaced, copied, dropped or repeated value."""
    data = copy.deepcopy(data)
    for _ in range(rng.choice((1, 1, 2, 3))):
        paths = _leaf_paths(data)[1:]
        path = rng.choice(paths)
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        roll = rng.random()
        if isinstance(parent, dict) and roll < 0.15:
            del parent[path[-1]]
        elif isinstance(parent, list) and roll < 0.3:
            parent.insert(rng.randrange(len(parent) + 1), copy.deepcopy(parent[path[-1]]))
        elif roll < 0.45:
            source: Any = data
            for key in rng.choice(paths):
                source = source[key]
            parent[path[-1]] = copy.deepcopy(source)
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(_VALUES))
    return data


def test_documents_cover_every_fast_path() -> None:
    views = [d for d in DOCUMENTS if d["observer"] is not None]
    assert views and len(views) < len(DOCUMENTS)
    hands = [p["hand"] for d in views for p in d["players"]]
    assert any(isinstance(hand, dict) and hand["known"] for hand in hands)
    assert any(p["deck"]["known"] for d in views for p in d["players"])
    assert {p["clan"] for d in DOCUMENTS for p in d["players"]} == set(CLAN_BY_NAME)


def test_well_formed_parts_take_the_fast_path() -> None:
    for data in DOCUMENTS:
        assert fastdecode.frames(data["pending"]) is not None
        assert fastdecode.pile(data["mv_pile"], fastdecode.MV_TOKEN_BY_NAME) is not None
        assert fastdecode.pile(data["action_pile"], fastdecode.ACTION_TILE_BY_NAME) is not None
        for player in data["players"]:
            cards = fastdecode.CLAN_CARD_BY_NAME[CLAN_BY_NAME[player["clan"]]]
            assert fastdecode.grid(player["grid"], CLAN_BY_NAME[player["clan"]], cards) is not None
            assert fastdecode.pile(player["deck"], cards) is not None
            hand = player["hand"]
            if isinstance(hand, dict):
                assert fastdecode.hand_view(hand, cards) is not None
            else:
                assert fastdecode.pile(hand, cards) is not None
            assert fastdecode.names(player["mv_tokens"], fastdecode.MV_TOKEN_BY_NAME) is not None
            assert fastdecode.names(player["rotated"], fastdecode.ROTATING_BY_NAME) is not None


@pytest.mark.parametrize("index", range(len(DOCUMENTS)))
def test_fast_and_checked_paths_agree_on_mutated_documents(index: int) -> None:
    rng = random.Random(index)
    data = DOCUMENTS[index]
    samples = [data] + [_mutate(data, rng) for _ in range(120)]
    fast = [_outcome(sample) for sample in samples]
    with _checked_path_only():
        checked = [_outcome(sample) for sample in samples]
    assert fast[0][0] == "state"
    assert any(outcome[0] == "state" for outcome in fast[1:])  # some edits stay valid
    for sample, got, expected in zip(samples, fast, checked, strict=True):
        assert got == expected, sample


_DELETE = object()


def _near_misses(value: Any) -> list[Any]:
    """Values just outside (or inside) what a field allows, of the same type and of others."""
    if value is None:
        return [0, 1, "", [], {}]
    if isinstance(value, bool):
        return [not value, int(value), None]
    if isinstance(value, int):
        return [value - 1, value + 1, -1, True, float(value), str(value), None]
    if isinstance(value, str):
        return ["", value.upper(), value + "0", 1, None, [value]]
    if isinstance(value, list):
        return [[], value[:-1], [*value, *value[-1:]], [None], "x", None, {}]
    return [{}, {**value, "extra": 0}, [], None]


def _edits(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every single edit of one field: a near miss of its value, or its deletion."""
    if path:
        yield from ((path, v) for v in _near_misses(node))
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key), _DELETE
            yield from _edits(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _edits(value, (*path, i))


def _edited(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    if value is _DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = copy.deepcopy(value)
    return data


def _richest(predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return max((d for d in DOCUMENTS if predicate(d)), key=lambda d: len(str(d)))


_EDITED = {
    "view with known cards": _richest(lambda d: d["observer"] is not None),
    "sharks": _richest(lambda d: "sharks" in {p["clan"] for p in d["players"]}),
    "cats": _richest(lambda d: d["observer"] is None and d["players"][0]["clan"] == "cats"),
}


@pytest.mark.parametrize("name", list(_EDITED))
def test_every_single_field_edit_gives_the_same_outcome_on_both_paths(name: str) -> None:
    samples = [_edited(_EDITED[name], path, value) for path, value in _edits(_EDITED[name])]
    fast = [_outcome(sample) for sample in samples]
    with _checked_path_only():
        checked = [_outcome(sample) for sample in samples]
    for sample, got, expected in zip(samples, fast, checked, strict=True):
        assert got == expected, sample


def _sharks(data: dict[str, Any]) -> dict[str, Any]:
    player: dict[str, Any] = next(p for p in data["players"] if p["clan"] == "sharks")
    return player


def _effect_beyond_its_ops(data: dict[str, Any]) -> None:
    fx = next(i for i, ops in enumerate(EFFECTS) if 1 <= len(ops) <= 10)
    data["pending"].append({"frame": "effect", "seat": 0, "args": [fx, len(EFFECTS[fx]), -1]})


def _ten_tokens(data: dict[str, Any]) -> None:
    for square in _sharks(data)["grid"][:10]:
        square["shark_token"] = True


def _shark_card_without_token(data: dict[str, Any]) -> None:
    square = next(sq for sq in _sharks(data)["grid"] if sq["cards"])
    square["shark_token"] = False


def _token_off_the_shark_grid(data: dict[str, Any]) -> None:
    other = next(p for p in data["players"] if p["clan"] != "sharks")
    other["grid"][5]["shark_token"] = True


def _tile_twice(data: dict[str, Any]) -> None:
    grid = data["players"][1]["grid"]
    grid[7]["tile"] = grid[2]["tile"]


def _more_known_than_held(data: dict[str, Any]) -> None:
    player = next(p for p in data["players"] if isinstance(p["hand"], dict))
    cards = fastdecode.CLAN_CARD_BY_NAME[CLAN_BY_NAME[player["clan"]]]
    player["hand"]["known"] = list(cards)[: player["hand"]["count"] + 1]


def _known_position_past_the_end(data: dict[str, Any]) -> None:
    data["mv_pile"]["known"] = [{"index": data["mv_pile"]["count"], "item": "mv-1"}]


def _five_revealed(data: dict[str, Any]) -> None:
    data["revealed_actions"] = ["action-1", "action-2", "action-3", "action-4", "action-5"]
    data["action_pile"] = {"count": 0, "known": []}


def _mv_token_of_both_players(data: dict[str, Any]) -> None:
    data["players"][0]["mv_tokens"] = ["mv-7"]
    data["players"][1]["mv_tokens"] = ["mv-7"]


def _seat_true(data: dict[str, Any]) -> None:
    data["pending"][0]["seat"] = True


_CROSS_FIELD = [
    ("sharks", _effect_beyond_its_ops), ("sharks", _ten_tokens),
    ("sharks", _shark_card_without_token), ("sharks", _token_off_the_shark_grid),
    ("sharks", _tile_twice), ("view with known cards", _more_known_than_held),
    ("view with known cards", _known_position_past_the_end),
    ("view with known cards", _five_revealed), ("cats", _mv_token_of_both_players),
    ("cats", _seat_true),
]  # fmt: skip


@pytest.mark.parametrize(("name", "edit"), _CROSS_FIELD, ids=[e.__name__ for _, e in _CROSS_FIELD])
def test_rules_across_fields_reject_alike_on_both_paths(
    name: str, edit: Callable[[dict[str, Any]], None]
) -> None:
    data = copy.deepcopy(_EDITED[name])
    edit(data)
    got = _outcome(data)
    with _checked_path_only():
        assert got == _outcome(data)
    assert got[0] == "error"


def test_a_decoded_state_is_the_same_on_both_paths() -> None:
    for data in DOCUMENTS:
        fast = GAME.state_from_json(copy.deepcopy(data))
        with _checked_path_only():
            checked = GAME.state_from_json(copy.deepcopy(data))
        assert isinstance(fast, LedaState) and fast == checked
