"""Repro files of the web phase, and their replay against a fresh server and gateway.

A web repro holds the request's bytes as sent (zlib-compressed base64: huge bodies are
repetitive) with a readable preview, what the answer had to be, and a probe's parameters.
`python -m fuzz replay FILE` hands a web repro to `replay` here; others go to fuzz.replay.
"""

from __future__ import annotations

import base64
import json
import re
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fuzz.repro import replay_command, repro_path
from fuzz.web_cases import WebCase
from fuzz.web_judge import WebFailure
from fuzz.web_run import run_case
from fuzz.web_target import WebSettings, WebTarget

SAME, DIFFERENT, PASSES = "reproduced", "fails differently", "no longer fails"


def write(
    directory: Path,
    case: WebCase,
    failure: WebFailure,
    signature: str,
    occurrences: int,
    run_seed: int,
    settings: WebSettings,
    found_after_s: float,
) -> Path:
    """Write the repro of a web failure class; returns its path."""
    path = repro_path(directory, "web", failure.kind, signature)
    body: dict[str, Any] = {
        "phase": "web",
        "failure": failure.to_json(),
        "signature": signature,
        "occurrences": occurrences,
        "run_seed": run_seed,
        "case": case.index,
        "found_after_s": round(found_after_s, 2),
        "category": case.category,
        "label": case.label,
        "request_preview": case.data[:400].decode("latin-1"),
        "request_bytes": len(case.data),
        "request": base64.b64encode(zlib.compress(case.data, 9)).decode("ascii"),
        "half_close": case.half_close,
        "expect": sorted(case.expect),
        "allowed_5xx": sorted(case.allowed_5xx),
        "outside": case.outside,
        "page": case.page,
        "statusless_ok": case.statusless_ok,
        "params": case.params,
        "server": settings.to_json(),
        "replay": replay_command(path),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    return path


def read(body: dict[str, Any]) -> WebCase:
    """The case of a web repro."""
    return WebCase(
        body.get("case", -1), body["category"], body["label"],
        zlib.decompress(base64.b64decode(body["request"])), body["half_close"],
        frozenset(body["expect"]), frozenset(body["allowed_5xx"]), body["outside"],
        body["page"], body["statusless_ok"], body["params"],
    )


def is_web(path: Path) -> bool:
    """True for a repro file of the web phase."""
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(body, dict) and body.get("phase") == "web"


def replay_any(path: Path, say: Callable[[str], None] = print) -> int:
    """Replay a repro of any phase: exit status 1 while it still fails."""
    if is_web(path):
        return replay(path, say)
    from fuzz.replay import replay as replay_other

    return replay_other(path, say)


def replay(path: Path, say: Callable[[str], None] = print) -> int:
    """Run a web repro again against a fresh server and gateway."""
    body = json.loads(path.read_text(encoding="utf-8"))
    case = read(body)
    say(f"{path}: web failure {body['signature']}")
    with tempfile.TemporaryDirectory(prefix="fuzz-replay-") as tmp:
        target = WebTarget(WebSettings(**body["server"]), Path(tmp))
        target.start()
        try:
            result = run_case(target, case)
        finally:
            target.stop()
    signatures = [_class(f.signature()) for f in result.failures]
    if _class(body["signature"]) in signatures:
        verdict = SAME
    else:
        verdict = DIFFERENT if signatures else PASSES
    detail = "; ".join(f"{f.signature()}: {f.message[:200]}" for f in result.failures)
    say(f"  {verdict}: outcome {result.outcome}" + (f"; {detail}" if detail else "")
        + (f" ({result.measured})" if result.measured and case.category in ("idle", "stream")
           else ""))
    return 0 if verdict == PASSES else 1


def _class(signature: str) -> str:
    """A signature without line numbers (code edited since the repro was written moves them)."""
    return re.sub(r":\d+(?=\||$)", "", signature)
