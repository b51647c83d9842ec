"""Shrinking a gRPC failure against the live server: fewer mutations, fewer fields."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from fuzz.grpc_cases import GrpcCase, StateSpec
from fuzz.grpc_client import Answer
from fuzz.mutators import apply_all
from fuzz.shrink import Budget, ddmin, reduce_json, reduce_text

INSTANT_KINDS = ("status-", "long-message", "resource-exhausted", "worker-crash", "unavailable",
                 "bad-response", "no-details", "nesting-", "tokenless-served")
"""Failure kinds one request shows at once (time-based ones are not shrunk)."""

Sender = Callable[[GrpcCase], Answer]


def shrinkable(signature: str) -> bool:
    """True for failures a single request reproduces at once."""
    return signature.startswith(INSTANT_KINDS)


def shrink_request(case: GrpcCase, signature: str, send: Sender, budget: Budget) -> GrpcCase:
    """The smallest request found that still fails with `signature`."""

    def fails(candidate: GrpcCase) -> bool:
        answer = send(candidate)
        return answer.failure is not None and answer.failure.signature() == signature

    case = copy.deepcopy(case)
    state = case.state
    if state is not None and state.raw is None and state.mutations:
        state.mutations = ddmin(
            state.mutations, lambda ms: fails(_with_state(case, mutations=ms)), budget
        )
    if state is not None and state.raw is None and not state.pad_to:
        doc = apply_all(state.base, state.mutations)
        doc = reduce_json(
            doc, lambda d: fails(_with_state(case, base=d, mutations=[])), budget
        )
        case.state = StateSpec(doc, [], state.encoding)
    case.fields = _drop_fields(case, case.fields, (), fails, budget)
    return case


def _with_state(case: GrpcCase, **changes: Any) -> GrpcCase:
    trial = copy.copy(case)
    assert case.state is not None
    trial.state = copy.copy(case.state)
    for key, value in changes.items():
        setattr(trial.state, key, value)
    return trial


def _drop_fields(
    case: GrpcCase,
    fields: dict[str, Any],
    where: tuple[str, ...],
    fails: Callable[[GrpcCase], bool],
    budget: Budget,
) -> dict[str, Any]:
    """Unset each field (and shorten long strings) while the failure persists."""
    for key in list(fields):
        value = fields[key]
        if isinstance(value, dict):
            fields[key] = _drop_fields(case, dict(value), (*where, key), fails, budget)
            continue
        if not budget.take():
            break
        trial = {k: v for k, v in fields.items() if k != key}
        if fails(_with_fields(case, where, trial)):
            fields = trial
            continue
        if isinstance(value, str) and len(value) > 64:
            fields[key] = _shorten(case, where, fields, key, fails, budget)
    return fields


def _shorten(
    case: GrpcCase,
    where: tuple[str, ...],
    fields: dict[str, Any],
    key: str,
    fails: Callable[[GrpcCase], bool],
    budget: Budget,
) -> str:
    """The string field `key` cut down while the failure persists."""
    return reduce_text(
        fields[key], lambda t: fails(_with_fields(case, where, {**fields, key: t})), budget
    )


def _with_fields(case: GrpcCase, where: tuple[str, ...], fields: dict[str, Any]) -> GrpcCase:
    trial = copy.copy(case)
    if not where:
        trial.fields = fields
        return trial
    top = copy.deepcopy(case.fields)
    node = top
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = fields
    trial.fields = top
    return trial
