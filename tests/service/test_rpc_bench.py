"""`boardbot bench rpc`: every RPC measured against one server, alone and with concurrent
clients. Tiny runs against the in-process test server; the report's shape is checked, never its
speed (no timing assertions in tests)."""

from __future__ import annotations

import orjson
import pytest

from boardbot.cli.main import build_parser
from boardbot.tools.rpc_bench import HEALTH, ITERATIONS
from tests.service.servers import Served

RPCS = [
    HEALTH, "ListGames", "NewGame", "LegalMoves", "ApplyMove", "ViewState",
    "ChooseMove beginner", f"ChooseMove {ITERATIONS} it", f"Analyze {ITERATIONS} it",
]  # fmt: skip
TINY = ["--requests", "3", "--seconds", "30", "--clients", "2", "--positions", "2"]


def bench(capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, str, str]:
    """Run `boardbot bench rpc FLAGS` in-process: (exit status, stdout, stderr)."""
    args = build_parser().parse_args(["bench", "rpc", *flags])
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("game", "options"), [("leda", []), ("legend_raiders", ["--players", "2"])]
)
def test_every_rpc_is_measured(
    capsys: pytest.CaptureFixture[str], served: Served, game: str, options: list[str]
) -> None:
    flags = ["--game", game, *options, "--server", served.address, "--json", *TINY]
    code, out, err = bench(capsys, *flags)
    assert code == 0, err
    report = orjson.loads(out)
    assert report["game"] == game and report["server"] == served.address
    assert report["engine"] == "server" and report["workers"] is None
    assert report["clients"] == 2 and report["max_requests"] == 3 and report["positions"] == 2
    assert [r["rpc"] for r in report["rpcs"]] == RPCS
    for r in report["rpcs"]:
        for phase, clients in (("single", 1), ("concurrent", 2)):
            figures = r[phase]
            assert figures["clients"] == clients and figures["requests"] == 3, r["rpc"]
            assert 0 < figures["p50_ms"] <= figures["p99_ms"]
            assert figures["requests_per_second"] > 0 and figures["seconds"] > 0
        assert r["single_p50_over_floor"] > 0 and r["concurrent_p50_over_floor"] > 0
    floor = report["rpcs"][0]
    assert floor["single_p50_over_floor"] == floor["concurrent_p50_over_floor"] == 1.0


def test_table_names_every_rpc(capsys: pytest.CaptureFixture[str], served: Served) -> None:
    flags = ["--game", "legend_raiders", "--server", served.address, *TINY]
    code, out, err = bench(capsys, *flags)
    assert code == 0, err
    rows = out.splitlines()[3:-1]
    assert [row[:22].strip() for row in rows] == RPCS
    assert all(row.endswith("x") for row in rows)


@pytest.mark.parametrize(
    "flags", [["--clients", "0"], ["--requests", "0"], ["--seconds", "0"], ["--workers", "0"]]
)
def test_bad_bounds_are_errors(capsys: pytest.CaptureFixture[str], flags: list[str]) -> None:
    code, out, err = bench(capsys, "--game", "leda", *flags)
    assert code == 1
    assert out == "" and err.startswith("error: ")


def test_starts_its_own_server(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--game", "leda", "--engine", "python", "--json", "--requests", "1", "--clients", "2"]
    code, out, err = bench(capsys, *flags)
    assert code == 0, err
    report = orjson.loads(out)
    assert report["server"] == "local" and report["engine"] == "python"
    assert report["workers"] == 1
    assert [r["rpc"] for r in report["rpcs"]] == RPCS
    assert all(r["single"]["requests"] == r["concurrent"]["requests"] == 1 for r in report["rpcs"])
