"""The files a Dockerfile stage's COPY lines put into the image, assembled without Docker.

There is no container engine in the test suite, so tests/packaging/test_container_build.py
rebuilds the build stage's source tree by Docker's rules and installs from it. The rules
followed here are Docker's for the features this project's Dockerfile and .dockerignore use;
anything else (ADD, heredocs, variables in paths, `--parents`, `--exclude`, another escape
character) is refused with `Unsupported` rather than guessed.

.dockerignore (moby/patternmatcher, the matcher of `docker build` and BuildKit):

- one pattern a line; lines starting with `#` are comments, blank lines are skipped, each line
  is trimmed, then cleaned like a path (`./a//b/` is `a/b`, a leading `/` is dropped);
- patterns are anchored at the context root: `build` is `./build` only, never `core/build`;
- `*` is any run of characters but `/`, `?` one character but `/`, `[...]` a class, `\\` escapes
  the next character, and `**` any number of whole directories, none included (`**/x` is `x`
  at any depth, `a/**` everything under `a`);
- a pattern that matches a directory matches everything below it;
- `!pattern` takes back what earlier patterns excluded, and the last pattern that matches a
  path decides.

COPY (`COPY [--chown=..] [--chmod=..] [--link] <src>... <dest>`, or the JSON form):

- `--from=` copies from another stage or image, not from the context: skipped here;
- sources are paths in the context (wildcards as Go's `filepath.Match`), after .dockerignore:
  a source that is missing or ignored fails the build;
- a directory source copies its contents, not the directory itself; symbolic links inside it
  are copied as links;
- a relative destination is relative to the WORKDIR in effect; a destination ending in `/`, or
  any destination of several sources, is a directory; a single file to a destination without
  `/` is written at that path (into it when it is an existing directory).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path


class Unsupported(ValueError):
    """A Dockerfile or .dockerignore feature this emulation does not implement."""


class BuildError(ValueError):
    """What `docker build` would fail with (a COPY source missing from the context)."""


# ---- .dockerignore ----


def _clean(path: str) -> str:
    """Go's filepath.Clean of a context path, without a leading `/` ('' for the root)."""
    cleaned = posixpath.normpath(path) if path else "."
    cleaned = cleaned.lstrip("/")
    return "" if cleaned in (".", "") else cleaned


def _glob_regex(pattern: str, *, double_star: bool) -> str:
    """The regular expression of a pattern (Docker's conversion; `**` only if `double_star`)."""
    out = ["^"]
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        i += 1
        if ch == "*":
            if double_star and i < len(pattern) and pattern[i] == "*":
                i += 1
                if i < len(pattern) and pattern[i] == "/":
                    i += 1
                out.append(".*" if i == len(pattern) else "(.*/)?")
            else:
                out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "\\":
            if i < len(pattern):
                out.append(re.escape(pattern[i]))
                i += 1
            else:
                out.append(re.escape("\\"))
        elif ch == "[":
            end = pattern.find("]", i)
            if end < 0:
                raise Unsupported(f"unterminated character class in {pattern!r}")
            out.append("[" + pattern[i:end] + "]")
            i = end + 1
        else:
            out.append(re.escape(ch))
    out.append("$")
    return "".join(out)


@dataclass(frozen=True)
class IgnorePattern:
    """One .dockerignore line: the cleaned pattern and whether it is an exception (`!`)."""

    pattern: str
    exception: bool
    regex: re.Pattern[str] = field(compare=False, repr=False)

    @classmethod
    def parse(cls, line: str) -> IgnorePattern | None:
        """The pattern of a line, or None for a comment or a blank line."""
        text = line.strip()
        if not text or text.startswith("#"):
            return None
        exception = text.startswith("!")
        if exception:
            text = text[1:].strip()
        cleaned = _clean(text)
        if not cleaned:
            return None
        return cls(cleaned, exception, re.compile(_glob_regex(cleaned, double_star=True)))

    def matches(self, path: str) -> bool:
        """The path, or a directory above it, matches the pattern."""
        parts = path.split("/")
        return any(self.regex.match("/".join(parts[:n])) for n in range(1, len(parts) + 1))


class Dockerignore:
    """The patterns of a .dockerignore file, in order."""

    def __init__(self, text: str) -> None:
        if text.startswith("\ufeff"):
            text = text[1:]
        parsed = (IgnorePattern.parse(line) for line in text.splitlines())
        self.patterns = [p for p in parsed if p is not None]

    def ignores(self, path: str) -> bool:
        """Whether the context path (relative, `/`-separated) is left out of the context."""
        path = _clean(path)
        ignored = False
        for pattern in self.patterns:
            if pattern.exception == ignored and pattern.matches(path):
                ignored = not pattern.exception
        return ignored

    @property
    def has_exceptions(self) -> bool:
        """Whether some `!` line may bring back a path below an ignored directory."""
        return any(p.exception for p in self.patterns)


