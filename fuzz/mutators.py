"""Structure-aware mutations of JSON documents, each a small replayable record."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fuzz import values
from fuzz.values import json_kind

Path = tuple[str | int, ...]

MAX_INDEX_DEPTH = 40
"""Nodes deeper than this are not indexed as mutation targets."""

KIND_WEIGHTS = {"number": 3.0, "string": 3.0, "list": 2.0, "object": 1.5, "bool": 0.5, "null": 0.5}
"""How often each kind of node is picked as the target of a mutation."""


class PathError(LookupError):
    """A mutation's path does not exist in the document (e.g. an earlier mutation was dropped)."""


@dataclass(frozen=True)
class Mutation:
    """One edit of a JSON document: `op` at `path` with argument `arg`.

    Ops: set (replace the node), delete (remove a key or item), insert ([key or index, value]
    into the object or list at path), rename (the key at path to `arg`), dup (the list item at
    path), swap ([i, j] in the list at path), truncate (the list at path to `arg` items),
    extend (the list at path with the values in `arg`), reverse (the list at path).
    """

    op: str
    path: Path
    arg: Any = None

    def describe(self) -> str:
        """A short readable form, e.g. `set $.players[0].food = 2**64-1`."""
        arg = _short(self.arg)
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path)
        return f"{self.op} {where}" + ("" if self.arg is None else f" {arg}")


def _short(value: Any) -> str:
    if isinstance(value, str) and len(value) > 40:
        return f"{value[:20]!r}… ({len(value)} chars)"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**12:
        return f"int({len(str(abs(value)))} digits: {str(value)[:24]})"
    text = repr(value) if not isinstance(value, list | dict) else _shape(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _shape(value: Any) -> str:
    depth = 0
    while isinstance(value, list | dict) and len(value) == 1 and depth < 10_000:
        value = value[0] if isinstance(value, list) else next(iter(value.values()))
        depth += 1
    return f"<{depth} levels nested>" if depth > 3 else repr(value)


# -- applying ---------------------------------------------------------------------------------


def get_node(doc: Any, path: Path) -> Any:
    """The node at `path`; PathError if it does not exist."""
    node = doc
    for part in path:
        node = _child(node, part)
    return node


def _child(node: Any, part: str | int) -> Any:
    if isinstance(node, dict) and isinstance(part, str) and part in node:
        return node[part]
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return node[part]
    raise PathError(part)


def _replace(doc: Any, path: Path, new: Any) -> Any:
    """`doc` with the node at `path` replaced by `new`; only the containers on the path are
    copied (no recursion, so paths of any depth work)."""
    nodes = [doc]
    for part in path:
        nodes.append(_child(nodes[-1], part))
    value = new
    for parent, part in zip(reversed(nodes[:-1]), reversed(path), strict=True):
        copy: Any = list(parent) if isinstance(parent, list) else dict(parent)
        copy[part] = value
        value = copy
    return value


def apply_mutation(doc: Any, m: Mutation) -> Any:
    """The document after mutation `m` (the input is never changed); PathError if it misses."""
    if m.op == "set":
        return _replace(doc, m.path, m.arg)
    if m.op in ("delete", "rename", "dup"):
        if not m.path:
            raise PathError("root")
        parent, last = get_node(doc, m.path[:-1]), m.path[-1]
        _child(parent, last)
        return _replace(doc, m.path[:-1], _edit_parent(parent, last, m))
    node = get_node(doc, m.path)
    return _replace(doc, m.path, _edit_container(node, m))


def _edit_parent(parent: Any, last: str | int, m: Mutation) -> Any:
    if m.op == "delete":
        if isinstance(parent, list):
            assert isinstance(last, int)
            return parent[:last] + parent[last + 1 :]
        return {k: v for k, v in parent.items() if k != last}
    if m.op == "rename":
        if not isinstance(parent, dict):
            raise PathError(last)
        return {(m.arg if k == last else k): v for k, v in parent.items()}
    if not isinstance(parent, list):  # dup
        raise PathError(last)
    assert isinstance(last, int)
    return [*parent[: last + 1], parent[last], *parent[last + 1 :]]


def _edit_container(node: Any, m: Mutation) -> Any:
    if m.op == "insert":
        key, value = m.arg
        if isinstance(node, dict) and isinstance(key, str):
            return {**node, key: value}
        if isinstance(node, list) and isinstance(key, int):
            return [*node[:key], value, *node[key:]]
        raise PathError(key)
    if not isinstance(node, list):
        raise PathError(m.op)
    if m.op == "swap":
        i, j = m.arg
        if not (0 <= i < len(node) and 0 <= j < len(node)):
            raise PathError(m.op)
        out = list(node)
        out[i], out[j] = out[j], out[i]
        return out
    if m.op == "truncate":
        return node[: m.arg]
    if m.op == "extend":
        return node + list(m.arg)
    if m.op == "reverse":
        return node[::-1]
    raise ValueError(f"unknown mutation op {m.op!r}")


def apply_all(doc: Any, mutations: Iterable[Mutation]) -> Any:
    """The document after every mutation that still applies (those whose path misses are
    skipped, so any subset of a recorded list can be replayed)."""
    for m in mutations:
        try:
            doc = apply_mutation(doc, m)
        except PathError:
            continue
    return doc


# -- what a game's documents contain ----------------------------------------------------------


@dataclass
class Vocab:
    """Names and numbers found in a game's documents, by the key they appear under."""

    strings_by_key: dict[str, list[str]] = field(default_factory=dict)
    all_strings: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)
    int_max_by_key: dict[str, int] = field(default_factory=dict)


