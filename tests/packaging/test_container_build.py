"""The Dockerfile's build stage builds, installs and serves, checked without a container engine.

The build context its COPY lines give (after .dockerignore) is assembled by Docker's rules
(tests/packaging/docker_context.py), the wheel is built from it, installed into a clean virtual
environment (tests/packaging/clean_install.py), every module of boardbot is imported there and
a server is started and asked for its health, a game and a move. The native core is not
compiled here (too slow: the wheel is built as without Rust, which the build backend allows);
its part of the context is checked with `cargo metadata`. tests/packaging/test_wheel.py builds
the wheel with the native core and serves from it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import grpc
import pytest

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from tests.packaging.clean_install import (
    IMPORT_EVERYTHING,
    CleanVenv,
    build_wheel,
    clean_env,
)
from tests.packaging.clean_server import CleanServer
from tests.packaging.docker_context import (
    BuildError,
    Dockerignore,
    assemble,
    instructions,
    manifest_problems,
    native_problems,
    package_problems,
    stage_copies,
)

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text()
DOCKERIGNORE = (ROOT / ".dockerignore").read_text()
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PACKAGE_DIR: dict[str, str] = PYPROJECT["tool"]["setuptools"]["package-dir"]


# ---- .dockerignore patterns ----


@pytest.mark.parametrize(
    ("patterns", "path", "ignored"),
    [
        # Anchored at the root, and a matched directory takes everything below it.
        ("build", "build", True),
        ("build", "build/lib/x.py", True),
        ("build", "core/build", False),
        ("build", "builder", False),
        ("core/target", "core/target/release/libx.so", True),
        ("core/target", "target", False),
        ("/core/target/", "core/target/x", True),
        ("./tests", "tests/test_x.py", True),
        # `*` and `?` stop at `/`.
        ("*.egg-info", "boardbot.egg-info/PKG-INFO", True),
        ("*.egg-info", "core/x.egg-info", False),
        ("*.pyc", "a.pyc", True),
        ("*.pyc", "engine/a.pyc", False),
        ("engine/*.py", "engine/leda/rules.py", False),
        ("engine/?.py", "engine/a.py", True),
        ("engine/?.py", "engine/ab.py", False),
        # `**` is any number of directories, none included.
        ("**/__pycache__", "__pycache__/x.pyc", True),
        ("**/__pycache__", "engine/leda/__pycache__/rules.cpython-311.pyc", True),
        ("**/__pycache__", "engine/__pycache__x", False),
        ("**/*.pyc", "a.pyc", True),
        ("**/*.pyc", "engine/leda/a.pyc", True),
        ("docs/**", "docs/api.md", True),
        ("docs/**", "docs", False),
        ("a/**/b", "a/b", True),
        ("a/**/b", "a/x/y/b/c", True),
        ("a/**/b", "a/xb", False),
        # Literal dots, classes and escapes.
        ("a.b", "axb", False),
        ("file[0-9]", "file7", True),
        ("file[^0-9]", "file7", False),
        ("file[^0-9]", "filex", True),
        ("\\*", "*", True),
        ("\\*", "x", False),
        # Comments, blank lines and exceptions; the last matching line decides.
        ("# tests\n\n", "# tests", False),
        ("docs\n!docs/api.md", "docs/api.md", False),
        ("docs\n!docs/api.md", "docs/web.md", True),
        ("docs\n!docs/api.md\ndocs/*.md", "docs/api.md", True),
        ("!keep\n*", "keep", True),
        ("*\n!keep", "keep", False),
        ("*\n!keep", "keep/inner", False),
        ("*\n! keep ", "keep", False),
    ],
)
def test_dockerignore_follows_dockers_rules(patterns: str, path: str, ignored: bool) -> None:
    assert Dockerignore(patterns).ignores(path) is ignored


def test_the_dockerignore_leaves_out_what_the_image_does_not_need() -> None:
    ignore = Dockerignore(DOCKERIGNORE)
    for path in [
        "web/static/index.html",
        "search/strength/leda-2p.json",
        "core/Cargo.lock",
        "core/bindings/src/lib.rs",
        "LICENSE",
        "README.md",
        "pyproject.toml",
    ]:
        assert not ignore.ignores(path), path
    for path in [
        "tests/packaging/test_container_build.py",
        "core/target/release/x",
        "engine/__pycache__/a.cpython-311.pyc",
        ".venv/bin/python",
        "boardbot.egg-info",
    ]:
        assert ignore.ignores(path), path


# ---- the COPY lines ----


def _context(tmp_path: Path) -> Path:
    context = tmp_path / "context"
    for name in [
        "pkg/a.py",
        "pkg/sub/b.py",
        "pkg/__pycache__/a.pyc",
        "top.txt",
        "other.txt",
        "secret/key",
    ]:
        (context / name).parent.mkdir(parents=True, exist_ok=True)
        (context / name).write_text(name)
    (context / "pkg" / "link").symlink_to("../top.txt")
    return context


def test_copy_follows_dockers_rules(tmp_path: Path) -> None:
    dockerfile = """
    # syntax=docker/dockerfile:1
    FROM python:3.11 AS tools
    COPY other.txt /tools/
    FROM python:3.11 AS build
    COPY --from=tools /tools /tools
    WORKDIR /src
    # a comment between lines
    COPY pkg \\
        # a comment inside a continued line
        ./pkg
    COPY --chown=1:1 top.txt other.txt /etc/
    COPY ["top.txt", "renamed.txt"]
    COPY *.txt all/
    WORKDIR sub
    COPY top.txt .
    """
    image = tmp_path / "image"
    workdir = assemble(_context(tmp_path), dockerfile, "**/__pycache__\nsecret", image)
    assert workdir == image / "src" / "sub"
    files = sorted(p.relative_to(image).as_posix() for p in image.rglob("*"))
    assert files == [
        "etc",
        "etc/other.txt",
        "etc/top.txt",
        "src",
        "src/all",
        "src/all/other.txt",
        "src/all/top.txt",
        "src/pkg",
        "src/pkg/a.py",
        "src/pkg/link",
        "src/pkg/sub",
        "src/pkg/sub/b.py",
        "src/renamed.txt",
        "src/sub",
        "src/sub/top.txt",
    ]
    assert (image / "src/pkg/link").is_symlink()
    assert (image / "src/renamed.txt").read_text() == "top.txt"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("COPY secret ./secret", "left out by .dockerignore"),
        ("COPY missing ./missing", "not in the build context"),
        ("COPY top.txt other.txt ./both", "ending in /"),
        ("COPY *.md ./", "no file in the context matches"),
    ],
)
def test_copy_fails_where_docker_build_fails(tmp_path: Path, line: str, message: str) -> None:
    dockerfile = f"FROM python:3.11 AS build\nWORKDIR /src\n{line}\n"
    with pytest.raises(BuildError, match=message):
        assemble(_context(tmp_path), dockerfile, "secret", tmp_path / "image")


# ---- the project's Dockerfile ----


def _copy_lines() -> list[str]:
    return [line for line in DOCKERFILE.splitlines() if re.match(r"COPY (?!--from)", line)]


WHEEL_BUILD = "pip wheel"
"""The RUN of the build stage that builds the wheel and compiles the native core into it."""
BACKEND = "deps/build.txt"
"""The RUN that installs the build backend, from its lock file alone."""
CRATES = "cargo fetch"
"""The RUN that downloads the crates, from the Cargo manifests and lock file alone."""


def _assemble(dockerfile: str, image: Path) -> Path:
    """The build stage's WORKDIR as the wheel's build finds it."""
    return assemble(ROOT, dockerfile, DOCKERIGNORE, image / "wheel", until=WHEEL_BUILD)


def _problems(dockerfile: str, image: Path) -> list[str]:
    """What the wheel's build lacks, for the native core and for the package."""
    workdir = _assemble(dockerfile, image)
    return native_problems(workdir) + package_problems(workdir, ROOT)


