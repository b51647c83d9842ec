"""The shrinkers: a planted failure comes back as just its cause."""

from __future__ import annotations

import random
from typing import Any

from fuzz.case_shrink import shrink_case
from fuzz.cases import Case, MoveSpec
from fuzz.mutators import Mutation, build_vocab, get_node, index_paths, mutate
from fuzz.pipeline import CaseResult, Failure
from fuzz.seeds import corpus_seeds
from fuzz.shrink import Budget, ddmin, reduce_json, reduce_text

CAUSE = Mutation("set", ("players", 0, "specials"), 2**53 + 1)


def test_ddmin_finds_the_two_items_that_matter() -> None:
    budget = Budget(1000, 30)
    found = ddmin(list(range(40)), lambda xs: 3 in xs and 31 in xs, budget)
    assert found == [3, 31]
    assert budget.used < 200


def test_ddmin_keeps_what_it_has_when_the_budget_ends() -> None:
    found = ddmin(list(range(40)), lambda xs: 3 in xs, Budget(1, 30))
    assert 3 in found


def test_reduce_json_keeps_only_the_path_to_the_cause() -> None:
    doc = corpus_seeds()[0].doc
    planted = dict(doc, players=[dict(doc["players"][0], specials=2**53 + 1), doc["players"][1]])

    def fails(candidate: Any) -> bool:
        try:
            return bool(get_node(candidate, ("players", 0, "specials")) == 2**53 + 1)
        except LookupError:
            return False

    assert reduce_json(planted, fails, Budget(5000, 60)) == {"players": [{"specials": 2**53 + 1}]}


def test_reduce_text_cuts_to_the_part_that_matters() -> None:
    text = "x" * 5000 + "BOOM" + "y" * 5000
    assert reduce_text(text, lambda t: "BOOM" in t, Budget(5000, 60)) == "BOOM"


class PlantedChild:
    """Stands in for the watchdog child: a case fails when players[0].specials is huge."""

    def __init__(self) -> None:
        self.runs = 0

    def run(self, case: Case, doc: Any = None) -> CaseResult:
        self.runs += 1
        doc = case.document() if doc is None else doc
        try:
            value = get_node(doc, ("players", 0, "specials"))
        except LookupError:
            return CaseResult("rejected")
        if isinstance(value, int) and value > 2**40:
            return CaseResult("failure", Failure("hang", "apply legal", "", "planted"))
        return CaseResult("ok")


def test_a_planted_failure_is_shrunk_to_its_cause() -> None:
    seed = corpus_seeds()[0]
    vocab = build_vocab([seed.doc])
    rng = random.Random(11)
    _, noise = mutate(rng, seed.doc, vocab, index_paths(seed.doc), 6)
    noise = [m for m in noise if m.path[:3] != CAUSE.path and m.path[:1] != ("players",)]
    mutations = [*noise[:3], CAUSE, *noise[3:]]
    case = Case("leda", seed.label, seed.doc, mutations, MoveSpec(), 1)
    child = PlantedChild()
    assert child.run(case).outcome == "failure"
    signature = "hang|apply legal||"
    shrunk = shrink_case(case, signature, child, Budget(500, 60))  # type: ignore[arg-type]
    assert shrunk.case.mutations == [CAUSE]
    assert shrunk.result.failure is not None
    assert shrunk.result.failure.signature() == signature
    # A hang costs seconds per test: only the mutations are minimised, the state stays whole.
    assert shrunk.doc == apply_whole(seed.doc)


def apply_whole(doc: Any) -> Any:
    """The seed document with just the planted cause."""
    from fuzz.mutators import apply_mutation

    return apply_mutation(doc, CAUSE)


def test_an_exception_is_also_shrunk_inside_the_document() -> None:
    seed = corpus_seeds()[0]
    case = Case("leda", seed.label, seed.doc, [CAUSE], MoveSpec(), 1)

    class ExceptionChild(PlantedChild):
        def run(self, case: Case, doc: Any = None) -> CaseResult:
            result = super().run(case, doc)
            if result.failure is not None:
                result.failure = Failure("exception", "decode", "TypeError", "planted")
            return result

    shrunk = shrink_case(case, "exception|decode|TypeError|", ExceptionChild(),  # type: ignore[arg-type]
                         Budget(5000, 60))
    assert shrunk.doc == {"players": [{"specials": 2**53 + 1}]}
