"""The locked Python dependencies: write them from pyproject.toml, and check they still match.

Three hashed requirement files, each installable with `pip install --require-hashes -r`:

- `deps/build.txt`: the build backend (`[build-system] requires`);
- `deps/runtime.txt`: the package's own dependencies, what the image installs;
- `deps/dev.txt`: all of these and every extra (`dev`, `ladder`, `ray`), what `make run` and
  `make test` install. The build and runtime pins are the same versions as the development ones.

`python -m deps.lockfile write` resolves them with uv (for every platform and Python >= 3.11);
`python -m deps.lockfile check` (part of `make test`) fails when pyproject.toml's requirements
changed since, or when a pin no longer satisfies them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "deps"
PYTHON = "3.11"
HEADER = "# inputs-sha256: "
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;\\]+)")


@dataclass(frozen=True)
class LockSet:
    """One lock file and the requirements of pyproject.toml it pins."""

    name: str
    requirements: tuple[str, ...]
    extras: tuple[str, ...]

    @property
    def path(self) -> Path:
        """The lock file."""
        return FOLDER / f"{self.name}.txt"


def lock_sets(pyproject: dict[str, object]) -> list[LockSet]:
    """The three lock files of a parsed pyproject.toml, the development one first."""
    project = pyproject["project"]
    build = pyproject["build-system"]
    assert isinstance(project, dict) and isinstance(build, dict)
    extras = tuple(sorted(project.get("optional-dependencies", {})))
    runtime = tuple(project["dependencies"])
    backend = tuple(build["requires"])
    everything = (
        runtime
        + tuple(r for extra in extras for r in project["optional-dependencies"][extra])
        + backend
    )
    return [
        LockSet("dev", everything, extras),
        LockSet("runtime", runtime, ()),
        LockSet("build", backend, ()),
    ]


def inputs_digest(pyproject: dict[str, object]) -> str:
    """The sha256 of everything pyproject.toml asks to be installed, as canonical JSON."""
    project = pyproject["project"]
    build = pyproject["build-system"]
    assert isinstance(project, dict) and isinstance(build, dict)
    inputs = {
        "build": build["requires"],
        "dependencies": project["dependencies"],
        "optional-dependencies": project.get("optional-dependencies", {}),
        "requires-python": project.get("requires-python"),
    }
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def read_pins(text: str) -> dict[str, set[Version]]:
    """The `name==version` pins of a requirements file by canonical name (several where
    environment markers pin one version per Python or platform)."""
    pins: dict[str, set[Version]] = {}
    for line in text.splitlines():
        found = PIN.match(line)
        if found:
            pins.setdefault(canonicalize_name(found.group(1)), set()).add(Version(found.group(3)))
    return pins


def problems(pyproject: dict[str, object], texts: dict[str, str | None]) -> list[str]:
    """Why the lock files (their texts by set name, None when missing) do not match."""
    found: list[str] = []
    digest = inputs_digest(pyproject)
    pins_of: dict[str, dict[str, set[Version]]] = {}
    for lock in lock_sets(pyproject):
        where = f"deps/{lock.name}.txt"
        text = texts.get(lock.name)
        if text is None:
            found.append(f"{where} is missing")
            continue
        if f"{HEADER}{digest}" not in text.splitlines():
            found.append(f"{where} was not written from this pyproject.toml's requirements")
        if "--hash=sha256:" not in text:
            found.append(f"{where} has no hashes")
        pins = pins_of[lock.name] = read_pins(text)
        for raw in lock.requirements:
            requirement = Requirement(raw)
            environments = [{"extra": extra} for extra in ("", *lock.extras)]
            if requirement.marker and not any(
                requirement.marker.evaluate(env) for env in environments
            ):
                continue
            name = canonicalize_name(requirement.name)
            if name not in pins:
                found.append(f"{where} does not pin {requirement.name} ({raw})")
            else:
                found.extend(
                    f"{where} pins {requirement.name}=={version}, outside {raw}"
                    for version in sorted(pins[name])
                    if not requirement.specifier.contains(version, prereleases=True)
                )
    dev = pins_of.get("dev", {})
    for subset in ("runtime", "build"):
        for pinned, versions in sorted(pins_of.get(subset, {}).items()):
            if pinned in dev and dev[pinned] != versions:
                found.append(
                    f"deps/{subset}.txt pins {pinned} at {_listed(versions)}, "
                    f"deps/dev.txt at {_listed(dev[pinned])}"
                )
    return found


def _listed(versions: set[Version]) -> str:
    return ", ".join(str(v) for v in sorted(versions))


def _compile(inputs: list[str], out: Path, constraints: Path | None, digest: str) -> None:
    command = [
        sys.executable, "-m", "uv", "pip", "compile", *inputs,
        "--universal", "--python-version", PYTHON, "--generate-hashes",
        "--no-header", "--quiet", "--output-file", str(out),
    ]  # fmt: skip
    if constraints is not None:
        command += ["--constraint", str(constraints)]
    subprocess.run(command, check=True, cwd=ROOT)
    body = out.read_text()
    out.write_text(
        "# Written by `make lock` (python -m deps.lockfile write) from pyproject.toml; "
        "do not edit.\n"
        f"{HEADER}{digest}\n{body}"
    )


def write(pyproject: dict[str, object]) -> None:
    """Resolve and write the three lock files."""
    digest = inputs_digest(pyproject)
    dev, runtime, build = lock_sets(pyproject)
    extras = [arg for extra in dev.extras for arg in ("--extra", extra)]
    with tempfile.TemporaryDirectory() as folder:
        backend = Path(folder) / "build-system.in"
        backend.write_text("\n".join(build.requirements) + "\n")
        _compile(["pyproject.toml", str(backend), *extras], dev.path, None, digest)
        _compile(["pyproject.toml"], runtime.path, dev.path, digest)
        _compile([str(backend)], build.path, dev.path, digest)


def main(argv: list[str] | None = None) -> int:
    """`write` the lock files or `check` them against pyproject.toml."""
    parser = argparse.ArgumentParser(prog="python -m deps.lockfile", description=__doc__)
    parser.add_argument("action", choices=["write", "check"])
    args = parser.parse_args(argv)
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    if args.action == "write":
        write(pyproject)
    texts = {
        lock.name: lock.path.read_text() if lock.path.is_file() else None
        for lock in lock_sets(pyproject)
    }
    found = problems(pyproject, texts)
    for problem in found:
        print(f"lock: {problem}", file=sys.stderr)
    if found:
        print("lock: run `make lock` to write the lock files again", file=sys.stderr)
        return 1
    print("the lock files match pyproject.toml")
    return 0


if __name__ == "__main__":
    sys.exit(main())