def test_the_build_stage_copies_what_the_package_and_the_native_core_need(tmp_path: Path) -> None:
    assert _problems(DOCKERFILE, tmp_path / "image") == []


@pytest.mark.parametrize(
    "needed",
    [
        *sorted(set(PACKAGE_DIR.values())),
        "README.md",
        "LICENSE",
        "core",
    ],
)
def test_a_copy_line_left_out_is_found(tmp_path: Path, needed: str) -> None:
    copies_it = re.compile(rf"COPY (.* )?{re.escape(needed)}( |/|$)")
    lines = [line for line in _copy_lines() if copies_it.match(line)]
    assert lines, f"no COPY line copies {needed}"
    without = DOCKERFILE
    for line in lines:
        without = without.replace(f"{line}\n", "")
    problems = _problems(without, tmp_path / "image")
    assert any(needed in problem for problem in problems), problems


def test_a_folder_the_dockerignore_leaves_out_is_found(tmp_path: Path) -> None:
    workdir = assemble(ROOT, DOCKERFILE, DOCKERIGNORE + "web/static\n", tmp_path / "image")
    problems = package_problems(workdir, ROOT)
    assert "web/static/index.html of boardbot.web is not copied" in problems


def test_the_build_stage_copies_every_package_folder_once() -> None:
    copies, workdir = stage_copies(DOCKERFILE, "build")
    assert workdir == "/src"
    copied = [source for copy in copies for source in copy.sources]
    for folder in PACKAGE_DIR.values():
        assert copied.count(folder) == 1, folder


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if not p.is_dir()}