def build_vocab(docs: Iterable[Any]) -> Vocab:
    """The vocabulary of `docs`: string values by key, every key, the largest int by key."""
    strings: dict[str, set[str]] = defaultdict(set)
    keys: set[str] = set()
    int_max: dict[str, int] = {}
    for doc in docs:
        stack: list[tuple[str, Any, int]] = [("", doc, 0)]
        while stack:
            key, node, depth = stack.pop()
            if isinstance(node, dict):
                names = [k for k in node if isinstance(k, str)]
                keys.update(names)
                if depth < MAX_INDEX_DEPTH:
                    stack.extend((k, node[k], depth + 1) for k in names)
            elif isinstance(node, list):
                if depth < MAX_INDEX_DEPTH:
                    stack.extend((key, item, depth + 1) for item in node)
            elif isinstance(node, str) and len(node) <= 64:
                strings[key].add(node)
            elif isinstance(node, int) and not isinstance(node, bool):
                int_max[key] = max(int_max.get(key, node), node)
    by_key = {k: sorted(v) for k, v in sorted(strings.items())}
    every = sorted({s for v in strings.values() for s in v})
    return Vocab(by_key, every, sorted(keys), int_max)


def walk(doc: Any, max_depth: int = MAX_INDEX_DEPTH) -> Iterable[tuple[Path, Any]]:
    """Every (path, node) of `doc` down to `max_depth`, parents before children."""
    stack: list[tuple[Path, Any]] = [((), doc)]
    while stack:
        path, node = stack.pop()
        yield path, node
        if len(path) >= max_depth:
            continue
        if isinstance(node, dict):
            stack.extend(((*path, k), v) for k, v in reversed(node.items()) if isinstance(k, str))
        elif isinstance(node, list):
            stack.extend(((*path, i), v) for i, v in reversed(list(enumerate(node))))


def key_of(path: Path) -> str:
    """The nearest object key on `path` (list indices skipped); "" at the root."""
    for part in reversed(path):
        if isinstance(part, str):
            return part
    return ""


@dataclass
class PathIndex:
    """The paths of one document grouped by the JSON kind of their node."""

    by_kind: dict[str, list[Path]]


def index_paths(doc: Any) -> PathIndex:
    """Index every node of `doc` by kind, for uniform picks of mutation targets."""
    by_kind: dict[str, list[Path]] = defaultdict(list)
    for path, node in walk(doc):
        by_kind[json_kind(node)].append(path)
    return PathIndex(dict(by_kind))


# -- generating -------------------------------------------------------------------------------


def pick_path(
    rng: random.Random, doc: Any, index: PathIndex, only: tuple[str, ...] | None = None
) -> Path:
    """A node of `doc` (of the kinds in `only`, if given): by kind weight, uniform within a
    kind; a random descent if the indexed path no longer exists (after earlier mutations)."""
    kinds = [k for k in KIND_WEIGHTS if index.by_kind.get(k) and (only is None or k in only)]
    if kinds and (only is not None or rng.random() > 0.02):
        kind = rng.choices(kinds, [KIND_WEIGHTS[k] for k in kinds])[0]
        path = rng.choice(index.by_kind[kind])
        try:
            get_node(doc, path)
            return path
        except PathError:
            pass
    return random_descent(rng, doc)


