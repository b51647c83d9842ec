"""The package's one wheel carries the native core, and serves with it where no Rust exists.

The wheel is built from the repository as `make dist` builds it (setuptools-rust compiles
core/bindings into it; the cargo build is the one `make native` already ran, so it is fresh),
installed into a clean virtual environment, and a server is started there with no cargo or
rustc on PATH, with `--engine native`, which refuses to start without the native core.
(tests/packaging/test_container_build.py builds the wheel as without Rust: no native core, and a
server that falls back to the Python engines, saying so once.)
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import grpc
import pytest

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from tests.packaging.clean_install import CleanVenv, build_wheel
from tests.packaging.clean_server import CleanServer

ROOT = Path(__file__).resolve().parents[2]
HAS_CARGO = shutil.which("cargo") is not None


def _native_files(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return [name for name in archive.namelist() if name.startswith("boardbot_native.")]


def _choose_move(address: str) -> tuple[pb.ChooseMoveResponse, list[str]]:
    """A ChooseMove on a new LEDA game, and the engines the server's ratings were measured on."""
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.BoardBotStub(channel)
        games = stub.ListGames(pb.ListGamesRequest(), timeout=30)
        engines = sorted({r.engine for g in games.games for r in g.strength_ranges})
        game = stub.NewGame(pb.NewGameRequest(game="leda", seed=3), timeout=30)
        reply = stub.ChooseMove(
            pb.ChooseMoveRequest(
                game="leda",
                state_json=game.state_json,
                seat=game.summary.current_player,
                preset="medium",
                seed=1,
            ),
            timeout=30,
        )
    return reply, engines


@pytest.mark.xdist_group("cargo")
@pytest.mark.skipif(not HAS_CARGO, reason="no cargo: the wheel is built without the native core")
def test_the_wheel_serves_chosen_moves_from_the_native_core_without_rust(tmp_path: Path) -> None:
    wheel = build_wheel(ROOT, tmp_path / "wheels", native=True)
    assert len(_native_files(wheel)) == 1

    venv = CleanVenv(tmp_path / "venv")
    venv.create(wheel, ROOT / "pyproject.toml")
    where, optimized = (
        venv.run_python("import boardbot_native as m; print(m.__file__); print(m.OPTIMIZED)")
        .strip()
        .splitlines()
    )
    assert where.startswith(str(venv.site_packages)), where
    assert optimized == "True"  # a release build: the budgets assume its speed

    server = CleanServer(venv, "--engine", "native")
    try:
        reply, engines = _choose_move(server.address())
        assert reply.move.notation
        assert reply.stats.iterations > 0
        assert engines == ["native"]
    finally:
        code = server.stop()
    assert code == 0, "".join(server.output)
    assert not any("native core is not built" in line for line in server.output)
