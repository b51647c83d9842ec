"""The Node.js example client (examples/node/play.js) plays whole games against a real server.

Skipped when `node` or `npm` is not installed. The example's npm dependencies are installed with
`npm ci` on first use (examples/node/node_modules, ignored by git).
"""

from __future__ import annotations

import fcntl
import io
import logging
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from boardbot.proto.boardbot.v1 import boardbot_pb2 as pb
from boardbot.proto.boardbot.v1 import boardbot_pb2_grpc as pb_grpc
from boardbot.service.server import BotServer, ServerConfig

EXAMPLE_DIR = Path(__file__).resolve().parents[2] / "examples" / "node"
NODE = shutil.which("node")
NPM = shutil.which("npm")
MIN_NODE_MAJOR = 20

SEED = "12345678901234567890"
"""Above 2**53 on purpose: a seed sent as a JavaScript number would arrive changed."""
PLAYERS = 3
TOKEN = "example-token"


def _node_major() -> int:
    if NODE is None:
        return 0
    version = subprocess.run(
        [NODE, "--version"], capture_output=True, text=True, timeout=30, check=False
    ).stdout
    match = re.match(r"v(\d+)\.", version.strip())
    return int(match.group(1)) if match else 0


def _skip_reason() -> str | None:
    if NODE is None:
        return "node is not installed (the Node.js example client needs Node 20+ and npm)"
    if NPM is None:
        return "npm is not installed (needed to install the example's dependencies)"
    major = _node_major()
    if major < MIN_NODE_MAJOR:
        return f"node is v{major}; the example client needs Node {MIN_NODE_MAJOR}+"
    return None


SKIP_REASON = _skip_reason()
pytestmark = pytest.mark.skipif(SKIP_REASON is not None, reason=SKIP_REASON or "")


@pytest.fixture(scope="module")
def node_modules() -> Path:
    """examples/node/node_modules, installed with `npm ci` if missing (once across workers)."""
    assert NPM is not None
    lock_path = Path(tempfile.gettempdir()) / "boardbot-examples-node-npm-ci.lock"
    with lock_path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        modules = EXAMPLE_DIR / "node_modules"
        if not (modules / "@grpc" / "grpc-js").is_dir():
            done = subprocess.run(
                [NPM, "ci", "--no-audit", "--no-fund"],
                cwd=EXAMPLE_DIR,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            assert done.returncode == 0, (
                f"npm ci in {EXAMPLE_DIR} failed (exit {done.returncode}):\n"
                f"{done.stdout}\n{done.stderr}"
            )
    return modules


def _start(token: str | None = None) -> tuple[BotServer, io.StringIO]:
    log = io.StringIO()
    logger = logging.getLogger(f"boardbot.test-node-client.{token or 'open'}")
    logger.handlers.clear()
    logger.addHandler(logging.StreamHandler(log))
    logger.setLevel(logging.INFO)
    logger.propagate = False
    config = ServerConfig(
        host="127.0.0.1", port=0, workers=2, queue_limit=8, grace_seconds=5.0, token=token
    )
    server = BotServer(config, logger)
    server.start()
    return server, log


@pytest.fixture(scope="module")
def token_server() -> Iterator[tuple[str, io.StringIO]]:
    """A server on port 0 that requires the token TOKEN."""
    server, log = _start(TOKEN)
    yield f"127.0.0.1:{server.port}", log
    server.stop(grace=2)


def _play(node_modules: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert NODE is not None and node_modules.is_dir()
    return subprocess.run(
        [NODE, str(EXAMPLE_DIR / "play.js"), *args],
        cwd=EXAMPLE_DIR,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def _setup_events(address: str, game: str, **fields: object) -> list[str]:
    """The chance events NewGame resolves for a game, asked from Python with the same seed."""
    with grpc.insecure_channel(address) as channel:
        stub = pb_grpc.BoardBotStub(channel)
        reply = stub.NewGame(
            pb.NewGameRequest(game=game, seed=int(SEED), **fields),
            metadata=[("authorization", f"Bearer {TOKEN}")],
            timeout=10,
        )
    return list(reply.chance_events)


def test_node_client_plays_both_games_to_the_end(
    node_modules: Path, token_server: tuple[str, io.StringIO]
) -> None:
    address, log = token_server
    done = _play(
        node_modules,
        "--server", address,
        "--token", TOKEN,
        "--game", "all",
        "--players", str(PLAYERS),
        "--seed", SEED,
        "--preset", "beginner",
    )  # fmt: skip
    report = f"exit {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    assert done.returncode == 0, report
    out = done.stdout
    assert "health (server): SERVING" in out, report
    assert "game leda: 2-2 players" in out and "game legend_raiders: 2-4 players" in out, report
    for game in ("leda", "legend_raiders"):
        assert re.search(rf"^{game} finished after [1-9]\d* moves: scores \[", out, re.M), report
    assert "all games finished: leda, legend_raiders" in out, report
    assert f"== legend_raiders: {PLAYERS} players, seed {SEED}" in out, report
    # The uint64 seed above 2**53 arrived intact: the same setup as a Python client gets.
    events = _setup_events(address, "legend_raiders", players=PLAYERS)
    assert events and f"setup: {' '.join(events)}\n" in out, report
    # Both forms of the ApplyMove oneof were used, and LegalMoves and Analyze were shown.
    assert "notation)" in out and "move_json)" in out, report
    assert out.count("analysis for seat") == 2 and out.count("legal moves of seat") == 2, report
    # The errors on purpose print their status code, message and decoded rich details.
    assert "FAILED_PRECONDITION (9): the game is over" in out, report
    assert "reason GAME_OVER (domain boardbot.v1" in out, report
    illegal_state = "expected error from LegalMoves, reason INVALID_STATE: INVALID_ARGUMENT (3)"
    assert illegal_state in out and "field state_json.players[0].food: " in out, report
    bad_move = "expected error from ApplyMove, reason INVALID_MOVE: INVALID_ARGUMENT (3)"
    assert bad_move in out, report
    assert '"method":"ChooseMove"' in log.getvalue()


def test_node_client_reports_a_missing_token(
    node_modules: Path, token_server: tuple[str, io.StringIO]
) -> None:
    address, _ = token_server
    done = _play(node_modules, "--server", address, "--game", "leda")
    report = f"exit {done.returncode}\nstdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    assert done.returncode == 1, report
    assert "health (server): SERVING" in done.stdout, report  # health needs no token
    assert "UNAUTHENTICATED (16): missing or wrong token" in done.stderr, report
    assert "reason MISSING_TOKEN (domain boardbot.v1" in done.stderr, report
    assert "NOT FINISHED: leda" in done.stdout, report