def random_descent(rng: random.Random, doc: Any) -> Path:
    """A path found by walking down from the root, stopping at random."""
    path: list[str | int] = []
    node = doc
    while isinstance(node, dict | list) and node and len(path) < MAX_INDEX_DEPTH:
        if path and rng.random() < 0.3:
            break
        if isinstance(node, dict):
            key = rng.choice(list(node))
            path.append(key)
            node = node[key]
        else:
            i = rng.randrange(len(node))
            path.append(i)
            node = node[i]
    return tuple(path)


def random_mutation(
    rng: random.Random, doc: Any, vocab: Vocab, index: PathIndex, gentle: bool = False
) -> Mutation:
    """One mutation of `doc` suited to the kind of node it hits; `gentle` ones only move a
    number to a nearby or boundary value or swap a name for another of its kind, so the
    state often stays valid and the later steps see unusual values."""
    if gentle:
        return _gentle_mutation(rng, doc, vocab, index)
    path = pick_path(rng, doc, index)
    node = get_node(doc, path)
    kind = json_kind(node)
    if path and rng.random() < 0.06:
        return Mutation("delete", path)
    if kind == "number":
        return _number_mutation(rng, path, node, vocab)
    if kind == "string":
        return _string_mutation(rng, path, node, vocab)
    if kind == "list":
        return _list_mutation(rng, path, node, vocab)
    if kind == "object":
        return _object_mutation(rng, path, node, vocab)
    roll = rng.random()
    if roll < 0.4:
        return Mutation("set", path, values.swap_type(rng, node))
    if roll < 0.8:
        return Mutation("set", path, values.random_scalar(rng))
    return Mutation("set", path, values.boundary_number(rng))


def _gentle_mutation(rng: random.Random, doc: Any, vocab: Vocab, index: PathIndex) -> Mutation:
    path = pick_path(rng, doc, index, ("number", "string"))
    node = get_node(doc, path)
    if isinstance(node, str):
        same_kind = vocab.strings_by_key.get(key_of(path)) or [node]
        return Mutation("set", path, rng.choice(same_kind))
    if not isinstance(node, int) or isinstance(node, bool):
        return Mutation("set", path, node)
    near = vocab.int_max_by_key.get(key_of(path), node)
    return Mutation("set", path, rng.choice(
        (0, 1, node + 1, node - 1, near, near + 1, 2 * near + 1, rng.choice(values.BOUNDARY_INTS))
    ))


def _number_mutation(rng: random.Random, path: Path, node: Any, vocab: Vocab) -> Mutation:
    roll = rng.random()
    if roll < 0.6:
        near = vocab.int_max_by_key.get(key_of(path))
        return Mutation("set", path, values.boundary_number(rng, near))
    if roll < 0.75 and isinstance(node, int):
        return Mutation("set", path, rng.choice((node + 1, node - 1, -node, 0, node * 2)))
    if roll < 0.9:
        return Mutation("set", path, values.swap_type(rng, node))
    return Mutation("set", path, values.odd_string(rng))


def _string_mutation(rng: random.Random, path: Path, node: str, vocab: Vocab) -> Mutation:
    roll = rng.random()
    same_kind = vocab.strings_by_key.get(key_of(path))
    if roll < 0.4 and same_kind:
        return Mutation("set", path, rng.choice(same_kind))
    if roll < 0.5 and vocab.all_strings:
        return Mutation("set", path, rng.choice(vocab.all_strings))
    if roll < 0.65:
        return Mutation("set", path, values.odd_string(rng))
    if roll < 0.8:
        return Mutation("set", path, mutate_text(rng, node, vocab))
    if roll < 0.95:
        return Mutation("set", path, values.swap_type(rng, node))
    return Mutation("set", path, values.huge_string(rng))