def context_entries(root: Path, ignore: Dockerignore) -> dict[str, Path]:
    """Every path the build context holds (files, links and directories), by context path.

    A directory is in the context when it is not ignored or when something below it is
    brought back by an exception; links are entries, never followed.
    """
    entries: dict[str, Path] = {}
    for current, dirs, files in os.walk(root):
        base = Path(current)
        rel_base = base.relative_to(root).as_posix()
        rel_base = "" if rel_base == "." else rel_base
        kept_dirs = []
        for name in sorted(dirs):
            rel = posixpath.join(rel_base, name) if rel_base else name
            if (base / name).is_symlink():
                if not ignore.ignores(rel):
                    entries[rel] = base / name
            elif not ignore.ignores(rel):
                entries[rel] = base / name
                kept_dirs.append(name)
            elif ignore.has_exceptions:
                kept_dirs.append(name)
        dirs[:] = kept_dirs
        for name in files:
            rel = posixpath.join(rel_base, name) if rel_base else name
            if not ignore.ignores(rel):
                entries[rel] = base / name
                parent = posixpath.dirname(rel)
                while parent and parent not in entries:
                    entries[parent] = root / parent
                    parent = posixpath.dirname(parent)
    return entries


# ---- Dockerfile ----


@dataclass(frozen=True)
class Instruction:
    """One Dockerfile instruction, continuation lines joined, with its first line's number."""

    keyword: str
    arguments: str
    line: int


def instructions(text: str) -> list[Instruction]:
    """The instructions of a Dockerfile, comments and line continuations removed."""
    lines = text.splitlines()
    for line in lines:
        stripped = line.strip()
        if not stripped.startswith("#"):
            break
        directive = re.match(r"#\s*escape\s*=\s*(\S)", stripped, re.IGNORECASE)
        if directive and directive.group(1) != "\\":
            raise Unsupported(f"escape character {directive.group(1)!r}")
    result: list[Instruction] = []
    pending: list[str] = []
    start = 0
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not pending and not stripped:
            continue
        if stripped.startswith("#"):
            continue
        if not pending:
            start = number
        if stripped.endswith("\\"):
            pending.append(stripped[:-1])
            continue
        pending.append(stripped)
        joined = " ".join(part.strip() for part in pending if part.strip())
        pending = []
        keyword, _, arguments = joined.partition(" ")
        if re.search(r"<<-?['\"]?[A-Za-z_]", arguments):
            raise Unsupported(f"line {start}: heredocs")
        result.append(Instruction(keyword.upper(), arguments.strip(), start))
    if pending:
        raise Unsupported("the Dockerfile ends inside a continued line")
    return result


@dataclass
class Stage:
    """A build stage: its base image or stage, its name and its instructions."""

    base: str
    name: str | None
    instructions: list[Instruction]


def stages(text: str) -> list[Stage]:
    """The stages of a Dockerfile, in order."""
    found: list[Stage] = []
    for instruction in instructions(text):
        if instruction.keyword == "FROM":
            words = [w for w in instruction.arguments.split() if not w.startswith("--")]
            name = words[2] if len(words) == 3 and words[1].lower() == "as" else None
            found.append(Stage(words[0], name, []))
        elif instruction.keyword == "ARG" and not found:
            continue
        elif not found:
            raise BuildError(f"line {instruction.line}: {instruction.keyword} before FROM")
        else:
            found[-1].instructions.append(instruction)
    return found


@dataclass(frozen=True)
class Copy:
    """A COPY from the build context: its sources, its absolute destination, its line."""

    sources: list[str]
    destination: str
    line: int


COPY_FLAGS_IGNORED = ("--chown", "--chmod", "--link")
"""Flags that change ownership, permissions or layering only, not which files are copied."""


def _copy_words(instruction: Instruction) -> tuple[dict[str, str], list[str]]:
    words = instruction.arguments.split()
    flags: dict[str, str] = {}
    while words and words[0].startswith("--"):
        name, _, value = words.pop(0).partition("=")
        flags[name] = value
    rest = " ".join(words)
    if rest.startswith("["):
        paths = json.loads(rest)
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            raise BuildError(f"line {instruction.line}: bad JSON form")
        return flags, paths
    return flags, words


