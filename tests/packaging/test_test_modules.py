"""Test modules share helpers through plain modules, never by importing each other."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _is_test_module(module: str) -> bool:
    last = module.rsplit(".", 1)[-1]
    return module.startswith("tests.") and (last == "conftest" or last.startswith("test_"))


def test_no_test_module_imports_another_or_a_conftest() -> None:
    offenders = []
    for path in TESTS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            offenders.extend(
                f"{path.relative_to(TESTS.parent)}:{node.lineno} imports {m}"
                for m in modules
                if _is_test_module(m)
            )
    assert offenders == []
