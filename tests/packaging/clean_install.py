"""Build the boardbot wheel from a source tree and install it into a clean virtual environment.

Fast and offline: the wheel is built with this environment's build backend (no build isolation),
the clean environment has no pip, and the wheel goes in without its dependencies. The runtime
dependencies are made visible instead of installed: a folder of links to exactly the
distributions pyproject.toml's `dependencies` need (and theirs), listed by a `.pth` file of the
clean environment. Only the clean site-packages is a site directory, so the development
install of boardbot (an editable finder behind a `.pth` file) does not leak in, and neither do
the development tools.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def _run(command: list[str | Path], *, env: dict[str, str], cwd: Path | None = None) -> str:
    result = subprocess.run(
        [str(part) for part in command], capture_output=True, text=True, env=env, cwd=cwd
    )
    if result.returncode != 0:
        raise AssertionError(
            f"{' '.join(map(str, command))} failed ({result.returncode}):\n"
            f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}"
        )
    return result.stdout


def clean_env() -> dict[str, str]:
    """This process's environment without what would put other code on a child's path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def without_rust(env: dict[str, str]) -> dict[str, str]:
    """`env` with no folder on PATH that holds cargo or rustc: as on a machine without Rust."""
    folders = env.get("PATH", "").split(os.pathsep)
    kept = [
        folder
        for folder in folders
        if not any((Path(folder) / tool).exists() for tool in ("cargo", "rustc"))
    ]
    return env | {"PATH": os.pathsep.join(kept)}


def build_wheel(source: Path, out: Path, *, native: bool = False) -> Path:
    """`pip wheel --no-deps --no-build-isolation` of the source tree; the wheel's path.

    With `native`, as the environment allows (cargo on PATH compiles the native core in); without,
    as on a machine without Rust, where the build goes on without the native core.
    """
    out.mkdir(parents=True, exist_ok=True)
    env = clean_env() | {"PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "--no-cache-dir",
            "-w",
            out,
            source,
        ],
        env=env if native else without_rust(env),
        cwd=out,
    )
    wheels = sorted(out.glob("boardbot-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def runtime_distributions(pyproject: Path) -> set[str]:
    """The installed distributions the project's runtime dependencies need, transitively."""
    pending = list(tomllib.loads(pyproject.read_text())["project"]["dependencies"])
    seen: set[str] = set()
    while pending:
        requirement = Requirement(pending.pop())
        name = canonicalize_name(requirement.name)
        if name in seen:
            continue
        if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
            continue
        seen.add(name)
        pending.extend(importlib.metadata.distribution(name).requires or [])
    return seen


def link_distributions(names: set[str], folder: Path) -> None:
    """Link the top-level entries (packages, modules, metadata) of each distribution."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        distribution = importlib.metadata.distribution(name)
        base = Path(str(distribution.locate_file("")))
        tops = {Path(str(f)).parts[0] for f in distribution.files or []}
        for top in tops - {".."}:
            if (base / top).exists() and not (folder / top).exists():
                (folder / top).symlink_to(base / top)


class CleanVenv:
    """A virtual environment with nothing but the wheel and the linked runtime dependencies."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.python = path / "bin" / "python"

    def create(self, wheel: Path, pyproject: Path) -> None:
        """Create it, install the wheel, and list the runtime dependencies' links."""
        _run([sys.executable, "-m", "venv", "--without-pip", self.path], env=clean_env())
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "--python",
                self.python,
                "install",
                "-q",
                "--no-deps",
                "--no-index",
                "--no-cache-dir",
                wheel,
            ],
            env=clean_env() | {"PIP_DISABLE_PIP_VERSION_CHECK": "1"},
            cwd=self.path,
        )
        links = self.path / "runtime-dependencies"
        link_distributions(runtime_distributions(pyproject), links)
        (self.site_packages / "runtime-dependencies.pth").write_text(f"{links}\n")

    @property
    def site_packages(self) -> Path:
        """The environment's site-packages, as its own interpreter names it."""
        code = "import sysconfig; print(sysconfig.get_path('purelib'))"
        return Path(_run([self.python, "-I", "-c", code], env=clean_env()).strip())

    def run_python(self, code: str) -> str:
        """Run code in isolated mode (no script folder, no PYTHON* variables); its stdout."""
        return _run([self.python, "-I", "-c", code], env=without_rust(clean_env()), cwd=self.path)

    def run_json(self, code: str) -> object:
        """Run code that prints one JSON document; the document."""
        return json.loads(self.run_python(code))


IMPORT_EVERYTHING = r"""
import importlib, json, pkgutil, sys, traceback
import boardbot
report = {"modules": {}, "errors": {}, "path": sys.path}
for info in pkgutil.walk_packages(boardbot.__path__, "boardbot.",
                                  onerror=lambda name: report["errors"].setdefault(name, "walk")):
    try:
        module = importlib.import_module(info.name)
    except BaseException:
        report["errors"][info.name] = traceback.format_exc(limit=3)
    else:
        report["modules"][info.name] = getattr(module, "__file__", None)
report["modules"]["boardbot"] = boardbot.__file__
for name in ("pytest", "boardbot_native", "grpc_tools", "ray"):
    try:
        importlib.import_module(name)
    except ImportError:
        pass
    else:
        report.setdefault("leaked", []).append(name)
print(json.dumps(report))
"""
"""Prints every module under boardbot with its file, import failures, and development-only
modules that should not be importable but are."""