def stage_copies(text: str, stage: str, until: str | None = None) -> tuple[list[Copy], str]:
    """The context COPY lines of a stage (and the stages it builds on), and its last WORKDIR.

    With `until`, only those before the first RUN that contains it, and the WORKDIR there.
    """
    by_name = {s.name: s for s in stages(text) if s.name}
    if stage not in by_name:
        raise BuildError(f"no stage named {stage!r}")
    chain = [by_name[stage]]
    while chain[0].base in by_name:
        chain.insert(0, by_name[chain[0].base])
    copies: list[Copy] = []
    workdir = "/"
    for current in chain:
        for instruction in current.instructions:
            if (
                until is not None
                and instruction.keyword == "RUN"
                and until in instruction.arguments
            ):
                return copies, workdir
            if instruction.keyword == "ADD":
                raise Unsupported(f"line {instruction.line}: ADD")
            if instruction.keyword == "WORKDIR":
                if "$" in instruction.arguments:
                    raise Unsupported(f"line {instruction.line}: variables in WORKDIR")
                workdir = posixpath.normpath(posixpath.join(workdir, instruction.arguments))
            if instruction.keyword != "COPY":
                continue
            flags, paths = _copy_words(instruction)
            if "--from" in flags:
                continue
            unknown = set(flags) - set(COPY_FLAGS_IGNORED)
            if unknown:
                raise Unsupported(f"line {instruction.line}: COPY {', '.join(sorted(unknown))}")
            if len(paths) < 2:
                raise BuildError(f"line {instruction.line}: COPY needs a source and a destination")
            if any("$" in p for p in paths):
                raise Unsupported(f"line {instruction.line}: variables in COPY")
            *sources, destination = paths
            trailing = "/" if destination.endswith("/") or destination in (".", "./") else ""
            absolute = posixpath.normpath(posixpath.join(workdir, destination))
            copies.append(Copy(sources, absolute.rstrip("/") + trailing, instruction.line))
    if until is not None:
        raise BuildError(f"no RUN in stage {stage!r} runs {until!r}")
    return copies, workdir


def _has_wildcard(path: str) -> bool:
    return any(ch in path for ch in "*?[")


def _resolve_sources(copy: Copy, entries: dict[str, Path]) -> list[str]:
    found: list[str] = []
    for source in copy.sources:
        cleaned = _clean(source)
        if _has_wildcard(cleaned):
            regex = re.compile(_glob_regex(cleaned, double_star=False))
            matches = sorted(path for path in entries if regex.match(path))
            if not matches:
                raise BuildError(f"line {copy.line}: COPY {source}: no file in the context matches")
            found.extend(matches)
        elif cleaned == "":
            found.append("")
        elif cleaned in entries:
            found.append(cleaned)
        else:
            raise BuildError(
                f"line {copy.line}: COPY {source}: not in the build context "
                "(missing, or left out by .dockerignore)"
            )
    return found