def test_the_dependency_layers_come_before_any_source(tmp_path: Path) -> None:
    # A change to the sources must not reinstall the Python dependencies or download the crates.
    before_backend = assemble(ROOT, DOCKERFILE, DOCKERIGNORE, tmp_path / "backend", until=BACKEND)
    assert _files(before_backend) == {"deps/build.txt"}
    before_crates = assemble(ROOT, DOCKERFILE, DOCKERIGNORE, tmp_path / "crates", until=CRATES)
    assert manifest_problems(before_crates) == []
    manifests = {
        f"core/{p.relative_to(ROOT / 'core').as_posix()}"
        for p in (ROOT / "core").glob("*/Cargo.toml")
    }
    assert _files(before_crates) == {
        "deps/build.txt",
        "core/Cargo.toml",
        "core/Cargo.lock",
        *manifests,
    }


@pytest.mark.parametrize(
    "member", sorted(p.parent.name for p in (ROOT / "core").glob("*/Cargo.toml"))
)
def test_a_crate_manifest_left_out_of_the_crates_layer_is_found(
    tmp_path: Path, member: str
) -> None:
    line = f"COPY core/{member}/Cargo.toml ./core/{member}/\n"
    assert line in DOCKERFILE
    without = DOCKERFILE.replace(line, "")
    workdir = assemble(ROOT, without, DOCKERIGNORE, tmp_path / "crates", until=CRATES)
    assert manifest_problems(workdir) == [f"core/{member}/Cargo.toml is not copied"]


# ---- build, install and serve (about 15 s) ----


