"""Shrinking an in-process failure to its cause, in a watchdog child."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from fuzz.cases import Case
from fuzz.pipeline import CaseResult
from fuzz.sandbox import Child
from fuzz.shrink import Budget, ddmin, reduce_json, reduce_text

SLOW_KINDS = ("hang", "slow", "child-died")
"""Failures whose every test costs seconds: only their mutations are minimised."""


@dataclass
class Shrunk:
    """A failing case made small: the case (its move minimised), the document it decodes,
    and the result of running it."""

    case: Case
    doc: Any
    result: CaseResult
    tests: int


def shrink_case(case: Case, signature: str, child: Child, budget: Budget) -> Shrunk:
    """The smallest case found that still fails with `signature`."""
    case = copy.copy(case)
    case.move = copy.deepcopy(case.move)
    kind = signature.split("|", 1)[0]

    def fails_with(candidate: Case, doc: Any) -> bool:
        result = child.run(candidate, doc)
        return result.failure is not None and result.failure.signature() == signature

    case.mutations = ddmin(
        case.mutations, lambda ms: fails_with(case, _doc(case, ms)), budget
    )
    move = case.move
    if move.resolved and move.kind == "json":
        move.mutations = ddmin(move.mutations, lambda ms: _with_move_mutations(
            case, ms, fails_with), budget)
    elif move.resolved and move.kind == "text" and move.text and kind not in SLOW_KINDS:
        move.text = reduce_text(move.text, lambda t: _with_text(case, t, fails_with), budget)
    doc = case.document()
    if kind not in SLOW_KINDS:
        doc = reduce_json(doc, lambda d: fails_with(case, d), budget)
    final = child.run(case, doc)
    return Shrunk(case, doc, final, budget.used)


def _doc(case: Case, mutations: list[Any]) -> Any:
    trial = copy.copy(case)
    trial.mutations = mutations
    return trial.document()


def _with_move_mutations(case: Case, mutations: list[Any], fails_with: Any) -> bool:
    trial = copy.copy(case)
    trial.move = copy.copy(case.move)
    trial.move.mutations = mutations
    return bool(fails_with(trial, trial.document()))


def _with_text(case: Case, text: str, fails_with: Any) -> bool:
    trial = copy.copy(case)
    trial.move = copy.copy(case.move)
    trial.move.text = text
    return bool(fails_with(trial, trial.document()))