def _place(entry: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        target.unlink()
    if entry.is_symlink():
        target.symlink_to(os.readlink(entry))
    elif entry.is_dir():
        target.mkdir(exist_ok=True)
    else:
        shutil.copy2(entry, target)


def assemble(
    context: Path,
    dockerfile: str,
    dockerignore: str,
    image_root: Path,
    stage: str = "build",
    until: str | None = None,
) -> Path:
    """Copy what the stage's context COPY lines give under `image_root`; return its WORKDIR.

    `image_root` stands for the image's `/`: `COPY web ./web` under `WORKDIR /src` lands in
    `image_root/src/web`. With `until`, only the COPY lines before the first RUN containing it
    count: what that command finds. Raises BuildError where `docker build` would fail.
    """
    entries = context_entries(context, Dockerignore(dockerignore))
    copies, workdir = stage_copies(dockerfile, stage, until)
    image_root.mkdir(parents=True, exist_ok=True)
    for copy in copies:
        sources = _resolve_sources(copy, entries)
        into_directory = copy.destination.endswith("/")
        if len(sources) > 1 and not into_directory:
            raise BuildError(f"line {copy.line}: several sources need a destination ending in /")
        destination = image_root / copy.destination.strip("/")
        for source in sources:
            entry = context / source if source else context
            if source and entry.is_symlink() and not entry.resolve().is_relative_to(context):
                raise BuildError(f"line {copy.line}: {source} leads out of the context")
            if source == "" or (entry.is_dir() and not entry.is_symlink()):
                destination.mkdir(parents=True, exist_ok=True)
                prefix = f"{source}/" if source else ""
                for path in sorted(p for p in entries if p.startswith(prefix)):
                    _place(entries[path], destination / path[len(prefix) :])
            elif into_directory or destination.is_dir():
                _place(entry.resolve(), destination / posixpath.basename(source))
            else:
                _place(entry.resolve(), destination)
    return image_root / workdir.strip("/")


# ---- what the package build needs from the assembled tree ----


def _expected_package_files(root: Path, folder: str, patterns: list[str]) -> set[str]:
    found = {p.relative_to(root / folder).as_posix() for p in (root / folder).glob("*.py")}
    for pattern in patterns:
        found |= {
            p.relative_to(root / folder).as_posix()
            for p in (root / folder).glob(pattern)
            if p.is_file() and "__pycache__" not in p.parts
        }
    return found


def package_problems(workdir: Path, repository: Path) -> list[str]:
    """What the package build in `workdir` lacks, against the repository it came from.

    Reads pyproject.toml there: its readme and license files, every folder of
    `[tool.setuptools] package-dir`, each listed package's `__init__.py`, and every module and
    package-data file the repository has for those packages.
    """
    pyproject_path = workdir / "pyproject.toml"
    if not pyproject_path.is_file():
        return ["pyproject.toml is not copied"]
    pyproject = tomllib.loads(pyproject_path.read_text())
    project = pyproject["project"]
    problems: list[str] = []
    readme = project.get("readme")
    readme_file = readme if isinstance(readme, str) else (readme or {}).get("file")
    if readme_file and not (workdir / readme_file).is_file():
        problems.append(f"the readme {readme_file} is not copied")
    for pattern in project.get("license-files", []):
        if not any(workdir.glob(pattern)):
            problems.append(f"no license file matches {pattern}")
    config = pyproject["tool"]["setuptools"]
    package_dir: dict[str, str] = config.get("package-dir", {})
    package_data: dict[str, list[str]] = config.get("package-data", {})
    for name in sorted(package_dir):
        if not (workdir / package_dir[name]).is_dir():
            problems.append(f"the folder {package_dir[name]}/ of {name} is not copied")
    for package in config["packages"]:
        heads = [n for n in package_dir if package == n or package.startswith(n + ".")]
        head = max(heads, key=len) if heads else ""
        below = package[len(head) :].split(".")[1:] if head else package.split(".")
        folder = posixpath.join(package_dir.get(head, ""), *below)
        if not (workdir / folder).is_dir():
            continue
        patterns = package_data.get("*", []) + package_data.get(package, [])
        wanted = _expected_package_files(repository, folder, patterns)
        present = _expected_package_files(workdir, folder, patterns)
        if "__init__.py" not in present:
            problems.append(f"{folder}/__init__.py of {package} is not copied")
        missing = sorted(wanted - present)
        problems.extend(f"{folder}/{name} of {package} is not copied" for name in missing)
    return problems


INCLUDED_FILE = re.compile(r'include_(?:str|bytes)!\(\s*"([^"]+)"\s*\)')
"""A file a Rust source compiles in (`include_str!("../data.json")`), relative to the source."""


def manifest_problems(workdir: Path) -> list[str]:
    """What `cargo fetch --locked` on core/ lacks in `workdir`: the lock and every manifest."""
    core = workdir / "core"
    needed = ["Cargo.toml", "Cargo.lock"]
    problems = [f"core/{name} is not copied" for name in needed if not (core / name).is_file()]
    if (core / "Cargo.toml").is_file():
        members = tomllib.loads((core / "Cargo.toml").read_text())["workspace"]["members"]
        problems.extend(
            f"core/{member}/Cargo.toml is not copied"
            for member in members
            if not (core / member / "Cargo.toml").is_file()
        )
    return problems


def native_problems(workdir: Path) -> list[str]:
    """What the native core's build (setuptools-rust on core/bindings) lacks in `workdir`.

    The Cargo workspace, its lock file and every member's manifest, sources and build script,
    and each file a library source or a build script compiles in from elsewhere (the Python
    engine's data files).
    """
    core = workdir / "core"
    problems = manifest_problems(workdir)
    if (workdir / "pyproject.toml").is_file():
        config = tomllib.loads((workdir / "pyproject.toml").read_text())
        for module in config["tool"]["setuptools-rust"]["ext-modules"]:
            if not (workdir / module["path"]).is_file():
                problems.append(f"{module['path']} of {module['target']} is not copied")
    else:
        problems.append("pyproject.toml is not copied")
    sources: list[Path] = []
    for manifest in sorted(core.glob("*/Cargo.toml")):
        crate = manifest.parent
        if not (crate / "src").is_dir():
            problems.append(f"the sources of {crate.relative_to(workdir)} are not copied")
        sources += crate.glob("src/**/*.rs")
        build = tomllib.loads(manifest.read_text()).get("package", {}).get("build")
        if isinstance(build, str):
            script = crate / build
            if not script.is_file():
                problems.append(f"the build script {script.relative_to(workdir)} is not copied")
            sources += script.parent.glob("**/*.rs")
    for source in sorted(set(sources)):
        for included in INCLUDED_FILE.findall(source.read_text()):
            target = Path(os.path.normpath(source.parent / included))
            if not target.is_file():
                name = target.relative_to(workdir) if target.is_relative_to(workdir) else target
                problems.append(f"{name}, compiled into {source.relative_to(workdir)}, is missing")
    return problems
