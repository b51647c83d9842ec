"""Repro files: one small JSON file per failure class, with the command that replays it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from fuzz import tagged
from fuzz.cases import Case, MoveSpec
from fuzz.grpc_cases import GrpcCase, StateSpec
from fuzz.mutators import Mutation

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DIR = REPO_ROOT / "fuzz-repros"


def repro_path(directory: Path, phase: str, kind: str, signature: str) -> Path:
    """Where the repro of a failure class goes: phase, kind and a hash of the class."""
    digest = hashlib.sha1(signature.encode("utf-8", "replace")).hexdigest()[:10]
    return directory / f"{phase}-{kind}-{digest}.json"


def replay_command(path: Path) -> str:
    """The one-line command that replays a repro file."""
    try:
        shown = path.resolve().relative_to(Path.cwd())
    except ValueError:
        shown = path
    return f"python -m fuzz replay {shown}"


def _write(path: Path, body: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    body["replay"] = replay_command(path)
    path.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    return path


def _mutation_json(m: Mutation) -> dict[str, Any]:
    return {"op": m.op, "path": list(m.path), "arg": tagged.encode(m.arg),
            "readable": m.describe()}


def _mutation_from(data: dict[str, Any]) -> Mutation:
    return Mutation(data["op"], tuple(data["path"]), tagged.decode(data["arg"]))


# -- in-process -------------------------------------------------------------------------------


def write_case(
    directory: Path,
    case: Case,
    doc: Any,
    failure: dict[str, Any],
    signature: str,
    occurrences: int,
    run_seed: int,
    settings: dict[str, Any],
) -> Path:
    """Write the repro of an in-process failure; returns its path."""
    move = case.move
    body = {
        "phase": "inprocess",
        "failure": failure,
        "signature": signature,
        "occurrences": occurrences,
        "game": case.game,
        "seed_document": case.seed_label,
        "run_seed": run_seed,
        "case": case.index,
        "mutations": [_mutation_json(m) for m in case.mutations],
        "state": tagged.encode(doc),
        "move": {
            "kind": move.kind, "pick": move.pick, "seed": move.seed, "resolved": move.resolved,
            "text": tagged.encode(move.text),
            "base": tagged.encode(move.base),
            "mutations": [_mutation_json(m) for m in move.mutations],
            "value": tagged.encode(move.value()) if move.resolved else None,
        },
        "rng_seed": case.rng_seed,
        "settings": settings,
    }
    path = repro_path(directory, "inprocess", str(failure["kind"]), signature)
    return _write(path, body)


def read_case(body: dict[str, Any]) -> tuple[Case, Any]:
    """The case of an in-process repro and the document it decodes."""
    data = body["move"]
    move = MoveSpec(
        kind=data["kind"], pick=data["pick"], seed=data["seed"],
        text=tagged.decode(data["text"]), base=tagged.decode(data["base"]),
        mutations=[_mutation_from(m) for m in data["mutations"]], resolved=data["resolved"],
    )
    doc = tagged.decode(body["state"])
    case = Case(body["game"], body["seed_document"], doc, [], move, body["rng_seed"],
                body.get("case", -1))
    return case, doc


# -- gRPC -------------------------------------------------------------------------------------


def write_request(
    directory: Path,
    case: GrpcCase,
    failure: dict[str, Any],
    signature: str,
    occurrences: int,
    run_seed: int,
    server: dict[str, Any],
) -> Path:
    """Write the repro of a gRPC failure; returns its path."""
    state = case.state
    body = {
        "phase": "grpc",
        "failure": failure,
        "signature": signature,
        "occurrences": occurrences,
        "method": case.method,
        "timeout_s": case.timeout,
        "request": tagged.encode(case.fields),
        "state": None if state is None else {
            "document": tagged.encode(state.base) if state.raw is None else None,
            "mutations": [_mutation_json(m) for m in state.mutations],
            "encoding": state.encoding,
            "raw": tagged.encode(state.raw),
            "pad_to": state.pad_to,
        },
        "game": case.game,
        "raw_request": tagged.encode(case.raw),
        "tokenless": case.tokenless,
        "expect": case.expect,
        "seed_document": case.seed_label,
        "run_seed": run_seed,
        "request_number": case.index,
        "server": server,
    }
    path = repro_path(directory, "grpc", str(failure["kind"]), signature)
    return _write(path, body)


def read_request(body: dict[str, Any]) -> GrpcCase:
    """The request of a gRPC repro."""
    state = None
    data = body.get("state")
    if data is not None:
        state = StateSpec(
            base=tagged.decode(data["document"]),
            mutations=[_mutation_from(m) for m in data["mutations"]],
            encoding=data["encoding"], raw=tagged.decode(data["raw"]), pad_to=data["pad_to"],
        )
    return GrpcCase(
        body.get("request_number", -1), body["method"], tagged.decode(body["request"]), state,
        body["timeout_s"], body.get("game", ""), body.get("seed_document", ""),
        raw=tagged.decode(body.get("raw_request")), tokenless=body.get("tokenless", False),
        expect=body.get("expect", ""),
    )


def load(path: Path) -> dict[str, Any]:
    """A repro file's JSON object."""
    body = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(body, dict) or body.get("phase") not in ("inprocess", "grpc"):
        raise ValueError("not a fuzz repro")
    return body
