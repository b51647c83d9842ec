"""The installed distribution is one top-level package, `boardbot`, mapping the source folders."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
PACKAGE_DIR: dict[str, str] = CONFIG["package-dir"]
SOURCE_FOLDERS = {name: folder for name, folder in PACKAGE_DIR.items() if name != "boardbot"}
BARE_NAMES = {folder for folder in SOURCE_FOLDERS.values()}
CHECKED_TREES = [*SOURCE_FOLDERS.values(), "tests", "loadtest", "fuzz", "boardbot"]


def _packages_on_disk() -> set[str]:
    found = {"boardbot"}
    for name, folder in SOURCE_FOLDERS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name, *relative)))
    return found


def test_every_package_folder_is_listed_for_installation() -> None:
    assert set(CONFIG["packages"]) == _packages_on_disk()


def test_each_mapped_folder_has_a_link_under_boardbot() -> None:
    for name, folder in SOURCE_FOLDERS.items():
        link = ROOT / "boardbot" / name.removeprefix("boardbot.")
        assert link.is_symlink(), f"boardbot/{link.name} should link to ../{folder}"
        assert link.resolve() == (ROOT / folder).resolve()


def _python_files() -> list[Path]:
    files: list[Path] = []
    for tree in CHECKED_TREES:
        base = ROOT / tree
        if base.is_symlink():
            continue
        files.extend(p for p in base.rglob("*.py") if not any(s.is_symlink() for s in p.parents))
    return files


def test_nothing_imports_a_source_folder_by_its_bare_name() -> None:
    offenders = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.split(".")[0] in BARE_NAMES:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {name}")
    assert offenders == []
