"""The lock files in deps/ match pyproject.toml, and every kind of drift is caught."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from deps.lockfile import inputs_digest, lock_sets, problems, read_pins

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _texts() -> dict[str, str | None]:
    return {lock.name: lock.path.read_text() for lock in lock_sets(PYPROJECT)}


def test_the_committed_lock_files_match_pyproject() -> None:
    assert problems(PYPROJECT, _texts()) == []


def test_every_lock_file_is_hashed_and_pins_every_requirement() -> None:
    texts = _texts()
    for lock in lock_sets(PYPROJECT):
        text = texts[lock.name]
        assert text is not None
        pinned = read_pins(text)
        lines = [line for line in text.splitlines() if "==" in line and not line.startswith("#")]
        assert lines and all(line.endswith("\\") for line in lines), lock.name
        assert pinned, lock.name


def test_a_changed_requirement_is_caught() -> None:
    changed = copy.deepcopy(PYPROJECT)
    changed["project"]["dependencies"].append("attrs>=23")
    assert inputs_digest(changed) != inputs_digest(PYPROJECT)
    found = problems(changed, _texts())
    assert "deps/dev.txt was not written from this pyproject.toml's requirements" in found
    assert "deps/runtime.txt does not pin attrs (attrs>=23)" in found


def test_a_changed_extra_is_caught_in_the_development_lock_only() -> None:
    changed = copy.deepcopy(PYPROJECT)
    changed["project"]["optional-dependencies"]["dev"].append("pytest>=99")
    found = problems(changed, _texts())
    assert any(p.startswith("deps/dev.txt pins pytest==") and "pytest>=99" in p for p in found)
    assert not any("runtime.txt pins" in p for p in found)


def _edited(name: str, old: str, new: str) -> dict[str, str | None]:
    texts = _texts()
    text = texts[name]
    assert text is not None and old in text
    texts[name] = text.replace(old, new, 1)
    return texts


def test_a_runtime_pin_that_differs_from_the_development_one_is_caught() -> None:
    version = sorted(read_pins(_texts()["runtime"] or "")["orjson"])[0]
    texts = _edited("runtime", f"orjson=={version}", "orjson==3.9.0")
    found = problems(PYPROJECT, texts)
    assert f"deps/runtime.txt pins orjson at 3.9.0, deps/dev.txt at {version}" in found


def test_a_pin_outside_its_requirement_is_caught() -> None:
    version = sorted(read_pins(_texts()["dev"] or "")["grpcio-tools"])[0]
    texts = _edited("dev", f"grpcio-tools=={version}", "grpcio-tools==1.0.0")
    found = problems(PYPROJECT, texts)
    assert any(p.startswith("deps/dev.txt pins grpcio-tools==1.0.0, outside") for p in found)


@pytest.mark.parametrize("name", ["dev", "runtime", "build"])
def test_a_missing_or_unhashed_lock_file_is_caught(name: str) -> None:
    texts = _texts()
    texts[name] = None
    assert f"deps/{name}.txt is missing" in problems(PYPROJECT, texts)
    texts = _texts()
    text = texts[name]
    assert text is not None
    texts[name] = "\n".join(line for line in text.splitlines() if "--hash=" not in line)
    assert f"deps/{name}.txt has no hashes" in problems(PYPROJECT, texts)