def _cargo_metadata(core: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            "cargo",
            "metadata",
            "--locked",
            "--offline",
            "--format-version",
            "1",
            "--manifest-path",
            str(core / "Cargo.toml"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def _check_native_context(crates: Path, native: Path) -> None:
    """`cargo metadata --locked` where the crates are fetched and where the core is built.

    Only when cargo can resolve the repository's own workspace offline (its crates are in this
    machine's cache); the fetch layer's empty library roots are made as its RUN makes them.
    """
    if shutil.which("cargo") is None:
        return
    if _cargo_metadata(ROOT / "core").returncode != 0:
        return
    for crate in (crates / "core").glob("*/"):
        (crate / "src").mkdir()
        (crate / "src" / "lib.rs").touch()
    result = _cargo_metadata(crates / "core")
    assert result.returncode == 0, result.stderr
    result = _cargo_metadata(native / "core")
    assert result.returncode == 0, result.stderr
    # The lock file's crates must compile with the image's Rust (`FROM rust:X.Y`).
    image_rust = re.search(r"^FROM rust:(\d+)\.(\d+)", DOCKERFILE, re.MULTILINE)
    assert image_rust
    image_version = (int(image_rust.group(1)), int(image_rust.group(2)))
    for package in json.loads(result.stdout)["packages"]:
        if package.get("rust_version"):
            needed = tuple(int(x) for x in package["rust_version"].split(".")[:2])
            assert needed <= image_version, f"{package['name']} needs Rust {needed}"


def test_the_build_context_builds_installs_and_serves(tmp_path: Path) -> None:
    workdir = _assemble(DOCKERFILE, tmp_path / "image")
    assert native_problems(workdir) + package_problems(workdir, ROOT) == []
    crates = assemble(ROOT, DOCKERFILE, DOCKERIGNORE, tmp_path / "crates", until=CRATES)
    _check_native_context(crates, workdir)

    wheel = build_wheel(workdir, tmp_path / "wheels")
    venv = CleanVenv(tmp_path / "venv")
    venv.create(wheel, workdir / "pyproject.toml")
    site_packages = venv.site_packages

    report = venv.run_json(IMPORT_EVERYTHING)
    assert isinstance(report, dict)
    assert report["errors"] == {}
    assert report.get("leaked", []) == [], report["path"]
    files = report["modules"]
    inside = str(site_packages) + "/"
    outside = {name: file for name, file in files.items() if not file.startswith(inside)}
    assert outside == {}, "boardbot must be imported from the clean environment's site-packages"
    expected = {"boardbot"} | {
        name + "." + ".".join(p.relative_to(ROOT / folder).with_suffix("").parts)
        for name, folder in PACKAGE_DIR.items()
        for p in (ROOT / folder).rglob("*.py")
        if name != "boardbot" and "__pycache__" not in p.parts
    }
    expected = {m.removesuffix(".__init__") for m in expected}
    assert set(files) == expected
    static = site_packages / "boardbot" / "web" / "static"
    assert {p.name for p in static.iterdir()} >= {"index.html", "app.js", "style.css", "games"}

    assert report.get("leaked", []) == [], "a wheel built without Rust has no native core"
    server = CleanServer(venv)
    try:
        address = server.address()
        health = subprocess.run(
            [str(venv.path / "bin" / "boardbot"), "health", "--server", address],
            capture_output=True,
            text=True,
            env=clean_env(),
            cwd=venv.path,
            timeout=30,
        )
        assert (health.returncode, health.stdout.strip()) == (0, "SERVING"), health.stderr
        with grpc.insecure_channel(address) as channel:
            stub = pb_grpc.BoardBotStub(channel)
            game = stub.NewGame(
                pb.NewGameRequest(
                    game="leda", options_json=b'{"clans": ["cats", "sharks"]}', seed=7
                ),
                timeout=30,
            )
            reply = stub.ChooseMove(
                pb.ChooseMoveRequest(
                    game="leda",
                    state_json=game.state_json,
                    seat=game.summary.current_player,
                    preset="beginner",
                    seed=1,
                ),
                timeout=30,
            )
            assert reply.move.notation
            games = stub.ListGames(pb.ListGamesRequest(), timeout=30)
            engines = {r.engine for g in games.games for r in g.strength_ranges}
            assert engines == {"python"}
    finally:
        code = server.stop()
    assert code == 0, "".join(server.output)
    notices = [line for line in server.output if "native core is not built" in line]
    assert len(notices) == 1, server.output


def test_the_image_installs_from_the_lock_files(tmp_path: Path) -> None:
    # The build backend and the runtime dependencies come from the hashed lock files, and the
    # runtime stage installs the wheel without resolving anything else.
    backend = [i for i in instructions(DOCKERFILE) if i.keyword == "RUN" and BACKEND in i.arguments]
    assert backend and "--require-hashes" in backend[0].arguments
    runtime = stage_copies(DOCKERFILE, "runtime")[0]
    assert [copy.sources for copy in runtime] == [["deps/runtime.txt"]]
    run_lines = [i.arguments for i in instructions(DOCKERFILE) if i.keyword == "RUN"]
    assert any("--require-hashes -r /tmp/runtime.txt" in line for line in run_lines)
    assert any("pip install --no-deps /tmp/wheels/boardbot-" in line for line in run_lines)
    assemble(ROOT, DOCKERFILE, DOCKERIGNORE, tmp_path / "runtime", stage="runtime")
    assert (tmp_path / "runtime" / "tmp" / "runtime.txt").read_text() == (
        ROOT / "deps" / "runtime.txt"
    ).read_text()
