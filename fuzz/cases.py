"""In-process fuzz cases: a seed document, the mutations applied to it, and a move to try."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from boardbot.engine import CHANCE
from fuzz import values
from fuzz.mutators import (
    Mutation,
    PathIndex,
    Vocab,
    apply_all,
    build_vocab,
    index_paths,
    mutate,
    mutate_text,
    stack_size,
    targeted,
)
from fuzz.seeds import Seed, by_game

UNMUTATED_SHARE = 0.08
"""Share of cases that send a seed unchanged (a check of the harness and of the engine)."""
GENTLE_SHARE = 0.25
"""Share of mutated cases whose mutations are gentle (see `random_mutation`)."""
TARGETED_SHARE = 0.12
"""Share of cases made by a targeted edit (`mutators.targeted`: chance piles shrunk to 0 or 1
items, an end trigger flipped), half of them from a seed at a chance step."""


@dataclass
class MoveSpec:
    """The move a case tries after decoding: none, a mutated legal move's JSON, or a text.

    `pick` and `seed` say how to make it once the legal moves are known; after that, `text`
    or `base` with `mutations` hold the concrete move (what a repro file records)."""

    kind: str = "none"
    """"none", "json" or "text"."""
    pick: int = 0
    seed: int = 0
    text: str | None = None
    base: dict[str, Any] | None = None
    mutations: list[Mutation] = field(default_factory=list)
    resolved: bool = False

    def value(self) -> Any:
        """The concrete move: the text, or the base JSON with its mutations applied."""
        if self.kind == "text":
            return self.text
        return apply_all(self.base, self.mutations)

    def resolve(self, moves: list[tuple[str, Any]], doc: Any) -> None:
        """Make the concrete move from the legal moves `(notation, JSON)` of the state, with
        names drawn from those moves and the state document `doc`."""
        if self.resolved or self.kind == "none" or not moves:
            return
        rng = random.Random(self.seed)
        vocab = build_vocab([doc, *(form for _, form in moves)])
        notation, doc = moves[self.pick % len(moves)]
        if self.kind == "json":
            self.base = doc
            _, self.mutations = mutate(rng, doc, vocab, None, stack_size(rng))
        elif rng.random() < 0.2:
            self.text = values.odd_string(rng) if rng.random() < 0.5 else values.random_text(rng)
        else:
            self.text = mutate_text(rng, notation, vocab)
        self.resolved = True


@dataclass
class Case:
    """One in-process case: decode `mutations` applied to `base`, then exercise the result."""

    game: str
    seed_label: str
    base: Any
    mutations: list[Mutation]
    move: MoveSpec
    rng_seed: int
    """Seed of the determinizations, the legal moves sampled and the playout."""
    index: int = -1

    def document(self) -> Any:
        """The mutated document this case decodes."""
        return apply_all(self.base, self.mutations)


class CaseFactory:
    """Makes case `i` of a run from the run's seed alone: same seed, same cases."""

    def __init__(self, run_seed: int, seeds: list[Seed]) -> None:
        self.run_seed = run_seed
        self.seeds = seeds
        grouped = by_game(seeds)
        self.vocab: dict[str, Vocab] = {
            game: build_vocab([s.doc for s in group] + [m[1] for s in group for m in s.moves])
            for game, group in grouped.items()
        }
        self._indexes: dict[int, PathIndex] = {}
        self.chance_seeds = [n for n, s in enumerate(seeds) if s.to_move == CHANCE]

    def case(self, index: int) -> Case:
        """Case number `index`."""
        rng = random.Random(f"{self.run_seed}/inprocess/{index}")
        seed_number = rng.randrange(len(self.seeds))
        seed = self.seeds[seed_number]
        mutations: list[Mutation] = []
        if rng.random() < TARGETED_SHARE:
            if self.chance_seeds and rng.random() < 0.5:
                seed_number = rng.choice(self.chance_seeds)
                seed = self.seeds[seed_number]
            mutations = targeted(rng, seed.doc, seed.game)
            if rng.random() < 0.3:
                doc = apply_all(seed.doc, mutations)
                _, more = mutate(rng, doc, self.vocab[seed.game], index_paths(doc), 1, True)
                mutations += more
        elif rng.random() >= UNMUTATED_SHARE:
            paths = self._indexes.get(seed_number)
            if paths is None:
                paths = self._indexes[seed_number] = index_paths(seed.doc)
            gentle = rng.random() < GENTLE_SHARE
            _, mutations = mutate(
                rng, seed.doc, self.vocab[seed.game], paths, stack_size(rng), gentle
            )
        kind = rng.choices(("none", "json", "text"), (30, 35, 35))[0]
        move = MoveSpec(kind, pick=rng.randrange(2**30), seed=rng.randrange(2**62))
        return Case(seed.game, seed.label, seed.doc, mutations, move, rng.randrange(2**62), index)
