"""The JSON mutators: each op edits a copy, records replay, generation is seeded."""

from __future__ import annotations

import copy
import json
import random

import pytest

from fuzz import tagged
from fuzz.mutators import (
    Mutation,
    PathError,
    apply_all,
    apply_mutation,
    build_vocab,
    get_node,
    index_paths,
    key_of,
    mutate,
    random_mutation,
)
from fuzz.seeds import corpus_seeds
from fuzz.values import nested

DOC = {"game": "leda", "players": [{"hand": ["cat-1", "cat-2", "cat-3"], "food": 2}, {"food": 1}]}


@pytest.mark.parametrize(
    ("mutation", "expected"),
    [
        (Mutation("set", ("players", 1, "food"), 2**64 - 1),
         {"game": "leda", "players": [DOC["players"][0], {"food": 2**64 - 1}]}),
        (Mutation("delete", ("game",)), {"players": DOC["players"]}),
        (Mutation("delete", ("players", 0, "hand", 1)),
         {"game": "leda", "players": [{"hand": ["cat-1", "cat-3"], "food": 2}, {"food": 1}]}),
        (Mutation("insert", ("players", 1), ["hand", []]),
         {"game": "leda", "players": [DOC["players"][0], {"food": 1, "hand": []}]}),
        (Mutation("insert", ("players", 0, "hand"), [0, "x"]),
         {"game": "leda",
          "players": [{"hand": ["x", "cat-1", "cat-2", "cat-3"], "food": 2}, {"food": 1}]}),
        (Mutation("rename", ("game",), "name"), {"name": "leda", "players": DOC["players"]}),
        (Mutation("dup", ("players", 0, "hand", 2)),
         {"game": "leda",
          "players": [{"hand": ["cat-1", "cat-2", "cat-3", "cat-3"], "food": 2}, {"food": 1}]}),
        (Mutation("swap", ("players",), [0, 1]), {"game": "leda", "players": DOC["players"][::-1]}),
        (Mutation("truncate", ("players", 0, "hand"), 1),
         {"game": "leda", "players": [{"hand": ["cat-1"], "food": 2}, {"food": 1}]}),
        (Mutation("extend", ("players", 0, "hand"), ["cat-1"]),
         {"game": "leda",
          "players": [{"hand": ["cat-1", "cat-2", "cat-3", "cat-1"], "food": 2}, {"food": 1}]}),
        (Mutation("reverse", ("players",)), {"game": "leda", "players": DOC["players"][::-1]}),
        (Mutation("set", (), []), []),
    ],
)
def test_each_op_edits_a_copy(mutation: Mutation, expected: object) -> None:
    before = copy.deepcopy(DOC)
    assert apply_mutation(DOC, mutation) == expected
    assert before == DOC


@pytest.mark.parametrize(
    "mutation",
    [
        Mutation("set", ("players", 5, "food"), 1),
        Mutation("delete", ("nope",)),
        Mutation("delete", ()),
        Mutation("rename", ("players", 0), "x"),
        Mutation("swap", ("players",), [0, 7]),
        Mutation("truncate", ("game",), 1),
        Mutation("set", ("game", "x"), 1),
    ],
)
def test_a_path_that_misses_is_refused(mutation: Mutation) -> None:
    with pytest.raises(PathError):
        apply_mutation(DOC, mutation)


def test_apply_all_skips_what_no_longer_applies() -> None:
    records = [
        Mutation("delete", ("players",)),
        Mutation("set", ("players", 0, "food"), -1),
        Mutation("set", ("game",), "chess"),
    ]
    assert apply_all(DOC, records) == {"game": "chess"}
    assert apply_all(DOC, records[1:]) == {
        "game": "chess", "players": [{"hand": ["cat-1", "cat-2", "cat-3"], "food": -1},
                                     {"food": 1}],
    }


def test_deep_paths_need_no_recursion() -> None:
    deep = nested(random.Random(0), 5000)
    path: tuple[str | int, ...] = tuple(0 if isinstance(deep, list) else "a" for _ in range(4999))
    changed = apply_mutation(deep, Mutation("set", path, "leaf"))
    node = changed
    for part in path:
        node = node[part]
    assert node == "leaf"


def test_generation_is_seeded_and_records_replay() -> None:
    doc = corpus_seeds()[0].doc
    vocab = build_vocab([doc])
    index = index_paths(doc)
    first = mutate(random.Random(7), doc, vocab, index, 4)
    again = mutate(random.Random(7), doc, vocab, index, 4)
    assert first[1] == again[1]
    assert apply_all(doc, first[1]) == first[0]
    other = mutate(random.Random(8), doc, vocab, index, 4)
    assert other[1] != first[1]


def test_mutations_change_the_document_in_every_way() -> None:
    doc = corpus_seeds()[0].doc
    vocab = build_vocab([doc])
    index = index_paths(doc)
    rng = random.Random(3)
    ops = set()
    changed = 0
    for _ in range(2000):
        m = random_mutation(rng, doc, vocab, index)
        ops.add(m.op)
        changed += apply_mutation(doc, m) != doc
    assert ops == {"set", "delete", "insert", "rename", "dup", "swap", "truncate", "extend",
                   "reverse"}
    assert changed > 1800  # a few edits are no-ops (a value set to itself, a swap of equals)


def test_names_are_swapped_for_names_of_the_same_kind() -> None:
    doc = corpus_seeds()[0].doc
    vocab = build_vocab([doc])
    tiles = set(vocab.strings_by_key["tile"])
    assert len(tiles) > 5
    rng = random.Random(5)
    swapped = set()
    index = index_paths(doc)
    for _ in range(3000):
        m = random_mutation(rng, doc, vocab, index)
        if m.op == "set" and m.path and m.path[-1] == "tile" and isinstance(m.arg, str):
            swapped.add(m.arg)
    assert len(swapped & tiles) > 5


def test_records_survive_a_repro_file() -> None:
    special = [float("nan"), 2**64 - 1, 10**400, "é" * 20_000, nested(random.Random(1), 1000),
               b"\xff", {"$x": 1}]
    for value in special:
        text = json.dumps(tagged.encode(value))
        assert len(text) < 500
        back = tagged.decode(json.loads(text))
        assert json.dumps(tagged.encode(back)) == text
    assert tagged.decode(json.loads(json.dumps(tagged.encode(special[3])))) == special[3]
    deep = tagged.decode(json.loads(json.dumps(tagged.encode(special[4]))))
    for _ in range(1000):
        deep = deep[0] if isinstance(deep, list) else deep["a"]
    assert not isinstance(deep, list | dict) or deep == []


def test_gentle_mutations_only_move_numbers_and_swap_names() -> None:
    doc = corpus_seeds()[0].doc
    vocab = build_vocab([doc])
    index = index_paths(doc)
    rng = random.Random(9)
    for _ in range(500):
        m = random_mutation(rng, doc, vocab, index, gentle=True)
        before = get_node(doc, m.path)
        assert m.op == "set"
        if isinstance(before, str):
            assert m.arg in vocab.strings_by_key[key_of(m.path)]
        else:
            assert isinstance(before, int) and isinstance(m.arg, int)