def _list_mutation(rng: random.Random, path: Path, node: list[Any], vocab: Vocab) -> Mutation:
    n = len(node)
    roll = rng.random()
    if n and roll < 0.15:
        return Mutation("dup", (*path, rng.randrange(n)))
    if n and roll < 0.3:
        return Mutation("delete", (*path, rng.randrange(n)))
    if n > 1 and roll < 0.4:
        i, j = rng.sample(range(n), 2)
        return Mutation("swap", path, [i, j])
    if n and roll < 0.5:
        return Mutation("truncate", path, rng.randrange(n))
    if roll < 0.6:
        count = rng.choice((1, 1, 2, 3, 10, 100, 1000))
        items = [_list_item(rng, node, path, vocab) for _ in range(min(count, 10))]
        return Mutation("extend", path, (items * (count // len(items) + 1))[:count])
    if roll < 0.7:
        return Mutation("insert", path, [rng.randrange(n + 1), _list_item(rng, node, path, vocab)])
    if n > 1 and roll < 0.75:
        return Mutation("reverse", path)
    if roll < 0.8:
        return Mutation("set", path, {"count": rng.choice((n, n + 1, -1, 2**63)), "known": []})
    if roll < 0.85:
        return Mutation("set", path, values.nested(rng))
    if roll < 0.9:
        return Mutation("set", path, [])
    return Mutation("set", path, values.swap_type(rng, node))


def _list_item(rng: random.Random, node: list[Any], path: Path, vocab: Vocab) -> Any:
    roll = rng.random()
    if node and roll < 0.5:
        return rng.choice(node)
    same_kind = vocab.strings_by_key.get(key_of(path))
    if same_kind and roll < 0.8:
        return rng.choice(same_kind)
    return values.random_scalar(rng)


def _object_mutation(
    rng: random.Random, path: Path, node: dict[str, Any], vocab: Vocab
) -> Mutation:
    keys = list(node)
    roll = rng.random()
    if keys and roll < 0.25:
        return Mutation("delete", (*path, rng.choice(keys)))
    if roll < 0.45:
        key = _new_key(rng, vocab)
        value = node[rng.choice(keys)] if keys and rng.random() < 0.5 else values.random_scalar(rng)
        return Mutation("insert", path, [key, value])
    if keys and roll < 0.7:
        return Mutation("rename", (*path, rng.choice(keys)), _new_key(rng, vocab))
    if roll < 0.8:
        return Mutation("set", path, values.swap_type(rng, node))
    if roll < 0.85:
        return Mutation("set", path, {})
    if roll < 0.9:
        return Mutation("set", path, values.nested(rng))
    if keys:
        a = rng.choice(keys)
        b = rng.choice(keys)
        return Mutation("set", path, {**node, a: node[b], b: node[a]})
    return Mutation("set", path, {"count": 1, "known": []})


def _new_key(rng: random.Random, vocab: Vocab) -> str:
    roll = rng.random()
    if vocab.keys and roll < 0.55:
        return rng.choice(vocab.keys)
    if vocab.keys and roll < 0.7:
        return mutate_text(rng, rng.choice(vocab.keys), vocab)
    if roll < 0.8:
        return values.huge_string(rng)
    return values.odd_string(rng)


def mutate_text(rng: random.Random, text: str, vocab: Vocab) -> str:
    """A near-miss of `text`: a token swapped for a known name, case or digits changed, cut,
    doubled, padded, or a huge / odd string."""
    roll = rng.random()
    parts = text.split(":")
    if len(parts) > 1 and vocab.all_strings and roll < 0.2:
        parts[rng.randrange(len(parts))] = rng.choice(vocab.all_strings)
        return ":".join(parts)
    if roll < 0.3:
        return text.upper() if text != text.upper() else text.lower()
    if roll < 0.4 and text:
        return text[: rng.randrange(len(text))]
    if roll < 0.5:
        return text + rng.choice((":", "x", "0", " ", ":" + text, "\x00", "-1"))
    if roll < 0.6:
        return "".join(str(rng.choice((9, 99, 2**63, -1))) if c.isdigit() else c for c in text)
    if roll < 0.7:
        return rng.choice((" ", "\t", "\u00a0")) + text + rng.choice(("", " ", "\n"))
    if roll < 0.8:
        return ":".join([*parts[:1], values.huge_string(rng)])
    if roll < 0.9:
        return text.replace(":", rng.choice(("", "::", ";", " : ", "=")))
    return values.odd_string(rng)


def mutate(
    rng: random.Random,
    doc: Any,
    vocab: Vocab,
    index: PathIndex | None,
    count: int,
    gentle: bool = False,
) -> tuple[Any, list[Mutation]]:
    """`count` stacked mutations of `doc`: the mutated document and the records applied."""
    index = index if index is not None else index_paths(doc)
    applied: list[Mutation] = []
    for _ in range(count):
        m = random_mutation(rng, doc, vocab, index, gentle)
        try:
            doc = apply_mutation(doc, m)
        except PathError:
            continue
        applied.append(m)
    return doc, applied


def stack_size(rng: random.Random) -> int:
    """How many mutations to stack: mostly one or two, sometimes up to six."""
    return rng.choices((1, 2, 3, 4, 6), (45, 25, 15, 10, 5))[0]


def sample_paths(paths: Sequence[Path], rng: random.Random, k: int) -> list[Path]:
    """Up to `k` distinct paths chosen at random."""
    return rng.sample(list(paths), min(k, len(paths)))


# -- targeted: chance steps and end conditions ------------------------------------------------

PILES: dict[str, tuple[tuple[Path, Path], ...]] = {
    "leda": (
        (("players", 0, "deck"), ("players", 0, "hand")),
        (("players", 1, "deck"), ("players", 1, "hand")),
        (("action_pile",), ("revealed_actions",)),
    ),
    "legend_raiders": (
        (("stack",), ("removed_tiles",)),
        (("deck",), ("removed_cards",)),
    ),
}
"""Per game: (a pile a chance step draws from or shuffles, where its items may go instead)."""


def move_items(doc: Any, source: Path, target: Path, keep: int) -> list[Mutation]:
    """Two `set`s that leave `keep` items in the list at `source` and put the rest at the end
    of the list at `target` (so every card is still accounted for); [] if either is missing."""
    try:
        pile, other = get_node(doc, source), get_node(doc, target)
    except PathError:
        return []
    if not isinstance(pile, list) or not isinstance(other, list) or len(pile) <= keep:
        return []
    return [Mutation("set", source, pile[:keep]), Mutation("set", target, other + pile[keep:])]


def shrink_piles(rng: random.Random, doc: Any, game: str) -> list[Mutation]:
    """Piles a chance step works on shrunk to 0 or 1 items, the rest moved where they stay
    accounted for (or simply cut); LEDA's pending shuffle pointed at another pile or seat."""
    found: list[Mutation] = []
    pairs = list(PILES.get(game, ()))
    rng.shuffle(pairs)
    for source, target in pairs[: rng.choice((1, 1, 2))]:
        keep = rng.choice((0, 1, 1, 2))
        moved = move_items(doc, source, target, keep)
        if not moved or rng.random() < 0.15:
            try:
                if isinstance(get_node(doc, source), list):
                    moved = [Mutation("truncate", source, keep)]
            except PathError:
                continue
        found.extend(moved)
    pending = doc.get("pending") if isinstance(doc, dict) else None
    if game == "leda" and isinstance(pending, list) and pending and rng.random() < 0.4:
        top = len(pending) - 1
        frame = pending[top]
        if isinstance(frame, dict) and isinstance(frame.get("args"), list) and frame["args"]:
            what = rng.choice((0, 1, 2))
            found.append(Mutation("set", ("pending", top, "args", 0), what))
            if rng.random() < 0.5:
                found.append(Mutation("set", ("pending", top, "seat"), rng.choice((0, 1))))
    return found


def end_mutations(rng: random.Random, doc: Any, game: str) -> list[Mutation]:
    """Legend Raiders: `end_triggered` flipped, often with the supply of tiles exhausted (the
    stack and the Headquarters' tiles moved to the removed tiles) the way older states were."""
    if game != "legend_raiders" or not isinstance(doc, dict) or "end_triggered" not in doc:
        return []
    found = [Mutation("set", ("end_triggered",), not doc.get("end_triggered"))]
    if rng.random() < 0.6:
        stack, removed = doc.get("stack"), doc.get("removed_tiles")
        hq = doc.get("hq")
        if isinstance(stack, list) and isinstance(removed, list):
            tiles = list(stack)
            if isinstance(hq, list):
                for c, slot in enumerate(hq):
                    if isinstance(slot, dict) and isinstance(slot.get("tile"), str):
                        tiles.append(slot["tile"])
                        found.append(Mutation("set", ("hq", c, "tile"), None))
            found.append(Mutation("set", ("stack",), []))
            found.append(Mutation("set", ("removed_tiles",), removed + tiles))
    return found


def targeted(rng: random.Random, doc: Any, game: str) -> list[Mutation]:
    """One targeted edit of a game's state: shrunk chance piles, or a flipped end trigger."""
    if game == "legend_raiders" and rng.random() < 0.5:
        return end_mutations(rng, doc, game)
    return shrink_piles(rng, doc, game)
